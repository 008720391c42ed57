"""Response windows of Kingdom Wars for standing answers: their kinds, the
facts a window shows every seat it asks (``context``), the condition words
and how they are tested on a seat's own view.

Every seat starts with the standing answers :func:`defaults` gives: "ask me
when I can answer, else pass". A window is still offered to every seat the
rules allow, whatever it holds, and stays open its minimum time, so the
timing tells nobody whether a seat could have answered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from judge.engine import JSON, Decision, IllegalLine, PolicyCondition, WindowSpec, conjuncts
from judge_games.kingdom_wars import skills as S
from judge_games.kingdom_wars.data import DATA
from judge_games.kingdom_wars.table import SEAT_NAMES, seat_label

if TYPE_CHECKING:
    from judge.engine import Game

MOMENTS: tuple[str, ...] = (
    "prep_start", "before_judgement", "judged", "retrial", "before_draw",
    "draw_start", "draw_count", "before_play", "play_start", "card_used", "targeted",
    "targets_fixed", "played_dodge", "attack_dodged", "negation_used", "taking_damage",
    "damage_dealt", "damaged", "attack_damaged", "hp_lost", "recovered", "dying",
    "dying_by_damage", "death", "discarded", "equip_lost", "hand_emptied", "before_discard",
    "discard_end", "final_start", "turn_end",
)
"""The moments a trigger window opens at (those some skill watches), in the
order of a turn; the words of ``WHEN MOMENT``. ``HELP moments`` says what
each one is."""

_COMMON = (
    PolicyCondition("CAN", "", "I hold a card, an equipment or a skill that answers it"),
    PolicyCondition("HOLDING", "[<n>] <card>", "I hold at least n (1) cards of that name"),
    PolicyCondition("BY", "ME|KINGDOM|OTHER|<seat>",
                    "what it asks about comes from me, my kingdom, another force, that seat"),
    PolicyCondition("CARD", "<card>", "the card it asks about"),
    PolicyCondition("NOT", "<condition>", "the condition after it does not hold"),
)
_TARGET = PolicyCondition("TARGET", "ME|KINGDOM|OTHER|<seat>",
                          "it targets me, a player of my kingdom, another force, that seat")

WINDOWS: tuple[WindowSpec, ...] = (
    WindowSpec("negation", "a spell is about to take effect on a player (or a Negation on a "
               "spell): NEGATE it; conditions join with AND",
               ("NEGATE [FORCE] [<card>] [BY <skill> WITH <card>]",),
               (*_COMMON, _TARGET, PolicyCondition("DEPTH", "<n>",
                                                   "1: against the spell, 2: against a "
                                                   "Negation, ..."))),
    WindowSpec("dodge", "an Attack or Raining Arrows asks you for a Dodge",
               ("DODGE [<card>] [BY <skill or equipment> [WITH <card>]]",), _COMMON),
    WindowSpec("attack", "a Duel or Barbarian Invasion asks you for an Attack",
               ("ATTACK [<card>] [BY <skill or equipment> WITH <card>...]",), _COMMON),
    WindowSpec("rescue", "a player is dying: PEACH them (WINE yourself)",
               ("PEACH [<card>] [BY <skill or Perfect Pair> [WITH <card>]]", "WINE [<card>]"),
               (*_COMMON, PolicyCondition("DYING", "ME|KINGDOM|OTHER|<seat>",
                                          "who is dying"))),
    WindowSpec("trigger", "a moment that skills answer (damage taken, a judgement, a phase "
               "beginning...): USE <skill> or PASS",
               ("USE <skill> [WITH <card>...] [ON <seat>...]",),
               (*_COMMON, PolicyCondition("MOMENT", "<moment>",
                                          "the moment (HELP moments): " + ", ".join(MOMENTS)))),
)


OWN_SPELL = "BY ME AND NOT TARGET ME AND DEPTH 1"
"""A spell a seat used itself, taking effect on another player: Negation may
cancel "target Spell card" whoever used it (so a seat may Negate its own
Rest and Reorganization on an enemy), but a seat is not asked by default
whether to Negate its own spell on another (its standing answers may say
otherwise: POLICY negation NEGATE WHEN BY ME AND TARGET OTHER)."""


def defaults() -> list[tuple[str, str, str]]:
    """Each seat's standing answers at the start: pass on its own spell
    on another player (OWN_SPELL), else ask when it can answer."""
    own = [("negation", "PASS", OWN_SPELL)]
    return own + [(w.kind, answer, when) for w in WINDOWS
                  for answer, when in (("ASK", "CAN"), ("PASS", ""))]


def context(state: Mapping[str, Any], ask: Mapping[str, Any]) -> dict[str, JSON]:
    """What every asked seat may know of the window (public facts only)."""
    kind = ask["kind"]
    if kind == "negate":
        about = ask["about"]
        return {"want": "negation", "card": about["card"]["kind"] if about["type"] == "trick"
                else about["trick"]["kind"], "target": about["target"], "by": about["user"],
                "depth": _depth(state, ask), "about": about["type"]}
    if kind == "trigger":
        m = ask["m"]
        return {"want": "skill", "moment": m["name"], "seat": m.get("seat")}
    ctx = dict(ask.get("ctx", {}))
    ctx["want"] = ask["want"]
    return ctx


def _depth(state: Mapping[str, Any], ask: Mapping[str, Any]) -> int:
    n = 0
    for a in state["asks"]:
        if a["kind"] == "negate":
            n += 1
        if a["serial"] == ask["serial"]:
            break
    return n


def prompt(state: Mapping[str, Any], ask: Mapping[str, Any]) -> str:
    kind = ask["kind"]
    if kind == "negate":
        return f"{ask['what']}: NEGATE it or PASS"
    if kind == "trigger":
        return f"{ask['what']}: USE a skill that answers it, or PASS"
    verb = {"dodge": "DODGE", "attack": "ATTACK", "peach": "PEACH"}[ask["want"]]
    need = ask["need"] - ask["got"]
    more = f" ({need} needed)" if need > 1 else ""
    return f"{ask['what']}: {verb}{more} or PASS"


# --------------------------------------------------------------------------- conditions


def _who(word: str) -> str | None:
    up = word.upper()
    if up in ("ME", "KINGDOM", "OTHER"):
        return up
    if up in SEAT_NAMES:
        return up
    return None


def condition(game: Game, window: str, words: Sequence[str]) -> str:
    """The canonical text of a standing answer's condition."""
    spec = game.window(window)
    if spec is None:
        raise IllegalLine(f"there is no {window} window")
    allowed = {c.word for c in spec.conditions}
    hint = "conditions: " + ", ".join(f"{c.word} {c.args}".strip() for c in spec.conditions)
    out = []
    for clause in conjuncts(words):
        negated = clause[0].upper() == "NOT" and len(clause) > 1
        if negated:
            clause = clause[1:]
        word = clause[0].upper()
        args = clause[1:]
        if negated:
            out.append("NOT " + condition(game, window, clause))
            continue
        if word not in allowed:
            raise IllegalLine(f"{' '.join(clause)!r} is not a condition of {window} windows",
                              hint=hint)
        if word == "CAN" and not args:
            out.append("CAN")
        elif word in ("BY", "TARGET", "DYING") and len(args) == 1 and _who(args[0]):
            out.append(f"{word} {_who(args[0])}")
        elif word == "CARD" and args and DATA.card(" ".join(args)):
            found = DATA.card(" ".join(args))
            assert found is not None
            out.append(f"CARD {found.name}")
        elif word == "HOLDING" and args:
            n = 1
            if args[0].isdigit():
                n = int(args[0])
                args = args[1:]
            found = DATA.card(" ".join(args))
            if found is None:
                raise IllegalLine(f"{' '.join(args)!r} is not a card", hint=hint)
            out.append(f"HOLDING {n} {found.name}")
        elif word == "MOMENT" and len(args) == 1:
            if args[0].lower() not in MOMENTS:
                raise IllegalLine(f"{args[0]!r} is not a moment a trigger window opens at",
                                  hint="moments: " + ", ".join(MOMENTS))
            out.append(f"MOMENT {args[0].lower()}")
        elif word == "DEPTH" and len(args) == 1 and args[0].isdigit():
            out.append(f"DEPTH {int(args[0])}")
        else:
            raise IllegalLine(f"{' '.join(clause)!r} is not a condition of {window} windows",
                              hint=hint)
    return " AND ".join(out)


def holds(view: Mapping[str, JSON], decision: Decision, cond: str) -> bool:
    """Every clause holds for the reader of ``view`` (its own view) and the
    decision's public context."""
    return all(_clause(view, decision, c) for c in cond.split(" AND "))


def _relation(view: Mapping[str, JSON], seat: Any, who: str) -> bool:
    me = view.get("role")
    if seat is None:
        return False
    if who == "ME":
        return bool(seat == me)
    seats = {s["seat"]: s for s in view.get("seats", [])}
    mine, theirs = seats.get(me), seats.get(seat)
    if who in ("KINGDOM", "OTHER"):
        if mine is None or theirs is None:
            return False
        same = (seat == me) or (mine.get("kingdom") is not None
                                and mine.get("kingdom") == theirs.get("kingdom")
                                and not mine.get("ambitionist") and not theirs.get("ambitionist"))
        own = (view.get("you") or {}).get("kingdom_of_generals")
        kin = same or (mine.get("kingdom") is None and own is not None
                       and theirs.get("kingdom") == own)  # hidden: my generals' kingdom
        if who == "KINGDOM":
            return kin
        return not kin and theirs.get("kingdom") is not None
    return bool(seat == who)


def _hand_names(view: Mapping[str, JSON]) -> list[str]:
    you = view.get("you") or {}
    return [h["kind"] for h in you.get("hand", [])]


def _clause(view: Mapping[str, JSON], d: Decision, clause: str) -> bool:
    word, _, arg = clause.partition(" ")
    if word == "NOT":
        return not _clause(view, d, arg)
    ctx = d.context
    if word == "CAN":
        return can_answer(view, d)
    if word == "BY":
        return _relation(view, ctx.get("by"), arg)
    if word == "TARGET":
        return _relation(view, ctx.get("target"), arg)
    if word == "DYING":
        return _relation(view, ctx.get("dying"), arg)
    if word == "CARD":
        c = DATA.card(arg)
        return c is not None and ctx.get("card") == c.id
    if word == "HOLDING":
        n_text, _, name = arg.partition(" ")
        c = DATA.card(name)
        return c is not None and _hand_names(view).count(c.id) >= int(n_text)
    if word == "MOMENT":
        return bool(ctx.get("moment") == arg)
    if word == "DEPTH":
        return bool(str(ctx.get("depth")) == arg)
    return False


def can_answer(view: Mapping[str, JSON], d: Decision) -> bool:
    """Whether the reader holds something that answers the window: a card of
    the kind it asks for, an equipment or marker that makes one, or a skill
    (of an exposed or hidden general of its own) that makes one or answers the
    moment."""
    you = view.get("you") or {}
    want = d.context.get("want")
    hand = _hand_names(view)
    skills = [str(s) for s in you.get("skill_ids", [])]  # skill ids, as S.hooked gives
    equip = [e["kind"] for e in you.get("equip", [])]
    markers = you.get("markers", {})
    death_match = bool(view.get("death_match"))
    if want == "skill":
        moment = d.context.get("moment")
        mine = d.context.get("seat") == view.get("role")
        return any(sk.id in skills and (mine or not sk.only_own) for sk in S.hooked(str(moment)))
    makes = [k for sid in skills if (sk := S.of(sid)) for k in sk.produces]
    if want == "negation":
        return "negation" in hand or "negation-force" in hand or "negation" in makes
    if want == "dodge":
        return ("dodge" in hand or "dodge" in makes or "eight-trigrams-formation" in equip
                or "eight-formations" in skills or (death_match and "peach" in hand))
    if want == "attack":
        attacks = [h for h in hand if h in ("attack", "fire-attack", "thunder-attack")]
        return (bool(attacks) or "attack" in makes or (death_match and "peach" in hand)
                or ("serpent-spear" in equip and len(hand) >= 2))
    if want == "peach":
        if death_match:
            return False
        dying_me = d.context.get("dying") == view.get("role")
        rescue_skills = any(sk.id in skills for sk in S.hooked("respond_peach"))
        return ("peach" in hand or "peach" in makes or bool(markers.get("perfect-pair"))
                or (dying_me and ("wine" in hand or rescue_skills)))
    return False


def describe_seat(seat: str) -> str:
    return seat_label(seat)

"""Response windows of Kingdom Wars for standing answers: their kinds, the
facts a window shows every seat it asks (``context``), the condition words
and how they are tested on a seat's own view.

Every seat starts with the standing answers :func:`defaults` gives: answers,
not questions (each cites the rulebook), so by default no window asks anyone
by hand and each closes as it opens; ``POLICY <window> ASK`` has a seat asked
whatever it holds. Whether a seat is asked depends only on public facts and
its own settings (judge/game/timing.py): ``CAN`` and ``HOLDING``, and ``KINGDOM``
or ``OTHER`` (one's own kingdom may be hidden), may choose an answer but not
whether to ask. A seat with a hidden general is never asked a trigger window
by hand (its standing answers use its skills: ``POLICY trigger USE Clever
Shift WHEN MOMENT before_discard``), nor a window it publicly cannot answer
(:func:`may_ask`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from judge.game.engine import JSON, Decision, IllegalLine, PolicyCondition, WindowSpec, conjuncts
from judge_games.kingdom_wars import skills as S
from judge_games.kingdom_wars.data import DATA
from judge_games.kingdom_wars.table import RULES, SEAT_NAMES, seat_label

if TYPE_CHECKING:
    from judge.game.spec import GameSpec as Game

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

_KIN = ("KINGDOM", "OTHER")
"""Relations that test one's own kingdom, which is hidden while one's
generals are: they may choose an answer, not whether one is asked."""

_COMMON = (
    PolicyCondition("CAN", "", "I hold a card, an equipment or a skill that answers it "
                    "(chooses an answer only)", private=True),
    PolicyCondition("HOLDING", "[<n>] <card>", "I hold at least n (1) cards of that name "
                    "(chooses an answer only)", private=True),
    PolicyCondition("BY", "ME|KINGDOM|OTHER|<seat>",
                    "what it asks about comes from me, my kingdom, another force, that seat",
                    private_args=_KIN),
    PolicyCondition("CARD", "<card>", "the card it asks about"),
    PolicyCondition("NOT", "<condition>", "the condition after it does not hold"),
)
_TARGET = PolicyCondition("TARGET", "ME|KINGDOM|OTHER|<seat>",
                          "it targets me, a player of my kingdom, another force, that seat",
                          private_args=_KIN)

HARMFUL: tuple[str, ...] = (
    "duel", "burning-bridges", "stealing-sheep", "raining-arrows", "barbarian-invasion",
    "borrowed-sword", "attack-by-fire", "know-your-enemy", "acedia", "rations-depleted",
    "lightning",
)
"""Spells that harm the player they take effect on (the rulebook's Spell
cards: damage, a card taken or discarded, a weapon lost, a hand or general
seen, a phase skipped, Lightning's damage). Not: Something out of Nothing,
Brotherhood, Bumper Harvest, Rest and Reorganization, Alliance (they give),
Iron Chains (it may tap or untap)."""

WINDOWS: tuple[WindowSpec, ...] = (
    WindowSpec("negation", "a spell is about to take effect on a player (or a Negation on a "
               "spell): NEGATE it; conditions join with AND",
               ("NEGATE [FORCE] [<card>] [BY <skill> WITH <card>]",),
               (*_COMMON, _TARGET, PolicyCondition("DEPTH", "<n>",
                                                   "1: against the spell, 2: against a "
                                                   "Negation, ..."),
                PolicyCondition("HARMFUL", "", "the spell harms the player it takes effect "
                                "on: " + ", ".join(DATA.cards[c].name for c in HARMFUL)))),
    WindowSpec("dodge", "an Attack or Raining Arrows asks you for a Dodge",
               ("DODGE [<card>] [BY <skill or equipment> [WITH <card>]]",), _COMMON),
    WindowSpec("attack", "a Duel or Barbarian Invasion asks you for an Attack",
               ("ATTACK [<card>] [BY <skill or equipment> WITH <card>...]",), _COMMON),
    WindowSpec("rescue", "a player is dying: PEACH them (WINE yourself)",
               ("PEACH [<card>] [BY <skill or Perfect Pair> [WITH <card>]]", "WINE [<card>]"),
               (*_COMMON, PolicyCondition("DYING", "ME|KINGDOM|OTHER|<seat>",
                                          "who is dying", private_args=_KIN))),
    WindowSpec("trigger", "a moment that skills answer (damage taken, a judgement, a phase "
               "beginning...): USE <skill> or PASS",
               ("USE <skill> [WITH <card>...] [ON <seat>...]",),
               (*_COMMON, PolicyCondition("MOMENT", "<moment>",
                                          "the moment (HELP moments): " + ", ".join(MOMENTS)))),
)


def defaults() -> list[tuple[str, str, str]]:
    """Each seat's standing answers at the start: answers the rulebook makes
    nearly always right, so that no window asks anyone by default.

    * negation: Negate a harmful spell about to take effect on me ("Use this
      card to cancel the effect of target Spell card on a player"; the first
      Negation, DEPTH 1, not one against a Negation);
    * dodge: Dodge when holding one ("Each target player must play a [Dodge]
      card, otherwise suffer 1 damage"; a Dodge "offsets" an Attack);
    * attack: play an Attack to a Duel or Barbarian Invasion ("The first
      player that fails to play [Attack] will be the loser of the Duel";
      "must play an [Attack] card, otherwise suffer 1 damage");
    * rescue: Wine, then Peach, when I am the one dying (Wine: "When you are
      in the state of Dying, use it on yourself to recover 1 health point";
      Peach: "any player who is in the state of Dying");
    * trigger: asked, but only while no general of mine is hidden
      (:func:`may_ask`); a hidden seat passes unless it says otherwise.

    An answer that does not fit (no such card held) falls through to the
    next entry, and last to the pass."""
    return [
        ("negation", "NEGATE", "TARGET ME AND HARMFUL AND DEPTH 1"),
        ("negation", "PASS", ""),
        ("dodge", "DODGE", ""),
        ("attack", "ATTACK", ""),
        ("rescue", "WINE", "DYING ME AND HOLDING 1 Wine"),
        ("rescue", "PEACH", "DYING ME"),
        ("rescue", "PASS", ""),
        ("trigger", "ASK", ""),
    ]


def may_ask(state: Mapping[str, Any], view: Mapping[str, JSON], d: Decision,
            role: str) -> bool:
    """Whether ``role`` may be asked window ``d`` by hand, from public facts
    (``view`` is its own, read only where it shows nothing hidden): never a
    trigger window while one of its generals is hidden (the window may be
    offered for a hidden skill), never a Peach in a Death Match ("[Peach] can
    only be used or played as [Attack] or [Dodge]"), and never a window
    that a seat with no hand card and both generals exposed cannot answer."""
    if state.get("stage") != "play" or role not in state.get("p", {}):
        return True
    p = state["p"][role]
    hidden = not all(p["shown"])
    if d.window == "trigger":
        return not hidden
    if d.context.get("want") == "peach" and state.get("death_match"):
        return False
    if hidden or p["hand"]:
        return True
    return can_answer(view, d)


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
    for a in RULES.stack(state):
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
        if word in ("CAN", "HARMFUL") and not args:
            out.append(word)
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
    if word == "HARMFUL":
        return bool(ctx.get("about") == "trick" and ctx.get("card") in HARMFUL)
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

"""What a seat may do when asked, checked against the rules, and carried out:
the Play Phase (cards, skills, recasts, markers, exposing), response windows
(Dodge, Attack, Peach, Wine, Negation), and the generic choices.

``check(g, seat, ask, cmd)`` returns the command with its cards resolved to
physical ids (``cards``, ``with_cards``) or raises IllegalLine; ``lines(g,
seat, ask)`` lists canonical lines that ``check`` accepts.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from judge.game.engine import AmbiguousLine, IllegalLine
from judge_games.kingdom_wars import cards as K
from judge_games.kingdom_wars import flow, standing
from judge_games.kingdom_wars import skills as S
from judge_games.kingdom_wars.commands import MARKERS, canonical, ref_text
from judge_games.kingdom_wars.data import DATA
from judge_games.kingdom_wars.state import general_of
from judge_games.kingdom_wars.table import (
    Ctx,
    card,
    code,
    is_kind,
    label,
    name_of,
    seat_label,
    task,
    vcard,
)

Cmd = dict[str, Any]
Ask = dict[str, Any]

LEGAL_SAMPLE = 60
"""At most this many lines of one kind in ``lines`` (a fair sample)."""
CONVERT_SAMPLE = 12
"""At most this many choices of cards for one skill that uses cards as
another card (each with every target it may take)."""


# --------------------------------------------------------------------------- cards


def resolve(g: Ctx, seat: str, refs: Sequence[dict[str, Any]], pool: Sequence[str],
            where: str = "your hand") -> list[str]:
    """The physical cards that ``refs`` name among ``pool`` (each once)."""
    left = list(pool)
    out: list[str] = []
    for ref in refs:
        found = [c for c in left
                 if (ref.get("kind") is None or name_of(c) == ref["kind"])
                 and (ref.get("suit") is None or (card(c).suit == ref["suit"]
                                                  and card(c).rank == ref["rank"]))]
        if not found:
            raise IllegalLine(f"there is no {ref_text(ref)} in {where}",
                              hint=_pool_hint(pool))
        kinds = {name_of(c) for c in found}
        if len(kinds) > 1:
            raise AmbiguousLine(f"{ref_text(ref)} could be more than one card",
                                choices=[label(c) for c in found])
        pick = sorted(found, key=_order)[0]
        left.remove(pick)
        out.append(pick)
    return out


def _order(cid: str) -> tuple[str, int]:
    kind, _, n = cid.partition(".")
    return kind, int(n or 0)


def _pool_hint(pool: Sequence[str]) -> str:
    return ("you have " + ", ".join(label(c) for c in pool)) if pool else "you have no cards there"


# --------------------------------------------------------------------------- the Play Phase


def check_play(g: Ctx, seat: str, cmd: Cmd) -> Cmd:
    verb = cmd["verb"]
    if verb == "PASS":
        return cmd
    if verb == "REVEAL":
        return _check_reveal_in_play(g, seat, cmd)
    if verb == "DISCARD":
        # Written ahead for this turn's Discard Phase: these go first there.
        cids = resolve(g, seat, cmd["refs"], g.hand(seat))
        if not cids:
            raise IllegalLine("DISCARD in your Play Phase names the cards your Discard Phase "
                              "gives up first", hint="DISCARD Attack S7")
        return {"verb": "DISCARD", "cards": cids, "held": True}
    if verb == "RECAST":
        (cid,) = resolve(g, seat, cmd["refs"], g.hand(seat))
        if name_of(cid) not in ("iron-chains", "know-your-enemy"):
            raise IllegalLine(f"{label(cid)} cannot be recast",
                              hint="Iron Chains and Know your Enemy can be recast")
        return {"verb": "RECAST", "cards": [cid]}
    if verb == "MARKER":
        return _check_marker(g, seat, cmd)
    if verb != "USE":
        raise IllegalLine(f"{verb} answers a window; in your Play Phase, USE a card or PASS",
                          hint="USE <card> ON <seat>, or PASS to end the Play Phase")
    if cmd.get("skill"):
        sk = S.of(cmd["skill"])
        if sk is None or cmd["skill"] not in g.skills(seat, hidden=True):
            raise IllegalLine(f"you have no skill {DATA.skills[cmd['skill']].name}",
                              hint=_your_skills(g, seat))
        out = dict(cmd)
        out["cards"] = resolve(g, seat, cmd["refs"], [*g.hand(seat), *g.equips(seat)],
                               "your hand or equipment")
        out.pop("refs", None)
        return sk.check_active(g, seat, out)
    if cmd.get("by"):
        return _check_converted_use(g, seat, cmd)
    (cid,) = resolve(g, seat, cmd["refs"], g.hand(seat))
    kind = name_of(cid)
    if g.s["death_match"] and kind == "peach":
        # "During "Death Match", [Peach] can only be used or played as [Attack]
        # or [Dodge], it cannot be used for recovering health points."
        if not cmd.get("on"):
            raise IllegalLine("in a Death Match a Peach cannot recover health: it is used "
                              "only as an Attack (or played as a Dodge)",
                              hint=f"USE {label(cid)} ON <seat> attacks with it")
        kind = "attack"
    v = vcard(kind, [cid])
    targets = K.check_use(g, seat, v, list(cmd.get("on", [])))
    return {"verb": "USE", "kind": None, "by": None, "cards": [cid], "on": list(cmd.get("on", [])),
            "targets": targets, "vcard": v}


def _your_skills(g: Ctx, seat: str) -> str:
    names = [DATA.skills[s].name for s in g.skills(seat, hidden=True)]
    return "your skills: " + ", ".join(names) if names else "you have no skills"


def _check_converted_use(g: Ctx, seat: str, cmd: Cmd) -> Cmd:
    by, kind = cmd["by"], cmd["kind"]
    if by == "serpent-spear":
        if g.weapon(seat) != "serpent-spear":
            raise IllegalLine("you have no Serpent Spear equipped")
        if not is_kind("attack", kind) or kind != "attack":
            raise IllegalLine("the Serpent Spear makes an Attack",
                              hint="USE Attack BY Serpent Spear WITH <two hand cards> ON <seat>")
        cids = resolve(g, seat, cmd["refs"], g.hand(seat))
        if len(cids) != 2:
            raise IllegalLine("the Serpent Spear takes two hand cards")
        v = vcard("attack", cids, by)
    elif by == "feathered-fan":
        if g.weapon(seat) != "feathered-fan":
            raise IllegalLine("you have no Feathered Fan equipped")
        cids = resolve(g, seat, cmd["refs"], g.hand(seat))
        if kind != "fire-attack" or len(cids) != 1 or name_of(cids[0]) != "attack":
            raise IllegalLine("the Feathered Fan makes a common Attack a Fire Attack",
                              hint="USE Fire Attack BY Feathered Fan WITH Attack S7 ON <seat>")
        v = vcard("fire-attack", cids, by)
    elif by == "perfect-pair":
        # Marker Cards: the Perfect Pair Marker may be used as a Peach.
        if kind != "peach" or g.p(seat)["markers"]["perfect-pair"] <= 0:
            raise IllegalLine("the Perfect Pair Marker is used as a Peach",
                              hint="USE Peach BY Perfect Pair")
        if g.s["death_match"]:
            raise IllegalLine("in a Death Match a Peach cannot recover health")
        if cmd["refs"]:
            raise IllegalLine("the marker is the Peach: name no card")
        v = vcard("peach", [], by)
    elif by in DATA.skills:
        sk = S.of(by)
        if sk is None or by not in g.skills(seat, hidden=True):
            raise IllegalLine(f"you have no skill {DATA.skills[by].name}",
                              hint=_your_skills(g, seat))
        cids = resolve(g, seat, cmd["refs"], [*g.hand(seat), *g.equips(seat)],
                       "your hand or equipment")
        got = sk.convert(g, seat, kind, cids, "play")
        if got is None:
            raise IllegalLine(f"{sk.name} does not make those cards a {DATA.cards[kind].name}")
        v = got
    else:
        raise IllegalLine(f"{cmd['by']} does not turn cards into other cards in play")
    with exposed_for(g, seat, by):
        targets = K.check_use(g, seat, v, list(cmd.get("on", [])))
    return {"verb": "USE", "kind": kind, "by": by, "cards": list(v["cards"]),
            "on": list(cmd.get("on", [])), "targets": targets, "vcard": v}


@contextmanager
def exposed_for(g: Ctx, seat: str, by: Any) -> Iterator[None]:
    """Check a card made by a hidden general's skill as if that general were
    exposed: using it exposes the general (hidden-general policy), so the
    general's rule-changing skills count for it (Cut Supplies' reach)."""
    slot = g.slot_of_skill(seat, by) if isinstance(by, str) and by in DATA.skills else None
    if slot is None or slot not in g.hidden_slots(seat):
        yield
        return
    shown = g.p(seat)["shown"]
    i = ("main", "deputy").index(slot)
    shown[i] = True
    g.forget_holders()  # the general's skills count now ...
    try:
        yield
    finally:
        shown[i] = False
        g.forget_holders()  # ... and no longer


def _check_reveal_in_play(g: Ctx, seat: str, cmd: Cmd) -> Cmd:
    """"General cards with passive skills can be exposed in the Play Phase"
    (Use of Cards); any other is exposed at the start of the seat's next
    Preparation Phase ("Your hidden General card can also be exposed ... at
    this phase"): the line is held for it."""
    p = g.p(seat)
    held = False
    for slot in cmd["slots"]:
        if slot not in g.hidden_slots(seat):
            raise IllegalLine(f"your {slot} general is already exposed")
        gen = DATA.generals[general_of(p, slot)]
        if not any("compulsory" in DATA.skills[s].kinds for s in gen.skills):
            held = True
    return {"verb": "REVEAL", "slots": list(cmd["slots"]), "held": held}


def _check_marker(g: Ctx, seat: str, cmd: Cmd) -> Cmd:
    """Marker Cards, in the Play Phase: Yin-Yang (draw 1), Pioneer (draw to 4
    hand cards, then view a hidden general of another player), Perfect Pair
    (draw 2)."""
    m = cmd["marker"]
    if g.p(seat)["markers"][m] <= 0:
        raise IllegalLine(f"you have no {MARKERS[m]} Marker")
    if m == "pioneer":
        words = [w.upper() for w in cmd.get("words", [])]
        on = cmd.get("on", [])
        if len(on) != 1 or on[0] == seat or not g.alive(on[0]):
            raise IllegalLine("the Pioneer Marker views a general of another player",
                              hint="MARKER Pioneer ON <seat> MAIN or DEPUTY")
        return {"verb": "MARKER", "marker": m, "on": list(on), "words": words}
    if cmd.get("on"):
        raise IllegalLine(f"the {MARKERS[m]} Marker takes no target")
    return {"verb": "MARKER", "marker": m, "on": [], "words": []}


def play_lines(g: Ctx, seat: str) -> list[str]:
    """Lines ``seat`` may send in its Play Phase now."""
    out = ["PASS"]
    hand = sorted(g.hand(seat), key=_order)
    seen: set[str] = set()
    for cid in hand:
        key = f"{name_of(cid)}:{code(cid)}"
        if key in seen:
            continue
        seen.add(key)
        kind = "attack" if g.s["death_match"] and name_of(cid) == "peach" else name_of(cid)
        for targets in K.target_choices(g, seat, vcard(kind, [cid])):  # every target
            out.append(canonical({"verb": "USE", "cards": [cid], "on": targets}))
        if name_of(cid) in ("iron-chains", "know-your-enemy"):
            out.append(f"RECAST {label(cid)}")
    hidden = g.hidden_slots(seat)
    out += [f"REVEAL {slot.upper()}" for slot in hidden]  # now, or held (see above)
    if len(hidden) == 2:
        out.append("REVEAL BOTH")
    markers = g.p(seat)["markers"]
    if markers["yin-yang"]:
        out.append("MARKER Yin-Yang")
    if markers["perfect-pair"]:
        out.append("MARKER Perfect Pair")
    if markers["pioneer"]:
        for other in g.living():
            if other != seat:
                for slot in g.hidden_slots(other):
                    out.append(f"MARKER Pioneer ON {other} {slot.upper()}")
    for sid in g.skills(seat, hidden=True):
        sk = S.of(sid)
        if sk is None:
            continue
        out += sk.active_lines(g, seat)[:LEGAL_SAMPLE]
        for kind in sk.produces:
            for cids in sk.convert_choices(g, seat, kind, "play")[:CONVERT_SAMPLE]:
                v = sk.convert(g, seat, kind, cids, "play")
                if v is None:
                    continue
                with exposed_for(g, seat, sid):
                    choices = K.target_choices(g, seat, v)
                for targets in choices:
                    out.append(canonical({"verb": "USE", "kind": kind, "by": sid,
                                          "cards": cids, "on": targets}))
    if g.weapon(seat) == "serpent-spear" and len(hand) >= 2:
        pair = hand[:2]
        for targets in K.target_choices(g, seat, vcard("attack", pair, "serpent-spear")):
            out.append(canonical({"verb": "USE", "kind": "attack", "by": "serpent-spear",
                                  "cards": pair, "on": targets}))
    if g.weapon(seat) == "feathered-fan":
        for cid in hand:
            if name_of(cid) == "attack":
                for targets in K.target_choices(g, seat, vcard("fire-attack", [cid])):
                    out.append(canonical({"verb": "USE", "kind": "fire-attack",
                                          "by": "feathered-fan", "cards": [cid],
                                          "on": targets}))
                break
    return list(dict.fromkeys(out))


def carry_out(g: Ctx, seat: str, cmd: Cmd) -> None:
    """Carry out a checked Play Phase command (the ``play`` task is already
    pushed to ask again afterwards)."""
    verb = cmd["verb"]
    if verb == "REVEAL" and cmd.get("held"):
        standing.hold_reveal(g.s, seat, cmd["slots"])
        g.only(seat, "Your generals named (" + ", ".join(cmd["slots"]) + ") are exposed at the "
               "start of your next Preparation Phase (only a general with a passive skill is "
               "exposed in the Play Phase).")
        return
    if verb == "REVEAL":
        flow.reveal(g, seat, cmd["slots"], "in the Play Phase")
        return
    if verb == "DISCARD":
        standing.hold_discard(g.s, seat, cmd["cards"])
        g.only(seat, f"Held for your Discard Phase, to go first: "
               f"{', '.join(label(c) for c in cmd['cards'])}.")
        return
    if verb == "RECAST":
        (cid,) = cmd["cards"]
        g.take_out(cid)
        g.s["discard"].append(cid)
        g.pub(f"{seat_label(seat)} recasts {label(cid)}.")
        g.lost(seat, [cid], ["hand"])
        g.draw(seat, 1, "recast")
        return
    if verb == "MARKER":
        _use_marker(g, seat, cmd)
        return
    if cmd.get("skill"):
        sk = S.of(cmd["skill"])
        assert sk is not None
        slot = g.slot_of_skill(seat, sk.id)
        if slot is not None and slot in g.hidden_slots(seat):
            flow.reveal(g, seat, [slot], f"to use {sk.name}")
        g.pub(f"{seat_label(seat)} uses {sk.name}.")
        sk.do_active(g, seat, cmd)
        return
    by = cmd.get("by")
    if by == "perfect-pair":
        g.p(seat)["markers"]["perfect-pair"] -= 1
    if isinstance(by, str) and by in DATA.skills:
        slot = g.slot_of_skill(seat, by)
        if slot is not None and slot in g.hidden_slots(seat):
            flow.reveal(g, seat, [slot], f"to use {DATA.skills[by].name}")
        g.bump(f"used:{by}")  # view-as skills with a limit per turn (Read the Tide)
    K.use(g, seat, dict(cmd["vcard"]), list(cmd["targets"]))


def _use_marker(g: Ctx, seat: str, cmd: Cmd) -> None:
    m = cmd["marker"]
    g.p(seat)["markers"][m] -= 1
    g.pub(f"{seat_label(seat)} discards the {MARKERS[m]} Marker.")
    if m == "yin-yang":
        g.draw(seat, 1, "Yin-Yang Marker")
    elif m == "perfect-pair":
        g.draw(seat, 2, "Perfect Pair Marker")
    else:
        n = 4 - len(g.hand(seat))
        if n > 0:
            g.draw(seat, n, "Pioneer Marker")
        other = cmd["on"][0]
        slot = (cmd["words"] or ["MAIN"])[0].lower()
        if slot not in g.hidden_slots(other):
            hidden = g.hidden_slots(other)
            if not hidden:
                g.pub(f"{seat_label(other)} has no hidden general left to view.")
                return
            slot = hidden[0]
        flow.view_general(g, seat, other, slot)


# --------------------------------------------------------------------------- responses

WANT_VERB = {"dodge": "DODGE", "attack": "ATTACK", "peach": "PEACH", "negation": "NEGATE"}


def check_response(g: Ctx, seat: str, ask: Ask, cmd: Cmd) -> Cmd:
    """A response window's answer: PASS, or a card of the kind it asks for
    (from the hand, made by a skill or equipment), or a skill's answer."""
    verb = cmd["verb"]
    if verb == "PASS":
        return cmd
    want = "negation" if ask["kind"] == "negate" else ask["want"]
    if verb == "USE" and cmd.get("skill"):
        sk = S.of(cmd["skill"])
        if sk is None or cmd["skill"] not in g.skills(seat, hidden=True):
            raise IllegalLine("you have no such skill", hint=_your_skills(g, seat))
        m = {"name": f"respond_{want}", "ask": ask["serial"], **ask.get("ctx", {})}
        if m["name"] not in sk.moments or not sk.applies(g, seat, m):
            raise IllegalLine(f"{sk.name} cannot answer this window")
        out = dict(cmd)
        out["cards"] = resolve(g, seat, cmd["refs"], [*g.hand(seat), *g.equips(seat)])
        return sk.check_trigger(g, seat, m, out)
    allowed = {WANT_VERB[want]}
    if want == "peach" and seat == ask.get("dying"):
        allowed.add("WINE")
    if verb not in allowed:
        raise IllegalLine(f"this window asks for {' or '.join(sorted(allowed))} or PASS",
                          hint=" or ".join(sorted(allowed | {'PASS'})))
    kind = "wine" if verb == "WINE" else want
    v = _response_card(g, seat, ask, cmd, kind)
    out = {"verb": verb, "force": bool(cmd.get("force")), "cards": list(v["cards"]),
           "by": cmd.get("by"), "with_cards": [], "on": [], "vcard": v}
    if cmd.get("by") and cmd["by"] in DATA.skills:
        out["with_cards"] = list(v["cards"])
        out["cards"] = []
    if cmd.get("by") == "serpent-spear":
        out["with_cards"] = list(v["cards"])
        out["cards"] = []
    if verb == "NEGATE" and cmd.get("force") and not (
            v["cards"] and name_of(v["cards"][0]) == "negation-force" and not v.get("by")):
        raise IllegalLine("only a Negation (force) can cancel a spell on a whole force")
    return out


def _response_card(g: Ctx, seat: str, ask: Ask, cmd: Cmd, kind: str) -> dict[str, Any]:
    by = cmd.get("by")
    hand = g.hand(seat)
    if by is None:
        if not cmd.get("refs"):
            pick = [c for c in sorted(hand, key=_order) if _answers(g, c, kind)]
            if not pick:
                raise IllegalLine(f"you hold no {DATA.cards[kind].name}", hint="PASS")
            return vcard(kind, [pick[0]])
        (cid,) = resolve(g, seat, cmd["refs"], hand)
        if not _answers(g, cid, kind):
            raise IllegalLine(f"{label(cid)} is not a {DATA.cards[kind].name}", hint="PASS")
        return vcard(kind, [cid])
    if by in ("eight-trigrams-formation",):
        if kind != "dodge" or g.armor(seat) != "eight-trigrams-formation":
            raise IllegalLine("you have no Eight Trigrams Formation to judge for a Dodge")
        if ask.get("trigrams", {}).get(seat):
            raise IllegalLine("the Eight Trigrams Formation has judged for this Dodge already")
        return vcard("dodge", [], by)
    if by == "perfect-pair":
        if kind != "peach" or g.p(seat)["markers"]["perfect-pair"] <= 0:
            raise IllegalLine("the Perfect Pair Marker can be used as a Peach only")
        if g.s["death_match"]:
            raise IllegalLine("in a Death Match a Peach cannot recover health")
        return vcard("peach", [], by)
    if by == "serpent-spear":
        if kind != "attack" or g.weapon(seat) != "serpent-spear":
            raise IllegalLine("you have no Serpent Spear to play two cards as an Attack")
        cids = resolve(g, seat, cmd.get("with", []), hand)
        if len(cids) != 2:
            raise IllegalLine("the Serpent Spear takes two hand cards")
        return vcard("attack", cids, by)
    sk = S.of(by) if by in DATA.skills else None
    if sk is None or by not in g.skills(seat, hidden=True):
        raise IllegalLine(f"you cannot answer with {by}", hint=_your_skills(g, seat))
    cids = resolve(g, seat, cmd.get("with", []), [*hand, *g.equips(seat)],
                   "your hand or equipment")
    v = sk.convert(g, seat, kind, cids, "rescue" if ask.get("want") == "peach" else "respond")
    if v is None:
        raise IllegalLine(f"{sk.name} does not make those cards a {DATA.cards[kind].name}")
    return v


def _answers(g: Ctx, cid: str, kind: str) -> bool:
    k = name_of(cid)
    if is_kind(k, kind):
        return not (kind == "peach" and g.s["death_match"])
    return g.s["death_match"] and k == "peach" and kind in ("attack", "dodge")


def response_lines(g: Ctx, seat: str, ask: Ask) -> list[str]:
    want = "negation" if ask["kind"] == "negate" else ask["want"]
    verb = WANT_VERB[want]
    out = ["PASS"]
    seen: set[str] = set()
    for cid in sorted(g.hand(seat), key=_order):
        if _answers(g, cid, want) and label(cid) not in seen:
            seen.add(label(cid))
            out.append(f"{verb} {label(cid)}")
            if verb == "NEGATE" and name_of(cid) == "negation-force":
                out.append(f"NEGATE FORCE {label(cid)}")
        if want == "peach" and seat == ask.get("dying") and name_of(cid) == "wine":
            out.append(f"WINE {label(cid)}")
    if want == "dodge" and g.armor(seat) == "eight-trigrams-formation" and not ask.get(
            "trigrams", {}).get(seat):
        out.append("DODGE BY Eight Trigrams Formation")
    if want == "peach" and g.p(seat)["markers"]["perfect-pair"] and not g.s["death_match"]:
        out.append("PEACH BY Perfect Pair")
    if want == "attack" and g.weapon(seat) == "serpent-spear" and len(g.hand(seat)) >= 2:
        pair = sorted(g.hand(seat), key=_order)[:2]
        out.append(f"ATTACK BY Serpent Spear WITH {label(pair[0])} {label(pair[1])}")
    for sid in g.skills(seat, hidden=True):
        sk = S.of(sid)
        if sk is None:
            continue
        if want in sk.produces:
            need = "rescue" if want == "peach" else "respond"
            for cids in sk.convert_choices(g, seat, want, need)[:CONVERT_SAMPLE]:
                out.append(f"{verb} BY {sk.name} WITH {' '.join(label(c) for c in cids)}")
        m = {"name": f"respond_{want}", "ask": ask["serial"], **ask.get("ctx", {})}
        if m["name"] in sk.moments and sk.applies(g, seat, m):  # skills that watch the window
            out += sk.lines(g, seat, m)
    return list(dict.fromkeys(out))


def spend_response(g: Ctx, seat: str, cmd: Cmd, kind: str) -> dict[str, Any]:
    """Move a response's cards to the processing area; its card as played
    (with the suit its cards count as for ``seat``)."""
    v: dict[str, Any] = g.as_held(seat, dict(cmd["vcard"]))
    by = v.get("by")
    if isinstance(by, str) and by in DATA.skills:  # a hidden general's view-as skill exposes it
        slot = g.slot_of_skill(seat, by)
        if slot is not None and slot in g.hidden_slots(seat):
            flow.reveal(g, seat, [slot], f"to use {DATA.skills[by].name}")
    zones = []
    for c in v["cards"]:
        zones.append(g.where(c)[0])
        g.take_out(c)
        g.s["proc"].append(c)
    if v["cards"]:
        g.lost(seat, v["cards"], zones)
    return v


def give_response(g: Ctx, ask: Ask, seat: str, cmd: Cmd) -> None:
    """A Dodge, an Attack, a Peach or a Wine given in a window (the window is
    suspended: it resumes once this is settled)."""
    v = dict(cmd["vcard"])
    kind = v["kind"]
    if v.get("by") == "eight-trigrams-formation":
        ask.setdefault("trigrams", {})[seat] = True
        g.pub(f"{seat_label(seat)} judges with the Eight Trigrams Formation.")
        flow.judge(g, seat, "Eight Trigrams Formation",
                   {"t": "trigrams_result", "seat": seat, "serial": ask["serial"]})
        return
    if v.get("by") == "perfect-pair":
        g.p(seat)["markers"]["perfect-pair"] -= 1
        g.pub(f"{seat_label(seat)} uses the Perfect Pair Marker as a Peach on "
              f"{seat_label(ask['dying'])}.")
        # The check runs after the recovery (a task pushed later runs first).
        g.push({"t": "rescue_check", "serial": ask["serial"], "seat": ask["dying"]})
        flow.recover(g, ask["dying"], 1, seat)
        return
    v = spend_response(g, seat, cmd, kind)
    if kind in ("peach", "wine"):
        g.pub(f"{seat_label(seat)} uses {K.describe(v)} on {seat_label(ask['dying'])}.",
              card=v["kind"])
        # The card is discarded, the player recovers, then the rescue is
        # checked (a task pushed later runs first): out of Dying, nobody
        # further is asked (Peach: "any player who is in the state of Dying").
        g.push({"t": "rescue_check", "serial": ask["serial"], "seat": ask["dying"]})
        flow.recover(g, ask["dying"], 1, seat)
        g.push({"t": "to_discard", "cards": v["cards"]})
        return
    g.pub(f"{seat_label(seat)} plays {K.describe(v)}.", card=v["kind"])
    if kind == "attack" and seat == g.s["current"] and g.s["phase"] == "play":
        g.bump("attacks_played")  # played in its own Play Phase (Self-Restraint)
    g.push({"t": "moment", "m": {"name": f"played_{kind}", "seat": seat, "card": v,
                                 "ask": ask["serial"]}},
           {"t": "to_discard", "cards": v["cards"]},
           {"t": "counted", "serial": ask["serial"]})


@task("trigrams_result")
def _trigrams_result(g: Ctx, t: dict[str, Any]) -> None:
    """Eight Trigrams Formation: "If the result is red, you are deemed to have
    used or played a [Dodge]" (not from the hand)."""
    if g.colour(t["seat"], t["judgement"]) == "red":
        seat = t["seat"]
        v = vcard("dodge", [], "eight-trigrams-formation")
        g.pub(f"Red: {seat_label(seat)} is deemed to have played a Dodge.")
        g.push({"t": "moment", "m": {"name": "played_dodge", "seat": seat, "card": v,
                                     "ask": t["serial"]}},
               {"t": "counted", "serial": t["serial"]})
    else:
        g.pub("Black: the Eight Trigrams Formation gives no Dodge.")


@task("counted")
def _counted(g: Ctx, t: dict[str, Any]) -> None:
    flow.response_counted(g, t["serial"])


@task("to_discard")
def _to_discard(g: Ctx, t: dict[str, Any]) -> None:
    for c in t["cards"]:
        if g.where(c)[0] == "proc":
            g.to_discard([c])


@task("rescue_check")
def _rescue_check(g: Ctx, t: dict[str, Any]) -> None:
    ask = g.ask_of(t["serial"])
    if ask is not None and g.p(t["seat"])["hp"] > 0:
        flow.window_done(g, ask)


# --------------------------------------------------------------------------- choices


def check_choose(g: Ctx, seat: str, ask: Ask, cmd: Cmd) -> Cmd:
    text = canonical(cmd) if cmd["verb"] != "PASS" else "PASS"
    options = [o.upper() for o in ask["options"]]
    if text.upper() not in options:
        raise IllegalLine(f"choose one of: {'; '.join(ask['options'])}",
                          hint=ask["options"][0])
    return {"verb": "CHOOSE_", "text": text.upper(), "line": ask["options"][
        options.index(text.upper())]}


def check_cards(g: Ctx, seat: str, ask: Ask, cmd: Cmd) -> Cmd:
    if cmd["verb"] == "PASS" and ask["least"] == 0:
        return {"verb": ask["verb"], "cards": []}
    if cmd["verb"] != ask["verb"]:
        raise IllegalLine(f"you are asked to {ask['verb']} cards: {ask['what']}",
                          hint=cards_lines(g, seat, ask)[0])
    pool = flow.cards_pool(g, ask)
    where = "your hand" if ask["zones"] == ["hand"] else "the cards you may choose"
    cids = resolve(g, seat, cmd["refs"], pool, where)
    if not ask["least"] <= len(cids) <= ask["most"]:
        n = (str(ask["least"]) if ask["least"] == ask["most"]
             else f"{ask['least']} to {ask['most']}")
        raise IllegalLine(f"{ask['verb']} {n} card{'s' * (ask['most'] != 1)}",
                          hint=cards_lines(g, seat, ask)[0])
    return {"verb": ask["verb"], "cards": cids}


def cards_lines(g: Ctx, seat: str, ask: Ask) -> list[str]:
    pool = sorted(flow.cards_pool(g, ask), key=_order)
    out: list[str] = []
    if ask["least"] == 0:
        out.append("PASS")
    for n in range(max(ask["least"], 1), min(ask["most"], len(pool)) + 1):
        for combo in itertools.islice(itertools.combinations(pool, n), LEGAL_SAMPLE):
            out.append(canonical({"verb": ask["verb"], "cards": list(combo)}))
        if len(out) >= LEGAL_SAMPLE:
            break
    if not out:
        out.append(canonical({"verb": ask["verb"], "cards": pool[: ask["least"]]}))
    return out

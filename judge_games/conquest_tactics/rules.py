"""The rules of Conquest Tactics: set-up, the TRIUMPH phases, the actions of
the Play phase with their combat steps and instant windows, the Halt phase
and the end of the match.

``state["stage"]`` names the part of the turn the game is in:

=========  ==============================================================
decks      both players send a deck list (option ``decks=submitted``)
forces     both choose their Base's space and starting forces, face down
deploy     the player ``deployer`` places its starting troops
up         Up the Field: ``mover`` moves a troop one space ahead or passes
mobilize   Mobilize: both players deploy, equip, learn, upgrade; DONE ends
play       Play: ``actor`` (control, or given it by a pass) acts or passes
follow     Play: the troop that moved may act (``follow``) or STOP
window     an instant window of the action in ``action`` for one player
halt       the Halt phase
over       the match is over (``result``)
=========  ==============================================================

What comes next and who decides is the decision kernel's (turns.py: a
state for each part of the turn, an ask for each decision). Each check
raises IllegalLine with what would be right; each ``do_*`` changes the state
and reports what happened; a step that hands on to another part of the turn
calls its frame.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from judge.game.engine import IllegalLine, RuleError, State, copy_state
from judge.game.rng import Rng
from judge_games.conquest_tactics import commands
from judge_games.conquest_tactics import field as F
from judge_games.conquest_tactics.cards import POOL, Card, key
from judge_games.conquest_tactics.table import (
    DISCARD_POINTS,
    HAND_SIZE,
    VICTORIES_TO_WIN,
    Ctx,
    Troop,
    card,
    hand_numbers,
    tp_for_turn,
)

STARTING_POINTS = 20
"""Setup: "players select up to twenty Tactical Points worth of Troops,
Spells, and/or Skills"."""
STARTING_SPELLS = 3
"""Setup: "up to three Level 1 Spells and/or Skills"."""

RESULTS = {3: "Draw", 2: "Narrow Victory/Strategic Retreat", 1: "Sound Victory/Firm Defeat",
           0: "Massacre"}
"""Victory: the result table by the loser's tally (3-3 is a draw)."""


# =========================================================================== names


def where(role: str, text: str | None, what: str = "space") -> str:
    """A space the player named in its own frame, in South's frame."""
    if not text:
        raise IllegalLine(f"name the {what} (a space such as B2)")
    space = F.from_frame(text, role)
    if space is None:
        raise IllegalLine(f"{text!r} is not a space: columns A-E, rows 1-5")
    return space


def seen(role: str, space: str) -> str:
    """A space as ``role`` names it."""
    return F.to_frame(space, role)


def find(name: str, among: Sequence[str], what: str) -> str:
    """The card id among ``among`` that ``name`` names (id or name, any case);
    IllegalLine listing what there is."""
    k = key(name)
    if not k:
        raise IllegalLine(f"name the {what}")
    for cid in among:
        if k in _forms(cid):
            return cid
    names = ", ".join(dict.fromkeys(card(c).name for c in among)) or "none"
    raise IllegalLine(f"you have no {what} called {name!r}", hint=f"you have: {names}")


@lru_cache(maxsize=1024)
def _forms(cid: str) -> frozenset[str]:
    """The lookup forms that name a card: its id, its name, its name and level."""
    c = card(cid)
    return frozenset({key(c.id), key(c.name), key(f"{c.name} {c.level}"),
                      key(f"{c.name} level {c.level}")})


def own_troop(g: Ctx, role: str, space: str) -> Troop:
    t = g.troop_at(space)
    if t is None or t["owner"] != role:
        mine = ", ".join(seen(role, x["at"]) for x in g.troops(role)) or "none"
        raise IllegalLine(f"you have no troop at {seen(role, space)}",
                          hint=f"your troops stand at {mine}")
    return t


def cast_cost(c: Card, t: Troop | None, g: Ctx) -> int:
    """The Tactical Points to cast a Spell or use a Skill: "X" is its level;
    "+Y" is the troop's Attack Cost plus Y (Use Skill: "the Troop's Attack
    Cost ... is used along with the listed modifier")."""
    printed = c.printed_cost.upper()
    if printed == "X":
        return c.level
    if printed.startswith("+") and t is not None:
        return g.stat(t, "attack_cost") + int(printed[1:])
    return c.cost


def discards(g: Ctx, role: str, refs: Sequence[str], *, exclude: Sequence[str] = ()) -> list[str]:
    """The hand cards ``refs`` name (numbers as the report lists the hand,
    or names), each card once; the card being played is not among them."""
    hand = list(g.p(role)["hand"])
    for x in exclude:
        if x in hand:
            hand.remove(x)
    out: list[str] = []
    p = g.p(role)
    numbered = dict(hand_numbers(p))  # as the last request listed the hand
    listed = p.get("listed")
    if listed is not None:  # a copy of the card at a number vacated by another copy
        numbered.update({i: c for i, c in enumerate(listed, 1) if c in p["hand"]})
    for ref in refs:
        if ref.isdigit():
            if int(ref) not in numbered:
                raise IllegalLine(f"your hand has no card {ref} now",
                                  hint="your hand, numbered as your last report lists it: "
                                  + ", ".join(f"{n} {card(c).name}"
                                              for n, c in sorted(numbered.items())))
            cid = numbered[int(ref)]
        else:
            cid = find(ref, hand, "card in hand")
        if cid not in hand:
            raise IllegalLine(f"{card(cid).name} is not in your hand to discard (or is the "
                              "card you play)")
        hand.remove(cid)
        out.append(cid)
    return out


# =========================================================================== set-up


def check_base(g: Ctx, role: str, cmd: dict[str, Any]) -> dict[str, Any]:
    """Setup: "Place your Base on the Field in any space in the two rows
    nearest to you"."""
    if len(cmd["spaces"]) != 1:
        raise IllegalLine("BASE takes one space", hint="BASE C1")
    space = where(role, cmd["spaces"][0])
    if space not in F.deployment_zone(role):
        raise IllegalLine(f"{seen(role, space)} is not in your two nearest rows",
                          hint="rows 1 and 2: BASE C1")
    return {"verb": "BASE", "spaces": [seen(role, space)], "at": space}


def check_take(g: Ctx, role: str, cmd: dict[str, Any]) -> dict[str, Any]:
    """Setup: starting forces are "any combination of Level 0 and Level 1
    Troops" and "up to three Level 1 Spells and/or Skills"."""
    supply = g.p(role)["supply"]
    cid = find(cmd["name"], supply, "troop, spell or skill in your deck")
    c = card(cid)
    if c.type == "troop" and c.level > 1:
        raise IllegalLine(f"{c.name} is a level {c.level} troop: starting forces are level 0 "
                          "and level 1 troops")
    if c.type in ("spell", "skill") and c.level != 1:
        raise IllegalLine(f"{c.name} is level {c.level}: starting spells and skills are "
                          "level 1")
    if c.type not in ("troop", "spell", "skill"):
        raise IllegalLine(f"{c.name} is a {c.type}: starting forces are troops, spells and "
                          "skills")
    return {"verb": "TAKE", "card": cid, "name": c.name, "spaces": [], "cost": c.cost}


def check_forces(g: Ctx, role: str, taken: Sequence[str]) -> None:
    """The totals of the starting forces: 20 TP, three spells or skills, no
    more copies than the deck holds."""
    total = sum(card(c).cost for c in taken)
    if total > STARTING_POINTS:
        raise IllegalLine(f"these forces cost {total} Tactical Points: up to "
                          f"{STARTING_POINTS} may be chosen (Setup)")
    spells = [c for c in taken if card(c).type in ("spell", "skill")]
    if len(spells) > STARTING_SPELLS:
        raise IllegalLine(f"{len(spells)} spells and skills: up to {STARTING_SPELLS} may be "
                          "chosen (Setup)")
    troops = [c for c in taken if card(c).type == "troop"]
    room = len(F.deployment_zone(role))
    if len(troops) > room:
        raise IllegalLine(f"{len(troops)} troops: the deployment zone holds {room}, one troop "
                          "a space (Setup)")
    supply = list(g.p(role)["supply"])
    for c in taken:
        if c not in supply:
            raise IllegalLine(f"your deck holds no more {card(c).name}")
        supply.remove(c)


def default_forces(g: Ctx, role: str) -> list[str]:
    """A silent player's starting forces: its deck's level 0 and 1 troops in
    the deck list's order, as long as they fit in the 20 points."""
    out: list[str] = []
    total = 0
    for cid in g.p(role)["supply"]:
        c = card(cid)
        if c.type == "troop" and c.level <= 1 and total + c.cost <= STARTING_POINTS \
                and len(out) < len(F.deployment_zone(role)):
            out.append(cid)
            total += c.cost
    return out


def reveal_forces(g: Ctx, chosen: dict[str, tuple[str, list[str]]]) -> None:
    """Setup: both choices are revealed; the Bases are placed; "The player
    with the least number of Tactical Points receives Initiative and deploys
    first. If both players have the same number ... flip a coin"."""
    s = g.s
    totals = {}
    for role in F.ROLES:
        base_at, taken = chosen[role]
        p = g.p(role)
        for cid in taken:
            p["supply"].remove(cid)
        p["forces"] = [c for c in taken if card(c).type == "troop"]
        p["start_spells"] = [c for c in taken if card(c).type != "troop"]
        s["bases"][role]["at"] = base_at
        totals[role] = sum(card(c).cost for c in taken)
        # "Players compare the number of Tactical Points they have selected":
        # the points and the count are public, the cards face down until placed.
        g.pub(f"{role} places its base, {card(s['bases'][role]['card']).name}, at "
              f"{F.mark(base_at)} and chose {totals[role]} Tactical Points of starting "
              f"forces ({len(taken)} card{'s' if len(taken) != 1 else ''}, face down).")
        g.only(role, "Your starting forces: "
               + (", ".join(card(c).name for c in taken) or "nothing") + ".")
    assert g.rng is not None
    for role in F.ROLES:
        g.rng.shuffle(g.p(role)["supply"], f"shuffle:supply:{role}")
    if totals[F.SOUTH] == totals[F.NORTH]:
        first = g.rng.choice(list(F.ROLES), "coin:initiative")
        g.pub(f"Both chose {totals[F.SOUTH]} points; the coin gives {first} the Initiative.")
    else:
        first = min(F.ROLES, key=lambda r: totals[r])
        g.pub(f"{first} chose fewer points and receives the Initiative.")
    s["initiative"] = first
    g.call({"t": "deploy", "seat": first})


def begin_deploy(g: Ctx, role: str) -> None:
    """Setup: the deploying player "places any Spells or Skills they
    selected face-up in their Knowledge Pool and places their selected
    Troops"."""
    p = g.p(role)
    for cid in p.pop("start_spells", []):
        p["knowledge"].append({"card": cid, "up": True})
    g.s["deployer"] = role
    g.s["stage"] = "deploy"
    new_decision(g)


def check_deploy_start(g: Ctx, role: str, cmd: dict[str, Any]) -> dict[str, Any]:
    p = g.p(role)
    if cmd["name"].upper() == "ALL" and not cmd["spaces"]:  # the default deployment, at once
        return {"verb": "DEPLOY", "card": "ALL", "spaces": [], "all": True}
    cid = find(cmd["name"], p["forces"], "starting troop still to deploy")
    space = _deploy_space(g, role, cmd)
    return {"verb": "DEPLOY", "card": cid, "spaces": [seen(role, space)], "at": space}


def _deploy_space(g: Ctx, role: str, cmd: dict[str, Any]) -> str:
    """The deployment zone, "one Troop card in each space, although a Troop
    may be deployed on the Base"."""
    if len(cmd["spaces"]) != 1:
        raise IllegalLine("name one space to deploy on", hint="DEPLOY <troop> B2")
    space = where(role, cmd["spaces"][0])
    if space not in F.deployment_zone(role):
        raise IllegalLine(f"{seen(role, space)} is not in your deployment zone (your rows 1 "
                          "and 2)")
    if not g.open_for(role, space):
        free = [seen(role, x) for x in F.deployment_zone(role) if g.open_for(role, x)]
        raise IllegalLine(f"{seen(role, space)} is not open",
                          hint="open: " + (", ".join(free) or "none"))
    return space


def do_deploy_start(g: Ctx, role: str, cmd: dict[str, Any]) -> None:
    p = g.p(role)
    if cmd.get("all"):
        while p["forces"] and (line := default_deploy(g, role)) is not None:
            do_deploy_start(g, role, check_deploy_start(g, role, commands.syntax(line)))
        return
    p["forces"].remove(cmd["card"])
    t = g.place(role, cmd["card"], cmd["at"])
    g.pub(f"{role} deploys {card(t['card']).name} at {F.mark(t['at'])}.")


CENTRE_OUT = "CBDAE"
"""The columns in the order the default deployment fills a row."""


def default_deploy(g: Ctx, role: str) -> str | None:
    """Where the default deployment (``DEPLOY ALL``, a silent deployer's at
    its deadline) puts the next starting troop still to deploy: a troop that
    cannot attack at distance 1 (range 2 or more, the Archers) in the back
    row of the deployment zone, any other in the front row, each row filled
    from the centre out (C, B, D, A, E in the player's frame); the other row
    when that one is full."""
    p = g.p(role)
    if not p["forces"]:
        return None
    cid = p["forces"][0]
    rows = (1, 2) if card(cid).range_min > 1 else (2, 1)
    for row in rows:
        for col in CENTRE_OUT:
            space = where(role, f"{col}{row}")
            if g.open_for(role, space):
                return f"DEPLOY {cid} {seen(role, space)}"
    return None


# =========================================================================== the turn


def new_decision(g: Ctx) -> None:
    """A decision begins: the hand of each player who decides is numbered
    afresh, as its request lists it (``table.hand_numbers``)."""
    g.s["serial"] += 1
    s = g.s
    stage = s["stage"]
    if stage == "mobilize":
        deciding = [r for r in F.ROLES if not g.p(r)["done"]]
    else:
        who = {"deploy": s.get("deployer"), "up": s.get("mover"), "play": s.get("actor"),
               "follow": s.get("actor"), "window": (s.get("window") or {}).get("role")}
        deciding = [r for r in [who.get(stage)] if r]
    for role in deciding:
        g.p(role)["listed"] = list(g.p(role)["hand"])


def start_turn(g: Ctx) -> None:
    """T, R and I, then Up the Field."""
    s = g.s
    s["turn"] += 1
    n = s["turn"]
    for role in F.ROLES:  # T - Tactical Points
        p = g.p(role)
        p["tp"] = tp_for_turn(n)
        p["slider"] = p["tp"]
    g.pub(f"Turn {n}: each player sets its slider to {tp_for_turn(n)} Tactical Points.")
    for role in (s["initiative"], F.other(s["initiative"])):  # R - Resupply
        p = g.p(role)
        want = max(HAND_SIZE - len(p["hand"]), 1)
        got = g.draw(role, want)
        for k in p["knowledge"]:
            k["up"] = True
        g.pub(f"{role} draws {got} card{'s' if got != 1 else ''} ({len(p['hand'])} in hand, "
              f"{len(p['supply'])} in the supply pile).")
    if n > 1:  # I - Initiative: "In the first turn the Initiative token should not be passed"
        s["initiative"] = F.other(s["initiative"])
        g.pub(f"The Initiative passes to {s['initiative']}.")
    for t in g.troops():
        t["flags"] = {}
    for role in F.ROLES:
        g.p(role)["up_done"] = False
        g.p(role)["play_done"] = False
    s["stage"] = "up"
    s["mover"] = s["initiative"]
    s["passes"] = 0
    new_decision(g)


def up_moves(g: Ctx, role: str) -> list[tuple[str, str]]:
    """Up the Field: each troop once, "one space directly towards their
    opponent's board edge", not with movement 0, not into another troop or
    the opposing base."""
    out = []
    for t in g.troops(role):
        if t["flags"].get("up") or g.stat(t, "movement") <= 0:
            continue
        nxt = F.ahead(t["at"], role)
        if nxt is not None and g.open_for(role, nxt):
            out.append((t["at"], nxt))
    return sorted(out)


MOBILIZE_VERBS = frozenset({"DEPLOY", "EQUIP", "LEARN", "UPGRADE", "PLAY"})


def _pass_all(cmd: dict[str, Any]) -> bool:
    """``PASS ALL``: a pass now and at each later turn of this phase."""
    if (cmd["name"] and cmd["name"].upper() != "ALL") or cmd["spaces"]:
        raise IllegalLine("PASS stands alone, or PASS ALL to pass for the rest of the phase")
    return bool(cmd["name"])


def check_up(g: Ctx, role: str, cmd: dict[str, Any]) -> dict[str, Any]:
    """Up the Field: MOVE, PASS, or DONE or PASS ALL (a pass now and at each
    later turn of this Up the Field: "if a player is done moving the Troops
    he wants to during this phase, he may Pass"). A Mobilize line written
    ahead is done moving too: it is checked now and held for the Mobilize."""
    if cmd["verb"] == "PASS" and not _pass_all(cmd):
        return {"verb": "PASS", "spaces": []}
    if cmd["verb"] in ("DONE", "PASS"):
        return {"verb": "DONE", "spaces": []}
    if cmd["verb"] in MOBILIZE_VERBS:
        return dict(check_mobilize(g, role, cmd), ahead=True)
    if cmd["verb"] != "MOVE":
        raise IllegalLine("Up the Field: MOVE a troop one space ahead, PASS, or DONE (pass "
                          "for the rest of Up the Field); Mobilize lines are held for the "
                          "Mobilize", hint=" or ".join(up_lines(g, role)[:4]))
    if len(cmd["spaces"]) != 2:
        raise IllegalLine("MOVE takes two spaces", hint="MOVE B2 B3")
    a, b = (where(role, x) for x in cmd["spaces"])
    t = own_troop(g, role, a)
    if t["flags"].get("up"):
        raise IllegalLine("that troop has moved up the field already this turn")
    if g.stat(t, "movement") <= 0:
        raise IllegalLine(f"{card(t['card']).name} has movement 0 and cannot move")
    if b != F.ahead(a, role):
        ahead = F.ahead(a, role)
        raise IllegalLine("Up the Field moves a troop one space straight ahead",
                          hint=f"MOVE {seen(role, a)} {seen(role, ahead)}" if ahead else
                          "it stands on the far edge")
    if not g.open_for(role, b):
        raise IllegalLine(f"{seen(role, b)} is blocked (a troop or the opposing base)")
    return {"verb": "MOVE", "spaces": [seen(role, a), seen(role, b)], "path": [a, b]}


def up_lines(g: Ctx, role: str) -> list[str]:
    return [f"MOVE {seen(role, a)} {seen(role, b)}" for a, b in up_moves(g, role)] + [
        "PASS", "DONE"]


def do_up(g: Ctx, role: str, cmd: dict[str, Any]) -> None:
    s = g.s
    if cmd["verb"] != "MOVE":  # PASS; DONE or a Mobilize line: passes for the rest of it
        if cmd["verb"] != "PASS":
            g.p(role)["up_done"] = True
        if cmd.get("ahead"):
            g.p(role).setdefault("up_ahead", []).append(commands.canonical(cmd))
        s["passes"] += 1
        g.pub(f"{role} passes (Up the Field).")
    else:
        a, b = cmd["path"]
        t = g.troop_at(a)
        assert t is not None
        t["at"] = b
        t["flags"]["up"] = True
        mark_touched(g, role, [a, b])
        s["passes"] = 0
        g.pub(f"{role}'s {card(t['card']).name} moves up the field, {F.mark(a)} to "
              f"{F.mark(b)}.")
    s["mover"] = F.other(role)
    new_decision(g)


def begin_mobilize(g: Ctx) -> None:
    """Mobilize, both players at once: each player's lines are held face
    down (``held``) and carried out together once both are done (see
    :func:`reveal_mobilize`). Lines written ahead in Up the Field
    (``up_ahead``) are the first held, if they fit now."""
    s = g.s
    s["stage"] = "mobilize"
    for role in F.ROLES:
        g.p(role)["done"] = False
        g.p(role)["credit"] = 0
        g.p(role)["held"] = []
    for t in g.troops():
        t["flags"].pop("upgraded", None)
    g.pub("Mobilize.")
    new_decision(g)
    for role in F.ROLES:
        for text in g.p(role).pop("up_ahead", []):
            try:
                cmd = check_mobilize(held_ctx(g.s, role), role, commands.syntax(text))
            except RuleError as exc:
                g.only(role, f'Your Mobilize line "{text}", written ahead, was dropped: '
                       f"{exc.message}")
                continue
            hold_mobilize(g, role, cmd, commands.canonical(cmd))


def held_ctx(state: State, role: str) -> Ctx:
    """A scratch copy of ``state`` in which ``role``'s held Mobilize lines
    have been carried out (its own TP, hand and troops as they will be): a
    new line is checked against it. Its events are nobody's."""
    scratch = Ctx(copy_state(state), Rng(bytes(32), 0))
    # A card a held line would draw is not known before the reveal (the
    # supply pile's order is hidden): the scratch copy draws nothing.
    scratch.s["p"][role]["supply"] = []
    for text in state["p"][role].get("held", []):
        try:
            cmd = check_mobilize(scratch, role, commands.syntax(text))
        except RuleError:
            continue  # no longer fits: it will be dropped when revealed
        do_mobilize(scratch, role, cmd)
    scratch.events.clear()
    return scratch


def hold_mobilize(g: Ctx, role: str, cmd: dict[str, Any], text: str) -> None:
    """A Mobilize line of ``role``: DONE ends its Mobilize; any other line is
    held face down until both have mobilized. Only ``role`` is told what it
    will do (and the TP it will have left)."""
    p = g.p(role)
    if cmd["verb"] == "DONE":
        p["done"] = True
        g.pub(f"{role} has mobilized.")
        return
    scratch = held_ctx(g.s, role)
    do_mobilize(scratch, role, cmd)
    p.setdefault("held", []).append(text)
    for event in scratch.events:
        g.only(role, f"Held until both have mobilized: {event.text}")


def reveal_mobilize(g: Ctx) -> None:
    """Both players are done: their held lines are carried out, the
    Initiative's first (Mobilize, "Players can choose to pay Tactical Points
    to deploy additional Troops or Equipment": each in its own deployment
    zone, with its own points and hand, so the order matters only where a
    card acts on the other side). A line that no longer fits (the other
    side's Mobilize changed the field) is dropped and its writer told."""
    first = g.s["initiative"]
    for role in (first, F.other(first)):
        p = g.p(role)
        for text in p.pop("held", []):
            try:
                cmd = check_mobilize(g, role, commands.syntax(text))
            except RuleError as exc:
                g.only(role, f'Your Mobilize line "{text}" was not carried out: {exc.message}')
                continue
            before = board(g)
            do_mobilize(g, role, cmd)
            after = board(g)
            mark_touched(g, role, sorted(sp for sp in {*before, *after}
                                         if before.get(sp) != after.get(sp)))


def end_mobilize(g: Ctx) -> None:
    """Mobilize: points from discards do not carry over; "If at the end of
    the Mobilize phase, your Tactical Points slider is higher than it was at
    the beginning of the Resupply phase, reset your slider"."""
    for role in F.ROLES:
        p = g.p(role)
        p["credit"] = 0
        if p["tp"] > p["slider"]:
            p["tp"] = p["slider"]
            g.pub(f"{role}'s slider is reset to {p['tp']}.")
    s = g.s
    s["stage"] = "play"
    s["passes"] = 0
    s["actor"] = control(g)
    g.pub(f"Play: {s['actor']} has control ({tp_text(g)}).")
    new_decision(g)


def tp_text(g: Ctx) -> str:
    return ", ".join(f"{r} {g.p(r)['tp']} TP" for r in F.ROLES)


def control(g: Ctx) -> str:
    """Play: "The player with control is always the player with the most
    Tactical Points (if both ... the same, the player with Initiative)"."""
    s, n = g.p(F.SOUTH)["tp"], g.p(F.NORTH)["tp"]
    if s == n:
        return str(g.s["initiative"])
    return F.SOUTH if s > n else F.NORTH


def play_over(g: Ctx) -> bool:
    """End of the Play Phase: "both ... are out of Tactical Points or both of
    you have passed consecutively"."""
    s = g.s
    if s["passes"] >= 2 or all(g.p(r)["tp"] <= 0 for r in F.ROLES):
        return True
    # "Once both players have either used all of their Tactical Points or
    # Passed": a pass to a player who has spent all its points ends it too.
    return bool(s["passes"] >= 1 and g.p(s["actor"])["tp"] <= 0)


def board(g: Ctx) -> dict[str, str]:
    """Each occupied space and a digest of the card on it (a troop: its
    card, owner, damage, equipment, buff, debuff, modifiers; a base: its
    damage): public facts only."""
    out: dict[str, str] = {}
    for t in g.s["troops"].values():
        out[t["at"]] = json.dumps([t["uid"], t["card"], t["owner"], t["damage"],
                                   sorted(t["equip"].items()), t["buff"], t["debuff"],
                                   len(t["mods"])], default=str)
    for role, b in g.s["bases"].items():
        if b["alive"] and b["at"] and b["at"] not in out:
            out[b["at"]] = json.dumps([role, b["damage"]])
    return {k: hashlib.sha256(v.encode()).hexdigest()[:12] for k, v in out.items()}


def mark_touched(g: Ctx, role: str, spaces: Sequence[str]) -> None:
    """Count an action of ``role``'s that changed the cards on ``spaces``,
    for the other side (its plan written ahead stops at a line naming one)."""
    s = g.s
    other = F.other(role)
    counts = dict(s.get("touched", {}).get(other, {}))
    for sp in dict.fromkeys(spaces):
        counts[sp] = int(counts.get(sp, 0)) + 1
    s["touched"] = {**s.get("touched", {}), other: counts}


def touched(state: State, role: str, space: str) -> int:
    """How many actions of the other side have changed the card on
    ``space`` (absolute), as ``role`` counts them."""
    return int(state.get("touched", {}).get(role, {}).get(space, 0))


def end_action(g: Ctx) -> None:
    """The action is over: control goes to the player with the most points
    (the Play phase goes on from the window the action answered)."""
    s = g.s
    a = s["action"]
    if a is not None and a.get("before") is not None:
        now, then = board(g), a["before"]
        mark_touched(g, a["role"], sorted(sp for sp in {*now, *then}
                                          if now.get(sp) != then.get(sp)))
    s["action"] = None
    s["follow"] = None
    s["stage"] = "play"
    s["passes"] = 0
    s["actor"] = control(g)
    new_decision(g)


# =========================================================================== Mobilize


def pay(g: Ctx, role: str, cost: int, discarded: Sequence[str]) -> None:
    """Mobilize: "The cost ... can be any combination of Tactical Points from
    the slider and Tactical Points generated by discarding from your hand";
    the points of discarded cards may be split among several deployments."""
    p = g.p(role)
    for cid in discarded:
        p["hand"].remove(cid)
        p["discard"].append(cid)
    if discarded:
        p["credit"] += DISCARD_POINTS * len(discarded)
        g.pub(f"{role} discards " + ", ".join(card(c).name for c in discarded)
              + f" for {DISCARD_POINTS * len(discarded)} points.")
    use = min(cost, p["credit"])
    p["credit"] -= use
    p["tp"] -= cost - use


def can_pay(g: Ctx, role: str, cost: int, discarded: Sequence[str]) -> None:
    p = g.p(role)
    have = p["tp"] + p["credit"] + DISCARD_POINTS * len(discarded)
    if cost > have:
        raise IllegalLine(f"it costs {cost} Tactical Points and you have {p['tp']}"
                          + (f" and {p['credit']} from discards" if p["credit"] else "")
                          + (f" and {DISCARD_POINTS * len(discarded)} from these discards"
                             if discarded else ""),
                          hint=f"add DISCARD <cards>: each card discarded is worth "
                               f"{DISCARD_POINTS} points")


def check_mobilize(g: Ctx, role: str, cmd: dict[str, Any]) -> dict[str, Any]:
    verb = cmd["verb"]
    p = g.p(role)
    if verb == "DONE":  # taken after a refused line of the same mail too: the writer said so
        return {"verb": "DONE", "spaces": []}
    out: dict[str, Any] = {"verb": verb, "spaces": [], "discard": []}
    if verb == "DEPLOY":
        cid = find(cmd["name"], [c for c in p["hand"] if card(c).type == "troop"],
                   "troop in hand")
        space = _deploy_space(g, role, cmd)
        out.update(card=cid, spaces=[seen(role, space)], at=space, cost=card(cid).cost)
    elif verb == "EQUIP":
        cid = find(cmd["name"], [c for c in p["hand"] if card(c).type == "equipment"],
                   "equipment in hand")
        if len(cmd["spaces"]) != 1:
            raise IllegalLine("name the troop's space", hint="EQUIP <equipment> B2")
        space = where(role, cmd["spaces"][0])
        t = own_troop(g, role, space)
        slot = card(cid).slot
        if slot in t["equip"]:
            raise IllegalLine(f"that troop has a {slot} already: "
                              f"{card(t['equip'][slot]).name} (one of each type, Equipment)")
        out.update(card=cid, spaces=[seen(role, space)], at=space, cost=card(cid).cost)
    elif verb == "LEARN":
        cid = find(cmd["name"], [c for c in p["hand"] if card(c).type in ("spell", "skill")],
                   "spell or skill in hand")
        out.update(card=cid, cost=card(cid).cost)
    elif verb == "UPGRADE":
        if len(cmd["spaces"]) != 1:
            raise IllegalLine("UPGRADE names the troop's space, then the card",
                              hint="UPGRADE B2 <troop>")
        space = where(role, cmd["spaces"][0])
        t = own_troop(g, role, space)
        if t["flags"].get("upgraded"):
            raise IllegalLine("only one upgrade can be played on each Troop during a single "
                              "Mobilize phase")
        options = [c.id for c in POOL.upgrades(card(t["card"]))]
        held = [c for c in p["hand"] if card(c).type == "troop"]
        # A name shared by several levels ("human-defensive-infantry") means
        # the one that fits: the next level up.
        fitting = [c for c in held if c in options]
        try:
            cid = find(cmd["name"], fitting, "troop in hand")
        except IllegalLine:
            cid = find(cmd["name"], held, "troop in hand")
        if cid not in options:
            c, old = card(cid), card(t["card"])
            right = [card(x).name for x in held if x in options]
            why = (f"a level {old.level} troop upgrades to level {old.level + 1} only"
                   if c.level != old.level + 1 else
                   f"{old.name} ({old.classification}) cannot become {c.name} "
                   f"({c.classification}): specializations cannot be reversed")
            raise IllegalLine(why, hint="you could: " + (", ".join(right) or "none in hand"))
        out.update(card=cid, spaces=[seen(role, space)], at=space, cost=1)
    elif verb == "PLAY":
        cid = find(cmd["name"], [c for c in p["hand"] if card(c).type == "circumstance"],
                   "circumstance in hand")
        c = card(cid)
        if c.kind != "mobilization":
            raise IllegalLine(f"{c.name} is a {c.kind} circumstance: in the Mobilize phase only "
                              "Mobilization circumstances are played")
        out.update(_circumstance(g, role, cmd, c))
        return out
    else:
        raise IllegalLine("in the Mobilize phase: DEPLOY, EQUIP, LEARN, UPGRADE, PLAY a "
                          "mobilization circumstance, or DONE")
    dis = discards(g, role, cmd["discard"], exclude=[out["card"]])
    can_pay(g, role, out["cost"], dis)
    out["discard"] = dis
    return out


def do_mobilize(g: Ctx, role: str, cmd: dict[str, Any]) -> None:
    p = g.p(role)
    verb = cmd["verb"]
    if verb == "DONE":
        p["done"] = True
        g.pub(f"{role} has mobilized.")
        return
    if verb == "PLAY":
        play_circumstance(g, role, cmd)
        return
    cid = cmd["card"]
    p["hand"].remove(cid)
    pay(g, role, cmd["cost"], cmd["discard"])
    c = card(cid)
    if verb == "DEPLOY":
        g.place(role, cid, cmd["at"])
        g.pub(f"{role} deploys {c.name} at {F.mark(cmd['at'])} ({p['tp']} TP left).")
    elif verb == "EQUIP":
        t = g.troop_at(cmd["at"])
        assert t is not None
        t["equip"][c.slot] = cid
        g.pub(f"{role} equips {card(t['card']).name} at {F.mark(cmd['at'])} with {c.name}.")
    elif verb == "LEARN":
        p["knowledge"].append({"card": cid, "up": True})
        g.pub(f"{role} learns {c.name} ({p['tp']} TP left).")
    elif verb == "UPGRADE":
        t = g.troop_at(cmd["at"])
        assert t is not None
        old = card(t["card"])
        t["under"].append(t["card"])
        t["card"] = cid
        t["flags"]["upgraded"] = True
        removed = t["damage"] // 2  # "remove half of the damage tokens ... (rounding down)"
        t["damage"] -= removed
        g.pub(f"{role} upgrades {old.name} at {F.mark(cmd['at'])} to {c.name} (level "
              f"{c.level})" + (f", removing {removed} damage" if removed else "") + ".")


# =========================================================================== Play


def _range_ok(g: Ctx, role: str, a: str, b: str, rng: tuple[int, int], what: str) -> None:
    d = F.distance(a, b)
    lo, hi = rng
    if not lo <= d <= hi:
        span = f"{lo}" if lo == hi else f"{lo}-{hi}"
        raise IllegalLine(f"{seen(role, b)} is at distance {d}; {what} reaches range {span}")
    if d > 1 and not F.line_of_sight(a, b, g.blocked_for(role)):
        raise IllegalLine(f"no line of sight from {seen(role, a)} to {seen(role, b)}: every "
                          "shortest count of spaces crosses an enemy unit (Ranged Attack)")


def _enemy_at(g: Ctx, role: str, space: str) -> bool:
    t = g.troop_at(space)
    if t is not None:
        return bool(t["owner"] != role)
    base = g.base_at(space)
    return base is not None and base[0] != role


def check_play(g: Ctx, role: str, cmd: dict[str, Any], follow: str | None) -> dict[str, Any]:
    """An action of the player with control (or the troop that just moved)."""
    verb = cmd["verb"]
    p = g.p(role)
    if verb == "PASS" and follow is None:
        return {"verb": "PASS", "spaces": [], "all": _pass_all(cmd)}
    if verb == "STOP" and follow is not None:
        return {"verb": "STOP", "spaces": []}
    if verb in ("PASS", "STOP", "DONE"):
        raise IllegalLine("after a move: ATTACK, CAST, USE, PLAY with that troop, or STOP"
                          if follow else "PASS gives control to your opponent for one action")
    if verb == "MOVE":
        if follow is not None:
            raise IllegalLine("the troop has moved: it may act once (ATTACK, CAST, USE, PLAY) "
                              "or STOP")
        if len(cmd["spaces"]) != 2:
            raise IllegalLine("MOVE takes two spaces", hint="MOVE B2 B3")
        a, b = (where(role, x) for x in cmd["spaces"])
        t = own_troop(g, role, a)
        if p["tp"] < 1:
            raise IllegalLine("a move costs one Tactical Point and you have none")
        steps = g.stat(t, "movement")
        jump = g.jumps(t)
        if steps <= 0:
            raise IllegalLine(f"{card(t['card']).name} has movement 0")
        if not g.open_for(role, b) or a == b:
            raise IllegalLine(f"{seen(role, b)} is not open")
        ok = F.path_exists(a, b, steps, (lambda s: True) if jump else
                           (lambda s: g.open_for(role, s)))
        if not ok:
            raise IllegalLine(f"{card(t['card']).name} (movement {steps}) cannot reach "
                              f"{seen(role, b)}: moves go to open adjacent spaces, no "
                              "diagonals, no jumping over units")
        return {"verb": "MOVE", "spaces": [seen(role, a), seen(role, b)], "path": [a, b],
                "cost": 1}
    if verb in ("REDEEM", "RECYCLE"):
        if follow is not None:
            raise IllegalLine("after a move the troop acts: ATTACK, CAST, USE, PLAY or STOP")
        cid = find(cmd["name"], p["trophies"], "trophy")
        out = {"verb": verb, "card": cid, "spaces": [], "cost": 0, "discard": []}
        c = card(cid)
        effects = c.redeem if verb == "REDEEM" else c.recycle
        out.update(_target(g, role, cmd, effects))
        return out
    if verb == "PLAY":
        cid = find(cmd["name"], [c for c in p["hand"] if card(c).type == "circumstance"],
                   "circumstance in hand")
        c = card(cid)
        # Play Circumstance: "Control Circumstances are used in the Play phase
        # by the player who has control. Other Circumstances are Instants and
        # may be played at any time" -- so an instant too, as an action of its
        # own. One whose every effect answers an action (a shield, a cancel)
        # would have nothing to act on there, and is refused (see the README).
        if c.kind not in ("control", "instant"):
            raise IllegalLine(f"{c.name} is a {c.kind} circumstance; in the Play phase the "
                              "player with control plays Control and Instant circumstances")
        if c.kind == "instant" and all(e.kind in ("shield", "cancel") for e in c.effects):
            raise IllegalLine(f"{c.name} shields or cancels an action: with none to answer "
                              "it would do nothing; play it in an instant window")
        return _circumstance(g, role, cmd, c)
    if verb == "ATTACK":
        if len(cmd["spaces"]) != 2:
            raise IllegalLine("ATTACK takes the attacker's space and the target's",
                              hint="ATTACK B3 B4")
        a, b = (where(role, x) for x in cmd["spaces"])
        t = _actor_troop(g, role, a, follow)
        if not _enemy_at(g, role, b):
            raise IllegalLine(f"there is no enemy troop or base at {seen(role, b)}")
        c = card(t["card"])
        if g.stat(t, "attack") <= 0:
            raise IllegalLine(f"{c.name} has no Attack Value")
        d = F.distance(a, b)
        lo, hi = g.range_of(t)
        if d == 1 and lo > 1:
            raise IllegalLine(f"{c.name} has range {lo}-{hi}, which excludes range 1: it may "
                              "not melee attack (Melee Attack)")
        _range_ok(g, role, a, b, (lo, hi), c.name)
        cost = g.stat(t, "attack_cost")
        _tp(g, role, cost)
        return {"verb": "ATTACK", "spaces": [seen(role, a), seen(role, b)], "source": t["uid"],
                "at": b, "cost": cost, "melee": d == 1}
    if verb in ("CAST", "USE"):
        return _check_cast(g, role, cmd, follow, instant=False)
    raise IllegalLine("in the Play phase: MOVE, ATTACK, CAST, USE, PLAY, REDEEM, RECYCLE or "
                      "PASS")


def _tp(g: Ctx, role: str, cost: int) -> None:
    have = g.p(role)["tp"]
    if cost > have:
        raise IllegalLine(f"it costs {cost} Tactical Points and you have {have}")


def _actor_troop(g: Ctx, role: str, space: str, follow: str | None) -> Troop:
    t = own_troop(g, role, space)
    if follow is not None and t["uid"] != follow:
        moved = g.s["troops"].get(follow)
        raise IllegalLine("after a move only the troop that moved may act",
                          hint=f"it stands at {seen(role, moved['at'])}" if moved else "")
    return t


def _target(g: Ctx, role: str, cmd: dict[str, Any], effects: Sequence[Any]) -> dict[str, Any]:
    """A circumstance's or trophy's target: ``ON <space>`` when an effect acts
    on a single troop (any troop: these cards need no range)."""
    needs = [e.on for e in effects if e.on in ("target", "friendly", "enemy")]
    if not needs:
        if cmd.get("on") or cmd["spaces"]:
            raise IllegalLine("this card takes no target")
        return {}
    given = cmd.get("on") or (cmd["spaces"][0] if cmd["spaces"] else None)
    space = where(role, given, "target")
    t = g.troop_at(space)
    kind = needs[0]
    if kind == "friendly" and (t is None or t["owner"] != role):
        raise IllegalLine(f"it acts on one of your troops; {seen(role, space)} holds none")
    if kind == "enemy" and not _enemy_at(g, role, space):
        raise IllegalLine(f"it acts on an enemy; {seen(role, space)} holds none")
    if kind == "target" and t is None and g.base_at(space) is None:
        raise IllegalLine(f"{seen(role, space)} holds no troop or base")
    return {"on": seen(role, space), "at": space}


def _circumstance(g: Ctx, role: str, cmd: dict[str, Any], c: Card) -> dict[str, Any]:
    """Play Circumstance: its extra cards are discarded first; "If you do not
    have enough cards in your hand ... the Circumstance may not be played"."""
    out: dict[str, Any] = {"verb": "PLAY", "card": c.id, "spaces": [], "cost": c.cost}
    out.update(_target(g, role, cmd, c.effects))
    dis = discards(g, role, cmd["discard"], exclude=[c.id])
    others = len(g.p(role)["hand"]) - 1
    if len(dis) != c.discard:
        if others < c.discard:
            raise IllegalLine(f"{c.name} asks {c.discard} more cards to discard and you hold "
                              f"{others}: it may not be played")
        raise IllegalLine(f"{c.name} asks you to discard {c.discard} card"
                          f"{'s' if c.discard != 1 else ''}",
                          hint=f"add DISCARD <{c.discard} cards of your hand>")
    _tp(g, role, c.cost)
    out["discard"] = dis
    return out


def knows(g: Ctx, t: Troop, c: Card) -> int:
    """Cast Spell: "A Troop may only cast a Spell if they have the correct icon
    ... and are of the proper level"; the card may limit it (the Demonhunter
    knows only level 2 Fire Magic)."""
    return min(card(t["card"]).knows(c.school), card(t["card"]).level)


def _check_cast(g: Ctx, role: str, cmd: dict[str, Any], follow: str | None, *,
                instant: bool, protect: str | None = None) -> dict[str, Any]:
    verb = cmd["verb"]
    p = g.p(role)
    want = "spell" if verb == "CAST" else "skill"
    ready = [k["card"] for k in p["knowledge"] if k["up"]]
    options = [c for c in [*ready, *p["hand"]] if card(c).type == want]
    cid = find(cmd["name"], options, f"{want} ready in your Knowledge Pool or hand")
    c = card(cid)
    if (c.kind == "instant") != instant:
        raise IllegalLine(f"{c.name} is an instant: it is cast in answer to an action"
                          if c.kind == "instant" else
                          f"{c.name} is a {c.kind} {want}: only instants answer an action")
    src = where(role, cmd.get("from"), "troop that casts it (FROM <space>)")
    t = (own_troop(g, role, src) if instant else _actor_troop(g, role, src, follow))
    level = knows(g, t, c)
    if level < c.level:
        tc = card(t["card"])
        raise IllegalLine(f"{tc.name} knows {c.school} at level {level}: {c.name} is level "
                          f"{c.level}" if level else
                          f"{tc.name} has no {c.school} icon and cannot {verb.lower()} "
                          f"{c.name}")
    cost = cast_cost(c, t, g)
    _tp(g, role, cost)
    out: dict[str, Any] = {"verb": verb, "card": cid, "spaces": [], "from": seen(role, src),
                           "source": t["uid"], "cost": cost,
                           "from_hand": cid not in ready}
    rng = c.spell_range or g.range_of(t)
    if instant:
        if protect is not None and c.spell_range is not None:
            _range_ok(g, role, src, protect, (0, c.spell_range[1]), c.name)
        return out
    if c.kind == "offensive" or c.kind in ("buff", "debuff"):
        if len(cmd["spaces"]) != 1:
            raise IllegalLine(f"name the target of {c.name}",
                              hint=f"{verb} {c.id} <target> FROM {seen(role, src)}")
        b = where(role, cmd["spaces"][0], "target")
        if c.kind == "offensive" and not _enemy_at(g, role, b):
            raise IllegalLine(f"there is no enemy at {seen(role, b)}")
        if c.kind in ("buff", "debuff") and g.troop_at(b) is None:
            raise IllegalLine(f"{c.name} is attached to a troop; {seen(role, b)} holds none")
        if b != src:
            _range_ok(g, role, src, b, rng, c.name)
        out.update(spaces=[seen(role, b)], at=b)
        if c.kind == "offensive":
            # Cast Spell: "Offensive Spells deal damage in the same manner" as
            # ranged attacks (Use Skill: Skills follow "the same line of sight
            # and range rules"), and Ranged Attack: "where ranged units are
            # attacking an adjacent unit, melee rules should be used and the
            # attacker will receive Counterattack damage".
            out["melee"] = F.distance(src, b) == 1 and not any(
                e.kind == "no_counter" for e in c.effects)
    return out


# ------------------------------------------------------------------ doing an action


def begin_action(g: Ctx, role: str, cmd: dict[str, Any]) -> None:
    """Step 1: "Attacker: Declare Action & Pay Tactical Points"; then the
    target's owner may answer with an instant before anything takes effect."""
    s = g.s
    verb = cmd["verb"]
    p = g.p(role)
    if verb == "PASS":
        if cmd.get("all"):  # and at each of its later turns of this Play phase
            p["play_done"] = True
        s["passes"] += 1
        g.pub(f"{role} passes.")
        s["actor"] = F.other(role)
        s["stage"] = "play"
        new_decision(g)
        g.call({"t": "play"})
        return
    if verb == "STOP":
        end_action(g)
        g.call({"t": "play"})
        return
    if verb == "MOVE":
        a, b = cmd["path"]
        t = g.troop_at(a)
        assert t is not None
        p["tp"] -= 1
        t["at"] = b
        mark_touched(g, role, [a, b])
        g.pub(f"{role}'s {card(t['card']).name} moves {F.mark(a)} to {F.mark(b)} "
              f"({p['tp']} TP left).")
        s["stage"] = "follow"
        s["follow"] = t["uid"]
        s["passes"] = 0
        new_decision(g)
        g.call({"t": "follow"})
        return
    p["tp"] -= int(cmd.get("cost", 0))
    cid = cmd.get("card")
    source = s["troops"].get(cmd.get("source", ""))
    what = card(cid).name if cid else "an attack"
    by = f"{card(source['card']).name} at {F.mark(source['at'])}" if source else role
    at = cmd.get("at")
    if verb == "ATTACK":
        kind = "melee attack" if cmd["melee"] else "ranged attack"
        g.pub(f"{role}: {by} makes a {kind} on {F.mark(str(at))} ({cmd['cost']} TP; "
              f"{p['tp']} left).")
    elif verb in ("CAST", "USE"):
        g.pub(f"{role}: {by} {'casts' if verb == 'CAST' else 'uses'} {what}"
              + (f" on {F.mark(at)}" if at else "") + f" ({cmd['cost']} TP; {p['tp']} left).")
        _spend_spell(g, role, cmd)
    elif verb == "PLAY":
        play_circumstance_cards(g, role, cmd)
        g.pub(f"{role} plays {what}" + (f" on {F.mark(at)}" if at else "")
              + f" ({cmd['cost']} TP; {p['tp']} left).")
    elif verb in ("REDEEM", "RECYCLE"):
        _spend_trophy(g, role, cmd)
    s["action"] = dict(cmd, role=role, shield=0, cancel=False, step="defend",
                       before=board(g))
    s["passes"] = 0
    if at is not None and _hostile(g, role, cmd) and _enemy_at(g, role, at):
        g.call(window(F.other(role), "defend"))
        return
    g.call({"t": "resolve"})


def _hostile(g: Ctx, role: str, cmd: dict[str, Any]) -> bool:
    verb = cmd["verb"]
    if verb == "ATTACK":
        return True
    c = card(cmd["card"])
    if c.type in ("spell", "skill"):
        return c.kind in ("offensive", "debuff")
    effects = c.effects if c.type == "circumstance" else (
        c.redeem if verb == "REDEEM" else c.recycle)
    return any(e.kind in ("damage", "push") or (e.kind == "modify" and e.by < 0) for e in effects)


def _spend_spell(g: Ctx, role: str, cmd: dict[str, Any]) -> None:
    """Cast Spell / Use Skill: "Each Spell card can only be cast once per
    turn"; cast from the hand it goes "face-down in your Knowledge Pool unless
    it is a debuff or buff Spell" (those are attached to the target)."""
    p = g.p(role)
    cid = cmd["card"]
    c = card(cid)
    if cmd["from_hand"]:
        p["hand"].remove(cid)
        if c.kind not in ("buff", "debuff"):
            p["knowledge"].append({"card": cid, "up": False})
    else:
        entry = g.pool_entry(role, cid)
        assert entry is not None
        if c.kind in ("buff", "debuff"):
            p["knowledge"].remove(entry)
        else:
            entry["up"] = False


def _spend_trophy(g: Ctx, role: str, cmd: dict[str, Any]) -> None:
    """Trophies: "Redeem ... removes the Trophy from the game. Recycle ...
    shuffle the Trophy into your supply pile"."""
    p = g.p(role)
    cid = cmd["card"]
    p["trophies"].remove(cid)
    if cmd["verb"] == "REDEEM":
        p["removed"].append(cid)
        g.pub(f"{role} redeems the trophy {card(cid).name}.")
    else:
        p["supply"].append(cid)
        assert g.rng is not None
        g.rng.shuffle(p["supply"], f"shuffle:supply:{role}")
        g.pub(f"{role} recycles the trophy {card(cid).name} into its supply pile.")


def play_circumstance_cards(g: Ctx, role: str, cmd: dict[str, Any]) -> None:
    """The circumstance leaves the hand and the game; its discards go first."""
    p = g.p(role)
    p["hand"].remove(cmd["card"])
    p["removed"].append(cmd["card"])
    for cid in cmd["discard"]:
        p["hand"].remove(cid)
        p["discard"].append(cid)
    if cmd["discard"]:
        g.pub(f"{role} discards " + ", ".join(card(c).name for c in cmd["discard"]) + ".")


def play_circumstance(g: Ctx, role: str, cmd: dict[str, Any]) -> None:
    """A Mobilization circumstance: played and settled at once."""
    p = g.p(role)
    p["tp"] -= int(cmd["cost"])
    play_circumstance_cards(g, role, cmd)
    c = card(cmd["card"])
    g.pub(f"{role} plays {c.name}.")
    target = g.troop_at(cmd["at"]) if cmd.get("at") else None
    for e in c.effects:
        if e.kind == "damage" and cmd.get("at"):
            g.deal(role, cmd["at"], e.amount, pierce=e.pierce, what=c.name)
        else:
            g.apply_simple(role, e, None, target)


def window(role: str, step: str) -> dict[str, Any]:
    """The frame of an instant window for ``role`` at the combat step
    ``step`` (``defend``: step 2, before the action takes effect;
    ``counter``: step 7, before the Counterattack); the action goes on
    (``resolve``) once it is answered."""
    return {"t": "window", "role": role, "step": step}


def open_window(g: Ctx, role: str, step: str) -> None:
    s = g.s
    s["action"]["step"] = step
    s["window"] = {"role": role, "step": step}
    s["stage"] = "window"
    new_decision(g)


def incoming(g: Ctx, a: dict[str, Any]) -> int:
    """Glossary, Incoming Damage: "after adding in any buffs or bonuses and
    before accounting for conditions on the defending troop"."""
    src = g.s["troops"].get(a.get("source", ""))
    if a["verb"] == "ATTACK":
        return g.stat(src, "attack") if src else 0
    c = card(a["card"])
    effects = _effects_of(a)
    extra = sum(e.amount for e in effects if e.kind == "damage" and e.on in ("target", "enemy"))
    if c.type in ("spell", "skill"):
        base = c.damage + (g.stat(src, "attack") if c.damage_is_bonus and src else 0)
        return int(base + extra if c.kind == "offensive" else extra)
    return int(extra)


def _effects_of(a: dict[str, Any]) -> tuple[Any, ...]:
    c = card(a["card"])
    if a["verb"] == "REDEEM":
        return c.redeem
    if a["verb"] == "RECYCLE":
        return c.recycle
    return c.effects


def resolve_action(g: Ctx) -> None:
    """Steps 3 to 8 of combat: the instant's effect, the damage, the further
    effects of the action, then the Counterattack (after its own window)."""
    s = g.s
    a = s["action"]
    role = a["role"]
    if a["step"] == "counter":
        _counter(g)
        end_action(g)
        return
    if a["cancel"]:
        g.pub("The action has no effect.")
        end_action(g)
        return
    src = s["troops"].get(a.get("source", ""))
    at = a.get("at")
    verb = a["verb"]
    target = g.troop_at(at) if at else None
    if verb == "ATTACK":
        if src is None:
            end_action(g)
            return
        dmg = max(0, incoming(g, a) - a["shield"])
        g.deal(role, at, dmg)
        if a["melee"] and target is not None and target["uid"] in s["troops"] and \
                g.stat(target, "counter") > 0 and \
                not any(e.kind == "no_counter" for e in g.effects_on(src)):
            a["defender"] = target["uid"]
            a["shield"] = 0
            g.call(window(role, "counter"))
            return
        end_action(g)
        return
    c = card(a["card"])
    effects = _effects_of(a)
    if c.type in ("spell", "skill") and c.kind in ("buff", "debuff"):
        if target is not None:
            _attach(g, role, target, c)
        end_action(g)
        return
    dmg_total = incoming(g, a)
    pierce = any(e.pierce for e in effects if e.kind == "damage")
    splash = max([e.splash for e in effects if e.kind == "damage"], default=0)
    if at is not None and (dmg_total > 0 or c.kind == "offensive"):
        g.deal(role, at, max(0, dmg_total - a["shield"]), pierce=pierce, what=c.name)
    if splash and at is not None:
        for n in F.adjacent(at):
            t = g.troop_at(n)
            if t is not None and t["owner"] != role:
                g.deal(role, n, splash, pierce=pierce, what=f"{c.name}, splash")
    target = g.troop_at(at) if at else None
    for e in effects:
        if e.kind == "damage" and e.on in ("all_enemy", "all_friendly"):
            for t in list(g.whom(role, e, src, target)):
                g.deal(role, t["at"], e.amount, pierce=e.pierce, what=c.name)
        elif e.kind in ("heal", "modify", "tp", "draw", "push"):
            g.apply_simple(role, e, src, target)
    if a.get("melee") and target is not None and src is not None and \
            g.stat(target, "counter") > 0:
        a["defender"] = target["uid"]
        a["shield"] = 0
        g.call(window(role, "counter"))
        return
    end_action(g)


def _counter(g: Ctx) -> None:
    """Steps 6 to 8: the defender's Counterattack on the attacking card."""
    s = g.s
    a = s["action"]
    d = s["troops"].get(a.get("defender", ""))
    src = s["troops"].get(a.get("source", ""))
    if d is None or src is None:
        return
    if a["cancel"]:
        g.pub("The Counterattack is prevented.")
        return
    dmg = max(0, g.stat(d, "counter") - a["shield"])
    g.deal(d["owner"], src["at"], dmg, what="counterattack")


def _attach(g: Ctx, role: str, t: Troop, c: Card) -> None:
    """Cast Spell: "no more than one Buff and one Debuff attached ... the
    previous Buff is removed and the new one is attached"."""
    slot = c.kind
    old = t[slot]
    if old:
        g.p(old["by"])["knowledge"].append({"card": old["card"], "up": False})
        g.pub(f"{card(old['card']).name} leaves {g.label(t)}.")
    t[slot] = {"card": c.id, "by": role}
    g.pub(f"{c.name} is attached to {g.label(t)}.")
    for e in c.effects:  # what is not a lasting modifier happens once, now
        if e.kind in ("heal", "push", "tp", "draw"):
            g.apply_simple(role, e, t, t)


def check_instant(g: Ctx, role: str, cmd: dict[str, Any]) -> dict[str, Any]:
    """Steps 2 and 7: "Declare an instant effect (if applicable) & pay
    tactical points" -- one instant spell, skill or circumstance."""
    verb = cmd["verb"]
    if verb == "PASS":
        return {"verb": "PASS", "spaces": []}
    if verb == "DEFEND":
        return _check_defend(g, role)
    a = g.s["action"]
    protect = _protected(g)
    if verb in ("CAST", "USE"):
        return _check_cast(g, role, cmd, None, instant=True, protect=protect)
    if verb == "PLAY":
        p = g.p(role)
        cid = find(cmd["name"], [c for c in p["hand"] if card(c).type == "circumstance"],
                   "circumstance in hand")
        c = card(cid)
        if c.kind != "instant":
            raise IllegalLine(f"{c.name} is a {c.kind} circumstance, not an instant")
        out: dict[str, Any] = {"verb": "PLAY", "card": cid, "spaces": [], "cost": c.cost}
        dis = discards(g, role, cmd["discard"], exclude=[cid])
        if len(dis) != c.discard:
            raise IllegalLine(f"{c.name} asks you to discard {c.discard} card(s)",
                              hint=f"add DISCARD <{c.discard} cards>")
        _tp(g, role, c.cost)
        out["discard"] = dis
        return out
    del a
    raise IllegalLine("an instant window: CAST <instant spell> FROM <troop>, USE <instant "
                      "skill> FROM <troop>, PLAY <instant circumstance>, or PASS")


def _check_defend(g: Ctx, role: str) -> dict[str, Any]:
    """``DEFEND``: the instant that fits that costs the least -- one from
    the Knowledge Pool (it stays there, face down) before a card of the hand,
    a circumstance that asks no discard before one that does, fewer Tactical
    Points first -- checked as if written out."""
    fits: list[tuple[tuple[int, int, int], dict[str, Any]]] = []
    ready = {k["card"] for k in g.p(role)["knowledge"] if k["up"]}
    for line in instant_lines(g, role)[1:]:
        try:
            checked = check_instant(g, role, commands.syntax(line))
        except RuleError:
            continue
        cid = str(checked.get("card", ""))
        fits.append(((cid not in ready, len(checked.get("discard", [])),
                      int(checked.get("cost", 0))), checked))
    if not fits:
        raise IllegalLine("you hold no instant that fits this window", hint="PASS")
    return min(fits, key=lambda f: f[0])[1]


def _protected(g: Ctx) -> str | None:
    """The space of the card the instant protects: the target of the action,
    or the attacker facing the Counterattack."""
    a = g.s["action"]
    if a["step"] == "counter":
        t = g.s["troops"].get(a.get("source", ""))
        return str(t["at"]) if t else None
    at = a.get("at")
    return str(at) if at else None


def do_instant(g: Ctx, role: str, cmd: dict[str, Any]) -> None:
    s = g.s
    a = s["action"]
    s["window"] = None
    if cmd["verb"] != "PASS":
        p = g.p(role)
        p["tp"] -= int(cmd["cost"])
        c = card(cmd["card"])
        if cmd["verb"] == "PLAY":
            play_circumstance_cards(g, role, cmd)
        else:
            _spend_spell(g, role, dict(cmd, card=c.id))
        g.pub(f"{role} answers with {c.name} ({cmd['cost']} TP; {p['tp']} left).")
        prot_space = _protected(g)
        protected = g.troop_at(prot_space) if prot_space else None
        enemy_src = s["troops"].get(a.get("source" if a["step"] == "defend" else "defender",
                                          ""))
        for e in c.effects:
            if e.kind == "shield":
                a["shield"] += e.amount
            elif e.kind == "cancel":
                a["cancel"] = True
            elif e.kind == "damage" and enemy_src is not None:
                g.deal(role, enemy_src["at"], e.amount, pierce=e.pierce, what=c.name)
            elif e.on in ("self", "friendly", "target") and e.kind in ("heal", "modify"):
                g.apply_simple(role, e, protected, protected)
            elif e.on == "enemy" and e.kind in ("modify", "push"):
                g.apply_simple(role, e, enemy_src, enemy_src)
            elif e.kind in ("tp", "draw"):
                g.apply_simple(role, e, None, None)
    g.call({"t": "resolve"})


def instant_lines(g: Ctx, role: str) -> list[str]:
    p = g.p(role)
    out = ["PASS"]
    ready = [k["card"] for k in p["knowledge"] if k["up"]]
    for cid in dict.fromkeys([*ready, *p["hand"]]):
        c = card(cid)
        if c.type in ("spell", "skill") and c.kind == "instant":
            verb = "CAST" if c.type == "spell" else "USE"
            for t in g.troops(role):
                out.append(f"{verb} {cid} FROM {seen(role, t['at'])}")
        elif c.type == "circumstance" and c.kind == "instant":
            others = [x for x in p["hand"] if x != cid][:c.discard]
            tail = (" DISCARD " + ", ".join(others)) if c.discard else ""
            out.append(f"PLAY {cid}{tail}")
    return out


# =========================================================================== Halt


def achieved(g: Ctx, role: str, cond: Any) -> bool:
    """Whether a Victory Condition's condition holds for ``role`` now."""
    foe = F.other(role)
    p = g.p(role)
    base = g.s["bases"][foe]
    k = cond.kind
    if k == "destroy_points":
        return bool(p["destroyed"]["points"] >= cond.n)
    if k == "destroy_troops":
        return bool(p["destroyed"]["troops"] >= cond.n)
    if k == "destroy_base":
        return not base["alive"]
    if k == "damage_base":
        return not base["alive"] or base["damage"] >= cond.n
    if k == "raise_troop":
        return any(t["origin"] <= cond.level_from and card(t["card"]).level >= cond.level_to
                   for t in g.troops(role))
    if k == "hold_spaces":
        return bool(sum(1 for t in g.troops(role) if t["at"] in zone(role, cond.zone)) >= cond.n)
    if k == "knowledge":
        return bool(len(p["knowledge"]) >= cond.n)
    if k == "field_troops":
        return bool(sum(1 for _ in g.troops(role)) >= cond.n)
    return False


def halt_effect(g: Ctx, role: str, e: Any, origin: str, troop: Troop | None) -> None:
    """A Halt ability of a troop (``troop``) or of a base (``troop`` None:
    ``self`` is the base). ``enemy`` and ``friendly`` name one troop, picked
    as Ctx.pick says; ``splash`` hits every enemy next to ``origin``."""
    name = card(troop["card"]).name if troop else card(g.s["bases"][role]["card"]).name
    if e.kind == "heal" and e.on == "self" and troop is None:
        b = g.s["bases"][role]
        mended = min(e.amount, int(b["damage"]))
        if mended:
            b["damage"] -= mended
            g.pub(f"{role}'s base is repaired by {mended} ({name}).")
        return
    if e.kind == "damage":
        whom = ([troop] if e.on == "self" and troop else
                [x for x in [g.pick(role, e.on, origin)] if x] if e.on in ("enemy", "friendly")
                else g.whom(role, e, troop, troop))
        for t in whom:
            g.deal(role, t["at"], e.amount, pierce=e.pierce, what=name)
        if e.splash:
            for n in F.adjacent(origin):
                foe = g.troop_at(n)
                if foe is not None and foe["owner"] != role:
                    g.deal(role, n, e.splash, pierce=e.pierce, what=f"{name}, splash")
        return
    target = g.pick(role, e.on, origin) if e.on in ("enemy", "friendly") else troop
    g.apply_simple(role, e, troop, target)


def zone(role: str, name: str) -> set[str]:
    ranks = {"enemy_deployment": (4, 5), "middle_row": (3,), "enemy_edge": (5,)}[name]
    return {s for s in F.spaces() if F.rank(s, role) in ranks}


def halt(g: Ctx) -> None:
    """H - Halt: card effects of this phase first, then each player's
    Victory Conditions (one achieved is flipped face down and a Trophy is
    drawn), then the tally."""
    s = g.s
    g.pub(f"Halt (turn {s['turn']}).")
    order = (s["initiative"], F.other(s["initiative"]))
    for role in order:
        for t in list(g.troops(role)):
            for ab in card(t["card"]).abilities:
                if ab.when == "halt":
                    for e in ab.effects:
                        if t["uid"] in s["troops"]:
                            halt_effect(g, role, e, t["at"], t)
        b = s["bases"][role]
        if b["alive"]:
            for ab in card(b["card"]).abilities:
                if ab.when == "halt":
                    for e in ab.effects:
                        halt_effect(g, role, e, b["at"], None)
    for role in order:
        p = g.p(role)
        for v in p["victories"]:
            c = card(v["card"])
            # Victory: "A Victory is achieved when a condition on a Victory
            # Condition card is met. At this time, the Victory Condition is
            # flipped"; "A Victory Condition card can only be achieved once per
            # game but multiple copies ... can be carried": each card once, and
            # every card whose condition is met flips (two copies at one Halt).
            if not v["done"] and c.condition is not None and achieved(g, role, c.condition):
                v["done"] = True
                trophy = p["trophy_pile"].pop(0) if p["trophy_pile"] else None
                if trophy:
                    p["trophies"].append(trophy)
                g.pub(f"{role} achieves the Victory Condition {c.name}"
                      + (f" and draws the trophy {card(trophy).name}." if trophy else "."))
    for t in g.troops():  # the turn's modifiers and the Buffs and Debuffs expire
        t["mods"] = []
        for slot in ("buff", "debuff"):
            if t[slot]:
                g.p(t[slot]["by"])["knowledge"].append({"card": t[slot]["card"], "up": False})
                t[slot] = None
    tally = {r: sum(1 for v in g.p(r)["victories"] if v["done"]) for r in F.ROLES}
    g.pub("The tally: " + ", ".join(f"{r} {tally[r]}" for r in F.ROLES) + ".")
    limit = int(s["options"].get("turn_limit", 0))
    if max(tally.values()) >= VICTORIES_TO_WIN or (limit and s["turn"] >= limit):
        finish(g, tally, limit_reached=max(tally.values()) < VICTORIES_TO_WIN)
        return
    s["stage"] = "halt"


def finish(g: Ctx, tally: dict[str, int], *, limit_reached: bool = False) -> None:
    """Victory: the score and the result table (3-3 Draw, 3-2 Narrow, 3-1
    Sound, 3-0 Massacre). At the turn limit (ours: the rulebook has none) the
    greater tally wins. The score is read as the table reads it: a player
    who achieves two Victory Conditions at one Halt and so passes three
    (Victory: "achieved by tallying three (3) Victory Conditions") scores
    3, so two players passing three together draw 3-3."""
    s = g.s
    a, b = (min(tally[r], VICTORIES_TO_WIN) for r in (F.SOUTH, F.NORTH))
    if a == b:
        winners: list[str] = []
        text = f"{a}-{b} Draw"
    else:
        w = F.SOUTH if a > b else F.NORTH
        winners = [w]
        hi, lo = max(a, b), min(a, b)
        name = RESULTS.get(lo, "") if hi == VICTORIES_TO_WIN else "on points at the turn limit"
        text = f"{w} wins {hi}-{lo}: {name}"
    if limit_reached:
        text += f" (turn limit {s['turn']})"
    s["stage"] = "over"
    s["result"] = {"winners": winners, "text": text, "score": {F.SOUTH: a, F.NORTH: b}}
    g.pub(f"The match is over: {text}.")

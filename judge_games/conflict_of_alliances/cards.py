"""Card plays: checking the face-up options and responses of both decks, and
carrying out their effects (rulebook: Face-Up Play, Responses, Diplomacy,
Reinforcement Operations; Player Aid card texts; README "Card rulings").

Checking functions raise IllegalLine / AmbiguousLine and return the command
with every choice explicit. Effects change the state and return their
follow-up steps as kernel frames (judge/game/flow.py), run next in order: a
``card-step`` the player answers with MILITARY, REINFORCE or SKIP, a
``choose`` answered with TAKE or DISCARD.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from judge.game import flow
from judge.game.engine import IllegalLine, RuleError, State
from judge_games.conflict_of_alliances import board as B
from judge_games.conflict_of_alliances.commands import Cmd, text
from judge_games.conflict_of_alliances.data import (
    DATA,
    NEUTRAL,
    SIDES,
    Card,
    Option,
    card_of,
    other,
    slug,
)
from judge_games.conflict_of_alliances.kernel import Ctx
from judge_games.conflict_of_alliances.ops import ambiguous, aname, fname, gname

RESPONSE_EFFECTS = {"xinling", "cancel", "crossbow-defence", "mobilize-defence"}
"""Options that exist only as responses (Responses: the option after "or")."""

BEFORE_COMBAT = "before-combat"
CHARACTER = "character-card"
WINDOWS = (BEFORE_COMBAT, CHARACTER)
"""The kinds of response window (their specs: policy.WINDOWS)."""


def printed(state: State, side: str) -> bool:
    """Whether the Alliance's Elite Crossbowmen and Emergency Mobilization read
    as the printed Chinese card art (option ``card_text=printed``) rather than
    the Player Aid (translator's notes on the appendix)."""
    return side == SIDES[1] and bool(state.get("printed"))


# --------------------------------------------------------------------------- zones


def zones(state: State, side: str) -> dict[str, Any]:
    z: dict[str, Any] = state["cards"][side]
    return z


def holding(state: State, side: str, card: str) -> str | None:
    """The instance of card ``card`` (a slug) in ``side``'s hand, if any."""
    for inst in sorted(zones(state, side)["hand"]):
        if slug(inst) == card:
            return str(inst)
    return None


def hand_size(state: State, side: str) -> int:
    """Cards in hand, counting one a face-up play has set aside to discard."""
    z = zones(state, side)
    return len(z["hand"]) + len(z.get("aside", []))


def set_aside(state: State, side: str, card: str) -> None:
    """Lyu Buwei and Legendary General B name, when played, another card of
    the hand to discard face down as part of their effect. It is set aside
    (still counted in the hand, hidden from the opponent) until the effect
    discards it, or goes back to the hand if the effect is cancelled, so
    that the state never names a hidden card outside a hidden zone."""
    inst = holding(state, side, card)
    assert inst is not None
    z = zones(state, side)
    z["hand"].remove(inst)
    z.setdefault("aside", []).append(inst)


def discard_aside(state: State, side: str) -> bool:
    """Discard the set-aside cards face down; whether there were any."""
    z = zones(state, side)
    gone = list(z.get("aside", []))
    z["aside"] = []
    for inst in gone:
        z["discard"].append([inst, False])
    return bool(gone)


def restore_aside(state: State, side: str) -> None:
    """A cancelled card's set-aside discard returns to the hand."""
    z = zones(state, side)
    z["hand"] = sorted(z["hand"] + list(z.get("aside", [])))
    z["aside"] = []


def draw(state: State, log: Ctx, side: str, n: int) -> list[str]:
    """Draw up to ``n`` cards from the top of the deck (an empty deck is only
    refilled in the End Step)."""
    z = zones(state, side)
    got: list[str] = list(z["deck"][:n])
    del z["deck"][:n]
    z["hand"] = sorted(z["hand"] + got)
    if got:
        names = ", ".join(card_of(side, c).name for c in got)
        log.mine(side, f"You draw {names}.")
    log.pub(f"{side} draws {len(got)} card{'s' if len(got) != 1 else ''}"
            f"{'' if len(got) == n else ' (the deck ran out)'}.")
    return got


def discard(state: State, side: str, inst: str, up: bool) -> None:
    z = zones(state, side)
    if inst in z["hand"]:
        z["hand"].remove(inst)
    z["discard"].append([inst, up])


# --------------------------------------------------------------------------- conditions


def _movable(state: State, force: str, *, locked_ok: bool) -> None:
    if force not in state["diplomacy"]:
        why = "is eliminated" if force in state["eliminated"] else "has no diplomacy counter"
        raise IllegalLine(f"{fname(force)} {why}")
    if not locked_ok and not state["diplomacy"][force]["received"]:
        raise IllegalLine(
            f"{fname(force)}'s counter is Not Received: only a card that says so may move it"
        )


def _linked_alive(state: State, side: str, card: str) -> None:
    c = DATA.cards[side][card]
    if c.linked and all(f in state["eliminated"] for f in c.linked):
        raise IllegalLine(f"{c.name} is linked to an eliminated force: it may only be played "
                          "face down now")


def _ambiguous(what: str, cmd: Cmd, field: str, values: list[Any], check: Any) -> RuleError:
    """As for operations: the choices are the complete lines that check."""
    return ambiguous(what, cmd, field, values, check, text)


def generals_available(state: State, side: str) -> list[str]:
    """Generals ``side`` may receive with Legendary General: of a force of its
    faction still in play, off the board, and not Wei Wuji (Player Aid)."""
    out = []
    for g, gen in DATA.generals.items():
        if g == "wei-wuji" or state["generals"][g] != "off":
            continue
        if gen.force in state["eliminated"] or B.faction(state, gen.force) != side:
            continue
        out.append(g)
    return out


def general_homes(state: State, general: str) -> list[str]:
    """Areas where a received general may be placed: any area holding
    counters of his force (our ruling, as for reinforcements)."""
    force = DATA.generals[general].force
    return [a for a in DATA.areas if B.size(B.stack(state, a, force)) > 0]


def national_areas(state: State) -> list[str]:
    return [a for a in DATA.areas if B.controller(state, a) == "qin"]


def check_faceup(state: State, side: str, cmd: Cmd) -> Cmd:
    """A face-up play in ``side``'s own action phase. Conditions are judged
    before the card is played (Face-Up Play)."""
    card = cmd["card"]
    c = DATA.cards[side][card]
    option = c.option(cmd["option"])
    assert option is not None
    effect, params = option.effect, option.params
    out: Cmd = {"verb": "PLAY", "card": card, "mode": "up", "option": option.key}
    if effect in RESPONSE_EFFECTS:
        raise IllegalLine(f"{c.name} option {option.key.upper()} is a response: it is played in "
                          "the opponent's action phase")
    _linked_alive(state, side, card)

    def again(trial: Cmd) -> Cmd:
        return check_faceup(state, side, trial)

    mine, theirs = hand_size(state, side), hand_size(state, other(side))
    if effect == "sway":
        forces = params.get("forces") or [f for f in DATA.forces if f in state["diplomacy"]]
        force = cmd.get("force")
        if force is None:
            if len(forces) != 1:
                raise _ambiguous(f"which force does {c.name} move?", cmd, "force", forces, again)
            force = forces[0]
        if force not in forces:
            raise IllegalLine(f"{c.name} cannot move {fname(force)}")
        _movable(state, force, locked_ok=bool(params.get("locked")))
        out["force"] = force
    elif effect == "court":
        force = params["force"]
        if B.faction(state, force) not in (NEUTRAL, side):
            raise IllegalLine(f"{c.name}: {fname(force)} is neither Neutral nor friendly")
    elif effect == "chunshen":
        if B.faction(state, params["force"]) != side:
            raise IllegalLine(f"{c.name}: {fname(params['force'])} is not friendly")
        if mine > theirs:
            raise IllegalLine(f"{c.name}: you hold more cards than your opponent")
    elif effect == "draw":
        if mine > theirs:
            raise IllegalLine(f"{c.name}: you hold more cards than your opponent")
        if params.get("discard"):
            played = holding(state, side, card)
            rest = [x for x in zones(state, side)["hand"] if x != played]
            gone = cmd.get("discard")
            if rest and gone is None:
                raise _ambiguous(f"{c.name}: which card do you discard?", cmd, "discard",
                                 sorted({slug(x) for x in rest}), again)
            if gone is not None:
                if not any(slug(x) == gone for x in rest):
                    raise IllegalLine(f"you hold no other {gone} to discard")
                out["discard"] = gone
        elif cmd.get("discard"):
            raise IllegalLine(f"{c.name} discards nothing")
    elif effect == "mao-sui":
        force = cmd.get("force")
        if force is None:
            raise _ambiguous("Mao Sui: which force's counter do you move?", cmd, "force",
                             [f for f in DATA.forces if f in state["diplomacy"]], again)
        _movable(state, force, locked_ok=False)
        out["force"] = force
    elif effect == "bolster":
        area = cmd.get("bolster")
        if area is None:
            raise IllegalLine("Bolster Morale needs the area whose counters it readies")
        able = [f for f in B.directable(state, side)
                if (st := B.stack(state, area, f)) is not None
                and (st["tired"] or not all(st["generals"].values()))]
        force = cmd.get("force")
        if force is None:
            if not able:
                raise IllegalLine(f"you have no exhausted counters to ready in {aname(area)}")
            if len(able) > 1:
                raise _ambiguous("which force do you ready?", cmd, "force", able, again)
            force = able[0]
        if force not in able:
            raise IllegalLine(f"{fname(force)} has no exhausted counters you may direct in "
                              f"{aname(area)}")
        out["bolster"] = area
        out["force"] = force
    elif effect == "general":
        count = int(params["count"])
        place = [list(p) for p in cmd.get("place", [])]
        pool = generals_available(state, side)
        if count == 2:
            own = [g for g, where in state["generals"].items()
                   if where == "map" and B.faction(state, DATA.generals[g].force) == side]
            if own:
                raise IllegalLine("option B needs no friendly general on the map "
                                  f"({', '.join(gname(g) for g in own)} is there)")
            if mine < 2:
                raise IllegalLine("option B needs 2 cards in hand")
            played = holding(state, side, card)
            rest = [x for x in zones(state, side)["hand"] if x != played]
            gone = cmd.get("discard")
            if gone is None or not any(slug(x) == gone for x in rest):
                raise IllegalLine("option B discards another card from your hand: "
                                  "add DISCARD <card>")
            out["discard"] = gone
        elif cmd.get("discard"):
            raise IllegalLine("option A discards nothing")
        if not pool:
            raise IllegalLine("no general of a friendly force is off the board")
        if len(place) != count:
            raise IllegalLine(f"name {count} general{'s' if count > 1 else ''} with "
                              "GENERAL <general> <area>")
        seen_g: set[str] = set()
        seen_a: set[str] = set()
        for g, area in place:
            if g not in pool:
                raise IllegalLine(f"{gname(g)} cannot be received now (friendly, off the board, "
                                  "not Wei Wuji)")
            if area not in general_homes(state, g):
                raise IllegalLine(f"{gname(g)} must join counters of "
                                  f"{fname(DATA.generals[g].force)}")
            if g in seen_g or area in seen_a:
                raise IllegalLine("two different generals in two different areas")
            seen_g.add(g)
            seen_a.add(area)
        out["place"] = place
    elif effect == "fan-ju":
        g = cmd.get("general")
        if g is None or state["generals"][g] != "map":
            raise IllegalLine("Fan Ju removes a general that is on the map")
        out["general"] = g
    elif effect == "mi-yue":
        _movable(state, "yiqu", locked_ok=False)
    elif effect == "emissary":
        forces = list(params["forces"])
        force = cmd.get("force")
        if force is None:
            if len(forces) != 1:
                raise _ambiguous(f"{c.name}: with which kingdom?", cmd, "force", forces, again)
            force = forces[0]
        if force not in forces:
            raise IllegalLine(f"{c.name} cannot direct {fname(force)}")
        if force in state["eliminated"] or B.faction(state, force) != side:
            raise IllegalLine(f"{fname(force)} is not friendly")
        out["force"] = force
    elif effect == "national":
        areas = list(cmd.get("areas", []))
        held = national_areas(state)
        k = min(2, len(held))
        if k == 0:
            raise IllegalLine("Qin controls no area")
        if len(areas) != k or len(set(areas)) != k:
            raise IllegalLine(f"name {k} different areas Qin controls")
        for a in areas:
            if a not in held:
                raise IllegalLine(f"Qin does not control {aname(a)}")
        counts = {a: B.size(B.stack(state, a, "qin")) for a in held}
        worst = max(counts[a] for a in areas)
        skipped = [a for a in held if a not in areas and counts[a] < worst]
        if skipped:
            raise IllegalLine("priority to areas with fewer units: "
                              f"{aname(skipped[0])} has fewer Qin counters")
        out["areas"] = sorted(areas, key=list(DATA.areas).index)
    elif cmd.get("force") or cmd.get("discard") or cmd.get("place") or cmd.get("areas"):
        raise IllegalLine(f"{c.name} takes no arguments")
    return out


def faceup_choices(state: State, side: str, card: str) -> list[Cmd]:
    """Face-up plays of ``card`` worth offering (each checks)."""
    c = DATA.cards[side][card]
    out: list[Cmd] = []
    for option in c.options:
        base: Cmd = {"verb": "PLAY", "card": card, "mode": "up", "option": option.key}
        trials: list[Cmd] = []
        eff = option.effect
        if eff in ("sway", "mao-sui", "emissary"):
            trials = [{**base, "force": f} for f in DATA.forces]
        elif eff == "draw":
            trials = [base] + [{**base, "discard": slug(x)}
                               for x in zones(state, side)["hand"]]
        elif eff == "bolster":
            trials = [{**base, "bolster": a} for a in DATA.areas]
        elif eff == "general":
            pool = generals_available(state, side)
            for g in pool[:3]:
                for a in general_homes(state, g)[:2]:
                    one = [[g, a]]
                    trials.append({**base, "place": one})
                    for g2 in pool:
                        for a2 in general_homes(state, g2)[:2]:
                            for x in sorted({slug(y) for y in zones(state, side)["hand"]}):
                                trials.append({**base, "place": [*one, [g2, a2]],
                                               "discard": x})
        elif eff == "fan-ju":
            trials = [{**base, "general": g} for g, w in state["generals"].items() if w == "map"]
        elif eff == "national":
            held = national_areas(state)
            trials = [{**base, "areas": [a, b]} for a in held for b in held if a < b]
            trials += [{**base, "areas": [a]} for a in held]
        else:
            trials = [base]
        for t in trials:
            try:
                out.append(check_faceup(state, side, t))
            except RuleError:
                continue
    unique = {text(x): x for x in out}
    return list(unique.values())


# --------------------------------------------------------------------------- responses


def xinling_sources(state: State) -> list[str]:
    """Wei stacks from which Wei Wuji can reach the battlefield: at most 2
    movement points, through areas free of enemy and Neutral counters (our
    reading of "move to reinforce the attacked stack")."""
    area = state["battle"]["area"]
    side = SIDES[1]
    out = []
    for start in DATA.areas:
        if B.size(B.stack(state, start, "wei")) == 0:
            continue
        best = {start: 0}
        frontier = [start]
        while frontier:
            cur = frontier.pop()
            if cur == area:
                continue
            if cur != start and any(B.hostile(state, f, side) for f in B.forces_in(state, cur)):
                continue
            for nxt in DATA.neighbours[cur]:
                cost = best[cur] + DATA.step_cost(cur, nxt)
                if cost <= 2 and cost < best.get(nxt, 99):
                    best[nxt] = cost
                    frontier.append(nxt)
        if area in best:
            out.append(start)
    return out


def check_respond(state: State, side: str, cmd: Cmd) -> Cmd:
    """RESPOND in a window (Responses): a Break-marked card whose condition
    holds now; only its response option."""
    window = state["window"]
    card = cmd["card"]
    c = DATA.cards[side].get(card)
    if c is None:
        raise IllegalLine(f"{card} is not a card of your deck")
    if c.response is None:
        raise IllegalLine(f"{c.name} has no Break mark: it cannot respond")
    if holding(state, side, card) is None:
        raise IllegalLine(f"you do not hold {c.name}")
    option = c.option(c.response)
    assert option is not None
    if cmd.get("option") not in (None, option.key):
        raise IllegalLine(f"as a response {c.name} may only use option {option.key.upper()}")
    effect = option.effect
    out: Cmd = {"verb": "RESPOND", "card": card}
    if effect == "cancel":
        if window["kind"] != CHARACTER:
            raise IllegalLine(f"{c.name} answers a character card")
        force = option.params.get("force")
        if force is not None and (force in state["eliminated"]
                                  or B.faction(state, force) != side):
            raise IllegalLine(f"{c.name}: {fname(force)} is not friendly")
    else:
        if window["kind"] != BEFORE_COMBAT:
            raise IllegalLine(f"{c.name} answers an attack, before combat")
        bt = state["battle"]
        if effect == "mobilize-defence" and bt["target"] in state["eliminated"]:
            raise IllegalLine("the defending force cannot be reinforced")
        if effect == "crossbow-defence" and bt["def_first"]:
            raise IllegalLine("the defender already fires first")
        if effect == "xinling":
            if "wei" in state["eliminated"] or B.faction(state, "wei") != side:
                raise IllegalLine("Lord Xinling: Wei is not friendly")
            if B.faction(state, bt["target"]) != side:
                raise IllegalLine("Lord Xinling: the attacked force is not friendly")
            if state["generals"]["wei-wuji"] != "off":
                raise IllegalLine("Wei Wuji is not available")
            sources = xinling_sources(state)
            src = cmd.get("from")
            if src is None:
                if not sources:
                    raise IllegalLine("no Wei force can reach the battlefield")
                if len(sources) > 1:
                    raise _ambiguous("from which Wei force does Wei Wuji come?", cmd, "from",
                                     sources, lambda t: check_respond(state, side, t))
                src = sources[0]
            if src not in sources:
                raise IllegalLine(f"Wei Wuji cannot reach the battle from {aname(src)}")
            out["from"] = src
    if cmd.get("from") and "from" not in out:
        raise IllegalLine(f"{c.name} takes no FROM")
    return out


def respond_choices(state: State, side: str) -> list[Cmd]:
    out: list[Cmd] = []
    for card in sorted({slug(x) for x in zones(state, side)["hand"]}):
        trials: list[Cmd] = [{"verb": "RESPOND", "card": card}]
        if card == "lord-xinling" and state.get("battle"):
            trials = [{"verb": "RESPOND", "card": card, "from": a}
                      for a in xinling_sources(state)]
        for t in trials:
            try:
                out.append(check_respond(state, side, t))
            except RuleError:
                continue
    return out


def do_respond(state: State, log: Ctx, side: str, cmd: Cmd) -> bool:
    """Carry out a response through the card's entry in :data:`CARD_EFFECTS`.
    Returns True when it cancelled the active player's card (the window
    closes and that action phase ends)."""
    card = cmd["card"]
    inst = holding(state, side, card)
    assert inst is not None
    c = DATA.cards[side][card]
    option = c.option(str(c.response))
    assert option is not None
    discard(state, side, inst, True)
    log.pub(f"{side} responds with {c.name}.", card=card)
    if state["window"]["kind"] == BEFORE_COMBAT:
        # New defenders may join: a DEFEND choice made before no longer binds.
        state["battle"]["defend"] = None
    play = Play(state, log, side, cmd, 0, c, option, instance=inst)
    CARD_EFFECTS[card](play)
    return play.cancelled


# --------------------------------------------------------------------------- effects


Step = flow.Frame


def ask(kind: str, label: str, tag: int, **ctx: Any) -> Step:
    """A follow-up step of a card for the player to answer (a ``card-step``
    frame: ``tag`` groups the steps of one card)."""
    return {"t": "card-step", "kind": kind, "label": label, "tag": tag, "ctx": ctx}


def choose(kind: str, side: str, label: str) -> Step:
    """A card for ``side`` to choose: ``take`` one from its deck, or ``keep``
    two of the three just drawn (a ``choose`` frame)."""
    return {"t": "choose", "kind": kind, "side": side, "label": label}


@dataclass
class Play:
    """One face-up card being carried out: in its owner's action phase (an
    option of :func:`check_faceup`) or as a response (:func:`check_respond`).
    ``tag`` groups the steps the card queues; ``instance`` is the card
    itself (a response needs it for Jing Ke); ``cancelled`` is set by a
    response that cancels the opponent's character card."""

    state: State
    log: Ctx
    side: str
    cmd: Cmd
    tag: int
    card: Card
    option: Option
    instance: str = ""
    cancelled: bool = False

    @property
    def params(self) -> dict[str, Any]:
        return self.option.params

    @property
    def label(self) -> str:
        return self.card.name

    @property
    def key(self) -> str:
        """The option played: ``"a"`` or ``"b"``."""
        return self.option.key

    def ask(self, kind: str, **ctx: Any) -> Step:
        return ask(kind, self.label, self.tag, **ctx)


CardEffect = Callable[[Play], list[Step]]
"""What a card does when it is carried out; returns the steps it queues."""


def effect(state: State, log: Ctx, side: str, cmd: Cmd, tag: int) -> list[Step]:
    """Carry out a face-up card's effect (a card played in its owner's action
    phase, after any character-card window); return the steps it queues."""
    card = cmd["card"]
    c = DATA.cards[side][card]
    option = c.option(cmd["option"])
    assert option is not None
    return CARD_EFFECTS[card](Play(state, log, side, cmd, tag, c, option))


# ----------------------------------------------------------- shared pieces of effects


def _sway(p: Play) -> list[Step]:
    """Open diplomacy: "the player may move a diplomacy counter one space to
    the left or to the right, and the moved counter is flipped to the Not
    Received side" -- as many spaces as the card says, toward the player's
    side (Diplomacy)."""
    force = p.cmd["force"]
    old, _ = B.shift(p.state, force, B.direction(p.side) * int(p.params["spaces"]))
    p.log.pub(f"{fname(force)}'s diplomacy counter moves from {DATA.track[old].name} to "
              f"{B.stance_name(p.state, force)}, Not Received.")
    return []


def _court(p: Play) -> list[Step]:
    """Guo Wei and Lord Mengchang: "If <force> is neutral draw a card. If
    <force> is friendly choose a card and reshuffle." """
    force = p.params["force"]
    if B.faction(p.state, force) == NEUTRAL:
        draw(p.state, p.log, p.side, 1)
        return []
    if B.faction(p.state, force) == p.side:
        return [choose("take", p.side, p.label)]
    p.log.pub(f"{fname(force)} is no longer Neutral or friendly: no effect.")
    return []


def _discard_set_aside(p: Play) -> None:
    """The card a play names to discard (Lyu Buwei, Legendary General B) goes
    face down to the discard pile now (README: such discards are face down)."""
    if discard_aside(p.state, p.side):
        p.log.pub(f"{p.side} discards a card face down.")


def _draw_cards(p: Play) -> list[Step]:
    """Lyu Buwei and Han Fei: "Play if not more cards than enemy", then
    (Lyu Buwei) "Discard 1 more card, then draw 3" / (Han Fei) "Draw 2 cards"."""
    _discard_set_aside(p)
    draw(p.state, p.log, p.side, int(p.params["draw"]))
    return []


def _kingdom_operation(p: Play) -> list[Step]:
    """The Emissaries' option B: "If <kingdom> friendly perform reinforcement,
    then military operation with them"; Mi Yue's B adds Qin: "perform
    reinforcement and military operation with Qin and Yiqu"."""
    force = p.cmd["force"]
    if p.params.get("with-qin"):
        both = ["qin", force]
        return [p.ask("reinforce", forces=both, distinct=True),
                p.ask("reinforce", forces=both, distinct=True),
                p.ask("military", forces=both)]
    return [p.ask("reinforce", forces=[force]), p.ask("military", forces=[force])]


def _emissary(p: Play) -> list[Step]:
    """Emissary to Zhao / Qi / Chu / Minor Kingdom: "a) Move <kingdom> 2 in
    favour and lock or b) If <kingdom> friendly perform reinforcement, then
    military operation with them"."""
    return _sway(p) if p.key == "a" else _kingdom_operation(p)


def _cancel(p: Play) -> list[Step]:
    """Li Si and Jing Ke, answering a character card: "Cancel effect ...
    Enemy action phase ends"; Jing Ke also "remove[s] both character cards
    from the game" (Player Aid)."""
    state, log, side = p.state, p.log, p.side
    victim = state["window"]["card"]
    owner = other(side)
    v = card_of(owner, victim)
    # The cancelled card named a card to discard: it stays in its owner's hand.
    restore_aside(state, owner)
    if p.params.get("remove"):
        oz = zones(state, owner)
        oz["discard"] = [e for e in oz["discard"] if e[0] != victim]
        oz["removed"].append(victim)
        mz = zones(state, side)
        mz["discard"] = [e for e in mz["discard"] if e[0] != p.instance]
        mz["removed"].append(p.instance)
        log.pub(f"{v.name} is cancelled; {v.name} and {p.card.name} are removed from the "
                f"game. {owner}'s action phase ends.")
    else:
        log.pub(f"{v.name} is cancelled. {owner}'s action phase ends.")
    p.cancelled = True
    return []


# ----------------------------------------------------------- one function per card


def guo_wei(p: Play) -> list[Step]:
    """Guo Wei: "If Yan is neutral draw a card. If Yan is friendly choose a
    card and reshuffle." """
    return _court(p)


def lord_mengchang(p: Play) -> list[Step]:
    """Lord Mengchang: "If Qi is neutral draw a card. If Qi is friendly choose
    a card and reshuffle." """
    return _court(p)


def lord_xinling(p: Play) -> list[Step]:
    """Lord Xinling: "a) Move Wei 2 in favour and lock or b) If Wei friendly
    and a friendly force is attacked, place Wei Wuji with a Wei force, move
    to reinforce the attacked stack. Remove Wei Wuji after the battle." B is
    a response only (Responses: "may only use the second option")."""
    if p.key == "a":
        return _sway(p)
    bt = p.state["battle"]
    bt["xinling"] = p.cmd["from"]
    p.state["generals"]["wei-wuji"] = "map"
    p.log.pub(f"Wei Wuji comes from {aname(p.cmd['from'])} to reinforce the defenders.")
    return []


def lord_chunshen(p: Play) -> list[Step]:
    """Lord Chunshen: "Play if Chu friendly and not more cards than enemy.
    Draw 3 cards and keep 2." (the third goes face down to the discard pile)."""
    got = draw(p.state, p.log, p.side, 3)
    if len(got) != 3:
        return []
    z = zones(p.state, p.side)
    for x in got:
        z["hand"].remove(x)
    p.state["choice"] = {"kind": "keep", "side": p.side, "cards": sorted(got),
                         "label": p.label}
    return [choose("keep", p.side, p.label)]


def jing_ke(p: Play) -> list[Step]:
    """Jing Ke: "Play if Yan is friendly and enemy plays character card.
    Cancel effect and remove both character cards from the game. Enemy action
    phase ends." """
    return _cancel(p)


def mao_sui(p: Play) -> list[Step]:
    """Mao Sui: "Move 1 state 1 in favour and lock. Then perform military
    operation." """
    force = p.cmd["force"]
    old, _ = B.shift(p.state, force, B.direction(p.side))
    p.log.pub(f"{fname(force)}'s diplomacy counter moves from {DATA.track[old].name} to "
              f"{B.stance_name(p.state, force)}, Not Received.")
    return [p.ask("military", generic=True)]


def gongsun_yan(p: Play) -> list[Step]:
    """Gongsun Yan: "a) Move 1 state 2 in favour and lock or b) Move 1 locked
    state 1 in favour." """
    return _sway(p)


def su_qin(p: Play) -> list[Step]:
    """Su Qin: "a) Move 1 state 2 in favour and lock or b) Move 1 locked state
    1 in favour." """
    return _sway(p)


def mounted_attack(p: Play) -> list[Step]:
    """Mounted Attack: "Perform military operation. May move and fight
    multiple times with +1 DRM (up to total MA)." """
    return [p.ask("military", generic=True, mounted=True, drm=1)]


def double_operation(p: Play) -> list[Step]:
    """Double Operation: "Perform a second military operation." (two
    operations, README card rulings)."""
    return [p.ask("military", generic=True), p.ask("military", generic=True)]


def bolster_morale(p: Play) -> list[Step]:
    """Bolster Morale: "Ready up to 4 exhausted units in an area and perform
    military operation with them." """
    area, force = p.cmd["bolster"], p.cmd["force"]
    st = B.stack(p.state, area, force)
    assert st is not None
    room = 4
    gens = [g for g, r in st["generals"].items() if not r][:room]
    for g in gens:
        st["generals"][g] = True
    n = min(room - len(gens), int(st["tired"]))
    st["tired"] -= n
    st["ready"] += n
    p.log.pub(f"{fname(force)} in {aname(area)}: {n + len(gens)} exhausted counters are "
              "ready again.")
    return [p.ask("military", forces=[force], source=area)]


def elite_crossbowmen(p: Play) -> list[Step]:
    """Elite Crossbowmen: "a) Perform military operation. [Alliance: May use
    "Afraid of Qin" factions.] Attacker fires first with +2 DRM or b)
    Defender fires first with +2 DRM." With card_text=printed the Alliance's
    card follows the printed art (translator's notes): A directs a Revenge
    Qin or Anti-Qin force firing first with no modifier; B the defender fires
    first, "the Han army directed by the player gets a +1"."""
    old = printed(p.state, p.side)
    if p.key == "a":
        return [p.ask("military", generic=True, afraid=bool(p.params["afraid"]) and not old,
                      first=True, drm=0 if old else 2)]
    bt = p.state["battle"]
    bt["def_first"] = True
    bonus = (1 if bt["target"] == "han" else 0) if old else 2
    bt["def_drm"] += bonus
    p.log.pub(f"The defender will fire first{f', +{bonus} to its die' if bonus else ''}.")
    return []


def emergency_mobilization(p: Play) -> list[Step]:
    """Emergency Mobilization: "a) [Alliance: May use "Afraid of Qin"
    factions.] Perform reinforcement operation, then perform military
    operation or b) When defending perform reinforcement operation in the
    space." The printed Alliance card's A directs a Revenge Qin or Anti-Qin
    force only (translator's notes)."""
    if p.key == "a":
        afraid = bool(p.params["afraid"]) and not printed(p.state, p.side)
        return [p.ask("reinforce"), p.ask("military", generic=True, afraid=afraid)]
    bt = p.state["battle"]
    st = B.stack(p.state, bt["area"], bt["target"])
    assert st is not None
    st["ready"] += 1
    p.log.pub(f"{fname(bt['target'])} reinforce the defenders in {aname(bt['area'])} with "
              "1 army.")
    return []


def double_recruitment(p: Play) -> list[Step]:
    """Double Recruitment: "Perform reinforcement operation for any 2
    different forces." """
    return [p.ask("reinforce", distinct=True), p.ask("reinforce", distinct=True)]


def legendary_general(p: Play) -> list[Step]:
    """Legendary General: "a) Receive 1x general or b) If no own general
    present and 2 cards in hand, discard 1 card to gain 2x generals in
    separate areas. Either: not the Wei leader Wei Wuji." """
    _discard_set_aside(p)
    for g, area in p.cmd["place"]:
        B.add_counters(p.state, area, DATA.generals[g].force, generals={g: True})
        p.log.pub(f"{gname(g)} takes the field in {aname(area)}.")
    return []


def emissary_to_zhao(p: Play) -> list[Step]:
    """Emissary to Zhao: "a) Move Zhao 2 in favour and lock or b) If Zhao
    friendly perform reinforcement, then military operation with them." """
    return _emissary(p)


def emissary_to_qi(p: Play) -> list[Step]:
    """Emissary to Qi: "a) Move Qi 2 in favour and lock or b) If Qi friendly
    perform reinforcement, then military operation with them." """
    return _emissary(p)


def emissary_to_chu(p: Play) -> list[Step]:
    """Emissary to Chu: "a) Move Chu 2 in favour and lock or b) If Chu
    friendly perform reinforcement, then military operation with them." """
    return _emissary(p)


def emissary_to_minor_kingdom(p: Play) -> list[Step]:
    """Emissary to Minor Kingdom: "a) Move Wei, Han, Yan or Yiqu 2 in favour
    and lock or b) If the kingdom is friendly perform reinforcement, then
    military operation with them." """
    return _emissary(p)


def lyu_buwei(p: Play) -> list[Step]:
    """Lyu Buwei: "Play if not more cards than enemy. Discard 1 more card,
    then draw 3." """
    return _draw_cards(p)


def han_fei(p: Play) -> list[Step]:
    """Han Fei: "Play if not more cards than enemy. Draw 2 cards." """
    return _draw_cards(p)


def zhang_yi(p: Play) -> list[Step]:
    """Zhang Yi: "a) Move 1 state 2 in favour and lock or b) Move 1 locked
    state 1 in favour." """
    return _sway(p)


def fan_ju(p: Play) -> list[Step]:
    """Fan Ju: "Remove 1x general from the map." (off the board, available
    again: README card rulings)."""
    state, g = p.state, p.cmd["general"]
    for area, a in state["areas"].items():
        holders = [st for st in a["stacks"].values() if g in st["generals"]]
        for st in holders:
            del st["generals"][g]
            p.log.pub(f"{gname(g)} is removed from {aname(area)}.")
        if holders:
            B.prune(state, area)
            B.settle_city(state, area)
    state["generals"][g] = "off"
    for f in B.check_elimination(state):
        p.log.pub(f"{fname(f)} is eliminated.")
    return []


def li_si(p: Play) -> list[Step]:
    """Li Si: "Play if enemy plays character card. Cancel effect. Enemy
    action phase ends." """
    return _cancel(p)


def king_of_qin(p: Play) -> list[Step]:
    """King of Qin: "Choose a card from your deck. Then reshuffle." """
    return [choose("take", p.side, p.label)]


def mi_yue(p: Play) -> list[Step]:
    """Mi Yue: "a) Move Yiqu to Qin and lock or b) If Yiqu allied perform
    reinforcement and military operation with Qin and Yiqu." """
    if p.key == "b":
        return _kingdom_operation(p)
    d = p.state["diplomacy"]["yiqu"]
    d["pos"] = 0
    d["received"] = False
    d["revenge"] = False
    p.log.pub("Yiqu's diplomacy counter moves to Serve Qin, Not Received.")
    return []


def national_mobilization(p: Play) -> list[Step]:
    """National Mobilization: "Place in 2 controlled areas 1 Qin army.
    Priority to areas with fewer units." """
    for area in p.cmd["areas"]:
        B.add_counters(p.state, area, "qin", ready=1)
    p.log.pub("National Mobilization: 1 Qin army each in "
              + " and ".join(aname(a) for a in p.cmd["areas"]) + ".")
    return []


CARD_EFFECTS: dict[str, CardEffect] = {
    # The Alliance deck (Player Aid, card grid).
    "guo-wei": guo_wei,
    "lord-mengchang": lord_mengchang,
    "lord-xinling": lord_xinling,
    "lord-chunshen": lord_chunshen,
    "jing-ke": jing_ke,
    "mao-sui": mao_sui,
    "gongsun-yan": gongsun_yan,
    "su-qin": su_qin,
    "legendary-general": legendary_general,
    "double-recruitment": double_recruitment,
    # Both decks.
    "mounted-attack": mounted_attack,
    "double-operation": double_operation,
    "bolster-morale": bolster_morale,
    "elite-crossbowmen": elite_crossbowmen,
    "emergency-mobilization": emergency_mobilization,
    "emissary-to-zhao": emissary_to_zhao,
    "emissary-to-qi": emissary_to_qi,
    "emissary-to-chu": emissary_to_chu,
    "emissary-to-minor-kingdom": emissary_to_minor_kingdom,
    # The Lianheng deck.
    "lyu-buwei": lyu_buwei,
    "han-fei": han_fei,
    "zhang-yi": zhang_yi,
    "fan-ju": fan_ju,
    "li-si": li_si,
    "king-of-qin": king_of_qin,
    "mi-yue": mi_yue,
    "national-mobilization": national_mobilization,
}
"""Every card slug of both decks -> the function that carries it out (for a
slug in both decks, the function reads the deck's own parameters)."""


def military_forces(state: State, side: str, ctx: dict[str, Any]) -> list[str]:
    """The forces an asked-for military operation may direct, judged now."""
    if ctx.get("generic"):
        return B.directable(state, side, afraid=bool(ctx.get("afraid")))
    return [f for f in ctx.get("forces", []) if f not in state["eliminated"]
            and B.faction(state, f) == side]


def check_reinforce(state: State, force: str, area: str, ctx: dict[str, Any]) -> None:
    """Reinforcement Operations: one army of a force, of any faction, placed
    where that force already has counters."""
    if force in state["eliminated"]:
        raise IllegalLine(f"{fname(force)} is eliminated")
    allowed = ctx.get("forces")
    if allowed and force not in allowed:
        raise IllegalLine(f"this reinforcement is for {' or '.join(fname(f) for f in allowed)}")
    if force in ctx.get("exclude", []):
        raise IllegalLine("the reinforcements must be for different forces")
    if B.size(B.stack(state, area, force)) == 0:
        raise IllegalLine(f"{fname(force)} has no counters in {aname(area)}")


def reinforce_choices(state: State, ctx: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for area in DATA.areas:
        for force in B.forces_in(state, area):
            try:
                check_reinforce(state, force, area, ctx)
            except RuleError:
                continue
            out.append((force, area))
    return out


def do_reinforce(state: State, log: Ctx, force: str, area: str) -> None:
    B.add_counters(state, area, force, ready=1)
    log.pub(f"Reinforcement: 1 {fname(force)} army joins the counters in {aname(area)}.")

"""Card plays: checking the face-up options and responses of both decks, and
carrying out their effects (rulebook: Face-Up Play, Responses, Diplomacy,
Reinforcement Operations; Player Aid card texts; README "Card rulings").

Checking functions raise IllegalLine / AmbiguousLine and return the command
with every choice explicit. Effects change the state and queue follow-up
steps (``todo`` items ``{"do": "ask", ...}``) that the player answers with
MILITARY, REINFORCE or SKIP.
"""

from __future__ import annotations

from typing import Any

from games.conflict_of_alliances import board as B
from games.conflict_of_alliances.commands import Cmd, text
from games.conflict_of_alliances.data import DATA, NEUTRAL, SIDES, card_of, other, slug
from games.conflict_of_alliances.ops import ambiguous, aname, fname, gname
from judge.engine import IllegalLine, RuleError
from judge.rng import Rng

State = dict[str, Any]

RESPONSE_EFFECTS = {"xinling", "cancel", "crossbow-defence", "mobilize-defence"}
"""Options that exist only as responses (Responses: the option after "or")."""

BEFORE_COMBAT = "before-combat"
CHARACTER = "character-card"
WINDOWS = (BEFORE_COMBAT, CHARACTER)


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
    return len(zones(state, side)["hand"])


def draw(state: State, log: B.Log, side: str, n: int) -> list[str]:
    """Draw up to ``n`` cards from the top of the deck (an empty deck is only
    refilled in the End Step)."""
    z = zones(state, side)
    got: list[str] = list(z["deck"][:n])
    del z["deck"][:n]
    z["hand"] = sorted(z["hand"] + got)
    if got:
        names = ", ".join(card_of(side, c).name for c in got)
        log.only(side, f"You draw {names}.")
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


def do_respond(state: State, log: B.Log, side: str, cmd: Cmd) -> bool:
    """Carry out a response. Returns True when it cancelled the active
    player's card (the window closes and that action phase ends)."""
    card = cmd["card"]
    inst = holding(state, side, card)
    assert inst is not None
    c = DATA.cards[side][card]
    option = c.option(str(c.response))
    assert option is not None
    effect = option.effect
    discard(state, side, inst, True)
    log.pub(f"{side} responds with {c.name}.", card=card)
    if effect == "cancel":
        window = state["window"]
        victim = window["card"]
        owner = other(side)
        v = card_of(owner, victim)
        if option.params.get("remove"):
            # Jing Ke: both character cards leave the game.
            oz = zones(state, owner)
            oz["discard"] = [e for e in oz["discard"] if e[0] != victim]
            oz["removed"].append(victim)
            mz = zones(state, side)
            mz["discard"] = [e for e in mz["discard"] if e[0] != inst]
            mz["removed"].append(inst)
            log.pub(f"{v.name} is cancelled; {v.name} and {c.name} are removed from the game. "
                    f"{owner}'s action phase ends.")
        else:
            log.pub(f"{v.name} is cancelled. {owner}'s action phase ends.")
        return True
    bt = state["battle"]
    # New defenders may join: a DEFEND choice made before no longer binds.
    bt["defend"] = None
    if effect == "mobilize-defence":
        st = B.stack(state, bt["area"], bt["target"])
        assert st is not None
        st["ready"] += 1
        log.pub(f"{fname(bt['target'])} reinforce the defenders in {aname(bt['area'])} with "
                "1 army.")
    elif effect == "crossbow-defence":
        bt["def_first"] = True
        # The printed card art: first fire, and +1 for a Han army only.
        bonus = (1 if bt["target"] == "han" else 0) if printed(state, side) else 2
        bt["def_drm"] += bonus
        log.pub(f"The defender will fire first{f', +{bonus} to its die' if bonus else ''}.")
    elif effect == "xinling":
        bt["xinling"] = cmd["from"]
        state["generals"]["wei-wuji"] = "map"
        log.pub(f"Wei Wuji comes from {aname(cmd['from'])} to reinforce the defenders.")
    return False


# --------------------------------------------------------------------------- effects


def ask(kind: str, label: str, tag: int, **ctx: Any) -> dict[str, Any]:
    """A follow-up step of a card for the player to answer."""
    return {"do": "ask", "kind": kind, "label": label, "tag": tag, "ctx": ctx}


def effect(state: State, log: B.Log, rng: Rng, side: str, cmd: Cmd, tag: int) -> list[Any]:
    """Carry out a face-up card's effect; return the steps it queues."""
    card = cmd["card"]
    c = DATA.cards[side][card]
    option = c.option(cmd["option"])
    assert option is not None
    eff, params = option.effect, option.params
    steps: list[Any] = []
    label = c.name
    if eff == "sway":
        force = cmd["force"]
        old, _ = B.shift(state, force, B.direction(side) * int(params["spaces"]))
        log.pub(f"{fname(force)}'s diplomacy counter moves from {DATA.track[old].name} to "
                f"{B.stance_name(state, force)}, Not Received.")
    elif eff == "court":
        force = params["force"]
        if B.faction(state, force) == NEUTRAL:
            draw(state, log, side, 1)
        elif B.faction(state, force) == side:
            steps.append({"do": "choose", "kind": "take", "side": side, "label": label})
        else:
            log.pub(f"{fname(force)} is no longer Neutral or friendly: no effect.")
    elif eff == "chunshen":
        got = draw(state, log, side, 3)
        if len(got) == 3:
            z = zones(state, side)
            for x in got:
                z["hand"].remove(x)
            state["choice"] = {"kind": "keep", "side": side, "cards": sorted(got),
                               "label": label}
            steps.append({"do": "choose", "kind": "keep", "side": side, "label": label})
    elif eff == "draw":
        gone = cmd.get("discard")
        if gone:
            inst = holding(state, side, gone)
            assert inst is not None
            discard(state, side, inst, False)
            log.pub(f"{side} discards a card face down.")
        draw(state, log, side, int(params["draw"]))
    elif eff == "mao-sui":
        force = cmd["force"]
        old, _ = B.shift(state, force, B.direction(side))
        log.pub(f"{fname(force)}'s diplomacy counter moves from {DATA.track[old].name} to "
                f"{B.stance_name(state, force)}, Not Received.")
        steps.append(ask("military", label, tag, generic=True))
    elif eff == "mounted":
        steps.append(ask("military", label, tag, generic=True, mounted=True, drm=1))
    elif eff == "double":
        steps += [ask("military", label, tag, generic=True),
                  ask("military", label, tag, generic=True)]
    elif eff == "crossbow-attack":
        # The printed card art: an operation of a Revenge Qin / Anti-Qin force
        # firing first, with no modifier (translator's notes).
        old = printed(state, side)
        steps.append(ask("military", label, tag, generic=True,
                         afraid=bool(params["afraid"]) and not old, first=True,
                         drm=0 if old else 2))
    elif eff == "mobilize":
        afraid = bool(params["afraid"]) and not printed(state, side)
        steps += [ask("reinforce", label, tag),
                  ask("military", label, tag, generic=True, afraid=afraid)]
    elif eff == "recruit":
        steps += [ask("reinforce", label, tag, distinct=True),
                  ask("reinforce", label, tag, distinct=True)]
    elif eff == "bolster":
        area, force = cmd["bolster"], cmd["force"]
        st = B.stack(state, area, force)
        assert st is not None
        room = 4
        gens = [g for g, r in st["generals"].items() if not r][:room]
        for g in gens:
            st["generals"][g] = True
        n = min(room - len(gens), int(st["tired"]))
        st["tired"] -= n
        st["ready"] += n
        log.pub(f"{fname(force)} in {aname(area)}: {n + len(gens)} exhausted counters are "
                "ready again.")
        steps.append(ask("military", label, tag, forces=[force], source=area))
    elif eff == "general":
        if cmd.get("discard"):
            inst = holding(state, side, cmd["discard"])
            assert inst is not None
            discard(state, side, inst, False)
            log.pub(f"{side} discards a card face down.")
        for g, area in cmd["place"]:
            B.add_counters(state, area, DATA.generals[g].force, generals={g: True})
            log.pub(f"{gname(g)} takes the field in {aname(area)}.")
    elif eff == "fan-ju":
        g = cmd["general"]
        for area, a in state["areas"].items():
            holders = [st for st in a["stacks"].values() if g in st["generals"]]
            for st in holders:
                del st["generals"][g]
                log.pub(f"{gname(g)} is removed from {aname(area)}.")
            if holders:
                B.prune(state, area)
                B.settle_city(state, area)
        state["generals"][g] = "off"
        for f in B.check_elimination(state):
            log.pub(f"{fname(f)} is eliminated.")
    elif eff == "search":
        steps.append({"do": "choose", "kind": "take", "side": side, "label": label})
    elif eff == "mi-yue":
        d = state["diplomacy"]["yiqu"]
        d["pos"] = 0
        d["received"] = False
        d["revenge"] = False
        log.pub("Yiqu's diplomacy counter moves to Serve Qin, Not Received.")
    elif eff == "emissary":
        force = cmd["force"]
        if params.get("with-qin"):
            both = ["qin", force]
            steps += [ask("reinforce", label, tag, forces=both, distinct=True),
                      ask("reinforce", label, tag, forces=both, distinct=True),
                      ask("military", label, tag, forces=both)]
        else:
            steps += [ask("reinforce", label, tag, forces=[force]),
                      ask("military", label, tag, forces=[force])]
    elif eff == "national":
        for area in cmd["areas"]:
            B.add_counters(state, area, "qin", ready=1)
        log.pub("National Mobilization: 1 Qin army each in "
                + " and ".join(aname(a) for a in cmd["areas"]) + ".")
    _ = rng
    return steps


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


def do_reinforce(state: State, log: B.Log, force: str, area: str) -> None:
    B.add_counters(state, area, force, ready=1)
    log.pub(f"Reinforcement: 1 {fname(force)} army joins the counters in {aname(area)}.")

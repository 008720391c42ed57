"""The sequence of play of Conflict of Alliances as kernel frames (see
judge_games/conflict_of_alliances/kernel.py for the states) and the answers
to its decisions (Turn Sequence, Face-Up Play, Face-Down Play, Responses).

Turn Sequence: a draw step by resource points, an action step in which the
players alternate action phases (the initiative holder first) until both
pass in succession, and an end step (discard, reshuffle, ready, generals off
the turn track). In an action phase the active player plays one card face up
or face down, or passes; the passive player may respond to attacks and to
character cards (Responses), and is offered that window every time, whatever
its hand, so that timing never reveals a hand.
"""

from __future__ import annotations

from typing import Any

from judge.game import flow
from judge.game.engine import State, copy_json
from judge.game.rng import Rng
from judge_games.conflict_of_alliances import board as B
from judge_games.conflict_of_alliances import cards as C
from judge_games.conflict_of_alliances import ops as O
from judge_games.conflict_of_alliances.commands import Cmd
from judge_games.conflict_of_alliances.data import DATA, SIDES, card_of, other, slug
from judge_games.conflict_of_alliances.kernel import RULES, Board, Ctx

LIANHENG, ALLIANCE = SIDES

# --------------------------------------------------------------------------- setting up


def new_board(state: State, rng: Rng) -> None:
    """A new board for ``state``'s scenario and options."""
    state.update(board(state["scenario"], bool(state["aid24"]), rng))


def board(scenario: str, aid24: bool, rng: Rng) -> Board:
    """The map, tracks and shuffled decks of a scenario (Preparation)."""
    sc = DATA.scenarios[scenario]
    areas: dict[str, Any] = {a: {"city": None, "stacks": {}} for a in DATA.areas}
    generals = {g: "off" for g in DATA.generals}
    for area, placement in sc.areas.items():
        stacks = [placement.city] if placement.city else []
        stacks += list(placement.field)
        for i, st in enumerate(stacks):
            if st is None:
                continue
            areas[area]["stacks"][st.force] = {
                "ready": st.armies, "tired": 0, "generals": {g: True for g in st.generals}}
            for g in st.generals:
                generals[g] = "map"
            if i == 0 and placement.city is not None:
                areas[area]["city"] = st.force
    diplomacy = {}
    for force, space in sc.stances.items():
        diplomacy[force] = {
            "pos": DATA.space_index[space],
            "received": space != "revenge-qin",
            "revenge": space == "revenge-qin",
        }
    decks: dict[str, Any] = {}
    for side in SIDES:
        deck = DATA.deck_list(side, extra=aid24 and side == LIANHENG)
        rng.shuffle(deck, f"shuffle:{side}")
        decks[side] = {"deck": deck, "hand": [], "aside": [], "discard": [],
                       "removed": []}
    # A force without counters at the start is out of the game (Shu in Qin
    # Dominates: Qin took Ba Shu in 316 BC).
    absent = [f for f in DATA.forces
              if not any(f in areas[a]["stacks"] for a in areas)]
    for f in absent:
        diplomacy.pop(f, None)
    return {
        "turn": 1,
        "initiative": {"side": sc.initiative, "switched": False},
        "active": sc.initiative,
        "passes": 0,
        "areas": areas,
        "diplomacy": diplomacy,
        "eliminated": absent,
        "generals": generals,
        "track": {},
        "cards": decks,
        "op": None,
        "battle": None,
        "window": None,
        "ask": None,
        "choice": None,
        "plays": 0,
    }


# --------------------------------------------------------------------------- the turn


@RULES.state("turn")
def _turn(g: Ctx, f: flow.Frame) -> None:
    """Draw step (6 cards for the side with more resource points, else 5),
    then the first action phase of the initiative holder."""
    state = g.s
    rp = {s: B.rp_of(state, s) for s in SIDES}
    counts = {s: 6 if rp[s] > rp[other(s)] else 5 for s in SIDES}
    g.pub(f"Turn {state['turn']} of {state['turns']}. Draw step: Lianheng controls "
          f"{rp[LIANHENG]} RP, Alliance {rp[ALLIANCE]} RP.")
    for s in SIDES:
        C.draw(state, g, s, counts[s])
    state["active"] = state["initiative"]["side"]
    state["passes"] = 0
    g.pub(f"{state['active']} holds the initiative and acts first.")
    g.goto({"t": "action-phase"})


@RULES.state("action-phase")
def _action_phase(g: Ctx, f: flow.Frame) -> None:
    """The active player's action phase; with no cards it can only pass."""
    state = g.s
    side = state["active"]
    if C.hand_size(state, side) > 0:
        g.decide("action", [side])
        return
    g.pub(f"{side} has no cards and passes.")
    state["passes"] += 1
    if state["passes"] >= 2:
        g.goto({"t": "end-step"})
        return
    state["active"] = other(side)
    g.goto({"t": "action-phase"})


@RULES.state("next-phase")
def _next_phase(g: Ctx, f: flow.Frame) -> None:
    """After an action or a pass: two passes in succession end the action
    step, else the other player's action phase."""
    state = g.s
    if state["passes"] >= 2:
        g.goto({"t": "end-step"})
        return
    state["active"] = other(state["active"])
    g.goto({"t": "action-phase"})


@RULES.state("end-step")
def _end_step(g: Ctx, f: flow.Frame) -> None:
    """End Step: the game ends after the scenario's last turn; otherwise
    hands are discarded, discards shuffled back, every counter readied
    (Revenge Qin stays Not Received), generals leave the turn track."""
    state = g.s
    if state["turn"] >= state["turns"]:
        g.goto({"t": "game-over", "why": f"the end of turn {state['turn']}"})
        return
    g.pub(f"End of turn {state['turn']}.")
    state["stage"] = "end"
    for side in SIDES:
        z = state["cards"][side]
        z["deck"] = z["deck"] + z["hand"] + [e[0] for e in z["discard"]]
        z["hand"] = []
        z["discard"] = []
        g.dice.shuffle(z["deck"], f"shuffle:{side}")
    for a in state["areas"].values():
        for st in a["stacks"].values():
            st["ready"] += st["tired"]
            st["tired"] = 0
            for gen in st["generals"]:
                st["generals"][gen] = True
    for d in state["diplomacy"].values():
        d["received"] = not d["revenge"]
    state["initiative"]["switched"] = False
    state["turn"] += 1
    for gen, where in state["generals"].items():
        if where == "track":
            state["generals"][gen] = "off"
    state["track"] = {}
    g.goto({"t": "turn"})


@RULES.state("game-over")
def _game_over(g: Ctx, f: flow.Frame) -> None:
    """Victory: only Qin's own resource points count. With the Two-Game
    Victory Rule the first game's end starts the second, sides swapped."""
    state = g.s
    why = f["why"]
    qin = 0 if "qin" in state["eliminated"] else B.rp_of(state, "qin")
    lianheng = g.role(LIANHENG)
    alliance = g.role(ALLIANCE)
    if state["victory"] == "match":
        state["games"].append({"lianheng": lianheng, "qin_rp": qin, "why": why})
        g.pub(f"Game {state['game_no']} ends ({why}): Qin controls {qin} RP.")
        if state["game_no"] == 1:
            state["game_no"] = 2
            new_board(state, g.dice)
            state["seats"] = {LIANHENG: alliance, ALLIANCE: lianheng}
            g.pub(f"Game 2: {alliance} plays the Lianheng side, {lianheng} the Alliance.")
            g.end()
            g.call({"t": "turn"})
            return
        first, second = state["games"]
        if first["qin_rp"] == second["qin_rp"]:
            state["result"] = {"winners": list(state["roles"]), "draw": True}
            verdict = "a draw"
        else:
            best = first if first["qin_rp"] > second["qin_rp"] else second
            state["result"] = {"winners": [best["lianheng"]], "draw": False}
            verdict = f"{best['lianheng']} wins"
        state["end"] = (f"two games: Qin {first['qin_rp']} RP under {first['lianheng']}, "
                        f"{second['qin_rp']} RP under {second['lianheng']}")
    else:
        if "qin" in state["eliminated"]:
            winner = alliance
            state["end"] = "Qin is eliminated"
        else:
            target = state["target"]
            winner = lianheng if qin >= target else alliance
            state["end"] = (f"{why}: Qin controls {qin} RP against a target of {target}")
        state["result"] = {"winners": [winner], "draw": False}
        verdict = f"{winner} wins"
    finish(state)
    g.pub(f"The game ends: {state['end']}. {verdict}.")


def finish(state: State) -> None:
    """The game is over: nothing waits and nobody is asked."""
    state["stage"] = "over"
    state["todo"] = []
    state["asks"] = []
    for k in ("op", "battle", "window", "ask", "choice"):
        state[k] = None


# --------------------------------------------------------------------------- cards


@RULES.state("character-window")
def _character_window(g: Ctx, f: flow.Frame) -> None:
    """Responses: the passive player may answer a character card before it
    is carried out."""
    side = other(f["side"])
    g.s["window"] = {"kind": C.CHARACTER, "side": side, "card": f["card"]}
    g.decide("window", [side])


@RULES.state("effect")
def _effect(g: Ctx, f: flow.Frame) -> None:
    """A face-up card is carried out; its follow-up steps run next, in order.
    A card that eliminates Qin ends the game at once."""
    steps = C.effect(g.s, g, f["side"], f["cmd"], f["tag"])
    if "qin" in g.s["eliminated"]:
        g.end()
        g.call({"t": "game-over", "why": "Qin is eliminated"})
        return
    if steps:
        g.call(*steps)


@RULES.state("card-step")
def _card_step(g: Ctx, f: flow.Frame) -> None:
    """A card's next part (a military or reinforcement operation), asked of
    the active player unless none is possible."""
    state = g.s
    if f["kind"] == "military" and not op_lines(state, f):
        g.pub(f"{f['label']}: no military operation is possible.")
        return
    if f["kind"] == "reinforce" and not C.reinforce_choices(state, f["ctx"]):
        g.pub(f"{f['label']}: no reinforcement is possible.")
        return
    state["ask"] = {k: v for k, v in f.items() if k != "t"}
    g.decide("step", [state["active"]])


def op_lines(state: State, item: dict[str, Any]) -> list[Cmd]:
    ctx = dict(item["ctx"])
    ctx["forces"] = C.military_forces(state, state["active"], ctx)
    return O.op_choices(state, state["active"], ctx, limit=1)


@RULES.state("choose")
def _choose(g: Ctx, f: flow.Frame) -> None:
    """King of Qin, Guo Wei, Lord Mengchang: choose a card from the deck;
    Lord Chunshen: the card not kept (its three cards are already drawn)."""
    state = g.s
    side = f["side"]
    if f["kind"] == "take":
        if not state["cards"][side]["deck"]:
            g.pub(f"{side}'s deck is empty: there is no card to take.")
            return
        state["choice"] = {"kind": "take", "side": side, "label": f["label"]}
    g.decide("choose", [side])


# --------------------------------------------------------------------------- answers


@RULES.answer("action")
def _answer_action(g: Ctx, ask: flow.Ask, role: str, cmd: Cmd) -> None:
    """PASS, or one card played face down (Face-Down Play) or face up
    (Face-Up Play); the next action phase follows."""
    state = g.s
    side = state["active"]
    g.decided(ask)
    g.call({"t": "next-phase"})
    if cmd["verb"] == "PASS":
        state["passes"] += 1
        g.pub(f"{side} passes.")
        return
    state["passes"] = 0
    state["plays"] += 1
    card = cmd["card"]
    inst = C.holding(state, side, card)
    assert inst is not None
    c = DATA.cards[side][card]
    if cmd["mode"] == "down":
        # Face-Down Play: the card's face stays hidden from the opponent.
        C.discard(state, side, inst, False)
        use = cmd["use"]
        g.mine(side, f"You play {c.name} face down.", card=card)
        if use == "MILITARY":
            g.pub(f"{side} plays a card face down for a military operation.")
            O.begin(state, side, cmd["op"], {"label": ""})
            g.call({"t": "op-start"})
        elif use == "REINFORCE":
            g.pub(f"{side} plays a card face down for a reinforcement operation.")
            C.do_reinforce(state, g, cmd["force"], cmd["area"])
        elif use == "DIPLOMACY":
            force, way = cmd["force"], cmd["way"]
            g.pub(f"{side} plays a card face down for a diplomatic action.")
            if way == "LOCK":
                state["diplomacy"][force]["received"] = False
                g.pub(f"{O.fname(force)}'s counter is flipped to Not Received where it "
                      f"stands ({B.stance_name(state, force)}).")
            else:
                old, _ = B.shift(state, force, -1 if way == "LEFT" else 1)
                g.pub(f"{O.fname(force)}'s counter moves from {DATA.track[old].name} to "
                      f"{B.stance_name(state, force)}, Not Received.")
        else:
            g.pub(f"{side} plays a card face down for a weather action.")
            ini = state["initiative"]
            if cmd["way"] == "MOVE":
                ini["side"] = other(ini["side"])
            ini["switched"] = True
            g.pub(f"The initiative token is on the {ini['side']} side, switched for this "
                  "turn.")
        return
    # Face-Up Play: the card is shown and goes face up to the discard pile.
    C.discard(state, side, inst, True)
    label = f" option {cmd['option'].upper()}" if len(c.options) > 1 else ""
    g.pub(f"{side} plays {c.name}{label} face up.", card=card)
    if cmd.get("discard"):
        # The card to discard is hidden: it waits in a hidden zone, and the
        # queued effect no longer names it.
        C.set_aside(state, side, cmd["discard"])
        cmd = {k: v for k, v in cmd.items() if k != "discard"}
    g.call({"t": "effect", "side": side, "cmd": cmd, "tag": state["plays"]})
    if c.character:
        g.call({"t": "character-window", "side": side, "card": inst})


@RULES.answer("step")
def _answer_step(g: Ctx, ask: flow.Ask, role: str, cmd: Cmd) -> None:
    """A card's next part carried out, or SKIP: the rest of the card goes."""
    state = g.s
    side = state["active"]
    item = state["ask"]
    state["ask"] = None
    g.decided(ask)
    verb = cmd["verb"]
    if verb == "SKIP":
        state["todo"] = [t for t in g.frames() if t.get("tag") != item["tag"]]
        g.pub(f"{side} does not carry out the rest of {item['label']}.")
        return
    if verb == "REINFORCE":
        C.do_reinforce(state, g, cmd["force"], cmd["area"])
        if item["ctx"].get("distinct"):
            for t in g.frames():
                if t.get("tag") == item["tag"] and t.get("kind") == "reinforce":
                    t["ctx"].setdefault("exclude", []).append(cmd["force"])
        return
    ctx = dict(item["ctx"])
    ctx["label"] = item["label"]
    O.begin(state, side, cmd["op"], ctx)
    g.call({"t": "op-start"})


@RULES.answer("window")
def _answer_window(g: Ctx, ask: flow.Ask, role: str, cmd: Cmd) -> None:
    """Responses: PASS closes the window; DEFEND chooses the defenders and
    RESPOND plays a Break-marked card, the window staying open; a response
    that cancels a character card ends that action phase."""
    state = g.s
    w = state["window"]
    verb = cmd["verb"]
    if verb == "PASS":
        state["window"] = None
        g.decided(ask)
        if w["kind"] == C.BEFORE_COMBAT:
            state["battle"]["step"] = "roll"
        g.pub(f"The {'combat' if w['kind'] == C.BEFORE_COMBAT else 'character card'} "
              "goes ahead.")
        return
    if verb == "DEFEND":
        state["battle"]["defend"] = {k: cmd[k] for k in ("ready", "tired", "generals", "lead")}
        n = cmd["ready"] + cmd["tired"] + len(cmd["generals"])
        g.pub(f"The defender chooses its {n} defending counters.")
        return
    if C.do_respond(state, g, w["side"], cmd):
        state["window"] = None
        g.decided(ask)
        g.end("effect")


@RULES.answer("continue")
def _answer_continue(g: Ctx, ask: flow.Ask, role: str, cmd: Cmd) -> None:
    word = f"ATTACK {cmd['target']}" if cmd["verb"] == "ATTACK" else cmd["verb"]
    g.decided(ask)
    g.call({"t": O.do_continue(g.s, g, word)})


@RULES.answer("choose")
def _answer_choose(g: Ctx, ask: flow.Ask, role: str, cmd: Cmd) -> None:
    """TAKE a card from the deck (then reshuffle), or DISCARD the one of the
    three drawn that is not kept (face down)."""
    state = g.s
    ch = state["choice"]
    side = ch["side"]
    z = state["cards"][side]
    state["choice"] = None
    g.decided(ask)
    if ch["kind"] == "take":
        inst = next(x for x in sorted(z["deck"]) if slug(x) == cmd["card"])
        z["deck"].remove(inst)
        z["hand"] = sorted([*z["hand"], inst])
        g.dice.shuffle(z["deck"], f"shuffle:{side}")
        g.mine(side, f"You take {card_of(side, inst).name} from your deck.")
        g.pub(f"{side} takes a card from the deck into hand and reshuffles the deck.")
    else:
        inst = next(x for x in ch["cards"] if slug(x) == cmd["card"])
        kept = [x for x in ch["cards"] if x != inst]
        z["hand"] = sorted(z["hand"] + kept)
        z["discard"].append([inst, False])
        g.mine(side, f"You keep {', '.join(card_of(side, x).name for x in kept)}.")
        g.pub(f"{side} keeps 2 of the 3 cards and discards one face down.")


# --------------------------------------------------------------------------- saved games


def upgrade(state: State) -> State:
    """A state saved before the game ran on the kernel, as the kernel keeps
    it (a copy; a current state is returned as it is). Such a state waited
    for one decision (``stage``) with the card steps still to come in a
    first-in first-out ``todo`` and the operation's ``phase`` in ``op``: the
    decision becomes an ask, and what was to follow it, frames."""
    if "asks" in state:
        return state
    s = copy_json(state)
    queued: list[dict[str, Any]] = s["todo"] or []
    s["todo"], s["asks"], s["serial"] = [], [], 0
    if s["op"] is not None:
        s["op"].pop("phase", None)
    if s["ask"] is not None:
        s["ask"].pop("do", None)
    stage = s["stage"]
    if stage == "over":
        return s
    g = Ctx(s)
    if stage == "bid":
        g.decide("bid")
        return s
    if stage != "action":
        # What was to follow the decision: the rest of the card, then the
        # next action phase (an operation in progress runs first).
        g.call({"t": "next-phase"})
        steps = [{"t": "card-step" if item["do"] == "ask" else item["do"],
                  **{k: v for k, v in item.items() if k != "do"}} for item in queued]
        if steps:
            g.call(*steps)
    if stage in ("action", "step"):
        g.decide(stage, [s["active"]])
    elif stage == "window":
        if s["window"]["kind"] == C.BEFORE_COMBAT:
            g.call({"t": "battle-roll"})
        g.decide("window", [s["window"]["side"]])
    elif stage == "losses":
        g.call({"t": "battle-losses"})
        g.decide("losses", O.loss_sides(s))
    elif stage == "continue":
        g.decide("continue", [s["op"]["side"]])
    elif stage == "choose":
        g.decide("choose", [s["choice"]["side"]])
    else:
        raise ValueError(f"a saved state waits at an unknown stage {stage!r}")
    return s


RULES.current = upgrade

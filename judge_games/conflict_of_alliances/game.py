"""Conflict of Alliances: Warring States -- the game object the judge drives.

Turn structure (Turn Sequence): a draw step by resource points, an action
step in which the players alternate action phases (the initiative holder
first) until both pass in succession, and an end step (discard, reshuffle,
ready, generals off the turn track). In an action phase the active player
plays one card face up or face down, or passes; the passive player may
respond to attacks and to character cards (Responses), and is offered that
window every time, whatever its hand, so that timing never reveals a hand.

The sequence of play runs on the decision kernel (judge/game/flow.py): its frames
and asks are in judge_games/conflict_of_alliances/kernel.py and turns.py.
``state["stage"]`` names the kind of the decision open:

* ``bid``      both players write a Lianheng target (competitive victory), ORDERS;
* ``action``   the active player: PLAY ... or PASS;
* ``step``     the active player: the next part of a face-up card (MILITARY,
               REINFORCE or SKIP);
* ``window``   the passive player: RESPOND, DEFEND (before combat) or PASS;
* ``losses``   the sides that choose their losses: LOSE ..., ORDERS;
* ``continue`` the attacker after a battle: ATTACK, RETREAT, STAY, ADVANCE;
* ``choose``   a player picks a card (King of Qin, Guo Wei, Lord Mengchang,
               Lord Chunshen): TAKE or DISCARD;
* ``over``     the game has ended.

A state saved before the game ran on the kernel is upgraded as it is read
(:func:`turns.upgrade`).
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from judge.game import flow
from judge.game.engine import (
    JSON,
    Action,
    AmbiguousLine,
    Decision,
    DecisionKind,
    Event,
    IllegalLine,
    OptionSpec,
    Outcome,
    Role,
    RuleError,
    State,
    VerbSpec,
    WindowSpec,
    Zone,
    copy_state,
    public,
)
from judge.game.rng import Rng
from judge_games.conflict_of_alliances import board as B
from judge_games.conflict_of_alliances import cards as C
from judge_games.conflict_of_alliances import helptext, policy
from judge_games.conflict_of_alliances import ops as O
from judge_games.conflict_of_alliances.commands import Cmd, op_text, syntax, text
from judge_games.conflict_of_alliances.data import DATA, SIDES, slug
from judge_games.conflict_of_alliances.kernel import PLAN_NOTE, RULES, CoAState, Ctx
from judge_games.conflict_of_alliances.turns import board, finish, upgrade

LIANHENG, ALLIANCE = SIDES
BASIC_ROLES = [LIANHENG, ALLIANCE]
SEAT_ROLES = ["First", "Second"]
MAX_BID = 28
"""The highest useful Lianheng target: every resource point on the map."""


def _decision(kind: DecisionKind, roles: tuple[str, ...], phase: str, prompt: str,
              default: str, window: str = "",
              context: Mapping[str, JSON] | None = None) -> Decision:
    return Decision(kind, roles, phase, prompt=prompt, default=default, window=window,
                    context=dict(context or {}))


class ConflictOfAlliances:
    """The game. Stateless: every method works on the state it is given."""

    id: str = "conflict_of_alliances"
    title: str = "Conflict of Alliances: Warring States"
    aliases: tuple[str, ...] = ("coa", "conflict-of-alliances", "warring-states-cards", "zongheng")
    options: tuple[OptionSpec, ...] = (
        OptionSpec("scenario", "five-kingdoms",
                   "five-kingdoms (318 BC, 5 turns) or qin-dominates (316 BC, 7 turns)",
                   ("five-kingdoms", "qin-dominates")),
        OptionSpec("victory", "basic",
                   "basic (the scenario's target), bidding (sealed Lianheng targets) or "
                   "match (two games, sides swapped)", ("basic", "bidding", "match")),
        OptionSpec("aid_24th_card", False,
                   "put the Player Aid's third National Mobilization in the Lianheng deck "
                   "(24 cards)"),
        OptionSpec("card_text", "aid",
                   "aid (the Player Aid's texts) or printed (the printed card art's Elite "
                   "Crossbowmen and Emergency Mobilization for the Alliance)", ("aid", "printed")),
        OptionSpec("turns", 0, "end after this many turns (0: the scenario's number)",
                   tuple(range(0, 8))),
    )
    verbs: tuple[VerbSpec, ...] = (
        VerbSpec("PASS", "pass your action phase, or let a response window go by", "PASS"),
        VerbSpec("PLAY <card> FACEDOWN MILITARY <area> [<force>] [<n>] [<general>...] "
                 "[LEAD <general>] [TO <area>...] [JOIN <n>] [ATTACK <force>] "
                 "[CONTROL <force>]",
                 "a military operation with a card played face down",
                 "PLAY mounted-attack FACEDOWN MILITARY guanzhong qin 3 TO xiao-han han"),
        VerbSpec("PLAY <card> FACEDOWN REINFORCE <force> <area>",
                 "a reinforcement operation with a card played face down",
                 "PLAY su-qin FACEDOWN REINFORCE zhao han-dan"),
        VerbSpec("PLAY <card> FACEDOWN DIPLOMACY <force> LEFT|RIGHT|LOCK",
                 "a diplomatic action with a card played face down",
                 "PLAY zhang-yi FACEDOWN DIPLOMACY chu LEFT"),
        VerbSpec("PLAY <card> FACEDOWN WEATHER [MOVE|LOCK]",
                 "a weather action (the initiative token) with a card played face down",
                 "PLAY fan-ju FACEDOWN WEATHER"),
        VerbSpec("PLAY <card> FACEUP [A|B] [<arguments>]",
                 "play a card for its text (see the game's README for each card)",
                 "PLAY zhang-yi FACEUP A chu"),
        VerbSpec("MILITARY <area> [<force>] [<n>] ... | REINFORCE <force> <area> | SKIP",
                 "the next step of a face-up card", "MILITARY han-dan zhao 2 TO wei"),
        VerbSpec("RESPOND <card> [FROM <area>]",
                 "play a Break-marked card in the opponent's action phase",
                 "RESPOND emergency-mobilization"),
        VerbSpec("DEFEND [<n> READY] [<n> TIRED] [<general>...] [LEAD <general>]",
                 "choose the defending counters (more than 4, or several generals)",
                 "DEFEND 3 READY li-mu"),
        VerbSpec("LOSE [<n> MOVED|STAYED|READY|TIRED]... [<general>...]",
                 "choose which of your counters a battle eliminates", "LOSE 1 MOVED"),
        VerbSpec("ATTACK <force> | RETREAT | STAY | ADVANCE",
                 "after a battle: attack another force, retreat, stay, or ride on",
                 "ATTACK zhao"),
        VerbSpec("TAKE <card> | DISCARD <card>",
                 "choose a card from your deck, or the card Lord Chunshen does not keep",
                 "TAKE mounted-attack"),
        VerbSpec("BID <number>", "competitive victory: your sealed Lianheng target", "BID 9"),
    )
    view_schema: str = "conflict-of-alliances-view.schema.json"
    queues_actions: bool = True
    windows: tuple[WindowSpec, ...] = policy.WINDOWS
    kernel = RULES
    """The rules as the decision kernel runs them (judge/game/flow.py)."""
    playthrough_options: Mapping[str, JSON] = {}

    # ------------------------------------------------------------------ setup

    def setup(self, options: Mapping[str, JSON], rng: Rng) -> State:
        """A new game (Scenarios and Setup)."""
        scenario = str(options.get("scenario", "five-kingdoms"))
        victory = str(options.get("victory", "basic"))
        if scenario not in DATA.scenarios:
            raise ValueError(f"no scenario {scenario!r}")
        if victory not in ("basic", "bidding", "match"):
            raise ValueError(f"no victory rule {victory!r}")
        sc = DATA.scenarios[scenario]
        turns = int(options.get("turns", 0) or 0) or sc.turns
        fresh: CoAState = {
            "scenario": scenario,
            "victory": victory,
            "aid24": bool(options.get("aid_24th_card", False)),
            "printed": str(options.get("card_text", "aid")) == "printed",
            "roles": list(BASIC_ROLES if victory == "basic" else SEAT_ROLES),
            "seats": {},
            "game_no": 1,
            "games": [],
            "target": sc.target,
            "bids": None,
            "turns": turns,
            "seq": 0,
            "stage": "bid",
            "end": "",
            "result": None,
            "todo": [],
            "asks": [],
            "serial": 0,
            **board(scenario, bool(options.get("aid_24th_card", False)), rng),
        }
        state: State = dict(fresh)
        g = Ctx(state, rng)
        if victory == "bidding":
            g.decide("bid")
            return state
        state["seats"] = {LIANHENG: state["roles"][0], ALLIANCE: state["roles"][1]}
        g.call({"t": "turn"})
        RULES.run(g)
        return state

    def roles(self, state: State) -> list[Role]:
        return list(state["roles"])

    # ------------------------------------------------------------------ sides

    @staticmethod
    def side_of(state: State, role: Role) -> str | None:
        for side, r in state["seats"].items():
            if r == role:
                return str(side)
        return None

    @staticmethod
    def role_of(state: State, side: str) -> Role:
        return str(state["seats"][side])

    # ------------------------------------------------------------------ decisions

    def _phase(self, state: State) -> str:
        stage = state["stage"]
        head = f"game {state['game_no']}, " if state["victory"] == "match" else ""
        head += f"turn {state.get('turn', 1)} step {state['seq']}"
        if stage == "bid":
            return "bids for the Lianheng side"
        if stage == "over":
            return "game over"
        what = {
            "action": f"{state['active']} to act",
            "step": f"{state['active']} to carry out a card",
            "window": "response window",
            "losses": "losses",
            "continue": "the attacker to go on",
            "choose": "a card to choose",
        }.get(stage, stage)
        return f"{head}: {what}"

    def pending(self, state: State) -> list[Decision]:
        """The kernel's waiting asks (one at a time in this game)."""
        state = upgrade(state)
        return RULES.pending(state, lambda ask, depth: self._decision(state, ask, depth))

    def _decision(self, state: State, ask: flow.Ask, depth: int) -> Decision:
        kind = ask["kind"]
        phase = self._phase(state)
        roles = tuple(ask["roles"])
        if kind == "bid":
            return _decision(DecisionKind.ORDERS, roles, phase,
                             "BID the Lianheng target you would play for", "a bid of 0")
        if kind in ("action", "step", "continue"):
            prompt = {
                "action": "PLAY a card face up or face down, or PASS" + PLAN_NOTE,
                "step": "MILITARY, REINFORCE or SKIP",
                "continue": "ATTACK, RETREAT, STAY or ADVANCE",
            }[kind]
            default = "pass" if kind == "action" else (
                "skip" if kind == "step" else "retreat or stay")
            return _decision(DecisionKind.ACTION, roles, phase, prompt, default)
        if kind == "window":
            w = state["window"]
            ctx = policy.context(state)
            answers = "RESPOND with a Break-marked card"
            if w["kind"] == C.BEFORE_COMBAT:
                answers += ", DEFEND ..."
            return _decision(DecisionKind.RESPONSE, roles, phase,
                             f"{policy.describe(ctx)}: {answers} or PASS", "pass",
                             window=w["kind"], context=ctx)
        if kind == "losses":
            return _decision(DecisionKind.ORDERS, roles, phase,
                             "LOSE: choose the counters you lose. " + O.loss_summary(state),
                             "armies before generals")
        ch = state["choice"]
        return _decision(DecisionKind.ACTION, roles, phase,
                         "TAKE a card from your deck" if ch["kind"] == "take"
                         else "DISCARD the card you do not keep", "the first card")

    def _loss_sides(self, state: State) -> list[str]:
        return O.loss_sides(state)

    def default(self, state: State, decision: Decision, role: Role) -> Action | None:
        """PASS an action phase or a window; SKIP a card's step; retreat or
        stay after a battle; the first card of a choice."""
        state = upgrade(state)
        side = self.side_of(state, role)
        stage = state["stage"]
        if side is None:
            return None
        if stage == "action" and side == state["active"]:
            return self.parse(state, role, "PASS")
        if stage == "window" and side == state["window"]["side"]:
            return self.parse(state, role, "PASS")
        if stage == "step" and side == state["active"]:
            return self.parse(state, role, "SKIP")
        if stage == "continue" and side == state["op"]["side"]:
            return self.parse(state, role, O.continue_default(state))
        if stage == "choose" and side == state["choice"]["side"]:
            return self.parse(state, role, self._choice_lines(state, side)[0])
        return None

    # ------------------------------------------------------------------ parsing

    def parse(self, state: State, role: Role, line: str) -> Action:
        """Parse one line of ``role``: InvalidLine when it is not a command of
        this game, IllegalLine when it does not fit the moment, AmbiguousLine
        when a choice is missing (the choices are complete lines)."""
        state = upgrade(state)
        cmd = syntax(line)
        try:
            checked = self._check(state, role, cmd)
        except RuleError as exc:
            raise exc.with_line(line) from None
        key = "bid" if checked["verb"] == "BID" else "lose" if checked["verb"] == "LOSE" else None
        return Action(text(checked), key=key, data=checked)

    def _check(self, state: State, role: Role, cmd: Cmd) -> Cmd:
        stage = state["stage"]
        verb = cmd["verb"]
        if role not in state["roles"]:
            raise IllegalLine(f"{role} does not play in this game")
        if stage == "over":
            raise IllegalLine("the game is over")
        if stage == "bid":
            if verb != "BID":
                raise IllegalLine("the players are bidding for the Lianheng side: BID <number>")
            if cmd["bid"] > MAX_BID:
                raise IllegalLine(f"a bid is 0 to {MAX_BID}")
            return {"verb": "BID", "bid": cmd["bid"]}
        side = self.side_of(state, role)
        assert side is not None
        if verb == "BID":
            raise IllegalLine("bids are only made before the game")
        if stage == "action":
            if side != state["active"]:
                raise IllegalLine(f"it is {state['active']}'s action phase")
            if verb == "PASS":
                return {"verb": "PASS"}
            if verb != "PLAY":
                raise IllegalLine("in your action phase: PLAY a card or PASS")
            return self._check_play(state, side, cmd)
        if stage == "step":
            if side != state["active"]:
                raise IllegalLine(f"{state['active']} is carrying out a card")
            return self._check_step(state, side, cmd)
        if stage == "window":
            w = state["window"]
            if side != w["side"]:
                raise IllegalLine("your opponent may respond now; you wait")
            if verb == "PASS":
                return {"verb": "PASS"}
            if verb == "RESPOND":
                return C.check_respond(state, side, cmd)
            if verb == "DEFEND":
                if w["kind"] != C.BEFORE_COMBAT:
                    raise IllegalLine("DEFEND is for the window before combat")
                if not O.defend_choices(state):
                    raise IllegalLine("all your counters defend: there is nothing to choose")
                return O.check_defend(state, cmd)
            raise IllegalLine("in a response window: RESPOND <card>, DEFEND ... or PASS")
        if stage == "losses":
            sides = self._loss_sides(state)
            if verb != "LOSE":
                raise IllegalLine("choose your losses: LOSE ...")
            if side not in sides:
                raise IllegalLine("you have no losses to choose")
            victim = "att" if side == state["op"]["side"] else "def"
            return O.check_lose(state, victim, cmd)
        if stage == "continue":
            if side != state["op"]["side"]:
                raise IllegalLine("the attacker decides how to go on")
            word = "ATTACK " + cmd["target"] if verb == "ATTACK" else verb
            if word not in state["op"]["options"]:
                raise IllegalLine("not possible now: " + ", ".join(state["op"]["options"]))
            out: Cmd = {"verb": verb}
            if verb == "ATTACK":
                out["target"] = cmd["target"]
            return out
        if stage == "choose":
            ch = state["choice"]
            if side != ch["side"]:
                raise IllegalLine(f"{ch['side']} is choosing a card")
            if ch["kind"] == "take":
                if verb != "TAKE":
                    raise IllegalLine("TAKE a card from your deck")
                if not any(slug(x) == cmd["card"] for x in state["cards"][side]["deck"]):
                    raise IllegalLine(f"there is no {cmd['card']} in your deck")
            else:
                if verb != "DISCARD":
                    raise IllegalLine("DISCARD the card you do not keep")
                if not any(slug(x) == cmd["card"] for x in ch["cards"]):
                    raise IllegalLine(f"you did not draw {cmd['card']}")
            return {"verb": verb, "card": cmd["card"]}
        raise IllegalLine("nothing to do now")

    def _check_play(self, state: State, side: str, cmd: Cmd) -> Cmd:
        card = cmd["card"]
        if card not in DATA.cards[side]:
            raise IllegalLine(f"{card} is not a card of the {side} deck")
        if C.holding(state, side, card) is None:
            raise IllegalLine(f"you do not hold {DATA.cards[side][card].name}")
        if cmd["mode"] == "up":
            return C.check_faceup(state, side, cmd)
        use = cmd["use"]
        out: Cmd = {"verb": "PLAY", "card": card, "mode": "down", "use": use}
        prefix = f"PLAY {card} FACEDOWN MILITARY"
        if use == "MILITARY":
            ctx = {"forces": B.directable(state, side)}
            out["op"] = O.check_op(state, side, cmd["op"], ctx, O.render_op(prefix))
        elif use == "REINFORCE":
            C.check_reinforce(state, cmd["force"], cmd["area"], {})
            out["force"], out["area"] = cmd["force"], cmd["area"]
        elif use == "DIPLOMACY":
            out["force"], out["way"] = self._check_diplomacy(state, cmd["force"], cmd["way"])
        else:
            out["way"] = self._check_weather(state, side, cmd.get("way"))
        return out

    @staticmethod
    def _check_diplomacy(state: State, force: str, way: str) -> tuple[str, str]:
        """Diplomatic Actions: one Received counter one space left or right, or
        (at an end of the track) flipped without moving."""
        if force not in state["diplomacy"]:
            raise IllegalLine(f"{O.fname(force)} has no diplomacy counter in play")
        d = state["diplomacy"][force]
        if not d["received"]:
            raise IllegalLine(f"{O.fname(force)}'s counter is Not Received: it cannot be moved")
        pos = int(d["pos"])
        if way == "LEFT" and pos == 0:
            raise IllegalLine("the counter is at the left end: LOCK it or move it RIGHT")
        if way == "RIGHT" and pos == B.RIGHTMOST:
            raise IllegalLine("the counter is at the right end: LOCK it or move it LEFT")
        if way == "LOCK" and pos not in (0, B.RIGHTMOST):
            raise IllegalLine("only a counter at an end of the track is flipped without moving")
        return force, way

    @staticmethod
    def _check_weather(state: State, side: str, way: str | None) -> str:
        """Weather Actions: move the initiative token to the other side, or flip
        it without moving; either way it may not move again this turn."""
        if state["initiative"]["switched"]:
            raise IllegalLine("the initiative token has already been switched this turn")
        if way is None:
            way = "MOVE" if state["initiative"]["side"] != side else "LOCK"
        return way

    def _check_step(self, state: State, side: str, cmd: Cmd) -> Cmd:
        item = state["ask"]
        verb = cmd["verb"]
        if verb == "SKIP":
            return {"verb": "SKIP"}
        ctx = item["ctx"]
        if item["kind"] == "military":
            if verb != "MILITARY":
                raise IllegalLine(f"{item['label']}: now a MILITARY operation (or SKIP)")
            full = dict(ctx)
            full["forces"] = C.military_forces(state, side, ctx)
            full["label"] = item["label"]
            return {"verb": "MILITARY",
                    "op": O.check_op(state, side, cmd["op"], full, O.render_op("MILITARY"))}
        if verb != "REINFORCE":
            raise IllegalLine(f"{item['label']}: now a REINFORCE operation (or SKIP)")
        C.check_reinforce(state, cmd["force"], cmd["area"], ctx)
        return {"verb": "REINFORCE", "force": cmd["force"], "area": cmd["area"]}

    # ------------------------------------------------------------------ acting

    def act(self, state: State, role: Role, action: Action, rng: Rng) -> tuple[State, list[Event]]:
        """Take one action, response or choice; raises IllegalLine if it no
        longer fits (it is checked again against ``state``)."""
        checked = copy.deepcopy(dict(self.parse(state, role, action.text).data))
        state = upgrade(state)
        if state["stage"] in ("bid", "losses"):
            raise IllegalLine("this decision is taken by all its players together",
                              line=action.text)
        new = copy_state(state)
        g = Ctx(new, rng)
        new["seq"] += 1
        ask = RULES.ask_for(new, role)
        assert ask is not None
        RULES.respond(g, ask, role, checked)
        RULES.run(g)
        return new, g.events

    def resolve(self, state: State, orders: Mapping[Role, Sequence[Action]],
                rng: Rng) -> tuple[State, list[Event]]:
        """The two simultaneous decisions: the bids for the Lianheng side
        (Competitive Victory Rule) and the losses of a battle."""
        state = upgrade(state)
        new = copy_state(state)
        g = Ctx(new, rng)
        new["seq"] += 1
        ask = RULES.top(new)
        if ask is None or new["stage"] not in ("bid", "losses"):
            raise IllegalLine("there is nothing to resolve now")
        g.decided(ask)
        if ask["kind"] == "bid":
            bids = {}
            for r in new["roles"]:
                given = [a for a in orders.get(r, ()) if a.data.get("verb") == "BID"]
                bids[r] = int(self.parse(state, r, given[-1].text).data["bid"]) if given else 0
            first, second = new["roles"]
            text_bids = ", ".join(f"{r} {b}" for r, b in bids.items())
            g.pub(f"Bids for the Lianheng side: {text_bids}.", bids=bids)
            if bids[first] == bids[second]:
                rolls = {}
                while True:
                    rolls = {r: rng.die(6, "die:bid") for r in new["roles"]}
                    g.pub("Tie: " + ", ".join(f"{r} rolls {n}" for r, n in rolls.items())
                          + ".", rolls=rolls)
                    if rolls[first] != rolls[second]:
                        break
                lian = first if rolls[first] > rolls[second] else second
            else:
                lian = first if bids[first] > bids[second] else second
            ally = second if lian == first else first
            new["seats"] = {LIANHENG: lian, ALLIANCE: ally}
            new["target"] = bids[lian]
            new["bids"] = bids
            g.pub(f"{lian} plays the Lianheng side with a target of {bids[lian]} RP; "
                  f"{ally} plays the Alliance.")
            g.call({"t": "turn"})
        else:
            bt = new["battle"]
            for side in O.loss_sides(state):
                r = self.role_of(new, side)
                given = [a for a in orders.get(r, ()) if a.data.get("verb") == "LOSE"]
                if given:
                    bt["choices"][O.victim_of(new, side)] = self.parse(
                        state, r, given[-1].text).data
            for victim in list(bt["pending"]):
                if victim not in bt["choices"]:
                    bt["choices"][victim] = O.default_losses(new, victim)
        RULES.run(g)
        return new, g.events

    # ------------------------------------------------------------------ legal lines

    def plan_mark(self, state: State, role: Role, line: str) -> str:
        """Plays written ahead are a plan: each is taken at its writer's next
        action phase ("The players take turns in alternation") unless since
        it was written a card played changed an area the line names (the
        counters in it, its control): the plan stops there and the writer
        is asked. Public facts only. A choice of the judge's, not the
        rulebook's: face to face each play is seen before the next."""
        areas = upgrade(state).get("areas", {})
        named = [w for w in dict.fromkeys(line.lower().split()) if w in areas]
        if not named:
            return ""
        text = json.dumps({a: areas[a] for a in named}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def legal(self, state: State, role: Role) -> list[str]:
        """Lines ``role`` could send now, each of which parses: all of them
        except military operations, of which an even spread is listed."""
        state = upgrade(state)
        stage = state["stage"]
        if stage == "over" or role not in state["roles"]:
            return []
        if stage == "bid":
            return [f"BID {n}" for n in range(0, MAX_BID + 1)]
        side = self.side_of(state, role)
        if side is None:
            return []
        lines: list[str] = []
        if stage == "action" and side == state["active"]:
            lines.append("PASS")
            uses = self._facedown_uses(state, side)
            for card in sorted({slug(x) for x in state["cards"][side]["hand"]}):
                lines += [text(c) for c in C.faceup_choices(state, side, card)]
                lines += [f"PLAY {card} FACEDOWN {use}" for use in uses]
        elif stage == "step" and side == state["active"]:
            item = state["ask"]
            lines.append("SKIP")
            if item["kind"] == "military":
                ctx = dict(item["ctx"])
                ctx["forces"] = C.military_forces(state, side, ctx)
                lines += [f"MILITARY {op_text(op)}" for op in O.op_choices(state, side, ctx, 60)]
            else:
                lines += [f"REINFORCE {f} {a}" for f, a in C.reinforce_choices(state, item["ctx"])]
        elif stage == "window" and side == state["window"]["side"]:
            lines.append("PASS")
            lines += [text(c) for c in C.respond_choices(state, side)]
            if state["window"]["kind"] == C.BEFORE_COMBAT:
                lines += [text(c) for c in O.defend_choices(state)]
        elif stage == "losses" and side in self._loss_sides(state):
            victim = "att" if side == state["op"]["side"] else "def"
            lines += [text(c) for c in O.lose_choices(state, victim)]
        elif stage == "continue" and side == state["op"]["side"]:
            lines += list(state["op"]["options"])
        elif stage == "choose" and side == state["choice"]["side"]:
            lines += self._choice_lines(state, side)
        return lines

    def _choice_lines(self, state: State, side: str) -> list[str]:
        ch = state["choice"]
        if ch["kind"] == "take":
            return [f"TAKE {c}" for c in sorted({slug(x) for x in state["cards"][side]["deck"]})]
        return [f"DISCARD {c}" for c in sorted({slug(x) for x in ch["cards"]})]

    def _facedown_uses(self, state: State, side: str) -> list[str]:
        """What a card played face down could do now (the same for every card):
        an even spread of military operations and reinforcements, every
        diplomatic and weather action."""
        uses = [f"MILITARY {op_text(op)}"
                for op in O.op_choices(state, side, {"forces": B.directable(state, side)}, 12)]
        reinforce = C.reinforce_choices(state, {})
        uses += [f"REINFORCE {f} {a}" for f, a in reinforce[:: max(1, len(reinforce) // 4)]]
        for force in state["diplomacy"]:
            for way in ("LEFT", "RIGHT", "LOCK"):
                try:
                    self._check_diplomacy(state, force, way)
                except RuleError:
                    continue
                uses.append(f"DIPLOMACY {force} {way}")
        if not state["initiative"]["switched"]:
            uses += ["WEATHER MOVE", "WEATHER LOCK"]
        return uses

    # ------------------------------------------------------------------ views

    def view(self, state: State, role: Role | None) -> dict[str, JSON]:
        """Everything ``role`` may know: the board, the tracks, hand sizes,
        its own hand, face-up discards (face-down ones as such), the operation
        and battle in progress. ``None``: an observer. When the game is over,
        every hand and face-down card is shown (DESIGN.md, Privacy: the full
        history is released at the end)."""
        state = upgrade(state)
        side = None if role is None else self.side_of(state, role)
        areas = []
        for a, info in DATA.areas.items():
            s = state["areas"][a]
            stacks = []
            for force in B.forces_in(state, a):
                st = s["stacks"][force]
                stacks.append({
                    "force": force,
                    "place": "city" if s["city"] == force else "field",
                    "ready": st["ready"],
                    "tired": st["tired"],
                    "generals": [{"id": g, "ready": r} for g, r in st["generals"].items()],
                })
            areas.append({"id": a, "name": info.name, "rp": info.rp, "city": s["city"],
                          "stacks": stacks})
        diplomacy = []
        for force in DATA.forces:
            if force == "qin" or not DATA.forces[force].major:
                continue
            d = state["diplomacy"].get(force)
            diplomacy.append({
                "force": force,
                "position": None if d is None else int(d["pos"]),
                "stance": B.stance_name(state, force),
                "received": None if d is None else bool(d["received"]),
                "faction": B.faction(state, force) if d is not None else None,
            })
        cards: dict[str, Any] = {}
        over = state["stage"] == "over"
        for s_ in SIDES:
            z = state["cards"][s_]
            cards[s_] = {
                "hand": C.hand_size(state, s_),
                "deck": len(z["deck"]),
                # Face-down cards are shown to their owner, and to all at the end.
                "discard": [{"card": slug(c) if (up or s_ == side or over) else None,
                             "face_up": up} for c, up in z["discard"]],
                "removed": [slug(c) for c in z["removed"]],
            }
        out: dict[str, JSON] = {
            "game": self.id,
            "phase": self._phase(state),
            "role": role,
            "side": side,
            "seats": dict(state["seats"]),
            "scenario": state["scenario"],
            "scenario_name": DATA.scenarios[state["scenario"]].name,
            "victory": state["victory"],
            "target": state["target"],
            "game_no": state["game_no"],
            "games": copy.deepcopy(state["games"]),
            "bids": copy.deepcopy(state["bids"]),
            "turn": state["turn"],
            "turns": state["turns"],
            "stage": state["stage"],
            "active": state["active"],
            "initiative": dict(state["initiative"]),
            "passes": state["passes"],
            "areas": areas,
            "rp": {LIANHENG: B.rp_of(state, LIANHENG), ALLIANCE: B.rp_of(state, ALLIANCE),
                   "Qin": B.rp_of(state, "qin")},
            "diplomacy": diplomacy,
            "eliminated": list(state["eliminated"]),
            "generals": {g: state["generals"][g] for g in DATA.generals},
            "cards": cards,
            "operation": O.describe(state),
            "window": None if state["window"] is None else {
                "kind": state["window"]["kind"], "side": state["window"]["side"],
                "context": policy.context(state)},
            "ask": None if state["ask"] is None else {
                "kind": state["ask"]["kind"], "label": state["ask"]["label"]},
            "end": state["end"],
            "result": copy.deepcopy(state["result"]),
        }
        if over:
            out["hands"] = {s_: [slug(c) for c in state["cards"][s_]["hand"]] for s_ in SIDES}
        if side is not None:
            z = state["cards"][side]
            out["hand"] = [slug(c) for c in sorted(z["hand"] + list(z.get("aside", [])))]
            ch = state["choice"]
            if ch is not None and ch["side"] == side:
                out["choice"] = {
                    "kind": ch["kind"],
                    "cards": sorted(slug(c) for c in (state["cards"][side]["deck"]
                                                       if ch["kind"] == "take" else ch["cards"])),
                }
        return out

    def outcome(self, state: State) -> Outcome | None:
        state = upgrade(state)
        if state["stage"] != "over" or state["result"] is None:
            return None
        r = state["result"]
        return Outcome(tuple(r["winners"]), bool(r["draw"]), state["end"])

    # ------------------------------------------------------------------ optional hooks

    def turn(self, state: State) -> str:
        """The game turn (Turn Sequence: "A game is made up of several turns"):
        ``game 1 turn 2``; ``bids`` while the players bid for the Lianheng
        side. It changes when a turn's draw step begins (and when the match's
        second game begins), never within a turn; at the end it stays on the
        last turn."""
        state = upgrade(state)
        if state["stage"] == "bid":
            return "bids"
        return f"game {state['game_no']} turn {state['turn']}"

    def zones(self, state: State) -> list[Zone]:
        """The hidden zones (Turn Sequence: "A player may look at their own
        hand but may not look at the opponent's hand"; Face-Down Play: "The
        opponent may not look at the card's face"). Per side, in the pool
        ``"<side> cards"`` (a side's cards are interchangeable among its own
        zones only): its deck (seen by nobody, order hidden; its contents
        are seen by its owner while choosing a card from it), its hand and the
        card set aside to discard (seen by the owner), each face-down card of
        its discard pile (a zone of one item: the path ends at the card), and
        the three cards Lord Chunshen drew (seen by the owner). When the game
        is over, hands and face-down cards are shown to all: only the decks
        stay hidden. A path leads to a list of cards, or to one card."""
        state = upgrade(state)
        out: list[Zone] = []
        over = state["stage"] == "over"
        choice = state.get("choice")
        for side in SIDES:
            pool = f"{side} cards"
            role = state["seats"].get(side)
            owner = frozenset([role]) if role is not None else frozenset()
            z = state["cards"][side]
            taking = choice is not None and choice["side"] == side and choice["kind"] == "take"
            out.append(Zone(("cards", side, "deck"), owner if taking else frozenset(), pool,
                            order_hidden=True))
            if over:
                continue
            out.append(Zone(("cards", side, "hand"), owner, pool))
            if "aside" in z:
                out.append(Zone(("cards", side, "aside"), owner, pool))
            for i, (_, up) in enumerate(z["discard"]):
                if not up:
                    out.append(Zone(("cards", side, "discard", i, 0), owner, pool))
            if choice is not None and choice["side"] == side and choice["kind"] == "keep":
                out.append(Zone(("choice", "cards"), owner, pool))
        return out

    def concede(self, state: State, role: Role) -> tuple[State, list[Event]] | None:
        """``role`` resigns: in this two-player game (Number of Players) the
        other player wins; with the Two-Game Victory Rule the match goes to
        the other player. The hands are shown, as at any end."""
        if role not in state["roles"]:
            raise IllegalLine(f"{role} does not play in this game")
        if state["stage"] == "over":
            raise IllegalLine("the game is over")
        new = copy_state(upgrade(state))
        winner = next(r for r in new["roles"] if r != role)
        for side in SIDES:
            C.restore_aside(new, side)
        ch = new.get("choice")
        if ch is not None and ch["kind"] == "keep":
            z = new["cards"][ch["side"]]
            z["hand"] = sorted(z["hand"] + list(ch["cards"]))
        match = new["victory"] == "match"
        new["end"] = (f"{role} resigns in game {new['game_no']} of the match" if match
                      else f"{role} resigns")
        new["result"] = {"winners": [winner], "draw": False}
        new["seq"] += 1
        finish(new)
        what = "the match" if match else "the game"
        return new, [public(f"{role} resigns; {winner} wins {what}.", resigned=role,
                            winner=winner)]

    def introduction(self, state: State, role: Role) -> str:
        """The text of every card of ``role``'s side (name, number of copies,
        Break mark, text, how to play each option), as this game's options
        deal the deck, for the seat's first report. Before the sides are
        known (bidding) both decks."""
        state = upgrade(state)
        side = self.side_of(state, role)
        sides = (side,) if side is not None else SIDES
        return helptext.introduction(sides, aid24=bool(state["aid24"]),
                                     printed=bool(state["printed"]))


GAME = ConflictOfAlliances()
_ = (AmbiguousLine,)

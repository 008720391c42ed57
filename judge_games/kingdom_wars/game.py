"""War of the Three Kingdoms: Kingdom Wars -- the game object the judge drives.

The state's ``stage`` is ``generals`` (every seat chooses its two generals:
an order set), ``play`` (the turns; the decision is the top of the ``asks``
stack, see table.py and flow.py) or ``over``. The judge's decisions map onto
the asks:

=================  =========  ==============================================
ask kind           decision   window (standing answers)
=================  =========  ==============================================
generals           ORDERS     -
play, reveal       ACTION     -
choose, cards      ACTION     -
respond (dodge)    RESPONSE   dodge
respond (attack)   RESPONSE   attack
respond (peach)    RESPONSE   rescue
negate             RESPONSE   negation
trigger            RESPONSE   trigger
=================  =========  ==============================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from judge.game.engine import (
    JSON,
    Action,
    Decision,
    DecisionKind,
    Event,
    IllegalLine,
    InvalidLine,
    OptionSpec,
    Outcome,
    Role,
    RuleError,
    State,
    VerbSpec,
    WindowSpec,
    Zone,
    copy_state,
)
from judge.game.rng import Rng
from judge_games.kingdom_wars import flow, helptext, play, policy, standing, views
from judge_games.kingdom_wars import skills as S
from judge_games.kingdom_wars.commands import canonical, syntax
from judge_games.kingdom_wars.data import DATA
from judge_games.kingdom_wars.state import KWState
from judge_games.kingdom_wars.table import (
    EQUIP_SLOTS,
    RULES,
    SEAT_NAMES,
    SLOTS,
    Ctx,
    fresh_player,
    label,
    seat_label,
)

S.load_all()

RESPONSE_WINDOW = {"dodge": "dodge", "attack": "attack", "peach": "rescue"}
TURN_STEPS = ("discard_done", "yinyang_limit")
"""The tasks after the asks of the Discard Phase (the discard, the Yin-Yang
Marker's +2): steps of the turn, which queued lines may answer."""


class KingdomWars:
    """The game. Stateless: every method works on the state it is given."""

    id: str = "kingdom_wars"
    title: str = "War of the Three Kingdoms: Kingdom Wars"
    aliases: tuple[str, ...] = ("kingdom-wars", "kw", "hegemony", "sanguosha")
    kernel = RULES
    """The rules as the decision kernel runs them (judge/game/flow.py)."""
    options: tuple[OptionSpec, ...] = (
        OptionSpec("seats", 6, "number of players (4-12)", tuple(range(4, 13))),
        OptionSpec("variation", False,
                   "Game Variation: each player sees the supporting general of the player on "
                   "its right"),
        OptionSpec("start", "random", "the starting seat (A-L), or random",
                   ("random", *SEAT_NAMES)),
    )
    verbs: tuple[VerbSpec, ...] = helptext.VERBS
    view_schema: str = "kingdom-wars-view.schema.json"
    queues_actions: bool = True
    windows: tuple[WindowSpec, ...] = policy.WINDOWS
    playthrough_options: Mapping[str, JSON] = {"seats": 4}
    team_victories: bool = True
    victory_playthroughs: Sequence[Mapping[str, JSON]] = (
        {"seats": 4}, {"seats": 6}, {"seats": 8}, {"seats": 12})

    # ------------------------------------------------------------------ setup

    def setup(self, options: Mapping[str, JSON], rng: Rng) -> State:
        """Preparation: deal 7 generals each (5 with 9 to 12 players), shuffle
        the Game cards; the hands are dealt once the generals are chosen."""
        n = int(options.get("seats", 6))
        if not 4 <= n <= 12:
            raise ValueError("Kingdom Wars takes 4 to 12 players")
        seats = list(SEAT_NAMES[:n])
        generals = list(DATA.generals)
        rng.shuffle(generals, "shuffle:generals")
        per = 5 if n >= 9 else 7
        dealt = {r: sorted(generals[i * per:(i + 1) * per]) for i, r in enumerate(seats)}
        pile = sorted(generals[n * per:])
        deck = [c.id for c in DATA.deck]
        rng.shuffle(deck, "shuffle:deck")
        start = str(options.get("start", "random"))
        if start == "random":
            start = rng.choice(seats, "start")  # "Let the youngest player start"
        elif start not in seats:
            raise ValueError(f"there is no seat {start} in a game of {n}")
        state: KWState = {
            "n": n, "seats": seats, "variation": bool(options.get("variation", False)),
            "stage": "generals", "dealt": dealt, "pile": pile, "p": {},
            "deck": deck, "discard": [], "proc": [], "start": start, "current": None, "lap": None,
            "round": 1, "turns": 0, "phase": "", "turn_flags": {}, "todo": [], "asks": [],
            "serial": 0, "uses": {}, "judging": [], "damage_stack": [], "dead": [],
            "death_match": False, "pioneer_given": False, "reshuffles": 0,
            "winners": [], "end": "",
        }
        return cast(State, state)

    def roles(self, state: State) -> list[Role]:
        return list(state["seats"])

    def survivors(self, state: State) -> list[Role]:
        if state["stage"] != "play":
            return list(state["seats"])
        return [r for r in state["seats"] if state["p"][r]["alive"]]

    # ------------------------------------------------------------------ decisions

    def _phase_name(self, state: State, ask: Mapping[str, Any]) -> str:
        head = f"round {state['round']}"
        if state["current"]:
            head += f", {seat_label(state['current'])}'s turn"
        return f"{head} #{ask['serial']}: {ask['what']}"

    def pending(self, state: State) -> list[Decision]:
        stage = state["stage"]
        if stage == "generals":
            return [Decision(DecisionKind.ORDERS, tuple(state["seats"]),
                             "choosing generals",
                             prompt="GENERALS <main> AND <supporting>: two of the generals "
                                    "dealt to you, of one kingdom; with it you may write "
                                    "REVEAL MAIN, REVEAL DEPUTY or REVEAL BOTH to expose "
                                    "them at the start of your first turn (Preparation "
                                    "Phase), else they stay hidden until you expose them",
                             default="the first two of one kingdom")]
        if stage != "play":
            return []
        return RULES.pending(state, lambda ask, depth: self._decision(state, ask, depth))

    def _decision(self, state: State, ask: Mapping[str, Any], depth: int) -> Decision:
        kind = ask["kind"]
        phase = self._phase_name(state, ask)
        roles = tuple(ask["roles"])
        if kind in ("respond", "negate", "trigger"):
            window = ("negation" if kind == "negate" else "trigger" if kind == "trigger"
                      else RESPONSE_WINDOW[ask["want"]])
            return Decision(DecisionKind.RESPONSE, roles, phase,
                            prompt=policy.prompt(state, ask), default="pass", window=window,
                            depth=depth, context=policy.context(state, ask))
        prompt = {
            "play": "USE a card or skill, RECAST, MARKER, REVEAL, or PASS to end the Play Phase."
                    " You may write your whole Play Phase in this mail, one line after another"
                    " (a line after one that opens a window waits for it; one that no longer"
                    " fits is dropped), with the answers to the questions a card will ask you"
                    " after THEN (USE Stealing Sheep ON C THEN TAKE HAND); DISCARD <card>..."
                    " names what your Discard Phase gives up first (else your keep-order:"
                    " STANDING discard KEEP <card>...)",
            "reveal": "REVEAL MAIN, REVEAL DEPUTY, REVEAL BOTH or PASS",
        }.get(kind, ask["what"])
        if kind == "choose":
            prompt = f"{ask['what']}: " + " | ".join(ask["options"])
        if kind == "cards":
            prompt = f"{ask['verb']}: {ask['what']}"
        default = {"play": "end the Play Phase", "reveal": "pass"}.get(kind, "the first choice")
        # Queued lines are for the turn's own steps, not for a choice a card asks on the way.
        turn_step = kind in ("play", "reveal") or ask.get("then", {}).get("t") in TURN_STEPS
        return Decision(DecisionKind.ACTION, roles, phase, prompt=prompt, default=default,
                        depth=depth, takes_queued=turn_step)

    def _ask_for(self, state: State, role: Role) -> dict[str, Any] | None:
        """The open ask ``role`` answers now (the top of the stack)."""
        return RULES.ask_for(state, role)

    def default(self, state: State, decision: Decision, role: Role) -> Action | None:
        """Pass a window, end the Play Phase, keep the generals hidden, take the
        first choice, the first cards asked for."""
        if state["stage"] == "generals":
            return None
        ask = self._ask_for(state, role)
        if ask is None or self._phase_name(state, ask) != decision.phase:
            return None
        kind = ask["kind"]
        if kind in ("respond", "negate", "trigger", "play", "reveal"):
            return Action("PASS", data={"verb": "PASS"})
        g = Ctx.reading(state)  # parse, default and legal change nothing
        if kind == "choose":
            opt = ask["options"][int(ask.get("default", 0))]
            return Action(opt, data={"verb": "CHOOSE_", "text": opt.upper(), "line": opt})
        if kind == "cards":
            line = play.cards_lines(g, role, ask)[0]
            return self.parse(state, role, line)
        return None

    # ------------------------------------------------------------------ parsing

    def parse(self, state: State, role: Role, line: str) -> Action:
        """Read one line of ``role`` for the decision it faces now: InvalidLine
        when it is not a Kingdom Wars line, IllegalLine when the rules do not
        allow it now (with what would be right)."""
        norm = " ".join(line.replace(",", " ").split())
        ask = self._ask_for(state, role)
        if ask is not None and ask["kind"] == "choose":
            options = {o.upper(): o for o in ask["options"]}
            if norm.upper() in options:
                opt = options[norm.upper()]
                return Action(opt, data={"verb": "CHOOSE_", "text": opt.upper(), "line": opt})
        cmd = syntax(line)
        try:
            checked = self._check(state, role, cmd, ask)
        except RuleError as exc:
            raise exc.with_line(line) from None
        text = checked.get("line") if checked["verb"] == "CHOOSE_" else canonical(checked)
        key = ("generals" if checked["verb"] == "GENERALS"
               else "reveal" if state["stage"] == "generals" else None)
        return Action(str(text), key=key, data=_jsonable(checked))

    def _check(self, state: State, role: Role, cmd: dict[str, Any],
               ask: dict[str, Any] | None) -> dict[str, Any]:
        if role not in state["seats"]:
            raise IllegalLine(f"{role} is not playing")
        stage = state["stage"]
        if stage == "over":
            raise IllegalLine("the game is over")
        if stage == "generals":
            if cmd["verb"] == "REVEAL":
                # "Your hidden General card can also be exposed (flipped face up)
                # at this phase" (Preparation Phase): written with the generals,
                # done at the start of the seat's first Preparation Phase.
                return {"verb": "REVEAL", "slots": list(cmd["slots"]), "held": True}
            if cmd["verb"] != "GENERALS":
                raise IllegalLine("first choose your generals",
                                  hint="GENERALS <main> AND <supporting>, and REVEAL "
                                       "MAIN|DEPUTY|BOTH to expose them in your first "
                                       "Preparation Phase")
            return self._check_generals(state, role, cmd)
        if cmd["verb"] == "GENERALS":
            raise IllegalLine("the generals were chosen at the start")
        if not state["p"][role]["alive"] and ask is None:  # (a death skill may ask the dead)
            raise IllegalLine("you are out of the game")
        if ask is None:
            raise IllegalLine("nothing is asked of you now",
                              hint="lines sent now wait for your next decision")
        g = Ctx.reading(state)  # parse, default and legal change nothing
        kind = ask["kind"]
        if cmd["verb"] == "STANDING":
            if kind in ("respond", "negate", "trigger"):
                raise IllegalLine("a standing order is no answer to this window",
                                  hint="send it with the lines of your turn, or in a mail of "
                                       "its own")
            return cmd
        if kind == "play":
            out = play.check_play(g, role, cmd)
            if cmd.get("then"):
                if out["verb"] != "USE":
                    raise IllegalLine("THEN follows a USE line: the answers to the questions "
                                      "the card asks you", hint="USE Stealing Sheep ON C THEN "
                                      "TAKE HAND")
                out = {**out, "then": list(cmd["then"])}
            return out
        if kind == "reveal":
            if cmd["verb"] == "PASS":
                return cmd
            if cmd["verb"] != "REVEAL":
                raise IllegalLine("in the Preparation Phase you may expose generals",
                                  hint=" or ".join(flow.reveal_lines(g, role)))
            for slot in cmd["slots"]:
                if slot not in g.hidden_slots(role):
                    raise IllegalLine(f"your {slot} general is exposed already")
            return cmd
        if kind in ("respond", "negate"):
            return play.check_response(g, role, ask, cmd)
        if kind == "trigger":
            if cmd["verb"] == "PASS":
                return cmd
            if cmd["verb"] != "USE" or not cmd.get("skill"):
                raise IllegalLine("this window offers skills: USE <skill> or PASS",
                                  hint=" or ".join([*flow.trigger_options(g, ask, role),
                                                   "PASS"]))
            sid = cmd["skill"]
            if sid not in g.skills(role, hidden=True):
                raise IllegalLine(f"you have no skill {DATA.skills[sid].name}")
            lines = flow.trigger_options(g, ask, role)
            sk = S.of(sid)
            if sk is None or not any(x.startswith(f"USE {sk.name}") for x in lines):
                raise IllegalLine(f"{DATA.skills[sid].name} cannot be used now",
                                  hint=" or ".join([*lines, "PASS"]))
            out = dict(cmd)
            out["cards"] = play.resolve(g, role, cmd.get("refs", []),
                                        [*g.hand(role), *g.equips(role)])
            out.pop("refs", None)
            return sk.check_trigger(g, role, ask["m"], out)
        if kind == "choose":
            return play.check_choose(g, role, ask, cmd)
        if kind == "cards":
            return play.check_cards(g, role, ask, cmd)
        raise IllegalLine("nothing is asked of you now")

    def _check_generals(self, state: State, role: Role, cmd: dict[str, Any]) -> dict[str, Any]:
        """Select Generals: two of those dealt to you, of one kingdom; the first
        is the main general."""
        mine = state["dealt"][role]
        names = ", ".join(DATA.generals[x].name for x in mine)
        for gid in (cmd["main"], cmd["deputy"]):
            if gid not in mine:
                raise IllegalLine(f"{DATA.generals[gid].name} was not dealt to you",
                                  hint=f"you were dealt {names}")
        if cmd["main"] == cmd["deputy"]:
            raise IllegalLine("choose two different generals")
        a, b = DATA.generals[cmd["main"]], DATA.generals[cmd["deputy"]]
        if a.kingdom != b.kingdom:
            raise IllegalLine(f"{a.name} is of {a.kingdom} and {b.name} of {b.kingdom}: "
                              "choose two of one kingdom", hint=_pairs_hint(mine))
        return cmd

    # ------------------------------------------------------------------ acting

    def act(self, state: State, role: Role, action: Action, rng: Rng) -> tuple[State, list[Event]]:
        checked = dict(self.parse(state, role, action.text).data)
        if state["stage"] != "play":
            raise IllegalLine("the generals are chosen by all players together",
                              line=action.text)
        new = copy_state(state)
        g = Ctx(new, rng)
        if checked["verb"] == "STANDING":  # the decision stays as it was
            g.only(role, standing.set_order(new, role, checked))
            return new, g.events
        ask = self._ask_for(new, role)
        assert ask is not None
        kind = ask["kind"]
        if kind == "choose":
            checked = {"verb": "CHOOSE", "text": checked["text"]}
        RULES.respond(g, ask, role, checked)
        RULES.run(g)
        return new, g.events

    def resolve(self, state: State, orders: Mapping[Role, Sequence[Action]],
                rng: Rng) -> tuple[State, list[Event]]:
        """The generals chosen (a seat that chose none gets its first pair of one
        kingdom); the starting hands dealt; the first turn begins."""
        if state["stage"] != "generals":
            raise IllegalLine("there is nothing to resolve now")
        new = copy_state(state)
        g = Ctx(new, rng)
        for r in new["seats"]:
            given = [a for a in orders.get(r, ()) if a.data.get("verb") == "GENERALS"]
            if given:
                cmd = dict(self.parse(state, r, given[-1].text).data)
                main, deputy = cmd["main"], cmd["deputy"]
            else:
                main, deputy = _first_pair(new["dealt"][r])
            new["p"][r] = fresh_player(main, deputy)
            new["dealt"][r] = [x for x in new["dealt"][r] if x not in (main, deputy)]
            g.only(r, f"Your generals: {DATA.generals[main].name} (main) and "
                      f"{DATA.generals[deputy].name} (supporting), maximum health "
                      f"{new['p'][r]['max_hp']}.")
            reveal = [a for a in orders.get(r, ()) if a.data.get("verb") == "REVEAL"]
            if reveal:
                slots = list(reveal[-1].data["slots"])
                standing.hold_reveal(new, r, slots)
                g.only(r, "Your generals named (" + ", ".join(slots) + ") are exposed at the "
                          "start of your first Preparation Phase.")
        if new["variation"]:
            for i, r in enumerate(new["seats"]):
                left = new["seats"][i - 1]  # the player whose right-hand neighbour r is
                new["p"][r]["seen_by"]["deputy"].append(left)
                g.only(left, f"Game Variation: {seat_label(r)}'s supporting general is "
                             f"{DATA.generals[new['p'][r]['deputy']].name}.")
        g.pub("Every player has chosen two generals, face down. Maximum health: " + ", ".join(
            f"{r} {new['p'][r]['max_hp']}" for r in new["seats"]) + ".")
        for r in new["seats"]:  # "distribute 4 cards randomly to each player"
            g.draw(r, 4, "starting hand")
        new["stage"] = "play"
        g.pub(f"{seat_label(new['start'])} is the starting player.")
        g.push({"t": "turn", "seat": new["start"]})
        RULES.run(g)
        return new, g.events

    # ------------------------------------------------------------------ legal lines

    def legal(self, state: State, role: Role) -> list[str]:
        if state["stage"] == "generals":
            if role not in state["seats"]:
                return []
            mine = state["dealt"][role]
            out = []
            for a in mine:
                for b in mine:
                    if a != b and DATA.generals[a].kingdom == DATA.generals[b].kingdom:
                        out.append(f"GENERALS {DATA.generals[a].name} AND "
                                   f"{DATA.generals[b].name}")
            return out
        ask = self._ask_for(state, role)
        if ask is None:
            return []
        g = Ctx.reading(state)  # parse, default and legal change nothing
        kind = ask["kind"]
        if kind == "play":
            lines = play.play_lines(g, role)
        elif kind == "reveal":
            lines = flow.reveal_lines(g, role)
        elif kind in ("respond", "negate"):
            lines = play.response_lines(g, role, ask)
        elif kind == "trigger":
            lines = ["PASS", *flow.trigger_options(g, ask, role)]
        elif kind == "choose":
            lines = list(ask["options"])
        elif kind == "cards":
            lines = play.cards_lines(g, role, ask)
        else:
            lines = []
        out = []
        for ln in lines:
            try:
                out.append(self.parse(state, role, ln).text)
            except RuleError:
                continue
        return list(dict.fromkeys(out))

    # ------------------------------------------------------------------ views

    def view(self, state: State, role: Role | None) -> dict[str, JSON]:
        top = RULES.top(state) if state["stage"] == "play" else None
        phase = (self._phase_name(state, top) if top is not None else
                 "choosing generals" if state["stage"] == "generals" else "game over")
        return views.view(state, role, phase)

    def outcome(self, state: State) -> Outcome | None:
        if state["stage"] != "over":
            return None
        return Outcome(winners=tuple(state["winners"]), reason=state["end"])

    def queued_later(self, state: State, role: Role) -> str:
        """A line the seat on turn queues before or during its Play Phase
        (after a line that opened a window) is taken in that Play Phase, this
        turn ("Playing the Game": the phases in order, the Play Phase fourth)."""
        if state["stage"] != "play" or state.get("current") != role:
            return ""
        phase = state.get("phase")
        if phase not in flow.PHASES[:4] or "play" in state["turn_flags"].get("skip", []):
            return ""
        return "your Play Phase"

    def turn(self, state: State) -> str:
        """A digest each round (one turn of every player)."""
        if state["stage"] == "generals":
            return "choosing generals"
        if state["stage"] == "over":
            return "end"
        return f"round {state['round']}"

    def zones(self, state: State) -> list[Zone]:
        """Hidden: each hand (its owner), the deck (nobody; order hidden), each
        hidden general (its owner and whoever has viewed it), the generals
        dealt but not chosen (their owner) and the generals never dealt."""
        if state["stage"] == "over":
            return []
        out = [Zone(("deck",), frozenset(), "cards", order_hidden=True)]
        for r in state["seats"]:
            out.append(Zone(("dealt", r), frozenset({r}), "generals"))
        out.append(Zone(("pile",), frozenset(), "generals"))
        for r, p in state["p"].items():
            out.append(Zone(("p", r, "hand"), frozenset({r}), "cards"))
            for i, slot in enumerate(SLOTS):
                if not p["shown"][i]:
                    seen = frozenset({r, *p["seen_by"][slot]})
                    out.append(Zone(("p", r, slot), seen, "generals"))
        return out


def _first_pair(dealt: Sequence[str]) -> tuple[str, str]:
    for a in dealt:
        for b in dealt:
            if a != b and DATA.generals[a].kingdom == DATA.generals[b].kingdom:
                return a, b
    raise ValueError("no two generals of one kingdom")  # impossible: 5 cards, 4 kingdoms


def _pairs_hint(dealt: Sequence[str]) -> str:
    by: dict[str, list[str]] = {}
    for x in dealt:
        by.setdefault(DATA.generals[x].kingdom, []).append(DATA.generals[x].name)
    return "; ".join(f"{k}: {', '.join(v)}" for k, v in by.items() if len(v) >= 2)


def _jsonable(cmd: Mapping[str, Any]) -> dict[str, JSON]:
    return {k: v for k, v in cmd.items() if k != "refs" or v}


def equip_labels(state: State, seat: str) -> list[str]:
    eq = state["p"][seat]["equip"]
    return [label(eq[s]) for s in EQUIP_SLOTS if eq[s]]


GAME = KingdomWars()
__all__ = ["GAME", "InvalidLine", "KingdomWars"]

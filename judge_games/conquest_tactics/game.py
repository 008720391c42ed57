"""Conquest Tactics -- the game object the judge drives (see turns.py for the
turn on the decision kernel, rules.py for the rules and table.py for the
state).

=========  =========  ===================================================
ask        decision   lines
=========  =========  ===================================================
decks      ORDERS     DECK <name>: ... (a DECK ... END block by mail)
forces     ORDERS     BASE <space>, TAKE <card> (face down till both sent)
deploy     ACTION     DEPLOY <troop> <space>
up         ACTION     MOVE <from> <to> (one space ahead), PASS
mobilize   ACTION     DEPLOY, EQUIP, LEARN, UPGRADE, PLAY, DONE (both)
play       ACTION     MOVE, ATTACK, CAST, USE, PLAY, REDEEM, RECYCLE, PASS
follow     ACTION     ATTACK, CAST, USE, PLAY (the troop that moved), STOP
window     RESPONSE   CAST/USE an instant, PLAY an instant circumstance,
                      PASS (window ``instant``)
=========  =========  ===================================================
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from judge.game.engine import (
    JSON,
    Action,
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
)
from judge.game.flow import Ask
from judge.game.rng import Rng
from judge_games.conquest_tactics import (
    commands,
    decks,
    helptext,
    legal,
    policy,
    rules,
    turns,
    views,
)
from judge_games.conquest_tactics import field as F
from judge_games.conquest_tactics.cards import POOL
from judge_games.conquest_tactics.table import (
    RULES,
    Ctx,
    Table,
    as_state,
    card,
    fresh_player,
    restore,
)

STAGE_NAMES = {"deploy": "deployment", "up": "Up the Field", "mobilize": "Mobilize",
               "play": "Play", "follow": "Play (after a move)", "window": "an instant"}
"""The decisions' names in the reports, by the kind of the kernel's ask."""
_SPACE = re.compile(r"\b[A-E][1-5]\b")
UP_NOTE = (". You may write your whole Up the Field and your Mobilize in this mail: your "
           "moves, then Mobilize lines (the DEPLOY, UPGRADE, EQUIP, LEARN and PLAY lines "
           "listed fit the field as it stands now), then DONE; the first Mobilize line passes "
           "the rest of Up the Field, and they are held for the Mobilize")
"""What the Up the Field request says of the Mobilize written ahead."""
PLAN_NOTE = (". You may write more lines after this one, a plan: each is taken when you "
             "next have control, unless since you wrote it an action of your opponent has "
             "changed the card on a space the line names (moved, damaged, healed, equipped, "
             "destroyed); then the plan stops there and you are asked")
"""What the Play request says of lines written ahead (:meth:`ConquestTactics.plan_mark`)."""
PROMPTS = {"deploy": "DEPLOY <troop> <space> for each starting troop, or DEPLOY ALL",
           "up": "MOVE <from> <to> one space ahead, PASS, or DONE (pass for the rest of Up "
                 "the Field)" + UP_NOTE,
           "play": "MOVE, ATTACK, CAST, USE, PLAY, REDEEM, RECYCLE, PASS, or PASS ALL "
                   "(pass for the rest of the Play phase)" + PLAN_NOTE,
           "follow": "the troop that moved may ATTACK, CAST, USE or PLAY; or STOP"}
DEFAULTS = {"deploy": "DEPLOY ALL: every troop at once, those of range 2 or more "
                      "in your row 1, the rest in row 2, each row from the centre out",
            "up": "pass", "play": "pass", "follow": "stop"}


def _factions() -> tuple[str, ...]:
    return tuple(sorted(POOL.starters))


class ConquestTactics:
    """The game. Stateless: every method works on the state it is given (one
    saved before the game ran on the kernel is read as table.current says)."""

    id: str = "conquest_tactics"
    title: str = "Conquest Tactics"
    aliases: tuple[str, ...] = ("conquest-tactics", "ct", "conquest")
    options: tuple[OptionSpec, ...] = (
        OptionSpec("decks", "starter", "starter: each side plays its faction's starter deck; "
                   "submitted: each player sends a DECK list first", ("starter", "submitted")),
        OptionSpec("south", "humans", "South's starter deck (a faction)", _factions()),
        OptionSpec("north", "malice", "North's starter deck (a faction)", _factions()),
        OptionSpec("turn_limit", 30, "the match ends after this turn (0: no limit); the "
                   "greater tally wins"),
    )
    verbs: tuple[VerbSpec, ...] = helptext.VERBS
    view_schema: str = "conquest-tactics-view.schema.json"
    queues_actions: bool = True
    windows: tuple[WindowSpec, ...] = policy.WINDOWS
    playthrough_options: Mapping[str, JSON] = {"turn_limit": 12}
    kernel = turns.RULES
    """The turn as the decision kernel runs it (judge/game/flow.py, turns.py)."""
    victory_playthroughs: Sequence[Mapping[str, JSON]] = (
        {"south": "humans", "north": "malice", "turn_limit": 0},
        {"south": "humans", "north": "kaborha", "turn_limit": 0},
        {"south": "malice", "north": "kaborha", "turn_limit": 0},
        {"south": "gunget", "north": "humans", "turn_limit": 0},
        {"south": "kaborha", "north": "gunget", "turn_limit": 0},
        {"south": "gunget", "north": "malice", "turn_limit": 0},
    )
    """Every pairing of the four starter decks, each to a result."""

    # ------------------------------------------------------------------ setup

    def setup(self, options: Mapping[str, JSON], rng: Rng) -> State:
        """Remove Base, Victory Conditions and Trophies from each deck; Trophies
        and Victory Conditions lie face up; the starting forces are chosen
        next (or the deck lists first, for submitted decks)."""
        table: Table = {
            "stage": "forces", "options": {k: options.get(k, o.default) for o, k in
                                           ((o, o.name) for o in self.options)},
            "turn": 0, "initiative": F.SOUTH, "actor": None, "mover": None, "deployer": None,
            "passes": 0, "serial": 0, "uid": 0, "follow": None, "action": None,
            "window": None, "p": {}, "troops": {}, "bases": {}, "result": None,
            "todo": [{"t": "forces"}], "asks": [],
        }
        state = as_state(table)
        g = Ctx(state, rng)
        if options.get("decks", "starter") == "submitted":
            state["todo"] = [{"t": "decks"}]
            for role in F.ROLES:
                state["p"][role] = fresh_player("", "")
        else:
            for role, opt in ((F.SOUTH, "south"), (F.NORTH, "north")):
                faction = str(options.get(opt, "humans" if role == F.SOUTH else "malice"))
                _take_deck(g, role, POOL.starters[faction], faction)
        RULES.run(g)
        return state

    def roles(self, state: State) -> list[Role]:
        return list(F.ROLES)

    # ------------------------------------------------------------------ decisions

    def _phase(self, state: State, ask: Ask | None = None) -> str:
        """The name of the decision ``ask`` (the open one, if not given)."""
        ask = ask or RULES.top(state)
        kind = ask["kind"] if ask else "over"
        if kind == "decks":
            return "deck lists"
        if kind == "forces":
            return "set-up: Base and starting forces"
        if kind == "mobilize":  # one decision for both players, however many lines they send
            return f"turn {state['turn']} Mobilize"
        return f"turn {state['turn']} {STAGE_NAMES.get(kind, kind)} #{ask['serial'] if ask else 0}"

    def pending(self, state: State) -> list[Decision]:
        state = RULES.current(state)
        if not RULES.playing(state):
            return []
        return RULES.pending(state, lambda ask, depth: self._decision(state, ask, depth))

    def _decision(self, state: State, ask: Ask, depth: int) -> Decision:
        """The judge's decision for one of the kernel's asks."""
        kind = ask["kind"]
        roles = tuple(ask["roles"])
        phase = self._phase(state, ask)
        if kind == "decks":
            return Decision(DecisionKind.ORDERS, roles, phase,
                            prompt="DECK <name> ... END: your deck list (the report says "
                                   "how), or STARTER to play your starter deck",
                            default="your starter deck (STARTER)", depth=depth)
        if kind == "forces":
            return Decision(DecisionKind.ORDERS, roles, phase,
                            prompt="BASE <space> and TAKE <card> lines: up to 20 TP of level "
                                   "0-1 troops and up to three level 1 spells or skills",
                            default="base at C1; level 0-1 troops in deck order up to 20 TP",
                            depth=depth)
        if kind == "window":
            role = roles[0]
            return Decision(DecisionKind.RESPONSE, roles, phase,
                            prompt=policy.prompt(state, role), default="pass",
                            window="instant", depth=depth,
                            context=policy.context(state, role))
        if kind == "mobilize":
            return Decision(DecisionKind.ACTION, roles, phase,
                            prompt="DEPLOY, EQUIP, LEARN, UPGRADE, PLAY a mobilization "
                                   "circumstance; DONE when done", default="done", depth=depth)
        return Decision(DecisionKind.ACTION, roles, phase, prompt=PROMPTS[kind],
                        default=DEFAULTS[kind], depth=depth)

    def default(self, state: State, decision: Decision, role: Role) -> Action | None:
        state = RULES.current(state)
        if decision.phase != self._phase(state):
            return None
        top = RULES.top(state)
        kind = top["kind"] if top else "over"
        if kind == "deploy":  # every starting troop still to deploy, at once
            return self.parse(state, role, "DEPLOY ALL") if Ctx(state).p(role)["forces"] \
                else None
        text = {"up": "PASS", "play": "PASS", "follow": "STOP", "window": "PASS",
                "mobilize": "DONE"}.get(kind)
        return self.parse(state, role, text) if text else None

    # ------------------------------------------------------------------ parsing

    def parse(self, state: State, role: Role, line: str) -> Action:
        cmd = commands.syntax(line)
        try:
            checked = self._check(state, role, cmd)
        except RuleError as exc:
            raise exc.with_line(line) from None
        key = "base" if checked["verb"] == "BASE" else "deck" if checked["verb"] == "DECK" \
            else None
        data = {k: v for k, v in checked.items() if k not in ("discard_ids",)}
        return Action(commands.canonical(checked), key=key, data=data)

    def _check(self, state: State, role: Role, cmd: dict[str, Any]) -> dict[str, Any]:
        if role not in F.ROLES:
            raise IllegalLine(f"{role} is not playing")
        state = RULES.current(state)
        g = Ctx(state)
        verb = cmd["verb"]
        if not RULES.playing(state):
            raise IllegalLine("the match is over")
        top = RULES.top(state)
        kind = top["kind"] if top else "over"
        if kind == "decks":
            if verb == "STARTER":
                return _check_starter(state, role, str(cmd["starter"]))
            if verb != "DECK":
                raise IllegalLine("first send your deck list, or STARTER to play your "
                                  "starter deck", hint=commands.SYNTAX["DECK"])
            return _check_deck(cmd)
        if verb in ("DECK", "STARTER"):
            raise IllegalLine("deck lists are sent before the game starts")
        if kind == "forces":
            if verb == "BASE":
                return rules.check_base(g, role, cmd)
            if verb == "TAKE":
                return rules.check_take(g, role, cmd)
            raise IllegalLine("set-up: BASE <space> and TAKE <card> lines",
                              hint="BASE C1, TAKE " + _first_troop(g, role))
        if kind == "mobilize":
            if state["p"][role]["done"]:
                raise IllegalLine("you have finished mobilizing this turn",
                                  hint="lines sent now wait for your next decision")
            return rules.check_mobilize(rules.held_ctx(state, role), role, cmd)
        if RULES.ask_for(state, role) is None:
            raise IllegalLine("nothing is asked of you now",
                              hint="lines sent now wait for your next decision")
        if kind == "deploy":
            if verb != "DEPLOY":
                raise IllegalLine("deploy your starting troops",
                                  hint=rules.default_deploy(g, role) or "")
            return rules.check_deploy_start(g, role, cmd)
        if kind == "up":
            return rules.check_up(g, role, cmd)
        if kind in ("play", "follow"):
            return rules.check_play(g, role, cmd, state["follow"] if kind == "follow" else None)
        if kind == "window":
            return rules.check_instant(g, role, cmd)
        raise IllegalLine("nothing is asked of you now")

    def check_held(self, state: State, role: Role, action: Action, held: Sequence[Action]) -> None:
        """The starting forces as a whole: 20 points, three spells or skills,
        the copies the deck holds (Setup)."""
        if action.data.get("verb") != "TAKE" or not any(
                a["kind"] == "forces" for a in RULES.current(state)["asks"]):
            return
        taken = [str(a.data["card"]) for a in held if a.data.get("verb") == "TAKE"]
        rules.check_forces(Ctx(state), role, [*taken, str(action.data["card"])])

    # ------------------------------------------------------------------ acting

    def act(self, state: State, role: Role, action: Action, rng: Rng) -> tuple[State, list[Event]]:
        checked = dict(self.parse(state, role, action.text).data)
        new = copy_state(state)
        if "asks" not in new:
            restore(new)
        g = Ctx(new, rng)
        ask = RULES.ask_for(new, role)
        if ask is None or ask["kind"] in ("decks", "forces"):
            raise IllegalLine("these lines are orders, resolved together", line=action.text)
        if ask["kind"] == "mobilize":  # held face down, as written, until both are done
            checked["line"] = action.text
        RULES.respond(g, ask, role, checked)
        RULES.run(g)
        return new, g.events

    def resolve(self, state: State, orders: Mapping[Role, Sequence[Action]],
                rng: Rng) -> tuple[State, list[Event]]:
        new = copy_state(state)
        if "asks" not in new:
            restore(new)
        g = Ctx(new, rng)
        ask = RULES.top(new)
        kind = ask["kind"] if ask and RULES.playing(new) else None
        if kind not in ("decks", "forces"):
            raise IllegalLine("there is nothing to resolve now")
        assert ask is not None
        g.pop_ask(ask)
        if kind == "decks":
            for role, opt in ((F.SOUTH, "south"), (F.NORTH, "north")):
                given = [a for a in orders.get(role, ()) if a.data.get("verb") == "DECK"]
                if given and given[-1].data.get("starter"):
                    faction = str(given[-1].data["starter"])
                    _take_deck(g, role, POOL.starters[faction], faction)
                    g.pub(f"{role} plays the {faction} starter deck.")
                elif given:
                    deck = _deck_of(str(given[-1].data["canonical"]))
                    _take_deck(g, role, deck, _faction_of(deck))
                    g.pub(f"{role} plays the deck {deck.name!r}.")
                else:
                    faction = str(new["options"][opt])
                    _take_deck(g, role, POOL.starters[faction], faction)
                    g.pub(f"{role} sent no deck list and plays the {faction} starter deck.")
            g.call({"t": "forces"})
            RULES.run(g)
            return new, g.events
        chosen: dict[str, tuple[str, list[str]]] = {}
        for role in F.ROLES:
            acts = orders.get(role, ())
            bases = [a for a in acts if a.data.get("verb") == "BASE"]
            base_at = str(bases[-1].data["at"]) if bases else F.from_frame("C1", role) or "C1"
            taken = [str(a.data["card"]) for a in acts if a.data.get("verb") == "TAKE"]
            try:
                rules.check_forces(g, role, taken)
            except RuleError:
                taken = []
            if not any(a.data.get("verb") == "TAKE" for a in acts):
                taken = rules.default_forces(g, role)
            chosen[role] = (base_at, taken)
        rules.reveal_forces(g, chosen)
        RULES.run(g)
        return new, g.events

    # ------------------------------------------------------------------ legal lines

    def legal(self, state: State, role: Role) -> list[str]:
        out = []
        for line in legal.candidates(state, role):
            try:
                out.append(self.parse(state, role, line).text)
            except RuleError:
                continue
        return list(dict.fromkeys(out))

    # ------------------------------------------------------------------ views

    def plan_mark(self, state: State, role: Role, line: str) -> str:
        """Lines written ahead for the Play phase are a plan: each is taken
        when its writer next has control while no action of the opponent
        has changed the card on a space the line names since it was
        written (rules.touched: moved there or away, deployed, upgraded,
        damaged, healed, equipped, buffed, debuffed, destroyed; in Play, Up
        the Field or the Mobilize); at the first that has, the
        plan stops and the writer is asked. Play: "one player at a time
        will have control", and the plan's writer did not see what the
        other did with it. A choice of the judge's, not the rulebook's: face
        to face each action is seen before the next is chosen."""
        spaces = [F.from_frame(w, role) for w in _SPACE.findall(line.upper())]
        s = RULES.current(state)
        return " ".join(f"{sp}:{rules.touched(s, role, sp)}" for sp in spaces if sp)

    def view(self, state: State, role: Role | None) -> dict[str, JSON]:
        state = RULES.current(state)
        phase = self._phase(state) if RULES.playing(state) else "game over"
        return views.view(state, role, phase)

    def outcome(self, state: State) -> Outcome | None:
        if state["stage"] != "over":
            return None
        r = state["result"]
        if not r["winners"]:  # "3-3 Draw" (Victory): both players share it
            return Outcome(winners=tuple(F.ROLES), draw=True, reason=r["text"])
        return Outcome(winners=tuple(r["winners"]), reason=r["text"])

    def turn(self, state: State) -> str:
        if state["stage"] in ("decks", "forces"):
            return "set-up"
        if state["stage"] == "deploy":
            return "deployment"
        if state["stage"] == "over":
            return "end"
        return f"turn {state['turn']}"

    def scores(self, state: State) -> dict[Role, int]:
        r = state.get("result") or {}
        return {k: int(v) for k, v in r.get("score", {}).items()}

    def concede(self, state: State, role: Role) -> tuple[State, list[Event]] | None:
        new = copy_state(state)
        g = Ctx(new)
        new["stage"] = "over"
        new["todo"], new["asks"] = [], []  # the kernel stops: nothing waits, nobody is asked
        w = F.other(role)
        tally = {r: sum(1 for v in new["p"][r]["victories"] if v["done"]) for r in F.ROLES}
        new["result"] = {"winners": [w], "text": f"{w} wins: {role} concedes",
                         "score": tally}
        g.pub(f"{role} concedes; {w} wins.")
        return new, g.events

    def zones(self, state: State) -> list[Zone]:
        """Hidden: each hand (its owner), each supply pile (nobody; order
        hidden; its owner knows what it holds only before the game starts,
        while choosing starting forces from the deck), the starting forces
        while face down (their owner)."""
        out = []
        for role in state["p"]:
            pool = f"cards:{role}"
            before = state["stage"] in ("decks", "forces")
            out.append(Zone(("p", role, "supply"), frozenset({role}) if before else frozenset(),
                            pool, order_hidden=not before))
            out.append(Zone(("p", role, "hand"), frozenset({role}), pool))
            p = state["p"][role]
            if p.get("forces"):  # Setup: face down until each troop is placed
                out.append(Zone(("p", role, "forces"), frozenset({role}), pool))
            if p.get("start_spells"):  # placed face up when its side deploys
                out.append(Zone(("p", role, "start_spells"), frozenset({role}), pool))
        return out


def _take_deck(g: Ctx, role: str, deck: Any, faction: str) -> None:
    """Setup: "Remove your Base, Victory Conditions, and Trophies from your
    deck"; the Trophies and Victory Conditions lie face up by the board."""
    p = fresh_player(faction, deck.name)
    p["supply"] = list(deck.supply)
    p["victories"] = [{"card": v, "done": False} for v in deck.victories]
    p["trophy_pile"] = list(deck.trophies)
    g.s["p"][role] = p
    g.s["bases"][role] = {"card": deck.base, "at": None, "damage": 0, "alive": True}


def _check_deck(cmd: dict[str, Any]) -> dict[str, Any]:
    lines = [(i + 1, part.strip()) for i, part in enumerate(cmd["body"].split(";"))
             if part.strip()]
    deck, breaches = decks.parse_deck(cmd["deck"], lines)
    if deck is not None:
        breaches = [*breaches, *decks.check(deck)]
    if breaches or deck is None:
        raise IllegalLine("the deck list breaks the deck building guidelines: "
                          + "; ".join(str(b) for b in breaches))
    return {"verb": "DECK", "canonical": decks.canonical(deck), "spaces": []}


def starter_of(state: State, role: Role) -> str:
    """The faction whose starter deck ``role`` plays without a deck list (the
    game's option ``south`` or ``north``)."""
    return str(state["options"]["south" if role == F.SOUTH else "north"])


def _check_starter(state: State, role: Role, faction: str) -> dict[str, Any]:
    faction = faction or starter_of(state, role)
    if faction not in POOL.starters:
        raise IllegalLine(f"there is no {faction!r} starter deck",
                          hint="STARTER " + " | STARTER ".join(sorted(POOL.starters)))
    return {"verb": "DECK", "canonical": decks.canonical(POOL.starters[faction]),
            "starter": faction, "spaces": []}


def _deck_of(text: str) -> Any:
    deck, breaches = decks.parse_canonical(text)
    if deck is None or breaches:  # parse accepted it: it cannot be refused now
        raise ValueError(f"a deck list accepted by parse does not read back: {breaches}")
    return deck


def _faction_of(deck: Any) -> str:
    troops = [card(c).faction for c in deck.supply if card(c).type == "troop"]
    return max(set(troops), key=troops.count) if troops else card(deck.base).faction


def _first_troop(g: Ctx, role: str) -> str:
    for cid in g.p(role)["supply"]:
        if card(cid).type == "troop" and card(cid).level <= 1:
            return str(cid)
    return "<troop>"


GAME = ConquestTactics()
__all__ = ["GAME", "ConquestTactics"]

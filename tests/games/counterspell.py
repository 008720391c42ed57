"""Counterspell: a small test-only game of nested response windows.

A spell can be countered, the counter countered, and that counter countered
too: three response windows deep, each offered to several seats who answer
in secret and take effect in seat order when the window closes. It exists to
drive the judge's stack of decisions (judge/game/adjudicator.py) and runs under the
contract suite in ``tests/contract/`` next to Sealed Bids. It is not served by
the judge (it is not in ``judge.game.registry.BUILTIN``); tests
:func:`judge.game.registry.register` it.

The rules (the comments in the code cite them by number):

R1  Seats and cards. Three to five players sit as Amber, Beryl, Coral, Dusk and
    Ember, in that order. The deck has 40 cards: 16 counters (``C``) and 24
    spells, four of each value 1 to 6 (``S1`` ... ``S6``).
R2  Setup. Shuffle the deck and deal five cards to each player, one at a time
    in seat order. The rest is the deck, face down; nobody sees it or its
    order. Every player has 20 life. Amber takes the first turn.
R3  Turn. The player whose turn it is CASTs a spell card from hand at another
    player (``CAST S4 AT Coral``) or PASSes; the deadline passes. A cast spell
    goes face up onto the chain.
R4  Counter windows. A spell on the chain opens a counter window of depth 1:
    every other player, in seat order starting after the caster, may COUNTER
    it (discarding a counter card from hand, face up) or PASS. The window is
    offered to all of them whatever they hold; the answers stay secret until
    the window closes (when all have answered, or at its deadline, which
    passes for the silent).
R5  Closing. When a window closes, its answers take effect one at a time in
    the window's order. A PASS does nothing. A COUNTER goes onto the chain
    above what it counters and opens a counter window over it, one deeper:
    every player but the counterer, in seat order starting after the
    counterer. The rest of the lower window waits (suspended) until the chain
    above it is settled.
R6  Depth. A COUNTER in a window of depth 3 cannot be answered: it stands at
    once (there is no window of depth 4).
R7  Settling. When every answer of a window has taken effect without a
    COUNTER, what it asks about stands. The chain settles from the top: a
    standing counter cancels the spell or counter just below it, and both
    leave the chain. The window that asked about the cancelled card is over:
    the answers still waiting in it are not needed (the judge gives them back
    to their writers). The window below that one goes on where it was
    suspended, since what it asks about survived; if it has no answers left,
    what it asks about stands in turn.
R8  Resolution. The spell is cancelled when a counter right above it stands.
    It resolves when its own window of depth 1 ends without a standing
    counter: it deals its value to the target, who loses that much life. Then
    the player whose turn it was draws the top card of the deck (only the
    drawer sees it), and the next player in seat order takes a turn.
R9  End. The game ends after the last round (option ``rounds``; a round is
    one turn of every player), or when a player must draw and the deck is
    empty. The player with the most life wins; players tied for the most
    share a draw.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence

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
    PolicyCondition,
    Role,
    State,
    VerbSpec,
    WindowSpec,
    Zone,
    conjuncts,
    private,
    public,
)
from judge.game.rng import Rng
from judge.game.spec import Game, GameSpec, Policy

SEATS: tuple[Role, ...] = ("Amber", "Beryl", "Coral", "Dusk", "Ember")
COUNTER = "C"
SPELL_VALUES: range = range(1, 7)
SPELL_COPIES = 4
COUNTER_COPIES = 16
HAND_SIZE = 5
START_LIFE = 20
MAX_DEPTH = 3
WINDOW = "counter"

TURN_STAGE = "turn"
COUNTER_STAGE = "counter"
OVER_STAGE = "over"

_SPELL = re.compile(r"S?([1-6])", re.IGNORECASE | re.ASCII)


# --------------------------------------------------------------------------- cards


def full_deck() -> list[str]:
    """The 40 cards of R1, in a fixed order."""
    spells = [f"S{v}" for v in SPELL_VALUES for _ in range(SPELL_COPIES)]
    return [COUNTER] * COUNTER_COPIES + spells


def spell_value(card: str) -> int:
    """The value of a spell card ``S4`` (R1); 0 for a counter."""
    return int(card[1:]) if card.startswith("S") else 0


def _thing(item: Mapping[str, JSON]) -> str:
    """A chain item as the rules name it: ``S4 at Coral`` or ``counter``."""
    if item["card"] == COUNTER:
        return "counter"
    return f"{item['card']} at {item['target']}"


# --------------------------------------------------------------------------- the game


class Counterspell:
    """The test-only game. Stateless: every method works on the state it is
    given and returns new objects, never changing its arguments."""

    id: str = "counterspell"
    title: str = "Counterspell"
    aliases: tuple[str, ...] = ("counter-spell",)
    options: tuple[OptionSpec, ...] = (
        OptionSpec("players", 4, "number of players (3-5)", (3, 4, 5)),
        OptionSpec("rounds", 3, "number of rounds (1-6)", tuple(range(1, 7))),
    )
    verbs: tuple[VerbSpec, ...] = (
        VerbSpec("CAST <spell> AT <player>",
                 "on your turn, cast a spell card from your hand at another player",
                 "CAST S4 AT Coral"),
        VerbSpec("COUNTER", "in a counter window: counter what it asks about, discarding "
                 "a counter card", "COUNTER"),
        VerbSpec("PASS", "on your turn: cast nothing; in a counter window: let it stand",
                 "PASS"),
    )
    view_schema: str = "counterspell-view.schema.json"
    windows: tuple[WindowSpec, ...] = (
        WindowSpec(
            WINDOW,
            "may the spell or counter on top of the chain be countered (R4-R7); "
            "conditions may be joined by AND, all of them must hold",
            ("COUNTER",),
            (
                PolicyCondition("TARGET", "ME", "the spell of the chain is cast at me"),
                PolicyCondition("HOLDING", "COUNTER", "I hold a counter card",
                                private=True),
                PolicyCondition("DEPTH", "<1-3>", "the window has that depth"),
                PolicyCondition("BY", "<player>",
                                "what the window asks about was played by that player"),
            ),
        ),
    )

    # ------------------------------------------------------------------ setup

    def setup(self, options: Mapping[str, JSON], rng: Rng) -> State:
        """A new game (R2). ``options`` may omit names; defaults fill them in."""
        players = int(options.get("players", 4))
        rounds = int(options.get("rounds", 3))
        if players not in (3, 4, 5):
            raise ValueError("Counterspell takes 3 to 5 players")
        if not 1 <= rounds <= 6:
            raise ValueError("Counterspell takes 1 to 6 rounds")
        seats = list(SEATS[:players])
        deck = full_deck()
        rng.shuffle(deck, "shuffle:deck")  # R2: shuffle the deck
        hands: dict[str, list[str]] = {r: [] for r in seats}
        for _ in range(HAND_SIZE):  # R2: one card at a time, in seat order
            for r in seats:
                hands[r].append(deck.pop(0))
        return {
            "players": seats,
            "rounds": rounds,
            "round": 1,
            "turn": 1,
            "active": seats[0],  # R2: Amber begins
            "stage": TURN_STAGE,
            "hands": {r: sorted(h) for r, h in hands.items()},
            "deck": deck,
            "discards": [],
            "life": dict.fromkeys(seats, START_LIFE),
            "chain": [],
            "windows": [],
            "counters": [],
            "serial": 0,
            "history": [],
            "end": "",
        }

    def roles(self, state: State) -> list[Role]:
        return list(state["players"])

    # ------------------------------------------------------------------ decisions

    @staticmethod
    def _window_name(state: State, window: Mapping[str, JSON]) -> str:
        """``window 2 (depth 2) on Coral's counter``."""
        depth = int(window["depth"])
        item = state["chain"][depth - 1]
        return f"window {window['serial']} (depth {depth}) on {item['by']}'s {_thing(item)}"

    def _window_phase(self, state: State, window: Mapping[str, JSON]) -> str:
        """The name of a window's decision: fixed while the window is open,
        new for every window (each has a serial number)."""
        return f"turn {state['turn']}: {self._window_name(state, window)}"

    def _phase(self, state: State) -> str:
        stage = state["stage"]
        if stage == TURN_STAGE:
            return f"turn {state['turn']}: {state['active']} to cast or pass"
        if stage == COUNTER_STAGE:
            top = next(w for w in reversed(state["windows"]) if w["roles"])
            return self._window_phase(state, top)
        return "game over"

    def _window_decision(self, state: State, window: Mapping[str, JSON]) -> Decision:
        depth = int(window["depth"])
        item = state["chain"][depth - 1]
        spell = state["chain"][0]
        what = f"{item['by']}'s {_thing(item)}"
        return Decision(
            DecisionKind.RESPONSE,
            tuple(window["roles"]),
            self._window_phase(state, window),
            prompt=f"COUNTER {what} (discarding a counter card) or PASS",
            default="pass",
            window=WINDOW,
            depth=depth,
            context={
                "depth": depth,
                "window": window["serial"],
                "by": item["by"],
                "countering": "counter" if item["card"] == COUNTER else "spell",
                "caster": spell["by"],
                "spell": spell["card"],
                "value": spell["value"],
                "target": spell["target"],
            },
        )

    def pending(self, state: State) -> list[Decision]:
        """The open decision first: during a chain, the windows from the top
        down; a window that has no answer left to take is not listed (R5)."""
        stage = state["stage"]
        if stage == TURN_STAGE:
            return [Decision(DecisionKind.ACTION, (state["active"],), self._phase(state),
                             prompt="CAST a spell from your hand at another player, or PASS",
                             default="pass")]
        if stage == COUNTER_STAGE:
            return [self._window_decision(state, w)
                    for w in reversed(state["windows"]) if w["roles"]]
        return []

    def _top(self, state: State) -> dict[str, JSON] | None:
        """The window open now (R5: the deepest one)."""
        if state["stage"] != COUNTER_STAGE or not state["windows"]:
            return None
        top: dict[str, JSON] = state["windows"][-1]
        return top

    def default(self, state: State, decision: Decision, role: Role) -> Action | None:
        """R3 and R4: the deadline passes. ``None`` unless ``decision`` is open
        now and ``role`` still owes it an answer."""
        if decision.phase != self._phase(state):
            return None
        stage = state["stage"]
        if stage == TURN_STAGE and role == state["active"]:
            return _pass()
        top = self._top(state)
        if top is not None and role in top["roles"]:
            return _pass()
        return None

    # ------------------------------------------------------------------ parsing

    @staticmethod
    def _player(word: str, line: str) -> Role:
        low = word.lower()
        for seat in SEATS:
            if low in (seat.lower(), seat[0].lower()):
                return seat
        raise InvalidLine(f"there is no player called {word!r}", line=line,
                          hint=", ".join(SEATS))

    def parse(self, state: State, role: Role, line: str) -> Action:
        """Parse one command line of ``role``. Case and spacing do not matter;
        a player may be named by its initial, a spell by its value.

        Raises InvalidLine (not a Counterspell command) or IllegalLine (a
        command the rules do not allow ``role`` now). The returned action's
        ``text`` parses to the same action.
        """
        words = line.split()
        if not words:
            raise InvalidLine("empty line", line=line)
        verb = words[0].upper()
        args = words[1:]
        # First: is it a command at all? (INVALID, whatever the state.)
        if verb == "CAST":
            if len(args) == 3 and args[1].upper() == "AT":
                args = [args[0], args[2]]
            m = _SPELL.fullmatch(args[0]) if len(args) == 2 else None
            if m is None:
                raise InvalidLine("CAST needs a spell S1-S6 and a player",
                                  line=line, hint="for example CAST S4 AT Coral")
            card = f"S{m.group(1)}"
            target = self._player(args[1], line)
        elif verb in ("COUNTER", "PASS"):
            if args:
                raise InvalidLine(f"{verb} takes nothing after it", line=line, hint=verb)
        else:
            raise InvalidLine("not understood", line=line,
                              hint="Counterspell knows CAST, COUNTER and PASS")
        # Then: do the rules allow it now? (ILLEGAL.)
        stage = state["stage"]
        if stage == OVER_STAGE:
            raise IllegalLine("the game is over", line=line)
        if role not in state["players"]:
            raise IllegalLine(f"{role} is not playing", line=line)
        hand: list[str] = state["hands"][role]
        top = self._top(state)
        if verb == "CAST":
            if stage != TURN_STAGE or role != state["active"]:
                raise IllegalLine(f"it is not your turn to cast (it is {state['active']}'s)"
                                  if stage == TURN_STAGE else "a chain is being settled",
                                  line=line)
            if card not in hand:
                raise IllegalLine(f"you hold no {card}", line=line)
            if target not in state["players"]:
                raise IllegalLine(f"{target} is not playing", line=line)
            if target == role:
                raise IllegalLine("a spell is cast at another player", line=line)
            return Action(f"CAST {card} AT {target}",
                          data={"verb": "CAST", "card": card, "target": target})
        if verb == "PASS" and stage == TURN_STAGE:
            if role != state["active"]:
                raise IllegalLine(f"it is {state['active']}'s turn, not yours", line=line)
            return _pass()
        if top is None or role not in top["roles"]:
            raise IllegalLine("no counter window is asking you now", line=line)
        if verb == "PASS":
            return _pass()
        if COUNTER not in hand:
            raise IllegalLine("you hold no counter card", line=line, hint="PASS")
        return Action("COUNTER", data={"verb": "COUNTER"})

    def legal(self, state: State, role: Role) -> list[str]:
        """Every line ``role`` could send now (canonical texts)."""
        if role not in state["players"]:
            return []
        hand: list[str] = state["hands"][role]
        if state["stage"] == TURN_STAGE and role == state["active"]:
            spells = sorted({c for c in hand if c != COUNTER})
            targets = [r for r in state["players"] if r != role]
            return ["PASS"] + [f"CAST {s} AT {t}" for s in spells for t in targets]
        top = self._top(state)
        if top is not None and role in top["roles"]:
            return ["PASS"] + (["COUNTER"] if COUNTER in hand else [])
        return []

    # ------------------------------------------------------------------ standing answers

    def policy_condition(self, window: str, words: Sequence[str]) -> str:
        """``TARGET ME``, ``HOLDING COUNTER``, ``DEPTH <n>``, ``BY <player>``,
        several joined by ``AND``; the canonical text is upper case with
        players spelt out (``TARGET ME AND DEPTH 1``)."""
        if window != WINDOW:
            raise IllegalLine(f"there is no {window} window", hint=f"windows: {WINDOW}")
        hint = "conditions: TARGET ME, HOLDING COUNTER, DEPTH <1-3>, BY <player>, joined by AND"
        out: list[str] = []
        for clause in conjuncts(words):
            up = [w.upper() for w in clause]
            if up in (["TARGET", "ME"], ["HOLDING", "COUNTER"]):
                out.append(" ".join(up))
            elif len(up) == 2 and up[0] == "DEPTH" and up[1] in ("1", "2", "3"):
                out.append(f"DEPTH {up[1]}")
            elif len(up) == 2 and up[0] == "BY":
                try:
                    out.append(f"BY {self._player(clause[1], ' '.join(words))}")
                except InvalidLine:
                    raise IllegalLine(f"{clause[1]!r} is not a player", hint=hint) from None
            else:
                raise IllegalLine(f"{' '.join(clause) or 'nothing'!r} is not a condition of "
                                  "counter windows", hint=hint)
        return " AND ".join(out)

    def policy_holds(self, view: Mapping[str, JSON], decision: Decision, condition: str) -> bool:
        """Every clause of ``condition`` holds for the reader of ``view``,
        tested on that view and the decision's context alone."""
        for clause in condition.split(" AND "):
            word, _, arg = clause.partition(" ")
            if word == "TARGET":
                ok = decision.context.get("target") == view.get("role")
            elif word == "HOLDING":
                ok = COUNTER in (view.get("hand") or [])
            elif word == "DEPTH":
                ok = str(decision.depth) == arg
            elif word == "BY":
                ok = decision.context.get("by") == arg
            else:
                ok = False
            if not ok:
                return False
        return True

    # ------------------------------------------------------------------ transitions

    def act(self, state: State, role: Role, action: Action, rng: Rng) -> tuple[State, list[Event]]:
        """CAST / PASS on a turn (R3), COUNTER / PASS in a window (R5-R8).
        Raises IllegalLine if the action no longer fits (it is parsed again
        against ``state``). The judge takes a window's answers in the
        window's order (R5); this method takes the one it is given."""
        checked = self.parse(state, role, action.text)
        verb = checked.data["verb"]
        new = copy.deepcopy(state)
        events: list[Event] = []
        if new["stage"] == TURN_STAGE:
            if verb == "PASS":
                events.append(public(f"{role} passes the turn.", player=role))
                new["history"].append(self._record(new, None, "passed"))
                self._end_turn(new, events)
            else:
                self._cast(new, role, checked.data, events)
            return new, events
        top = new["windows"][-1]
        top["roles"].remove(role)
        depth = int(top["depth"])
        if verb == "PASS":
            events.append(public(f"{role} passes in window {top['serial']}.",
                                 player=role, window=top["serial"], answer="PASS"))
            if not top["roles"]:
                self._settle(new, events)  # R7: what the window asks about stands
            return new, events
        # R5: a counter goes onto the chain and opens a window over it.
        below = new["chain"][depth - 1]
        new["hands"][role].remove(COUNTER)
        new["discards"].append(COUNTER)
        new["chain"].append({"by": role, "card": COUNTER, "target": None, "value": 0})
        new["counters"].append({"by": role, "depth": depth, "window": top["serial"]})
        events.append(public(f"{role} counters {below['by']}'s {_thing(below)} "
                             f"(window {top['serial']}, depth {depth}).",
                             player=role, window=top["serial"], answer="COUNTER"))
        if depth < MAX_DEPTH:
            self._open_window(new, role, events)
        else:
            # R6: a counter at depth 3 cannot be answered; it stands at once.
            events.append(public(f"{role}'s counter at depth {depth} cannot be answered."))
            self._settle(new, events)
        return new, events

    def _cast(self, state: State, role: Role, data: Mapping[str, JSON],
              events: list[Event]) -> None:
        """R3 and R4: the spell goes onto the chain; its window opens."""
        card = str(data["card"])
        target = str(data["target"])
        state["hands"][role].remove(card)
        state["chain"] = [{"by": role, "card": card, "target": target,
                           "value": spell_value(card)}]
        state["windows"] = []
        state["stage"] = COUNTER_STAGE
        events.append(public(f"{role} casts {card} at {target}.", player=role, card=card,
                             target=target))
        self._open_window(state, role, events)

    def _open_window(self, state: State, after: Role, events: list[Event]) -> None:
        """R4, R5: a window over the top of the chain, for every player but
        ``after``, in seat order starting after ``after``."""
        players: list[str] = state["players"]
        i = players.index(after)
        roles = [players[(i + k) % len(players)] for k in range(1, len(players))]
        state["serial"] += 1
        window = {"serial": state["serial"], "depth": len(state["windows"]) + 1,
                  "roles": roles, "offered": list(roles)}
        state["windows"].append(window)
        name = self._window_name(state, window)
        events.append(public(f"{name[0].upper()}{name[1:]} opens: {', '.join(roles)} "
                             "answer, in that order.",
                             window=window["serial"], depth=window["depth"]))

    def _settle(self, state: State, events: list[Event]) -> None:
        """R7 and R8: the top of the chain stands; settle it and what it
        cancels, until a window goes on or the chain is over."""
        chain: list[dict[str, JSON]] = state["chain"]
        windows: list[dict[str, JSON]] = state["windows"]
        while True:
            k = len(chain) - 1
            if k == 0:
                spell = chain[0]
                target = str(spell["target"])
                value = int(spell["value"])
                state["life"][target] -= value
                events.append(public(f"{spell['by']}'s {spell['card']} resolves: {target} "
                                     f"loses {value} life.", target=target, value=value))
                self._finish_chain(state, spell, "resolved", events)
                return
            over = windows[k - 1]
            counter, cancelled = chain.pop(), chain.pop()
            del windows[k - 1:]  # the windows over both cards are over
            events.append(public(f"{counter['by']}'s counter stands and cancels "
                                 f"{cancelled['by']}'s {_thing(cancelled)}; window "
                                 f"{over['serial']} is over.",
                                 by=counter["by"], cancelled=cancelled["by"],
                                 window=over["serial"]))
            if k == 1:
                self._finish_chain(state, cancelled, "countered", events)
                return
            top = windows[-1]
            if top["roles"]:
                events.append(public(f"Window {top['serial']} goes on: "
                                     f"{', '.join(top['roles'])} still to answer.",
                                     window=top["serial"]))
                return

    def _record(self, state: State, spell: Mapping[str, JSON] | None,
                result: str) -> dict[str, JSON]:
        return {
            "turn": state["turn"],
            "round": state["round"],
            "player": state["active"],
            "spell": None if spell is None else spell["card"],
            "target": None if spell is None else spell["target"],
            "counters": list(state["counters"]),
            "result": result,
        }

    def _finish_chain(self, state: State, spell: Mapping[str, JSON], result: str,
                      events: list[Event]) -> None:
        """R8: the chain is over (the spell resolved or was cancelled: either
        way it goes to the discards); the turn ends."""
        state["discards"].append(spell["card"])
        state["history"].append(self._record(state, spell, result))
        state["chain"] = []
        state["windows"] = []
        state["counters"] = []
        self._end_turn(state, events)

    def _end_turn(self, state: State, events: list[Event]) -> None:
        """R8 and R9: draw, then the next turn or the end."""
        player: str = state["active"]
        if not state["deck"]:
            self._game_over(state, events, f"{player} must draw and the deck is empty")
            return
        card = state["deck"].pop(0)
        state["hands"][player] = sorted([*state["hands"][player], card])
        events.append(private(player, f"You draw {card}.", card=card))
        events.append(public(f"{player} draws a card.", player=player))
        players: list[str] = state["players"]
        nxt = players[(players.index(player) + 1) % len(players)]
        if nxt == players[0]:
            if state["round"] >= state["rounds"]:
                self._game_over(state, events, f"all {state['rounds']} rounds played")
                return
            state["round"] += 1
        state["turn"] += 1
        state["active"] = nxt
        state["stage"] = TURN_STAGE
        events.append(public(f"Turn {state['turn']}: {nxt} to cast or pass.", player=nxt))

    def _game_over(self, state: State, events: list[Event], why: str) -> None:
        state["stage"] = OVER_STAGE
        state["end"] = why
        result = self.outcome(state)
        assert result is not None
        verdict = ("a draw between " + ", ".join(result.winners) if result.draw
                   else f"{result.winners[0]} wins")
        events.append(public(f"The game ends ({why}): {verdict}.", reason=why))

    def resolve(self, state: State, orders: Mapping[Role, Sequence[Action]],
                rng: Rng) -> tuple[State, list[Event]]:
        """Counterspell has no simultaneous decisions."""
        raise IllegalLine("Counterspell has no orders to resolve")

    # ------------------------------------------------------------------ views

    def turn(self, state: State) -> str:
        """The game turn: one player's turn with its whole chain (R3-R8)."""
        return "over" if state["stage"] == OVER_STAGE else f"turn {state['turn']}"

    def view(self, state: State, role: Role | None) -> dict[str, JSON]:
        """What ``role`` may know: its own hand, everyone's hand size, the size
        of the deck, and the public record (life, discards, the chain and its
        windows, past turns). ``None`` (an observer) sees no hand at all."""
        players: list[str] = state["players"]
        out: dict[str, JSON] = {
            "game": self.id,
            "phase": self._phase(state),
            "role": role,
            "players": list(players),
            "round": state["round"],
            "rounds": state["rounds"],
            "turn": state["turn"],
            "active": state["active"],
            "stage": state["stage"],
            "life": dict(state["life"]),
            "hand_counts": {r: len(state["hands"][r]) for r in players},
            "deck_count": len(state["deck"]),
            "discards": list(state["discards"]),
            "chain": copy.deepcopy(state["chain"]),
            "windows": copy.deepcopy(state["windows"]),
            "history": copy.deepcopy(state["history"]),
            "end": state["end"],
        }
        if role is not None and role in players:
            out["hand"] = sorted(state["hands"][role])
        return out

    def zones(self, state: State) -> list[Zone]:
        """R1, R2: each hand is seen by its owner, the deck by nobody (its
        order too); all of them hold cards of one pool."""
        hands = [Zone(("hands", r), frozenset({r}), "cards") for r in state["players"]]
        return [*hands, Zone(("deck",), frozenset(), "cards", order_hidden=True)]

    def outcome(self, state: State) -> Outcome | None:
        """R9: the most life wins; a tie for the most is a shared draw."""
        if state["stage"] != OVER_STAGE:
            return None
        best = max(state["life"].values())
        top = tuple(r for r in state["players"] if state["life"][r] == best)
        return Outcome(winners=top, draw=len(top) > 1, reason=state["end"])

    # ------------------------------------------------------------------ noninterference

def _pass() -> Action:
    return Action("PASS", data={"verb": "PASS"})


def record(rules: Counterspell) -> GameSpec:
    """The game's record over its rules object (a test may change the
    object's class to break one rule on purpose)."""
    return GameSpec(
        id=rules.id, title=rules.title, aliases=rules.aliases, options=rules.options,
        verbs=rules.verbs, view_schema=rules.view_schema,
        setup=rules.setup, roles=rules.roles, pending=rules.pending, parse=rules.parse,
        legal=rules.legal, view=rules.view, outcome=rules.outcome, act=rules.act,
        resolve=rules.resolve, default=rules.default, turn=rules.turn, zones=rules.zones,
        policy=Policy(windows=rules.windows, condition=rules.policy_condition,
                      holds=rules.policy_holds),
    )


SPEC = record(Counterspell())
"""The game's record."""

GAME = Game(SPEC)
"""The game as the judge plays it (``judge.game.registry.register(GAME)`` in tests)."""

__all__ = ["GAME", "SEATS", "SPEC", "Counterspell", "full_deck", "record", "spell_value"]

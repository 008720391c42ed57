"""Sealed Bids: a small test-only game that exercises the whole game contract.

It has hidden hands, a simultaneous phase, a single action, a response window
offered to every seat, dice, a shuffled deck and an end. The contract suite in
``tests/contract/`` runs over it until the real games exist, and goes on
running over it afterwards. It is not served by the judge (it is not in
``judge.game.registry.BUILTIN``); tests and bench/mail_throughput.py
:func:`judge.game.registry.register` it and call
:func:`tests.games.add_report_files`, which lets :mod:`judge.reports` find its
view schema and templates (kept beside this module, in
``sealed-bids-view.schema.json`` and ``templates/sealed_bids/``).

The rules (the comments in the code cite them by number):

R1  Seats and cards. Two to four players sit as North, East, South and West, in
    that order. The deck has 40 cards: values 1 to 10 in the suits H, S, D and
    C, written value then suit (``7H``, ``10C``).
R2  Setup. Shuffle the deck. Deal six cards to each player, one at a time in
    seat order. The rest is the draw pile, face down. Turn its top card face up:
    the prize of round 1.
R3  Bidding. All players bid at once: each secretly chooses one card from hand
    (``BID 7H``) and may change it until the deadline. A player who has not bid
    by then bids the lowest card in hand (lowest value; among equal values the
    first in suit order H, S, D, C). Then every bid is revealed and the bid
    cards go face up onto the discard pile.
R4  Winning the bid. The highest value wins; suits do not count. Players tied
    for the highest value each roll a die; the highest roll wins, and players
    still tied roll again.
R5  Drawing. Then every bidder, in seat order, draws the top card of the draw
    pile, if one is left. Only the drawer sees the card.
R6  Award. The winner of the bid must KEEP the prize (scoring its value) or
    GIVE it to another player. At the deadline the winner keeps it.
R7  Refusal. When the prize is given, every player is offered a response
    window, so that nobody learns who could have refused. The receiver may
    REFUSE it by discarding a card of value 1 from hand; the refused prize goes
    to the discard pile and scores for nobody. Everyone else, and a receiver
    without a 1, may only PASS, which is also what the deadline does. Answers
    stay secret until the window closes (when all have answered, or at the
    deadline). If nobody refused, the receiver scores the prize.
R8  Next round. After the award, turn the next prize from the draw pile and
    bid again (R3).
R9  End. The game ends after the last round (option ``rounds``), or earlier
    when no prize can be turned because the draw pile is empty, or when a
    player has no card left to bid. The highest score wins; players tied for
    the highest score share a draw.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence

from judge.game.engine import (
    JSON,
    Action,
    AmbiguousLine,
    Decision,
    DecisionKind,
    Event,
    IllegalLine,
    InvalidLine,
    OptionSpec,
    Outcome,
    Role,
    State,
    VerbSpec,
    WindowSpec,
    Zone,
    private,
    public,
)
from judge.game.rng import Rng
from judge.game.spec import Game, GameSpec, Policy

SEATS: tuple[Role, ...] = ("North", "East", "South", "West")
SUITS: str = "HSDC"
VALUES: range = range(1, 11)
HAND_SIZE = 6

_CARD = re.compile(r"^(10|[1-9])([HSDC])?$", re.IGNORECASE)

BID_STAGE = "bid"
AWARD_STAGE = "award"
RESPOND_STAGE = "respond"
OVER_STAGE = "over"


# --------------------------------------------------------------------------- cards


def card_value(card: str) -> int:
    """The value of a card written like ``7H`` (R1)."""
    return int(card[:-1])


def card_key(card: str) -> tuple[int, int]:
    """Sort order: value, then suit order H, S, D, C (R1, R3)."""
    return card_value(card), SUITS.index(card[-1])


def full_deck() -> list[str]:
    """The 40 cards of R1, in a fixed order."""
    return [f"{v}{s}" for s in SUITS for v in VALUES]


def _sorted(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=card_key)


# --------------------------------------------------------------------------- the game


class SealedBids:
    """The test-only game. Stateless: every method works on the state it is given
    and returns new objects, never changing its arguments."""

    id: str = "sealed_bids"
    title: str = "Sealed Bids"
    aliases: tuple[str, ...] = ("sealedbids", "bids")
    options: tuple[OptionSpec, ...] = (
        OptionSpec("players", 3, "number of players (2-4)", (2, 3, 4)),
        OptionSpec("rounds", 5, "number of rounds (1-10)", tuple(range(1, 11))),
    )
    verbs: tuple[VerbSpec, ...] = (
        VerbSpec("BID <card>", "secretly bid a card from your hand for the prize", "BID 7H"),
        VerbSpec("KEEP", "keep the prize you won", "KEEP"),
        VerbSpec("GIVE <player>", "give the prize you won to another player", "GIVE South"),
        VerbSpec("REFUSE [<card>]", "refuse a prize given to you by discarding a 1", "REFUSE 1S"),
        VerbSpec("PASS", "let a gift stand", "PASS"),
    )
    view_schema: str = "sealed-bids-view.schema.json"
    #: The response window of R7, for standing answers (``POLICY gift PASS``).
    windows: tuple[WindowSpec, ...] = (
        WindowSpec("gift", "a prize given to a player (R7): the receiver may REFUSE it",
                   ("REFUSE",)),
    )
    #: Lines sent with nothing to decide are refused, not queued.
    queues_actions: bool = False
    #: Options the contract suite uses for random playthroughs (the defaults end).
    playthrough_options: Mapping[str, JSON] = {}
    #: Option sets whose seeded random playthroughs end with one winner.
    victory_playthroughs: Sequence[Mapping[str, JSON]] = (
        {"players": 2},
        {"players": 3},
        {"players": 4},
    )

    # ------------------------------------------------------------------ setup

    def setup(self, options: Mapping[str, JSON], rng: Rng) -> State:
        """A new game (R2). ``options`` may omit names; defaults fill them in."""
        players = int(options.get("players", 3))
        rounds = int(options.get("rounds", 5))
        if players not in (2, 3, 4):
            raise ValueError("Sealed Bids takes 2 to 4 players")
        if not 1 <= rounds <= 10:
            raise ValueError("Sealed Bids takes 1 to 10 rounds")
        seats = list(SEATS[:players])
        deck = full_deck()
        rng.shuffle(deck, "shuffle:deck")  # R2: shuffle the deck
        hands: dict[str, list[str]] = {r: [] for r in seats}
        for _ in range(HAND_SIZE):  # R2: one card at a time, in seat order
            for r in seats:
                hands[r].append(deck.pop(0))
        prize = deck.pop(0)  # R2: the prize of round 1
        return {
            "players": seats,
            "rounds": rounds,
            "round": 1,
            "stage": BID_STAGE,
            "hands": {r: _sorted(h) for r, h in hands.items()},
            "pile": deck,
            "prize": prize,
            "scores": {r: 0 for r in seats},
            "won": {r: [] for r in seats},
            "discards": [],
            "history": [],
            "winner": None,
            "receiver": None,
            "answers": {},
            "end": "",
        }

    def roles(self, state: State) -> list[Role]:
        return list(state["players"])

    # ------------------------------------------------------------------ decisions

    def _phase(self, state: State) -> str:
        n = state["round"]
        stage = state["stage"]
        if stage == BID_STAGE:
            return f"round {n}: bids"
        if stage == AWARD_STAGE:
            return f"round {n}: {state['winner']} to keep or give"
        if stage == RESPOND_STAGE:
            # The same name for the whole window: who has answered is secret (R7).
            return f"round {n}: answers to the gift"
        return "game over"

    def turn(self, state: State) -> str:
        """A round (R3-R8) is the game turn: each seat's digest comes once a round."""
        return "over" if state["stage"] == OVER_STAGE else f"round {state['round']}"

    def pending(self, state: State) -> list[Decision]:
        stage = state["stage"]
        phase = self._phase(state)
        if stage == BID_STAGE:
            return [
                Decision(
                    DecisionKind.ORDERS,
                    tuple(state["players"]),
                    phase,
                    prompt=f"bid a card for the prize {state['prize']}",
                    default="your lowest card is bid",
                )
            ]
        if stage == AWARD_STAGE:
            return [
                Decision(
                    DecisionKind.ACTION,
                    (state["winner"],),
                    phase,
                    prompt=f"KEEP the prize {state['prize']} or GIVE it to another player",
                    default="keep",
                )
            ]
        if stage == RESPOND_STAGE:
            waiting = tuple(r for r in state["players"] if r not in state["answers"])
            return [
                Decision(
                    DecisionKind.RESPONSE,
                    waiting,
                    phase,
                    prompt=(
                        f"{state['receiver']} was given the prize {state['prize']}: "
                        "REFUSE (the receiver, with a 1) or PASS"
                    ),
                    default="pass",
                    window="gift",
                )
            ]
        return []

    def default(self, state: State, decision: Decision, role: Role) -> Action | None:
        """R3: the lowest card; R6: KEEP; R7: PASS. ``None`` if ``role`` owes nothing."""
        stage = state["stage"]
        if stage == BID_STAGE and role in state["players"] and state["hands"][role]:
            return self._bid_action(_sorted(state["hands"][role])[0])
        if stage == AWARD_STAGE and role == state["winner"]:
            return Action("KEEP", data={"verb": "KEEP"})
        if stage == RESPOND_STAGE and role in state["players"] and role not in state["answers"]:
            return Action("PASS", data={"verb": "PASS"})
        return None

    # ------------------------------------------------------------------ parsing

    @staticmethod
    def _bid_action(card: str) -> Action:
        return Action(f"BID {card}", key="bid", data={"verb": "BID", "card": card})

    def _role_named(self, word: str, line: str) -> Role:
        low = word.lower()
        for seat in SEATS:
            if low in (seat.lower(), seat[0].lower()):
                return seat
        raise InvalidLine(
            f"there is no player called {word!r}", line=line, hint="North, East, South or West"
        )

    @staticmethod
    def _card_spec(words: Sequence[str], verb: str, line: str) -> tuple[int, str | None]:
        """A card written ``7H``, ``7 H`` or ``7`` (no suit): (value, suit or None).
        Raises InvalidLine for anything else."""
        ok = len(words) == 1 or (len(words) == 2 and len(words[1]) == 1)
        m = _CARD.match("".join(words)) if ok else None
        if m is None:
            raise InvalidLine(
                f"{verb} needs a card: a value 1-10 and a suit H, S, D or C",
                line=line,
                hint=f"for example {verb} 7H",
            )
        suit = m.group(2)
        return int(m.group(1)), None if suit is None else suit.upper()

    @staticmethod
    def _match_card(hand: Sequence[str], value: int, suit: str | None, verb: str, line: str) -> str:
        """The one card of ``hand`` meant by (value, suit); graded errors otherwise."""
        if suit is not None:
            card = f"{value}{suit}"
            if card not in hand:
                raise IllegalLine(f"you do not hold {card}", line=line)
            return card
        matches = [c for c in _sorted(hand) if card_value(c) == value]
        if not matches:
            raise IllegalLine(f"you hold no card of value {value}", line=line)
        if len(matches) > 1:
            raise AmbiguousLine(
                f"you hold more than one {value}",
                line=line,
                choices=[f"{verb} {c}" for c in matches],
            )
        return matches[0]

    def parse(self, state: State, role: Role, line: str) -> Action:
        """Parse one command line of ``role``. Case and spacing do not matter.

        Raises InvalidLine (not a Sealed Bids command), IllegalLine (a command the
        rules do not allow ``role`` now) or AmbiguousLine (``BID 7`` or ``REFUSE``
        with two matching cards in hand; the choices are the canonical lines).
        The returned action's ``text`` parses to the same action.
        """
        words = line.split()
        if not words:
            raise InvalidLine("empty line", line=line)
        verb = words[0].upper()
        args = words[1:]
        # First: is it a command at all? (Grade INVALID, independent of the state.)
        if verb == "BID":
            value, suit = self._card_spec(args, verb, line)
        elif verb == "REFUSE":
            value, suit = self._card_spec(args, verb, line) if args else (1, None)
        elif verb in ("KEEP", "PASS"):
            if args:
                raise InvalidLine(f"{verb} takes nothing after it", line=line)
        elif verb == "GIVE":
            if len(args) != 1:
                raise InvalidLine("GIVE takes one player", line=line, hint="GIVE South")
            target = self._role_named(args[0], line)
        else:
            raise InvalidLine(
                "not understood", line=line, hint="Sealed Bids knows BID, KEEP, GIVE, REFUSE, PASS"
            )
        # Then: do the rules allow it now? (Grade ILLEGAL or AMBIGUOUS.)
        stage = state["stage"]
        if stage == OVER_STAGE:
            raise IllegalLine("the game is over", line=line)
        if role not in state["players"]:
            raise IllegalLine(f"{role} is not playing", line=line)
        hand: list[str] = state["hands"][role]
        if verb == "BID":
            if stage != BID_STAGE:
                raise IllegalLine("bids are not open now", line=line)
            return self._bid_action(self._match_card(hand, value, suit, verb, line))
        if verb in ("KEEP", "GIVE"):
            if stage != AWARD_STAGE:
                raise IllegalLine("there is no prize to keep or give now", line=line)
            if role != state["winner"]:
                raise IllegalLine(f"only {state['winner']} may keep or give the prize", line=line)
            if verb == "KEEP":
                return Action("KEEP", data={"verb": "KEEP"})
            if target not in state["players"]:
                raise IllegalLine(f"{target} is not playing", line=line)
            if target == role:
                raise IllegalLine("you cannot give the prize to yourself", line=line, hint="KEEP")
            return Action(f"GIVE {target}", data={"verb": "GIVE", "to": target})
        # PASS or REFUSE: the response window of R7.
        if stage != RESPOND_STAGE:
            raise IllegalLine("no gift is waiting for an answer", line=line)
        if role in state["answers"]:
            raise IllegalLine("you have already answered", line=line)
        if verb == "PASS":
            return Action("PASS", data={"verb": "PASS"})
        if role != state["receiver"]:
            raise IllegalLine(
                f"only {state['receiver']}, who was given the prize, may refuse it", line=line
            )
        if value != 1:
            raise IllegalLine("only a card of value 1 can refuse a prize", line=line)
        card = self._match_card(hand, value, suit, verb, line)
        return Action(f"REFUSE {card}", data={"verb": "REFUSE", "card": card})

    def legal(self, state: State, role: Role) -> list[str]:
        """Every line ``role`` could send now (canonical texts)."""
        stage = state["stage"]
        if role not in state["players"]:
            return []
        hand = _sorted(state["hands"][role])
        if stage == BID_STAGE:
            return [f"BID {c}" for c in hand]
        if stage == AWARD_STAGE and role == state["winner"]:
            return ["KEEP"] + [f"GIVE {r}" for r in state["players"] if r != role]
        if stage == RESPOND_STAGE and role not in state["answers"]:
            lines = ["PASS"]
            if role == state["receiver"]:
                lines += [f"REFUSE {c}" for c in hand if card_value(c) == 1]
            return lines
        return []

    # ------------------------------------------------------------------ transitions

    def act(self, state: State, role: Role, action: Action, rng: Rng) -> tuple[State, list[Event]]:
        """KEEP / GIVE (R6) and PASS / REFUSE (R7). Raises IllegalLine if the
        action no longer fits (it is parsed again against ``state``)."""
        checked = self.parse(state, role, action.text)
        verb = checked.data["verb"]
        if verb == "BID":
            raise IllegalLine("bids are resolved together at the deadline", line=action.text)
        new = copy.deepcopy(state)
        events: list[Event] = []
        prize = new["prize"]
        if verb == "KEEP":
            # R6: the winner scores the prize.
            self._score(new, role, prize)
            new["history"][-1]["kept_by"] = role
            events.append(public(f"{role} keeps the prize {prize}.", role=role, prize=prize))
            self._next_round(new, events, rng)
        elif verb == "GIVE":
            # R6 then R7: a window for every player.
            to = checked.data["to"]
            new["history"][-1]["given_to"] = to
            new["stage"] = RESPOND_STAGE
            new["receiver"] = to
            new["answers"] = {}
            events.append(
                public(f"{role} gives the prize {prize} to {to}.", giver=role, to=to, prize=prize)
            )
        else:
            # R7: answers are secret until the window closes.
            new["answers"][role] = checked.text
            events.append(private(role, f"You answer {checked.text}.", answer=checked.text))
            if all(r in new["answers"] for r in new["players"]):
                self._close_window(new, events, rng)
        return new, events

    def resolve(
        self, state: State, orders: Mapping[Role, Sequence[Action]], rng: Rng
    ) -> tuple[State, list[Event]]:
        """Resolve the bids (R3-R5). Of several BID actions of one role the last
        counts; a role with none bids its lowest card (R3)."""
        if state["stage"] != BID_STAGE:
            raise IllegalLine("there are no bids to resolve now")
        new = copy.deepcopy(state)
        events: list[Event] = []
        bids: dict[str, str] = {}
        defaulted: list[str] = []
        for r in new["players"]:
            given = [a for a in orders.get(r, ()) if a.data.get("verb") == "BID"]
            if given:
                bids[r] = self.parse(new, r, given[-1].text).data["card"]
            else:
                # R3: the lowest card in hand.
                bids[r] = _sorted(new["hands"][r])[0]
                defaulted.append(r)
        # R3: all bids revealed, bid cards onto the discard pile.
        shown = ", ".join(
            f"{r} {bids[r]}" + (" (lowest card, no bid sent)" if r in defaulted else "")
            for r in new["players"]
        )
        events.append(public(f"Bids for the prize {new['prize']}: {shown}.", bids=bids))
        for r, card in bids.items():
            new["hands"][r].remove(card)
            new["discards"].append(card)
        # R4: highest value wins; ties are broken by dice.
        top = max(card_value(c) for c in bids.values())
        tied = [r for r in new["players"] if card_value(bids[r]) == top]
        rolls: list[dict[str, int]] = []
        while len(tied) > 1:
            roll = {r: rng.die(6, "die:tie") for r in tied}
            rolls.append(roll)
            events.append(
                public(
                    f"Tie at {top}: " + ", ".join(f"{r} rolls {n}" for r, n in roll.items()) + ".",
                    rolls=roll,
                )
            )
            best = max(roll.values())
            tied = [r for r in tied if roll[r] == best]
        winner = tied[0]
        events.append(public(f"{winner} wins the prize {new['prize']}.", winner=winner))
        new["history"].append(
            {
                "round": new["round"],
                "prize": new["prize"],
                "bids": bids,
                "defaulted": defaulted,
                "rolls": rolls,
                "winner": winner,
                "kept_by": None,
                "given_to": None,
                "refused_with": None,
            }
        )
        # R5: each bidder draws, in seat order, while the pile lasts.
        for r in new["players"]:
            if new["pile"]:
                card = new["pile"].pop(0)
                new["hands"][r] = _sorted([*new["hands"][r], card])
                events.append(private(r, f"You draw {card}.", card=card))
                events.append(public(f"{r} draws a card.", role=r))
            else:
                events.append(public(f"{r} cannot draw: the draw pile is empty.", role=r))
        new["stage"] = AWARD_STAGE
        new["winner"] = winner
        return new, events

    def _score(self, state: State, role: Role, prize: str) -> None:
        state["scores"][role] += card_value(prize)
        state["won"][role].append(prize)

    def _close_window(self, state: State, events: list[Event], rng: Rng) -> None:
        """R7: reveal the answers that matter and settle the gift."""
        receiver = state["receiver"]
        prize = state["prize"]
        answer: str = state["answers"][receiver]
        if answer.startswith("REFUSE"):
            card = answer.split()[1]
            state["hands"][receiver].remove(card)
            state["discards"].extend([card, prize])
            state["history"][-1]["refused_with"] = card
            events.append(
                public(
                    f"{receiver} refuses the prize {prize}, discarding {card}.",
                    receiver=receiver,
                    card=card,
                    prize=prize,
                )
            )
        else:
            self._score(state, receiver, prize)
            events.append(
                public(f"{receiver} accepts the prize {prize}.", receiver=receiver, prize=prize)
            )
        state["receiver"] = None
        state["answers"] = {}
        self._next_round(state, events, rng)

    def _next_round(self, state: State, events: list[Event], rng: Rng) -> None:
        """R8 and R9: turn the next prize, or end the game."""
        state["winner"] = None
        state["prize"] = None
        end = ""
        if state["round"] >= state["rounds"]:
            end = f"all {state['rounds']} rounds played"
        elif not state["pile"]:
            end = "no prize can be turned: the draw pile is empty"
        elif any(not state["hands"][r] for r in state["players"]):
            empty = [r for r in state["players"] if not state["hands"][r]]
            end = f"{', '.join(empty)} has no card left to bid"
        if end:
            state["stage"] = OVER_STAGE
            state["end"] = end
            result = self.outcome(state)
            assert result is not None
            if result.draw:
                verdict = "a draw between " + ", ".join(result.winners)
            else:
                verdict = f"{result.winners[0]} wins"
            events.append(public(f"The game ends ({end}): {verdict}.", reason=end))
            return
        state["round"] += 1
        state["prize"] = state["pile"].pop(0)
        state["stage"] = BID_STAGE
        events.append(
            public(f"Round {state['round']}: the prize is {state['prize']}.", prize=state["prize"])
        )

    # ------------------------------------------------------------------ views

    def view(self, state: State, role: Role | None) -> dict[str, JSON]:
        """What ``role`` may know: its own hand in full (and its own secret
        answer in a window), everyone's hand size, the size of the draw pile,
        and the public record. ``None`` (an observer) sees no hand at all."""
        players: list[str] = state["players"]
        out: dict[str, JSON] = {
            "game": self.id,
            "phase": self._phase(state),
            "role": role,
            "players": list(players),
            "round": state["round"],
            "rounds": state["rounds"],
            "stage": state["stage"],
            "prize": state["prize"],
            "winner": state["winner"],
            "receiver": state["receiver"],
            "hand_counts": {r: len(state["hands"][r]) for r in players},
            "pile_count": len(state["pile"]),
            "discards": list(state["discards"]),
            "scores": dict(state["scores"]),
            "won": {r: list(state["won"][r]) for r in players},
            "history": copy.deepcopy(state["history"]),
            "end": state["end"],
        }
        if role is not None and role in players:
            out["hand"] = _sorted(state["hands"][role])
            out["my_answer"] = state["answers"].get(role)
        return out

    def zones(self, state: State) -> list[Zone]:
        """The hidden zones: each hand, seen by its owner (R5: only the drawer
        sees a drawn card), and the draw pile, seen by nobody and in an
        order nobody knows (R2: face down, shuffled). One pool: a card may be
        in any hand or in the pile."""
        hands = [Zone(("hands", r), frozenset([r]), "cards") for r in state["players"]]
        return [*hands, Zone(("pile",), frozenset(), "cards", order_hidden=True)]

    def outcome(self, state: State) -> Outcome | None:
        """R9: highest score wins; a tie for the highest score is a shared draw."""
        if state["stage"] != OVER_STAGE:
            return None
        best = max(state["scores"].values())
        top = tuple(r for r in state["players"] if state["scores"][r] == best)
        return Outcome(winners=top, draw=len(top) > 1, reason=state["end"])


def record(rules: SealedBids) -> GameSpec:
    """The game's record over its rules object (a test may change the
    object's class to break one rule on purpose, or to queue lines)."""
    return GameSpec(
        id=rules.id, title=rules.title, aliases=rules.aliases, options=rules.options,
        verbs=rules.verbs, view_schema=rules.view_schema,
        setup=rules.setup, roles=rules.roles, pending=rules.pending, parse=rules.parse,
        legal=rules.legal, view=rules.view, outcome=rules.outcome, act=rules.act,
        resolve=rules.resolve, default=rules.default, turn=rules.turn, zones=rules.zones,
        policy=Policy(windows=rules.windows), queues_actions=rules.queues_actions,
        playthrough_options=rules.playthrough_options,
        victory_playthroughs=rules.victory_playthroughs,
    )


SPEC = record(SealedBids())
"""The game's record."""

GAME = Game(SPEC)
"""The game as the judge plays it (``judge.game.registry.register(GAME)`` in tests)."""

__all__ = ["GAME", "SEATS", "SPEC", "SealedBids", "card_key", "card_value", "full_deck",
           "record"]

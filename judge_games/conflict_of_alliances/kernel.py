"""Conflict of Alliances on the decision kernel (judge/game/flow.py): the game's
table of states, its context, and the shape of its state.

The sequence of play is kernel frames (the next to run last in ``todo``):

``turn``            the draw step (Turn Sequence), then the first action phase;
``action-phase``    the active player plays a card or passes (an ``action`` ask);
                    with no cards in hand it can only pass;
``next-phase``      after an action or a pass: two passes in succession end the
                    action step, else the other player's action phase;
``end-step``        discard, reshuffle, ready, the next turn (or the game's end);
``game-over``       victory (or the match's second game);
``character-window`` the passive player's window on a character card;
``effect``          a face-up card carried out: its follow-up steps are called;
``card-step``       a card's next part: MILITARY, REINFORCE or SKIP (a ``step`` ask);
``choose``          a card to choose (a ``choose`` ask);
``op-start``, ``op-move``, ``op-choose``, ``op-done``
                    a military operation (judge_games/conflict_of_alliances/ops.py);
``battle-window``, ``battle-roll``, ``battle-fire``, ``battle-losses``, ``battle-end``
                    a battle's Combat Procedure, step by step.

The decisions are kernel asks, one at a time: ``bid``, ``action``, ``step``,
``window``, ``losses``, ``continue``, ``choose``. ``stage`` names the kind of
the open ask (``busy`` while the rules run, ``over`` at the end): reports,
views and the turn's phase name read it. ``window``, ``ask`` and ``choice``
hold what the open window, card step or choice is about (the views show it).
"""

from __future__ import annotations

from typing import Any, TypedDict

from judge.game import flow
from judge.game.engine import State
from judge.game.rng import Rng

PLAN_NOTE = (". You may write your next plays after this one, a plan: each is taken at "
             "your next action phase unless since you wrote it a card played changed an area "
             "the line names (its counters, its control); then the plan stops there and you "
             "are asked")
"""What the action request says of plays written ahead (``plan_mark`` in game.py)."""
PROMPTS = {
    "bid": "BID the Lianheng target you would play for",
    "action": "PLAY a card face up or face down, or PASS" + PLAN_NOTE,
    "step": "MILITARY, REINFORCE or SKIP",
    "window": "RESPOND, DEFEND or PASS",
    "losses": "LOSE: choose the counters you lose",
    "continue": "ATTACK, RETREAT, STAY or ADVANCE",
    "choose": "TAKE or DISCARD a card",
}
"""What each kind of ask waits for (its public ``what``)."""


class Board(TypedDict):
    """What a scenario sets up (Preparation), again for a match's second game."""

    turn: int
    initiative: dict[str, Any]
    """``{"side": side, "switched": bool}`` (the initiative token)"""
    active: str
    passes: int
    """passes in succession this action step"""
    areas: dict[str, Any]
    diplomacy: dict[str, Any]
    eliminated: list[str]
    generals: dict[str, str]
    track: dict[str, int]
    cards: dict[str, Any]
    """side -> its deck, hand, aside, discard and removed cards"""
    op: dict[str, Any] | None
    """the military operation in progress (ops.py)"""
    battle: dict[str, Any] | None
    """the battle in progress (ops.py)"""
    window: dict[str, Any] | None
    """the response window open: kind, side, card"""
    ask: dict[str, Any] | None
    """the card step asked: kind, label, tag, ctx"""
    choice: dict[str, Any] | None
    """the card choice asked: kind, side, label (cards, for Lord Chunshen)"""
    plays: int
    """cards played face up so far (tags their steps)"""


class CoAState(Board):
    """The top-level state of a game (JSON)."""

    scenario: str
    victory: str
    aid24: bool
    printed: bool
    roles: list[str]
    seats: dict[str, str]
    """side -> role"""
    game_no: int
    games: list[dict[str, Any]]
    target: int
    bids: dict[str, int] | None
    turns: int
    seq: int
    """decisions taken (the phase names count them)"""
    stage: str
    """the kind of the ask open, ``busy`` while the rules run, ``over``"""
    end: str
    result: dict[str, Any] | None
    todo: list[flow.Frame]
    """the kernel's frames, the next to run last"""
    asks: list[flow.Ask]
    """the kernel's asks (one at a time in this game)"""
    serial: int


def playing(state: State) -> bool:
    return bool(state["stage"] != "over")


RULES: flow.Rules[Ctx] = flow.Rules("Conflict of Alliances", playing=playing)
"""The game's states and answers. A state saved before the game ran on the
kernel is brought up to date before its asks are read: turns.py sets
``RULES.current`` to its ``upgrade``."""
state = RULES.state
answer = RULES.answer


class Ctx(flow.Ctx):
    """One transition of the game: the kernel's context, with the sides."""

    rules = RULES

    def everyone(self) -> list[str]:
        roles: list[str] = self.s["roles"]
        return roles

    @property
    def dice(self) -> Rng:
        """The judge's committed-seed Rng for this step."""
        assert self.rng is not None, "this step draws at random: it needs the Rng"
        return self.rng

    def role(self, side: str) -> str:
        return str(self.s["seats"][side])

    def mine(self, side: str, text: str, **data: Any) -> None:
        """An event for ``side``'s player alone."""
        self.only(self.role(side), text, **data)

    def decide(self, kind: str, sides: list[str] | None = None) -> flow.Ask:
        """Ask ``sides`` (by default every player) for a decision of ``kind``;
        the run stops until it is answered."""
        roles = self.everyone() if sides is None else [self.role(s) for s in sides]
        self.s["stage"] = kind
        # One decision at a time, one made per step at most: the ask is
        # numbered by the step (``seq``), so that a saved state upgraded
        # (turns.upgrade) numbers it as the game played from its start would.
        self.s["serial"] = self.s["seq"]
        return self.ask(kind, roles, PROMPTS[kind])

    def decided(self, ask: flow.Ask) -> None:
        """The decision is taken: the rules run on."""
        self.pop_ask(ask)
        self.s["stage"] = "busy"

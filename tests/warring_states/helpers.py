"""Small builders for Warring States tests."""

from __future__ import annotations

from typing import Any

from judge.game.engine import Action, Event, State
from judge_games.warring_states import GAME
from tests.diplomacy.helpers import rng, state_of

__all__ = ["orders", "play", "rng", "state"]



def state(
    units: dict[str, list[str]] | None = None,
    phase: str = "S350M",
    centers: dict[str, list[str]] | None = None,
    dislodged: dict[str, Any] | None = None,
    max_year: int = 0,
) -> State:
    """A Warring States state: the opening unless ``units``/``centers`` are given."""
    return state_of(GAME, units, phase, centers, dislodged, max_year)


def orders(st: State, **by_role: list[str]) -> dict[str, list[Action]]:
    return {role: [GAME.parse(st, role, line) for line in lines] for role, lines in by_role.items()}


def play(st: State, **by_role: list[str]) -> tuple[State, list[Event]]:
    return GAME.resolve(st, orders(st, **by_role), rng())

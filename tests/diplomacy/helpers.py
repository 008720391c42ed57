"""Small builders for Diplomacy tests."""

from __future__ import annotations

from typing import Any

from judge.game.engine import State
from judge.game.rng import Rng
from judge.game.spec import Game
from judge_games.classic import GAME
from judge_games.diplomacy.game import DiplomacyGame

SEED = bytes(range(32))


def rng() -> Rng:
    return Rng(SEED)


def state_of(
    game: Game | DiplomacyGame[Any],
    units: dict[str, list[str]] | None,
    phase: str,
    centers: dict[str, list[str]] | None,
    dislodged: dict[str, Any] | None,
    max_year: int,
) -> State:
    """A state of ``game``: the opening unless ``units``/``centers`` are given."""
    st = game.setup({"max_year": max_year}, rng())
    st["phase"] = phase
    if units is not None:
        st["units"] = units
    if centers is not None:
        st["centers"] = centers
    st["dislodged"] = dislodged or {}
    return st


def state(
    units: dict[str, list[str]] | None = None,
    phase: str = "S1901M",
    centers: dict[str, list[str]] | None = None,
    dislodged: dict[str, Any] | None = None,
    max_year: int = 0,
) -> State:
    """A classic game state: the opening unless ``units``/``centers`` are given."""
    return state_of(GAME, units, phase, centers, dislodged, max_year)

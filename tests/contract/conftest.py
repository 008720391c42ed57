"""Fixtures of the contract suite.

Every test that takes a ``game`` argument runs once per game: every built-in
game whose package exists and loads (see :func:`judge.registry.get`) plus the
test-only game Sealed Bids. A built-in game whose package exists but does not
load is left out of those tests and fails ``test_every_builtin_game_loads``
instead, so that one unfinished game does not stop the suite for the others.
While a contract test runs, Sealed Bids is registered with the registry (and
unregistered afterwards if it was not registered before).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator

import pytest

from judge import registry
from judge.engine import Game
from tests.support.sealed_bids import GAME as SEALED_BIDS


def builtin_games() -> tuple[list[Game], dict[str, str]]:
    """The built-in games that load, and why each one that exists does not."""
    games: list[Game] = []
    broken: dict[str, str] = {}
    for game_id in registry.BUILTIN:
        if importlib.util.find_spec(f"games.{game_id}") is None:
            continue  # not written yet
        try:
            games.append(registry.get(game_id))
        except registry.UnknownGame:
            continue  # a folder without its package yet: the registry does not offer it
        except Exception as exc:  # any other failure to load is reported by the suite
            broken[game_id] = f"{type(exc).__name__}: {exc}"
    return games, broken


def contract_games() -> list[Game]:
    """The games the suite runs over (collected once, at collection time)."""
    games, _ = builtin_games()
    if all(g.id != SEALED_BIDS.id for g in games):
        games.append(SEALED_BIDS)
    return games


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "game" in metafunc.fixturenames:
        games = contract_games()
        metafunc.parametrize("game", games, ids=[g.id for g in games])


def _test_game_registered() -> bool:
    try:
        return registry.get(SEALED_BIDS.id) is SEALED_BIDS
    except Exception:  # the lookup fell through to a built-in game that does not load
        return False


@pytest.fixture(autouse=True)
def _register_test_game() -> Iterator[None]:
    """Make the test-only game findable by id during each test, as the judge would."""
    had = _test_game_registered()
    registry.register(SEALED_BIDS)
    yield
    if not had:
        registry.unregister(SEALED_BIDS.id)

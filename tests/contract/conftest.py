"""Fixtures of the contract suite.

Every test that takes a ``game`` argument runs once per game: every built-in
game whose package exists and loads (see :func:`judge.game.registry.get`) plus the
test-only games Sealed Bids and Counterspell. A built-in game whose package
exists but does not load is left out of those tests and fails
``test_every_builtin_game_loads`` instead, so that one unfinished game does
not stop the suite for the others. While a contract test runs, the test-only
games are registered with the registry (and unregistered afterwards unless
they were registered before).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from typing import Any

import pytest

from judge.game import registry
from judge.game.engine import JSON
from judge.game.spec import Game
from tests.games.counterspell import GAME as COUNTERSPELL
from tests.games.sealed_bids import GAME as SEALED_BIDS
from tests.support.driver import playthrough_sets, set_label
from tests.support.guide import BLIND_BID
from tests.support.guide import GAME as TWENTY_ONE

SLOW_SEEDS = tuple(range(100, 125))
"""Seeds of the many-seed run (``-m slow``), dealt out over each game's option sets."""


def builtin_games() -> tuple[list[Game], dict[str, str]]:
    """The built-in games that load, and why each one that exists does not."""
    games: list[Game] = []
    broken: dict[str, str] = {}
    for game_id in registry.BUILTIN:
        if importlib.util.find_spec(f"judge_games.{game_id}") is None:
            continue  # not written yet
        try:
            games.append(registry.get(game_id))
        except registry.UnknownGame:
            continue  # a folder without its package yet: the registry does not offer it
        except Exception as exc:  # any other failure to load is reported by the suite
            broken[game_id] = f"{type(exc).__name__}: {exc}"
    return games, broken


#: The test-only games: Sealed Bids (a hidden-hand game with one window),
#: Counterspell (windows that nest three deep), and the guide's Twenty-One
#: and Blind Bid (a window opened by the last order of an order set).
TEST_GAMES: tuple[Game, ...] = (SEALED_BIDS, COUNTERSPELL, TWENTY_ONE, BLIND_BID)


def contract_games() -> list[Game]:
    """The games the suite runs over (collected once, at collection time)."""
    games, _ = builtin_games()
    games += [t for t in TEST_GAMES if all(g.id != t.id for g in games)]
    return games


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``game`` alone: once per game. ``game`` with ``play_options``: once per
    option set of each game (:func:`tests.support.driver.playthrough_sets`: one
    per ``victory_playthroughs`` entry, or the ``playthrough_options``). With
    ``victory_options``: once per ``victory_playthroughs`` entry, for the games
    that declare them."""
    names = metafunc.fixturenames
    if "slow_seed" in names:
        # The many-seed run deals its seeds out over a game's option sets, so a
        # game played under four sets costs what a game with one set costs.
        triples: list[tuple[Game, dict[str, JSON], int]] = []
        labels: list[str] = []
        for g in contract_games():
            sets = playthrough_sets(g)
            for i, seed in enumerate(SLOW_SEEDS):
                options = sets[i % len(sets)]
                triples.append((g, options, seed))
                label = g.id if len(sets) == 1 else f"{g.id}-{set_label(g, options)}"
                labels.append(f"{label}-{seed}")
        metafunc.parametrize(("game", "play_options", "slow_seed"), triples, ids=labels)
    elif "play_options" in names or "victory_options" in names:
        name = "play_options" if "play_options" in names else "victory_options"
        # The fast tier plays each game's first option set; the others (more
        # seats, other factions) are marked slow: the whole suite plays them all.
        params: list[Any] = []
        for g in contract_games():
            declared = bool(g.victory_playthroughs)
            if name == "victory_options" and not declared:
                continue
            sets = playthrough_sets(g)
            for i, options in enumerate(sets):
                params.append(pytest.param(
                    g, options, id=g.id if len(sets) == 1 else f"{g.id}-{set_label(g, options)}",
                    marks=pytest.mark.slow if i else ()))
        metafunc.parametrize(("game", name), params)
    elif "game" in names:
        games = contract_games()
        metafunc.parametrize("game", games, ids=[g.id for g in games])


def _registered(game: Game) -> bool:
    try:
        return registry.get(game.id) is game
    except Exception:  # the lookup fell through to a built-in game that does not load
        return False


@pytest.fixture(autouse=True)
def _register_test_games() -> Iterator[None]:
    """Make the test-only games findable by id during each test, as the judge
    would (and leave the registry as it was afterwards)."""
    had = {g.id for g in TEST_GAMES if _registered(g)}
    for g in TEST_GAMES:
        registry.register(g)
    yield
    for g in TEST_GAMES:
        if g.id not in had:
            registry.unregister(g.id)

"""Finds games by id or alias. The only module of judge/ that imports judge_games.*.

A game lives in ``judge_games/<id>/`` and exports ``SPEC``, its record
(:class:`judge.game.spec.GameSpec`); the judge plays it through the one
:class:`judge.game.spec.Game` made over it here. Games are imported lazily on first
use. Tests may :func:`register` extra games (a test-only game) for the
contract suite.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING

from judge.game.spec import Game, GameSpec, game_of

if TYPE_CHECKING:
    from judge.pictures.scene import Drawing

_ORDER: tuple[str, ...] = (
    "classic",
    "warring_states",
    "three_kingdoms",
    "conflict_of_alliances",
    "kingdom_wars",
    "conquest_tactics",
)
"""The order in which HELP lists the games it knows; a game not named here
comes after them, by id."""


def _shipped() -> tuple[str, ...]:
    """The folders of ``judge_games``: a new game is found by its folder
    alone (a family's shared package, such as ``diplomacy``, exports no
    ``SPEC`` and is not offered)."""
    import judge_games

    found = {m.name for m in pkgutil.iter_modules(judge_games.__path__) if m.ispkg}
    rank = {gid: n for n, gid in enumerate(_ORDER)}
    return tuple(sorted(found, key=lambda gid: (rank.get(gid, len(rank)), gid)))


BUILTIN: tuple[str, ...] = _shipped()
"""The ids of the game packages shipped with the judge, in HELP's order."""

_loaded: dict[str, Game] = {}
_extra: dict[str, Game] = {}


class UnknownGame(LookupError):
    """No game by that id or alias."""


def register(game: Game | GameSpec) -> Game:
    """Make ``game`` findable (used by tests for the test-only games); a
    record is wrapped in a :class:`Game`, which is returned. A game whose id
    or an alias is the id of a shipped game is refused (ValueError): it
    would stand in for the shipped one, unseen."""
    found = game if isinstance(game, Game) else game_of(game)
    names = {found.id, *(a.lower().replace("-", "_") for a in found.aliases)}
    clash = sorted(names & set(BUILTIN))
    if clash:
        raise ValueError(f"{found.id}: {', '.join(clash)} is the id of a game shipped in "
                         f"judge_games/; a game registered beside them takes an id of its own")
    _extra[found.id] = found
    return found


def unregister(game_id: str) -> None:
    _extra.pop(game_id, None)


def _load(game_id: str) -> Game | None:
    if game_id in _extra:
        return _extra[game_id]
    if game_id in _loaded:
        return _loaded[game_id]
    if game_id not in BUILTIN:
        return None
    try:
        module = importlib.import_module(f"judge_games.{game_id}")
    except ModuleNotFoundError as exc:
        if exc.name in {f"judge_games.{game_id}", "judge_games"}:
            return None  # not built yet
        raise
    spec: GameSpec | None = getattr(module, "SPEC", None)
    if spec is None:
        return None  # a package without SPEC is not a playable game (yet)
    game = _loaded[game_id] = game_of(spec)
    return game


def available() -> list[Game]:
    """Every game that can be played here: built-in ones that exist, then extras."""
    found = [g for gid in BUILTIN if (g := _load(gid)) is not None]
    found += [g for gid, g in _extra.items() if gid not in BUILTIN]
    return found


def get(name: str) -> Game:
    """The game whose id or alias is ``name`` (any case, ``-`` or ``_``)."""
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    game = _load(key)
    if game is not None:
        return game
    for g in available():
        if key in {a.lower().replace("-", "_") for a in g.aliases}:
            return g
    known = ", ".join(g.id for g in available()) or "none"
    raise UnknownGame(f"no game called {name!r} (games here: {known})")


def drawing(game_id: str) -> Drawing | None:
    """How the game draws pictures of itself (its record's ``drawing``), or
    ``None`` for a game with no pictures."""
    game = _load(game_id)
    return None if game is None else game.drawing()

"""The toy games of docs/writing-a-game.md, read out of the page itself.

Each of the page's Python blocks is a whole game (its record, ``SPEC``) and
the JSON block after it the game's view schema. This module runs each game
as a module, ``guide_<id>``, and writes each schema where
:mod:`judge.reports` finds it, so that the contract suite plays exactly what
the guide shows.
"""

from __future__ import annotations

import re
import sys
import tempfile
import types
from pathlib import Path

from judge import reports
from judge.game.spec import Game, GameSpec, game_of

PAGE = Path(__file__).resolve().parents[2] / "docs" / "writing-a-game.md"

_BLOCK = re.compile(r"^```(\w+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks(language: str) -> list[str]:
    """The page's code blocks in ``language`` (``python``, ``json``), in order."""
    return [body for lang, body in _BLOCK.findall(PAGE.read_text(encoding="utf-8"))
            if lang == language]


def _load(code: str) -> GameSpec:
    """Run one of the page's games as a module, ``guide_<its id>``."""
    module = types.ModuleType("guide_game")
    module.__file__ = str(PAGE)
    exec(compile(code, str(PAGE), "exec"), module.__dict__)
    spec: GameSpec = module.SPEC
    module.__name__ = f"guide_{spec.id}"
    sys.modules[module.__name__] = module
    return spec


SPECS: tuple[GameSpec, ...] = tuple(_load(code) for code in blocks("python"))
"""The page's games, in its order: Twenty-One, then Blind Bid."""

_SCHEMAS = Path(tempfile.mkdtemp(prefix="guide-schema-"))
for _spec, _schema in zip(SPECS, blocks("json"), strict=True):  # each game's view schema
    (_SCHEMAS / _spec.view_schema).write_text(_schema, encoding="utf-8")
reports.add_schema_dir(_SCHEMAS)

SPEC = SPECS[0]
GAME: Game = game_of(SPEC)
"""Twenty-One as the judge plays it."""

BLIND_BID: Game = game_of(SPECS[1])
"""Blind Bid (the guide's game with a response window) as the judge plays it."""

__all__ = ["BLIND_BID", "GAME", "PAGE", "SPEC", "SPECS", "blocks"]

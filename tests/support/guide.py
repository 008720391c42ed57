"""The toy game of docs/writing-a-game.md, read out of the page itself.

The page's Python block is the whole game (its record, ``SPEC``) and its
JSON block the game's view schema. This module runs the one as a module,
``guide_twenty_one``, and writes the other where :mod:`judge.reports` finds
it, so that the contract suite plays exactly what the guide shows.
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


def _load() -> GameSpec:
    (code,) = blocks("python")
    module = types.ModuleType("guide_twenty_one")
    module.__file__ = str(PAGE)
    sys.modules[module.__name__] = module
    exec(compile(code, str(PAGE), "exec"), module.__dict__)
    spec: GameSpec = module.SPEC
    return spec


SPEC = _load()

_SCHEMAS = Path(tempfile.mkdtemp(prefix="guide-schema-"))
(schema,) = blocks("json")
(_SCHEMAS / SPEC.view_schema).write_text(schema, encoding="utf-8")
reports.add_schema_dir(_SCHEMAS)

GAME: Game = game_of(SPEC)
"""Twenty-One as the judge plays it."""

__all__ = ["GAME", "PAGE", "SPEC", "blocks"]

"""judge/ is laid out as its architecture, and its imports run one way.

- ``judge.game``: the kit a game imports and the pure driver; it reaches
  nothing of judge outside itself but the pictures (a game's drawing) and
  the data folders (``judge._data``: where the schemas are).
- ``judge.mail``: the transport; it knows no game, no store, no station.
- ``judge.store``: the one place that speaks SQL; the database itself
  reaches nothing else of judge.
- ``judge.site``: the public pages, written from views and public events,
  never from the store or a mail.
- ``judge.pictures``: scenes drawn to SVG and PNG; it reaches no game.
- A game (``judge_games.*``, and the test-only games) imports ``judge.game``
  and ``judge.pictures`` only.
- No import circle is left in judge/, counting function-local imports and
  those made only for types.

"Reaches" counts every import: at module level, inside a function and
under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from tests.support.bench import load_bench

ROOT = Path(__file__).resolve().parents[2]


def _modules() -> dict[str, Any]:
    return dict(load_bench("imports").scan("judge", ROOT))


def _reached(m: Any) -> set[str]:
    return set(m.imports | m.typing_only | m.local_targets)


def _in(name: str, *wings: str) -> bool:
    return any(name == w or name.startswith(w + ".") for w in wings)


#: Each wing, and the parts of judge it may reach (besides itself).
ALLOWED = {
    "judge.game": ("judge.pictures", "judge._data"),
    "judge.mail": (),
    "judge.pictures": ("judge.fonts",),
}


@pytest.mark.parametrize("wing", sorted(ALLOWED))
def test_a_wing_reaches_only_what_lies_below_it(wing: str) -> None:
    mods = _modules()
    members = [m for name, m in mods.items() if _in(name, wing)]
    assert len(members) > 2, wing  # the wing was found
    stray = {
        f"{m.name} -> {t}"
        for m in members
        for t in _reached(m)
        if not _in(t, wing, *ALLOWED[wing])
    }
    assert not stray, sorted(stray)


def test_the_database_reaches_nothing_else_of_judge() -> None:
    mods = _modules()
    store = mods["judge.store"]
    assert not {t for t in _reached(store) if not _in(t, "judge.store")}  # its own modules


def test_the_store_and_the_site_read_no_mail_and_the_site_no_store() -> None:
    mods = _modules()
    stray = set()
    for name, m in mods.items():
        if _in(name, "judge.store"):
            stray |= {f"{name} -> {t}" for t in _reached(m)
                      if _in(t, "judge.mail", "judge.site", "judge.pictures")}
        if _in(name, "judge.site"):
            stray |= {f"{name} -> {t}" for t in _reached(m)
                      if _in(t, "judge.mail", "judge.store")}
    assert not stray, sorted(stray)


def test_no_import_circle_is_left_in_judge() -> None:
    bench = load_bench("imports")
    mods = bench.scan("judge", ROOT)
    assert bench.circles(mods, hoisted=True, typing=True) == []


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, absolute, wherever the import stands
    (relative imports stay inside the file's own package and are left out)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            out.add(node.module)
            out |= {f"{node.module}.{a.name}" for a in node.names}
    return out


def test_only_the_store_speaks_sql() -> None:
    speakers = {
        str(p.relative_to(ROOT))
        for p in (ROOT / "judge").rglob("*.py")
        if {"sqlite3", "sqlite_utils"} & {i.split(".")[0] for i in _imports(p)}
    }
    assert speakers  # the store was found
    assert all(s.startswith("judge/store/") for s in speakers), sorted(speakers)


def _game_files() -> list[Path]:
    shipped = sorted((ROOT / "judge_games").rglob("*.py"))
    test_only = sorted(p for p in (ROOT / "tests" / "games").glob("*.py")
                       if p.name != "__init__.py" and not p.name.startswith("test_"))
    return [*shipped, *test_only]


def test_a_game_imports_the_kit_and_the_pictures_only() -> None:
    files = _game_files()
    assert any("tests" in p.parts for p in files)  # the test-only games too
    stray = set()
    kit_users = 0
    for path in files:
        judge = {i for i in _imports(path) if _in(i, "judge")}
        kit_users += bool(judge)
        stray |= {f"{path.relative_to(ROOT)}: {i}" for i in judge
                  if not _in(i, "judge.game", "judge.pictures")}
    assert kit_users > 10
    assert not stray, sorted(stray)

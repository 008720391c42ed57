"""bench/imports.py: function-local imports and import circles in a package."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.bench import load_bench


def _package(root: Path) -> None:
    pkg = root / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n\ndef f():\n    return b\n")
    # b reaches back to a only inside a function: a hidden circle.
    (pkg / "b.py").write_text("def g():\n    from pkg import a\n    return a\n")
    # c and d import each other at module level: a circle.
    (pkg / "c.py").write_text("import pkg.d\n")
    (pkg / "d.py").write_text("from pkg.c import *\n")
    # e names f for types only.
    (pkg / "e.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .f import X\n"
    )
    (pkg / "f.py").write_text("from . import e\nX = 1\n")


def test_counts_local_imports_and_circles(tmp_path: Path) -> None:
    bench = load_bench("imports")
    _package(tmp_path)
    out = bench.report("pkg", tmp_path)
    assert out["modules"] == 7
    assert out["function_local_imports"] == 1
    assert out["local_imports"] == ["pkg/b.py:2 pkg"]
    assert out["circle_members"] == [["pkg.c", "pkg.d"]]
    assert out["hidden_circle_members"] == [["pkg.a", "pkg.b"], ["pkg.c", "pkg.d"]]
    assert out["typed_circle_members"] == [
        ["pkg.a", "pkg.b"],
        ["pkg.c", "pkg.d"],
        ["pkg.e", "pkg.f"],
    ]


def test_each_import_statement_is_read_apart(tmp_path: Path) -> None:
    """``from pkg import a`` beside ``from pkg.sub import x`` names ``pkg.a``
    and ``pkg.sub``, not the package ``pkg.sub`` as a module imported from
    ``pkg``; ``import pkg.a, pkg.b`` imports both."""
    bench = load_bench("imports")
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from pkg.sub.y import Y\n")
    (pkg / "sub" / "y.py").write_text("Y = 1\n")
    (pkg / "a.py").write_text("")
    (pkg / "b.py").write_text("from pkg import a\nfrom pkg.sub import y\n")
    (pkg / "c.py").write_text("import pkg.a, pkg.b\nfrom pkg import sub\n")
    mods = bench.scan("pkg", tmp_path)
    assert mods["pkg.b"].imports == {"pkg.a", "pkg.sub.y"}
    assert mods["pkg.c"].imports == {"pkg.a", "pkg.b", "pkg.sub"}


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) of every import statement in ``path``, at any depth."""
    out: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, []) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.append((node.module, [a.name for a in node.names]))
    return out


ROOT = Path(__file__).resolve().parents[2]


def test_no_game_imports_a_private_name_of_another_game() -> None:
    found = []
    for path in sorted((ROOT / "judge_games").rglob("*.py")):
        mine = path.relative_to(ROOT / "judge_games").parts[0]
        for module, names in _imports(path):
            parts = module.split(".")
            if parts[0] == "judge_games" and len(parts) > 1 and parts[1] != mine:
                found += [f"{path.relative_to(ROOT)}: {module}.{n}" for n in names if n[0] == "_"]
    assert found == []


def test_the_diplomacy_map_imports_no_orders_and_no_variant() -> None:
    """The variant record is held by the game, not the map (judge_games/diplomacy/variant.py)."""
    modules = {m for m, _ in _imports(ROOT / "judge_games/diplomacy/geography.py")}
    names = {n for _, ns in _imports(ROOT / "judge_games/diplomacy/geography.py") for n in ns}
    assert not {"orders", "variant", "legality", "phases"} & (names | modules)


def test_no_bench_imports_tests_but_the_test_only_games() -> None:
    """The arrow goes tests -> bench.support, never bench -> tests, but for
    the test-only games (tests/games): a benchmark of mail plays Sealed Bids
    as the tests do, so the game lives once, with the tests."""
    found = []
    for path in sorted((ROOT / "bench").rglob("*.py")):
        used = {m for m, _ in _imports(path) if m == "tests" or m.startswith("tests.")}
        found += [f"{path.relative_to(ROOT)}: {m}" for m in sorted(used)
                  if m != "tests.games" and not m.startswith("tests.games.")]
    assert found == []

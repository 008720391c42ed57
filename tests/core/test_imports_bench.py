"""bench/imports.py: function-local imports and import circles in a package."""

from __future__ import annotations

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

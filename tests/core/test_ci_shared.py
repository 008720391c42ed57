"""CI never skips the tests that quote the rulebooks: ``.ci/run`` stops,
naming the folder, before it installs anything when ``shared/rules`` (and
the reference texts and data) are missing; and such a test, run without
them, is skipped with a reason that names the folder."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.support import rulebooks

ROOT = Path(__file__).resolve().parents[2]


def test_ci_stops_without_the_shared_folder(tmp_path: Path) -> None:
    missing = tmp_path / "no-shared"
    done = subprocess.run(["bash", str(ROOT / ".ci" / "run")], cwd=tmp_path,
                          env={**os.environ, "JUDGE_SHARED": str(missing)},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert f"{missing}/rules is missing" in done.stderr
    assert "== install" not in done.stdout


def test_a_missing_rulebook_skips_naming_the_folder(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    monkeypatch.setenv("JUDGE_SHARED", str(tmp_path))
    with pytest.raises(pytest.skip.Exception, match=f"rules/none.txt not found in {tmp_path}"):
        rulebooks.text("rules/none.txt")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "none.txt").write_text("a rule\n")
    assert rulebooks.text("rules/none.txt") == "a rule\n"

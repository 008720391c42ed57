"""CI never skips the tests that quote the rulebooks, and a plain clone
runs everything else: ``.ci/run`` (through ``.ci/shared.sh``) stops, naming
the folder, before it installs anything when ``shared/rules`` (and the
reference texts and data) are missing under CI (``CI=true``); elsewhere it
says in one line which tests are skipped and why, and goes on. Such a test,
run without them, is skipped with a reason that names the folder (under CI
it fails), and the run ends with one line summing the skips up."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import rulebooks

ROOT = Path(__file__).resolve().parents[2]


def _shared_sh(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``.ci/shared.sh`` as ``.ci/run`` sources it, then the JUDGE_SHARED it left."""
    script = f'set -euo pipefail; . {ROOT}/.ci/shared.sh; echo "JUDGE_SHARED=${{JUDGE_SHARED:-}}"'
    base = {k: v for k, v in os.environ.items() if k not in ("CI", "JUDGE_SHARED")}
    return subprocess.run(["bash", "-c", script], cwd=tmp_path, env={**base, **env},
                          capture_output=True, text=True, timeout=60)


def test_ci_stops_without_the_shared_folder(tmp_path: Path) -> None:
    missing = tmp_path / "no-shared"
    done = subprocess.run(["bash", str(ROOT / ".ci" / "run")], cwd=tmp_path,
                          env={**os.environ, "JUDGE_SHARED": str(missing), "CI": "true"},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert f"{missing}/rules is missing" in done.stderr
    assert "CI must run them" in done.stderr
    assert "== install" not in done.stdout


def test_a_plain_clone_says_what_it_skips_and_goes_on(tmp_path: Path) -> None:
    (tmp_path / "repo").mkdir()
    done = _shared_sh(tmp_path / "repo")  # no ../shared, no JUDGE_SHARED, not CI
    assert done.returncode == 0, done.stderr
    [skipped] = [line for line in done.stdout.splitlines() if line.startswith("!! SKIPPED")]
    assert "quote the rulebooks" in skipped and "../shared/rules" in skipped
    assert "JUDGE_SHARED" in skipped and "Everything else runs" in skipped
    assert done.stdout.splitlines()[-1] == "JUDGE_SHARED="
    done = _shared_sh(tmp_path / "repo", CI="true")
    assert done.returncode == 1 and "../shared/rules is missing" in done.stderr


def test_the_shared_folder_is_found_and_exported(tmp_path: Path) -> None:
    for sub in ("rules", "reference", "data"):
        (tmp_path / "shared" / sub).mkdir(parents=True)
    (tmp_path / "repo").mkdir()
    for env in ({}, {"CI": "true"}):
        done = _shared_sh(tmp_path / "repo", **env)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == [f"JUDGE_SHARED={tmp_path / 'shared'}"]


def test_a_missing_rulebook_skips_naming_the_folder(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    monkeypatch.setenv("JUDGE_SHARED", str(tmp_path))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=f"rules/none.txt not found in {tmp_path}"):
        rulebooks.text("rules/none.txt")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=r"rules/none\.txt not found.*CI must run it"):
        rulebooks.text("rules/none.txt")
    monkeypatch.delenv("CI")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "none.txt").write_text("a rule\n")
    assert rulebooks.text("rules/none.txt") == "a rule\n"


def test_the_run_ends_with_one_line_summing_up_the_skips(tmp_path: Path) -> None:
    """A plain clone's pytest run names, in one line, the tests it skipped
    for want of the rulebooks and why."""
    test = tmp_path / "test_quotes.py"
    test.write_text("from tests.support import rulebooks\n\n"
                    "def test_a():\n    rulebooks.text('rules/a.txt')\n\n"
                    "def test_b():\n    rulebooks.text('reference/b.txt')\n")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["JUDGE_SHARED"] = str(tmp_path / "none")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-p", "no:xdist", "-p", "tests.conftest", "--rootdir", str(tmp_path),
                           str(test)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout
    [line] = [ln for ln in done.stdout.splitlines() if ln.startswith("SKIPPED 2 tests")]
    assert "quote the rulebooks: reference/b.txt, rules/a.txt not found in" in line
    assert str(tmp_path / "none") in line and "JUDGE_SHARED" in line

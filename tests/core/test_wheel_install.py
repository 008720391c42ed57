"""The wheel, installed as an operator would (``pip install --target`` and
``--prefix``, the layout of ``--user``), works from any folder with that
install alone: ``judge --version``, ``judge init`` and ``judge demo`` find
their templates, schemas and font inside the package (no source tree, no
``<prefix>/share``)."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out),
                    str(ROOT)], check=True, timeout=600, cwd=out)  # fmt: skip
    (found,) = out.glob("judge-*.whl")
    yield found


def _run(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=600)


def _env(site: Path) -> dict[str, str]:
    """Only ``site`` for the judge; the dependencies from this interpreter's
    own site-packages; never the source tree."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "JUDGE_"))}
    env["PYTHONPATH"] = str(site)
    return env


def _check(site: Path, script: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = _env(site)
    where = _run(env, elsewhere, sys.executable, "-c",
                 "import judge, judge.reports as r, judge.fonts as f; "
                 "print(judge.__file__); print(r.TEMPLATE_DIRS[0]); print(f.path(True))")
    assert where.returncode == 0, where.stderr
    for line in where.stdout.splitlines():
        assert Path(line).is_relative_to(site), where.stdout
        assert not Path(line).is_relative_to(ROOT)
    done = _run(env, elsewhere, str(script), "--version")
    assert done.returncode == 0 and done.stdout.startswith("judge "), done.stderr
    done = _run(env, elsewhere, sys.executable, "-m", "judge", "--version")
    assert done.returncode == 0 and done.stdout.startswith("judge "), done.stderr
    done = _run(env, elsewhere, str(script), "--home", "league", "init")
    assert done.returncode == 0, done.stderr
    assert (elsewhere / "league" / "judge.toml").is_file()
    assert (elsewhere / "league" / "mail" / "in" / "new").is_dir()
    done = _run(env, elsewhere, str(script), "demo")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert "rebuild the stored game" in done.stdout


def test_pip_install_target(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "target"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                    str(target), str(wheel)], check=True, timeout=600)  # fmt: skip
    _check(target, target / "bin" / "judge", tmp_path)


def test_pip_install_prefix(wheel: Path, tmp_path: Path) -> None:
    prefix = tmp_path / "prefix"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                    "--ignore-installed", "--prefix", str(prefix), str(wheel)],
                   check=True, timeout=600)  # fmt: skip
    site = Path(sysconfig.get_path("purelib", vars={"base": str(prefix),
                                                    "platbase": str(prefix)}))
    assert (site / "judge" / "_data" / "schemas" / "config.schema.json").is_file()
    assert not (prefix / "share" / "judge").exists()
    _check(site, prefix / "bin" / "judge", tmp_path)
    # --ignore-installed: the install this test runs under is left alone
    assert subprocess.run([sys.executable, "-m", "pip", "show", "-q", "judge"],
                          capture_output=True, timeout=120).returncode == 0

"""The container files: the image is built from everything the wheel is
made of, and its entrypoint makes a home on the first start. (Building and
running the image is deploy/smoke.sh, where Docker works.)"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_image_copies_every_source_the_wheel_is_built_from() -> None:
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    copied = {line.split()[1] for line in lines
              if line.startswith("COPY ") and "--from" not in line}
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    tops = {p.split(".")[0] for p in setuptools["packages"] if p not in setuptools["package-dir"]}
    assert tops | set(setuptools["package-dir"].values()) | {"pyproject.toml"} <= copied
    assert "README.md" in " ".join(lines)  # the project's readme is part of its metadata


def test_the_entrypoint_makes_a_home_then_runs_the_command(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "JUDGE_HOME": str(home), "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    done = subprocess.run(["sh", str(ROOT / "deploy" / "docker-entrypoint.sh"), "status"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr  # made, but never cycled: stale
    assert (home / "judge.toml").is_file() and "wrote" in done.stderr
    assert "health         STALE" in done.stdout
    done = subprocess.run(["sh", str(ROOT / "deploy" / "docker-entrypoint.sh"), "--version"],
                          env={**env, "JUDGE_HOME": str(tmp_path / "none")},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("judge ")
    assert not (tmp_path / "none").exists()  # --version needs no home


def test_the_compose_files() -> None:
    import yaml

    plain = yaml.safe_load((ROOT / "compose.yaml").read_text())
    assert plain["services"]["judge"]["build"] == "."
    assert plain["services"]["judge"]["volumes"] == ["judge:/var/lib/judge"]
    mail = yaml.safe_load((ROOT / "deploy" / "compose.mail.yaml").read_text())
    assert set(mail["services"]) == {"mail", "judge"}
    assert (ROOT / "deploy" / mail["services"]["mail"]["build"] / "Dockerfile").is_file()
    assert (ROOT / "deploy" / mail["services"]["judge"]["build"] / "Dockerfile").is_file()
    init = mail["services"]["judge"]["environment"]["JUDGE_INIT_ARGS"]
    assert "imap+plain://judge@mail:143" in init and "smtp+plain://judge@mail:587" in init

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


def test_the_check_without_docker_takes_the_images_steps() -> None:
    """tests/install/artefacts.py's ``image`` install stands in for the image
    where Docker cannot run: the wheel installed by root, the entrypoint
    copied in as the Dockerfile copies it, a user of its own whose home is the
    volume, JUDGE_HOME set to it. If the Dockerfile changes these, the check
    must follow."""
    text = (ROOT / "Dockerfile").read_text()
    assert "COPY deploy/docker-entrypoint.sh /usr/local/bin/judge-entrypoint" in text
    assert 'ENTRYPOINT ["judge-entrypoint"]' in text and 'CMD ["serve"]' in text
    assert "USER judge" in text and "VOLUME /var/lib/judge" in text
    assert "JUDGE_HOME=/var/lib/judge" in text
    assert "--home-dir /var/lib/judge" in text
    assert "pip install --no-cache-dir /wheels/*.whl" in text
    check = (ROOT / "tests" / "install" / "artefacts.py").read_text()
    assert '"deploy" / "docker-entrypoint.sh", entry' in check
    assert 'entry = venv / "bin" / "judge-entrypoint"' in check
    assert 'volume = work / "var" / "lib" / "judge"' in check
    assert '"JUDGE_HOME": str(volume)' in check and 'command=["judge-entrypoint"]' in check
    assert '"--home-dir",\n             str(volume)' in check

"""pyproject.toml ships schemas/ and templates/: every folder of them is listed."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_template_folder_and_schema_is_shipped() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    files = data["tool"]["setuptools"]["data-files"]
    globs = {g for v in files.values() for g in v}
    for folder in (ROOT / "templates").iterdir():
        if folder.is_dir() and any(folder.glob("*.j2")):
            assert f"templates/{folder.name}/*.j2" in globs, folder.name
    assert "schemas/*.json" in globs
    assert data["project"]["scripts"]["judge"] == "judge.entry:run"

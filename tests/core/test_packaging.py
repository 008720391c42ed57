"""pyproject.toml ships every package, every template and schema (as
``judge._data``), and the font of the pictures; the data is found through
importlib.resources, and a missing font is an error naming it."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path, PurePosixPath

import pytest
from setuptools import find_packages

from judge import _data, fonts, reports

ROOT = Path(__file__).resolve().parents[2]
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def _matches(parts: tuple[str, ...], pattern: tuple[str, ...]) -> bool:
    """A glob as setuptools reads package-data: ``*`` never crosses a ``/``;
    ``**`` stands for any number of folders, none included."""
    if not pattern:
        return not parts
    if pattern[0] == "**":
        return any(_matches(parts[i:], pattern[1:]) for i in range(len(parts) + 1))
    return bool(parts) and fnmatch.fnmatchcase(parts[0], pattern[0]) and _matches(
        parts[1:], pattern[1:])


def _shipped(package: str, relative: str) -> bool:
    """Whether a file at ``relative`` inside ``package``'s folder matches
    the package-data globs. (tests/install/artefacts.py checks the built
    wheel and sdist themselves, file by file.)"""
    globs = SETUPTOOLS["package-data"].get(package, []) + SETUPTOOLS["package-data"]["*"]
    parts = PurePosixPath(relative).parts
    return any(_matches(parts, PurePosixPath(glob).parts) for glob in globs)


def test_the_glob_reading() -> None:
    assert _matches(("a.yaml",), ("**", "*.yaml"))
    assert _matches(("cards", "humans.yaml"), ("**", "*.yaml"))
    assert _matches(("x", "y", "b.yaml"), ("**", "*.yaml"))
    assert not _matches(("cards", "humans.yaml"), ("*.yaml",))
    assert not _matches(("cards", "humans.txt"), ("**", "*.yaml"))


def test_the_package_list_is_the_source_tree_and_the_data() -> None:
    code = set(find_packages(str(ROOT), include=["judge*", "judge_games*"]))
    assert set(SETUPTOOLS["packages"]) == code | {"judge._data.schemas",
                                                  "judge._data.templates"}
    assert SETUPTOOLS["package-dir"] == {"judge._data.schemas": "schemas",
                                         "judge._data.templates": "templates"}


@pytest.mark.parametrize("folder", ["templates", "schemas", "judge_games", "judge"])
def test_every_data_file_is_shipped(folder: str) -> None:
    """Every file beside the code (the games' cards, decks, maps; templates,
    schemas, fonts) matches a package-data glob of its package."""
    files = [p for p in (ROOT / folder).rglob("*")
             if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts]
    assert files
    missing = []
    for path in files:
        if folder in ("templates", "schemas"):
            package, inside = f"judge._data.{folder}", path.relative_to(ROOT / folder)
        else:  # the nearest package folder above it
            owner = next(p for p in path.parents if (p / "__init__.py").is_file())
            package = ".".join(owner.relative_to(ROOT).parts)
            inside = path.relative_to(owner)
        if not _shipped(package, inside.as_posix()):
            missing.append(str(path.relative_to(ROOT)))
    assert not missing


def test_the_data_is_found_through_the_package() -> None:
    assert _data.folder("templates") == ROOT / "templates"
    assert reports.TEMPLATE_DIRS[0] == ROOT / "templates"
    assert reports.load_schema("config.schema.json")["type"] == "object"


def test_the_font_ships_with_its_licence() -> None:
    assert _shipped("judge.fonts", "DejaVuSans.ttf")
    assert _shipped("judge.fonts", "LICENSE")
    for bold in (False, True):
        assert fonts.path(bold).read_bytes()[:4] == b"\x00\x01\x00\x00"  # TrueType
    assert "Bitstream Vera" in (fonts.folder() / "LICENSE").read_text()


def test_a_missing_font_is_an_error_naming_it(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    """The pictures measure their text with the package's own copy of the font."""
    from judge.pictures import text

    monkeypatch.setattr(fonts, "folder", lambda: tmp_path)
    text.font.cache_clear()
    try:
        with pytest.raises(fonts.FontMissing, match=r"DejaVu Sans Bold \(DejaVuSans-Bold.ttf\)"):
            text.font(12, True)
    finally:
        text.font.cache_clear()


def test_the_console_script() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert data["project"]["scripts"]["judge"] == "judge.entry:run"

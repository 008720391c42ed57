"""A new game is found by its folder: ``judge.game.registry`` lists the packages
of ``judge_games`` and offers each that exports ``SPEC`` (docs/writing-a-game.md);
a family's shared package, exporting none, is not offered."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import judge_games
from judge.game import registry
from tests.support.guide import blocks


@pytest.fixture()
def twenty_one_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The guide's game written as a package folder beside the shipped ones."""
    import tests.support.guide  # noqa: F401  (its view schema, where reports find it)

    folder = tmp_path / "twenty_one"
    folder.mkdir()
    code = blocks("python")[0]  # Twenty-One
    (folder / "__init__.py").write_text(code, encoding="utf-8")
    monkeypatch.setattr(judge_games, "__path__", [*judge_games.__path__, str(tmp_path)])
    yield "twenty_one"
    sys.modules.pop("judge_games.twenty_one", None)
    registry._loaded.pop("twenty_one", None)


def test_a_game_folder_is_found_without_a_list_to_edit(twenty_one_folder: str) -> None:
    found = registry._shipped()
    assert found[: len(registry._ORDER)] == registry._ORDER, "HELP's order comes first"
    assert twenty_one_folder in found
    assert set(found) == {*registry.BUILTIN, twenty_one_folder}


def test_the_found_folder_plays_through_the_registry(
        twenty_one_folder: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "BUILTIN", registry._shipped())
    game = registry.get("twenty-one")
    assert game.id == "twenty_one"
    assert importlib.import_module("judge_games.twenty_one").SPEC.id == "twenty_one"
    assert "twenty_one" in [g.id for g in registry.available()]


def test_a_family_package_without_a_record_is_not_a_game() -> None:
    assert "diplomacy" in registry.BUILTIN  # a folder of judge_games...
    assert "diplomacy" not in [g.id for g in registry.available()]  # ...but no SPEC
    # "diplomacy" still names classic Diplomacy (its alias), not the folder.
    assert registry.get("diplomacy").id == "classic"

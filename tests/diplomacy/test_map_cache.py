"""A map file is built once and kept beside it (``__pycache__``), under a key
of its bytes and of the map model's source."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from judge_games.diplomacy.geography import DipMap, load_map

CLASSIC = Path(__file__).resolve().parents[2] / "judge_games" / "classic" / "map.yaml"


def _tables(dm: DipMap) -> tuple[object, ...]:
    return (dm.provinces, dm.locations, dm.powers, dm.army_adj, dm.fleet_adj, dm.names, dm.rank,
            dm.sea_reach, dm.seas)


@pytest.fixture
def writes_bytecode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


@pytest.mark.usefixtures("writes_bytecode")
def test_the_built_map_is_kept_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "map.yaml"
    shutil.copy(CLASSIC, path)
    first = load_map(path)
    kept = list((tmp_path / "__pycache__").glob("map.yaml.*.pickle"))
    assert len(kept) == 1
    again = load_map(path)
    assert again is not first and _tables(again) == _tables(first)
    # A changed file is built afresh and replaces the kept copy.
    path.write_text(path.read_text().replace("victory: 18", "victory: 17"))
    changed = load_map(path)
    assert changed.victory == 17
    now = list((tmp_path / "__pycache__").glob("map.yaml.*.pickle"))
    assert len(now) == 1 and now != kept


@pytest.mark.usefixtures("writes_bytecode")
def test_a_damaged_copy_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "map.yaml"
    shutil.copy(CLASSIC, path)
    load_map(path)
    (kept,) = (tmp_path / "__pycache__").glob("map.yaml.*.pickle")
    kept.write_bytes(b"not a pickle")
    assert _tables(load_map(path)) == _tables(load_map(CLASSIC))


def test_nothing_is_written_when_python_writes_no_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    path = tmp_path / "map.yaml"
    shutil.copy(CLASSIC, path)
    assert load_map(path).victory == 18
    assert not (tmp_path / "__pycache__").exists()

"""The artefact check's own parts (tests/install/artefacts.py; .ci/run runs
the whole of it): a file git tracks that the wheel or the sdist lacks fails
it by name, and the players read their reports as a person would."""

from __future__ import annotations

import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.install import artefacts


def _artefacts(tmp_path: Path, sources: list[str], left_out: str) -> tuple[Path, Path]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    wheel = tmp_path / "judge-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        for s in sources:
            if s != left_out:
                z.writestr(artefacts.wheel_name(s), "x")
    sdist = tmp_path / "judge-0.1.0.tar.gz"
    with tarfile.open(sdist, "w:gz") as t:
        for s in sources:
            path = tmp_path / "src" / s
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("x")
            t.add(path, arcname=f"judge-0.1.0/{s}")
    return wheel, sdist


def test_the_files_git_tracks_include_every_data_folder() -> None:
    tracked = artefacts.tracked_files()
    assert "judge_games/conquest_tactics/cards/humans.yaml" in tracked
    assert "judge_games/conquest_tactics/decks/humans.txt" in tracked
    assert "templates/publish/board/conquest_tactics.html.j2" in tracked
    assert "judge/fonts/DejaVuSans.ttf" in tracked
    assert not [t for t in tracked if "__pycache__" in t]
    assert artefacts.wheel_name("templates/common/report.txt.j2") == \
        "judge/_data/templates/common/report.txt.j2"
    assert artefacts.wheel_name("schemas/config.schema.json") == \
        "judge/_data/schemas/config.schema.json"
    assert artefacts.wheel_name("judge_games/classic/map.yaml") == "judge_games/classic/map.yaml"


def test_a_file_missing_from_the_wheel_fails_by_name(tmp_path: Path) -> None:
    sources = ["judge/__init__.py", "judge_games/conquest_tactics/cards/humans.yaml",
               "templates/common/report.txt.j2"]
    wheel, sdist = _artefacts(tmp_path, sources, "judge_games/conquest_tactics/cards/humans.yaml")
    with pytest.raises(artefacts.CheckFailed) as failed:
        artefacts.check_contents(wheel, sdist, sources)
    assert ("judge_games/conquest_tactics/cards/humans.yaml is not in the wheel "
            "judge-0.1.0-py3-none-any.whl") in str(failed.value)
    assert "sdist" not in str(failed.value).split("\n", 1)[1]
    artefacts.check_contents(*_artefacts(tmp_path / "all", sources, ""), sources)


def test_a_file_missing_from_the_sdist_fails_by_name(tmp_path: Path) -> None:
    sources = ["judge/__init__.py", "schemas/config.schema.json"]
    _, sdist = _artefacts(tmp_path, sources, "")
    assert artefacts.missing_from_sdist(sdist, ["schemas/config.schema.json",
                                                "schemas/new.schema.json"]) == [
        "schemas/new.schema.json"]


def test_the_players_answer_what_their_report_says_they_owe() -> None:
    choices = ("You owe: an action (set-up): CAPITAL <centre of your kingdom>\n"
               "Your choices (x|y: send one of them):\n  CAPITAL 2|3|4\n  PASS\n"
               "[attached: a.png]\n")
    assert artefacts.answer("three_kingdoms", "Player1", choices) == ["CAPITAL 2"]
    units = ("UNITS\n  Austria: A Bud, F Tri, A Vie\n  England: F Edi\n\n"
             "You owe: orders for S1901M\n")
    assert artefacts.answer("classic", "Austria", units) == ["A Bud H", "F Tri H", "A Vie H"]
    generals = ("Generals dealt to you:\n  Cao Pi (Wei, 3 half-circles): x\n"
                "  Huang Gai (Wu, 4 half-circles): y\n  Yue Jin (Wei, 4 half-circles): z\n\n")
    assert artefacts.answer("kingdom_wars", "A", generals) == ["GENERALS Cao Pi AND Yue Jin"]
    with pytest.raises(artefacts.CheckFailed, match="no answer known for classic France"):
        artefacts.answer("classic", "France", "You owe: something new\n")

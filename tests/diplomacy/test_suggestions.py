"""A misspelt name gets a suggestion: the whole lines the order could mean,
by edit distance over the map's names, abbreviations and aliases, limited to
orders that are legal now (a move: the provinces the unit can reach), at
most three, nearest first, and none when no name is close."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from judge.game.engine import Grade
from judge.game.spec import Game
from judge_games.classic import GAME
from judge_games.diplomacy import DiplomacyGame, load_map, spelling
from judge_games.diplomacy.orders import UnknownName
from judge_games.diplomacy.standard import standard

from .helpers import state, state_of

OPENING = state()


def _refusal(
        game: Game | DiplomacyGame[Any], st: dict[str, object], role: str, line: str,
) -> UnknownName:
    with pytest.raises(UnknownName) as info:
        game.parse(st, role, line)
    err = info.value
    assert err.grade is Grade.INVALID
    assert err.line == line
    for choice in err.choices:  # every suggestion is a line the player can send back
        assert game.parse(st, role, choice).text == choice
    return err


def test_the_players_example() -> None:
    err = _refusal(GAME, OPENING, "Austria", "A Bud - Serbai")
    assert err.choices == ("A Bud - Ser",)
    assert err.hint == 'did you mean "A Bud - Ser"?'
    assert str(err) == (
        "\"A Bud - Serbai\": invalid: expected a destination, found 'serbai' "
        '(did you mean "A Bud - Ser"?)'
    )


@pytest.mark.parametrize(
    ("role", "line", "meant"),
    [
        ("Austria", "A Bdu - Ser", "A Bud - Ser"),  # the unit's own province
        ("Austria", "A Bdu - Serbai", "A Bud - Ser"),  # two names misspelt
        ("Germany", "A Mun - Bugrundy", "A Mun - Bur"),  # a full name
        ("Italy", "A Ven - Tyorl", "A Ven - Tyr"),  # an alias (Tyrol)
        ("England", "F Edi - Norwegain Sea", "F Edi - Nwg"),  # a name of two words
        ("Russia", "F StP/sc - Gulf of Botnia", "F StP/sc - Bot"),  # three, not "Gulf ..."
        ("France", "F Bre - Mid-Atlantc", "F Bre - Mao"),  # hyphenated, "Mid" read first
        ("France", "F Bre - Mid Atlantik", "F Bre - Mao"),
        ("France", "A Pairs - Burgundi", "A Par - Bur"),
        ("Italy", "A Ven S F Nap - Rme", "A Ven S F Nap - Rom"),  # a support
    ],
)
def test_misspelt_names(role: str, line: str, meant: str) -> None:
    err = _refusal(GAME, OPENING, role, line)
    assert err.choices == (meant,)
    assert err.hint == f'did you mean "{meant}"?'


def test_only_provinces_the_unit_can_reach() -> None:
    """ "Bxr" is one letter from Burgundy and from Berlin: Munich borders both,
    Paris only Burgundy."""
    assert _refusal(GAME, OPENING, "Germany", "A Mun - Bxr").choices == (
        "A Mun - Bur",
        "A Mun - Ber",
    )
    assert _refusal(GAME, OPENING, "France", "A Par - Bxr").choices == ("A Par - Bur",)


def test_nothing_close_no_suggestion() -> None:
    err = _refusal(GAME, OPENING, "Austria", "A Bud - Xanadu")
    assert err.choices == () and err.hint == ""
    assert "expected a destination" in str(err)


def test_retreats_and_builds() -> None:
    retreat = state(
        {"Austria": ["A Ser"], "Turkey": ["A Bul"]},
        phase="S1901R",
        dislodged={"Austria": {"A Bud": {"from": "Gal", "retreats": ["Ser", "Rum"]}}},
    )
    with pytest.raises(UnknownName) as info:
        GAME.parse(retreat, "Austria", "A Bud R Rumaina")
    assert info.value.choices == ("A Bud R Rum",)
    winter = state({"Russia": ["A Mos"]}, phase="W1901A", centers={"Russia": ["Mos", "War", "Sev"]})
    assert _refusal(GAME, winter, "Russia", "Build A Warsw").choices == ("Build A War",)
    # A fleet in Sevastopol or Warsaw: only Sevastopol is on a coast.
    assert _refusal(GAME, winter, "Russia", "Build F Sevstopol").choices == ("Build F Sev",)


def _star(tmp_path: Path) -> DiplomacyGame[Any]:
    """A map where one army borders five provinces of like names."""
    near = {"Pa": "Burrox", "Pb": "Barron", "Pc": "Harrow", "Pd": "Marrow", "Pe": "Barred"}
    provinces: dict[str, object] = {
        "Hub": {"name": "Hub", "type": "land", "centre": True, "army": [*near]},
        "Pf": {"name": "Farrow", "type": "land", "army": ["Pd"]},
    }
    for pid, name in near.items():
        provinces[pid] = {"name": name, "type": "land", "army": ["Hub"] + ["Pf"] * (pid == "Pd")}
    raw = {
        "id": "star",
        "victory": 1,
        "powers": {"Red": {"home": ["Hub"], "units": ["A Hub"]}},
        "provinces": provinces,
    }
    path = tmp_path / "star.yaml"
    path.write_text(yaml.safe_dump(raw), encoding="utf-8")
    return DiplomacyGame(standard(load_map(path), id="star", title="Star"))


def test_at_most_three_nearest_first(tmp_path: Path) -> None:
    game = _star(tmp_path)
    st = state_of(game, None, "S1901M", None, None, 0)
    # "Barrow" is one from Barron, Harrow, Marrow (and Farrow, which Hub does
    # not border) and two from Burrox and Barred: the three nearest.
    err = _refusal(game, st, "Red", "A Hub - Barrow")
    assert err.choices == ("A Hub - Pb", "A Hub - Pc", "A Hub - Pd")
    assert err.hint == 'did you mean "A Hub - Pb" or "A Hub - Pc" or "A Hub - Pd"?'
    # "Barrel" is one from Barred, two from Barron: Barred first.
    assert _refusal(game, st, "Red", "A Hub - Barrel").choices == ("A Hub - Pe", "A Hub - Pb")


@pytest.mark.parametrize(
    ("a", "b", "d"),
    [
        ("serbai", "serbia", 1),  # a transposition
        ("bdu", "bud", 1),
        ("", "abc", 3),
        ("kitten", "sitting", 3),
        ("ca", "abc", 3),  # optimal string alignment: no edit of a transposed pair
        ("same", "same", 0),
    ],
)
def test_distance(a: str, b: str, d: int) -> None:
    assert spelling.distance(a, b) == d
    assert spelling.distance(b, a) == d


def test_close_is_one_slip_per_three_letters() -> None:
    assert spelling.close("serbai", "serbia") == 1
    assert spelling.close("serbai", "ser") is None  # not "Ser", three letters off
    assert spelling.close("nrth", "nth") == 1
    assert spelling.close("north", "nth") is None
    assert spelling.close("xanadu", "serbia") is None

"""The colours of the powers (players, forces): told apart from each other
and from the sea, the rivers and impassable land, by readers with normal
colour vision and by deuteranopes (CIEDE2000 differences, the second after
the Machado 2009 simulation; see judge.pictures.colour)."""

from __future__ import annotations

import itertools
import math

import pytest

from judge.pictures.colour import ciede2000, deuteranopia, distance, lab
from judge_games.classic.picture import COLOURS as CLASSIC
from judge_games.conflict_of_alliances import picture as coa
from judge_games.diplomacy.picture import LAND, RIVER, SEA, VOID_FILL, blend
from judge_games.three_kingdoms import picture as tk
from judge_games.warring_states.picture import COLOURS as WARRING_STATES

#: A unit's colour against another's, or against the water or impassable land
#: it stands beside: (as seen, as a deuteranope sees it).
UNITS = (20.0, 9.0)
#: A tinted province (a centre owned) against another power's, the water,
#: impassable land and unowned land: faint colours, smaller differences
#: (Conflict of Alliances, with ten forces, a little smaller still).
TINTS = (12.0, 7.0)
TINTS_TEN = (8.0, 5.0)
#: Owned land has a hue (CIE C*ab), where impassable land is grey.
HUE = 14.0
#: Two players of one Three Kingdoms kingdom: allies whose arrows interleave.
ALLIES = (40.0, 15.0)


def _far(a: str, b: str, least: tuple[float, float]) -> bool:
    seen, deutan = distance(a, b)
    return seen >= least[0] and deutan >= least[1]


def _palette(game: str) -> tuple[dict[str, str], dict[str, str], dict[str, str], str]:
    """(unit colours, their land tints, backgrounds, unowned land) of a game."""
    if game == "classic":
        tints = {p: blend(c, LAND, 0.45) for p, c in CLASSIC.items()}
        return CLASSIC, tints, {"sea": SEA, "impassable": VOID_FILL}, LAND
    if game == "warring_states":
        tints = {p: blend(c, LAND, 0.45) for p, c in WARRING_STATES.items()}
        return (WARRING_STATES, tints, {"sea": SEA, "river": RIVER, "impassable": VOID_FILL},
                LAND)
    if game == "three_kingdoms":
        units = {f"{k} {i + 1}": c for k, pair in tk.COLOURS.items() for i, c in enumerate(pair)}
        tints = {p: blend(c, LAND, 0.45) for p, c in units.items()}
        return units, tints, {"impassable": VOID_FILL}, LAND
    units = dict(coa.COLOURS)
    tints = {f: blend(c, coa.LAND, coa.TINT) for f, c in units.items()}
    return units, tints, {"sea": coa.SEA, "impassable": VOID_FILL}, coa.LAND


GAMES = ["classic", "warring_states", "three_kingdoms", "conflict_of_alliances"]


@pytest.mark.parametrize("game", GAMES)
def test_units_are_told_apart_from_each_other_and_the_background(game: str) -> None:
    units, _, backgrounds, _ = _palette(game)
    close = [(a, b, distance(units[a], units[b]))
             for a, b in itertools.combinations(sorted(units), 2)
             if not _far(units[a], units[b], UNITS)]
    close += [(a, b, distance(units[a], c)) for a in sorted(units)
              for b, c in backgrounds.items() if not _far(units[a], c, UNITS)]
    assert close == []


@pytest.mark.parametrize("game", GAMES)
def test_owned_land_is_told_apart_from_water_impassable_and_other_owners(game: str) -> None:
    _, tints, backgrounds, land = _palette(game)
    least = TINTS_TEN if game == "conflict_of_alliances" else TINTS
    close = [(a, b) for a, b in itertools.combinations(sorted(tints), 2)
             if not _far(tints[a], tints[b], least)]
    close += [(a, b) for a in sorted(tints) for b, c in {**backgrounds, "land": land}.items()
              if not _far(tints[a], c, least)]
    assert close == []
    assert [p for p, c in tints.items() if math.hypot(*lab(c)[1:]) < HUE] == []


def test_players_of_one_kingdom_are_far_apart() -> None:
    for kingdom, (first, second) in tk.COLOURS.items():
        assert _far(first, second, ALLIES), kingdom


def test_the_failures_seen_before_would_fail() -> None:
    """The colours found hard to tell apart: France's light blue by the sea,
    Warring States' Qin by impassable land and Wei by the rivers, Three
    Kingdoms' red and orange of Wu; and the classic red-green pair that a
    deuteranope cannot tell apart."""
    assert not _far("#58c3ee", SEA, UNITS)
    assert not _far(blend("#3d3d3d", LAND, 0.45), VOID_FILL, TINTS)
    assert math.hypot(*lab(blend("#323f4c", LAND, 0.45))[1:]) < HUE  # a grey, if far enough
    assert not _far("#2e7fc0", RIVER, UNITS)
    assert not _far("#c8372d", "#e08a12", ALLIES)
    assert not _far("#d8473d", "#3fa64a", UNITS)


def test_the_colour_difference_and_the_simulation_are_the_published_ones() -> None:
    # CIEDE2000: a colour against itself, and Sharma, Wu and Dalal's (2005)
    # known order: black and white differ by 100.
    assert ciede2000("#336699", "#336699") == 0
    assert ciede2000("#000000", "#ffffff") == pytest.approx(100.0, abs=0.01)
    # Machado 2009 keeps greys grey and folds a red and a green of like
    # lightness together (classic's old Austria and Italy).
    assert deuteranopia("#808080") == "#808080"
    red, green = "#d8473d", "#3fa64a"
    assert ciede2000(deuteranopia(red), deuteranopia(green)) < 0.1 * ciede2000(red, green)

"""The maps whose every region is land, drawn from a point per region and
the map's borders (Conflict of Alliances' areas, Three Kingdoms' provinces):
each region surrounds its point, the regions touch exactly where the map
has a border, the stored geometry is what the layout builds, and a known
position looks as stored."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bench.support.positions import position
from judge.game.draw import picture
from judge.pictures import geometry
from judge.pictures.layout import build
from judge_games.conflict_of_alliances.picture import DRAWING as ALLIANCES
from judge_games.three_kingdoms.picture import DRAWING as KINGDOMS
from tests.pictures.goldens import GOLDEN
from tests.pictures.test_pictures import _pixels_differing

#: Each such map's drawing, and the names of its regions.
REGION_MAPS: dict[str, tuple[Any, Callable[[], list[str]]]] = {
    "conflict_of_alliances": (ALLIANCES, lambda: list(ALLIANCES.areas())),
    "three_kingdoms": (KINGDOMS, lambda: list(KINGDOMS.provinces)),
}

GAMES = sorted(REGION_MAPS)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_region_surrounds_its_point(game_id: str) -> None:
    drawing, names = REGION_MAPS[game_id]
    g = drawing.geometry
    assert set(g.names()) == set(names())
    for n in names():
        assert geometry.contains(g.rings(n), drawing.where(n)), n


@pytest.mark.parametrize("game_id", GAMES)
def test_borders_are_shared_edges_and_no_other_regions_touch(game_id: str) -> None:
    drawing, _ = REGION_MAPS[game_id]
    g = drawing.geometry
    borders = set(drawing.borders())
    edges, corners = geometry.touching(g)
    assert not g.crossings
    for a, b in sorted(borders):
        assert (a, b) in edges, f"the border {a}-{b} is not a shared edge"
    for a, b in sorted(corners):
        assert (a, b) in borders, f"{a} and {b} touch but have no border"


@pytest.mark.parametrize("game_id", ["conflict_of_alliances"])
def test_the_geometry_is_what_the_layout_builds(game_id: str) -> None:
    """(Three Kingdoms is drawn on the real coastline instead: see test_coast.py.)"""
    drawing, names = REGION_MAPS[game_id]
    layout = build(drawing.plan())
    assert not layout.skipped
    stored = drawing.geometry
    for n in names():
        assert sorted(map(sorted, layout.rings[n])) == sorted(map(sorted, stored.rings(n))), \
            f"geometry.yaml is stale ({n}): run python tools/layout.py {game_id}"


@pytest.mark.parametrize("game_id", GAMES)
def test_a_known_position_looks_as_stored(game_id: str) -> None:
    png = picture(game_id, position(game_id))
    assert _pixels_differing(png, (GOLDEN / f"{game_id}.png").read_bytes()) < 0.0001

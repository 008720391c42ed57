"""The Three Kingdoms picture: its region geometry against map.yaml, a known
position against its stored image, and what the picture shows."""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

from games.three_kingdoms.picture import DRAWING
from judge.pictures import geometry, picture
from tests.pictures.positions import GOLDEN, position
from tests.pictures.test_pictures import _pixels_differing


def test_every_province_has_a_region_around_its_point() -> None:
    g = DRAWING.geometry
    assert set(g.names()) == set(DRAWING.provinces) == {str(n) for n in range(1, 48)}
    for n in DRAWING.provinces:
        assert geometry.contains(g.rings(n), DRAWING.where(n)), n


def test_borders_are_shared_edges_and_no_other_regions_touch() -> None:
    g = DRAWING.geometry
    borders = set(DRAWING.borders())
    edges, corners = geometry.touching(g)
    assert not g.crossings
    for a, b in sorted(borders):
        assert (a, b) in edges, f"the border {a}-{b} is not a shared edge"
    for a, b in sorted(corners):
        assert (a, b) in borders, f"{a} and {b} touch but have no border"


def test_the_geometry_is_built_from_the_map() -> None:
    from judge.pictures.layout import build

    layout = build(DRAWING.plan())
    assert not layout.skipped
    g = DRAWING.geometry
    for n in DRAWING.provinces:
        assert sorted(map(sorted, layout.rings[n])) == sorted(map(sorted, g.rings(n))), \
            f"geometry.yaml is stale ({n}): run python -m judge.pictures.layout three_kingdoms"


def test_a_known_position_looks_as_stored() -> None:
    png = picture("three_kingdoms", position("three_kingdoms"))
    assert _pixels_differing(png, (GOLDEN / "three_kingdoms.png").read_bytes()) < 0.0001


def test_each_region_and_name_of_the_map_appears() -> None:
    svg = picture("three_kingdoms", position("three_kingdoms"), fmt="svg").decode()
    drawn = set(re.findall(r'class="region ([^"]+)" d="M', svg))
    assert drawn == set(DRAWING.provinces)
    for n, p in DRAWING.provinces.items():
        label = escape(f"{n} {p['name']}")
        assert f">{label}</text>" in svg, n


def test_every_piece_is_drawn_in_its_owners_colour() -> None:
    view = position("three_kingdoms")
    colours = DRAWING.colours(view)
    assert len(set(colours.values())) == 6
    svg = picture("three_kingdoms", view, fmt="svg").decode()
    pieces = [*view["pieces"], *(p for g in view["dislodged"] for p in g["pieces"])]
    for role, colour in colours.items():
        own = [p for p in pieces if p["owner"] == role]
        # each piece is one shape in the colour, plus the player's legend dot
        shape = rf'(?:<rect|<circle|<path)[^>]*fill="{colour}"[^>]*stroke="#000000"'
        shapes = len(re.findall(shape, svg))
        assert shapes >= len(own) + 1, role
    bare = picture("three_kingdoms", {**view, "pieces": [], "dislodged": []}, fmt="svg").decode()
    assert svg.count(">A</text>") == bare.count(">A</text>") + sum(
        p["kind"] == "A" for p in pieces)


def test_the_campaign_is_drawn_moves_supports_bounces_and_the_dislodged() -> None:
    view = position("three_kingdoms")
    svg = picture("three_kingdoms", view, fmt="svg").decode()
    bare = picture("three_kingdoms", {**view, "last": None, "dislodged": []},
                   fmt="svg").decode()
    moves = sum("->" in e["order"] and " S " not in e["order"] for e in view["last"]["entries"])
    supports = sum(" S " in e["order"] for e in view["last"]["entries"])
    assert (moves, supports) == (8, 5)
    assert svg.count('stroke-dasharray="8 5"') - bare.count('stroke-dasharray="8 5"') == supports
    # two bounced moves into 24: a red cross (two strokes) on each; the dislodged militia ringed
    assert svg.count('stroke="#d00000"') - bare.count('stroke="#d00000"') == 2 * 2 + 1
    # and its retreats (12, 13) dotted
    assert svg.count('stroke-dasharray="2 5"') == 2

"""Map pictures: the region geometry against each map, the drawing of a
known position against its stored image, and what every picture shows."""

from __future__ import annotations

import io
import re

import pytest
import yaml
from PIL import Image, ImageChops

from bench.support.positions import ORDERS, position
from judge.game import registry
from judge.game.draw import picture
from judge.pictures import NoPicture, geometry
from judge.pictures.layout import Plan, build
from judge_games.diplomacy.picture import DiplomacyDrawing
from tests.pictures.goldens import GOLDEN

DIPLOMACY = ["classic", "warring_states"]


def drawing(game_id: str) -> DiplomacyDrawing:
    """The drawing of a Diplomacy-family game."""
    found = registry.drawing(game_id)
    assert isinstance(found, DiplomacyDrawing), found
    return found


@pytest.mark.parametrize("game_id", DIPLOMACY)
def test_every_province_has_a_region_around_its_units_point(game_id: str) -> None:
    d = drawing(game_id)
    g = d.geometry
    for pid in d.map["provinces"]:
        assert g.rings(pid), pid
        assert geometry.contains(g.rings(pid), d.where(pid)), pid


@pytest.mark.parametrize("game_id", DIPLOMACY)
def test_borders_are_shared_edges_and_no_other_land_regions_touch(game_id: str) -> None:
    d = drawing(game_id)
    g = d.geometry
    borders = set(d.borders())
    edges, corners = geometry.touching(g)
    water = d.water()
    for border in sorted(borders):
        if border in g.crossings:
            continue
        assert border in edges, f"the border {border[0]}-{border[1]} is not a shared edge"
    for a, b in sorted(corners):
        if a in water or b in water:
            continue
        assert (a, b) in borders, f"{a} and {b} touch but have no border"
    assert g.crossings <= borders


def test_a_crossing_is_a_land_border_or_one_the_layout_names_and_is_drawn() -> None:
    """Land borders across a river are drawn as crossings of it; a border of
    water is a crossing only where places.yaml names it (two junctions of
    the board's rivers that the real rivers do not make)."""
    d = drawing("warring_states")
    g = d.geometry
    water = d.water()
    places = yaml.safe_load((d.folder / "places.yaml").read_text("utf-8"))
    named = {tuple(sorted(p)) for p in places["crossings"]}
    assert g.crossings, "Warring States draws some land borders as crossings"
    for a, b in sorted(g.crossings):
        assert not ({a, b} & water) or (a, b) in named, f"{a}-{b}"
    svg = picture("warring_states", position("warring_states"), fmt="svg").decode()
    assert svg.count('stroke-dasharray="2 4"') == len(g.crossings)


def test_the_layout_refuses_a_crossing_border_without_waypoints() -> None:
    plan = Plan(size=(100, 100), points={"a": (10, 10), "b": (90, 90), "c": (90, 10),
                                         "d": (10, 90)},
                borders=[("a", "b"), ("c", "d")])
    with pytest.raises(ValueError, match="c-d crosses another"):
        build(plan)


def test_the_layout_keeps_non_neighbours_apart() -> None:
    # a square of four provinces, a-c and b-d not neighbours: a hole in the middle
    plan = Plan(size=(100, 100), points={"a": (20, 20), "b": (80, 20), "c": (80, 80),
                                         "d": (20, 80)},
                borders=[("a", "b"), ("b", "c"), ("c", "d"), ("a", "d")])
    layout = build(plan)
    g = geometry.Geometry(size=(100, 100), regions=layout.rings, crossings=frozenset())
    edges, corners = geometry.touching(g)
    assert edges == {("a", "b"), ("b", "c"), ("c", "d"), ("a", "d")}
    assert corners == edges
    assert layout.rings.get("_void")


def _pixels_differing(a: bytes, b: bytes) -> float:
    ia = Image.open(io.BytesIO(a)).convert("RGB")
    ib = Image.open(io.BytesIO(b)).convert("RGB")
    assert ia.size == ib.size
    diff = ImageChops.difference(ia, ib).convert("L").point(lambda v: 255 if v > 40 else 0)
    hist = diff.histogram()
    return hist[255] / (ia.size[0] * ia.size[1])


@pytest.mark.parametrize("game_id", sorted(ORDERS))
def test_a_known_position_looks_as_stored(game_id: str) -> None:
    png = picture(game_id, position(game_id))
    stored = (GOLDEN / f"{game_id}.png").read_bytes()
    assert _pixels_differing(png, stored) < 0.0001


def test_the_golden_comparison_sees_a_changed_position() -> None:
    view = position("classic")
    view["units"] = {**view["units"], "Turkey": []}
    png = picture("classic", view)
    assert _pixels_differing(png, (GOLDEN / "classic.png").read_bytes()) > 0.0001


@pytest.mark.parametrize("game_id", sorted(ORDERS))
def test_each_region_of_the_map_appears_in_the_drawing(game_id: str) -> None:
    svg = picture(game_id, position(game_id), fmt="svg").decode()
    drawn = set(re.findall(r'class="region ([^"]+)" d="M', svg))
    assert drawn == set(drawing(game_id).map["provinces"])


def test_orders_are_drawn_from_the_last_phase() -> None:
    view = position("classic")
    svg = picture("classic", view, fmt="svg").decode()
    bare = picture("classic", {**view, "last": None}, fmt="svg").decode()
    # every move is an arrow (two lines and two heads); the bounces are crossed
    assert svg.count("<path") > bare.count("<path") + 2 * 19
    assert svg.count('stroke="#d00000"') >= 2 * 3  # War-Gal, Vie-Gal, Sev/Ank-Bla bounced


def test_png_and_svg_and_nothing_else() -> None:
    view = position("classic")
    assert picture("classic", view).startswith(b"\x89PNG")
    assert picture("classic", view, fmt="svg").startswith(b"<svg")
    with pytest.raises(ValueError, match="png or svg"):
        picture("classic", view, fmt="gif")
    with pytest.raises(NoPicture):
        picture("no_such_game", {})


@pytest.mark.parametrize("game_id", DIPLOMACY)
def test_the_outer_regions_reach_the_edge_whole(game_id: str) -> None:
    """The frame that closes the outer regions lies wholly outside the
    picture: no wedge of it is cut into a province or sea along the edge
    (the sawtooth once seen down classic's right edge)."""
    from judge.pictures.layout import OUTSIDE

    g = drawing(game_id).geometry
    w, h = g.size
    assert [p for ring in g.rings(OUTSIDE) for p in ring if 0 < p[0] < w and 0 < p[1] < h] == []


def test_classic_has_one_patch_of_impassable_land_switzerland() -> None:
    """Impassable land is land no province takes: islands of no province
    (Ireland, Iceland, Corsica, Sardinia, Crete, Cyprus), land at the board's
    edge (Arabia), and one patch inland, Switzerland, between Burgundy,
    Marseilles, Piedmont, Tyrolia and Munich (once also a stray patch west of
    Spain, where the face's cut joined Portugal to the Western Med)."""
    from judge.pictures.layout import VOID

    g = drawing("classic").geometry
    w, h = g.size
    water = drawing("classic").water()
    inland = []
    for patch in g.rings(VOID):
        corners = set(patch)
        around = {n for n in g.names() for ring in g.rings(n) for p in ring if p in corners}
        at_edge = any(not (0 < x < w and 0 < y < h) for x, y in patch)
        if not around & water and not at_edge:
            inland.append(around)
    assert inland == [{"Bur", "Mar", "Mun", "Pie", "Tyr"}]


def test_a_face_is_cut_between_neighbours_where_it_can_be() -> None:
    """A four-cornered face whose one diagonal joins two provinces with no
    border between them is cut along the other diagonal."""
    from judge.pictures.layout import _triangles

    a, b, c, d = (0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)
    for face in ([a, b, c, d], [b, c, d, a], [c, d, a, b], [d, a, b, c]):
        tris = _triangles(face, lambda p, q: {p, q} == {a, c})
        assert all(not {a, c} <= set(t) for t in tris), face

"""The Conflict of Alliances picture: its layout and region geometry against
map.yaml, a known position against its stored image, what the picture
shows, and that it shows only public facts whoever's view it is drawn from."""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

from games.conflict_of_alliances import GAME
from games.conflict_of_alliances.data import slug
from games.conflict_of_alliances.picture import COLOURS, DRAWING, MOUNTAIN, WATERWAY
from judge.pictures import geometry, picture
from judge.pictures.layout import build
from judge.rng import Rng
from tests.pictures.positions import COA_LINES, GOLDEN, position
from tests.pictures.test_pictures import _pixels_differing


def test_the_layout_places_every_area_of_the_map_and_nothing_else() -> None:
    assert set(DRAWING.layout["points"]) == set(DRAWING.map["areas"])
    w, h = DRAWING.layout["size"]
    for a in DRAWING.areas():
        x, y = DRAWING.where(a)
        assert 0 < x < w and 0 < y < h, a


def test_every_area_has_a_region_around_its_city() -> None:
    g = DRAWING.geometry
    assert set(g.names()) == set(DRAWING.areas())
    for a in DRAWING.areas():
        assert geometry.contains(g.rings(a), DRAWING.where(a)), a


def test_borders_are_shared_edges_and_no_other_areas_touch() -> None:
    g = DRAWING.geometry
    borders = set(DRAWING.borders())
    edges, corners = geometry.touching(g)
    assert not g.crossings
    for a, b in sorted(borders):
        assert (a, b) in edges, f"the border {a}-{b} is not a shared edge"
    for a, b in sorted(corners):
        assert (a, b) in borders, f"{a} and {b} touch but have no border"


def test_the_geometry_is_built_from_the_layout() -> None:
    layout = build(DRAWING.plan())
    assert not layout.skipped
    stored = DRAWING.geometry
    for a in DRAWING.areas():
        assert sorted(map(sorted, layout.rings[a])) == sorted(map(sorted, stored.rings(a))), \
            f"geometry.yaml is stale ({a}): run python -m judge.pictures.layout " \
            "conflict_of_alliances"


def test_mountain_and_waterway_borders_are_drawn_by_kind() -> None:
    svg = picture("conflict_of_alliances", position("conflict_of_alliances"), fmt="svg").decode()
    kinds = DRAWING.borders()
    for kind, colour in (("mountain", MOUNTAIN), ("waterway", WATERWAY)):
        edges = sum(len(DRAWING.shared(a, b)) for (a, b), (k, _) in kinds.items() if k == kind)
        assert edges
        drawn = len(re.findall(rf'<path d="M[^"]*" fill="none" stroke="{colour}" '
                               rf'stroke-width="[56]"', svg))
        assert drawn == edges + 1, kind  # and one in the legend
    # each waterway's stream: an arrowhead in the waterway colour
    waterways = sum(k == "waterway" for k, _ in kinds.values())
    heads = len(re.findall(rf'<path d="M[^"]*Z" fill="{WATERWAY}"', svg))
    assert heads == waterways == 2


def test_a_known_position_looks_as_stored() -> None:
    png = picture("conflict_of_alliances", position("conflict_of_alliances"))
    assert _pixels_differing(png, (GOLDEN / "conflict_of_alliances.png").read_bytes()) < 0.0001


def test_each_area_and_its_name_appears() -> None:
    svg = picture("conflict_of_alliances", position("conflict_of_alliances"), fmt="svg").decode()
    drawn = set(re.findall(r'class="region ([^"]+)" d="M', svg))
    assert drawn == set(DRAWING.areas())
    for a, info in DRAWING.map["areas"].items():
        assert f">{escape(info['name'])}</text>" in svg, a


def test_every_stack_and_control_marker_is_drawn_in_its_forces_colour() -> None:
    view = position("conflict_of_alliances")
    svg = picture("conflict_of_alliances", view, fmt="svg").decode()
    stacks = [st for a in view["areas"] for st in a["stacks"]]
    cities = [a["city"] for a in view["areas"] if a["city"]]
    op = view["operation"]
    assert op and op["moving"]["armies"] == 3  # Qin's three armies on the move
    for force, colour in COLOURS.items():
        own = sum(st["force"] == force for st in stacks) + cities.count(force)
        own += op["force"] == force
        if not own:
            continue
        drawn = len(re.findall(rf'<rect [^>]*fill="{colour}" stroke="#000000" '
                               rf'stroke-width="(?:1.2|2)"', svg))
        assert drawn == own, force
    for st in stacks:
        name = DRAWING.name(st["force"])
        assert f">{name} {st['ready']}" in svg
        for g in st["generals"]:
            assert f">{DRAWING.general(g['id'])}" in svg
    assert ">Qin 3 +2 tired</text>" in svg  # beaten back from Han, in Xiao Han
    assert ">Qin 3 moving</text>" in svg


def test_a_seats_view_draws_the_observers_picture_and_no_hidden_card() -> None:
    """The picture is drawn from a view, and only from its public facts:
    at every step of the known position, each side's view draws exactly the
    observers' picture, which names no card in a hand, a deck or face down."""
    rng = Rng(bytes(32))
    state = GAME.setup({}, rng)
    steps = [state]
    for side, line in COA_LINES:
        state, _ = GAME.act(state, side, GAME.parse(state, side, line), rng)
        steps.append(state)
    names = DRAWING.card_names
    for state in steps:
        public = picture("conflict_of_alliances", GAME.view(state, None), fmt="svg")
        for side in ("Lianheng", "Alliance"):
            view = GAME.view(state, side)
            assert view["hand"], side  # the seat's view does hold its hand
            assert picture("conflict_of_alliances", view, fmt="svg") == public
        text = public.decode()
        shown = {slug(c) for s in ("Lianheng", "Alliance")
                 for c, up in state["cards"][s]["discard"] if up}
        hidden = {slug(c) for s in ("Lianheng", "Alliance")
                  for c in [*state["cards"][s]["hand"], *state["cards"][s]["deck"],
                            *(c for c, up in state["cards"][s]["discard"] if not up)]}
        for card in sorted(hidden - shown):
            assert escape(names[card]) not in text, card

"""The Conflict of Alliances picture: its layout against map.yaml, what the
picture shows, and that it shows only public facts whoever's view it is
drawn from (its regions and a known position: test_regions.py)."""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

from bench.support.positions import COA_LINES, position
from judge.game.draw import picture
from judge.game.rng import Rng
from judge_games.conflict_of_alliances import GAME
from judge_games.conflict_of_alliances.data import slug
from judge_games.conflict_of_alliances.picture import COLOURS, DRAWING, MOUNTAIN, WATERWAY


def test_the_layout_places_every_area_of_the_map_and_nothing_else() -> None:
    assert set(DRAWING.layout["points"]) == set(DRAWING.map["areas"])
    w, h = DRAWING.layout["size"]
    for a in DRAWING.areas():
        x, y = DRAWING.where(a)
        assert 0 < x < w and 0 < y < h, a


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

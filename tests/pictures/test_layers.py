"""A map's static layers rendered once and kept as pixels.

A scene marks what every picture of its map shares (:meth:`Scene.layer`: a
map's land and sea, its borders, its centre markers); the PNG is rendered
in runs (:meth:`Scene.runs`): each static layer's pixels are kept from the
first picture of the map, the parts that change with the position are
rendered on a transparent canvas, and the runs are laid over each other in
order. These tests show that this is still the scene's SVG rendered: the
same pixels as the whole SVG rendered in one pass, to within the rounding
of the anti-aliased edges' blends, and that the kept pixels are bounded."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from bench.support import positions
from judge.game import draw
from judge.pictures import rendering
from judge.pictures.scene import Item, Scene

#: The maps whose drawings have static layers.
LAYERED = ["classic", "conflict_of_alliances", "three_kingdoms", "warring_states"]


def _png_pixels(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.mark.parametrize("game_id", LAYERED)
def test_the_layered_rendering_is_the_svg_rendered_in_one_pass(game_id: str) -> None:
    drawn = draw.scene(game_id, positions.position(game_id))
    assert drawn.layers, "the map marks its static layers"
    rendering.forget_layers()
    layered = rendering.composed(drawn.runs(), drawn.stamped())
    whole = rendering.pixels(drawn.svg())
    assert layered.size == whole.size == (drawn.width, drawn.height)
    # Every channel of every pixel within 3 levels of 255: the blends along
    # the edges rounded once more, nothing drawn differently.
    _low, high = zip(*ImageChops.difference(layered, whole).getextrema(), strict=True)
    assert max(high) <= 3
    # And the PNG looks as the one the whole SVG gives, by the measure of
    # the golden images (tests/pictures/test_pictures.py): the palette is
    # chosen on slightly different pixels, so a few edge pixels of a rare
    # blend take another near colour, no more.
    ours, theirs = _png_pixels(drawn.png()), _png_pixels(rendering.png(drawn.svg()))
    far = ImageChops.difference(ours, theirs).convert("L").point(lambda v: 255 if v > 40 else 0)
    assert far.histogram()[255] / (drawn.width * drawn.height) < 0.0001


def test_the_runs_are_the_layers_and_the_stretches_between_them() -> None:
    s = Scene(40, 30, background="#a0b0c0")
    below: list[Item] = [("rect", '<rect x="1" y="1" width="10" height="10" fill="#ff0000"/>', ())]
    above: list[Item] = [("rect", '<rect x="5" y="5" width="10" height="10" fill="#0000ff"/>', ())]
    s.layer(below)
    s.circle((20, 15), 4, fill="#00ff00")
    s.layer(above)
    s.text((20, 20), "Bel", size=11)
    runs = s.runs()
    assert [static for static, _ in runs] == [True, False, True, False]
    # Only the first run paints the background; each holds its own items.
    assert 'fill="#a0b0c0"' in runs[0][1]
    assert all('fill="#a0b0c0"' not in svg for _, svg in runs[1:])
    assert "#ff0000" in runs[0][1] and "<circle" in runs[1][1]
    assert "#0000ff" in runs[2][1] and ">Bel</text>" in runs[3][1]
    # Everything of the SVG is in one run or another, in the SVG's order.
    body = "".join(svg.split(">", 1)[1].removesuffix("</svg>\n") for _, svg in runs)
    assert body.replace("\n", "") == s.svg().split(">", 1)[1].removesuffix("</svg>\n").replace(
        "\n", "")
    # A scene without layers is one run, painted as its SVG.
    plain = Scene(10, 10)
    plain.circle((5, 5), 3, fill="#000000")
    assert plain.runs() == [(False, plain.svg())]


def test_a_static_layer_is_rendered_once_and_kept() -> None:
    rendering.forget_layers()
    drawn = draw.scene("classic", positions.position("classic"))
    statics = [svg for static, svg in drawn.runs() if static]
    first = [rendering.layer(svg) for svg in statics]
    # Another position of the map: its static layers are the same pixels,
    # not rendered again.
    view = positions.position("classic")
    view["units"] = {**view["units"], "Turkey": []}
    other = draw.scene("classic", view)
    again = [rendering.layer(svg) for static, svg in other.runs() if static]
    assert all(a is b for a, b in zip(first, again, strict=True))
    assert len(first) == 2


def test_the_kept_layers_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    rendering.forget_layers()
    doc = '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10">{}</svg>'
    one_layer = 20 * 10 * 4
    monkeypatch.setattr(rendering, "LAYER_CACHE_BYTES", 2 * one_layer)
    shown = [rendering.layer(doc.format(f'<circle cx="{i}" cy="5" r="3"/>')) for i in range(3)]
    assert len(rendering._layers) == 2  # the oldest went
    assert rendering.layer(doc.format('<circle cx="2" cy="5" r="3"/>')) is shown[2]
    assert rendering.layer(doc.format('<circle cx="0" cy="5" r="3"/>')) is not shown[0]
    rendering.forget_layers()


@pytest.mark.parametrize("game_id", ["classic", "three_kingdoms", "warring_states"])
def test_names_at_their_first_place_are_laid_in_from_one_kept_layer(game_id: str) -> None:
    """The names that stand where they stand first (below their unit's
    point) are stamped: laid in from one layer of every name at its first
    place, the same in every scene of the map; a name moved aside (by an
    arrow or a unit in its way) is rendered with the rest."""
    drawn = draw.scene(game_id, positions.position(game_id))
    stamped = drawn.stamped()
    assert stamped is not None and drawn.stamps is not None
    names, boxes = stamped
    assert len(boxes) >= len(drawn.labels) // 3
    moved = [i for i in drawn.labels if i not in drawn.stamps[1]]
    assert moved, "some names are moved aside in the known position"
    last = drawn.runs()[-1][1]
    for i in drawn.labels:
        element = drawn.items[i][1]
        # A stamped name is not in the run rendered; a moved one is.
        assert (element in last) == (i in moved)
        if i not in moved:
            assert element in names
    # Another position of a Diplomacy map, with no units and no orders: the
    # same layer of names (so its pixels are kept), more names stamped.
    view = positions.position(game_id)
    if "units" in view:
        view["units"] = {power: [] for power in view["units"]}
        view["last"] = {}
        other = draw.scene(game_id, view).stamped()
        assert other is not None
        assert other[0] == names
        assert len(other[1]) > len(boxes)


def test_stamps_are_ignored_where_something_is_drawn_after_the_labels() -> None:
    from judge.pictures.labels import Label, place

    s = Scene(200, 100)
    place(s, [Label((50, 20), "Bel", 13.0), Label((150, 20), "Hol", 13.0)], (0, 0, 200, 100))
    assert s.stamped() is not None
    s.circle((50, 49), 10, fill="#000000")  # over Bel's place: must stay over it
    assert s.stamped() is None
    assert ">Bel</text>" in s.runs()[-1][1]

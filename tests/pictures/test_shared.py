"""One picture per phase for readers who see the same board.

A drawing that declares the view keys it reads (``reads``, see
:class:`judge.pictures.Drawing`) has its picture cached by those keys alone,
so the seven powers of a Diplomacy game share one rendering. These tests
read each such drawing's views, every role's and the public one, through a
mapping that records the keys asked for: a ``reads`` that leaves one out
would let readers share a picture that should differ.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from bench.support import positions
from judge.game import draw, registry
from judge.game.rng import Rng
from judge.pictures import rendering


class Recording(Mapping[str, Any]):
    """A view that remembers which of its keys were read."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.view = view
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return self.view[key]

    def __iter__(self) -> Iterator[str]:
        self.read.add("*every key*")
        return iter(self.view)

    def __len__(self) -> int:
        return len(self.view)


def _states() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for game_id in positions.ORDERS:
        game = registry.get(game_id)
        state = game.setup({}, Rng(bytes(32)))
        orders = {role: [game.parse(state, role, line) for line in lines]
                  for role, lines in positions.ORDERS[game_id].items()}
        out[game_id] = game.resolve(state, orders, Rng(bytes(32)))[0]
    from judge_games.three_kingdoms import GAME as TK

    out["three_kingdoms"] = TK.setup({}, Rng(bytes(32)))
    out["conflict_of_alliances"] = positions.conflict_of_alliances_state()
    return out


STATES = _states()


def _views(game_id: str) -> list[tuple[str | None, dict[str, Any]]]:
    game = registry.get(game_id)
    state = STATES[game_id]
    return [(role, dict(game.view(state, role))) for role in [None, *game.roles(state)]]


def test_the_diplomacy_family_and_conflict_of_alliances_declare_what_they_read() -> None:
    for game_id in STATES:
        assert getattr(registry.drawing(game_id), "reads", None), game_id


@pytest.mark.parametrize("game_id", sorted(STATES))
def test_a_drawing_reads_no_key_of_a_view_it_does_not_declare(game_id: str) -> None:
    drawing = registry.drawing(game_id)
    assert drawing is not None
    reads = getattr(drawing, "reads", None)  # optional to a Drawing, declared by each of these
    assert isinstance(reads, frozenset), f"{game_id}: the drawing declares no reads"
    for role, view in _views(game_id):
        seen = Recording(view)
        drawn = drawing.scene(seen, [])
        assert seen.read <= reads, (role, seen.read - reads)
        part = {k: v for k, v in view.items() if k in reads}
        assert drawing.scene(part, []).svg() == drawn.svg(), role


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """The role of each view a scene is built for from now on (the picture
    cache emptied first)."""
    seen: list[str | None] = []
    real = draw.scene

    def counting(game_id: str, view: Mapping[str, Any], results: Any = None) -> Any:
        seen.append(view.get("role"))
        return real(game_id, view, results)

    monkeypatch.setattr(draw, "scene", counting)
    draw._picture_cache.clear()
    return seen


def test_readers_of_one_diplomacy_phase_share_one_rendering(built: list[str | None]) -> None:
    got = {role: draw.picture("classic", view) for role, view in _views("classic")}
    assert len(built) == 1
    assert len(set(got.values())) == 1
    # A different board is a different picture, built anew.
    other = dict(_views("classic")[0][1], units={})
    assert draw.picture("classic", other) not in got.values()
    assert len(built) == 2


def test_conflict_of_alliances_builds_one_picture_per_distinct_drawn_part(
        built: list[str | None]) -> None:
    """Lianheng's view knows its face-down discards, which the picture does
    not show; the drawn parts then still differ, so its picture is built
    apart (equal bytes, by the scene), and the Alliance shares the public one."""
    views = _views("conflict_of_alliances")
    drawing = registry.drawing("conflict_of_alliances")
    reads = getattr(drawing, "reads", None)  # optional to a Drawing, declared by this one
    assert isinstance(reads, frozenset)
    parts = [json.dumps({k: v for k, v in view.items() if k in reads}, sort_keys=True)
             for _role, view in views]
    for _role, view in views:
        draw.picture("conflict_of_alliances", view)
    assert len(built) == len(set(parts)) < len(views)


@pytest.mark.parametrize("game_id", positions.GAMES)
def test_the_png_is_the_svg_rendered_the_same_bytes_each_time(game_id: str) -> None:
    """One drawing path: the PNG is the rendering of the scene's SVG,
    and the same scene gives the same bytes (the golden images and the
    picture cache rely on it), whether a map's static layers are kept from
    an earlier picture or rendered anew (tests/pictures/test_layers.py:
    the same pixels as the SVG rendered in one pass, to within the rounding
    of the edges' blends)."""
    import io

    from PIL import Image

    drawn = draw.scene(game_id, positions.position(game_id))
    rendering.forget_layers()
    first = drawn.png()
    again = draw.scene(game_id, positions.position(game_id))
    assert again.svg() == drawn.svg()
    assert again.png() == first  # the layers kept
    rendering.forget_layers()
    assert again.png() == first  # rendered anew
    if not drawn.layers:
        assert rendering.png(drawn.svg()) == first
    im = Image.open(io.BytesIO(first))
    assert im.size == (drawn.width, drawn.height)
    assert im.mode == "P"


def test_edges_are_anti_aliased() -> None:
    """A black line across white, at a slant, is drawn with grey pixels
    along its edges (a jagged rasteriser has only black and white)."""
    import io

    from PIL import Image

    from judge.pictures.scene import Scene

    s = Scene(60, 60)
    s.line([(5, 5), (55, 40)], "#000000", 3.0)
    s.text((30, 50), "Rum", size=12)
    im = Image.open(io.BytesIO(s.png())).convert("L")
    levels = {v for v, n in enumerate(im.histogram()) if n}
    assert min(levels) < 40
    assert len([v for v in levels if 40 < v < 215]) > 10
    # A map too: its palette holds the blends along its edges, not only its
    # few dozen flat colours.
    im = Image.open(io.BytesIO(draw.picture("classic", positions.position("classic"))))
    assert len(im.getcolors(256) or ()) > 150


def test_the_text_is_set_in_dejavu_sans() -> None:
    """The scenes name DejaVu Sans, and the renderer sets it: a name drawn
    by the renderer has the width DejaVu Sans gives it (as the label
    placement measures it), within a pixel or two."""
    from judge.pictures.scene import Scene
    from judge.pictures.text import text_width

    s = Scene(300, 40)
    s.text((10, 20), "Constantinople", size=20, anchor="start")
    ink = rendering.pixels(s.svg()).convert("L").point(lambda v: 255 if v < 128 else 0)
    box = ink.getbbox()
    assert box is not None
    assert abs((box[2] - box[0]) - text_width("Constantinople", 20)) <= 3


def test_a_missing_font_is_an_error_not_another_font(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    monkeypatch.setattr(rendering, "FONT_DIR", tmp_path)
    rendering.vips.cache_clear()
    try:
        with pytest.raises(rendering.MissingFont, match="fonts-dejavu-core"):
            rendering.png('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>')
    finally:
        rendering.vips.cache_clear()

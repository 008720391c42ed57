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
from typing import Any

import pytest

from judge import pictures, registry
from judge.rng import Rng
from tests.pictures import positions


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
    from games.three_kingdoms import GAME as TK

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
    reads = drawing.reads  # type: ignore[attr-defined]
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
    real = pictures.scene

    def counting(game_id: str, view: Mapping[str, Any], results: Any = None) -> Any:
        seen.append(view.get("role"))
        return real(game_id, view, results)

    monkeypatch.setattr(pictures, "scene", counting)
    pictures._picture_cache.clear()
    return seen


def test_readers_of_one_diplomacy_phase_share_one_rendering(built: list[str | None]) -> None:
    got = {role: pictures.picture("classic", view) for role, view in _views("classic")}
    assert len(built) == 1
    assert len(set(got.values())) == 1
    # A different board is a different picture, built anew.
    other = dict(_views("classic")[0][1], units={})
    assert pictures.picture("classic", other) not in got.values()
    assert len(built) == 2


def test_conflict_of_alliances_builds_one_picture_per_distinct_drawn_part(
        built: list[str | None]) -> None:
    """Lianheng's view knows its face-down discards, which the picture does
    not show; the drawn parts then still differ, so its picture is built
    apart (equal bytes, by the scene), and the Alliance shares the public one."""
    views = _views("conflict_of_alliances")
    drawing = registry.drawing("conflict_of_alliances")
    reads = drawing.reads  # type: ignore[union-attr]
    parts = [json.dumps({k: v for k, v in view.items() if k in reads}, sort_keys=True)
             for _role, view in views]
    for _role, view in views:
        pictures.picture("conflict_of_alliances", view)
    assert len(built) == len(set(parts)) < len(views)


@pytest.mark.parametrize("game_id", positions.GAMES)
def test_a_layer_painted_once_gives_the_pixels_of_painting_it_each_time(game_id: str) -> None:
    import io

    from PIL import Image

    from judge.pictures import raster

    drawn = pictures.scene(game_id, positions.position(game_id))
    assert drawn.layers or game_id in ("conquest_tactics",)
    for _ in range(2):  # the second time from the kept image
        quick = Image.open(io.BytesIO(raster.paint(drawn))).convert("RGB")
        slow = Image.open(io.BytesIO(raster.paint_items(drawn))).convert("RGB")
        assert quick.tobytes() == slow.tobytes()


@pytest.mark.parametrize("game_id", positions.GAMES)
def test_kept_text_masks_give_the_pixels_of_rendering_each_text(
        game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from PIL import Image, ImageFont

    from judge.pictures import raster

    drawn = pictures.scene(game_id, positions.position(game_id))
    raster.paint(drawn)  # every mask kept
    kept = Image.open(io.BytesIO(raster.paint(drawn))).convert("RGB")
    fonts = {raster.font(round(args[2]), args[5]) for kind, _, args in drawn.items
             if kind == "text"}
    assert fonts and all(isinstance(f, raster.KeptMasks) and f._masks for f in fonts)

    def plain(size: int, bold: bool) -> ImageFont.FreeTypeFont:
        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
        return ImageFont.truetype(str(raster.FONT_DIR / name), size)

    monkeypatch.setattr(raster, "font", plain)
    raster._bases.clear()
    fresh = Image.open(io.BytesIO(raster.paint(drawn))).convert("RGB")
    assert kept.tobytes() == fresh.tobytes()

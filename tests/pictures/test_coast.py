"""The classic, Three Kingdoms and Warring States maps are drawn on the real
coastline: every
sea region lies on the water and every land region on the land of Natural
Earth's 1:110m land (``judge_games/<game>/coast.yaml``, the data the regions
were made from, in the picture's pixels), within a small tolerance;
impassable land is land, and water of no province (the Caspian, the China
seas) is water."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path

import pytest
import yaml
from PIL import Image, ImageChops, ImageDraw, ImageFilter

import judge_games
from judge.game import registry
from judge.pictures import geometry
from judge.pictures.layout import LAKE, VOID, Point
from judge_games.diplomacy.picture import DiplomacyDrawing
from judge_games.three_kingdoms.picture import ThreeKingdomsDrawing

GAMES = Path(judge_games.__file__).resolve().parent
REAL = ["classic", "three_kingdoms", "warring_states"]

#: How far (pixels) an outline may stray over the coastline: the regions are
#: grown on a grid of 3-pixel cells, traced, straightened within 4 pixels and
#: smoothed; 7 pixels is about 22 km on this picture.
TOLERANCE = 7


def _coast(game: str) -> list[list[list[Point]]]:
    raw = yaml.safe_load((GAMES / game / "coast.yaml").read_text("utf-8"))
    return [[[(float(x), float(y)) for x, y in ring] for ring in poly] for poly in raw["land"]]


def _mask(size: tuple[int, int], rings: Sequence[Sequence[Point]]) -> Image.Image:
    """The pixels inside ``rings`` (even-odd), as a 0/255 image."""
    out = Image.new("1", size, 0)
    for ring in rings:
        one = Image.new("1", size, 0)
        ImageDraw.Draw(one).polygon([(x, y) for x, y in ring], fill=1)
        out = ImageChops.logical_xor(out, one)
    return out.convert("L")


def _inside(rings: Sequence[Sequence[Point]], wrong: Image.Image) -> int:
    """How many pixels of ``wrong`` lie inside ``rings``: the region drawn
    in its own bounding box only."""
    w, h = wrong.size
    xs = [x for ring in rings for x, _ in ring]
    ys = [y for ring in rings for _, y in ring]
    box = (max(0, int(min(xs))), max(0, int(min(ys))),
           min(w, int(max(xs)) + 2), min(h, int(max(ys)) + 2))
    if box[0] >= box[2] or box[1] >= box[3]:
        return 0
    moved = [[(x - box[0], y - box[1]) for x, y in ring] for ring in rings]
    region = _mask((box[2] - box[0], box[3] - box[1]), moved)
    return _count(ImageChops.multiply(region, wrong.crop(box)))


def _land(game: str, size: tuple[int, int], shift: float = 0.0) -> Image.Image:
    rings = [[(x + shift, y) for x, y in ring] for poly in _coast(game) for ring in poly]
    return _mask(size, rings)


def _count(img: Image.Image) -> int:
    return int(img.histogram()[255])


def strays(g: geometry.Geometry, water: set[str], land: Image.Image) -> dict[str, int]:
    """For each region, how many of its pixels lie more than TOLERANCE
    pixels on the wrong side of the coast (land for a sea, water for a land
    region)."""
    k = 2 * TOLERANCE + 1
    deep_land = land.filter(ImageFilter.MinFilter(k))
    deep_water = ImageChops.invert(land.filter(ImageFilter.MaxFilter(k)))
    out: dict[str, int] = {}
    for name in [*g.names(), VOID, LAKE]:
        if not g.rings(name):
            continue
        wrong = deep_land if name in water or name == LAKE else deep_water
        n = _inside(g.rings(name), wrong)
        if n:
            out[name] = n
    return out


def _map(game: str) -> tuple[geometry.Geometry, set[str]]:
    drawing = registry.drawing(game)
    assert isinstance(drawing, DiplomacyDrawing | ThreeKingdomsDrawing), drawing
    g: geometry.Geometry = drawing.geometry
    water: set[str] = drawing.water() if hasattr(drawing, "water") else set()
    # a river space runs over the land (Natural Earth's land has no rivers
    # cut out of it): it is held to the land, as a land region is
    provinces = getattr(drawing, "map", {}).get("provinces", {})
    return g, {w for w in water if not provinces[w].get("river")}


@pytest.fixture(scope="module")
def classic() -> tuple[geometry.Geometry, set[str]]:
    return _map("classic")


@pytest.mark.parametrize("game", REAL)
def test_every_region_follows_the_coastline(game: str) -> None:
    g, water = _map(game)
    assert strays(g, water, _land(game, g.size)) == {}


@pytest.mark.parametrize("game", REAL)
def test_the_regions_cover_the_land_and_the_water_they_claim(game: str) -> None:
    """Not only no stray: the seas together cover nearly all the water in the
    picture, and the land regions (with impassable land) nearly all the land."""
    g, water = _map(game)
    land = _land(game, g.size)
    seas = _mask(g.size, [r for n in [*water, LAKE] for r in g.rings(n)])
    ground = _mask(g.size, [r for n in g.names() if n not in water for r in g.rings(n)]
                   + list(g.rings(VOID)))
    total_land = _count(land)
    total_water = g.size[0] * g.size[1] - total_land
    assert _count(ImageChops.multiply(seas, ImageChops.invert(land))) > 0.97 * total_water
    assert _count(ImageChops.multiply(ground, land)) > 0.97 * total_land


def test_the_check_sees_a_coastline_out_of_place(
        classic: tuple[geometry.Geometry, set[str]]) -> None:
    """The same regions against the land moved 25 pixels east: the seas
    along the west coasts now cover land, and the check says which."""
    g, water = classic
    found = strays(g, water, _land("classic", g.size, shift=25.0))
    assert {"Mao", "Nao", "Eng", "Por", "Bre"} <= set(found)


@pytest.mark.parametrize("game", REAL)
def test_each_unit_stands_on_its_side_of_the_coast(game: str) -> None:
    """A fleet at sea is drawn on the water, an army's province point on land."""
    g, water = _map(game)
    land = _land(game, g.size)
    drawing = registry.drawing(game)
    assert isinstance(drawing, DiplomacyDrawing | ThreeKingdomsDrawing), drawing
    for pid in g.names():
        x, y = drawing.where(pid)
        on_land = land.getpixel((round(x), round(y))) == 255
        assert on_land == (pid not in water), pid


def test_the_schematic_layout_will_not_overwrite_the_real_coastline() -> None:
    spec = importlib.util.spec_from_file_location(
        "tools_layout", Path(__file__).resolve().parents[2] / "tools" / "layout.py")
    assert spec is not None and spec.loader is not None
    layout = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(layout)
    for game in REAL:
        with pytest.raises(SystemExit, match="real coastline"):
            layout.main([game])

"""The picture of a Kingdom Wars table: a known position against its stored
image, what it shows (every seat, distances, hidden generals), that it shows
nothing its reader may not know, and that 4 to 12 seats all fit.

Write the stored image again after a deliberate change to the drawing (and
look at it): ``python -m tests.pictures.test_kingdom_wars``.
"""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from PIL import Image, ImageChops

from bench.support.kingdom_wars import rng, table
from bench.support.positions import READER, full_view, known_state, known_view, seats_of
from judge.game.draw import picture
from judge_games.kingdom_wars import GAME
from judge_games.kingdom_wars import picture as kw
from tests.pictures.goldens import GOLDEN
from tests.support.scramble import scramble

STORED = GOLDEN / "kingdom_wars.png"
def svg_of(view: dict[str, Any]) -> str:
    return picture("kingdom_wars", view, fmt="svg").decode()


def texts(svg: str) -> list[str]:
    """Every text of an SVG picture, unescaped."""
    found = re.findall(r"<text [^>]*>([^<]*)</text>", svg)
    return [t.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">") for t in found]


def differing(a: bytes, b: bytes) -> float:
    """The share of pixels that differ clearly between two PNGs of one size."""
    ia = Image.open(io.BytesIO(a)).convert("RGB")
    ib = Image.open(io.BytesIO(b)).convert("RGB")
    assert ia.size == ib.size
    diff = ImageChops.difference(ia, ib).convert("L").point(lambda v: 255 if v > 40 else 0)
    return diff.histogram()[255] / (ia.size[0] * ia.size[1])


# --------------------------------------------------------------------------- the known position


def test_the_known_position_looks_as_stored() -> None:
    png = picture("kingdom_wars", known_view())
    assert png.startswith(b"\x89PNG")
    assert differing(png, STORED.read_bytes()) < 0.0001


def test_the_stored_image_comparison_sees_one_health_point() -> None:
    view = known_view()
    view["seats"] = [{**s, "hp": s["hp"] - 1} if s["seat"] == "E" else s
                     for s in view["seats"]]
    assert differing(picture("kingdom_wars", view), STORED.read_bytes()) > 0.0001


def test_the_picture_says_what_the_view_says() -> None:
    view = known_view()
    shown = texts(svg_of(view))
    seat = {s["seat"]: s for s in view["seats"]}
    # exposed generals by name; seat C's own hidden one and the one it viewed, marked hidden
    for name in ("Liu Bei", "Sun Quan", "Lv Bu", "Sima Yi", "Cao Cao", "Xu Chu"):
        assert name in shown, name
    assert "Zhou Tai (hidden)" in shown
    assert "Guo Jia (hidden, viewed)" in shown
    # kingdoms; an Ambitionist; the eliminated seat greyed
    assert {"Shu", "Wu", "Neutral", "Ambitionist (Wei)", "eliminated · Wei"} <= set(shown)
    assert "hidden: Wei" in texts(svg_of(known_view("D")))  # its own generals' kingdom
    # health, equipment, judgement zone, chains, stacked, markers
    for r in "ACDEFG":
        assert f"{seat[r]['hp']}/{seat[r]['max_hp']}" in shown, r
    for e in seat["A"]["equip"] + seat["C"]["equip"] + seat["E"]["equip"]:
        assert e in shown, e
    assert [j["as"] for j in seat["D"]["judge"]] == ["Lightning", "Acedia"]
    assert {seat["D"]["judge"][0]["card"], seat["D"]["judge"][1]["card"]} <= set(shown)
    assert shown.count("in Chains") == 2 and "Stacked" in shown and "Yin-Yang" in shown
    # the reader's distances and whether each seat is within its attack range
    for r in "ADEFG":
        d, within = seat[r]["distance"], seat[r]["within_reach"]
        assert f"distance {d} · {'in' if within else 'out of'} range" in shown, r
    assert any(s["within_reach"] for s in view["seats"] if "distance" in s)
    assert not all(s["within_reach"] for s in view["seats"] if "distance" in s)
    assert f"your attack range {seat[READER]['attack_range']}" in shown
    assert "Seat A's turn: Play Phase" in shown


def test_hidden_generals_of_others_stay_hidden() -> None:
    """Seat D's and G's generals are hidden from C, and F's deputy from
    everyone but F and C: their names appear in no picture but their own."""
    for role in (None, "A", "C", "E"):
        shown = " ".join(texts(svg_of(known_view(role))))
        for name in ("Zhang Liao", "Xiahou Dun", "Ma Chao", "Huang Zhong"):
            assert name not in shown, (role, name)
        assert ("Guo Jia" in shown) == (role == "C"), role
    assert "Ma Chao (hidden)" in texts(svg_of(known_view("G")))


# --------------------------------------------------------------------------- privacy


@pytest.mark.parametrize("reader", [READER, "D", None])
def test_a_scrambled_table_draws_the_same_for_its_reader(reader: str | None) -> None:
    """What the reader may not see (others' hands and hidden generals, the
    deck) dealt out again at random: its picture is the same, byte for byte.
    The control: the same scramble changes another seat's own picture."""
    state = known_state()
    png = picture("kingdom_wars", dict(GAME.view(state, reader)))
    svg = svg_of(dict(GAME.view(state, reader)))
    others = [r for r in state["seats"] if r != reader and state["p"][r]["alive"]]
    changed = 0
    for seed in range(6):
        other = scramble(GAME, state, reader, random.Random(seed))
        view = dict(GAME.view(other, reader))
        assert picture("kingdom_wars", view) == png
        assert svg_of(view) == svg
        changed += sum(svg_of(dict(GAME.view(other, r))) != svg_of(dict(GAME.view(state, r)))
                       for r in others)
    assert changed > 0


# --------------------------------------------------------------------------- 4 to 12 seats


@pytest.mark.parametrize("n", range(4, 13))
def test_every_seat_appears_and_no_panels_overlap(n: int) -> None:
    s = table(seats_of(n), shown={"B": ["main"]}, turn="B")
    seats = s["seats"]
    for role in (None, "A", seats[-1]):
        view = dict(GAME.view(s, role))
        svg = svg_of(view)
        assert sorted(re.findall(r'class="region seat-([A-L])"', svg)) == seats
        shown = texts(svg)
        assert all(r in shown for r in seats)
        panels = [kw.panel(view, x) for x in view["seats"]]
        height = max([kw.MIN_HEIGHT, *(p.height for p in panels)])
        where = kw.layout(seats, role, height)
        boxes = [(x, y, x + kw.WIDTH, y + height) for x, y in where.corners.values()]
        mx, my, mw, mh = where.middle
        for i, (x0, y0, x1, y1) in enumerate(boxes):
            assert x0 >= 0 and y0 >= 0 and x1 <= where.size[0] and y1 <= where.size[1]
            assert x1 <= mx or x0 >= mx + mw or y1 <= my or y0 >= my + mh
            for a0, b0, a1, b1 in boxes[i + 1:]:
                assert x1 <= a0 or a1 <= x0 or y1 <= b0 or b1 <= y0, (n, role)
        # the reader's seat (seat A for an observer) sits in the bottom row, in the middle
        me = where.corners[role or "A"]
        assert me[1] == max(y for _, y in where.corners.values())
        assert abs(me[0] + kw.WIDTH / 2 - where.size[0] / 2) <= kw.WIDTH / 2 + kw.GAP


@pytest.mark.parametrize("n", [4, 7, 12])
def test_seats_follow_each_other_counter_clockwise(n: int) -> None:
    """From the reader at the bottom, the next seat is to its right, and the
    seat before it to its left ("a counter clockwise direction")."""
    s = table(seats_of(n))
    seats = s["seats"]
    where = kw.layout(seats, "A", kw.MIN_HEIGHT)
    ax = where.corners["A"][0]
    assert where.corners[seats[1]][0] > ax and where.corners[seats[-1]][0] < ax


@pytest.mark.parametrize("which", ["known", "full"])
def test_names_stay_legible(which: str) -> None:
    """Nothing is written smaller than 11 px, and no general's name or card
    is cut short, even at twelve seats."""
    view = known_view() if which == "known" else full_view()
    svg = svg_of(view)
    sizes = [float(v) for v in re.findall(r'font-size="([0-9.]+)"', svg)]
    assert sizes and min(sizes) >= 11
    assert not [t for t in texts(svg) if t.endswith("…")]
    names = {g["general"] for s in view["seats"] for g in s["generals"] if g["general"]}
    assert names and names <= {t.split(" (")[0] for t in texts(svg)}


def test_the_choosing_of_generals_draws_every_seat() -> None:
    state = GAME.setup({"seats": 5, "start": "A"}, rng())
    view = dict(GAME.view(state, "B"))
    assert view["stage"] == "generals"
    shown = texts(svg_of(view))
    assert all(r in shown for r in "ABCDE")
    assert "The players are choosing their generals." in shown


def main() -> None:
    STORED.write_bytes(picture("kingdom_wars", known_view()))
    print(f"wrote {STORED}")


if __name__ == "__main__":
    main()

"""The Three Kingdoms picture: what it shows (its regions against map.yaml
and a known position against its stored image: test_regions.py)."""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

from bench.support.positions import position
from judge.game.draw import picture
from judge_games.three_kingdoms.picture import DRAWING


def test_the_regions_are_the_47_provinces() -> None:
    assert set(DRAWING.geometry.names()) == set(DRAWING.provinces) == {
        str(n) for n in range(1, 48)
    }


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


def test_the_retreats_after_the_campaign_are_drawn() -> None:
    """Rulebook ("Dislodged"): "A piece that is dislodged must retreat to an
    adjacent province ... A militia may elect to be removed from retreat."
    Once the retreat phase is over the picture shows each retreat as a
    dashed orange arrow, and a red cross where a militia was disbanded."""
    from bench.support.positions import dislodged_three_kingdoms
    from bench.support.three_kingdoms import play
    from judge_games.diplomacy.picture import RETREAT
    from judge_games.three_kingdoms import GAME

    state = dislodged_three_kingdoms()
    (group,) = state["dislodged"]
    assert group["at"] == 5 and group["options"] == [12, 13]

    def solid(svg: str) -> list[str]:
        # the elements drawn in the retreat colour that are not the dotted options
        return [e for e in svg.split("\n") if RETREAT in e and 'dasharray="2 5"' not in e]

    before = picture("three_kingdoms", dict(GAME.view(state, None)), fmt="svg").decode()
    assert not solid(before)
    retreated, _ = play(state, {"Player1": ["M5->12"]})
    view = dict(GAME.view(retreated, None))
    assert view["last"]["retreats"] == [
        {"player": "Player1", "piece": "M5", "from": 5, "to": 12, "result": "retreats"}]
    svg = picture("three_kingdoms", view, fmt="svg").decode()
    assert "stroke-dasharray=\"2 5\"" not in svg  # no piece waits to retreat
    shaft, head = solid(svg)  # one arrow, its shaft dashed
    assert 'stroke-dasharray="6 4"' in shaft and f'fill="{RETREAT}"' in head
    crosses = svg.count('stroke="#d00000"')
    disbanded, _ = play(state, {"Player1": ["M5 DISBAND"]})
    svg = picture("three_kingdoms", dict(GAME.view(disbanded, None)), fmt="svg").decode()
    assert not solid(svg)
    assert svg.count('stroke="#d00000"') == crosses + 2  # a cross is two strokes

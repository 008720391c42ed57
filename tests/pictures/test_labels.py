"""Names on the maps: none covered by an arrow, a unit, a marker or another
name, none cut by the frame (tested geometrically: each label's box, the
text as DejaVu Sans sets it with its halo, against the segments of every
line and arrow, the circles and boxes of units and markers, and the frame)."""

from __future__ import annotations

from typing import Any

import pytest

from bench.support.positions import position
from judge.game import draw
from judge.pictures import labels
from judge.pictures.labels import Label, covered, place, text_box
from judge.pictures.scene import Scene

#: The map's frame of each game: the picture less its side panel.
PANELS = {"classic": 0, "warring_states": 0, "three_kingdoms": 290, "conflict_of_alliances": 320}


def _frame(game: str, s: Scene) -> labels.Box:
    return (2.0, 2.0, s.width - PANELS[game] - 2.0, s.height - 2.0)


def _retreated_three_kingdoms() -> dict[str, Any]:
    from bench.support.positions import dislodged_three_kingdoms
    from bench.support.three_kingdoms import play
    from judge_games.three_kingdoms import GAME

    state, _ = play(dislodged_three_kingdoms(), {"Player1": ["M5->12"]})
    return dict(GAME.view(state, None))


def _cases() -> list[tuple[str, str, dict[str, Any]]]:
    cases = [(g, g, position(g)) for g in ("classic", "warring_states", "three_kingdoms")]
    cases.append(("three_kingdoms", "three_kingdoms retreated", _retreated_three_kingdoms()))
    bare = position("classic")
    cases.append(("classic", "classic, no orders", {**bare, "last": None}))
    return cases


@pytest.mark.parametrize("game,name,view", _cases(), ids=lambda v: v if isinstance(v, str) else "")
def test_no_label_is_covered_or_cut(game: str, name: str, view: dict[str, Any]) -> None:
    s = draw.scene(game, view)
    assert len(s.labels) >= 40, name  # every province is named
    assert covered(s, _frame(game, s)) == []


def test_the_names_reported_hidden_are_clear() -> None:
    """Rum and Bel (classic) and Three Kingdoms' 12 Liangzhou, 45 Yuzhang and
    4 Qingzhou, once under an arrow, a unit or a cross, are drawn whole."""
    for game, names in (("classic", {"Rum", "Bel"}),
                        ("three_kingdoms", {"12 Liangzhou", "45 Yuzhang", "4 Qingzhou"})):
        s = draw.scene(game, position(game))
        shown = {s.items[i][2][1] for i in s.labels}
        assert names <= shown
        assert not {text for text, _ in covered(s, _frame(game, s))} & names


def test_a_label_moves_off_an_arrow_and_the_check_sees_one_left_on_it() -> None:
    s = Scene(200, 200)
    s.layer([])
    s.arrow([(20, 129), (180, 129)], "#000000", 4.0)  # right across the place below
    s.circle((100, 100), 13, fill="#ff0000", stroke="#000000")
    place(s, [Label((100.0, 100.0), "Rum", 13.0)], (2, 2, 198, 198))
    assert covered(s, (2, 2, 198, 198)) == []
    (i,) = s.labels
    assert s.items[i][2][0] != (100.0, 129.0)  # not below: above or beside
    # The same label written under the arrow is seen as covered.
    t = Scene(200, 200)
    t.layer([])
    t.arrow([(20, 129), (180, 129)], "#000000", 4.0)
    t.labels.append(len(t.items))
    t.text((100, 129), "Rum", size=13.0, halo="#ffffff")
    assert ("Rum", "line") in covered(t, (2, 2, 198, 198))


def test_a_label_by_the_edge_stays_inside_the_frame() -> None:
    s = Scene(200, 200)
    place(s, [Label((5.0, 100.0), "Longxi", 13.0)], (2, 2, 198, 198))
    assert covered(s, (2, 2, 198, 198)) == []
    (i,) = s.labels
    box = text_box(s.items[i][2][0], "Longxi", 13.0)
    assert box[0] >= 2


def test_conflict_of_alliances_counters_stay_inside_the_map() -> None:
    """A stack's label by the map's left edge is moved in, not cut."""
    from judge_games.conflict_of_alliances.picture import DRAWING

    view = position("conflict_of_alliances")
    s = draw.scene("conflict_of_alliances", view)
    frame = _frame("conflict_of_alliances", s)
    s2 = Scene(s.width, s.height)
    DRAWING._stack(s2, (4.0, 300.0), {"force": "yiqu", "place": "field", "ready": 2,
                                      "generals": [{"id": "sima-cuo", "ready": False}]})
    for kind, _, args in s.items + s2.items:
        if kind == "rect" and args[0] < frame[2]:
            assert args[0] >= 0
        if kind == "text" and args[0][0] < frame[2]:
            box = text_box(args[0], args[1], args[2], bold=args[5], anchor=args[4])
            assert box[0] >= 0 and box[3] <= s.height, args[1]


def _busy(game: str, seed: int) -> dict[str, Any]:
    """A crowded board: a unit on 34 provinces drawn at random, most of them
    moving to a neighbour, some bounced."""
    import random

    d = pictures_drawing(game)
    provinces = d.map["provinces"]
    powers = [p["name"] for p in position(game)["powers"]]
    rng = random.Random(seed)
    units: dict[str, list[str]] = {p: [] for p in powers}
    entries = []
    for i, pid in enumerate(rng.sample(sorted(provinces), 34)):
        kind = "F" if provinces[pid]["type"] == "sea" else "A"
        power = powers[i % len(powers)]
        units[power].append(f"{kind} {pid}")
        near = (provinces[pid].get("army") or []) + (provinces[pid].get("fleet") or [])
        if near and rng.random() < 0.6:
            entries.append({"power": power, "order": f"{kind} {pid} - {rng.choice(near)}",
                            "results": ["bounce"] if rng.random() < 0.3 else []})
    return {**position(game), "units": units, "last": {"phase": "F1901M", "entries": entries}}


def pictures_drawing(game: str) -> Any:
    from judge.game import registry

    return registry.drawing(game)


@pytest.mark.parametrize("game", ["classic", "warring_states"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_label_is_covered_on_a_crowded_board(game: str, seed: int) -> None:
    s = draw.scene(game, _busy(game, seed))
    assert sum(1 for kind, _, _ in s.items if kind == "line") > 20  # arrows drawn
    assert covered(s, _frame(game, s)) == []

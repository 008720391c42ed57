"""The map and the other data files: every area the rulebook and the Player
Aid name, the resource points they state, and every worked movement example
of the rulebook holding on our map (README.md, "The map")."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
import yaml

from judge import reports
from judge_games.conflict_of_alliances.data import DATA, HERE
from tests.conflict_of_alliances.helpers import A, L, deal, empty, parse, put, stance

NAMED = [
    # Player Aid II and the rulebook's examples
    "guanzhong", "hanzhong", "xiao-han", "shang-jun", "he-dong", "ba-shu", "han", "nan-yang",
    "nan-jun", "han-dan", "yan", "taiyuan", "longxi", "dai", "jiujiang",
    # the areas the forces need
    "qi", "wei", "song", "yiqu", "jiang-dong",
]


@pytest.mark.parametrize(
    ("name", "schema"),
    [("map.yaml", "map"), ("forces.yaml", "forces"), ("scenarios.yaml", "scenarios"),
     ("cards.yaml", "cards")],
)
def test_data_files_fit_their_schemas(name: str, schema: str) -> None:
    doc = yaml.safe_load(Path(HERE / name).read_text(encoding="utf-8"))
    jsonschema.validate(doc, reports.load_schema(f"conflict-of-alliances-{schema}.schema.json"))


def test_every_named_area_is_on_the_map() -> None:
    assert sorted(DATA.areas) == sorted(NAMED)


def test_resource_points_the_rulebook_states() -> None:
    """Board: "A red-named area (for example, Nan Jun) has 2 resource points
    (RP). A black-named area (for example, Jiujiang) has only 1"."""
    assert DATA.areas["nan-jun"].rp == 2
    assert DATA.areas["jiujiang"].rp == 1
    assert {a.rp for a in DATA.areas.values()} == {1, 2}


def test_the_map_is_connected_and_borders_are_well_formed() -> None:
    seen = {"guanzhong"}
    todo = ["guanzhong"]
    while todo:
        for nxt in DATA.neighbours[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    assert seen == set(DATA.areas)
    for pair, border in DATA.borders.items():
        a, b = sorted(pair)
        assert DATA.step_cost(a, b) in (1, 2) and DATA.step_cost(b, a) in (1, 2)
        if border.kind == "waterway":
            assert {DATA.step_cost(a, b), DATA.step_cost(b, a)} == {1, 2}


def test_sima_cuo_ba_shu_hanzhong_nan_yang_costs_three() -> None:
    """Movement: "Sima Cuo ... leads the Qin army from Ba Shu into Hanzhong. The
    mountain border costs 2 movement points. He then continues to Nanyang.
    Moving with the waterway costs 1 movement point. The total cost is 3 ...
    In the reverse case, moving from Nanyang into Hanzhong against the
    waterway costs 2 movement points"."""
    border = DATA.border("ba-shu", "hanzhong")
    assert border is not None and border.kind == "mountain"
    assert DATA.step_cost("ba-shu", "hanzhong") == 2
    assert DATA.step_cost("hanzhong", "nan-yang") == 1
    assert DATA.step_cost("nan-yang", "hanzhong") == 2
    state = empty()
    put(state, "ba-shu", "qin", 2, generals=["sima-cuo"])
    deal(state, L, "mounted-attack")
    action = parse(state, L, "PLAY mounted-attack FACEDOWN MILITARY ba-shu qin 2 sima-cuo "
                             "TO hanzhong nan-yang")
    assert action.data["op"]["path"] == ["hanzhong", "nan-yang"]
    # Without the Horse general the same move is beyond a movement allowance of 2.
    with pytest.raises(Exception, match="movement allowance of 2"):
        parse(state, L, "PLAY mounted-attack FACEDOWN MILITARY ba-shu qin 2 TO hanzhong nan-yang")


def test_guanzhong_xiao_han_han_is_a_move_of_two() -> None:
    """Movement: "the player may move 3 of the 4 Qin army counters in Guanzhong
    through Xiao Han into Han"."""
    state = empty()
    put(state, "guanzhong", "qin", 4)
    stance(state, "han", "neutral-2")
    put(state, "han", "han", 2)
    deal(state, L, "fan-ju")
    action = parse(state, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 3 TO xiao-han han")
    assert action.data["op"]["target"] == "han"


def test_adjacencies_the_examples_need() -> None:
    """Example II (Shangjun -> Longxi, retreat to Shangjun), Movement (Yan into
    Dai; all 4 Qin from Guanzhong to Xiao Han), Example III (Guanzhong into
    Xiao Han), Reinforcement (Taiyuan, Nanyang)."""
    for a, b in [("shang-jun", "longxi"), ("yan", "dai"), ("guanzhong", "xiao-han"),
                 ("xiao-han", "han"), ("ba-shu", "hanzhong"), ("hanzhong", "nan-yang")]:
        assert DATA.border(a, b) is not None, (a, b)


def test_both_decks_hold_23_cards() -> None:
    """Cards: "The Alliance (Hezong) side and the Lianheng side each have their
    own draw deck, of 23 cards each"; with the Aid's 24th card, 24."""
    assert len(DATA.deck_list(A)) == 23
    assert len(DATA.deck_list(L)) == 23
    assert len(DATA.deck_list(L, extra=True)) == 24

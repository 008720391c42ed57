"""The map (judge_games/warring_states/map.yaml) against every fact the rulebook
gives and every promise of the README."""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

import jsonschema
import yaml

from judge_games.warring_states import RULES as WARRING_STATES
from judge_games.warring_states.game import RULES as WS_RULES
from judge_games.warring_states.rules import WarringStatesRules

ROOT = Path(__file__).resolve().parents[2]
DM = WARRING_STATES.map
RULES = WS_RULES
assert isinstance(RULES, WarringStatesRules)
RAW = yaml.safe_load((ROOT / "judge_games/warring_states/map.yaml").read_text(encoding="utf-8"))


def _names(provinces: tuple[int, ...]) -> set[str]:
    return {DM.provinces[p].name for p in provinces}


def test_map_file_follows_the_schema() -> None:
    schema = json.loads((ROOT / "schemas/diplomacy-map.schema.json").read_text())
    jsonschema.validate(RAW, schema)


def test_seven_powers_with_their_home_centres_and_three_armies() -> None:
    """Rulebook, "Great Power and Starting Forces": all the main powers start
    with three armies, on their home supply centres, as listed."""
    listed = {
        "Qin": {"Yong", "Nanzheng", "Xianyang"},
        "Chu": {"Ying", "Chang-hsia", "Shouchun"},
        "Zhao": {"Jinyang", "Taiyuan", "Handan"},
        "Wei": {"Zhongmou", "Wei", "Daliang"},
        "Han": {"Luoyang", "Yiyang", "Yangzhai"},
        "Yan": {"Ji", "Yuyang", "Liaoxi"},
        "Qi": {"Linzi", "Jiaodong", "Libei"},
    }
    assert [pw.name for pw in DM.powers] == ["Qin", "Chu", "Zhao", "Wei", "Han", "Yan", "Qi"]
    for pw in DM.powers:
        assert _names(pw.home) == listed[pw.name]
        assert {t for t, _ in pw.units} == {"A"}
        assert _names(tuple(loc for _, loc in pw.units)) == listed[pw.name]


def test_thirty_eight_centres_eighteen_to_win() -> None:
    """Rulebook, "Victory": 38 supply centres, 18 needed (21 home, 17 neutral)."""
    assert len(DM.centres) == 38
    assert DM.victory == 18
    homes = [h for pw in DM.powers for h in pw.home]
    assert len(homes) == len(set(homes)) == 21


def test_every_area_is_in_play() -> None:
    """Rulebook, "Map Notes": all named areas are in play, no impassable
    areas: every land province is reachable by armies from every other, and
    every river or sea space by fleets."""
    land = [p.idx for p in DM.provinces if not DM.is_sea(p.idx)]
    seen = {land[0]}
    todo = deque([land[0]])
    while todo:
        p = todo.popleft()
        for q in DM.army_adj[p]:
            if q not in seen:
                seen.add(q)
                todo.append(q)
    assert seen == set(land)
    water = [p.idx for p in DM.provinces if DM.is_sea(p.idx)]
    seen = {water[0]}
    todo = deque([water[0]])
    while todo:
        p = todo.popleft()
        for q in DM.fleet_reach[p]:
            if DM.is_sea(q) and q not in seen:
                seen.add(q)
                todo.append(q)
    assert seen == set(water)


def test_rivers_of_the_restated_rules_and_the_seas() -> None:
    """Fleets rules, "Map": river spaces along the Yellow River, Wei, Fen,
    Huai, Han and Yangtze, and sea spaces on the coast."""
    rivers = " ".join(DM.provinces[r].name for r in RULES.rivers)
    for river in ("Yellow River", "Wei River", "Fen River", "Huai River", "Han River", "Yangtze"):
        assert river in rivers
    seas = {p.name for p in DM.provinces if DM.is_sea(p.idx) and p.idx not in RULES.rivers}
    assert seas == {"Bohai Sea", "Yellow Sea", "East Sea"}
    # a river is a chain: each river space touches another
    for r in RULES.rivers:
        assert DM.fleet_reach[r] & RULES.rivers


def test_walls_where_the_states_built_them() -> None:
    """Fleets rules, "Map": walls on the Great Wall line in the north, Qi's
    wall, Chu's Fangcheng, Wei's Hexi wall, Qin's Luo wall, Zhao's and Yan's
    southern walls. ``(a, b)``: b's wall on its border with a."""
    walls = {(DM.provinces[a].name, DM.provinces[b].name) for a, b in RULES.walled}
    expected = {
        ("Yunzhong", "Taiyuan"),
        ("Yunzhong", "Dai"),  # Zhao's northern wall
        ("Donghu", "Shanggu"),
        ("Donghu", "Yuyang"),
        ("Donghu", "Liaoxi"),  # Yan's northern wall
        ("Lu", "Linzi"),
        ("Ju", "Linzi"),
        ("Lu", "Libei"),
        ("Ju", "Langya"),  # Qi's wall
        ("Yangzhai", "Wan"),
        ("Yiyang", "Wan"),  # Chu's Fangcheng
        ("Xianyang", "Hexi"),  # Wei's Hexi wall
        ("Hexi", "Xianyang"),  # Qin's Luo wall
        ("Ye", "Handan"),
        ("Wey", "Handan"),  # Zhao's southern wall
        ("Zhongshan", "Guangyang"),
        ("Hejian", "Guangyang"),  # Yan's southern wall
    }
    assert expected <= walls
    for a, b in RULES.walled:  # every wall is on a real land border
        assert b in DM.army_adj[a]


def test_designer_abbreviations_and_spaces() -> None:
    """Fleets rules, "Map": Guangyang = Gua, West Zhou = WZh; Wu and Handan
    are spaces."""
    assert DM.province("Gua").name == "Guangyang"
    assert DM.province("WZh").name == "West Zhou"
    names = {p.name for p in DM.provinces}
    assert {"Wu", "Handan"} <= names


def test_screen_coordinates_for_every_province() -> None:
    assert DM.size is not None
    w, h = DM.size
    for p in DM.provinces:
        assert p.xy is not None, p.id
        assert 0 <= p.xy[0] <= w and 0 <= p.xy[1] <= h, p.id
    spots = [p.xy for p in DM.provinces]
    assert len(set(spots)) == len(spots)


def test_fleets_stand_only_by_water() -> None:
    """A land province is coastal exactly when it touches a river or sea space."""
    for p in DM.provinces:
        if DM.is_sea(p.idx):
            continue
        touches = (
            any(DM.is_sea(q) for q in DM.fleet_reach[p.idx]) if DM.fleet_locs[p.idx] else False
        )
        assert (p.kind == "coast") == touches, p.id


def test_readme_documents_every_province() -> None:
    text = (ROOT / "judge_games/warring_states/README.md").read_text(encoding="utf-8")
    for p in DM.provinces:
        assert f"`{p.id}`" in text and p.name in text, p.id


def test_fleet_borders_follow_the_water() -> None:
    """README, "The map": two land provinces share a fleet border exactly
    when they share a land border and touch the same river or sea space; a
    river or sea space borders every land province it touches."""
    for p in DM.provinces:
        if DM.is_sea(p.idx) or not DM.fleet_locs[p.idx]:
            continue
        water = {q for q in DM.fleet_reach[p.idx] if DM.is_sea(q)}
        for q in DM.army_adj[p.idx]:
            if not DM.fleet_locs[q]:
                continue
            other = {r for r in DM.fleet_reach[q] if DM.is_sea(r)}
            assert (q in DM.fleet_reach[p.idx]) == bool(water & other), (p.id, q)
        for q in DM.fleet_reach[p.idx]:
            assert DM.is_sea(q) or q in DM.army_adj[p.idx], (p.id, q)

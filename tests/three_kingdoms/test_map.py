"""The map (judge_games/three_kingdoms/map.yaml): the rulebook's facts about it, and
the province numbers its examples use."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import jsonschema
import yaml

from judge_games.three_kingdoms.board import BOARD, KINGDOMS, MAP_FILE

ROOT = Path(__file__).resolve().parents[2]


def test_twenty_six_support_centres_by_kingdom() -> None:
    """Rulebook: "The Kingdoms are divided into provinces (spaces) 26 of which are support
    centers (10 Wei, 7 Shu, 8 Wu and one neutral)." """
    centres = BOARD.centres()
    assert len(centres) == 26
    by_kingdom = Counter(BOARD.provinces[c].kingdom for c in centres)
    assert by_kingdom == {"Wei": 10, "Shu": 7, "Wu": 8, None: 1}


def test_unification_is_possible() -> None:
    """Rulebook: "Own a large number of the support centers in each of the three Kingdoms.
    (Six in Wei and 5 in each of the other two Kingdoms)": each kingdom has
    that many centres."""
    for k, need in {"Wei": 6, "Shu": 5, "Wu": 5}.items():
        assert len(BOARD.centres(k)) >= need


def test_order_examples_fit_the_map() -> None:
    """Rulebook: "A8->5 or Army in province 8 moves to province 5"; "L8 S M7->6 or Leader in
    province 8 supports Militia in province 7 to 6"; "M7->6"."""
    assert BOARD.adjacent(8, 5)
    assert BOARD.adjacent(8, 6) and BOARD.adjacent(7, 6)


def test_civil_war_example_fits_the_map() -> None:
    """Rulebook: "a Wei Leader Character starts with provinces 8,6 and 9, and then after the
    two campaign moves owns in addition to his starting three points: 5,10, 23":
    8, 6, 9 are Wei centres (capital and two militia are placed on centres of the
    character's kingdom); 5, 10 and 23 are centres each within two moves of them."""
    for n in (8, 6, 9, 5, 10):
        assert BOARD.provinces[n].centre and BOARD.provinces[n].kingdom == "Wei"
    assert BOARD.provinces[23].centre
    assert BOARD.adjacent(8, 5) and BOARD.adjacent(9, 10)
    assert any(BOARD.adjacent(6, m) and BOARD.adjacent(m, 23) for m in BOARD.provinces)


def test_adjacency_is_symmetric_and_connected() -> None:
    for a, ns in BOARD.neighbours.items():
        assert ns, f"{a} has no neighbour"
        for b in ns:
            assert a in BOARD.neighbours[b]
    seen = {1}
    todo = [1]
    while todo:
        for m in BOARD.neighbours[todo.pop()]:
            if m not in seen:
                seen.add(m)
                todo.append(m)
    assert seen == set(BOARD.provinces)


def test_provinces_are_numbered_and_drawn() -> None:
    assert sorted(BOARD.provinces) == list(range(1, len(BOARD.provinces) + 1))
    for p in BOARD.provinces.values():
        assert 0 <= p.x <= BOARD.width and 0 <= p.y <= BOARD.height
        assert p.kingdom in (*KINGDOMS, None)
    names = [p.name for p in BOARD.provinces.values()]
    assert len(set(names)) == len(names)


def test_map_file_fits_its_schema() -> None:
    """map.yaml is valid against schemas/three-kingdoms-map.schema.json (YAML's
    integer keys are read as the strings JSON has), and lists each border once."""
    raw = yaml.safe_load(MAP_FILE.read_text(encoding="utf-8"))
    doc = json.loads(json.dumps(raw))
    schema = json.loads((ROOT / "schemas" / "three-kingdoms-map.schema.json").read_text())
    jsonschema.validate(doc, schema)
    pairs = [frozenset(p) for p in raw["adjacent"]]
    assert len(pairs) == len(set(pairs))

"""The map model and the classic map file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from judge_games.classic import RULES
from judge_games.diplomacy.geography import MapError, build_map, normalize

ROOT = Path(__file__).resolve().parents[2]
DM = RULES.map


def _raw() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "judge_games/classic/map.yaml").read_text())
    return data


def test_classic_map_matches_the_rulebook_board() -> None:
    """The standard board: 75 provinces (19 seas, 14 inland, 42 coastal), 34
    supply centres, 7 powers with 22 home centres and starting units, 18 to win."""
    kinds = [p.kind for p in DM.provinces]
    assert len(DM.provinces) == 75
    assert (kinds.count("sea"), kinds.count("land"), kinds.count("coast")) == (19, 14, 42)
    assert len(DM.centres) == 34
    assert DM.victory == 18
    assert [p.name for p in DM.powers] == [
        "Austria",
        "England",
        "France",
        "Germany",
        "Italy",
        "Russia",
        "Turkey",
    ]
    assert sum(len(p.home) for p in DM.powers) == 22
    assert sum(len(p.units) for p in DM.powers) == 22
    russia = DM.power("Russia")
    assert ("F", DM.location(DM.province("StP").idx, "sc")) in russia.units


def test_multi_coast_provinces() -> None:
    for pid, coasts in (("Spa", ("nc", "sc")), ("StP", ("nc", "sc")), ("Bul", ("ec", "sc"))):
        prov = DM.province(pid)
        assert prov.coasts == coasts
        assert len(DM.fleet_locs[prov.idx]) == 2
    # Fleets follow coasts (DATC 6.A.9): Gascony reaches only Spain's north coast.
    gas = DM.province("Gas").idx
    assert DM.location(DM.province("Spa").idx, "nc") in DM.fleet_adj[gas]
    assert DM.location(DM.province("Spa").idx, "sc") not in DM.fleet_adj[gas]
    # Rome-Venice is an army border only.
    rom, ven = DM.province("Rom").idx, DM.province("Ven").idx
    assert ven in DM.army_adj[rom] and ven not in DM.fleet_reach[rom]


def test_a_provinces_sea_reach_is_what_its_coasts_reach() -> None:
    """The convoy questions ask what a fleet could reach from any coast of a
    province: from Spain's north coast Gascony, from its south coast the
    Gulf of Lyon, from both the Mid-Atlantic; from inland Paris nothing.
    Fleets convoy only at sea (DATC 6.F.1)."""
    p = {pid: DM.province(pid).idx for pid in ("Spa", "Gas", "Lyo", "MAO", "Par", "NTH", "Lon")}
    assert {p["Gas"], p["Lyo"], p["MAO"]} <= DM.sea_reach[p["Spa"]]
    assert DM.sea_reach[p["Par"]] == frozenset()
    assert p["NTH"] in DM.seas and p["Lon"] not in DM.seas and p["Spa"] not in DM.seas


def test_what_a_map_has_read_stays_with_that_map() -> None:
    """The readings and convoy answers a map keeps live on the map itself,
    never in a table shared by maps (where a map built later could be taken
    for one gone)."""
    other = build_map(_raw())
    assert other.provinces_read == {} and other.convoy_fleets == {} and other.spellings == {}
    RULES.adjudicate_json({
        "game": "classic", "phase": "S1901M",
        "units": {"ENGLAND": ["A LON", "F NTH"]}, "centers": {"ENGLAND": ["LON"]},
        "orders": {"ENGLAND": ["A LON - NWY VIA", "F NTH C A LON - NWY"]},
    })
    assert "LON" in DM.provinces_read and DM.convoy_fleets and DM.spellings[True]
    assert other.provinces_read == {} and other.convoy_fleets == {} and other.spellings == {}


def test_disputed_looking_borders_follow_the_board() -> None:
    """DATC 4 intro: Norway-St Petersburg is a border for armies and fleets;
    Liverpool touches the North Atlantic; Clyde does not touch the Irish Sea."""
    p = {x: DM.province(x).idx for x in ("Nwy", "StP", "Lvp", "Nao", "Cly", "Iri")}
    assert p["StP"] in DM.army_adj[p["Nwy"]]
    assert DM.location(p["StP"], "nc") in DM.fleet_adj[p["Nwy"]]
    assert p["Nao"] in DM.fleet_reach[p["Lvp"]]
    assert p["Iri"] not in DM.fleet_reach[p["Cly"]]


def test_names_and_abbreviations_are_unique() -> None:
    for key, provs in DM.names.items():
        assert len(provs) == 1, f"{key} names {provs}"
    assert DM.names[normalize("St. Petersburg")] == (DM.province("StP").idx,)
    assert DM.names[normalize("Mid-Atlantic Ocean")] == (DM.province("Mao").idx,)


def test_every_unit_position_has_screen_coordinates() -> None:
    assert DM.size == (1835.0, 1360.0)
    for loc in DM.locations:
        assert loc.xy is not None, loc.text
        assert 0 <= loc.xy[0] <= 1835 and 0 <= loc.xy[1] <= 1360


def test_map_file_satisfies_its_schema() -> None:
    schema = json.loads((ROOT / "schemas/diplomacy-map.schema.json").read_text())
    jsonschema.validate(_raw(), schema)


def _tiny() -> dict[str, Any]:
    return {
        "id": "tiny",
        "victory": 2,
        "powers": {"Red": {"home": ["Aaa"], "units": ["A Aaa"]}},
        "provinces": {
            "Aaa": {
                "name": "Aland",
                "type": "coast",
                "centre": True,
                "army": ["Bbb"],
                "fleet": ["Sss"],
            },
            "Bbb": {"name": "Bland", "type": "land", "centre": True, "army": ["Aaa"]},
            "Sss": {"name": "Sea", "type": "sea", "fleet": ["Aaa"]},
        },
        "borders": [{"between": ["Aaa", "Bbb"], "tags": ["wall"]}],
    }


def test_border_attributes_for_variants() -> None:
    dm = build_map(_tiny())
    assert dm.border(0, 1) == frozenset({"wall"})
    assert dm.border(1, 0) == frozenset({"wall"})
    assert dm.border(0, 2) == frozenset()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda m: m["provinces"]["Bbb"].update(army=[]), "one side only"),
        (lambda m: m["provinces"]["Sss"].update(army=["Aaa"]), "cannot touch a sea"),
        (lambda m: m["provinces"]["Bbb"].update(fleet=["Sss"]), "inland"),
        (lambda m: m["provinces"]["Aaa"].update(centre=False), "must be a supply centre"),
        (lambda m: m["provinces"]["Aaa"].update(army=["Zzz"]), "unknown province"),
        (lambda m: m["powers"]["Red"].update(units=["F Bbb"]), "cannot stand"),
        (lambda m: m.update(victory=3), "victory"),
        (lambda m: m["provinces"]["Aaa"].update(type="mountain"), "type must be"),
    ],
)
def test_loader_refuses_inconsistent_maps(change: Any, message: str) -> None:
    raw = _tiny()
    change(raw)
    with pytest.raises(MapError, match=message):
        build_map(raw)

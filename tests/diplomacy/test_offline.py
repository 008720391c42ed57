"""The offline adjudication format (``judge adjudicate``): one JSON document
in, one out, upper-case standard abbreviations, chaining phase to phase."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource

from judge_games.classic import RULES

ROOT = Path(__file__).resolve().parents[2]


def _schema(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / "schemas" / name).read_text())
    return data


INPUT = _schema("adjudicate-input.schema.json")
OUTPUT = _schema("adjudicate-output.schema.json")
REGISTRY: Registry = Registry().with_resources(
    [(s["$id"], Resource.from_contents(s)) for s in (INPUT, OUTPUT)]
)


def check_in(doc: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(INPUT, registry=REGISTRY).validate(doc)


def check_out(doc: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(OUTPUT, registry=REGISTRY).validate(doc)


def run(doc: dict[str, Any]) -> dict[str, Any]:
    check_in(doc)
    out = RULES.adjudicate_json(doc)
    check_out(out)
    json.dumps(out)
    return out


def test_the_issue_example_shape() -> None:
    out = run(
        {
            "game": "classic",
            "phase": "F1901M",
            "units": {"FRANCE": ["A BUR", "A PAR"], "GERMANY": ["A MUN"], "RUSSIA": ["F STP/SC"]},
            "centers": {"FRANCE": ["PAR", "BRE", "MAR"]},
            "orders": {"FRANCE": ["A BUR - PAR", "A PAR - BUR"], "GERMANY": ["A MUN - BUR"]},
        }
    )
    assert out["phase"] == "F1901M"
    assert out["results"] == {
        "A BUR": ["bounce"],
        "A PAR": ["bounce"],
        "A MUN": ["bounce"],
        "F STP/SC": [],
    }
    assert out["units"]["RUSSIA"] == ["F STP/SC"]
    # France may build one; Germany and Russia took the centre they stand on.
    assert out["next_phase"] == "W1901A"
    assert out["builds"] == {"FRANCE": 1}
    assert out["centers"]["RUSSIA"] == ["STP"]
    assert out["winners"] == []


def test_omitted_units_and_centres_are_the_opening() -> None:
    out = run({"game": "classic", "phase": "S1901M", "orders": {"ITALY": ["A VEN - TRI"]}})
    assert out["results"]["A VEN"] == ["bounce"]
    assert out["centers"]["RUSSIA"] == ["MOS", "SEV", "STP", "WAR"]
    assert len(out["results"]) == 22


def test_chaining_through_retreats_and_adjustments() -> None:
    """Each output, with orders added, is the input of the next phase; a phase
    with nothing to decide is skipped in next_phase."""
    doc: dict[str, Any] = {
        "game": "classic",
        "phase": "F1901M",
        "units": {"FRANCE": ["A PAR", "A PIC"], "GERMANY": ["A BUR", "A RUH"]},
        "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN", "KIE"]},
        "orders": {"FRANCE": ["A PIC S A PAR - BUR", "A PAR - BUR"]},
    }
    out = run(doc)
    assert out["results"]["A BUR"] == ["dislodged"]
    assert out["next_phase"] == "F1901R"
    assert out["dislodged"] == {
        "GERMANY": {"A BUR": {"from": "PAR", "retreats": ["BEL", "GAS", "MAR", "MUN"]}}
    }
    out = run({**out, "orders": {"GERMANY": ["A BUR R BEL"]}})
    assert out["phase"] == "F1901R"
    assert out["results"] == {"A BUR": []}
    assert out["next_phase"] == "W1901A"
    assert out["centers"]["GERMANY"] == ["BEL", "KIE", "MUN"]
    assert out["builds"] == {"FRANCE": -1, "GERMANY": 1}
    out = run({**out, "orders": {"GERMANY": ["BUILD A KIE"], "FRANCE": ["REMOVE A PIC"]}})
    assert out["phase"] == "W1901A"
    assert out["results"]["A KIE"] == []
    assert out["results"]["A PIC"] == ["disband"]
    assert out["units"] == {"FRANCE": ["A BUR"], "GERMANY": ["A BEL", "A KIE", "A RUH"]}
    assert out["next_phase"] == "S1902M"
    assert "builds" not in out


def test_convoy_move_and_retreat_origin_by_convoy() -> None:
    """DATC 4.A.5 (6.H.11): dislodged by a convoyed army, a unit may retreat to
    the army's province of origin."""
    out = run(
        {
            "game": "classic",
            "phase": "S1901M",
            "units": {
                "FRANCE": ["A GAS", "A BUR", "F MAO", "F WES", "F LYO"],
                "ITALY": ["A MAR"],
            },
            "orders": {
                "FRANCE": [
                    "A GAS - MAR VIA CONVOY",
                    "A BUR S A GAS - MAR",
                    "F MAO C A GAS - MAR",
                    "F WES C A GAS - MAR",
                    "F LYO C A GAS - MAR",
                ]
            },
        }
    )
    info = out["dislodged"]["ITALY"]["A MAR"]
    assert info["from"] == "GAS" and info["via_convoy"] is True
    assert "GAS" in info["retreats"]


def test_void_orders_have_reasons_and_foreign_orders_are_ignored() -> None:
    out = run(
        {
            "game": "classic",
            "phase": "S1901M",
            "units": {"ENGLAND": ["F NTH", "F LON"], "GERMANY": ["A KIE"]},
            "orders": {"ENGLAND": ["F NTH - PIC"], "GERMANY": ["F LON - NTH", "A KIE - XYZ"]},
        }
    )
    assert out["results"]["F NTH"] == ["void"]
    assert "North Sea" in out["reasons"]["F NTH"] and "Picardy" in out["reasons"]["F NTH"]
    assert out["results"]["F LON"] == ["void"]  # DATC 6.A.6
    assert [i["order"] for i in out["ignored"]] == ["F LON - NTH"]
    assert out["results"]["A KIE"] == ["void"]


@pytest.mark.parametrize(
    ("doc", "words"),
    [
        ({"game": "classic", "phase": "X1901M"}, "not a phase name"),
        ({"game": "classic", "phase": "W1901M"}, "adjustments are in winter"),
        ({"game": "classic", "units": {"PRUSSIA": ["A BER"]}}, "unknown power"),
        ({"game": "classic", "units": {"FRANCE": ["A NTH"]}}, "cannot stand there"),
        ({"game": "classic", "units": {"FRANCE": ["F MUN"]}}, "cannot stand there"),
        ({"game": "classic", "units": {"RUSSIA": ["F STP"]}}, "which coast"),
        ({"game": "classic", "units": {"FRANCE": ["A MAR", "F MAR"]}}, "two units"),
        ({"game": "classic", "units": {"FRANCE": ["A ATLANTIS"]}}, "unknown province"),
        ({"game": "classic", "centers": {"FRANCE": ["BUR"]}}, "not a supply centre"),
        ({"game": "classic", "phase": "S1901R"}, "needs dislodged units"),
        (
            {"game": "classic", "dislodged": {"FRANCE": {"A BUR": {"from": "MUN"}}}},
            "belong to a retreat phase",
        ),
        ({"game": "classic", "orders": {"FRANCE": "A PAR H"}}, "list of strings"),
        ({"game": "classic", "colour": "blue"}, "unknown keys"),
        ([1, 2], "JSON object"),
    ],
)
def test_invalid_documents_raise_value_error(doc: Any, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        RULES.adjudicate_json(doc)


def test_solo_victory_is_reported() -> None:
    seventeen = [
        "BER",
        "KIE",
        "MUN",
        "HOL",
        "BEL",
        "DEN",
        "SWE",
        "NWY",
        "WAR",
        "MOS",
        "STP",
        "VIE",
        "BUD",
        "TRI",
        "SER",
        "RUM",
        "PAR",
    ]
    out = run(
        {
            "game": "classic",
            "phase": "F1910M",
            "units": {"GERMANY": ["A BUR"]},
            "centers": {"GERMANY": seventeen},
            "orders": {"GERMANY": ["A BUR - MAR"]},
        }
    )
    assert out["winners"] == ["GERMANY"]

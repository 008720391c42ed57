"""The resolver on the examples of DATC chapter 5, long cycles, and the
strength hooks variants use."""

from __future__ import annotations

from typing import Any

from judge_games.classic import RULES
from judge_games.diplomacy.legality import Situation, bind
from judge_games.diplomacy.orders import MOVEMENT, read_order
from judge_games.diplomacy.resolver import Strengths, adjudicate_movement
from judge_games.diplomacy.serial import read_units

DM = RULES.map


def adjudicate(units: dict[str, list[str]], orders: dict[str, list[str]]) -> dict[str, Any]:
    return RULES.adjudicate_json(
        {"game": "classic", "phase": "S1901M", "units": units, "orders": orders}
    )


def test_each_move_has_its_own_success_condition() -> None:
    """DATC 5.A: Berlin (2) beats the prevent strengths of Warsaw and Bohemia
    (1 each) into Silesia; those two fail against Berlin's prevent strength."""
    out = adjudicate(
        {"GERMANY": ["A BER", "A MUN"], "RUSSIA": ["A WAR"], "AUSTRIA": ["A BOH"]},
        {
            "GERMANY": ["A Berlin -> Silesia", "A Munich Supports Berlin -> Silesia"],
            "RUSSIA": ["A Warsaw -> Silesia"],
            "AUSTRIA": ["A Bohemia -> Silesia"],
        },
    )
    assert out["results"] == {"A BER": [], "A MUN": [], "A WAR": ["bounce"], "A BOH": ["bounce"]}


def test_attack_and_defend_strength_differ() -> None:
    """DATC 5.A: Munich's support helps Kiel defend but not dislodge a German unit."""
    out = adjudicate(
        {"GERMANY": ["A BER", "A MUN"], "ENGLAND": ["F KIE"]},
        {
            "GERMANY": ["A Berlin - Kiel", "A Munich Supports F Kiel - Berlin"],
            "ENGLAND": ["F Kiel - Berlin"],
        },
    )
    assert out["results"] == {"A BER": ["bounce"], "A MUN": [], "F KIE": ["bounce"]}


def test_circular_movement_with_a_guaranteed_move() -> None:
    """DATC 5.C: the supported move Ankara-Constantinople succeeds whatever
    Constantinople does, so the whole circle moves."""
    out = adjudicate(
        {"RUSSIA": ["A CON"], "TURKEY": ["F ANK", "A SMY", "A BUL"]},
        {
            "RUSSIA": ["A Constantinople - Smyrna"],
            "TURKEY": [
                "F Ankara - Constantinople",
                "A Smyrna - Ankara",
                "A Bulgaria Supports F Ankara - Constantinople",
            ],
        },
    )
    assert out["results"] == {"A CON": [], "F ANK": [], "A SMY": [], "A BUL": []}


def test_long_circular_movement_resolves_quickly() -> None:
    """A ten-unit circle has two consistent resolutions; the backup rule moves
    them all (5.B.9) without an exponential number of adjudications (5.E)."""
    ring = ["Mos", "StP", "Fin", "Swe", "Den", "Kie", "Ber", "Pru", "War", "Ukr"]
    units = {"RUSSIA": [f"A {p.upper()}" for p in ring]}
    orders = {"RUSSIA": [f"A {a} - {b}" for a, b in zip(ring, ring[1:] + ring[:1], strict=True)]}
    out = adjudicate(units, orders)
    assert all(codes == [] for codes in out["results"].values())
    assert sorted(out["units"]["RUSSIA"]) == sorted(units["RUSSIA"])


def _bound(units: dict[str, list[str]], orders: dict[str, list[str]]) -> Any:
    board = read_units(DM, units)
    sit = Situation(board, MOVEMENT)
    legal = {}
    for power, lines in orders.items():
        for line in lines:
            o = bind(sit, DM.power_index[power.lower()], read_order(DM, line, MOVEMENT))
            legal[DM.locations[o.loc].province] = o
    return board, legal


def test_strength_hooks_for_variants() -> None:
    """A variant may give a unit strength 2 (as Three Kingdoms armies) or take
    one from an attack across a wall (Warring States)."""
    units = {"AUSTRIA": ["A VIE"], "ITALY": ["A TYR"]}
    orders = {"AUSTRIA": ["A Vie - Tyr"]}
    board, legal = _bound(units, orders)
    n = len(DM.provinces)
    vie = DM.province("Vie").idx
    standard = adjudicate_movement(board, legal)
    assert vie not in standard.moved
    strong = [1] * n
    strong[vie] = 2
    res = adjudicate_movement(board, legal, strengths=Strengths(base=strong))
    assert vie in res.moved and DM.province("Tyr").idx in res.dislodged
    walled = [False] * n
    walled[vie] = True
    res = adjudicate_movement(board, legal, strengths=Strengths(base=strong, penalised=walled))
    assert vie not in res.moved


def test_an_attack_penalised_to_nothing_cuts_no_support() -> None:
    """Warring States wall rule 5: an army attacking over a wall with no
    support has strength zero and cannot cut support."""
    units = {"AUSTRIA": ["A TYR", "A VIE"], "ITALY": ["A VEN", "A PIE"], "FRANCE": ["A MAR"]}
    orders = {
        "ITALY": ["A Ven - Tyr", "A Pie S A Ven - Tyr"],
        "AUSTRIA": ["A Vie - Boh"],
        "FRANCE": ["A Mar - Pie"],
    }
    board, legal = _bound(units, orders)
    n = len(DM.provinces)
    pie, tyr = DM.province("Pie").idx, DM.province("Tyr").idx
    cut = adjudicate_movement(board, legal)
    assert tyr not in cut.dislodged  # the attack from Marseilles cuts Piedmont's support
    walled = [False] * n
    walled[DM.province("Mar").idx] = True
    res = adjudicate_movement(board, legal, strengths=Strengths(penalised=walled))
    assert res.codes[pie] == [] and tyr in res.dislodged

"""Every DATC v3.0 test case (chapter 6), through the offline adjudication path.

Each case file under tests/datc/cases is turned into the input documents of
``RULES.adjudicate_json`` (one per phase; later phases start from the output
of the earlier one, as ``judge adjudicate`` chains), and the results and the
position after each phase are compared with the case. A case's notes (which
DATC preferred option it shows) are quoted in the failure message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from judge_games.classic import RULES
from judge_games.diplomacy.serial import read_location, read_unit
from tests.datc.caseformat import CODES, Case, load_all

CASES_DIR = Path(__file__).resolve().parent.parent / "datc" / "cases"
ALL_CASES: list[Case] = load_all(CASES_DIR)
DM = RULES.map


def _power(name: str) -> str:
    return name.upper()


def _unit_key(power: str, text: str) -> str:
    """A DATC unit text ("F St Petersburg(sc)") in the offline spelling ("F STP/SC")."""
    unit = read_unit(DM, text, DM.power_index[power.lower()])
    return f"{unit.type} {DM.loc_text(unit.loc).upper()}"


def _any_key(text: str) -> str:
    utype, _, where = text.partition(" ")
    loc = read_location(DM, where)
    if utype == "A":
        loc = DM.locations[loc].province
    return f"{utype} {DM.loc_text(loc).upper()}"


def _province_key(text: str) -> str:
    return DM.loc_text(DM.locations[read_location(DM, text)].province).upper()


def _first_document(case: Case) -> dict[str, Any]:
    first = case.phases[0]
    units: dict[str, list[str]] = {}
    for power, text in first.units:
        units.setdefault(_power(power), []).append(_unit_key(power, text))
    doc: dict[str, Any] = {"game": "classic", "phase": first.phase, "units": units}
    if first.centers is not None:
        doc["centers"] = {
            _power(p): [_province_key(c) for c in cs] for p, cs in first.centers.items()
        }
    if first.dislodged:
        dis: dict[str, dict[str, Any]] = {}
        for power, text, origin in first.dislodged:
            dis.setdefault(_power(power), {})[_unit_key(power, text)] = {
                "from": _province_key(origin)
            }
        doc["dislodged"] = dis
    return doc


def _orders(phase_orders: list[tuple[str, str]]) -> dict[str, list[str]]:
    orders: dict[str, list[str]] = {}
    for power, text in phase_orders:
        orders.setdefault(_power(power), []).append(text)
    return orders


def _describe(case: Case) -> str:
    notes = " ".join(case.notes)
    return f"DATC {case.number} ({case.title})" + (f" [{notes}]" if notes else "")


def test_corpus_is_complete() -> None:
    """All 164 cases of DATC v3.0 chapter 6 are transcribed (12+15+9+34+15+25+20+16+7+11)."""
    assert len(ALL_CASES) >= 164, f"only {len(ALL_CASES)} DATC cases found"
    assert len({c.number for c in ALL_CASES}) == len(ALL_CASES)



def _params() -> list[Any]:
    return [pytest.param(c, id=c.number) for c in ALL_CASES]


@pytest.mark.parametrize("case", _params())
def test_datc_case(case: Case) -> None:
    doc = _first_document(case)
    out: dict[str, Any] = {}
    for i, phase in enumerate(case.phases):
        where = f"{_describe(case)}, phase {phase.phase}"
        if i > 0:
            assert out["next_phase"] == phase.phase, (
                f"{where}: adjudicator went to {out['next_phase']}"
            )
            doc = dict(out)
        doc["orders"] = _orders(phase.orders)
        out = RULES.adjudicate_json(doc)
        assert out["phase"] == phase.phase
        expected = {_any_key(u): codes for u, codes in phase.results.items()}
        got = {k: sorted(v, key=CODES.index) for k, v in out["results"].items()}
        assert got == expected, f"{where}: results differ (reasons: {out['reasons']})"
        if phase.after is not None:
            after = sorted((_power(p), _unit_key(p, u)) for p, u in phase.after)
            mine = sorted((p, u) for p, units in out["units"].items() for u in units)
            assert mine == after, f"{where}: units after the phase differ"
            assert phase.after_dislodged is not None
            want_dis = sorted(
                (_power(p), _unit_key(p, u), _province_key(o)) for p, u, o in phase.after_dislodged
            )
            got_dis = sorted(
                (p, u, info["from"])
                for p, units in out["dislodged"].items()
                for u, info in units.items()
            )
            assert got_dis == want_dis, f"{where}: dislodged units differ"

"""Warring States scenarios in the DATC case format (tests/datc/FORMAT.md,
"Variant case files"), run through the offline adjudication path like the
DATC cases: every file under ``cases/`` is one section (W walls, F fleets,
R floating fortresses, M rapid river moves, B builds); later phases of a
case start from the output of the earlier one. Each case's notes cite the
rule it shows; a failure quotes them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from judge_games.diplomacy.serial import read_location, read_unit
from judge_games.warring_states import GAME, RULES
from tests.datc.caseformat import CODES, Case, load_all

CASES_DIR = Path(__file__).resolve().parent / "cases"
DM = RULES.map
POWERS = frozenset(pw.name for pw in DM.powers)
NUMBER_RE = re.compile(r"^WS\.[A-Z]\.[1-9]\d*$")
PHASE_RE = re.compile(r"^(?:[SF]\d{3,4}[MR]|W\d{3,4}A)$")


ALL_CASES = load_all(CASES_DIR, "*.txt", powers=POWERS, number_re=NUMBER_RE, phase_re=PHASE_RE)


def _unit_key(power: str, text: str) -> str:
    unit = read_unit(DM, text, DM.power_index[power.lower()])
    return f"{unit.type} {DM.loc_text(unit.loc).upper()}"


def _any_key(text: str) -> str:
    utype, _, where = text.partition(" ")
    loc = read_location(DM, where)
    return f"{utype} {DM.loc_text(DM.locations[loc].province).upper()}"


def _province_key(text: str) -> str:
    return DM.loc_text(DM.locations[read_location(DM, text)].province).upper()


def _first_document(case: Case) -> dict[str, Any]:
    first = case.phases[0]
    units: dict[str, list[str]] = {}
    for power, text in first.units:
        units.setdefault(power.upper(), []).append(_unit_key(power, text))
    doc: dict[str, Any] = {"game": GAME.id, "phase": first.phase, "units": units}
    if first.centers is not None:
        doc["centers"] = {
            p.upper(): [_province_key(c) for c in cs] for p, cs in first.centers.items()
        }
    return doc


def _describe(case: Case) -> str:
    notes = " ".join(case.notes)
    return f"{case.number} ({case.title})" + (f" [{notes}]" if notes else "")


def test_every_section_is_there() -> None:
    """Walls, fleets, floating fortresses, rapid moves and builds all have cases."""
    sections = {c.number.split(".")[1] for c in ALL_CASES}
    assert sections == {"W", "F", "R", "M", "B"}
    assert len({c.number for c in ALL_CASES}) == len(ALL_CASES)


@pytest.mark.parametrize("case", ALL_CASES, ids=[c.number for c in ALL_CASES])
def test_case(case: Case) -> None:
    doc = _first_document(case)
    out: dict[str, Any] = {}
    for i, phase in enumerate(case.phases):
        where = f"{_describe(case)}, phase {phase.phase}"
        if i > 0:
            assert out["next_phase"] == phase.phase, f"{where}: went to {out['next_phase']}"
            doc = dict(out)
        orders: dict[str, list[str]] = {}
        for power, text in phase.orders:
            orders.setdefault(power.upper(), []).append(text)
        doc["orders"] = orders
        out = RULES.adjudicate_json(doc)
        assert "error" not in out, f"{where}: {out.get('error')}"
        assert out["phase"] == phase.phase
        expected = {_any_key(u): codes for u, codes in phase.results.items()}
        got = {k: sorted(v, key=CODES.index) for k, v in out["results"].items()}
        assert got == expected, f"{where}: results differ (reasons: {out['reasons']})"
        if phase.after is not None:
            after = sorted((p.upper(), _unit_key(p, u)) for p, u in phase.after)
            mine = sorted((p, u) for p, units in out["units"].items() for u in units)
            assert mine == after, f"{where}: units after the phase differ"
            assert phase.after_dislodged is not None
            want = sorted(
                (p.upper(), _unit_key(p, u), _province_key(o)) for p, u, o in phase.after_dislodged
            )
            got_dis = sorted(
                (p, u, info["from"])
                for p, units in out["dislodged"].items()
                for u, info in units.items()
            )
            assert got_dis == want, f"{where}: dislodged units differ"

"""Plays the scenario cases in tests/three_kingdoms/cases/ (format: cases/FORMAT.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from games.three_kingdoms import GAME

from .helpers import play, position, where

CASES = Path(__file__).with_name("cases")


@dataclass
class Phase:
    orders: list[tuple[str, str]] = field(default_factory=list)
    results: dict[str, str] = field(default_factory=dict)
    after: dict[str, str] | None = None
    expect: list[str] = field(default_factory=list)


@dataclass
class Case:
    name: str
    title: str = ""
    rule: list[str] = field(default_factory=list)
    players: dict[str, str] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    status: list[list[str]] = field(default_factory=list)
    pieces: dict[str, str] = field(default_factory=dict)
    centres: dict[str, list[int]] | None = None
    capital: dict[str, int] = field(default_factory=dict)
    phases: list[Phase] = field(default_factory=list)


def _pair(line: str) -> tuple[str, str]:
    key, _, value = line.partition(":")
    return key.strip(), value.strip()


def load(path: Path) -> list[Case]:
    cases: list[Case] = []
    section = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if not raw.startswith(" "):
            key, value = _pair(raw)
            if key == "case":
                cases.append(Case(value))
            case = cases[-1]
            if key == "title":
                case.title = value
            elif key == "rule":
                case.rule.append(value)
            elif key == "players":
                for item in value.split(","):
                    role, kingdom = item.split()
                    case.players[role] = kingdom
            elif key == "options":
                for item in value.split():
                    name, _, v = item.partition("=")
                    case.options[name] = int(v) if v.isdigit() else True
            elif key == "status":
                case.status.append(value.split())
            elif key == "orders":
                case.phases.append(Phase())
            elif key not in {"case", "pieces", "centres", "capital", "results", "after", "expect"}:
                raise ValueError(f"{path.name}: unknown header {key!r}")
            section = key
            if key == "after":
                case.phases[-1].after = {}
            continue
        case = cases[-1]
        key, value = _pair(raw.strip())
        if section == "pieces":
            case.pieces[key] = value
        elif section == "centres":
            case.centres = case.centres or {}
            case.centres[key] = [int(x) for x in value.split(",")]
        elif section == "capital":
            case.capital[key] = int(value)
        elif section == "orders":
            case.phases[-1].orders.append((key, value))
        elif section == "results":
            case.phases[-1].results[key] = value
        elif section == "after":
            assert case.phases[-1].after is not None
            case.phases[-1].after[key] = "" if value == "-" else value
        elif section == "expect":
            case.phases[-1].expect.append(raw.strip())
        else:
            raise ValueError(f"{path.name}: line outside a section: {raw!r}")
    return cases


ALL = [c for p in sorted(CASES.glob("*.txt")) for c in load(p)]


def _start(case: Case) -> dict[str, Any]:
    war: list[tuple[str, str]] = []
    alliance: list[tuple[str, str]] = []
    kingdom_war: list[tuple[str, str]] = []
    for a, what, b in case.status:
        if b in ("Wei", "Shu", "Wu"):
            kingdom_war.append((a, b))
        elif what == "war":
            war.append((a, b))
        else:
            alliance.append((a, b))
    return position(
        case.players,
        case.pieces,
        owner=case.centres,
        capital=case.capital,
        war=war,
        alliance=alliance,
        kingdom_war=kingdom_war,
        **case.options,
    )


@pytest.mark.parametrize("case", ALL, ids=[c.name for c in ALL])
def test_case(case: Case) -> None:
    assert case.rule, f"{case.name} quotes no rule"
    state = _start(case)
    for n, phase in enumerate(case.phases, 1):
        lines: dict[str, list[str]] = {}
        for role, line in phase.orders:
            lines.setdefault(role, []).append(line)
        state, _ = play(state, lines)
        where_ = f"{case.name} ({case.title}) phase {n}"
        if phase.results:
            got = {}
            for e in state["last"]["entries"]:
                piece = e["order"].split()[0].split("->")[0]
                got[f"{e['player']} {piece}"] = ", ".join(e["results"]) or "ok"
            for key, want in phase.results.items():
                assert got.get(key) == want, f"{where_}: {key}: {got.get(key)!r} != {want!r}"
        if phase.after is not None:
            have = where(state)
            for role in case.players:
                assert have.get(role, "") == phase.after.get(role, ""), f"{where_}: {role}"
        for line in phase.expect:
            key, value = _pair(line)
            if key.startswith("status "):
                _, a, b = key.split()
                assert GAME.status(state, a, b) == value, f"{where_}: {line}"
            elif key.startswith("centres "):
                role = key.split()[1]
                centres = [int(x) for x in value.split(",")]
                assert GAME.centres_of(state, role) == centres, f"{where_}: {line}"
            elif key == "stage":
                assert state["stage"] == value, f"{where_}: {line}"
            elif key == "turn":
                assert state["turn"] == int(value), f"{where_}: {line}"
            elif key == "dislodged":
                provinces = [int(x) for x in value.split(",")]
                assert [d["at"] for d in state["dislodged"]] == provinces, f"{where_}: {line}"
            elif key == "winner":
                out = GAME.outcome(state)
                assert out is not None and list(out.winners) == value.split(), where_
            else:
                raise ValueError(f"{where_}: unknown expectation {line!r}")


def test_cases_were_found() -> None:
    assert len(ALL) >= 9

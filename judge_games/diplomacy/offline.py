"""Offline adjudication: one JSON position in, one JSON result out.

Input (``schemas/adjudicate-input.schema.json``)::

    {"game": "classic", "phase": "F1901M",
     "units": {"FRANCE": ["A BUR", ...]}, "centers": {"FRANCE": ["PAR", ...]},
     "dislodged": {"TURKEY": {"F BLA": {"from": "SEV"}}},
     "orders": {"FRANCE": ["A BUR - PAR", ...]}}

Omitted ``units`` or ``centers`` mean the starting position; ``dislodged``
is for retreat phases. When the document also has ``next_phase`` (as every
output does), that is the phase played: an output with ``orders`` added is
the input for the next phase.

Output (``schemas/adjudicate-output.schema.json``): ``phase`` (played),
``next_phase`` (the next one with something to decide), ``results`` (every
unit of the phase -> result codes, ``[]`` for success), ``reasons`` (why
each void order was void), ``ignored`` (order lines that named no unit of
their power), ``units``, ``dislodged`` (with ``from`` and ``retreats``),
``centers``, ``builds`` (when the next phase is an adjustment), ``winners``
and ``skipped`` (phases passed over). Everything is spelt in upper-case
standard abbreviations: ``FRANCE``, ``A PAR``, ``STP/SC``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .geography import DipMap
from .phases import PhaseReport, Position, run_phase, split_phase
from .resolver import VOID
from .serial import position_json, power_name, read_position, read_power, unit_texts

if TYPE_CHECKING:
    from .variant import VariantRules

_KNOWN_KEYS = {
    "game",
    "phase",
    "next_phase",
    "units",
    "centers",
    "dislodged",
    "orders",
    "results",
    "reasons",
    "ignored",
    "builds",
    "winners",
    "skipped",
}


_STRINGS = {str}
"""The types an order list may hold (checked in one pass of C code)."""


def read_document(
    dm: DipMap, doc: Any, rules: VariantRules | None = None
) -> tuple[Position, dict[int, list[str]]]:
    """Check an input document; return the position to play (under a
    variant's ``rules``) and the orders."""
    if not isinstance(doc, Mapping):
        raise ValueError("the document must be a JSON object")
    unknown = sorted(set(doc) - _KNOWN_KEYS)
    if unknown:
        raise ValueError(f"unknown keys: {', '.join(unknown)}")
    phase = doc.get("next_phase") or doc.get("phase") or f"S{dm.start_year}M"
    if not isinstance(phase, str):
        raise ValueError("phase must be a string like 'S1901M'")
    phase = phase.strip().upper()
    _, _, kind = split_phase(phase)
    raw = dict(doc)
    if kind != "R" and raw.get("dislodged"):
        # Dislodged units with no retreat are disbanded with their phase; any
        # other dislodged unit needs a retreat phase.
        pending = [
            u
            for units in raw["dislodged"].values()
            if isinstance(units, Mapping)
            for u, info in units.items()
            if not isinstance(info, Mapping) or info.get("retreats") != []
        ]
        if pending:
            raise ValueError(f"dislodged units ({', '.join(pending)}) belong to a retreat phase")
        raw["dislodged"] = {}
    pos = read_position(dm, raw, phase, rules)
    if kind == "R" and not pos.dislodged:
        raise ValueError("a retreat phase needs dislodged units")
    orders: dict[int, list[str]] = {}
    raw_orders = doc.get("orders") or {}
    if not isinstance(raw_orders, Mapping):
        raise ValueError("orders must map each power to a list of order lines")
    for pname, lines in raw_orders.items():
        power = read_power(dm, pname)
        if not isinstance(lines, list) or not set(map(type, lines)) <= _STRINGS:
            raise ValueError(f"orders of {pname}: expected a list of strings")
        orders.setdefault(power, []).extend(lines)
    return pos, orders


def write_result(dm: DipMap, game_id: str, report: PhaseReport) -> dict[str, Any]:
    """The output document for one played phase."""
    results: dict[str, list[str]] = {}
    reasons: dict[str, str] = {}
    if report.start is not None and report.movement is not None:
        # A movement phase played without entries: each unit's codes by province.
        codes, void = report.movement.codes, report.void
        texts = unit_texts(dm, True)
        for prov, u in report.start.items():
            key = texts[u.type][u.loc]
            results[key] = codes[prov]
            if prov in void and VOID in codes[prov]:
                reasons[key] = void[prov]
    for e in report.entries:
        if not e.unit:
            continue  # a waived build names no unit
        key = e.unit.upper()
        if key in results:
            continue
        results[key] = list(e.codes)
        if e.reason and "void" in e.codes:
            reasons[key] = e.reason
    attackers: dict[int, int] = {}
    if report.movement is not None:
        attackers = {p: a for p, (_, a, _) in report.movement.dislodged.items()}
    pos = report.position
    body = position_json(pos, True, attackers)
    if report.destroyed and report.movement is not None:
        # Dislodged units with nowhere to go: listed with no retreats.
        dislodged = body["dislodged"]
        for e in report.destroyed:
            prov = next(
                p
                for p, (u, _, _) in report.movement.dislodged.items()
                if f"{u.type} {dm.loc_text(u.loc)}" == e.unit
            )
            a = attackers[prov]
            dislodged.setdefault(power_name(dm, e.power, True), {})[e.unit.upper()] = {
                "from": dm.loc_text(a).upper(),
                "retreats": [],
            }
    out: dict[str, Any] = {
        "game": game_id,
        "phase": report.phase,
        "next_phase": pos.phase,
        "results": results,
        "reasons": reasons,
        "ignored": [
            {"power": power_name(dm, i.power, True), "order": i.line, "reason": i.reason}
            for i in report.ignored
        ],
        "units": body["units"],
        "dislodged": body["dislodged"],
        "centers": body["centers"],
        "winners": [power_name(dm, w, True) for w in pos.winners()],
        "skipped": list(report.skipped),
    }
    if pos.phase.endswith("A"):
        out["builds"] = {
            power_name(dm, p, True): n for p, n in sorted(pos.adjustments().items()) if n
        }
    return out


def adjudicate_document(
    dm: DipMap,
    game_id: str,
    doc: Any,
    rules: VariantRules | None = None,
) -> dict[str, Any]:
    """One line of ``judge adjudicate``: input document -> output document,
    under a variant's ``rules`` (the game's :mod:`~judge_games.diplomacy.variant`
    record). Raises ValueError with a clear message for an invalid document."""
    pos, orders = read_document(dm, doc, rules)
    report = run_phase(pos, orders, entries=False)
    return write_result(dm, game_id, report)

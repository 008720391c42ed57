"""Phases: movement, retreats, winter adjustments, and the sequence between them.

:func:`run_phase` takes a :class:`Position` and the order lines of each power
and returns a :class:`PhaseReport`: what every unit was ordered and what
became of it, and the position at the start of the next phase that has
something to decide (retreat and adjustment phases with nothing to decide are
skipped, and the report says so).

Order handling (DATC 4.D, 4.E.1):

* movement and retreats: for each unit, the last legal order given wins;
  illegal orders are ignored, and a unit whose orders were all illegal holds
  (or, in a retreat phase, disbands) with the result ``void``;
* adjustments are carried out in the order written, skipping orders that
  cannot be carried out: the first legal builds (4.D.4, 6.I.1), the first
  build in a province (4.D.5, 6.I.7), the first legal removals (4.D.6, 6.J.1);
* missing orders: units hold; unordered retreats disband; missing builds are
  waived; missing removals follow the 2023 civil-disorder rule (6.J): the
  unit farthest from the power's nearest owned supply centre (counting every
  border, land or sea, for armies and fleets alike) goes first, fleets before
  armies at equal distance, then in alphabetical order of the province names.

Supply centre ownership changes when the fall turn (movement and retreats)
is over, before the adjustments; a power owning the map's ``victory`` number
of centres then wins.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from judge.game.engine import RuleError

from .board import Board, Unit, distances
from .geography import DipMap
from .legality import Dislodged, Situation, UnitNotFound, bind, memo_key
from .orders import (
    ADJUSTMENTS,
    BUILD,
    DISBAND,
    MOVEMENT,
    RETREAT,
    RETREATS,
    WAIVE,
    Draft,
    Order,
    Reader,
    order_text,
    read_order,
)
from .resolver import (
    BOUNCE,
    VOID,
    MovementResult,
    adjudicate_movement,
    retreat_options,
)
from .resolver import DISBAND as DISBANDED

if TYPE_CHECKING:
    from .variant import VariantRules

PHASE_RE = re.compile(r"^([SFW])(\d{1,4})([MRA])$")
SEASON_NAMES = {"S": "Spring", "F": "Fall", "W": "Winter"}
KIND_NAMES = {MOVEMENT: "movement", RETREATS: "retreats", ADJUSTMENTS: "adjustments"}


def split_phase(phase: str) -> tuple[str, int, str]:
    """``"F1901R"`` -> ``("F", 1901, "R")``; ValueError for a malformed name."""
    known = _PHASES.get(phase)
    if known is not None:
        return known
    parts = _split_phase(phase)
    if len(_PHASES) < 10_000:
        _PHASES[phase] = parts
    return parts


_PHASES: dict[str, tuple[str, int, str]] = {}
"""Phase names already split."""


def _split_phase(phase: str) -> tuple[str, int, str]:
    m = PHASE_RE.match(phase.strip().upper())
    if not m:
        raise ValueError(f"not a phase name: {phase!r} (like S1901M, F1901R, W1901A)")
    season, year, kind = m.group(1), int(m.group(2)), m.group(3)
    if (season == "W") != (kind == ADJUSTMENTS):
        raise ValueError(f"not a phase name: {phase!r} (adjustments are in winter only)")
    return season, year, kind


def phase_title(phase: str) -> str:
    season, year, kind = split_phase(phase)
    return f"{SEASON_NAMES[season]} {year} {KIND_NAMES[kind]}"


@dataclass
class Position:
    """The whole board at the start of ``phase``."""

    phase: str
    board: Board
    owner: dict[int, int]
    """Supply centre province -> power index (unowned centres absent)."""
    dislodged: dict[int, Dislodged] = field(default_factory=dict)
    """Retreat phases: province -> the unit dislodged from it."""
    rules: VariantRules | None = None
    """The game's variant rules (:mod:`judge_games.diplomacy.variant`; ``None``: standard)."""

    @property
    def dm(self) -> DipMap:
        return self.board.dm

    def centre_count(self, power: int) -> int:
        return sum(1 for p in self.owner.values() if p == power)

    def centre_counts(self) -> list[int]:
        """Supply centres owned, by power index."""
        counts = [0] * len(self.dm.powers)
        for p in self.owner.values():
            counts[p] += 1
        return counts

    def adjustments(self) -> dict[int, int]:
        """Power -> builds (positive) or removals (negative), all powers."""
        counts = self.centre_counts()
        for u in self.board.units.values():
            counts[u.power] -= 1
        return dict(enumerate(counts))

    def buildable(self, power: int) -> list[int]:
        """Owned, empty home centres of ``power`` (or the variant's build sites)."""
        dm = self.dm
        rules = self.rules
        sites = None if rules is None or rules.build_sites is None else rules.build_sites(dm, power)
        return [
            h
            for h in (dm.powers[power].home if sites is None else sites)
            if self.owner.get(h) == power and self.board.at(h) is None
        ]

    def deciders(self) -> list[int]:
        """Powers that have something to decide in this phase."""
        _, _, kind = split_phase(self.phase)
        if kind == MOVEMENT:
            return sorted({u.power for u in self.board.units.values()})
        if kind == RETREATS:
            return sorted({d.unit.power for d in self.dislodged.values() if d.retreats})
        out = []
        for power, n in self.adjustments().items():
            if n < 0 or (n > 0 and self.buildable(power)):
                out.append(power)
        return out

    def winners(self) -> list[int]:
        """Powers owning the map's ``victory`` number of centres (or as the
        variant's rules say)."""
        dm = self.dm
        if self.rules is not None and self.rules.winners is not None:
            return self.rules.winners(self)
        return [p for p, n in enumerate(self.centre_counts()) if n >= dm.victory]


@dataclass
class Entry:
    """One line of a phase report: a unit (or a build) and what became of it."""

    power: int
    unit: str
    """Unit text before the phase (``"F StP/sc"``), or the unit built."""
    order: str | None
    """Canonical text of the order carried out, or None (no order given)."""
    codes: list[str]
    reason: str = ""
    """Why the order was void."""
    kind: str = "unit"
    """``unit`` for a unit on the board, ``dislodged``, or ``adjustment``."""


@dataclass
class Ignored:
    """An order line that named no unit of its power."""

    power: int
    line: str
    reason: str


@dataclass
class PhaseReport:
    phase: str
    entries: list[Entry]
    ignored: list[Ignored]
    position: Position
    """The position at the start of the next phase to play."""
    skipped: list[str] = field(default_factory=list)
    """Sentences about phases skipped because nobody had anything to decide."""
    destroyed: list[Entry] = field(default_factory=list)
    """Dislodged units with nowhere to go, disbanded without a retreat phase."""
    movement: MovementResult | None = None
    start: Mapping[int, Unit] | None = None
    """A movement phase played with ``entries=False``: the units at its start
    by province (what became of each is in ``movement.codes``)."""
    void: Mapping[int, str] = field(default_factory=dict)
    """A movement phase played with ``entries=False``: why the orders of a
    unit (by province) were void."""


def locate(dm: DipMap, line: str) -> int | None:
    """The province an order line is about, if its head can be read at all."""
    r = Reader(dm, line)
    try:
        r.take({"build", "b", "remove", "disband", "d"})
        r.power_word()
        r.unit_type()
        return r.place().province
    except RuleError:
        return None


# ---------------------------------------------------------------------- driving


def run_phase(
    pos: Position,
    orders: Mapping[int, Sequence[str]],
    *,
    entries: bool = True,
) -> PhaseReport:
    """Play ``pos.phase`` with ``orders`` (power index -> order lines, in the
    order given, under the variant rules of ``pos``) and advance to the next
    phase with something to decide.
    With ``entries=False`` the report of a movement phase has no entries for
    the units on the board: ``start``, ``movement.codes`` and ``void`` say
    what became of each (for a caller that reports only results: the
    offline format)."""
    _, _, kind = split_phase(pos.phase)
    if kind == MOVEMENT:
        return _movement(pos, orders, entries)
    if kind == RETREATS:
        return _retreats(pos, orders)
    return _adjustments(pos, orders)


def _unit_text(dm: DipMap, unit: Unit) -> str:
    return f"{unit.type} {dm.loc_text(unit.loc)}"




def _collect(
    sit: Situation,
    orders: Mapping[int, Sequence[str]],
    units: Mapping[int, Unit],
) -> tuple[dict[int, Order], dict[int, str], list[Ignored], dict[int, str]]:
    """Bind movement or retreat orders: last legal order per unit wins.

    Returns (legal orders by province, reasons for provinces with only
    illegal orders, ignored lines, void orders for units not in ``units``
    but on the board — retreat phases only)."""
    dm = sit.board.dm
    legal: dict[int, Order] = {}
    bad: dict[int, str] = {}
    ignored: list[Ignored] = []
    stray: dict[int, str] = {}
    # Lines read and bound before (DipMap.drafts, DipMap.bound) are taken
    # straight from there; the standard rules only, movement phases only.
    quick = sit.kind == MOVEMENT and sit.rules is None
    drafts, bound, on_board = dm.drafts, dm.bound, sit.board.units
    for power in sorted(orders):
        for line in orders[power]:
            if quick:
                d: Draft | None = drafts.get((line, MOVEMENT, True))
                if d is not None and d.where is not None:
                    here = d.where.province
                    u = on_board.get(here)
                    if u is not None and u.power == power:
                        t = d.target
                        o = on_board.get(t.province) if t is not None else None
                        hit = bound.get(memo_key(d, u, o))
                        if hit is not None and hit[0] is d:
                            legal[here] = hit[1]
                            continue
            if not line.strip():
                continue
            try:
                draft = read_order(dm, line, sit.kind, sit.rules)
                order = bind(sit, power, draft)
            except RuleError as exc:
                prov = locate(dm, line)
                reason = exc.message + (f" ({exc.hint})" if exc.hint else "")
                if prov is not None and prov in units:
                    # An order naming a unit of this phase: void for that unit
                    # unless its owner gives it a legal order (DATC 6.A.6).
                    bad.setdefault(prov, reason)
                    if units[prov].power != power:
                        ignored.append(Ignored(power, line.strip(), reason))
                elif prov is not None and sit.kind == RETREATS and sit.board.at(prov) is not None:
                    stray[prov] = "only dislodged units are ordered in a retreat phase"
                else:
                    ignored.append(Ignored(power, line.strip(), reason))
                continue
            prov = dm.locations[order.loc].province
            legal[prov] = order
    for prov in legal:
        bad.pop(prov, None)
    return legal, bad, ignored, stray


def _movement(
    pos: Position,
    orders: Mapping[int, Sequence[str]],
    with_entries: bool,
) -> PhaseReport:
    dm = pos.dm
    sit = Situation(pos.board, MOVEMENT, rules=pos.rules)
    legal, bad, ignored, _ = _collect(sit, orders, pos.board.units)
    # The variant's strengths (walls, strong units) know the legal orders.
    rules = pos.rules
    strengths = (
        None
        if rules is None or rules.movement_strengths is None
        else rules.movement_strengths(pos.board, legal)
    )
    result = adjudicate_movement(pos.board, legal, tuple(bad), strengths)
    entries: list[Entry] = []
    units = pos.board.units
    for prov in sorted(units, key=dm.rank.__getitem__) if with_entries else ():
        unit = units[prov]
        order = legal.get(prov)
        entries.append(
            Entry(
                unit.power,
                _unit_text(dm, unit),
                order_text(dm, order) if order else None,
                list(result.codes[prov]),
                bad.get(prov, ""),
            )
        )
    dislodged: dict[int, Dislodged] = {}
    for prov, (unit, attacker, by_convoy) in result.dislodged.items():
        dislodged[prov] = Dislodged(
            unit, -1 if by_convoy else attacker, retreat_options(dm, result, prov, pos.rules)
        )
    season, year, _ = split_phase(pos.phase)
    after = Position(f"{season}{year}R", result.board, dict(pos.owner), dislodged, pos.rules)
    report = PhaseReport(pos.phase, entries, ignored, after, movement=result)
    if not with_entries:
        report.start, report.void = units, bad
    if any(d.retreats for d in dislodged.values()):
        return report
    _disband_stranded(report)
    why = "no dislodged unit can retreat" if dislodged else "no unit was dislodged"
    report.skipped.append(f"{phase_title(after.phase)}: {why}, skipped")
    _after_retreats(report, season, year)
    return report


def _disband_stranded(report: PhaseReport) -> None:
    pos = report.position
    for _, d in sorted(pos.dislodged.items()):
        if not d.retreats:
            report.destroyed.append(
                Entry(d.unit.power, _unit_text(pos.dm, d.unit), None, [DISBANDED], kind="dislodged")
            )
    pos.dislodged = {p: d for p, d in pos.dislodged.items() if d.retreats}


def _after_retreats(report: PhaseReport, season: str, year: int) -> None:
    """Move on from the end of a turn (movement + retreats) of ``season``."""
    pos = report.position
    pos.dislodged = {}
    if season == "S":
        pos.phase = f"F{year}M"
        return
    # End of the fall turn: centres change hands (rule: ownership after fall).
    provinces = pos.dm.provinces
    for prov, unit in pos.board.units.items():
        if provinces[prov].centre:
            pos.owner[prov] = unit.power
    pos.phase = f"W{year}A"
    if not pos.deciders():
        report.skipped.append(f"{phase_title(pos.phase)}: no builds or removals due, skipped")
        pos.phase = f"S{year + 1}M"


def _retreats(pos: Position, orders: Mapping[int, Sequence[str]]) -> PhaseReport:
    dm = pos.dm
    sit = Situation(pos.board, RETREATS, dislodged=pos.dislodged, rules=pos.rules)
    units = {p: d.unit for p, d in pos.dislodged.items()}
    legal, bad, ignored, stray = _collect(sit, orders, units)
    targets: dict[int, list[int]] = {}
    for prov, order in legal.items():
        if order.kind == RETREAT:
            targets.setdefault(dm.locations[order.dest].province, []).append(prov)
    board = pos.board.copy()
    entries: list[Entry] = []
    for prov in sorted(units, key=lambda p: dm.provinces[p].id):
        unit = units[prov]
        given = legal.get(prov)
        codes: list[str] = []
        if given is None:
            if prov in bad:
                codes.append(VOID)
            codes.append(DISBANDED)
        elif given.kind == DISBAND:
            codes.append(DISBANDED)
        else:
            q = dm.locations[given.dest].province
            if len(targets[q]) > 1:
                codes += [BOUNCE, DISBANDED]  # 6.H.7, 6.H.8: all of them disband
            else:
                board.place(Unit(unit.power, given.becomes or unit.type, given.dest))
        entries.append(
            Entry(
                unit.power,
                _unit_text(dm, unit),
                order_text(dm, given) if given else None,
                codes,
                bad.get(prov, ""),
                kind="dislodged",
            )
        )
    for prov, reason in sorted(stray.items()):
        unit = pos.board.units[prov]
        entries.append(Entry(unit.power, _unit_text(dm, unit), None, [VOID], reason))
    season, year, _ = split_phase(pos.phase)
    after = Position(pos.phase, board, dict(pos.owner), {}, pos.rules)
    report = PhaseReport(pos.phase, entries, ignored, after)
    _after_retreats(report, season, year)
    return report


def civil_disorder_order(pos: Position, power: int) -> list[int]:
    """Provinces of ``power``'s units in the order the 2023 civil-disorder rule
    removes them (DATC 4.D.8, 6.J.3-6.J.11): farthest from the nearest owned
    supply centre first, over every border; fleets before armies; then
    alphabetically by English province name."""
    dm = pos.dm
    owned = [p for p, o in pos.owner.items() if o == power]
    dist = distances(dm, owned) if owned else [0] * len(dm.provinces)
    units = list(pos.board.of(power))
    units.sort(
        key=lambda pu: (-dist[pu[0]], 0 if pu[1].type == "F" else 1, dm.provinces[pu[0]].name)
    )
    return [p for p, _ in units]


def _adjustments(pos: Position, orders: Mapping[int, Sequence[str]]) -> PhaseReport:
    dm = pos.dm
    due = pos.adjustments()
    sit = Situation(pos.board, ADJUSTMENTS, owner=pos.owner, adjust=due, rules=pos.rules)
    board = pos.board.copy()
    entries: list[Entry] = []
    ignored: list[Ignored] = []
    removed: dict[int, set[int]] = {}
    for power in sorted(orders):
        n = due.get(power, 0)
        used = 0
        gone: set[int] = set()
        built: set[int] = set()
        for line in orders[power]:
            if not line.strip():
                continue
            try:
                draft: Draft = read_order(dm, line, ADJUSTMENTS, pos.rules)
                order = bind(sit, power, draft)
            except RuleError as exc:
                reason = exc.message + (f" ({exc.hint})" if exc.hint else "")
                prov = locate(dm, line)
                if prov is None or (isinstance(exc, UnitNotFound) and board.at(prov) is None):
                    ignored.append(Ignored(power, line.strip(), reason))
                    if prov is not None:
                        entries.append(
                            Entry(
                                power,
                                _draft_unit_text(dm, line, prov),
                                None,
                                [VOID],
                                reason,
                                kind="adjustment",
                            )
                        )
                    continue
                entries.append(
                    Entry(
                        power,
                        _draft_unit_text(dm, line, prov),
                        None,
                        [VOID],
                        reason,
                        kind="adjustment",
                    )
                )
                continue
            text = order_text(dm, order)
            if order.kind == WAIVE:
                take = min(order.waives, max(n - used, 0))
                used += take
                entries.append(
                    Entry(
                        power,
                        "",
                        text,
                        [] if take else [VOID],
                        "" if take else "no builds left to waive",
                        kind="adjustment",
                    )
                )
                continue
            utext = f"{order.unit} {dm.loc_text(order.loc)}"
            prov = dm.locations[order.loc].province
            if order.kind == BUILD:
                if used >= n:
                    entries.append(
                        Entry(power, utext, text, [VOID], "no builds left", kind="adjustment")
                    )
                elif prov in built:
                    entries.append(
                        Entry(
                            power, utext, text, [VOID], "already building there", kind="adjustment"
                        )
                    )
                else:
                    used += 1
                    built.add(prov)
                    board.place(Unit(power, order.unit, order.loc))
                    entries.append(Entry(power, utext, text, [], kind="adjustment"))
            else:
                if len(gone) >= -n:
                    entries.append(
                        Entry(power, utext, text, [VOID], "no removals left", kind="adjustment")
                    )
                elif prov in gone:
                    entries.append(
                        Entry(power, utext, text, [VOID], "already removed", kind="adjustment")
                    )
                else:
                    gone.add(prov)
                    del board.units[prov]
                    entries.append(Entry(power, utext, text, [DISBANDED], kind="adjustment"))
        removed[power] = gone
    # Civil disorder for removals not ordered (2023 rule).
    disorder: set[int] = set()
    for power, n in due.items():
        gone = removed.setdefault(power, set())
        if n < 0 and len(gone) < -n:
            view = Position(pos.phase, board, pos.owner, rules=pos.rules)
            for prov in civil_disorder_order(view, power)[: -n - len(gone)]:
                del board.units[prov]
                gone.add(prov)
                disorder.add(prov)
    # Every unit on the board: it stays, or was removed by civil disorder (a
    # unit removed by order already has its adjustment entry).
    for prov in sorted(pos.board.units, key=lambda p: dm.provinces[p].id):
        unit = pos.board.units[prov]
        if prov in disorder:
            entries.append(
                Entry(
                    unit.power,
                    _unit_text(dm, unit),
                    None,
                    [DISBANDED],
                    "removed by the civil disorder rule: not enough removals ordered",
                )
            )
        elif prov not in removed.get(unit.power, set()):
            entries.append(Entry(unit.power, _unit_text(dm, unit), None, []))
    _, year, _ = split_phase(pos.phase)
    after = Position(f"S{year + 1}M", board, dict(pos.owner), rules=pos.rules)
    return PhaseReport(pos.phase, entries, ignored, after)


def _draft_unit_text(dm: DipMap, line: str, prov: int) -> str:
    """The unit an unusable adjustment line names, for the report."""
    r = Reader(dm, line)
    try:
        r.take({"build", "b", "remove", "disband", "d"})
        r.power_word()
        unit = r.unit_type() or "A"
        ref = r.place()
    except RuleError:
        return dm.provinces[prov].id
    loc = prov
    if ref.coast and unit == "F":
        try:
            loc = dm.location(prov, ref.coast)
        except KeyError:
            loc = prov
    return f"{unit} {dm.loc_text(loc)}"


__all__ = [
    "Entry",
    "Ignored",
    "PhaseReport",
    "Position",
    "civil_disorder_order",
    "locate",
    "phase_title",
    "run_phase",
    "split_phase",
]

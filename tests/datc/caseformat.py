"""Reader for the DATC case files under ``tests/datc/cases/`` (format: FORMAT.md).

Contract: :func:`load_cases` turns one section file into a list of
:class:`Case` objects and raises :class:`CaseFormatError` (quoting file and
line) for anything the format does not allow; :func:`load_all` reads every
``6.*.txt`` file of a folder in section order. The reader checks the syntax of
each line (powers, unit text, result codes and their order, header order); the
corpus test checks what needs the whole case (units against orders and
results, ``after:`` against the results).

Conventions of the transcription that the format leaves open, and that a
runner needs to know:

* A ``results:`` key is the unit text as it stands on the board (for a fleet
  on a split coast, with the coast: ``F Spain(sc)``), even when the order
  names the unit differently (DATC 6.B.10 orders ``F Spain(nc)`` for a fleet
  on the south coast).
* A convoy order is ``ok`` when it was legal, matched the order of an army
  that moves by convoy (not over land), and the fleet was not dislodged,
  whether or not the army found a complete route or arrived (as a support is
  ``ok`` when the supported unit fails). It is ``void`` when the order was
  illegal (DATC 4.E.1: also when the fleet lies on no possible route), when
  no army made that move by convoy (the army held, ordered something else,
  or went over land because nothing showed the intent to convoy, DATC
  4.A.3), and when the Szykman rule (DATC 4.A.2, 5.B.9: "the CONVOY orders
  of the convoying fleets fail") made it fail without the fleet being
  dislodged. A dislodged convoying fleet is ``dislodged`` (``void,
  dislodged`` if its order was void anyway).
* In a retreat phase the results list every dislodged unit and every unit on
  the board that received an order (all such orders are void); a key that is
  both is never used. An illegal retreat is ``void, disband``.
* In an adjustment phase a key names, in order of preference, the first
  adjustment order for that unit text (``Build A Berlin`` when an army
  already stands in Berlin is ``A Berlin: void``; of two ``Build A Moscow``
  the first gives ``A Moscow: ok``), otherwise the unit on the board
  (``ok`` if it stays, ``disband`` if removed, e.g. by civil disorder).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

POWERS: frozenset[str] = frozenset(
    {"England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey"}
)
"""The seven Great Powers, spelled as the DATC spells them."""

CODES: tuple[str, ...] = ("bounce", "cut", "void", "no convoy", "dislodged", "disband")
"""Result codes other than ``ok``, in the order they must be listed."""

HEADERS: tuple[str, ...] = (
    "phase",
    "units",
    "dislodged",
    "centers",
    "orders",
    "results",
    "after",
)
"""Headers of a phase block, in the order they must appear."""

DEFAULT_PHASE = "S1901M"

PHASE_RE = re.compile(r"^(?:[SF]\d{4}[MR]|W\d{4}A)$")
UNIT_RE = re.compile(
    r"^[AF] [A-Z][A-Za-z'-]*(?: (?:of|[A-Z][A-Za-z'-]*))*(?:\((?:nc|sc|ec)\)|/(?:nc|sc|ec))?$"
)
"""A unit: type, province in capitalised words (``of`` allowed), optional coast."""
CASE_NUMBER_RE = re.compile(r"^6\.[A-J]\.[1-9]\d*$")


class CaseFormatError(ValueError):
    """A case file breaks FORMAT.md; the message starts with ``path:line:``."""


@dataclass
class PhaseCase:
    """One phase of a case: the position (first phase only), orders, expected results.

    ``units`` is filled only for the first phase; later phases start from the
    previous phase's position. ``results`` maps unit text to codes, ``[]``
    meaning ``ok``. ``after``/``after_dislodged`` are ``None`` when the case
    does not give the position after the phase.
    """

    phase: str
    units: list[tuple[str, str]] = field(default_factory=list)
    dislodged: list[tuple[str, str, str]] = field(default_factory=list)
    centers: dict[str, list[str]] | None = None
    orders: list[tuple[str, str]] = field(default_factory=list)
    results: dict[str, list[str]] = field(default_factory=dict)
    after: list[tuple[str, str]] | None = None
    after_dislodged: list[tuple[str, str, str]] | None = None
    has_orders_header: bool = False
    line: int = 0


@dataclass
class Case:
    """One DATC test case (``number`` like ``6.A.1``) with its phases."""

    number: str
    title: str
    notes: list[str] = field(default_factory=list)
    phases: list[PhaseCase] = field(default_factory=list)
    path: str = ""
    line: int = 0


def _split_power(text: str, where: str, powers: frozenset[str] = POWERS) -> tuple[str, str]:
    """``'<Power>: <rest>'`` -> ``(power, rest)``; the power must be one of ``powers``."""
    power, sep, rest = text.partition(":")
    power, rest = power.strip(), rest.strip()
    if not sep or not rest:
        raise CaseFormatError(f"{where}: expected '<Power>: ...', got {text!r}")
    if power not in powers:
        raise CaseFormatError(f"{where}: unknown power {power!r}")
    return power, rest


def _unit(text: str, where: str) -> str:
    if not UNIT_RE.match(text):
        raise CaseFormatError(f"{where}: not a unit ('A <province>' / 'F <province>'): {text!r}")
    return text


def _dislodged_entry(
    text: str, where: str, powers: frozenset[str] = POWERS
) -> tuple[str, str, str]:
    power, rest = _split_power(text, where, powers)
    unit, sep, origin = rest.rpartition(" from ")
    if not sep or not origin.strip():
        raise CaseFormatError(f"{where}: expected '<unit> from <province>', got {rest!r}")
    return power, _unit(unit.strip(), where), origin.strip()


def _codes(text: str, where: str) -> list[str]:
    """Parse ``ok`` or a comma list of :data:`CODES` in canonical order."""
    if text == "ok":
        return []
    codes = [c.strip() for c in text.split(",")]
    for code in codes:
        if code not in CODES:
            raise CaseFormatError(f"{where}: unknown result code {code!r}")
    if len(set(codes)) != len(codes):
        raise CaseFormatError(f"{where}: repeated result code in {text!r}")
    if codes != sorted(codes, key=CODES.index):
        raise CaseFormatError(f"{where}: codes must be listed in the order {', '.join(CODES)}")
    return codes


def _parse_entry(
    phase: PhaseCase, block: str, text: str, where: str, powers: frozenset[str] = POWERS
) -> None:
    """Add one indented line of ``block`` to ``phase``."""
    if block == "units":
        power, unit = _split_power(text, where, powers)
        phase.units.append((power, _unit(unit, where)))
    elif block == "dislodged":
        phase.dislodged.append(_dislodged_entry(text, where, powers))
    elif block == "centers":
        power, rest = _split_power(text, where, powers)
        assert phase.centers is not None
        if power in phase.centers:
            raise CaseFormatError(f"{where}: centres of {power} given twice")
        names = [p.strip() for p in rest.split(",")]
        if any(not p for p in names):
            raise CaseFormatError(f"{where}: empty province in {rest!r}")
        phase.centers[power] = names
    elif block == "orders":
        phase.orders.append(_split_power(text, where, powers))
    elif block == "results":
        unit, sep, codes = text.partition(":")
        if not sep:
            raise CaseFormatError(f"{where}: expected '<unit>: <codes>', got {text!r}")
        unit = _unit(unit.strip(), where)
        if unit in phase.results:
            raise CaseFormatError(f"{where}: second result line for {unit!r}")
        phase.results[unit] = _codes(codes.strip(), where)
    elif block == "after":
        assert phase.after is not None and phase.after_dislodged is not None
        if text.startswith("dislodged "):
            phase.after_dislodged.append(_dislodged_entry(text[len("dislodged ") :], where, powers))
        else:
            power, unit = _split_power(text, where, powers)
            phase.after.append((power, _unit(unit, where)))
    else:  # pragma: no cover - guarded by the caller
        raise AssertionError(block)


def parse_cases(
    text: str,
    path: str = "<string>",
    *,
    powers: frozenset[str] = POWERS,
    number_re: re.Pattern[str] = CASE_NUMBER_RE,
    phase_re: re.Pattern[str] = PHASE_RE,
) -> list[Case]:
    """Parse the text of one case file; see the module docstring for the contract.

    A variant's scenario files (FORMAT.md, "Variant case files") pass their
    own ``powers``, case ``number_re`` and ``phase_re`` (years of other
    lengths); the defaults are the DATC's."""
    cases: list[Case] = []
    case: Case | None = None
    phase: PhaseCase | None = None
    block: str | None = None  # header whose indented lines we are reading
    last_header = -1  # index in HEADERS of the last header of the current phase

    def finish_phase() -> None:
        if case is None or phase is None:
            return
        where = f"{path}:{phase.line}"
        if not phase.has_orders_header:
            raise CaseFormatError(f"{where}: phase {phase.phase} of {case.number} has no orders:")
        if not phase.results:
            raise CaseFormatError(f"{where}: phase {phase.phase} of {case.number} has no results")

    def finish_case() -> None:
        finish_phase()
        if case is None:
            return
        if not case.phases:
            raise CaseFormatError(f"{path}:{case.line}: case {case.number} has no phase")
        if not case.phases[0].units:
            raise CaseFormatError(f"{path}:{case.line}: case {case.number} has no units:")
        cases.append(case)

    for number, raw in enumerate(text.splitlines(), start=1):
        where = f"{path}:{number}"
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if line[0] in " \t":
            if block is None or phase is None:
                raise CaseFormatError(f"{where}: indented line outside a list header")
            _parse_entry(phase, block, stripped, where, powers)
            continue
        key, sep, value = line.partition(":")
        value = value.strip()
        if not sep:
            raise CaseFormatError(f"{where}: expected 'key: value', got {line!r}")
        block = None
        if key == "case":
            finish_case()
            if not number_re.match(value):
                raise CaseFormatError(f"{where}: bad case number {value!r}")
            case, phase, last_header = (
                Case(number=value, title="", path=path, line=number),
                None,
                -1,
            )
            continue
        if case is None:
            raise CaseFormatError(f"{where}: {key!r} before the first 'case:'")
        if key == "title":
            if case.title or case.phases:
                raise CaseFormatError(f"{where}: title must come once, right after case:")
            case.title = value
            continue
        if not case.title:
            raise CaseFormatError(f"{where}: case {case.number} needs a title: first")
        if key == "note":
            if not value:
                raise CaseFormatError(f"{where}: empty note")
            case.notes.append(value)
            continue
        if key not in HEADERS:
            raise CaseFormatError(f"{where}: unknown header {key!r}")
        index = HEADERS.index(key)
        if key == "phase" or phase is None:
            if key == "phase":
                finish_phase()
                if not phase_re.match(value):
                    raise CaseFormatError(f"{where}: bad phase {value!r}")
                phase_name = value
            else:
                phase_name = DEFAULT_PHASE
            phase = PhaseCase(phase=phase_name, line=number)
            case.phases.append(phase)
            last_header = 0
            if key == "phase":
                continue
        if index <= last_header:
            raise CaseFormatError(f"{where}: header {key!r} out of order or repeated")
        last_header = index
        if key == "units" and len(case.phases) > 1:
            raise CaseFormatError(
                f"{where}: units: only in the first phase (later ones carry over)"
            )
        if key in {"dislodged", "centers"} and len(case.phases) > 1:
            raise CaseFormatError(f"{where}: {key}: only in the first phase")
        if key == "centers":
            phase.centers = {}
        elif key == "orders":
            phase.has_orders_header = True
        elif key == "after":
            phase.after, phase.after_dislodged = [], []
        if value:
            raise CaseFormatError(f"{where}: {key}: takes its entries on indented lines")
        block = key
    finish_case()
    return cases


def load_cases(path: Path) -> list[Case]:
    """Read one section file (e.g. ``cases/6.A.txt``)."""
    return parse_cases(path.read_text(encoding="utf-8"), path=path.name)


def load_all(folder: Path) -> list[Case]:
    """Read every ``6.*.txt`` file in ``folder``, sections in order A..J."""
    cases: list[Case] = []
    for path in sorted(folder.glob("6.*.txt")):
        cases.extend(load_cases(path))
    return cases

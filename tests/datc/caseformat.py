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

A variant's files (FORMAT.md, "Variant case files") are read with a
:class:`CaseSyntax` that names what they may write beyond the DATC: other unit
letters and province spellings, more result codes, and the headers
``players:``, ``options:``, ``status:``, ``capitals:`` and ``expect:``. The
reader checks their syntax and vocabulary; what they mean is the variant's
runner's business. :data:`DATC` is the syntax of the DATC files themselves
(and of Warring States), which none of those headers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
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
    "players",
    "options",
    "status",
    "units",
    "dislodged",
    "centers",
    "capitals",
    "orders",
    "results",
    "after",
    "expect",
)
"""Headers of a phase block, in the order they must appear. ``players``,
``options``, ``status``, ``capitals`` and ``expect`` only where the
:class:`CaseSyntax` allows them."""

FIRST_PHASE_ONLY: frozenset[str] = frozenset(
    {"players", "options", "status", "units", "dislodged", "centers", "capitals"}
)
"""Headers that describe the starting position (later phases carry it over)."""

DEFAULT_PHASE = "S1901M"

PHASE_RE = re.compile(r"^(?:[SF]\d{4}[MR]|W\d{4}A)$")
UNIT_RE = re.compile(
    r"^[AF] [A-Z][A-Za-z'-]*(?: (?:of|[A-Z][A-Za-z'-]*))*(?:\((?:nc|sc|ec)\)|/(?:nc|sc|ec))?$"
)
"""A unit: type, province in capitalised words (``of`` allowed), optional coast."""
CASE_NUMBER_RE = re.compile(r"^6\.[A-J]\.[1-9]\d*$")
OPTION_VALUE_RE = re.compile(r"^(?:yes|no|\d+)$")
EXPECT_RE = re.compile(r"^(?P<key>[a-z]+)(?P<args>(?: [^ :]+)*): (?P<value>\S.*)$")


@dataclass(frozen=True)
class CaseSyntax:
    """What the case files of one game may write (FORMAT.md, "Variant case files").

    The defaults are the DATC's: ``A``/``F`` units on named provinces, the DATC
    result codes, none of the variant headers. A game widens what it needs:

    * ``unit_re``: the text of a unit (Three Kingdoms: ``A8``, ``M16``, ``L7``);
    * ``codes``: result codes other than ``ok``, in the order they are listed;
    * ``sides``: what a ``players:`` line may give a power (Three Kingdoms: its
      kingdom); empty: no ``players:`` header;
    * ``options``: game option names an ``options:`` line may set; empty: no
      ``options:`` header;
    * ``statuses``: the words of a ``status:`` line (longest match first);
      empty: no ``status:`` header;
    * ``capitals``: whether a ``capitals:`` header may give each power's capital;
    * ``expectations``: the keywords an ``expect:`` line may start with; empty:
      no ``expect:`` header;
    * ``default_phase``: the phase of a case without ``phase:`` (None: every
      phase must name itself).
    """

    unit_re: re.Pattern[str] = UNIT_RE
    codes: tuple[str, ...] = CODES
    sides: frozenset[str] = frozenset()
    options: frozenset[str] = frozenset()
    statuses: frozenset[str] = frozenset()
    capitals: bool = False
    expectations: frozenset[str] = frozenset()
    default_phase: str | None = DEFAULT_PHASE
    unit_hint: str = "'A <province>' / 'F <province>'"

    def allows(self, header: str) -> bool:
        """Is ``header`` one this syntax may use?"""
        return {
            "players": bool(self.sides),
            "options": bool(self.options),
            "status": bool(self.statuses),
            "capitals": self.capitals,
            "expect": bool(self.expectations),
        }.get(header, True)


DATC = CaseSyntax()
"""The DATC files' syntax (also Warring States')."""


@dataclass(frozen=True)
class Expectation:
    """One ``expect:`` line: ``<key> <args...>: <value>`` (``line`` for messages)."""

    key: str
    args: tuple[str, ...]
    value: str
    line: int


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
    players: list[tuple[str, str]] | None = None
    """``(power, side)`` in seat order (variants with ``sides`` only)."""
    options: dict[str, str] | None = None
    """Option name -> ``yes``, ``no`` or a number, as written."""
    status: list[tuple[str, str, str]] = field(default_factory=list)
    """``(power, status, other power or side)``."""
    units: list[tuple[str, str]] = field(default_factory=list)
    dislodged: list[tuple[str, str, str]] = field(default_factory=list)
    centers: dict[str, list[str]] | None = None
    capitals: dict[str, str] | None = None
    """Power -> its capital as written (``-``: none)."""
    orders: list[tuple[str, str]] = field(default_factory=list)
    results: dict[str, list[str]] = field(default_factory=dict)
    after: list[tuple[str, str]] | None = None
    after_dislodged: list[tuple[str, str, str]] | None = None
    expect: list[Expectation] = field(default_factory=list)
    has_orders_header: bool = False
    line: int = 0


@dataclass
class Case:
    """One DATC test case (``number`` like ``6.A.1``) with its phases."""

    number: str
    title: str
    notes: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    """``rule:`` lines: the rulebook passage the case shows, quoted."""
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


def _unit(text: str, where: str, syntax: CaseSyntax = DATC) -> str:
    if not syntax.unit_re.match(text):
        raise CaseFormatError(f"{where}: not a unit ({syntax.unit_hint}): {text!r}")
    return text


def _dislodged_entry(
    text: str, where: str, powers: frozenset[str] = POWERS, syntax: CaseSyntax = DATC
) -> tuple[str, str, str]:
    power, rest = _split_power(text, where, powers)
    unit, sep, origin = rest.rpartition(" from ")
    if not sep or not origin.strip():
        raise CaseFormatError(f"{where}: expected '<unit> from <province>', got {rest!r}")
    return power, _unit(unit.strip(), where, syntax), origin.strip()


def _codes(text: str, where: str, codes: tuple[str, ...] = CODES) -> list[str]:
    """Parse ``ok`` or a comma list of ``codes`` in canonical order."""
    if text == "ok":
        return []
    found = [c.strip() for c in text.split(",")]
    for code in found:
        if code not in codes:
            raise CaseFormatError(f"{where}: unknown result code {code!r}")
    if len(set(found)) != len(found):
        raise CaseFormatError(f"{where}: repeated result code in {text!r}")
    if found != sorted(found, key=codes.index):
        raise CaseFormatError(f"{where}: codes must be listed in the order {', '.join(codes)}")
    return found


def _once(power: str, seen: Iterable[str], what: str, where: str) -> None:
    if power in set(seen):
        raise CaseFormatError(f"{where}: {what} of {power} given twice")


def _status_entry(
    text: str, where: str, powers: frozenset[str], syntax: CaseSyntax
) -> tuple[str, str, str]:
    """``'<Power>: <status> <Power or side>'``, the status words longest first."""
    power, rest = _split_power(text, where, powers)
    for status in sorted(syntax.statuses, key=len, reverse=True):
        if rest.startswith(status + " "):
            other = rest[len(status) + 1 :].strip()
            break
    else:
        raise CaseFormatError(
            f"{where}: expected '<Power>: <status> <Power>', status one of "
            f"{', '.join(sorted(syntax.statuses))}; got {rest!r}"
        )
    if other not in powers and other not in syntax.sides:
        raise CaseFormatError(f"{where}: {other!r} is neither a power nor a side")
    if other == power:
        raise CaseFormatError(f"{where}: a status is between two different powers")
    return power, status, other


def _expectation(text: str, where: str, number: int, syntax: CaseSyntax) -> Expectation:
    match = EXPECT_RE.match(text)
    if not match:
        raise CaseFormatError(f"{where}: expected '<key> [<args>]: <value>', got {text!r}")
    if match["key"] not in syntax.expectations:
        raise CaseFormatError(
            f"{where}: unknown expectation {match['key']!r} "
            f"(one of {', '.join(sorted(syntax.expectations))})"
        )
    return Expectation(match["key"], tuple(match["args"].split()), match["value"].strip(), number)


def _parse_entry(
    phase: PhaseCase,
    block: str,
    text: str,
    where: str,
    powers: frozenset[str] = POWERS,
    syntax: CaseSyntax = DATC,
    number: int = 0,
) -> None:
    """Add one indented line of ``block`` to ``phase``."""
    if block == "units":
        power, unit = _split_power(text, where, powers)
        phase.units.append((power, _unit(unit, where, syntax)))
    elif block == "dislodged":
        phase.dislodged.append(_dislodged_entry(text, where, powers, syntax))
    elif block == "centers":
        power, rest = _split_power(text, where, powers)
        assert phase.centers is not None
        _once(power, phase.centers, "centres", where)
        names = [] if rest == "-" else [p.strip() for p in rest.split(",")]
        if any(not p for p in names):
            raise CaseFormatError(f"{where}: empty province in {rest!r}")
        phase.centers[power] = names
    elif block == "players":
        power, side = _split_power(text, where, powers)
        assert phase.players is not None
        _once(power, (p for p, _ in phase.players), "the side", where)
        if side not in syntax.sides:
            raise CaseFormatError(
                f"{where}: unknown side {side!r} (one of {', '.join(sorted(syntax.sides))})"
            )
        phase.players.append((power, side))
    elif block == "options":
        name, sep, value = (part.strip() for part in text.partition(":"))
        value = value if sep else "yes"
        assert phase.options is not None
        if name not in syntax.options:
            raise CaseFormatError(f"{where}: unknown option {name!r}")
        if name in phase.options:
            raise CaseFormatError(f"{where}: option {name!r} given twice")
        if not OPTION_VALUE_RE.match(value):
            raise CaseFormatError(f"{where}: an option is yes, no or a number, got {value!r}")
        phase.options[name] = value
    elif block == "status":
        entry = _status_entry(text, where, powers, syntax)
        pair = {entry[0], entry[2]}
        if any({p, o} == pair for p, _, o in phase.status):
            raise CaseFormatError(f"{where}: second status line for {' and '.join(sorted(pair))}")
        phase.status.append(entry)
    elif block == "capitals":
        power, rest = _split_power(text, where, powers)
        assert phase.capitals is not None
        _once(power, phase.capitals, "the capital", where)
        phase.capitals[power] = rest
    elif block == "orders":
        phase.orders.append(_split_power(text, where, powers))
    elif block == "results":
        unit, sep, codes = text.partition(":")
        if not sep:
            raise CaseFormatError(f"{where}: expected '<unit>: <codes>', got {text!r}")
        unit = _unit(unit.strip(), where, syntax)
        if unit in phase.results:
            raise CaseFormatError(f"{where}: second result line for {unit!r}")
        phase.results[unit] = _codes(codes.strip(), where, syntax.codes)
    elif block == "after":
        assert phase.after is not None and phase.after_dislodged is not None
        if text.startswith("dislodged "):
            phase.after_dislodged.append(
                _dislodged_entry(text[len("dislodged ") :], where, powers, syntax)
            )
        else:
            power, unit = _split_power(text, where, powers)
            phase.after.append((power, _unit(unit, where, syntax)))
    elif block == "expect":
        phase.expect.append(_expectation(text, where, number, syntax))
    else:  # pragma: no cover - guarded by the caller
        raise AssertionError(block)


def parse_cases(
    text: str,
    path: str = "<string>",
    *,
    powers: frozenset[str] = POWERS,
    number_re: re.Pattern[str] = CASE_NUMBER_RE,
    phase_re: re.Pattern[str] = PHASE_RE,
    syntax: CaseSyntax = DATC,
) -> list[Case]:
    """Parse the text of one case file; see the module docstring for the contract.

    A variant's scenario files (FORMAT.md, "Variant case files") pass their
    own ``powers``, case ``number_re``, ``phase_re`` (years of other lengths,
    other phase names) and, where they need more than the DATC's words, a
    ``syntax``; the defaults are the DATC's."""
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
        first = case.phases[0]
        if not first.units:
            raise CaseFormatError(f"{path}:{case.line}: case {case.number} has no units:")
        if syntax.sides and not first.players:
            raise CaseFormatError(f"{path}:{case.line}: case {case.number} has no players:")
        if first.players:
            seated = {p for p, _ in first.players}
            named = {p for p, _ in first.units} | {p for p, _, _ in first.status}
            named |= {o for _, _, o in first.status if o in powers}
            named |= set(first.centers or {}) | set(first.capitals or {})
            named |= {p for ph in case.phases for p, _ in ph.orders}
            if named - seated:
                raise CaseFormatError(
                    f"{path}:{case.line}: case {case.number}: "
                    f"{', '.join(sorted(named - seated))} not among the players:"
                )
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
            _parse_entry(phase, block, stripped, where, powers, syntax, number)
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
        if key in ("note", "rule"):
            if not value:
                raise CaseFormatError(f"{where}: empty {key}")
            (case.notes if key == "note" else case.rules).append(value)
            continue
        if key not in HEADERS or not syntax.allows(key):
            raise CaseFormatError(f"{where}: unknown header {key!r}")
        index = HEADERS.index(key)
        if key == "phase" or phase is None:
            if key == "phase":
                finish_phase()
                if not phase_re.match(value):
                    raise CaseFormatError(f"{where}: bad phase {value!r}")
                phase_name = value
            elif syntax.default_phase is None:
                raise CaseFormatError(f"{where}: case {case.number} needs a phase: first")
            else:
                phase_name = syntax.default_phase
            phase = PhaseCase(phase=phase_name, line=number)
            case.phases.append(phase)
            last_header = 0
            if key == "phase":
                continue
        if index <= last_header:
            raise CaseFormatError(f"{where}: header {key!r} out of order or repeated")
        last_header = index
        if key in FIRST_PHASE_ONLY and len(case.phases) > 1:
            raise CaseFormatError(
                f"{where}: {key}: only in the first phase (later ones carry over)"
            )
        if key == "centers":
            phase.centers = {}
        elif key == "players":
            phase.players = []
        elif key == "options":
            phase.options = {}
        elif key == "capitals":
            phase.capitals = {}
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


def load_all(
    folder: Path,
    pattern: str = "6.*.txt",
    *,
    powers: frozenset[str] = POWERS,
    number_re: re.Pattern[str] = CASE_NUMBER_RE,
    phase_re: re.Pattern[str] = PHASE_RE,
    syntax: CaseSyntax = DATC,
) -> list[Case]:
    """Read every file of ``folder`` matching ``pattern`` in name order (the
    DATC's sections A..J by default); a variant passes its own ``pattern``
    and the :func:`parse_cases` options of its files."""
    cases: list[Case] = []
    for path in sorted(folder.glob(pattern)):
        cases += parse_cases(
            path.read_text(encoding="utf-8"),
            path.name,
            powers=powers,
            number_re=number_re,
            phase_re=phase_re,
            syntax=syntax,
        )
    return cases

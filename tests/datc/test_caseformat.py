"""Tests of the DATC case reader and of the transcribed corpus itself.

The corpus checks are what make the transcription trustworthy: the case numbers
and titles are compared with the headings of the DATC v3.0 text, every unit on
the board must have exactly one result line, every order must name a unit that
is there, and each ``after:`` position must follow from the results.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from tests.support import rulebooks

from .caseformat import (
    CODES,
    DATC,
    POWERS,
    Case,
    CaseFormatError,
    CaseSyntax,
    PhaseCase,
    load_all,
    load_cases,
    parse_cases,
)

HERE = Path(__file__).resolve().parent
CASES_DIR = HERE / "cases"
FORMAT_MD = HERE / "FORMAT.md"
REPO_ROOT = HERE.parents[1]
DATC_TEXT = "reference/datc-v3.0.txt"  # in ../shared (tests.support.rulebooks)

# 6.A.6 is the one case where a power orders a unit that is not its own.
FOREIGN_ORDER_CASES = {"6.A.6"}

HEADING_RE = re.compile(r"^(6\.[A-J]\.\d+)\.? TEST CASE, (.+?)\s*$", re.MULTILINE)
ORDER_RE = re.compile(
    r"^(?P<type>[AF]) (?P<where>.+?)"
    r"(?: - (?P<dest>.+?)(?: via [Cc]onvoy)?| Supports .+| Convoys .+| Hold)$"
)
ADJUSTMENT_RE = re.compile(r"^(?P<verb>Build|Remove) (?P<unit>[AF] .+)$")
COAST_RE = re.compile(r"(?:\((?:nc|sc|ec)\)|/(?:nc|sc|ec))$")


# ----------------------------------------------------------------- helpers


def province(text: str) -> str:
    """A province name without its coast: ``Spain(nc)`` -> ``Spain``."""
    return COAST_RE.sub("", text).strip()


def plain(unit: str) -> str:
    """A unit text without coast: ``F Spain(sc)`` -> ``F Spain``."""
    kind, where = unit.split(" ", 1)
    return f"{kind} {province(where)}"


def order_parts(order: str) -> tuple[str, str | None]:
    """``(unit the order is for, destination or None)`` of a movement/retreat order."""
    match = ORDER_RE.match(order)
    assert match, f"order not understood by the corpus checker: {order!r}"
    return f"{match['type']} {match['where']}", match["dest"]


def datc_headings() -> dict[str, str]:
    """Case number -> title, from the headings of the DATC v3.0 text, chapter 6."""
    text = rulebooks.text(DATC_TEXT)
    headings: dict[str, str] = {}
    for number, title in HEADING_RE.findall(text):
        assert number not in headings, f"DATC heading {number} twice"
        headings[number] = title
    return headings


def phases_with_board(
    case: Case,
) -> list[tuple[PhaseCase, list[tuple[str, str]], list[tuple[str, str, str]]]]:
    """Each phase with the units and dislodged units it starts from."""
    out = []
    board = list(case.phases[0].units)
    dislodged = list(case.phases[0].dislodged)
    for phase in case.phases:
        out.append((phase, board, dislodged))
        assert phase.after is not None and phase.after_dislodged is not None, (
            f"{case.number} {phase.phase}: every transcribed phase gives after:"
        )
        board, dislodged = phase.after, phase.after_dislodged
    return out


def expected_after(
    phase: PhaseCase, board: list[tuple[str, str]], dislodged: list[tuple[str, str, str]]
) -> tuple[Counter[tuple[str, str]], Counter[tuple[str, str, str]]]:
    """The position after ``phase`` implied by its results (coasts dropped)."""
    units: Counter[tuple[str, str]] = Counter()
    gone: Counter[tuple[str, str, str]] = Counter()
    if phase.phase.endswith("M"):
        moves = {}  # plain unit on board -> destination, for its order
        for _, order in phase.orders:
            unit, dest = order_parts(order)
            moves[plain(unit)] = dest
        arrivals = {}  # destination province -> origin province of a successful move
        for _, unit in board:
            dest = moves.get(plain(unit))
            if dest is not None and phase.results[unit] == []:
                arrivals[province(dest)] = province(unit.split(" ", 1)[1])
        for power, unit in board:
            kind, where = unit.split(" ", 1)
            dest = moves.get(plain(unit))
            if "dislodged" in phase.results[unit]:
                gone[(power, plain(unit), arrivals[province(where)])] += 1
            elif dest is not None and phase.results[unit] == []:
                units[(power, f"{kind} {province(dest)}")] += 1
            else:
                units[(power, plain(unit))] += 1
    elif phase.phase.endswith("R"):
        units.update((power, plain(unit)) for power, unit in board)
        retreats = dict(order_parts(order) for _, order in phase.orders)
        for power, unit, _ in dislodged:
            if phase.results[unit] == []:
                dest = retreats[unit]
                assert dest is not None
                units[(power, f"{unit.split(' ')[0]} {province(dest)}")] += 1
    else:
        units.update(
            (power, plain(unit)) for power, unit in board if phase.results.get(unit) != ["disband"]
        )
        built: set[str] = set()
        for power, order in phase.orders:
            match = ADJUSTMENT_RE.match(order)
            assert match, order
            if match["verb"] == "Build" and match["unit"] not in built:
                built.add(match["unit"])
                if phase.results[match["unit"]] == []:
                    units[(power, plain(match["unit"]))] += 1
    return units, gone


# ------------------------------------------------------------ reader tests


def format_example() -> str:
    """The example block of FORMAT.md."""
    text = FORMAT_MD.read_text(encoding="utf-8")
    match = re.search(r"```\n(case:.*?)```", text, re.DOTALL)
    assert match, "FORMAT.md has no example block"
    return match.group(1)


def test_format_example_parses_and_matches_corpus() -> None:
    [case] = parse_cases(format_example(), "FORMAT.md")
    assert case.number == "6.C.3"
    assert case.title == "A disrupted three army circular movement"
    [phase] = case.phases
    assert phase.phase == "S1901M"
    assert phase.units[0] == ("Turkey", "F Ankara")
    assert phase.orders[3] == ("Turkey", "A Bulgaria - Constantinople")
    assert phase.results == {
        "F Ankara": ["bounce"],
        "A Constantinople": ["bounce"],
        "A Smyrna": ["bounce"],
        "A Bulgaria": ["bounce"],
    }
    assert phase.after is None and phase.centers is None
    corpus = {c.number: c for c in load_cases(CASES_DIR / "6.C.txt")}
    transcribed = corpus["6.C.3"].phases[0]
    assert (transcribed.units, transcribed.orders, transcribed.results) == (
        phase.units,
        phase.orders,
        phase.results,
    )


SAMPLE = """\
# a comment
case: 6.H.99
title: Sample
note: first note
units:
    Austria: F Trieste
    Italy: A Venice
    Italy: F Spain(sc)
orders:
    Italy: A Venice - Trieste
results:
    F Trieste: dislodged
    A Venice: ok
    F Spain(sc): ok
after:
    Italy: A Trieste
    Italy: F Spain(sc)
    dislodged Austria: F Trieste from Venice
note: second note
phase: S1901R

orders:
    Austria: F Trieste - Albania
results:
    F Trieste: bounce, disband

case: 6.I.99
title: Adjustment sample
phase: W1901A
units:
    Russia: A Warsaw
centers:
    Russia: Moscow, Warsaw
    Germany: Berlin
orders:
results:
    A Warsaw: ok
"""


def test_sample_with_two_phases_and_adjustment() -> None:
    first, second = parse_cases(SAMPLE, "sample")
    assert first.notes == ["first note", "second note"]
    movement, retreat = first.phases
    assert movement.phase == "S1901M"  # the default
    assert movement.units == [
        ("Austria", "F Trieste"),
        ("Italy", "A Venice"),
        ("Italy", "F Spain(sc)"),
    ]
    assert movement.results["F Trieste"] == ["dislodged"]
    assert movement.results["A Venice"] == []
    assert movement.after == [("Italy", "A Trieste"), ("Italy", "F Spain(sc)")]
    assert movement.after_dislodged == [("Austria", "F Trieste", "Venice")]
    assert retreat.phase == "S1901R"
    assert retreat.units == [] and retreat.after is None and retreat.after_dislodged is None
    assert retreat.results == {"F Trieste": ["bounce", "disband"]}
    [adjustment] = second.phases
    assert adjustment.centers == {"Russia": ["Moscow", "Warsaw"], "Germany": ["Berlin"]}
    assert adjustment.orders == []
    assert adjustment.results == {"A Warsaw": []}


def test_load_all_reads_sections_in_order(tmp_path: Path) -> None:
    (tmp_path / "6.B.txt").write_text(SAMPLE.replace("6.H.99", "6.B.1").replace("6.I.99", "6.B.2"))
    (tmp_path / "6.A.txt").write_text(SAMPLE.replace("6.H.99", "6.A.1").replace("6.I.99", "6.A.2"))
    (tmp_path / "notes.txt").write_text("not a case file")
    assert [c.number for c in load_all(tmp_path)] == ["6.A.1", "6.A.2", "6.B.1", "6.B.2"]


def _one_phase(
    units: str = "    Italy: A Venice\n",
    orders: str = "    Italy: A Venice Hold\n",
    results: str = "    A Venice: ok\n",
    extra: str = "",
) -> str:
    return (
        "case: 6.A.1\ntitle: T\nphase: S1901M\n"
        f"units:\n{units}orders:\n{orders}results:\n{results}{extra}"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_one_phase(results="    A Venice: bounced\n"), "unknown result code"),
        (_one_phase(results="    A Venice: dislodged, bounce\n"), "must be listed in the order"),
        (_one_phase(results="    A Venice: ok, bounce\n"), "unknown result code"),
        (_one_phase(results="    A Venice: bounce, bounce\n"), "repeated result code"),
        (_one_phase(results="    A Venice: ok\n    A Venice: bounce\n"), "second result line"),
        (_one_phase(units="    Prussia: A Venice\n"), "unknown power"),
        (_one_phase(units="    Italy: Venice\n"), "not a unit"),
        (_one_phase(results=""), "has no results"),
        (_one_phase().replace("orders:\n    Italy: A Venice Hold\n", ""), "has no orders:"),
        (_one_phase().replace("units:\n    Italy: A Venice\n", ""), "has no units:"),
        (_one_phase().replace("phase: S1901M", "phase: S1901A"), "bad phase"),
        (_one_phase().replace("title: T\n", ""), "needs a title"),
        (_one_phase().replace("case: 6.A.1", "case: 6.K.1"), "bad case number"),
        (_one_phase(extra="units:\n    Italy: A Rome\n"), "out of order"),
        (_one_phase(extra="phase: S1901R\nunits:\n    Italy: A Rome\n"), "only in the first phase"),
        (_one_phase(extra="colour: blue\n"), "unknown header"),
        (_one_phase(extra="after:\n    Italy: A Venice from Rome\n"), "not a unit"),
        ("    Italy: A Venice\n", "outside a list header"),
    ],
)
def test_reader_rejects(text: str, message: str) -> None:
    with pytest.raises(CaseFormatError, match=message):
        parse_cases(text, "bad")


# ------------------------------------------------------------ corpus tests


@pytest.fixture(scope="module")
def corpus() -> list[Case]:
    return load_all(CASES_DIR)


def test_corpus_matches_datc_headings(corpus: list[Case]) -> None:
    headings = datc_headings()
    assert len(headings) == 164
    numbers = [case.number for case in corpus]
    assert len(numbers) == 164
    assert len(set(numbers)) == len(numbers), "duplicate case numbers"
    assert set(numbers) == set(headings)
    for case in corpus:
        assert case.title.upper() == headings[case.number].upper(), case.number


def test_cases_sit_in_their_section_file_in_order() -> None:
    for path in sorted(CASES_DIR.glob("6.*.txt")):
        section = path.stem  # "6.A"
        numbers = [case.number for case in load_cases(path)]
        assert numbers, path.name
        assert all(n.rsplit(".", 1)[0] == section for n in numbers), path.name
        assert [int(n.rsplit(".", 1)[1]) for n in numbers] == list(range(1, len(numbers) + 1))


def test_every_phase_has_orders_and_results(corpus: list[Case]) -> None:
    for case in corpus:
        for phase in case.phases:
            assert phase.results, case.number
            if not phase.orders:
                # Only civil disorder: an adjustment phase where the power
                # orders nothing and a unit is removed for it.
                assert phase.phase.endswith("A"), f"{case.number} {phase.phase} has no orders"
                assert ["disband"] in phase.results.values(), case.number


def test_codes_are_from_the_vocabulary(corpus: list[Case]) -> None:
    allowed = {
        "M": set(CODES) - {"disband"},
        "R": {"bounce", "void", "disband"},
        "A": {"void", "disband"},
    }
    for case in corpus:
        for phase in case.phases:
            for unit, codes in phase.results.items():
                assert set(codes) <= allowed[phase.phase[-1]], (case.number, unit, codes)


def test_movement_phases_account_for_every_unit(corpus: list[Case]) -> None:
    for case in corpus:
        for phase, board, _ in phases_with_board(case):
            if not phase.phase.endswith("M"):
                continue
            where = f"{case.number} {phase.phase}"
            texts = [unit for _, unit in board]
            assert len(set(map(plain, texts))) == len(texts), f"{where}: two units in one area"
            assert set(phase.results) == set(texts), f"{where}: result lines != units on board"
            owner = {plain(unit): power for power, unit in board}
            ordered: set[str] = set()
            for power, order in phase.orders:
                unit, dest = order_parts(order)
                assert plain(unit) in owner, f"{where}: order for a unit not on the board: {order}"
                assert plain(unit) not in ordered, f"{where}: two orders for {unit}"
                ordered.add(plain(unit))
                if owner[plain(unit)] != power:
                    assert case.number in FOREIGN_ORDER_CASES, f"{where}: {power} orders {unit}"
                if dest is None:  # hold, support, convoy: none of the move codes
                    codes = phase.results[next(t for t in texts if plain(t) == plain(unit))]
                    assert not {"bounce", "no convoy"} & set(codes), f"{where}: {order} {codes}"


def test_retreat_phases_account_for_every_dislodged_unit(corpus: list[Case]) -> None:
    for case in corpus:
        for phase, board, dislodged in phases_with_board(case):
            if not phase.phase.endswith("R"):
                continue
            where = f"{case.number} {phase.phase}"
            assert dislodged, f"{where}: a retreat phase with nobody to retreat"
            retreating = {unit for _, unit, _ in dislodged}
            on_board = {unit for _, unit in board}
            ordered_on_board = set()
            for _, order in phase.orders:
                unit, _ = order_parts(order)
                if unit not in retreating:
                    assert unit in on_board, f"{where}: order for a unit not there: {order}"
                    ordered_on_board.add(unit)
            assert not retreating & ordered_on_board, f"{where}: ambiguous result key"
            assert set(phase.results) == retreating | ordered_on_board, where
            for unit in retreating:
                codes = phase.results[unit]
                assert codes == [] or codes[-1] == "disband", f"{where}: {unit} {codes}"
            for unit in ordered_on_board:
                assert phase.results[unit] == ["void"], f"{where}: {unit}"


def test_adjustment_phases_name_every_unit_and_order(corpus: list[Case]) -> None:
    for case in corpus:
        for phase, board, _ in phases_with_board(case):
            if not phase.phase.endswith("A"):
                continue
            where = f"{case.number} {phase.phase}"
            assert phase.centers, f"{where}: adjustment phases give centers:"
            for power, names in phase.centers.items():
                assert power in POWERS and len(set(names)) == len(names), where
            named = set()
            for _, order in phase.orders:
                match = ADJUSTMENT_RE.match(order)
                assert match, f"{where}: not an adjustment order: {order}"
                named.add(match["unit"])
            assert set(phase.results) == {unit for _, unit in board} | named, where
            # A power's unit count after the phase never exceeds its centres.
            after = Counter(power for power, _ in phase.after or [])
            for power, count in after.items():
                assert count <= len(phase.centers.get(power, [])), f"{where}: {power}"


def test_after_positions_follow_from_results(corpus: list[Case]) -> None:
    for case in corpus:
        for phase, board, dislodged in phases_with_board(case):
            where = f"{case.number} {phase.phase}"
            assert phase.after is not None and phase.after_dislodged is not None
            units, gone = expected_after(phase, board, dislodged)
            got_units = Counter((power, plain(unit)) for power, unit in phase.after)
            got_gone = Counter((p, plain(u), province(o)) for p, u, o in phase.after_dislodged)
            assert got_units == units, f"{where}: after: does not follow from results"
            assert got_gone == gone, f"{where}: dislodged lines do not follow from results"
            # A unit that did not move keeps its exact text (and coast).
            staying = {unit for _, unit in board} & {unit for _, unit in phase.after}
            moved_or_gone = {plain(unit) for _, unit in phase.after} - {plain(u) for u in staying}
            for _, unit in phase.after:
                if plain(unit) not in moved_or_gone:
                    assert unit in staying, f"{where}: {unit} changed its coast without moving"
            for _, unit, _ in phase.after_dislodged:
                assert unit in {u for _, u in board}, f"{where}: dislodged {unit} was not there"


def test_notes_name_the_preferred_option_where_the_datc_offers_choices(corpus: list[Case]) -> None:
    text = rulebooks.text(DATC_TEXT)
    chapter6 = text[text.index("6.A. TEST CASES, BASIC CHECKS") :]
    bodies = dict(
        zip(
            [m.group(1) for m in HEADING_RE.finditer(chapter6)],
            re.split(HEADING_RE, chapter6)[3::3],
            strict=True,
        )
    )
    for case in corpus:
        if re.search(r"\bI prefer|which I prefer|\(which I prever\)", bodies[case.number]):
            assert any(re.search(r"[Pp]referred option", note) for note in case.notes), (
                f"{case.number}: the DATC states a preference; a note must name it"
            )


# ------------------------------------------------------------ variant syntax

VARIANT = CaseSyntax(
    unit_re=re.compile(r"^[LAM][1-9]\d?$"),
    unit_hint="'A8'",
    codes=("bounce", "cut", "void", "dislodged", "disband", "removed"),
    sides=frozenset({"Wei", "Shu", "Wu"}),
    options=frozenset({"army_supremacy", "length"}),
    statuses=frozenset({"war", "alliance", "civil war"}),
    capitals=True,
    expectations=frozenset({"status", "centers", "next"}),
    default_phase=None,
)
VARIANT_POWERS = frozenset({"Player1", "Player2", "Player3"})
VARIANT_NUMBER = re.compile(r"^TK\.[A-Z]\.[1-9]\d*$")
VARIANT_PHASE = re.compile(r"^GT[1-9]\d*(?:C[12]R?|A)$")

VARIANT_SAMPLE = """\
case: TK.X.1
title: Army supremacy
rule: "an army moving into a space with a friendly militia
rule: will dislodge the militia"
phase: GT1C1
players:
    Player1: Wei
    Player2: Wei
    Player3: Shu
options:
    army_supremacy
    length: 3
status:
    Player1: civil war Player2
    Player3: war Wei
units:
    Player1: L8
    Player1: A8
    Player1: M6
centers:
    Player1: 6, 8
    Player2: -
capitals:
    Player1: 8
    Player2: -
orders:
    Player1: A8->6
results:
    L8: ok
    A8: ok
    M6: removed
after:
    Player1: L8
    Player1: A6
expect:
    status Player1 Player2: civil war
    centers Player1: 6, 8
    next: GT1C2
phase: GT1C2
orders:
    Player1: A6->7
results:
    A6: bounce, removed
"""


def _variant(text: str) -> list[Case]:
    return parse_cases(
        text,
        "tk",
        powers=VARIANT_POWERS,
        number_re=VARIANT_NUMBER,
        phase_re=VARIANT_PHASE,
        syntax=VARIANT,
    )


def test_variant_sample_parses() -> None:
    [case] = _variant(VARIANT_SAMPLE)
    assert case.rules == [
        '"an army moving into a space with a friendly militia',
        'will dislodge the militia"',
    ]
    first, second = case.phases
    assert first.players == [("Player1", "Wei"), ("Player2", "Wei"), ("Player3", "Shu")]
    assert first.options == {"army_supremacy": "yes", "length": "3"}
    assert first.status == [("Player1", "civil war", "Player2"), ("Player3", "war", "Wei")]
    assert first.units == [("Player1", "L8"), ("Player1", "A8"), ("Player1", "M6")]
    assert first.centers == {"Player1": ["6", "8"], "Player2": []}
    assert first.capitals == {"Player1": "8", "Player2": "-"}
    assert first.results == {"L8": [], "A8": [], "M6": ["removed"]}
    assert first.after == [("Player1", "L8"), ("Player1", "A6")]
    assert [(e.key, e.args, e.value) for e in first.expect] == [
        ("status", ("Player1", "Player2"), "civil war"),
        ("centers", ("Player1",), "6, 8"),
        ("next", (), "GT1C2"),
    ]
    assert first.expect[0].line == 36
    assert second.phase == "GT1C2" and second.results == {"A6": ["bounce", "removed"]}
    assert second.players is None and second.expect == []


def test_datc_syntax_is_unchanged_by_the_variant_headers() -> None:
    """The DATC files may not use what only a variant syntax allows."""
    for header in ("players", "options", "status", "capitals", "expect"):
        text = _one_phase(extra=f"{header}:\n    Italy: x\n")
        with pytest.raises(CaseFormatError, match=f"unknown header '{header}'"):
            parse_cases(text, "bad")
    with pytest.raises(CaseFormatError, match="not a unit"):
        parse_cases(_one_phase(units="    Italy: A8\n"), "bad")
    with pytest.raises(CaseFormatError, match="unknown result code 'removed'"):
        parse_cases(_one_phase(results="    A Venice: removed\n"), "bad")
    [case] = parse_cases(_one_phase(extra='rule: "a quote"\n'), "ok")
    assert case.rules == ['"a quote"'] and DATC.default_phase == "S1901M"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("    M6: removed\n", "    M6: removed, bounce\n", "must be listed in the order"),
        ("    Player1: A8->6\n", "    Player4: A8->6\n", "unknown power 'Player4'"),
        ("    Player3: Shu\n", "    Player3: Han\n", "unknown side 'Han'"),
        ("    Player3: Shu\n", "    Player1: Shu\n", "the side of Player1 given twice"),
        ("    Player3: Shu\n", "", "Player3 not among the players"),
        ("players:\n    Player1: Wei\n    Player2: Wei\n    Player3: Shu\n", "", "has no players:"),
        ("    length: 3\n", "    length: three\n", "yes, no or a number"),
        ("    length: 3\n", "    colour: 3\n", "unknown option 'colour'"),
        ("    length: 3\n", "    army_supremacy: no\n", "option 'army_supremacy' given twice"),
        (
            "    Player3: war Wei\n",
            "    Player3: peace Wei\n",
            "expected '<Power>: <status> <Power>'",
        ),
        ("    Player3: war Wei\n", "    Player3: war Han\n", "neither a power nor a side"),
        ("    Player3: war Wei\n", "    Player3: war Player3\n", "two different powers"),
        ("    Player3: war Wei\n", "    Player2: war Player1\n", "second status line"),
        ("    Player2: -\ncapitals:", "    Player2: -\n    Player2: 8\ncapitals:", "twice"),
        (
            "    Player2: -\norders:",
            "    Player1: 9\norders:",
            "the capital of Player1 given twice",
        ),
        ("    next: GT1C2\n", "    winner: Player1\n", "unknown expectation 'winner'"),
        ("    next: GT1C2\n", "    next GT1C2\n", "expected '<key> \\[<args>\\]: <value>'"),
        ("    M6: removed\n", "    M 6: removed\n", "not a unit \\('A8'\\)"),
        ("phase: GT1C1\n", "", "needs a phase: first"),
        ("phase: GT1C2\n", "phase: GT1C3\n", "bad phase"),
        ("phase: GT1C2\n", "phase: GT1C2\nstatus:\n", "only in the first phase"),
        ("expect:\n", "capitals:\n", "out of order"),
    ],
)
def test_variant_reader_rejects(old: str, new: str, message: str) -> None:
    assert old in VARIANT_SAMPLE
    text = VARIANT_SAMPLE.replace(old, new, 1)
    with pytest.raises(CaseFormatError, match=message) as caught:
        _variant(text)
    assert str(caught.value).startswith("tk:")

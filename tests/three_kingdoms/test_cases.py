"""Diplomacy of the Three Kingdoms scenarios in the DATC case format
(tests/datc/FORMAT.md, "Variant case files" and "Diplomacy of the Three
Kingdoms"), played through the game's public API: ``GAME.setup`` (through
:func:`helpers.position`), ``GAME.parse`` for every order line as the judge
does, and ``GAME.resolve`` for every phase.

Each case is checked phase by phase: the phase the game is in, every piece's
result codes (derived from the campaign report and the public events), the
position ``after:`` and the ``expect:`` lines. The ``rule:`` lines quote the
rulebook; a failure shows them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bench.support.three_kingdoms import position, rng
from judge.game.engine import Action, Event, Role, RuleError, State
from judge_games.three_kingdoms import GAME, rules
from judge_games.three_kingdoms.board import KINGDOMS
from tests.datc.caseformat import Case, CaseSyntax, PhaseCase, load_all, parse_cases
from tests.support import rulebooks

CASES_DIR = Path(__file__).resolve().parent / "cases"
POWERS = frozenset(f"Player{i}" for i in range(1, 7))
NUMBER_RE = re.compile(r"^TK\.[A-Z]\.[1-9]\d*$")
PHASE_RE = re.compile(r"^GT[1-9]\d*(?:C[12]R?|A)$")
SYNTAX = CaseSyntax(
    unit_re=re.compile(r"^[LAM][1-9]\d?$"),
    unit_hint="'A8', 'M16' or 'L8': the piece's letter and its province's number",
    codes=("bounce", "cut", "void", "dislodged", "disband", "removed"),
    sides=frozenset(KINGDOMS),
    options=frozenset(o.name for o in GAME.options if o.name != "players"),
    statuses=frozenset({"alliance", "neutral", "war", "civil war"}),
    capitals=True,
    expectations=frozenset({"status", "centers", "capital", "winner", "next"}),
    default_phase=None,
)
REPORT_CODES = {"bounced": "bounce", "cut": "cut", "void": "void"}
"""Words of the campaign report -> result codes (``moves`` is ``ok``; ``dislodged
from N`` and ``removed by the army`` are handled apart)."""


ALL_CASES = load_all(
    CASES_DIR, "*.txt", powers=POWERS, number_re=NUMBER_RE, phase_re=PHASE_RE, syntax=SYNTAX
)


# ------------------------------------------------------------------ the position


def _option(value: str) -> bool | int:
    return value == "yes" if value in ("yes", "no") else int(value)


def start(case: Case) -> State:
    """The position of the case's first phase, built on a real set-up."""
    first = case.phases[0]
    assert first.players is not None
    kingdoms = dict(first.players)
    pieces: dict[str, list[str]] = {}
    for power, unit in first.units:
        pieces.setdefault(power, []).append(unit)
    owner = None
    if first.centers is not None:
        owner = {p: [int(c) for c in cs] for p, cs in first.centers.items()}
    war, alliance, kingdom_war = [], [], []
    neutral, civil = [], []
    for a, status, b in first.status:
        if b in KINGDOMS:
            if status == "war":
                kingdom_war.append((a, b))
            else:
                assert status == "neutral", f"{case.number}: {a} {status} {b}"
        elif status == "war":
            war.append((a, b))
        elif status == "alliance":
            alliance.append((a, b))
        elif status == "neutral":
            neutral.append((a, b))
        else:
            civil.append((a, b))
    capitals = {p: None if c == "-" else int(c) for p, c in (first.capitals or {}).items()}
    options: dict[str, Any] = {k: _option(v) for k, v in (first.options or {}).items()}
    state = position(
        kingdoms,
        {p: " ".join(u) for p, u in pieces.items()},
        owner=owner,
        war=war,
        alliance=alliance,
        kingdom_war=kingdom_war,
        **options,
    )
    state["capital"].update(capitals)
    for a, b in neutral:
        state["stance"][a][b] = state["stance"][b][a] = "neutral"
    for a, b in civil:
        state["stance"][a][b] = state["stance"][b][a] = "war"
        state["civil_war"] = sorted([*state["civil_war"], sorted([a, b])])
    match = re.match(r"^GT(\d+)(?:C(\d)|A)$", first.phase)
    assert match, f"{case.number}: a case starts in a campaign or an adjustment"
    state["turn"] = int(match[1])
    if match[2]:
        state["campaign"] = int(match[2])
    else:
        state["stage"], state["campaign"] = "adjust", 2
    return state


def phase_name(state: State) -> str:
    """The phase the game is in, as the case files name it."""
    stage = state["stage"]
    if stage == "over":
        return "over"
    if stage == "adjust":
        return f"GT{state['turn']}A"
    name = f"GT{state['turn']}C{state['campaign']}"
    return name + ("R" if stage == "retreat" else "")


# ------------------------------------------------------------------ playing a phase


def send(
    state: State, lines: Sequence[tuple[Role, str]]
) -> tuple[dict[Role, list[Action]], list[tuple[Role, str]]]:
    """Parse each line for its player as the judge does (a later order for a
    piece replaces the earlier one); lines the judge refuses are returned apart."""
    orders: dict[Role, list[Action]] = {}
    refused: list[tuple[Role, str]] = []
    for role, text in lines:
        try:
            action = GAME.parse(state, role, text)
        except RuleError:
            refused.append((role, text))
            continue
        held = orders.setdefault(role, [])
        held[:] = [a for a in held if a.key is None or a.key != action.key] + [action]
    return orders, refused


def _piece_of(text: str) -> str:
    """``A8->5`` / ``L8 S M7->6`` / ``BUILD A8`` -> the unit text ``A8`` / ``L8`` / ``A8``."""
    words = text.replace("->", " ").split()
    if words[0].upper() in ("BUILD", "REMOVE"):
        words = words[1:]
    return words[0].upper()


def _add(got: dict[str, list[str]], key: str, codes: list[str]) -> None:
    codes = sorted(set(codes), key=SYNTAX.codes.index)
    if key in got and got[key] != codes:
        got[key] = ["<two pieces disagree>"]
    else:
        got[key] = codes


def campaign_results(
    after: State, events: Sequence[Event], refused: Sequence[tuple[Role, str]]
) -> dict[str, list[str]]:
    got: dict[str, list[str]] = {}
    ignored = {e.text for e in events if e.data.get("kind") == "ignored"}
    for entry in after["last"]["entries"]:
        codes = []
        for word in entry["results"]:
            if word in REPORT_CODES:
                codes.append(REPORT_CODES[word])
            elif word.startswith("dislodged from "):
                codes.append("dislodged")
            elif word == "removed by the army":
                codes.append("removed")
            else:
                assert word == "moves", f"unknown report word {word!r}"
        prefix = f"{entry['player']}: {entry['order']} is not carried out"
        if any(t.startswith(prefix) for t in ignored):
            codes.append("void")
        _add(got, _piece_of(entry["order"]), codes)
    _refused(got, refused)
    return got


def _refused(got: dict[str, list[str]], refused: Sequence[tuple[Role, str]]) -> None:
    """A piece order the judge refused leaves the piece without an order: ``void``.
    (A refused status order or claim has no piece and no result line.)"""
    for _, text in refused:
        unit = _piece_of(text)
        if SYNTAX.unit_re.match(unit):
            got[unit] = sorted({*got.get(unit, []), "void"}, key=SYNTAX.codes.index)


def retreat_results(
    before: State, events: Sequence[Event], refused: Sequence[tuple[Role, str]]
) -> dict[str, list[str]]:
    got: dict[str, list[str]] = {}
    texts = [e.text for e in events]
    for group in before["dislodged"]:
        for p in group["pieces"]:
            unit = f"{p['kind']}{group['at']}"
            went = any(t.startswith(f"{p['owner']}: {unit} retreats to ") for t in texts)
            escaped = p[
                "kind"
            ] == "L" and f"{p['owner']}'s leader makes a heroic escape" in " ".join(texts)
            _add(got, unit, [] if went or escaped else ["disband"])
    _refused(got, refused)
    return got


def adjustment_results(
    lines: Sequence[tuple[Role, str]], events: Sequence[Event]
) -> dict[str, list[str]]:
    got: dict[str, list[str]] = {}
    texts = [e.text for e in events]
    for role, line in lines:
        verb = line.split()[0].upper()
        if verb not in ("BUILD", "REMOVE"):
            continue
        unit = _piece_of(line)
        if verb == "BUILD":
            got[unit] = [] if f"{role} builds {unit}." in texts else ["void"]
        else:
            got[unit] = ["disband"] if f"{role} removes {unit}." in texts else ["void"]
    for t in texts:
        match = re.match(r"^(Player\d) removes ([AM]\d+) \(not ordered\)\.$", t)
        if match:
            got[match[2]] = ["disband"]
    return got


def play_phase(state: State, phase: PhaseCase) -> tuple[State, dict[str, list[str]]]:
    """Resolve one phase; return the new state and every piece's result codes."""
    orders, refused = send(state, phase.orders)
    stage = state["stage"]
    after, events = GAME.resolve(state, orders, rng())
    if stage == "campaign":
        return after, campaign_results(after, events, refused)
    if stage == "retreat":
        return after, retreat_results(state, events, refused)
    return after, adjustment_results(phase.orders, events)


# ------------------------------------------------------------------ checks


def board(state: State) -> Counter[tuple[str, str]]:
    return Counter((p["owner"], f"{p['kind']}{p['at']}") for p in state["pieces"])


def waiting(state: State) -> Counter[tuple[str, str, str]]:
    return Counter(
        (p["owner"], f"{p['kind']}{g['at']}", str(g["from"]))
        for g in state["dislodged"]
        for p in g["pieces"]
    )


def check_expectations(state: State, phase: PhaseCase, where: str) -> None:
    for e in phase.expect:
        say = f"{where}, line {e.line}: {e.key} {' '.join(e.args)}: {e.value}"
        if e.key == "status":
            a, b = e.args
            got = (
                state["stance"][a].get(b, "neutral") if b in KINGDOMS else rules.status(state, a, b)
            )
        elif e.key == "centers":
            (a,) = e.args
            got = ", ".join(map(str, rules.centres_of(state, a))) or "-"
        elif e.key == "capital":
            (a,) = e.args
            got = "-" if state["capital"][a] is None else str(state["capital"][a])
        elif e.key == "winner":
            out = GAME.outcome(state)
            got = "-" if out is None else ", ".join(out.winners)
        else:
            got = phase_name(state)
        assert got == e.value, f"{say} (the game has {got!r})"


def describe(case: Case) -> str:
    rules = " ".join(case.rules)
    return f"{case.number} ({case.title})" + (f" [{rules}]" if rules else "")


@pytest.mark.parametrize("case", ALL_CASES, ids=[c.number for c in ALL_CASES])
def test_case(case: Case) -> None:
    state = start(case)
    for phase in case.phases:
        where = f"{describe(case)}, phase {phase.phase}"
        assert phase_name(state) == phase.phase, f"{where}: the game is in {phase_name(state)}"
        state, got = play_phase(state, phase)
        assert got == phase.results, f"{where}: results differ"
        if phase.after is not None:
            want = Counter(phase.after)
            assert board(state) == want, f"{where}: pieces after the phase differ"
            assert phase.after_dislodged is not None
            assert waiting(state) == Counter(phase.after_dislodged), (
                f"{where}: dislodged pieces differ"
            )
        check_expectations(state, phase, where)


def test_cases_quote_the_rulebook() -> None:
    """Every case quotes the passage it shows, and every number is used once."""
    assert len({c.number for c in ALL_CASES}) == len(ALL_CASES)
    rulebook = " ".join(rulebooks.text("rules/three-kingdoms-diplomacy.txt").split())
    for case in ALL_CASES:
        assert case.rules, f"{case.number} quotes no rule"
        for quote in re.findall(r'"([^"]+)"', " ".join(case.rules)):
            for part in re.split(r"\s*\.\.\.\s*", quote):
                assert " ".join(part.split()) in rulebook, (
                    f"{case.number}: not in the rulebook: {part!r}"
                )


def test_cases_cover_the_sections() -> None:
    sections = Counter(c.number.split(".")[1] for c in ALL_CASES)
    assert len(ALL_CASES) >= 35, sections


def test_format_example_is_a_passing_case() -> None:
    """The Three Kingdoms example of FORMAT.md reads and plays as written."""
    text = (Path(__file__).resolve().parents[1] / "datc" / "FORMAT.md").read_text(encoding="utf-8")
    block = re.search(r"```\n(case: TK\..*?)```", text, re.DOTALL)
    assert block, "FORMAT.md has no Three Kingdoms example"
    [case] = parse_cases(
        block.group(1),
        "FORMAT.md",
        powers=POWERS,
        number_re=NUMBER_RE,
        phase_re=PHASE_RE,
        syntax=SYNTAX,
    )
    test_case(case)


@pytest.mark.parametrize(
    ("number", "old", "new"),
    [
        ("TK.S.8", "    M16: bounce\n", "    M16: ok\n"),
        ("TK.R.1", "    Player3: L18\n", "    Player3: L23\n"),
        ("TK.T.12", "    status Player1 Player2: civil war\n", "    status Player1 Player2: war\n"),
        ("TK.T.12", "    next: GT2C1\n", "    next: GT1C1\n"),
        ("TK.X.1", "    M6: removed\n", "    M6: dislodged\n"),
        ("TK.M.3", "    dislodged Player4: A23 from 7\n", "    dislodged Player4: A23 from 19\n"),
    ],
)
def test_a_wrong_expectation_fails(number: str, old: str, new: str) -> None:
    """The runner is not blind: one changed line of a passing case makes it fail."""
    path = next(p for p in sorted(CASES_DIR.glob("*.txt")) if f"case: {number}\n" in p.read_text())
    text = path.read_text(encoding="utf-8")
    start_at = text.index(f"case: {number}\n")
    end = text.find("\ncase: ", start_at + 1)
    block = text[start_at : None if end < 0 else end]
    assert old in block
    [case] = parse_cases(
        block.replace(old, new, 1),
        path.name,
        powers=POWERS,
        number_re=NUMBER_RE,
        phase_re=PHASE_RE,
        syntax=SYNTAX,
    )
    with pytest.raises(AssertionError):
        test_case(case)

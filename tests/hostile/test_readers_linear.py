"""Property: every game's ``parse`` and the common grammar cost work linear
in the line, whatever the line is made of.

Random long lines are built from an alphabet of spaces, punctuation,
combining marks and the games' keywords; each reader's work is counted at
a length and at ten times it, with a step counter (every Python call and
line executed, through ``sys.settrace``), and the larger may cost about ten
times the smaller, never a hundred. The count is deterministic: no timing.
(Work inside a C function, a regular expression's backtracking for one, is
not counted here: bench/hostile.py times those inputs at two sizes.)
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge import grammar
from judge.game import registry
from judge.game.rng import Rng
from judge.mail import bounds, redact

PIECES = (
    " ", "   ", ",", ".", "-", "->", ">", "=>", ":", ";", "(", ")", "'", "\"", "#",
    "\u0301", "\u0316", "\u0345", "\u0f73", "\u3000", "\u00a0",
    "a", "x", "2", "7", "S7", "H2", "A8", "L", "M", "Attack", "Dodge", "Spear", "level",
    "DISCARD", "GIVE", "USE", "BY", "WITH", "ON", "AND", "PLAY", "PASS", "DECK", "END",
    "SIGNON", "ORDERS", "PRESS", "HOLD", "S", "H", "A", "F", "Par", "Bur", "MOVE", "TO",
)
PREFIXES = ("", "DISCARD ", "USE ", "PLAY ", "DECK mine: ", "DECK mine: 2 ", "A8 ", "A Par ",
            "SIGNON g1 North ", "HELP ", "RESPOND ", "A8 S ", "BASE ", "TAKE ")

SMALL = 200
FACTOR = 10
SLACK = 2.0
"""The larger line may cost FACTOR x SLACK times the smaller (20x: linear
with room for what a longer line legitimately adds); a quadratic step
would cost about FACTOR**2 = 100x."""


def _steps(fn: Callable[[str], Any], line: str) -> int:
    count = 0

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        count += 1
        return tracer

    sys.settrace(tracer)
    try:
        with contextlib.suppress(Exception):  # a refused line is a fine answer
            fn(line)
    finally:
        sys.settrace(None)
    return count


def _readers() -> dict[str, Callable[[str], Any]]:
    out: dict[str, Callable[[str], Any]] = {}
    for game in registry.available():
        options: dict[str, Any] = dict(game.playthrough_options)
        if game.id == "conquest_tactics":
            options["decks"] = "submitted"  # deck lists are read before the match
        state = game.setup(options, Rng(b"\x05" * 32))
        role = game.roles(state)[0]
        out[game.id] = (lambda g, s, r: lambda line: g.parse(s, r, line))(game, state, role)
    out["grammar.parse_body"] = lambda line: grammar.parse_body([line])
    out["grammar.parse_subject"] = grammar.parse_subject
    out["grammar.reply_subject"] = grammar.reply_subject
    out["redact.mask_secrets"] = lambda line: redact.mask_secrets(redact.fold(line))
    out["bounds.stream_safe"] = bounds.stream_safe
    return out


READERS = _readers()


def _line(prefix: str, unit: str, n: int) -> str:
    body = unit * (n // len(unit) + 1)
    return (prefix + body)[:n]


@pytest.mark.parametrize("name", sorted(READERS))
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(prefix=st.sampled_from(PREFIXES),
       unit=st.lists(st.sampled_from(PIECES), min_size=1, max_size=10).map("".join))
def test_work_per_character_is_bounded(name: str, prefix: str, unit: str) -> None:
    read = READERS[name]
    small = _steps(read, _line(prefix, unit, SMALL))
    large = _steps(read, _line(prefix, unit, SMALL * FACTOR))
    assert large <= FACTOR * SLACK * max(small, 50), (name, prefix, unit, small, large)


def test_the_counter_sees_a_quadratic_reader() -> None:
    """The step counter tells a quadratic reader from a linear one."""

    def quadratic(line: str) -> int:
        return sum(1 for i in range(len(line)) for _ in range(i))

    def linear(line: str) -> int:
        return sum(1 for _ in line)

    assert _steps(quadratic, "x" * SMALL * FACTOR) > 50 * _steps(quadratic, "x" * SMALL)
    assert _steps(linear, "x" * SMALL * FACTOR) < 12 * _steps(linear, "x" * SMALL)

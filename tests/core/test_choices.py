"""The compact list of a request's choices (judge/game/choices.py): every line is
there, and a compact line stands for exactly the lines it merged."""

from __future__ import annotations

import itertools

from judge.game.choices import compact


def expand(line: str) -> set[str]:
    words = [w.split("|") for w in line.split()]
    return {" ".join(p) for p in itertools.product(*words)}


def test_lines_that_differ_in_one_word_are_merged_exactly() -> None:
    lines = ["PASS", "USE Attack S7 ON B", "USE Attack S7 ON C", "USE Iron Chains SQ ON B",
             "USE Iron Chains SQ ON B C", "USE Iron Chains SQ ON B D", "USE Iron Chains SQ ON C D",
             "MARKER Pioneer ON A MAIN", "MARKER Pioneer ON A DEPUTY",
             "MARKER Pioneer ON B MAIN", "MARKER Pioneer ON B DEPUTY",
             "MARKER Pioneer ON C MAIN"]
    out = compact(lines)
    assert out[:2] == ["PASS", "USE Attack S7 ON B|C"]
    assert "MARKER Pioneer ON A|B MAIN|DEPUTY" in out
    assert "MARKER Pioneer ON C MAIN" in out  # no C DEPUTY: not merged into a product
    stood_for = [expand(x) for x in out]
    assert set().union(*stood_for) == set(lines)
    assert sum(len(s) for s in stood_for) == len(lines)  # nothing stands twice


def test_lines_with_a_bar_of_their_own_are_left_alone() -> None:
    lines = ["CHOOSE A|B", "CHOOSE C"]
    assert compact(lines) == lines
    assert compact([]) == []

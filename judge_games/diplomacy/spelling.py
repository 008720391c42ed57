"""Edit distances for suggesting the name a player meant.

:func:`distance` is the optimal string alignment form of the
Damerau-Levenshtein distance: insertions, deletions, substitutions and
transpositions of two neighbouring letters each cost 1 (``"serbai"`` is 1
from ``"serbia"``, ``"bdu"`` 1 from ``"bud"``). :func:`close` says when a
written word is near enough to a name to suggest it; :func:`nearest` ranks
the names of a table by their distance to a word.

Used by every game of the Diplomacy family (the names and abbreviations of
its map, :mod:`judge_games.diplomacy.game`) and by Three Kingdoms (its province
names, for orders that name a province instead of giving its number).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeVar

T = TypeVar("T")

MAX_SUGGESTIONS = 3
"""At most this many suggested lines in a hint."""


def distance(a: str, b: str) -> int:
    """The optimal string alignment distance between ``a`` and ``b``."""
    if a == b:
        return 0
    if not a or not b:
        return len(a) + len(b)
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[-1]


def tolerance(a: str, b: str) -> int:
    """The greatest distance at which ``a`` and ``b`` count as close: one
    slip per three letters of the shorter, and at least one (a three-letter
    abbreviation may have one letter wrong or two swapped)."""
    return max(1, min(len(a), len(b)) // 3)


def close(word: str, name: str) -> int | None:
    """The distance between ``word`` and ``name`` if it is within their
    :func:`tolerance`, else ``None``. Both are compared as given (normalise
    them first)."""
    limit = tolerance(word, name)
    if abs(len(word) - len(name)) > limit:
        return None
    d = distance(word, name)
    return d if d <= limit else None


def nearest(word: str, table: Mapping[str, Iterable[T]]) -> list[tuple[int, T]]:
    """The values of ``table`` (name -> the things it may mean) whose name is
    close to ``word``, each once at its smallest distance, nearest first (ties
    in the table's order)."""
    best: dict[T, int] = {}
    for name, values in table.items():
        d = close(word, name)
        if d is None:
            continue
        for v in values:
            if v not in best or d < best[v]:
                best[v] = d
    order = {v: i for i, v in enumerate(best)}
    return sorted(((d, v) for v, d in best.items()), key=lambda dv: (dv[0], order[dv[1]]))


def hint(lines: Iterable[str]) -> str:
    """The hint that offers ``lines`` (``did you mean "A Bud - Ser"?``), or
    ``""`` for none."""
    shown = [f'"{x}"' for x in lines]
    return f"did you mean {' or '.join(shown)}?" if shown else ""

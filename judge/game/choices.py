"""Every legal line of a decision, written compactly for a request mail.

A request lists all the lines a seat may send (none is left out behind an
"and N more"); lines that differ in one word only are written once, with
the words that may stand there joined by ``|``: ``USE Attack S7 ON B``
and ``USE Attack S7 ON C`` become ``USE Attack S7 ON B|C``. Merging only
lines that agree on every other word keeps the meaning exact: a compact
line stands for every line made by picking one word at each ``|``, and for
nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence

BAR = "|"


def _merge_at(rows: list[list[str]], pos: int) -> list[list[str]]:
    """Merge the rows that differ only at word ``pos`` (rows of other lengths
    kept as they are), in the order each group first appears."""
    groups: dict[tuple[int, tuple[str, ...]], list[str]] = {}
    order: list[tuple[int, tuple[str, ...]] | list[str]] = []
    for row in rows:
        if len(row) <= pos:
            order.append(row)
            continue
        key = (len(row), (*row[:pos], *row[pos + 1:]))
        if key not in groups:
            groups[key] = []
            order.append(key)
        for word in row[pos].split(BAR):
            if word not in groups[key]:
                groups[key].append(word)
    out: list[list[str]] = []
    for item in order:
        if isinstance(item, list):
            out.append(item)
            continue
        _, rest = item
        pos_words = BAR.join(groups[item])
        out.append([*rest[:pos], pos_words, *rest[pos:]])
    return out


def compact(lines: Sequence[str]) -> list[str]:
    """``lines`` with those differing in one word merged (see the module)."""
    rows = [line.split() for line in dict.fromkeys(lines)]
    if any(BAR in line for line in lines):
        return list(dict.fromkeys(lines))  # a game's own lines use the bar: leave them
    for _ in range(8):
        before = rows
        for pos in range(max((len(r) for r in rows), default=0) - 1, -1, -1):
            rows = _merge_at(rows, pos)
        if rows == before:
            break
    return [" ".join(r) for r in rows]


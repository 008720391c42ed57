"""The order grammar: the rulebook's notation (``A8->5``, ``L8 S M7->6``,
``M7->6``) and the same orders in words, status orders, claims and the set-up
and adjustment commands.

:func:`read` turns one line into a *draft* (a dict), checking words only;
game.py binds a draft to the position. :func:`canonical` gives the text that
reads back to the same draft.
"""

from __future__ import annotations

import re
from typing import Any

from judge.game.engine import InvalidLine
from judge_games.diplomacy.orders import UnknownName

Draft = dict[str, Any]

KIND_WORDS = {
    "A": "A", "ARMY": "A",
    "M": "M", "MILITIA": "M",
    "L": "L", "LEADER": "L", "CHARACTER": "L",
}  # fmt: skip
MOVE_WORDS = {"->", "MOVES", "MOVE", "TO", "ATTACKS", "ATTACK", "INTO", "R", "RETREATS", "RETREAT"}
SUPPORT_WORDS = {"S", "SUPPORTS", "SUPPORT"}
DEFEND_WORDS = {"D", "DEFENDS", "DEFEND", "H", "HOLD", "HOLDS", "STAND", "STANDS"}
DISBAND_WORDS = {"DISBAND", "DISBANDS", "DISBANDED"}
DESTROY_WORDS = {"DESTROY", "DESTROYS"}
FILLER = {"IN", "PROVINCE", "AT", "THE", "ITS", "FROM"}
STATUS_WORDS = {
    "WAR": "war",
    "NEUTRAL": "neutral",
    "NEUTRALITY": "neutral",
    "ALLIANCE": "alliance",
    "ALLY": "alliance",
    "ALLIED": "alliance",
}
VICTORIES = ("legendary", "unification", "destined")

_ALLOWED = re.compile(r"^[A-Za-z0-9 '\-><=.,:\u2192]*$")
_ARROW = re.compile(r"->|=>|-|>|\u2192")
"""An arrow between two words. The line is split on spaces afterwards, so
the spaces around it need no matching (``\\s*`` on both sides made a line of
many spaces cost its square: every start in the run was tried to its end)."""
_PIECE = re.compile(r"^([AML])(\d+)$")
_NAME = re.compile(r"^[A-Za-z][A-Za-z' ]{0,30}$")


def _tokens(line: str) -> list[str]:
    if not _ALLOWED.match(line):
        raise InvalidLine("this line has a character no order uses", line=line)
    text = _ARROW.sub(" -> ", line.replace(",", " ").replace(":", " ")).upper()
    out: list[str] = []
    for word in text.split():
        word = word.strip(".")
        if not word:
            continue
        m = _PIECE.match(word)
        out += [m.group(1), m.group(2)] if m else [word]
    return out


class ProvinceName(UnknownName):
    """A word where a province number belongs (``A8->Luoyang``): orders name
    provinces by the map's numbers. It keeps the line as :func:`read` split
    it (``tokens``, upper case) and where the word stands (``index``), so
    that the game can suggest the lines with the number of a province of
    that name, or of one close to it, in its place; ``choices`` are those
    lines, in its hint."""

    rest: int = 0
    """While :func:`read` runs: how many tokens were left from the word on."""


_WORDS = frozenset(
    {*KIND_WORDS, *MOVE_WORDS, *SUPPORT_WORDS, *DEFEND_WORDS, *DISBAND_WORDS, *DESTROY_WORDS}
)
"""Order words: never taken for a misspelt province name."""


def _number(tokens: list[str], line: str) -> int:
    while tokens and tokens[0] in FILLER:
        tokens.pop(0)
    if tokens and tokens[0][:1].isalpha() and tokens[0] not in _WORDS:
        err = ProvinceName(
            f"{tokens[0].lower()!r} is no province number: orders give provinces by number",
            line=line,
            hint="e.g. A8->5",
        )
        err.rest = len(tokens)
        raise err
    if not tokens or not tokens[0].isdigit() or len(tokens[0]) > 3:
        raise InvalidLine("a province number is missing here", line=line, hint="e.g. A8->5")
    return int(tokens.pop(0))


def _piece(tokens: list[str], line: str) -> tuple[str, int]:
    kind = KIND_WORDS.get(tokens.pop(0)) if tokens else None
    if kind is None:
        raise InvalidLine(
            "an order starts with a piece: A (army), M (militia) or L (leader)",
            line=line,
            hint="e.g. A8->5",
        )
    return kind, _number(tokens, line)


def _move_tail(tokens: list[str], line: str) -> int | None:
    """After a piece: ``-> 5`` / ``moves to province 5``; None if no move words."""
    if not tokens or tokens[0] not in MOVE_WORDS:
        return None
    while tokens and tokens[0] in MOVE_WORDS:
        tokens.pop(0)
    return _number(tokens, line)


def _done(tokens: list[str], line: str) -> None:
    if tokens:
        raise InvalidLine(f"unexpected words at the end: {' '.join(tokens).lower()}", line=line)


def read(line: str) -> Draft:
    """One line -> a draft. Raises InvalidLine when the words form no order
    (:class:`ProvinceName` when a word stands for a province number)."""
    tokens = _tokens(line)
    try:
        return _read(line, list(tokens))
    except ProvinceName as exc:
        exc.tokens = tuple(tokens)
        exc.index = len(tokens) - exc.rest
        raise


def _read(line: str, tokens: list[str]) -> Draft:
    if not tokens:
        raise InvalidLine("empty order", line=line)
    head = tokens[0]
    if head == "NAME":
        name = " ".join(line.split()[1:])
        if not _NAME.match(name):
            raise InvalidLine("a character's name is letters and spaces (at most 31)", line=line)
        return {"verb": "name", "name": " ".join(w.capitalize() for w in name.split())}
    if (
        head in {"CAPITAL", "MILITIA"}
        and len(tokens) == 2
        and (tokens[1].isdigit() or head == "CAPITAL")
    ):
        return {"verb": head.lower(), "at": _number(tokens[1:], line)}
    if head == "WAIVE":
        _done(tokens[1:], line)
        return {"verb": "waive"}
    if head in {"BUILD", "REMOVE"}:
        rest = tokens[1:]
        kind, at = _piece(rest, line)
        _done(rest, line)
        if kind == "L":
            raise InvalidLine("leaders are neither built nor removed", line=line)
        return {"verb": head.lower(), "kind": kind, "at": at}
    if head == "CLAIM":
        rest = [t for t in tokens[1:] if t != "VICTORY"]
        if len(rest) != 1 or rest[0].lower() not in VICTORIES:
            raise InvalidLine("claim LEGENDARY, UNIFICATION or DESTINED", line=line)
        return {"verb": "claim", "victory": rest[0].lower()}
    if head == "CONCEDE":
        rest = tokens[1:]
        if rest and rest[0] == "TO":
            rest = rest[1:]
        if not rest:
            raise InvalidLine("concede to whom?", line=line, hint="CONCEDE Player2")
        return {"verb": "concede", "to": " ".join(rest)}
    words = tokens[1:] if head == "DECLARE" else tokens
    if words and (words[0] in STATUS_WORDS or words[:2] == ["CIVIL", "WAR"]):
        if words[0] == "CIVIL":
            status, rest = "civil war", words[2:]
        else:
            status, rest = STATUS_WORDS[words[0]], words[1:]
        if rest and rest[0] in {"ON", "WITH", "AGAINST", "TO", "TOWARDS"}:
            rest = rest[1:]
        if not rest:
            raise InvalidLine(
                "a status order names a player or a kingdom", line=line, hint="WAR Player2, WAR Wei"
            )
        return {"verb": "status", "status": status, "target": " ".join(rest)}
    kind, at = _piece(tokens, line)
    draft: Draft = {"kind": kind, "at": at}
    if not tokens or tokens[0] in DEFEND_WORDS:
        _done(tokens[1:], line)
        return {**draft, "verb": "defend"}
    if tokens[0] in DISBAND_WORDS:
        _done(tokens[1:], line)
        return {**draft, "verb": "disband"}
    if tokens[0] in DESTROY_WORDS:
        rest = [t for t in tokens[1:] if t not in {"CAPITAL", "THE"}]
        _done(rest, line)
        return {**draft, "verb": "destroy"}
    if tokens[0] in SUPPORT_WORDS:
        tokens.pop(0)
        tkind, tat = _piece(tokens, line)
        to = _move_tail(tokens, line)
        if to is None and tokens and tokens[0] in DEFEND_WORDS:
            tokens.pop(0)
        _done(tokens, line)
        return {**draft, "verb": "support", "tkind": tkind, "tat": tat, "to": to}
    to = _move_tail(tokens, line)
    if to is None:
        raise InvalidLine(
            f"{tokens[0].lower()!r} is no order word",
            line=line,
            hint="-> (move), S (support), D (defend)",
        )
    _done(tokens, line)
    return {**draft, "verb": "move", "to": to}


def canonical(d: Draft) -> str:
    """The canonical text of a draft (reads back to the same draft)."""
    verb = d["verb"]
    piece = f"{d.get('kind')}{d.get('at')}"
    if verb == "move":
        return f"{piece}->{d['to']}"
    if verb == "support":
        tail = f"->{d['to']}" if d.get("to") is not None else ""
        return f"{piece} S {d['tkind']}{d['tat']}{tail}"
    if verb == "defend":
        return f"{piece} D"
    if verb == "disband":
        return f"{piece} DISBAND"
    if verb == "destroy":
        return f"{piece} DESTROY"
    if verb == "status":
        return f"{d['status'].upper()} {d['target']}"
    if verb == "claim":
        return f"CLAIM {d['victory'].upper()}"
    if verb == "concede":
        return f"CONCEDE {d['to']}"
    if verb in {"build", "remove"}:
        return f"{verb.upper()} {piece}"
    if verb == "waive":
        return "WAIVE"
    if verb in {"capital", "militia"}:
        return f"{verb.upper()} {d['at']}"
    if verb == "name":
        return f"NAME {d['name']}"
    raise ValueError(f"no canonical text for {d!r}")

"""The offline adjudication stream behind ``judge adjudicate``: one JSON
document per line in, one result per line out, for tools.

It loads only the game whose ``"game"`` a document names (through
:mod:`judge.game.registry`) and nothing of the mail service, the store or the
templates, so that a tool piping many positions through one process pays
only for adjudication.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable
from typing import IO, Any

import orjson

from judge.game import registry


def adjudicate_stream(lines: Iterable[str], out: IO[str]) -> int:
    """Adjudicate each JSON document of ``lines`` and write its result (or
    ``{"error": "line N: ..."}``) as one line of ``out``. Returns the exit
    status: 0, or 1 when some document was refused."""
    # A stream of documents allocates much and keeps little: what was loaded
    # at start stays out of the collector's sight, and it runs less often.
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    # orjson reads and writes a document in a third of the time of the
    # standard library's C codec; keys sorted, one document a line.
    loads = orjson.loads
    dumps = orjson.dumps
    options = orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE
    games: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {}
    write = out.write
    status = 0
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        result: dict[str, Any]
        try:
            doc = loads(text)
            if not isinstance(doc, dict) or "game" not in doc:
                raise ValueError('a document is a JSON object with a "game" field')
            name = str(doc["game"])
            adjudicate = games.get(name)
            if adjudicate is None:
                found = registry.get(name)
                if found.adjudicate is None:
                    raise ValueError(f"{found.id} has no offline adjudication")
                adjudicate = games[name] = found.adjudicate
            result = adjudicate(doc)
        except (ValueError, registry.UnknownGame) as exc:
            result = {"error": f"line {number}: {exc}"}
            status = 1
        write(dumps(result, option=options).decode())
    out.flush()
    return status

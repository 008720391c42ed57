"""The judge's log: every line on stderr, with a timestamp and a level, as
text (``2026-01-02 03:04:05,678 INFO ...``) or as one JSON object a line
(``--log-format json``: ``time`` in UTC ISO 8601, ``level``, ``logger``,
``message``, and ``exception`` when there is one)."""

from __future__ import annotations

import logging
import sys
from datetime import UTC, datetime
from typing import TextIO

import orjson

FORMATS = ("text", "json")
TEXT = "%(asctime)s %(levelname)s %(message)s"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, str] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(entry).decode()


class StderrHandler(logging.StreamHandler[TextIO]):
    """Writes to whatever ``sys.stderr`` is at the time of each line."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:
        pass


def setup(verbose: bool = False, fmt: str = "text") -> None:
    """Send the log to stderr in ``fmt`` (``text`` or ``json``); one
    handler however often it is called."""
    root = logging.getLogger()
    handler = next((h for h in root.handlers if isinstance(h, StderrHandler)), None)
    if handler is None:
        handler = StderrHandler()
        root.addHandler(handler)
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT))
    root.setLevel(logging.DEBUG if verbose else logging.INFO)

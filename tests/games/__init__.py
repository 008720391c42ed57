"""The test-only games: Sealed Bids (:mod:`tests.games.sealed_bids`) and
Counterspell (:mod:`tests.games.counterspell`), with their view schemas and
report templates beside them. They are no game of the judge's: the tests
(and the benchmarks that play a game of hidden hands) register them with
:func:`judge.game.registry.register`, which refuses an id that a shipped
game has, and call :func:`add_report_files`. Like a shipped game, each
imports the game kit (:mod:`judge.game`) only."""

from __future__ import annotations

from pathlib import Path

from judge import reports

#: The folder of the test-only games' view schemas (``templates/`` beside them).
FILES = Path(__file__).resolve().parent


def add_report_files() -> None:
    """Let :mod:`judge.reports` find the test-only games' view schemas and
    report templates."""
    reports.add_template_dir(FILES / "templates")
    reports.add_schema_dir(FILES)

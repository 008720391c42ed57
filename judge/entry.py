"""The ``judge`` program.

``judge adjudicate`` with nothing else on its command line goes straight to
:mod:`judge.game.offline`, without loading the command-line library, logging or
configuration, so that a tool starting it pays only for adjudication; every
other command (and ``judge adjudicate --help``) goes through :mod:`judge.cli`.
"""

from __future__ import annotations

import sys


def run() -> None:
    """The console script ``judge``."""
    if sys.argv[1:] == ["adjudicate"]:
        from judge.game.offline import adjudicate_stream

        sys.exit(adjudicate_stream(sys.stdin, sys.stdout))
    from judge.cli import main

    main()

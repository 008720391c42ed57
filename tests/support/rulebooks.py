"""The rulebooks and reference texts the tests quote, in the folder
``shared`` beside the repository (``../shared/rules``, ``../shared/reference``),
or where ``$JUDGE_SHARED`` points.

They are not part of the repository: in a plain clone without them, a test
that reads one is skipped, and the reason names the folder it looked in.
CI has them (``.ci/run`` stops when the folder is missing), so there they
always run.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def shared() -> Path:
    """The folder holding ``rules/`` and ``reference/``."""
    return Path(os.environ.get("JUDGE_SHARED") or ROOT.parent / "shared")


@cache
def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def text(relative: str) -> str:
    """The text of ``shared/<relative>`` (e.g. ``rules/kingdom-wars.txt``);
    the calling test is skipped, naming the folder, when it is absent."""
    path = shared() / relative
    if not path.is_file():
        pytest.skip(f"{relative} not found in {shared()} (the folder ../shared beside the "
                    "repository, or $JUDGE_SHARED): this test quotes it")
    return _read(path)

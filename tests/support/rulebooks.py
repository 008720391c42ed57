"""The rulebooks and reference texts the tests quote, in the folder
``shared`` beside the repository (``../shared/rules``, ``../shared/reference``),
or where ``$JUDGE_SHARED`` points.

They are not part of the repository: in a plain clone without them, a test
that reads one is skipped, and the reason names the folder it looked in
(:data:`SKIP_REASON`; tests/conftest.py sums the skips up in one line at the
end of the run). Under CI (``CI=true``) a missing one fails the test instead:
CI has them (``.ci/run`` stops when the folder is missing), so there they
always run.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SKIP_REASON = "quotes the rulebooks"
"""How every skip for a missing shared file begins."""


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
        why = (f"{relative} not found in {shared()} (the folder ../shared beside the "
               "repository, or $JUDGE_SHARED): this test quotes it")
        if os.environ.get("CI") == "true":
            pytest.fail(f"{why}, and CI must run it")
        pytest.skip(f"{SKIP_REASON}: {why}")
    return _read(path)

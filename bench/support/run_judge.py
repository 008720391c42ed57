"""Run the ``judge`` command with the test-only game registered (the kill test
starts the daemon with it as a real process).

``JUDGE_TEST_KILL_AT=<point>:<n>`` makes the process SIGKILL itself the
``n``-th time the judge reaches fault point ``<point>`` (``logged``,
``committed``, ``before-move``, ``sent``; see ``judge.service``): a hard kill
at an exact place in the middle of a batch, with no cleanup of any kind.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from judge.cli import main  # noqa: E402
from judge.game import registry  # noqa: E402
from judge.service import Judge  # noqa: E402
from tests.games import add_report_files  # noqa: E402
from tests.games.sealed_bids import GAME  # noqa: E402

registry.register(GAME)
add_report_files()

_KILL_AT = os.environ.get("JUDGE_TEST_KILL_AT", "")
if _KILL_AT:
    _point, _, _nth = _KILL_AT.partition(":")
    _seen = [0]
    # the function under the classmethod (typeshed's bound method has no __func__):
    _open = Judge.open.__func__  # type: ignore[attr-defined]

    def _fault(point: str) -> None:
        if point == _point:
            _seen[0] += 1
            if _seen[0] == int(_nth):
                os.kill(os.getpid(), signal.SIGKILL)

    def _open_with_fault(cls: type[Judge], *args: Any, **kw: Any) -> Judge:
        judge: Judge = _open(cls, *args, **kw)
        judge.fault = _fault
        return judge

    # the judge of this process dies at the chosen point: Judge.open is replaced on purpose
    Judge.open = classmethod(_open_with_fault)  # type: ignore[method-assign,assignment]

if __name__ == "__main__":
    main(prog_name="judge")

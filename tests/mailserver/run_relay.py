"""Relay a judge home's outbox from a process of its own, as a second judge
on the same home would (a cron job beside the daemon): only the relay, not
``judge serve``, so no home lock stands between two of them.

``run_relay.py HOME GO``: open the judge, wait until the file ``GO`` exists
(so that several processes start at the same moment), relay until no mail
is due, and print the Message-IDs this process sent, one a line.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from judge.game import scheduler  # noqa: E402
from judge.relay import Ledger  # noqa: E402
from judge.service import Judge  # noqa: E402


def main(home: Path, go: Path) -> None:
    judge = Judge.open(home)
    try:
        print("ready", flush=True)
        while not go.exists():
            time.sleep(0.002)
        sent: list[str] = []
        deadline = time.monotonic() + 60
        ledger = Ledger(judge.store)
        while ledger.due_mail(scheduler.iso(judge.now())) and time.monotonic() < deadline:
            sent += judge.relay()
        print("\n".join(sent), flush=True)
    finally:
        judge.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))

"""One mail's budget: the time and memory its handling may take.

The daemon has one thread, so a mail that costs too much would stall every
game behind it. Each mail is handled inside :func:`mail_budget`:

* **Time**: an interval timer (``setitimer(ITIMER_REAL)``) whose SIGALRM
  raises :class:`OverBudget` in the handling code. It is a
  ``BaseException``, so no ``except Exception`` on the way swallows it,
  and the transaction the mail holds rolls back (``Store.atomic``). The
  signal is seen between two Python steps: one call into C code (a regular
  expression, a key derivation) runs to its end first, which the per-mail
  limits on sizes keep short.
* **Memory**: the address-space limit (``RLIMIT_AS``) is set, for the
  mail's time, to what the process uses plus the budget; an allocation
  beyond it fails with ``MemoryError``, and the limit is put back after.

Outside the main thread (where Python delivers no signal) only the memory
budget applies. The daemon, the CLI and the tests handle mail in the main
thread.
"""

from __future__ import annotations

import os
import resource
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = ["OverBudget", "address_space", "mail_budget"]


class OverBudget(BaseException):
    """A mail's handling ran past its time budget."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        super().__init__(f"its handling took longer than {seconds:g} s "
                         "(limits.mail_seconds)")


def address_space() -> int | None:
    """The process's virtual size in bytes (Linux ``/proc``), or None."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            pages = int(statm.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum: int, frame: FrameType | None) -> None:
        raise OverBudget(seconds)

    previous = signal.signal(signal.SIGALRM, expired)
    before = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if before[0] > 0:  # someone else's timer: give it back what is left of it
            signal.setitimer(signal.ITIMER_REAL, *before)


@contextmanager
def _memory_limit(extra: int) -> Iterator[None]:
    used = address_space() if extra > 0 else None
    if used is None:
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = used + extra
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    if soft != resource.RLIM_INFINITY and soft <= limit:
        yield  # a tighter limit is already set (by the service manager): it holds
        return
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@contextmanager
def mail_budget(seconds: float, memory_bytes: int) -> Iterator[None]:
    """Run the body within ``seconds`` (:class:`OverBudget` beyond) and
    ``memory_bytes`` more address space (``MemoryError`` beyond); 0 turns
    either off."""
    with _time_limit(seconds), _memory_limit(memory_bytes):
        yield

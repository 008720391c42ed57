"""The serve loop, its lock on the home, and signals.

One judge per home: :func:`serve` first takes an exclusive, non-blocking
``flock`` on ``<home>/judge.lock`` and holds it for the life of the process
(the operating system drops it when the process ends, however it ends, even
by SIGKILL). A second ``judge serve`` (or ``serve --once``) on the same home
finds it taken, names the process that holds it (its pid is written in the
file) and exits without touching mail. The lock file stays in the home; its
presence means nothing, only the lock on it does.
"""

from __future__ import annotations

import fcntl
import logging
import os
import signal
import socket
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType

from judge import config as cfg
from judge import health, mailconfig, sdnotify
from judge.mail import maildrop
from judge.service import Judge
from judge.site import publish

__all__ = ["LOCK_NAME", "HomeLock", "HomeLocked", "serve"]

log = logging.getLogger("judge")

LOCK_NAME = "judge.lock"
"""The lock file in the home (see the module docstring)."""


class HomeLocked(Exception):
    """Another process serves this home; the message names it."""

    def __init__(self, home: Path, holder: str) -> None:
        self.home = home
        self.holder = holder
        super().__init__(
            f"another judge is already serving {home} ({holder}); only one may run per home. "
            "Stop it first (systemctl stop judge), or wait for its `serve --once` to end."
        )


class HomeLock:
    """An exclusive lock on a judge home, held until :meth:`release` (or
    the end of the process). Use as a context manager."""

    def __init__(self, home: Path) -> None:
        self.home = Path(home)
        self.path = self.home / LOCK_NAME
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock at once, or raise :class:`HomeLocked`. On success the
        file holds ``<pid>`` on its first line and who took it when on the second."""
        if self._fd is not None:
            return
        try:  # the descriptor is not inherited by child processes
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise cfg.ConfigError(f"cannot open the lock file {self.path}: {exc.strerror}") \
                from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = self._holder(fd)
            os.close(fd)
            raise HomeLocked(self.home, holder) from None
        except OSError as exc:  # a file system without locks
            os.close(fd)
            raise cfg.ConfigError(f"cannot lock {self.path}: {exc.strerror}") from exc
        except BaseException:
            os.close(fd)
            raise
        since = datetime.now(UTC).isoformat(timespec="seconds")
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\njudge serve on {socket.gethostname()} since {since}\n"
                  .encode(), 0)  # fmt: skip
        self._fd = fd

    @staticmethod
    def _holder(fd: int) -> str:
        """Who holds the lock, from the file (the holder may be writing it)."""
        for _ in range(20):
            lines = os.pread(fd, 4096, 0).decode(errors="replace").splitlines()
            if lines and lines[0].strip().isdigit():
                pid = lines[0].strip()
                return f"pid {pid}" + (f", {lines[1].strip()}" if len(lines) > 1 else "")
            time.sleep(0.01)
        return "a process that has not written its pid"

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # closing the only descriptor drops the lock

    def __enter__(self) -> HomeLock:
        self.acquire()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()


def serve(home: Path, *, once: bool, echo: Callable[[str], None]) -> None:
    """Run the daemon on ``home``: take the home's lock (:class:`HomeLocked`
    if another process holds it), then cycle (read mail, run deadlines,
    relay the outbox) every ``poll_seconds``, or once with ``once``.
    Raises :class:`~judge.config.ConfigError` for a bad config or a
    password that cannot be read."""
    cfg.load(home)  # a missing or broken home says so before anything else
    with HomeLock(home):
        judge = Judge.open(home)
        try:
            mailconfig.check_secrets(judge.config)  # fail at start, not at the first mail
            # systemd stops the service with SIGTERM: leave through `finally`
            # (every mail is one transaction, so even a hard kill loses nothing).
            previous = signal.signal(signal.SIGTERM, _stop)
            log.info("judge serving %s (pid %d)%s", home, os.getpid(), " once" if once else "")
            sdnotify.notify("READY=1", f"STATUS=serving {home}")
            try:
                _loop(judge, once, echo)
            finally:
                sdnotify.notify("STOPPING=1")
                signal.signal(signal.SIGTERM, previous)
                log.info("judge stopped serving %s (pid %d)", home, os.getpid())
        finally:
            judge.close()


def _loop(judge: Judge, once: bool, echo: Callable[[str], None]) -> None:
    wait = getattr(judge.inbound, "wait", None)  # IMAP IDLE, when there is one
    strays = maildrop.StrayWatch(maildrop.inbox_folder(judge.config.mail_in, judge.config.home))
    while True:
        stray = strays.check()
        if stray is not None:
            log.warning("%s", stray)
        try:
            for line in judge.cycle():  # a busy database waits inside: no exception
                echo(line)
            published = publish.after_cycle(judge)  # the public pages, if configured
            if published:
                echo(published)
        except Exception as exc:
            health.beat(judge.config.home, ok=False, error=f"{type(exc).__name__}: {exc}")
            if once:
                raise
            log.exception("cycle failed; trying again")
        else:  # `judge status` reads it; systemd's watchdog hears it
            health.beat(judge.config.home, ok=True, read=judge.cycle_read,
                        failed=judge.cycle_failed)
            sdnotify.notify("WATCHDOG=1")
        if once:
            return
        pause = pause_before_next(judge)
        watchdog = sdnotify.watchdog_seconds()
        if watchdog is not None:  # cycle (and say so) well within the watchdog's interval
            pause = min(pause, watchdog / 2)
        if wait is not None:
            wait(pause)
        else:
            time.sleep(pause)


def _stop(signum: int, frame: object) -> None:
    log.info("SIGTERM: stopping after the current step")
    sys.exit(0)


def pause_before_next(judge: Judge) -> float:
    """Seconds to wait before the next cycle: ``poll_seconds``, or less when a
    deadline, a reminder, a grace period's end or a window's minimum open
    time falls sooner, so that it is processed at its minute."""
    poll = float(judge.config.poll_seconds)
    due = judge.next_due()
    if due is None:
        return poll
    return max(0.0, min(poll, (due - judge.now()).total_seconds() + 0.5))

"""systemd's notify protocol, spoken directly (sd_notify(3)): a datagram of
``KEY=VALUE`` lines to the Unix socket named by ``$NOTIFY_SOCKET``.

``judge serve`` under ``Type=notify`` says ``READY=1`` once it holds its
home and has opened its mail, ``WATCHDOG=1`` after every cycle (the unit's
``WatchdogSec=`` restarts a daemon that stops cycling), and ``STOPPING=1``
when it leaves. Without ``$NOTIFY_SOCKET`` every call does nothing.
"""

from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger("judge")


def notify(*states: str) -> bool:
    """Send ``states`` (e.g. ``"READY=1"``); whether a socket took them."""
    address = os.environ.get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall("\n".join(states).encode())
    except OSError as exc:
        log.warning("could not notify systemd at %s: %s", os.environ["NOTIFY_SOCKET"], exc)
        return False
    return True


def watchdog_seconds() -> float | None:
    """The watchdog's interval systemd set for this process
    (``$WATCHDOG_USEC``, for ``$WATCHDOG_PID`` if given), else None."""
    usec = os.environ.get("WATCHDOG_USEC", "")
    pid = os.environ.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0 or (pid and pid != str(os.getpid())):
        return None
    return int(usec) / 1_000_000

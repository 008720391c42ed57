"""What a station of the mail path may use of the judge it works for.

The stations (:mod:`judge.pipeline`, :mod:`judge.session`, the command
handlers, :mod:`judge.lifecycle`, :mod:`judge.notify`, :mod:`judge.relay`,
:mod:`judge.bounces`, :mod:`judge.gmnotice`, :mod:`judge.store.backup`) are
handed a :class:`Hub`: the judge's config and database, its clock, where
new games get their seed, and the named points where tests inject a
crash. Nothing more: what a station makes (log entries, the mails it
queues in the session's :class:`judge.outbox.Outbox`, the inbox record)
it returns or leaves in the session, and :class:`judge.service.Judge`,
which satisfies this protocol, is imported by none of them (a test keeps
it so: ``tests/core/test_import_circle.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Protocol

from judge.config import Config
from judge.mail.mailout import OutboundTransport
from judge.store import Store


class Hub(Protocol):
    """The judge as its stations see it (:class:`judge.service.Judge` is one)."""

    config: Config
    store: Store
    #: The judge's clock (tests stand it still or move it).
    now: Callable[[], datetime]
    #: Where new games get their seed (tests may fix it to replay a game).
    seed_source: Callable[[], bytes]

    @property
    def fault(self) -> Callable[[str], None]:
        """Fault injection: a crash at a named step (a no-op outside tests)."""
        ...

    @property
    def outbound(self) -> OutboundTransport:
        """Where the relay sends mail."""
        ...

"""Mail in over IMAP: an :class:`~judge.mail.mailin.InboundTransport` on imapclient.

How it reads a mailbox, and why:

* **By UID, with a checkpoint.** The transport keeps, per mailbox, the
  UIDVALIDITY it saw and the highest UID it has finished with (RFC 3501
  section 2.3.1.1), in the judge's database through a :class:`Checkpoint`.
  Each poll asks only for UIDs above it. The checkpoint moves only after the
  messages were moved out, so a message handled but not moved (the server
  went away, the judge was killed) is fetched again and the inbox dedupe (by
  Message-ID) recognises it.
* **A changed UIDVALIDITY** (a restored or rebuilt mailbox) means the old
  UIDs name nothing: the checkpoint restarts at 0 and every message still in
  the folder is read again. Nothing is applied twice: the inbox dedupe
  decides, exactly as for a message fetched twice.
* **Never \\Seen.** A person reading the judge's mailbox with a mail client
  may set or clear it, so it decides nothing. Bodies are fetched with
  ``BODY.PEEK[]``, which leaves the flags as they were.
* **Handled mail moves** to the Processed or Failed folder (created when
  missing, under the server's personal namespace prefix), many messages per
  command: ``UID MOVE`` when
  the server offers MOVE (RFC 6851), else ``UID COPY``, ``\\Deleted`` and
  ``UID EXPUNGE`` (RFC 4315 UIDPLUS), else a plain ``EXPUNGE``.
* **IDLE** (RFC 2177): :meth:`wait` idles when the server offers it, and
  re-issues the command before 29 minutes (``idle_seconds``, 25 minutes by
  default) so that no server drops the connection as inactive. Without IDLE
  it sleeps; the daemon polls.
* **The server going away** is not an error of the judge: any connection
  failure drops the connection, logs a warning and tries again after a
  backoff that doubles from ``reconnect_min`` to ``reconnect_max`` seconds.
  While it is down :meth:`fetch` yields nothing, so the daemon goes on running
  deadlines and sending mail.

This module does I/O (it is a transport) and reads a monotonic clock for its
backoff; it never reads the wall clock.
"""

from __future__ import annotations

import contextlib
import imaplib
import logging
import ssl
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from imapclient import IMAPClient  # type: ignore[import-untyped]

__all__ = ["Checkpoint", "ImapInbound", "ImapSettings", "MemoryCheckpoint", "connection_errors"]

log = logging.getLogger("judge.mail.imap")

MAX_IDLE_SECONDS = 29 * 60
"""RFC 2177: a client re-issues IDLE at least every 29 minutes."""

connection_errors: tuple[type[BaseException], ...] = (OSError, EOFError, imaplib.IMAP4.error)
"""What a lost or refused IMAP connection raises (ssl errors are OSErrors;
``IMAP4.error`` is imapclient's ``IMAPClientError`` and the base of its abort
and login errors)."""


@dataclass(frozen=True)
class ImapSettings:
    """Where the judge's mailbox is and how to log in."""

    host: str
    port: int
    username: str
    password: str = field(repr=False)
    security: str = "tls"
    """``tls`` (TLS from the first byte, port 993), ``starttls`` (port 143,
    STARTTLS required) or ``none`` (plain text: loopback and tests only)."""
    folder: str = "INBOX"
    processed: str = "Processed"
    failed: str = "Failed"
    cafile: str | None = None
    """A CA bundle (or a self-signed certificate) to trust instead of the system's."""
    timeout: float = 60.0
    idle: bool = True
    """Use IDLE when the server offers it."""
    idle_seconds: float = 25 * 60
    """Longest single IDLE; capped at :data:`MAX_IDLE_SECONDS`."""
    use_move: bool = True
    """Use MOVE when the server offers it (else COPY + delete + expunge)."""
    reconnect_min: float = 1.0
    reconnect_max: float = 300.0
    batch: int = 200
    """Messages per FETCH command."""
    move_batch: int = 100
    """Messages per MOVE command (see :meth:`ImapInbound.done`)."""

    @property
    def mailbox_key(self) -> str:
        """Names the mailbox in the checkpoint table."""
        return f"{self.username}@{self.host}:{self.port}/{self.folder}"

    def ssl_context(self) -> ssl.SSLContext:
        """Certificates are always verified, against ``cafile`` when given."""
        return ssl.create_default_context(cafile=self.cafile)


class Checkpoint(Protocol):
    """Where the (UIDVALIDITY, last UID done) of each mailbox is kept."""

    def load(self, mailbox: str) -> tuple[int, int] | None: ...

    def save(self, mailbox: str, uidvalidity: int, last_uid: int) -> None: ...


class MemoryCheckpoint:
    """A :class:`Checkpoint` in memory (tools and tests; the judge uses its store)."""

    def __init__(self) -> None:
        self.marks: dict[str, tuple[int, int]] = {}

    def load(self, mailbox: str) -> tuple[int, int] | None:
        return self.marks.get(mailbox)

    def save(self, mailbox: str, uidvalidity: int, last_uid: int) -> None:
        self.marks[mailbox] = (uidvalidity, last_uid)


def connect(settings: ImapSettings) -> Any:
    """A logged-in :class:`IMAPClient` (nothing selected). Raises what
    imapclient and the socket raise (see :data:`connection_errors`)."""
    context = settings.ssl_context()
    if settings.security == "tls":
        client = IMAPClient(
            settings.host, settings.port, ssl=True, ssl_context=context, timeout=settings.timeout
        )
    else:
        client = IMAPClient(settings.host, settings.port, ssl=False, timeout=settings.timeout)
        if settings.security == "starttls":
            client.starttls(context)
    try:
        client.login(settings.username, settings.password)
    except BaseException:
        _shutdown(client)
        raise
    return client


def _shutdown(client: Any) -> None:
    with contextlib.suppress(Exception):  # closing a dead connection may fail in any way
        client.shutdown()


def folder_name(client: Any, name: str) -> str:
    """``name`` under the personal namespace prefix (``INBOX.`` on Courier
    and some Dovecot setups), unless it already carries it."""
    if name.upper() == "INBOX":
        return name
    try:
        personal = client.namespace().personal
    except connection_errors:
        raise
    except Exception:  # no NAMESPACE support: use the name as given
        return name
    if personal:
        prefix = personal[0][0]
        prefix = prefix.decode() if isinstance(prefix, bytes) else str(prefix or "")
        if prefix and not name.startswith(prefix):
            return prefix + name
    return name


class ImapInbound:
    """An :class:`~judge.mail.mailin.InboundTransport` over one IMAP folder.

    Keys are ``"<uidvalidity>:<uid>"``. See the module docstring for the
    guarantees; in short: a message is yielded by :meth:`fetch` until it was
    marked :meth:`done` and moved out, and the checkpoint never passes a
    message that was not moved out.
    """

    name = "imap"

    def __init__(
        self,
        settings: ImapSettings,
        checkpoint: Checkpoint,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.settings = settings
        self.checkpoint = checkpoint
        self.clock = clock
        self.sleep = sleep
        self._client: Any = None
        self._uidvalidity = 0
        self._folders: dict[bool, str] = {}
        self._failures = 0
        self._retry_at = 0.0
        self._pending: dict[bool, list[int]] = {True: [], False: []}
        self.connects = 0
        """How many times a connection was made (the fault tests read it)."""

    # ----------------------------------------------------------------- connection

    @property
    def connected(self) -> bool:
        return self._client is not None

    def _lost(self, exc: BaseException, doing: str) -> None:
        """Drop the connection and schedule the next attempt."""
        client, self._client = self._client, None
        self._pending = {True: [], False: []}  # they stay in the folder: fetched again
        if client is not None:
            _shutdown(client)
        self._failures += 1
        delay = min(
            self.settings.reconnect_max, self.settings.reconnect_min * 2 ** (self._failures - 1)
        )
        self._retry_at = self.clock() + delay
        log.warning(
            "IMAP %s:%s: %s failed (%s: %s); next attempt in %.0f s",
            self.settings.host, self.settings.port, doing, type(exc).__name__, exc, delay,
        )  # fmt: skip

    def _connection(self) -> Any:
        """The live connection with the folder selected, or None while the
        server is unreachable (then the backoff decides when to try again)."""
        if self._client is not None:
            return self._client
        if self.clock() < self._retry_at:
            return None
        try:
            client = connect(self.settings)
            self._client = client
            self._folders = {
                True: folder_name(client, self.settings.processed),
                False: folder_name(client, self.settings.failed),
            }
            for folder in self._folders.values():
                if not client.folder_exists(folder):
                    client.create_folder(folder)
                    log.info("IMAP: created folder %s", folder)
        except connection_errors as exc:
            self._lost(exc, "connect")
            return None
        if self._failures:
            log.info("IMAP %s:%s: connected again", self.settings.host, self.settings.port)
        self._failures = 0
        self.connects += 1
        return self._client

    def close(self) -> None:
        """Move what is marked done, then log out (best effort)."""
        self.flush()
        client, self._client = self._client, None
        if client is not None:
            try:
                client.logout()
            except Exception:
                _shutdown(client)

    # ----------------------------------------------------------------- reading

    def _select(self, client: Any) -> int:
        """Select the folder; returns its UIDVALIDITY and resets the
        checkpoint if that changed."""
        info = client.select_folder(self.settings.folder)
        uidvalidity = int(info[b"UIDVALIDITY"])
        mark = self.checkpoint.load(self.settings.mailbox_key)
        if mark is None or mark[0] != uidvalidity:
            if mark is not None:
                log.warning(
                    "IMAP %s: UIDVALIDITY changed from %s to %s; reading the folder again "
                    "(the inbox dedupe skips what was handled)",
                    self.settings.mailbox_key, mark[0], uidvalidity,
                )  # fmt: skip
            self.checkpoint.save(self.settings.mailbox_key, uidvalidity, 0)
        self._uidvalidity = uidvalidity
        return uidvalidity

    def _last_uid(self) -> int:
        mark = self.checkpoint.load(self.settings.mailbox_key)
        return mark[1] if mark is not None and mark[0] == self._uidvalidity else 0

    def fetch(self) -> Iterator[tuple[str, bytes]]:
        """New messages, lowest UID first, as ``("<uidvalidity>:<uid>", raw)``.
        Yields nothing while the server is unreachable; stops early (without
        raising) when the connection breaks."""
        client = self._connection()
        if client is None:
            return
        self.flush()  # what an interrupted batch left marked
        if self._client is not client:
            return
        try:
            uidvalidity = self._select(client)
            last = self._last_uid()
            # "n:*" always matches the highest UID, even below n (RFC 3501 6.4.8).
            uids = sorted(u for u in client.search(["UID", f"{last + 1}:*"]) if u > last)
        except connection_errors as exc:
            self._lost(exc, "search")
            return
        for start in range(0, len(uids), self.settings.batch):
            chunk = uids[start : start + self.settings.batch]
            try:
                data = client.fetch(chunk, ["BODY.PEEK[]"])
            except connection_errors as exc:
                self._lost(exc, "fetch")
                return
            for uid in chunk:
                raw = data.get(uid, {}).get(b"BODY[]")
                if raw is None:
                    continue  # expunged by someone else meanwhile
                yield f"{uidvalidity}:{uid}", bytes(raw)
                if self._client is not client:
                    return  # a move lost the connection: the rest comes next time
        self.flush()

    # ----------------------------------------------------------------- moving

    def done(self, key: str, ok: bool) -> None:
        """Mark the message for Processed (``ok``) or Failed. Moves go to the
        server in batches (one ``UID MOVE`` for many messages): when
        ``move_batch`` are waiting, when :meth:`fetch` has nothing more to
        give, before :meth:`wait` idles and on :meth:`close`; the checkpoint
        moves after each batch. If the server goes away first, the messages
        stay where they are and are fetched again later, where the inbox
        dedupe recognises them. A key from an older UIDVALIDITY is ignored
        for the same reason."""
        validity, _, uid_text = key.partition(":")
        if self._client is None or int(validity) != self._uidvalidity:
            return
        self._pending[ok].append(int(uid_text))
        if len(self._pending[True]) + len(self._pending[False]) >= self.settings.move_batch:
            self.flush()

    def flush(self) -> None:
        """Move every message :meth:`done` marked, then the checkpoint."""
        pending = {ok: uids for ok, uids in self._pending.items() if uids}
        self._pending = {True: [], False: []}
        client = self._client
        if not pending or client is None:
            return
        try:
            for ok, uids in pending.items():
                folder = self._folders[ok]
                if self.settings.use_move and client.has_capability("MOVE"):
                    client.move(uids, folder)
                else:
                    client.copy(uids, folder)
                    client.delete_messages(uids)
                    if client.has_capability("UIDPLUS"):
                        client.uid_expunge(uids)
                    else:
                        client.expunge()
        except connection_errors as exc:
            self._lost(exc, f"moving {sum(map(len, pending.values()))} message(s)")
            return
        # Everything done so far is out of the folder: no UID at or below the
        # highest of them is still waiting (fetch yields in UID order and the
        # judge marks each message before it asks for the next).
        top = max(max(uids) for uids in pending.values())
        if top > self._last_uid():
            self.checkpoint.save(self.settings.mailbox_key, self._uidvalidity, top)

    # ----------------------------------------------------------------- waiting

    def wait(self, seconds: float) -> bool:
        """Block up to ``seconds`` until there is new mail: True at once if
        some is already waiting, else IDLE until the server reports some
        (True) or the time is up (False). Without IDLE, or while
        disconnected, sleep instead (at most until the next reconnection
        attempt is due)."""
        deadline = self.clock() + seconds
        self.flush()
        client = self._client
        if client is None or not self.settings.idle or not self._has_idle(client):
            pause = seconds
            if client is None:
                pause = max(0.0, min(seconds, self._retry_at - self.clock()))
            self.sleep(pause)
            return False
        try:
            # Mail that arrived while we were busy was announced then (and
            # will not be again in IDLE): look before idling.
            client.noop()  # a NOOP makes the server look at the folder again
            last = self._last_uid()
            if any(u > last for u in client.search(["UID", f"{last + 1}:*"])):
                return True
        except connection_errors as exc:
            self._lost(exc, "search")
            return False
        step = min(self.settings.idle_seconds, MAX_IDLE_SECONDS)
        while True:
            remaining = deadline - self.clock()
            if remaining <= 0:
                return False
            try:
                client.idle()
                try:
                    responses = list(client.idle_check(timeout=min(remaining, step)))
                except BaseException:
                    # Interrupted (a signal, a broken connection): leave IDLE
                    # if we still can, so that a LOGOUT is answered.
                    with contextlib.suppress(Exception):
                        client.idle_done()
                    raise
                _, more = client.idle_done()  # what arrived between the check and DONE
                responses.extend(more or [])
            except connection_errors as exc:
                self._lost(exc, "IDLE")
                return False
            for response in responses:
                if len(response) >= 2 and response[1] in (b"EXISTS", b"RECENT"):
                    return True

    @staticmethod
    def _has_idle(client: Any) -> bool:
        try:
            return bool(client.has_capability("IDLE"))
        except connection_errors:
            return False

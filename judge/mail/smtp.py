"""Mail out over SMTP: an :class:`~judge.mail.mailout.OutboundTransport` on aiosmtplib.

aiosmtplib is asynchronous; the judge is not. :class:`SmtpOutbound` owns a
private event loop, running in a thread of its own, and a small pool of SMTP
connections kept open between sends (at most ``connections``, 3 by default).
:meth:`SmtpOutbound.start` hands a mail to that loop and returns a future at
once, so the relay sends several mails at a time while the judge goes on
handling the next order; :meth:`SmtpOutbound.send` waits for one. A
connection that sat unused for ``noop_after`` seconds is checked with NOOP
first and replaced if the server dropped it.

How answers become the relay's two kinds of failure (RFC 5321 section 4.2.1):

* :class:`~judge.mail.mailout.PermanentFailure`: a 5xx answer to RCPT TO or to
  DATA (the recipient or this message is refused for good), or a recipient
  that is not a single address. The relay gives up on the mail and marks the
  address bouncing.
* :class:`~judge.mail.mailout.TemporaryFailure`: any 4xx answer; and also a 5xx to
  MAIL FROM, AUTH or EHLO, because those say the judge's own configuration is
  wrong, not the player's address, and the mail must wait until the operator
  fixes it rather than be thrown away.
* :class:`~judge.mail.mailout.ServerUnavailable` (a TemporaryFailure): no
  connection at all (refused, reset, timed out, TLS failed). Every other mail
  would fail the same way now, so the relay stops its pass.

A message is sent once per :meth:`SmtpOutbound.send` call; the relay calls it
again only after a failure. When the connection breaks after DATA was sent
but before the server answered, the relay cannot know whether it was
delivered and sends it again later under the same Message-ID, which mail
clients fold into one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import ssl
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field

import aiosmtplib

from judge.mail.mailout import PermanentFailure, ServerUnavailable, TemporaryFailure

__all__ = ["SmtpOutbound", "SmtpSettings", "open_connection"]

log = logging.getLogger("judge.mail.smtp")

_ADDR = re.compile(r"[^@\s<>(),;:\"\[\]\\]+@[^@\s<>(),;:\"\[\]\\]+")


@dataclass(frozen=True)
class SmtpSettings:
    """The relay (submission) server and how to log in."""

    host: str
    port: int
    security: str = "starttls"
    """``tls`` (TLS from the first byte, port 465), ``starttls`` (port 587,
    STARTTLS required) or ``none`` (plain text: loopback and tests only)."""
    username: str | None = None
    """``None``: no AUTH (a relay that trusts the judge's host)."""
    password: str | None = field(default=None, repr=False)
    cafile: str | None = None
    timeout: float = 60.0
    helo: str | None = None
    """The name given in EHLO (default: the host's fully qualified name)."""
    noop_after: float = 10.0
    connections: int = 3
    """How many SMTP connections may carry mail at once (:meth:`SmtpOutbound.start`)."""

    def ssl_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=self.cafile)


def _client(settings: SmtpSettings) -> aiosmtplib.SMTP:
    return aiosmtplib.SMTP(
        hostname=settings.host,
        port=settings.port,
        username=settings.username,
        password=settings.password,
        local_hostname=settings.helo,
        timeout=settings.timeout,
        use_tls=settings.security == "tls",
        start_tls=settings.security == "starttls",
        tls_context=settings.ssl_context() if settings.security != "none" else None,
    )


async def open_connection(settings: SmtpSettings) -> aiosmtplib.SMTP:
    """Connect, say EHLO, start TLS and log in as ``settings`` ask.
    Raises aiosmtplib's errors (and OSError) as they come."""
    smtp = _client(settings)
    await smtp.connect()
    return smtp


def _reply(exc: aiosmtplib.SMTPResponseException) -> str:
    return f"{exc.code} {exc.message}".strip()


class SmtpOutbound:
    """An :class:`~judge.mail.mailout.OutboundTransport` over SMTP (see the module
    docstring), which also sends in the background (:meth:`start`).
    :meth:`close` ends the connections and the event loop; the object cannot
    send after it."""

    name = "smtp"

    def __init__(
        self, settings: SmtpSettings, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.settings = settings
        self.clock = clock
        self._loop = asyncio.new_event_loop()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._idle: list[tuple[aiosmtplib.SMTP, float]] = []
        """Open connections not in use, with when each was last used (loop only)."""
        self._slots = asyncio.Semaphore(max(1, settings.connections))
        self.connects = 0
        """How many connections were opened (tests and the benchmark read it)."""

    # ----------------------------------------------------------------- connections

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        """The event loop, running in its own thread from the first send on."""
        with self._lock:
            if self._loop.is_closed():
                raise ServerUnavailable("SMTP: the transport is closed")
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._loop.run_forever, name="judge-smtp", daemon=True
                )
                self._thread.start()
        return self._loop

    async def _acquire(self) -> aiosmtplib.SMTP:
        """A connection for one send: an idle one (checked with NOOP when it
        sat unused for ``noop_after`` seconds), else a new one. At most
        ``connections`` are in use at once; the caller waits for one."""
        await self._slots.acquire()
        try:
            while self._idle:
                smtp, last_used = self._idle.pop()
                if not smtp.is_connected:
                    continue
                if self.clock() - last_used < self.settings.noop_after:
                    return smtp
                try:
                    await smtp.noop()
                    return smtp
                except (aiosmtplib.SMTPException, OSError):
                    smtp.close()
            smtp = await open_connection(self.settings)
            self.connects += 1
            return smtp
        except BaseException:
            self._slots.release()
            raise

    def _release(self, smtp: aiosmtplib.SMTP, keep: bool) -> None:
        if keep and smtp.is_connected:
            self._idle.append((smtp, self.clock()))
        else:
            with contextlib.suppress(Exception):  # a broken transport may fail in any way
                smtp.close()
        self._slots.release()

    async def _quit_all(self) -> None:
        idle, self._idle = self._idle, []
        for smtp, _ in idle:
            if not smtp.is_connected:
                continue
            try:
                await asyncio.wait_for(smtp.quit(), 5)
            except Exception:
                smtp.close()

    def close(self) -> None:
        """QUIT every idle connection (best effort), then stop the event loop."""
        with self._lock:
            if self._loop.is_closed():
                return
            thread, self._thread = self._thread, None
        if thread is not None:
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(self._quit_all(), self._loop).result(10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            thread.join(10)
        with self._lock:
            self._loop.close()

    # ----------------------------------------------------------------- sending

    async def _deliver(self, envelope_from: str, to_addr: str, message: bytes) -> None:
        """One mail over a pooled connection, with the server's answers
        turned into the relay's failures (see the module docstring)."""
        if not _ADDR.fullmatch(to_addr):
            raise PermanentFailure(f"recipient {to_addr!r} is not exactly one address")
        if envelope_from and not _ADDR.fullmatch(envelope_from):
            raise PermanentFailure(f"envelope sender {envelope_from!r} is not an address")
        where = f"SMTP {self.settings.host}:{self.settings.port}"
        smtp: aiosmtplib.SMTP | None = None
        keep = True  # False: the session is unusable, close it
        try:
            smtp = await self._acquire()
            await smtp.sendmail(envelope_from, [to_addr], message)
        except aiosmtplib.SMTPRecipientsRefused as exc:
            refusal = exc.recipients[0]
            if 500 <= refusal.code < 600:
                raise PermanentFailure(f"{where}: RCPT TO <{to_addr}>: {_reply(refusal)}") from exc
            raise TemporaryFailure(f"{where}: RCPT TO <{to_addr}>: {_reply(refusal)}") from exc
        except aiosmtplib.SMTPDataError as exc:
            if 500 <= exc.code < 600:
                raise PermanentFailure(f"{where}: DATA: {_reply(exc)}") from exc
            raise TemporaryFailure(f"{where}: DATA: {_reply(exc)}") from exc
        except aiosmtplib.SMTPAuthenticationError as exc:
            keep = False
            log.error("%s: login refused (%s); check the username and password", where,
                      _reply(exc))  # fmt: skip
            raise ServerUnavailable(f"{where}: AUTH: {_reply(exc)}") from exc
        except aiosmtplib.SMTPSenderRefused as exc:
            log.error("%s: envelope sender <%s> refused (%s)", where, envelope_from, _reply(exc))
            raise TemporaryFailure(f"{where}: MAIL FROM: {_reply(exc)}") from exc
        except aiosmtplib.SMTPResponseException as exc:
            # 421 and friends close the session; anything else here concerns
            # the session (EHLO, STARTTLS), not this recipient.
            keep = False
            raise ServerUnavailable(f"{where}: {_reply(exc)}") from exc
        except (TimeoutError, aiosmtplib.SMTPException, OSError) as exc:
            keep = False
            raise ServerUnavailable(f"{where}: {type(exc).__name__}: {exc}") from exc
        except ValueError as exc:  # aiosmtplib refused an address it cannot send safely
            raise PermanentFailure(f"{where}: {exc}") from exc
        finally:
            if smtp is not None:
                self._release(smtp, keep)

    def start(self, envelope_from: str, to_addr: str, message: bytes) -> Future[None]:
        """Begin sending ``message`` in the background and return at once.
        The future's ``result()`` is ``None`` once the server accepted the
        mail, or raises what :meth:`send` would. Up to ``connections`` mails
        travel at once, each on its own connection."""
        return asyncio.run_coroutine_threadsafe(
            self._deliver(envelope_from, to_addr, message), self._running_loop()
        )

    def send(self, envelope_from: str, to_addr: str, message: bytes) -> None:
        """Deliver ``message`` to ``to_addr`` with ``envelope_from`` as the
        return path (``""`` sends ``MAIL FROM:<>``). Raises the relay's
        failures as described in the module docstring."""
        self.start(envelope_from, to_addr, message).result()

"""Mail out over SMTP: an :class:`~judge.mailout.OutboundTransport` on aiosmtplib.

aiosmtplib is asynchronous; the judge is not. :class:`SmtpOutbound` owns a
private event loop and runs each send to completion on it, keeping one SMTP
connection open between sends (the relay sends a batch through it). A
connection that sat unused for ``noop_after`` seconds is checked with NOOP
first and replaced if the server dropped it.

How answers become the relay's two kinds of failure (RFC 5321 section 4.2.1):

* :class:`~judge.mailout.PermanentFailure`: a 5xx answer to RCPT TO or to
  DATA (the recipient or this message is refused for good), or a recipient
  that is not a single address. The relay gives up on the mail and marks the
  address bouncing.
* :class:`~judge.mailout.TemporaryFailure`: any 4xx answer; and also a 5xx to
  MAIL FROM, AUTH or EHLO, because those say the judge's own configuration is
  wrong, not the player's address, and the mail must wait until the operator
  fixes it rather than be thrown away.
* :class:`~judge.mailout.ServerUnavailable` (a TemporaryFailure): no
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
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import aiosmtplib

from judge.mailout import PermanentFailure, ServerUnavailable, TemporaryFailure

__all__ = ["SmtpOutbound", "SmtpSettings", "open_connection"]

log = logging.getLogger("judge.smtp")

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
    """An :class:`~judge.mailout.OutboundTransport` over SMTP (see the module
    docstring). :meth:`close` ends the connection and the event loop; the
    object cannot send after it."""

    name = "smtp"

    def __init__(
        self, settings: SmtpSettings, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.settings = settings
        self.clock = clock
        self._loop = asyncio.new_event_loop()
        self._smtp: aiosmtplib.SMTP | None = None
        self._last_used = 0.0
        self.connects = 0
        """How many connections were opened (tests and the benchmark read it)."""

    # ----------------------------------------------------------------- connection

    async def _connection(self) -> aiosmtplib.SMTP:
        smtp = self._smtp
        if smtp is not None and smtp.is_connected:
            if self.clock() - self._last_used < self.settings.noop_after:
                return smtp
            try:
                await smtp.noop()
                return smtp
            except (aiosmtplib.SMTPException, OSError):
                smtp.close()
        self._smtp = None
        smtp = await open_connection(self.settings)
        self._smtp = smtp
        self.connects += 1
        return smtp

    def _drop(self) -> None:
        smtp, self._smtp = self._smtp, None
        if smtp is not None:
            with contextlib.suppress(Exception):  # a broken transport may fail in any way
                smtp.close()

    def close(self) -> None:
        """QUIT (best effort), then close the event loop."""
        if self._loop.is_closed():
            return
        smtp, self._smtp = self._smtp, None
        if smtp is not None and smtp.is_connected:
            try:
                self._loop.run_until_complete(asyncio.wait_for(smtp.quit(), 5))
            except Exception:
                smtp.close()
        self._loop.close()

    # ----------------------------------------------------------------- sending

    async def _send(self, envelope_from: str, to_addr: str, message: bytes) -> None:
        smtp = await self._connection()
        await smtp.sendmail(envelope_from, [to_addr], message)

    def send(self, envelope_from: str, to_addr: str, message: bytes) -> None:
        """Deliver ``message`` to ``to_addr`` with ``envelope_from`` as the
        return path (``""`` sends ``MAIL FROM:<>``). Raises the relay's
        failures as described in the module docstring."""
        if not _ADDR.fullmatch(to_addr):
            raise PermanentFailure(f"recipient {to_addr!r} is not exactly one address")
        if envelope_from and not _ADDR.fullmatch(envelope_from):
            raise PermanentFailure(f"envelope sender {envelope_from!r} is not an address")
        where = f"SMTP {self.settings.host}:{self.settings.port}"
        try:
            self._loop.run_until_complete(self._send(envelope_from, to_addr, message))
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
            self._drop()
            log.error("%s: login refused (%s); check the username and password", where,
                      _reply(exc))  # fmt: skip
            raise ServerUnavailable(f"{where}: AUTH: {_reply(exc)}") from exc
        except aiosmtplib.SMTPSenderRefused as exc:
            log.error("%s: envelope sender <%s> refused (%s)", where, envelope_from, _reply(exc))
            raise TemporaryFailure(f"{where}: MAIL FROM: {_reply(exc)}") from exc
        except aiosmtplib.SMTPResponseException as exc:
            # 421 and friends close the session; anything else here concerns
            # the session (EHLO, STARTTLS), not this recipient.
            self._drop()
            raise ServerUnavailable(f"{where}: {_reply(exc)}") from exc
        except (TimeoutError, aiosmtplib.SMTPException, OSError) as exc:
            self._drop()
            raise ServerUnavailable(f"{where}: {type(exc).__name__}: {exc}") from exc
        except ValueError as exc:  # aiosmtplib refused an address it cannot send safely
            raise PermanentFailure(f"{where}: {exc}") from exc
        finally:
            self._last_used = self.clock()

"""Mail configuration: the config file's schema, secrets, transports, checks.

* :func:`validate` checks a parsed ``judge.toml`` against
  ``schemas/config.schema.json`` and names every wrong key plainly.
* Secrets never sit in the config file or the database: an IMAP or SMTP
  section names an environment variable (``password_env``) or a file
  (``password_file``, relative to the config's folder; environment variables
  such as systemd's ``${CREDENTIALS_DIRECTORY}`` are expanded) that holds
  the password. :func:`secret` reads it when the transport is opened.
* :func:`open_inbound` / :func:`open_outbound` build the transports a config
  names (Maildir, stdout, IMAP, SMTP).
* :func:`server_section` turns ``imaps://user@host`` style URLs into config
  sections and :func:`config_text` writes a whole config file with them
  (``judge init --imap ... --smtp ...``).
* :func:`check_mail` logs in to both servers and says, one line per check,
  what works and what is wrong (``judge check-mail``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import socket
import ssl
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from judge.config import DEFAULT_CONFIG, Config, ConfigError

if TYPE_CHECKING:
    from judge.mail.imap import ImapSettings
    from judge.mail.mailin import InboundTransport
    from judge.mail.mailout import OutboundTransport
    from judge.mail.smtp import SmtpSettings
    from judge.store import Store

__all__ = [
    "Check",
    "MissingSecretInbound",
    "MissingSecretOutbound",
    "StoreCheckpoint",
    "check_mail",
    "check_secrets",
    "config_text",
    "imap_settings",
    "open_inbound",
    "open_outbound",
    "secret",
    "server_section",
    "smtp_settings",
]

log = logging.getLogger("judge.mailconfig")

IMAP_PORTS = {"tls": 993, "starttls": 143, "none": 143}
SMTP_PORTS = {"tls": 465, "starttls": 587, "none": 25}


# --------------------------------------------------------------------------- secrets


def secret(section: dict[str, Any], home: Path, what: str) -> str:
    """The password a section points to (``password_env`` or
    ``password_file``). Raises :class:`ConfigError` saying what is missing."""
    if "password_env" in section:
        name = str(section["password_env"])
        value = os.environ.get(name)
        if value is None or value == "":
            raise ConfigError(
                f"the environment variable {name} is not set: it must hold the {what} password"
            )
        return value
    if "password_file" in section:
        # ${CREDENTIALS_DIRECTORY} and other variables are expanded: systemd
        # hands a service its credentials in such a folder.
        raw = str(section["password_file"])
        expanded = os.path.expandvars(raw)
        if "$" in expanded:
            raise ConfigError(
                f"the {what} password_file {raw!r} names an environment variable that is not set"
            )
        path = Path(expanded)
        if not path.is_absolute():
            path = home / path
        try:
            text = path.read_text(encoding="utf-8")
            mode = path.stat().st_mode
        except OSError as exc:
            raise ConfigError(
                f"cannot read the {what} password file {path}: {exc.strerror or exc}"
            ) from exc
        if mode & 0o077:
            log.warning("%s is readable by others (mode %o): chmod 600 it", path, mode & 0o777)
        value = text.rstrip("\r\n")
        if not value:
            raise ConfigError(f"the {what} password file {path} is empty")
        return value
    raise ConfigError(f"no password_env or password_file for the {what} server")


def database_password(config: Config) -> str | None:
    """The PostgreSQL password ``[judge]`` points to (``password_env`` or
    ``password_file``), or None: the URL (or libpq's own files) carry it."""
    if not config.database_secret:
        return None
    return secret(config.database_secret, config.home, "database")


def _cafile(section: dict[str, Any], home: Path) -> str | None:
    if "cafile" not in section:
        return None
    path = Path(str(section["cafile"]))
    return str(path if path.is_absolute() else home / path)


def imap_settings(section: dict[str, Any], home: Path) -> ImapSettings:
    """Settings for :class:`judge.mail.imap.ImapInbound` from a ``[mail.in]`` section."""
    from judge.mail.imap import ImapSettings

    security = str(section.get("security", "tls"))
    return ImapSettings(
        host=str(section["host"]),
        port=int(section.get("port", IMAP_PORTS[security])),
        username=str(section["username"]),
        password=secret(section, home, "IMAP"),
        security=security,
        folder=str(section.get("folder", "INBOX")),
        processed=str(section.get("processed", "Processed")),
        failed=str(section.get("failed", "Failed")),
        cafile=_cafile(section, home),
        timeout=float(section.get("timeout", 60)),
        idle=bool(section.get("idle", True)),
        idle_seconds=float(section.get("idle_seconds", 25 * 60)),
        use_move=bool(section.get("use_move", True)),
        reconnect_min=float(section.get("reconnect_min", 1)),
        reconnect_max=float(section.get("reconnect_max", 300)),
    )


def smtp_settings(section: dict[str, Any], home: Path) -> SmtpSettings:
    """Settings for :class:`judge.mail.smtp.SmtpOutbound` from a ``[mail.out]`` section."""
    from judge.mail.smtp import SmtpSettings

    security = str(section.get("security", "starttls"))
    username = section.get("username")
    return SmtpSettings(
        host=str(section["host"]),
        port=int(section.get("port", SMTP_PORTS[security])),
        security=security,
        username=str(username) if username else None,
        password=secret(section, home, "SMTP") if username else None,
        cafile=_cafile(section, home),
        timeout=float(section.get("timeout", 60)),
        helo=str(section["helo"]) if "helo" in section else None,
        connections=int(section.get("connections", 3)),
    )


# --------------------------------------------------------------------------- transports


class StoreCheckpoint:
    """The IMAP checkpoint (:class:`judge.mail.imap.Checkpoint`) kept in the judge's database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def load(self, mailbox: str) -> tuple[int, int] | None:
        return self.store.imap_mark(mailbox)

    def save(self, mailbox: str, uidvalidity: int, last_uid: int) -> None:
        self.store.set_imap_mark(mailbox, uidvalidity, last_uid)


class MissingSecretInbound:
    """Stands in for the IMAP transport when its password cannot be read, so
    that commands which send no mail (``judge game list`` run from a shell
    without the service's secrets) still work. Reads nothing; ``judge serve``
    refuses to start with it (:func:`check_secrets`)."""

    name = "imap"

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def fetch(self) -> Iterator[tuple[str, bytes]]:
        log.error("IMAP: %s", self.reason)
        return iter(())

    def done(self, key: str, ok: bool) -> None:
        return None


class MissingSecretOutbound:
    """The SMTP counterpart of :class:`MissingSecretInbound`: mail stays in the outbox."""

    name = "smtp"

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def send(self, envelope_from: str, to_addr: str, message: bytes) -> None:
        from judge.mail.mailout import ServerUnavailable

        raise ServerUnavailable(f"SMTP: {self.reason}")


def check_secrets(config: Config) -> None:
    """Raise :class:`ConfigError` unless every mail password the config
    names can be read now (``judge serve`` checks this before it starts)."""
    if config.mail_in.get("transport") == "imap":
        imap_settings(config.mail_in, config.home)
    if config.mail_out.get("transport") == "smtp":
        smtp_settings(config.mail_out, config.home)


def open_inbound(config: Config, store: Store) -> InboundTransport:
    """The inbound transport ``[mail.in]`` names. An IMAP password that
    cannot be read gives a :class:`MissingSecretInbound`."""
    section = config.mail_in
    if section.get("transport") == "imap":
        from judge.mail.imap import ImapInbound

        try:
            settings = imap_settings(section, config.home)
        except ConfigError as exc:
            return MissingSecretInbound(str(exc))
        return ImapInbound(settings, StoreCheckpoint(store))
    from judge.mail.mailin import MaildirInbound

    path = config.path(str(section.get("path", "mail/in")))
    path.parent.mkdir(parents=True, exist_ok=True)
    return MaildirInbound(path, config.mail_limits())


def open_outbound(config: Config) -> OutboundTransport:
    """The outbound transport ``[mail.out]`` names. An SMTP password that
    cannot be read gives a :class:`MissingSecretOutbound`."""
    section = config.mail_out
    transport = section.get("transport")
    if transport == "smtp":
        from judge.mail.smtp import SmtpOutbound

        try:
            settings = smtp_settings(section, config.home)
        except ConfigError as exc:
            return MissingSecretOutbound(str(exc))
        return SmtpOutbound(settings)
    if transport == "stdout":
        from judge.mail.mailout import StdoutOutbound

        return StdoutOutbound(sys.stdout)
    from judge.mail.mailout import MaildirOutbound

    path = config.path(str(section.get("path", "mail/out")))
    path.parent.mkdir(parents=True, exist_ok=True)
    return MaildirOutbound(path)


def envelope_sender(config: Config, message_id: str) -> str:
    """The return path for one outgoing mail: a VERP address when
    ``[mail.out] verp`` is on (the default for SMTP), else the judge's address."""
    from judge.mail.mailout import verp_address

    section = config.mail_out
    if bool(section.get("verp", section.get("transport") == "smtp")):
        return verp_address(config.address, message_id, str(section.get("verp_delimiter", "+")))
    return config.address


# --------------------------------------------------------------------------- init


_SCHEMES = {
    "imaps": ("imap", "tls"),
    "imap": ("imap", "starttls"),
    "imap+plain": ("imap", "none"),
    "smtps": ("smtp", "tls"),
    "smtp": ("smtp", "starttls"),
    "submission": ("smtp", "starttls"),
    "smtp+plain": ("smtp", "none"),
}


def server_section(url: str, kind: str, password_env: str) -> dict[str, Any]:
    """A ``[mail.in]`` (``kind="imap"``) or ``[mail.out]`` (``"smtp"``)
    section from a URL. Schemes: ``imaps://`` (TLS, 993), ``imap://``
    (STARTTLS, 143), ``imap+plain://`` (no TLS: loopback only); ``smtps://``
    (TLS, 465), ``smtp://`` or ``submission://`` (STARTTLS, 587),
    ``smtp+plain://`` (no TLS). The user name goes before ``@`` (an ``@``
    inside it as ``%40``); a folder may follow the host for IMAP. A password
    in the URL is refused: it goes into the environment variable
    ``password_env``."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in _SCHEMES or _SCHEMES[scheme][0] != kind:
        choices = ", ".join(s + "://" for s, (k, _) in _SCHEMES.items() if k == kind)
        raise ConfigError(f"{url!r} is not an {kind.upper()} URL (use {choices})")
    if parts.password is not None:
        raise ConfigError(
            f"put no password in the {kind.upper()} URL: set it in the environment variable "
            f"{password_env} (or point password_file at a file)"
        )
    if not parts.hostname:
        raise ConfigError(f"{url!r} names no host")
    security = _SCHEMES[scheme][1]
    section: dict[str, Any] = {"transport": kind, "host": parts.hostname}
    default_port = (IMAP_PORTS if kind == "imap" else SMTP_PORTS)[security]
    try:
        port = parts.port
    except ValueError as exc:
        raise ConfigError(f"{url!r}: {exc}") from exc
    section["port"] = port or default_port
    section["security"] = security
    if parts.username:
        section["username"] = unquote(parts.username)
        section["password_env"] = password_env
    elif kind == "imap":
        raise ConfigError(f"{url!r} names no user: write imaps://USER@{parts.hostname}")
    folder = unquote(parts.path.strip("/"))
    if folder:
        if kind != "imap":
            raise ConfigError(f"{url!r}: an SMTP URL takes no path")
        section["folder"] = folder
    return section


def _toml_section(name: str, section: dict[str, Any]) -> str:
    lines = [f"[{name}]"]
    for key, value in section.items():
        lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines) + "\n"


def config_text(
    address: str | None = None,
    mail_in: dict[str, Any] | None = None,
    mail_out: dict[str, Any] | None = None,
) -> str:
    """The default config file with the judge's address and the mail
    sections replaced by those given (the rest as ``judge init`` writes it)."""
    text = DEFAULT_CONFIG
    if address is not None:
        domain = address.rpartition("@")[2]
        text = re.sub(r'(?m)^address = ".*"$', f"address = {json.dumps(address)}", text)
        text = re.sub(r'(?m)^domain = ".*"$', f"domain = {json.dumps(domain)}", text)
    blocks = [
        ("mail.in", mail_in, "# Secrets: password_env names an environment variable, "
         "password_file a file\n# (chmod 600) holding the password; never the password itself.\n"),
        ("mail.out", mail_out, ""),
    ]  # fmt: skip
    for name, section, note in blocks:
        if section is None:
            continue
        pattern = re.compile(rf"(?ms)^\[{re.escape(name)}\]\n.*?(?=^\[|\Z)")
        if not pattern.search(text):
            raise ConfigError(f"the default config has no [{name}] section to replace")
        replacement = note + _toml_section(name, section) + "\n"
        found = pattern.search(text)
        assert found is not None
        text = text[: found.start()] + replacement + text[found.end() :]
    return text


# --------------------------------------------------------------------------- check-mail


@dataclass
class Check:
    ok: bool
    what: str
    detail: str

    def __str__(self) -> str:
        return f"{'ok  ' if self.ok else 'FAIL'} {self.what}: {self.detail}"


def explain(exc: BaseException, host: str, port: int, timeout: float) -> str:
    """A plain sentence for a connection or login failure."""
    text = str(exc).strip() or type(exc).__name__
    if isinstance(exc, socket.gaierror):
        return f"cannot resolve the host name {host!r} ({text})"
    if isinstance(exc, ConnectionRefusedError):
        return f"connection refused by {host}:{port}: is the server running, and is the port right?"
    if isinstance(exc, ssl.SSLCertVerificationError):
        return (f"the TLS certificate of {host} is not trusted ({exc.verify_message}); "
                "if it is self-signed, set cafile to it")  # fmt: skip
    if isinstance(exc, ssl.SSLError):
        if "WRONG_VERSION_NUMBER" in text or "wrong version number" in text:
            return (f"TLS handshake with {host}:{port} failed: this port speaks plain text; use "
                    'security = "starttls", or the TLS port')  # fmt: skip
        return f"TLS failed with {host}:{port}: {text}"
    if isinstance(exc, TimeoutError | socket.timeout):
        return (f"no answer from {host}:{port} within {timeout:.0f} s (a firewall? the wrong "
                "port? TLS on a plain-text port?)")  # fmt: skip
    if isinstance(exc, ConnectionError | EOFError):
        return f"{host}:{port} closed the connection ({text})"
    return f"{type(exc).__name__}: {text}"


def _check_imap(config: Config, timeout: float) -> list[Check]:
    from dataclasses import replace

    from judge.mail.imap import connect, connection_errors, folder_name

    section = config.mail_in
    what = "IMAP"
    try:
        settings = replace(imap_settings(section, config.home), timeout=timeout)
    except ConfigError as exc:
        return [Check(False, what, str(exc))]
    what = f"IMAP {settings.security} {settings.username}@{settings.host}:{settings.port}"
    try:
        client = connect(settings)
    except connection_errors as exc:
        name = type(exc).__name__
        if name == "LoginError":
            source = section.get("password_env") or section.get("password_file")
            return [Check(False, what, f"login refused for {settings.username!r}: check the user "
                          f"name and the password (from {source}); server said: {exc}")]
        if "STARTTLS" in str(exc).upper():
            return [Check(False, what, f"the server does not offer STARTTLS: {exc}")]
        return [Check(False, what, explain(exc, settings.host, settings.port, timeout))]
    checks = [Check(True, what, "connected and logged in")]
    try:
        caps = {c.decode() if isinstance(c, bytes) else str(c) for c in client.capabilities()}
        features = ", ".join(f"{c} {'yes' if c in caps else 'no'}"
                             for c in ("IDLE", "MOVE", "UIDPLUS"))  # fmt: skip
        info = client.select_folder(settings.folder, readonly=True)
        checks.append(Check(True, what, f"folder {settings.folder}: {info[b'EXISTS']} "
                            f"message(s), UIDVALIDITY {info[b'UIDVALIDITY']}; {features}"))
        for name in (settings.processed, settings.failed):
            folder = folder_name(client, name)
            if client.folder_exists(folder):
                checks.append(Check(True, what, f"folder {folder} exists"))
            else:
                client.create_folder(folder)
                checks.append(Check(True, what, f"folder {folder} created"))
        if "MOVE" not in caps and "UIDPLUS" not in caps:
            checks.append(Check(True, what, "no MOVE and no UIDPLUS: handled mail is moved by "
                                "COPY and a plain EXPUNGE, which also removes other messages "
                                "marked deleted in the folder"))
    except connection_errors as exc:
        checks.append(Check(False, what, f"{type(exc).__name__}: {exc}"))
    finally:
        with contextlib.suppress(Exception):
            client.logout()
    return checks


def _check_smtp(config: Config, timeout: float) -> list[Check]:
    import asyncio
    from dataclasses import replace

    import aiosmtplib

    from judge.mail.smtp import open_connection

    section = config.mail_out
    what = "SMTP"
    try:
        settings = replace(smtp_settings(section, config.home), timeout=timeout)
    except ConfigError as exc:
        return [Check(False, what, str(exc))]
    who = f"{settings.username}@" if settings.username else ""
    what = f"SMTP {settings.security} {who}{settings.host}:{settings.port}"
    sender = envelope_sender(config, "<0123456789abcdef0123456789abcdef@check>")

    async def run() -> list[Check]:
        try:
            smtp = await open_connection(settings)
        except aiosmtplib.SMTPAuthenticationError as exc:
            source = section.get("password_env") or section.get("password_file")
            return [Check(False, what, f"login refused for {settings.username!r}: check the user "
                          f"name and the password (from {source}); server said: {exc.code} "
                          f"{exc.message}")]
        except aiosmtplib.SMTPException as exc:
            cause = exc.__cause__ or exc.__context__
            if isinstance(cause, OSError):
                return [Check(False, what, explain(cause, settings.host, settings.port, timeout))]
            return [Check(False, what, f"{type(exc).__name__}: {exc}")]
        except (TimeoutError, OSError) as exc:
            return [Check(False, what, explain(exc, settings.host, settings.port, timeout))]
        checks = [Check(True, what, "connected" + (" and logged in" if settings.username else
                                                   " (no login configured)"))]  # fmt: skip
        try:
            code, _message = await smtp.mail(sender)
            checks.append(Check(True, what, f"envelope sender <{sender}> accepted ({code})"))
            await smtp.rset()
        except aiosmtplib.SMTPResponseException as exc:
            checks.append(Check(False, what, f"envelope sender <{sender}> refused: {exc.code} "
                                f"{exc.message}" + ("; set verp = false in [mail.out]"
                                                    if sender != config.address else "")))
        except (aiosmtplib.SMTPException, OSError) as exc:
            checks.append(Check(False, what, f"{type(exc).__name__}: {exc}"))
        finally:
            try:
                await smtp.quit()
            except Exception:
                smtp.close()
        return checks

    return asyncio.run(run())


def _check_maildir(config: Config) -> list[Check]:
    """A local inbox: mail lying in the folder itself, where nothing reads it."""
    from judge.mail import maildrop

    folder = maildrop.inbox_folder(config.mail_in, config.home)
    strays = maildrop.stray_files(folder) if folder is not None else []
    if folder is None or not strays:
        return []
    return [Check(False, "in", maildrop.stray_notice(folder, strays))]


def check_mail(config: Config, timeout: float = 15.0,
               say: Callable[[Check], None] | None = None) -> list[Check]:
    """Log in to the configured IMAP and SMTP servers (nothing is sent or
    moved; missing Processed/Failed folders are created). Maildir and stdout
    transports are reported as local. Every check is passed to ``say`` as it
    completes."""
    results: list[Check] = []

    def add(items: list[Check]) -> None:
        for item in items:
            results.append(item)
            if say is not None:
                say(item)

    if config.mail_in.get("transport") == "imap":
        add(_check_imap(config, timeout))
    else:
        add([Check(True, "in", f"{config.mail_in.get('transport')} (local, no server)")])
        add(_check_maildir(config))
    if config.mail_out.get("transport") == "smtp":
        add(_check_smtp(config, timeout))
    else:
        add([Check(True, "out", f"{config.mail_out.get('transport')} (local, no server)")])
    return results

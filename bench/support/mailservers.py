"""Real mail servers on loopback for the mail tests and the throughput bench.

:class:`MailServers` starts, in a temporary folder of its own:

* **Dovecot** (Debian's ``dovecot-imapd`` and ``dovecot-lmtpd``) from a config
  file written here: IMAP with STARTTLS on one port, IMAP over TLS on another,
  LMTP on a third, Maildir storage, a passwd-file of test users (the password
  is the user name), subaddressing with ``+`` so ``judge+tag`` lands in
  ``judge``'s INBOX;
* an **SMTP front** (aiosmtpd) that refuses unknown local users at RCPT with
  ``550 5.1.1`` and hands every accepted message to Dovecot over LMTP before
  it answers ``250``, so a send that returned is already in the mailbox. It
  offers STARTTLS and AUTH (any user, password = user name), and a second front
  speaks SMTP over TLS from the first byte. ``busy@localhost`` gets a
  temporary ``451`` at RCPT. Mail to the domain
  :data:`DSN_DOMAIN` is accepted and then bounced: the front writes a delivery
  status report (RFC 3464) shaped like Postfix's and delivers it to the
  envelope sender, as a relay that accepted and later failed would.

Every server can be stopped and started again on the same ports, which is
how the fault tests take them away. Nothing outside the folder is touched;
:meth:`MailServers.close` removes it.

Pitfalls this works around are in the project's notes on mail test servers:
Dovecot will not deliver as uid 0 (mail is stored as ``dovecot`` and the
folder is world-searchable), failed logins are slow unless the auth penalty is
switched off, Dovecot keeps stderr open (its output goes to a file), and
``smtplib.LMTP`` reads one reply after DATA (one recipient per transaction).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import email.parser
import email.policy
import imaplib
import os
import pwd
import shutil
import signal
import smtplib
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any

POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")
"""Mailboxes of the seven classic Diplomacy powers (the throughput bench's seats)."""

USERS = ("judge", "north", "east", "south", "west", "gm", "raw", "other", *POWERS)
"""Mailboxes on the test server; each one's password is its name."""

DOMAIN = "localhost"
"""The mail domain of the test users."""

DSN_DOMAIN = "bounce.test"
"""Mail to this domain is accepted at SMTP time and bounced afterwards."""


BUSY = "busy"
"""``busy@localhost`` is refused at RCPT with a temporary ``451``."""


class ServersUnavailable(Exception):
    """The servers cannot be started here; the message says why and what to install."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(check: Any, timeout: float = 20.0, interval: float = 0.02, what: str = "") -> Any:
    """Poll ``check()`` until it returns a true value (returned) or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what or check}")
        time.sleep(interval)


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def _process_gone(pid: int) -> bool:
    """True once ``pid`` has exited (a zombie counts as exited): ``kill -0``
    is not enough, orphans are reaped late on these machines."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


# --------------------------------------------------------------------------- TLS


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for ``localhost`` and 127.0.0.1 (EC P-256)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
            "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", str(key), "-out", str(cert),
            "-days", "3", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ],
        check=True, capture_output=True, timeout=30,
    )  # fmt: skip
    key.chmod(0o644)  # Dovecot's config process reads it after dropping root
    return cert, key


# --------------------------------------------------------------------------- Dovecot

_DOVECOT_CONF = """\
base_dir = {dir}/run
state_dir = {dir}/state
log_path = {dir}/log/dovecot.log
info_log_path = {dir}/log/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
shutdown_clients = yes
ssl = yes
ssl_cert = <{dir}/tls/cert.pem
ssl_key = <{dir}/tls/key.pem
ssl_dh = </usr/share/dovecot/dh.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_username_format = %Ln
auth_failure_delay = 0
mail_location = maildir:~/Maildir
mail_fsync = never
first_valid_uid = 1
mail_max_userip_connections = 1000
recipient_delimiter = +
lmtp_save_to_detail_mailbox = no
{users_block}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%n {dir}/users
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={dir}/mail/%n
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps_port}
    ssl = yes
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {lmtp_port}
  }}
  unix_listener lmtp {{
    mode = 0600
  }}
}}
service anvil {{
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
"""


@dataclass
class Dovecot:
    dir: Path
    imap_port: int
    imaps_port: int
    lmtp_port: int
    pid: int = 0

    def write_config(self) -> Path:
        for sub in ("run", "state", "log", "mail"):
            (self.dir / sub).mkdir(exist_ok=True)
        users_block = ""
        if os.geteuid() == 0:
            uid, gid = "dovecot", "dovecot"
            try:
                entry = pwd.getpwnam("dovecot")
            except KeyError as exc:
                raise ServersUnavailable("there is no 'dovecot' user: is Dovecot installed?") \
                    from exc
            os.chown(self.dir / "mail", entry.pw_uid, entry.pw_gid)
        else:  # an unprivileged run: every Dovecot process runs as us
            me = pwd.getpwuid(os.geteuid()).pw_name
            uid, gid = str(os.geteuid()), str(os.getegid())
            users_block = (
                f"default_internal_user = {me}\ndefault_login_user = {me}\n"
                f"default_internal_group = {pwd.getpwuid(os.geteuid()).pw_gid}\n"
            )
        (self.dir / "users").write_text("".join(f"{u}:{{PLAIN}}{u}::::::\n" for u in USERS))
        conf = self.dir / "dovecot.conf"
        conf.write_text(
            _DOVECOT_CONF.format(
                dir=self.dir, uid=uid, gid=gid, users_block=users_block,
                imap_port=self.imap_port, imaps_port=self.imaps_port, lmtp_port=self.lmtp_port,
            )
        )  # fmt: skip
        return conf

    def start(self) -> None:
        binary = shutil.which("dovecot") or "/usr/sbin/dovecot"
        if not Path(binary).exists():
            raise ServersUnavailable("dovecot is not installed")
        conf = self.dir / "dovecot.conf"
        with open(self.dir / "log" / "start.out", "ab") as out:
            # Dovecot keeps stderr open after it daemonises: never a pipe here.
            result = subprocess.run(
                [binary, "-c", str(conf)], stdout=out, stderr=out, stdin=subprocess.DEVNULL,
                timeout=30, check=False,
            )  # fmt: skip
        if result.returncode != 0:
            raise ServersUnavailable(
                f"dovecot did not start (exit {result.returncode}): "
                + (self.dir / "log" / "start.out").read_text()[-800:]
            )
        pidfile = self.dir / "run" / "master.pid"
        wait_for(pidfile.exists, 10, what="Dovecot's master.pid")
        self.pid = int(pidfile.read_text().split()[0])
        for port in (self.imap_port, self.imaps_port, self.lmtp_port):
            wait_for(lambda p=port: _port_open(p), 10, what=f"Dovecot on port {port}")

    def stop(self) -> None:
        """Stop the whole server, as a service manager restarting it does:
        the master and every process it started (an IMAP session process
        outlives its master otherwise, and keeps its client connected)."""
        if not self.pid:
            return
        children = _children(self.pid)
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGTERM)
        wait_for(lambda: _process_gone(self.pid), 20, what="Dovecot to stop")
        for child in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)
        for child in children:
            wait_for(lambda c=child: _process_gone(c), 20, what=f"Dovecot process {child}")
        self.pid = 0
        wait_for(lambda: not _port_open(self.imap_port), 10, what="IMAP port to close")

    def maildir(self, user: str) -> Path:
        return self.dir / "mail" / user / "Maildir"


# --------------------------------------------------------------------------- SMTP front


def _lmtp_reply(exc: Exception) -> str:
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        code, msg = next(iter(exc.recipients.values()))
        return f"{code} {msg.decode(errors='replace') if isinstance(msg, bytes) else msg}"
    if isinstance(exc, smtplib.SMTPResponseException):
        error = exc.smtp_error
        text = error.decode(errors="replace") if isinstance(error, bytes) else str(error)
        return f"{exc.smtp_code} {text}"
    return f"451 4.3.0 local delivery failed: {type(exc).__name__}"


class LmtpFront:
    """aiosmtpd handler: check the recipient, deliver over LMTP, then answer."""

    def __init__(self, servers: MailServers) -> None:
        self.servers = servers
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=4)
        self.local = threading.local()
        self.received = 0

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]
    ) -> str:
        local, _, domain = address.lower().rpartition("@")
        user = local.split("+", 1)[0]
        if domain == DSN_DOMAIN:
            envelope.rcpt_tos.append(address)
            return "250 2.1.5 OK"
        if user == BUSY and domain == DOMAIN:
            return "451 4.3.2 <busy@localhost>: mailbox busy, try again later"
        if domain != DOMAIN or user not in USERS:
            return f"550 5.1.1 <{address}>: Recipient address rejected: User unknown"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        loop = asyncio.get_running_loop()
        content = envelope.original_content or envelope.content
        for rcpt in envelope.rcpt_tos:
            if rcpt.lower().endswith("@" + DSN_DOMAIN):
                if not envelope.mail_from:
                    continue  # never bounce a bounce
                dsn = self.servers.dsn_for(envelope.mail_from, rcpt, content)
                reply = await loop.run_in_executor(self.pool, self._deliver, "", envelope.mail_from,
                                                   dsn)  # fmt: skip
            else:
                reply = await loop.run_in_executor(
                    self.pool, self._deliver, envelope.mail_from, rcpt, content
                )
            if reply:
                return reply
        self.received += 1
        return "250 2.0.0 OK: delivered"

    def _deliver(self, mail_from: str, rcpt: str, content: bytes) -> str:
        """One LMTP transaction (one recipient); ``""`` on success, else the
        reply to give the SMTP client. A broken connection is retried once."""
        for attempt in range(2):
            lmtp = getattr(self.local, "lmtp", None)
            try:
                if lmtp is None:
                    lmtp = smtplib.LMTP("127.0.0.1", self.servers.dovecot.lmtp_port, timeout=30)
                    lmtp.ehlo("front.localhost")
                    self.local.lmtp = lmtp
                lmtp.sendmail(mail_from, [rcpt], content)
                return ""
            except (smtplib.SMTPServerDisconnected, OSError) as exc:
                self.local.lmtp = None
                if attempt:
                    return _lmtp_reply(exc)
            except smtplib.SMTPException as exc:
                try:
                    # None if connecting failed: that AttributeError is caught as a failed reset
                    lmtp.rset()  # type: ignore[union-attr]
                except Exception:
                    self.local.lmtp = None
                return _lmtp_reply(exc)
        return "451 4.3.0 local delivery failed"


class _Authenticator:
    """Accepts any test user whose password is its name."""

    def __call__(self, server: Any, session: Any, envelope: Any, mechanism: str,
                 auth_data: Any) -> Any:
        from aiosmtpd.smtp import AuthResult, LoginPassword

        if isinstance(auth_data, LoginPassword):
            user = auth_data.login.decode()
            ok = user in USERS and auth_data.password.decode() == user
            return AuthResult(success=ok, handled=False)
        return AuthResult(success=False, handled=False)


@dataclass
class SmtpFront:
    servers: MailServers
    port: int
    implicit_tls: bool = False
    controller: Any = None

    def start(self) -> None:
        from aiosmtpd.controller import Controller

        server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        server_ctx.load_cert_chain(self.servers.cert, self.servers.key)
        kwargs: dict[str, Any] = {
            "hostname": "127.0.0.1",
            "port": self.port,
            "server_hostname": "localhost",
            "authenticator": _Authenticator(),
            "auth_require_tls": False,
            "decode_data": False,
            "data_size_limit": 40_000_000,
        }
        if self.implicit_tls:
            kwargs["ssl_context"] = server_ctx
        else:
            kwargs["tls_context"] = server_ctx
        self.controller = Controller(self.servers.front, **kwargs)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None
            wait_for(lambda: not _port_open(self.port), 10, what="SMTP port to close")


# --------------------------------------------------------------------------- the set


@dataclass
class MailServers:
    """Dovecot plus the SMTP fronts, in one temporary folder."""

    dir: Path
    dovecot: Dovecot = field(init=False)
    smtp: SmtpFront = field(init=False)
    smtps: SmtpFront = field(init=False)
    cert: Path = field(init=False)
    key: Path = field(init=False)
    front: LmtpFront = field(init=False)

    @classmethod
    def start(cls) -> MailServers:
        """Start everything; raises :class:`ServersUnavailable` with the reason."""
        if shutil.which("dovecot") is None and not Path("/usr/sbin/dovecot").exists():
            raise ServersUnavailable("dovecot is not installed")
        if not Path("/usr/lib/dovecot/lmtp").exists():
            raise ServersUnavailable("Dovecot's LMTP server (dovecot-lmtpd) is not installed")
        try:
            import aiosmtpd  # noqa: F401
        except ImportError as exc:
            raise ServersUnavailable("the Python package aiosmtpd is not installed") from exc
        # Dovecot delivers as the dovecot user: every parent folder must be
        # searchable by it, which pytest's tmp_path (0700) is not.
        folder = Path(tempfile.mkdtemp(prefix="judge-mail-"))
        folder.chmod(0o755)
        servers = cls(folder)
        try:
            (folder / "tls").mkdir()
            servers.cert, servers.key = make_certificate(folder / "tls")
            servers.dovecot = Dovecot(folder, free_port(), free_port(), free_port())
            servers.dovecot.write_config()
            servers.front = LmtpFront(servers)
            servers.smtp = SmtpFront(servers, free_port())
            servers.smtps = SmtpFront(servers, free_port(), implicit_tls=True)
            servers.dovecot.start()
            servers.smtp.start()
            servers.smtps.start()
        except ServersUnavailable:
            servers.close()
            raise
        except Exception as exc:
            log = folder / "log" / "dovecot.log"
            detail = log.read_text()[-800:] if log.exists() else ""
            servers.close()
            raise ServersUnavailable(f"{type(exc).__name__}: {exc} {detail}") from exc
        return servers

    def close(self) -> None:
        for name in ("smtp", "smtps"):
            front = getattr(self, name, None)
            if front is not None:
                with contextlib.suppress(Exception):
                    front.stop()
        dovecot = getattr(self, "dovecot", None)
        if dovecot is not None:
            with contextlib.suppress(Exception):
                dovecot.stop()
        front_handler = getattr(self, "front", None)
        if front_handler is not None:
            front_handler.pool.shutdown(wait=False)
        shutil.rmtree(self.dir, ignore_errors=True)

    # ----------------------------------------------------------------- clients

    def client_context(self) -> ssl.SSLContext:
        """A client TLS context that trusts the test certificate."""
        return ssl.create_default_context(cafile=str(self.cert))

    def send(self, mail_from: str, rcpt: str | Iterable[str], raw: bytes,
             connection: smtplib.SMTP | None = None) -> None:
        """Submit one message over SMTP (plain, on loopback)."""
        rcpts = [rcpt] if isinstance(rcpt, str) else list(rcpt)
        # smtplib sends bytes as they are: give it CRLF line ends (RFC 5321 2.3.8).
        raw = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        if connection is not None:
            connection.sendmail(mail_from, rcpts, raw)
            return
        with smtplib.SMTP("127.0.0.1", self.smtp.port, timeout=30) as smtp:
            smtp.sendmail(mail_from, rcpts, raw)

    def imap(self, user: str) -> imaplib.IMAP4:
        conn = imaplib.IMAP4("127.0.0.1", self.dovecot.imap_port, timeout=30)
        conn.login(user, user)
        return conn

    def messages(self, user: str, folder: str = "INBOX") -> list[bytes]:
        """Every message in ``user``'s ``folder``, by UID order (empty if the
        folder does not exist)."""
        conn = self.imap(user)
        try:
            typ, _ = conn.select(f'"{folder}"', readonly=True)
            if typ != "OK":
                return []
            typ, data = conn.uid("SEARCH", "ALL")
            uids = data[0].split() if data and data[0] else []
            if not uids:
                return []
            typ, fetched = conn.uid("FETCH", b",".join(uids).decode(), "(BODY.PEEK[])")
            return [part[1] for part in fetched if isinstance(part, tuple)]
        finally:
            with contextlib.suppress(Exception):
                conn.logout()

    def delivered(self, *users: str) -> Counter[str]:
        """How many copies of each Message-ID lie in the mailboxes of
        ``users`` (default: every user), every folder, read from Dovecot's
        Maildir files on disk (each delivery is one file)."""
        copies: Counter[str] = Counter()
        parser = email.parser.BytesHeaderParser(policy=email.policy.default)
        for user in users or USERS:
            top = self.dovecot.maildir(user)
            folders = [top, *(f for f in top.glob(".*") if f.is_dir())] if top.is_dir() else []
            for folder in folders:
                for sub in ("new", "cur"):
                    for path in (folder / sub).glob("*") if (folder / sub).is_dir() else ():
                        try:
                            head = parser.parsebytes(path.read_bytes())
                        except FileNotFoundError:  # moved meanwhile
                            continue
                        copies[str(head["Message-ID"] or "").strip()] += 1
        return copies

    def count(self, user: str, folder: str = "INBOX") -> int:
        conn = self.imap(user)
        try:
            typ, data = conn.status(f'"{folder}"', "(MESSAGES)")
            if typ != "OK":
                return 0
            text = data[0].decode() if isinstance(data[0], bytes) else str(data[0])
            return int(text.rsplit("MESSAGES", 1)[1].strip(" )"))
        finally:
            with contextlib.suppress(Exception):
                conn.logout()

    def empty(self, *users: str) -> None:
        """Delete every message in every folder of ``users`` (between tests)."""
        for user in users or USERS:
            conn = self.imap(user)
            try:
                typ, listing = conn.list()
                names = []
                for line in listing or []:
                    text = line.decode() if isinstance(line, bytes) else str(line)
                    names.append(text.rsplit(' "', 1)[-1].rstrip('"') if text.endswith('"')
                                 else text.rsplit(" ", 1)[-1])  # fmt: skip
                for name in names:
                    typ, data = conn.select(f'"{name}"')
                    if typ != "OK":
                        continue
                    if int(data[0] or 0):
                        conn.store("1:*", "+FLAGS.SILENT", r"(\Deleted)")
                        conn.expunge()
                    if name != "INBOX":
                        conn.close()
                        conn.delete(f'"{name}"')
            finally:
                with contextlib.suppress(Exception):
                    conn.logout()

    # ----------------------------------------------------------------- faults

    def restart_dovecot(self) -> None:
        self.dovecot.stop()
        self.dovecot.start()

    def change_uidvalidity(self, user: str) -> None:
        """Give ``user``'s INBOX a new UIDVALIDITY, as a server restored from
        a backup or a rebuilt index does: Dovecot is stopped, the Maildir's
        UID list is rewritten with a new validity and renumbered UIDs, and its
        indexes are removed; the messages themselves stay."""
        self.dovecot.stop()
        maildir = self.dovecot.maildir(user)
        uidlist = maildir / "dovecot-uidlist"
        lines = uidlist.read_text().splitlines()
        head = lines[0].split()
        fields = {h[0]: h[1:] for h in head[1:]}
        old = int(fields["V"])
        fields["V"] = str(old + 1000)
        entries = []
        next_uid = 1001  # new UIDs, none equal to an old one
        for line in lines[1:]:
            _uid, rest = line.split(" ", 1)
            entries.append(f"{next_uid} {rest}")
            next_uid += 1
        fields["N"] = str(next_uid)
        fields.pop("G", None)  # the GUID names the old mailbox
        uidlist.write_text(
            " ".join([head[0], *(k + v for k, v in fields.items())]) + "\n"
            + "".join(e + "\n" for e in entries)
        )
        for index in maildir.glob("dovecot.index*"):
            index.unlink()
        self.dovecot.start()

    def dsn_for(self, envelope_sender: str, recipient: str, original: bytes) -> bytes:
        """A delivery status report (RFC 3464) for ``recipient``, returning
        the headers of ``original``, addressed to ``envelope_sender``; the
        shape of Postfix's."""
        head, _, _ = original.replace(b"\r\n", b"\n").partition(b"\n\n")
        boundary = "dsn-" + make_msgid().strip("<>").replace("@", ".")
        diagnostic = (f"550 5.1.1 <{recipient}>: Recipient address rejected: User unknown in "
                      "virtual mailbox table")  # fmt: skip
        text = (
            f"From: MAILER-DAEMON@{DOMAIN} (Mail Delivery System)\n"
            f"To: {envelope_sender}\n"
            "Subject: Undelivered Mail Returned to Sender\n"
            f"Date: {formatdate()}\n"
            f"Message-ID: {make_msgid(domain=DOMAIN)}\n"
            "Auto-Submitted: auto-replied\n"
            "MIME-Version: 1.0\n"
            "Content-Type: multipart/report; report-type=delivery-status;\n"
            f'\tboundary="{boundary}"\n\n'
            "This is a MIME-encapsulated message.\n\n"
            f"--{boundary}\n"
            "Content-Description: Notification\n"
            "Content-Type: text/plain; charset=us-ascii\n\n"
            f"This is the mail system at host {DOMAIN}.\n\n"
            "I'm sorry to have to inform you that your message could not\n"
            "be delivered to one or more recipients.\n\n"
            f"<{recipient}>: host mx.{DSN_DOMAIN} said: {diagnostic}\n\n"
            f"--{boundary}\n"
            "Content-Description: Delivery report\n"
            "Content-Type: message/delivery-status\n\n"
            f"Reporting-MTA: dns; {DOMAIN}\n"
            f"Arrival-Date: {formatdate()}\n\n"
            f"Final-Recipient: rfc822; {recipient}\n"
            f"Original-Recipient: rfc822;{recipient}\n"
            "Action: failed\n"
            "Status: 5.1.1\n"
            f"Remote-MTA: dns; mx.{DSN_DOMAIN}\n"
            f"Diagnostic-Code: smtp; {diagnostic}\n\n"
            f"--{boundary}\n"
            "Content-Description: Undelivered Message Headers\n"
            "Content-Type: text/rfc822-headers\n\n"
        )
        return text.encode() + head + f"\n\n--{boundary}--\n".encode()

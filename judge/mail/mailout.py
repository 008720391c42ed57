"""Mail out: composing the judge's mail, and the outbound transports.

:func:`compose` is pure: it turns an :class:`OutgoingMail` (fixed when it is
queued in the outbox, Message-ID and Date included) into the bytes of a MIME
message, the same bytes every time, so a retry after a crash sends the very
message that was queued.

Header choices, and why:

* ``To`` holds exactly one address, the seat's registered one; there is never
  a ``Cc`` or ``Bcc`` (DESIGN: a private mail goes to one seat only), and
  :attr:`OutgoingMail.extra_headers` may not add address headers.
* ``Auto-Submitted`` (RFC 3834 section 5): ``auto-replied`` on answers to a
  player's mail, ``auto-generated`` on reports and reminders. Well-behaved
  responders never answer either.
* ``X-Auto-Response-Suppress: OOF, AutoReply``: the Microsoft Exchange
  equivalent, which Exchange honours where it ignores Auto-Submitted. It does
  not suppress non-delivery reports, which the judge wants to see.
* No ``Precedence: bulk``: it is not a standard (RFC 2076 calls it
  discouraged), RFC 3834 made Auto-Submitted its replacement, and large mail
  providers file "bulk" private mail with newsletters. The inbound side
  drops auto-replies anyway, so a loop breaks at the judge.
* Message-ID, In-Reply-To and References are written as they are (never
  RFC 2047 encoded, one id per folded line), see :func:`thread`.
* The text part is UTF-8, 7bit when it is ASCII with lines of at most 78
  characters, else quoted-printable, so no line exceeds 998 octets (RFC 5322
  section 2.1.1) and order lines stay readable in the raw source.
* Date is written only when the caller gives it (pure code reads no clock;
  the relay stamps it when it queues the mail).
* With :attr:`OutgoingMail.html` the text goes with an HTML alternative made
  from it (:mod:`judge.mail.mailhtml`), in the structure clients write for a
  mail with inline pictures: ``multipart/mixed`` (only when something is
  attached) holding ``multipart/related`` (only when a picture is shown)
  holding ``multipart/alternative`` (text/plain, then text/html) and the
  pictures, then the attachments. A reader that shows only text still gets
  the pictures (they are parts of the related entity, below the text).
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from email import quoprimime
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import encode_rfc2231, getaddresses, parseaddr
from mailbox import Maildir
from pathlib import Path
from typing import Protocol, TextIO, runtime_checkable

from judge.mail import mailhtml

__all__ = [
    "AUTO_GENERATED",
    "AUTO_REPLIED",
    "Attachment",
    "MaildirOutbound",
    "OutboundTransport",
    "OutgoingMail",
    "PermanentFailure",
    "ServerUnavailable",
    "StdoutOutbound",
    "TemporaryFailure",
    "check",
    "compose",
    "make_message_id",
    "thread",
    "verp_address",
    "verp_token",
]

AUTO_REPLIED = "auto-replied"
"""Auto-Submitted value for answers to a player's mail (RFC 3834 section 5)."""
AUTO_GENERATED = "auto-generated"
"""Auto-Submitted value for reports, reminders and other unprompted mail."""


@dataclass(frozen=True)
class Attachment:
    """A file sent with a mail."""

    filename: str
    content_type: str
    """``maintype/subtype``, e.g. ``application/json``."""
    data: bytes


@dataclass(frozen=True)
class OutgoingMail:
    """One mail, fixed when it is queued. ``compose`` turns it into bytes."""

    message_id: str
    """``<...>``, fixed when queued (:func:`make_message_id`)."""
    from_addr: str
    """The judge's address (a display name is allowed: ``Judge <judge@example.org>``)."""
    to_addr: str
    """Exactly one registered address."""
    subject: str
    body: str
    """Plain text."""
    auto_submitted: str
    """:data:`AUTO_REPLIED` (replies) or :data:`AUTO_GENERATED` (reports)."""
    in_reply_to: str = ""
    references: tuple[str, ...] = ()
    attachments: tuple[Attachment, ...] = ()
    return_path: str = ""
    """Envelope sender; ``""`` means ``from_addr``."""
    date: str = ""
    """RFC 5322 date, passed by the caller; ``""`` writes no Date header."""
    extra_headers: tuple[tuple[str, str], ...] = ()
    html: bool = False
    """Also write an HTML alternative of ``body`` (:func:`judge.mail.mailhtml.render`):
    the mail is then multipart/alternative, text/plain first (the canonical
    part, unchanged) and text/html, with its PNG, JPEG and GIF attachments
    shown inline in the HTML (multipart/related, Content-ID) rather than
    attached; other attachments stay attached (multipart/mixed)."""

    @property
    def envelope_from(self) -> str:
        """The envelope sender the transport should use."""
        return self.return_path or parseaddr(self.from_addr)[1]


# --------------------------------------------------------------------------- ids

_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_DOT_ATOM = re.compile(rf"{_ATEXT}(\.{_ATEXT})*")
_DOMAIN = re.compile(
    r"[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*"
)
_MSG_ID = re.compile(r"<[\x21-\x3b\x3d\x3f-\x7e]{1,250}@[\x21-\x3b\x3d\x3f-\x7e]{1,250}>")
_ADDR = re.compile(r"[^@\s<>(),;:\"\[\]\\]+@[^@\s<>(),;:\"\[\]\\]+")
_HEADER_NAME = re.compile(r"[\x21-\x39\x3b-\x7e]+")
_MAX_REFERENCES = 20

_FORBIDDEN_EXTRA = frozenset(
    {
        "from", "sender", "to", "cc", "bcc", "subject", "date", "message-id", "in-reply-to",
        "references", "auto-submitted", "mime-version", "return-path",
        "content-type", "content-transfer-encoding", "content-disposition",
    }
)  # fmt: skip


def make_message_id(domain: str, token: str | None = None) -> str:
    """``<token@domain>``. Without ``token``, 128 random bits (from
    :mod:`secrets`) in hex. ``token`` must be a dot-atom (letters, digits,
    ``.`` and ``!#$%&'*+/=?^_`{|}~-``) so the id is valid RFC 5322."""
    if token is None:
        token = secrets.token_hex(16)
    if not _DOT_ATOM.fullmatch(token) or len(token) > 200:
        raise ValueError(f"message-id token {token!r} is not a short dot-atom")
    if not _DOMAIN.fullmatch(domain) or len(domain) > 200:
        raise ValueError(f"message-id domain {domain!r} is not a domain name")
    return f"<{token}@{domain}>"


def thread(message_id: str, references: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    """``(In-Reply-To, References)`` for a reply to the mail with
    ``message_id`` and ``references`` (RFC 5322 section 3.6.4): References is
    the parent's References (or its In-Reply-To, the caller's choice) plus the
    parent's id. Malformed ids are left out, repeats removed, and a long chain
    is cut to the first id and the last 19."""
    chain: list[str] = []
    for ref in (*references, message_id):
        if _MSG_ID.fullmatch(ref) and ref not in chain:
            chain.append(ref)
    if len(chain) > _MAX_REFERENCES:
        chain = chain[:1] + chain[-(_MAX_REFERENCES - 1) :]
    parent = message_id if _MSG_ID.fullmatch(message_id) else ""
    return parent, tuple(chain)


# --------------------------------------------------------------------------- VERP

VERP_TAG = "bounce-"
"""Starts the detail part of a VERP return path."""


def verp_address(sender: str, message_id: str, delimiter: str = "+") -> str:
    """The envelope sender for one outgoing mail (variable envelope return
    path): ``local+bounce-<token>@domain`` for ``sender`` ``local@domain``,
    where ``<token>`` is the left part of ``message_id`` (the hex of
    :func:`make_message_id`), so a delivery report sent back to it names the
    mail that bounced. Mail to ``local+anything`` must reach ``local``'s
    mailbox (subaddressing: Dovecot, Postfix, Gmail and Fastmail do it with
    ``+``). A sender or id that does not fit returns ``sender`` unchanged."""
    addr = parseaddr(sender)[1]
    local, at, domain = addr.rpartition("@")
    token = message_id.strip("<>").split("@", 1)[0]
    if not at or not local or not _DOT_ATOM.fullmatch(token) or "." in token:
        return addr
    if len(local) + len(delimiter) + len(VERP_TAG) + len(token) > 64:  # RFC 5321 4.5.3.1.1
        return addr
    return f"{local}{delimiter}{VERP_TAG}{token}@{domain}"


def verp_token(address: str, sender: str, delimiter: str = "+") -> str | None:
    """The token :func:`verp_address` put into ``address`` for ``sender``, or
    None when ``address`` is not one of ``sender``'s VERP addresses."""
    local, at, domain = parseaddr(sender)[1].lower().rpartition("@")
    got_local, got_at, got_domain = address.strip().strip("<>").lower().rpartition("@")
    prefix = f"{local}{delimiter}{VERP_TAG}"
    if not at or not got_at or got_domain != domain or not got_local.startswith(prefix):
        return None
    token = got_local[len(prefix) :]
    return token if token and _DOT_ATOM.fullmatch(token) else None


# --------------------------------------------------------------------------- compose

_POLICY = SMTP.clone(refold_source="none")


def _single_address(value: str, what: str) -> str:
    pairs = getaddresses([value])
    if len(pairs) != 1 or not _ADDR.fullmatch(pairs[0][1]):
        raise ValueError(f"{what} must be exactly one address, not {value!r}")
    return pairs[0][1]


def _no_newlines(name: str, value: str) -> None:
    if "\r" in value or "\n" in value:
        raise ValueError(f"header {name} may not contain a line break")


def _text_cte(body: str) -> str:
    if body.isascii() and all(len(line) <= 78 for line in body.split("\n")):
        return "7bit"
    return "quoted-printable"


def check(mail: OutgoingMail) -> None:
    """Raise ValueError where :func:`compose` would refuse ``mail`` (see
    there), without composing it: what a transaction that queues a mail
    checks, so that a mail that could never be composed is refused with
    the transaction, not found out after its commit."""
    _single_address(mail.to_addr, "To")
    _single_address(mail.from_addr, "From")
    if not _MSG_ID.fullmatch(mail.message_id):
        raise ValueError(f"malformed Message-ID {mail.message_id!r}")
    if mail.auto_submitted not in {AUTO_REPLIED, AUTO_GENERATED}:
        raise ValueError(f"Auto-Submitted must be auto-replied or auto-generated, not "
                         f"{mail.auto_submitted!r}")  # fmt: skip
    for name, value in (("From", mail.from_addr), ("To", mail.to_addr), ("Date", mail.date)):
        _no_newlines(name, value)
    for name, value in mail.extra_headers:
        if not _HEADER_NAME.fullmatch(name) or name.lower() in _FORBIDDEN_EXTRA:
            raise ValueError(f"extra header {name!r} is not allowed")
        if name.lower().startswith(("resent-", "content-")):
            raise ValueError(f"extra header {name!r} is not allowed")
        _no_newlines(name, value)
    for att in mail.attachments:
        check_type(att.content_type)


def check_type(content_type: str) -> None:
    """Raise ValueError unless ``content_type`` is ``maintype/subtype``."""
    maintype, sep, subtype = content_type.partition("/")
    if not sep or not _HEADER_NAME.fullmatch(maintype) or not _HEADER_NAME.fullmatch(subtype):
        raise ValueError(f"attachment type {content_type!r} is not maintype/subtype")


def compose(mail: OutgoingMail) -> bytes:
    """The MIME message for ``mail`` (CRLF line ends, policy SMTP).

    Raises ValueError on what must never be sent: a ``To`` that is not
    exactly one address, a malformed Message-ID, an Auto-Submitted other than
    ``auto-replied``/``auto-generated``, a line break in a header value, an
    extra header that would add recipients or override one of ours, an
    attachment type that is not ``maintype/subtype``. A malformed id in
    ``in_reply_to``/``references`` (they come from strangers' mail) is left
    out instead (:func:`check` says what raises).
    """
    check(mail)
    simple = _compose_plain(mail)
    if simple is not None:
        return simple
    return _compose_general(mail)


def _compose_general(mail: OutgoingMail) -> bytes:
    """:func:`compose` through the email library (the checks done)."""
    msg = EmailMessage(policy=_POLICY)
    msg["From"] = mail.from_addr
    msg["To"] = mail.to_addr
    subject = " ".join(mail.subject.split())
    if _plain_header(subject):
        msg.set_raw("Subject", _fold("Subject", subject))
    else:
        msg["Subject"] = subject
    if mail.date:
        msg["Date"] = mail.date
    msg.set_raw("Message-ID", mail.message_id)
    if _MSG_ID.fullmatch(mail.in_reply_to):
        msg.set_raw("In-Reply-To", mail.in_reply_to)
    refs = [r for r in mail.references if _MSG_ID.fullmatch(r)]
    if refs:
        msg.set_raw("References", "\r\n ".join(refs))
    msg["Auto-Submitted"] = mail.auto_submitted
    msg["X-Auto-Response-Suppress"] = "OOF, AutoReply"
    for name, value in mail.extra_headers:  # (checked: :func:`check`)
        msg[name] = value

    body = _normal_body(mail.body)
    if mail.html:
        head = msg.as_bytes().split(b"\r\n\r\n", 1)[0] + b"\r\nMIME-Version: 1.0\r\n"
        return head + _html_entity(mail, body).encode("ascii")
    msg.set_content(body, subtype="plain", charset="utf-8", cte=_text_cte(body))
    for att in mail.attachments:
        maintype, _, subtype = att.content_type.partition("/")
        msg.add_attachment(att.data, maintype=maintype, subtype=subtype, filename=att.filename)
    if msg.is_multipart():
        # A boundary derived from the content instead of a random one, so the
        # same mail always gives the same bytes.
        msg.set_boundary(_boundary(mail))
    return msg.as_bytes()


def _fold(name: str, value: str, width: int = 78) -> str:
    """A plain ASCII header value folded at spaces (RFC 5322 2.2.3), never
    right after the field name, so that it reads back without a leading space."""
    lines: list[str] = []
    line = ""
    used = len(name) + 2
    for word in value.split(" "):
        if line and used + len(line) + 1 + len(word) > width:
            lines.append(line)
            line, used = word, 1
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\r\n ".join(lines)


def _boundary(mail: OutgoingMail) -> str:
    """The MIME boundary of a mail with attachments, derived from its
    content (so the same mail always gives the same bytes): a digest of
    every field, the attachments' bytes hashed as they are (not through
    ``repr``, which costs more than the rest of composing a report)."""
    h = hashlib.sha256()
    for field in (mail.message_id, mail.from_addr, mail.to_addr, mail.subject, mail.body,
                  mail.auto_submitted, mail.in_reply_to, mail.return_path, mail.date,
                  *mail.references, *(f"{k}: {v}" for k, v in mail.extra_headers)):
        h.update(field.encode("utf-8", "surrogatepass") + b"\0")
    if mail.html:
        h.update(b"html\0")
    for att in mail.attachments:
        h.update(f"{att.filename}\0{att.content_type}\0{len(att.data)}\0".encode())
        h.update(att.data)
    return f"=_judge_{h.hexdigest()[:32]}"


def _plain_header(value: str) -> bool:
    return value.isascii() and value.isprintable()


def _compose_plain(mail: OutgoingMail) -> bytes | None:
    """The common case written directly: one text part, no attachments, every
    header short printable ASCII. Gives what the general path gives for such
    a mail (same headers, same body encoding) in a tenth of the time; the mail
    tests run every composed message back through the reader. ``None`` for
    anything else, which takes the general path."""
    subject = " ".join(mail.subject.split())
    if mail.extra_headers or not all(_plain_attachment(a) for a in mail.attachments):
        return None
    fields = [("From", mail.from_addr), ("To", mail.to_addr), ("Subject", subject)]
    if mail.date:
        fields.append(("Date", mail.date))
    if not all(_plain_header(v) and len(k) + 2 + len(v) <= 78 for k, v in fields):
        return None
    fields.append(("Message-ID", mail.message_id))
    if _MSG_ID.fullmatch(mail.in_reply_to):
        fields.append(("In-Reply-To", mail.in_reply_to))
    refs = [r for r in mail.references if _MSG_ID.fullmatch(r)]
    if refs:
        fields.append(("References", "\r\n ".join(refs)))
    fields += [
        ("Auto-Submitted", mail.auto_submitted),
        ("X-Auto-Response-Suppress", "OOF, AutoReply"),
        ("MIME-Version", "1.0"),
    ]
    body = _normal_body(mail.body)
    head = "".join(f"{k}: {v}\r\n" for k, v in fields)
    if mail.html:
        return (head + _html_entity(mail, body)).encode("ascii")
    text_head, payload = _text_part(body, "plain")
    if not mail.attachments:
        return (head + text_head + "\r\n" + payload).encode("latin-1")
    # multipart/mixed as EmailMessage.add_attachment makes it, with the
    # boundary the general path derives from the content.
    boundary = _boundary(mail)
    parts = [head, f'Content-Type: multipart/mixed;\r\n boundary="{boundary}"\r\n\r\n',
             f"--{boundary}\r\n", text_head, "\r\n", payload]
    for att in mail.attachments:
        data = _base64_lines(att.data)
        parts += [f"\r\n--{boundary}\r\n", f"Content-Type: {att.content_type}\r\n",
                  "Content-Transfer-Encoding: base64\r\n",
                  f'Content-Disposition: attachment; filename="{att.filename}"\r\n',
                  "MIME-Version: 1.0\r\n\r\n", data]
    parts.append(f"\r\n--{boundary}--\r\n")
    return "".join(parts).encode("latin-1")


def _normal_body(text: str) -> str:
    """``text`` with LF line ends, ending with one."""
    body = text.replace("\r\n", "\n").replace("\r", "\n")
    return body if body.endswith("\n") else body + "\n"


def _text_part(body: str, subtype: str) -> tuple[str, str]:
    """The part headers (without the blank line) and the encoded payload
    (CRLF line ends, ending with one) of the text ``body``: UTF-8, 7bit
    when it can be, else quoted-printable in lines of 76 (RFC 2045 6.7)."""
    cte = _text_cte(body)
    head = (f'Content-Type: text/{subtype}; charset="utf-8"\r\n'
            f"Content-Transfer-Encoding: {cte}\r\n")
    if cte == "7bit":
        return head, body.replace("\n", "\r\n")
    payload = quoprimime.body_encode(body.encode("utf-8").decode("latin-1"), maxlinelen=76,
                                     eol="\r\n")
    return head, payload if payload.endswith("\r\n") else payload + "\r\n"


def _base64_lines(data: bytes) -> str:
    text = base64.b64encode(data).decode("ascii")  # in lines of 76, as encodebytes
    return "".join(text[i:i + 76] + "\r\n" for i in range(0, len(text), 76))


def _file_param(filename: str) -> str:
    """A ``filename`` parameter: quoted when plain, else RFC 2231 encoded."""
    if _PLAIN_FILENAME.fullmatch(filename) and len(filename) <= 40:
        return f'filename="{filename}"'
    return f"filename*={encode_rfc2231(filename, 'utf-8')}"


#: Pictures an HTML mail shows inline (what every mail client shows in an
#: ``<img>``; an SVG stays an attachment, which Gmail would not show).
INLINE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif"})


def content_id(att: Attachment, n: int) -> str:
    """The Content-ID (without ``<>``) of the ``n``-th picture shown inline:
    drawn from the picture's bytes, so the same picture has the same id in
    every mail (nothing in a mail depends on its Message-ID but the
    headers that carry it)."""
    return f"picture{n}.{hashlib.sha256(att.data).hexdigest()[:20]}@judge"


def _html_entity(mail: OutgoingMail, body: str) -> str:
    """The MIME entity (its Content-Type header, a blank line, its body) of
    an HTML mail: see the module docstring for the structure. Boundaries
    are derived from the content, like :func:`_boundary`'s."""
    base = _boundary(mail)
    shown = [a for a in mail.attachments if a.content_type in INLINE_TYPES and a.data]
    attached = [a for a in mail.attachments if not any(a is s for s in shown)]
    pictures = [mailhtml.Picture(content_id(a, n), a.filename, mailhtml.png_size(a.data)[0])
                for n, a in enumerate(shown, 1)]
    text_head, text = _text_part(body, "plain")
    html_head, html = _text_part(mailhtml.render(body, pictures), "html")
    alt = f"{base}.a"
    entity = (f'Content-Type: multipart/alternative;\r\n boundary="{alt}"\r\n\r\n'
              f"--{alt}\r\n{text_head}\r\n{text}\r\n--{alt}\r\n{html_head}\r\n{html}"
              f"\r\n--{alt}--\r\n")
    if shown:
        rel = f"{base}.r"
        parts = [f'Content-Type: multipart/related;\r\n boundary="{rel}";\r\n'
                 f' type="multipart/alternative"\r\n\r\n--{rel}\r\n', entity]
        for att, pic in zip(shown, pictures, strict=True):
            parts += [f"\r\n--{rel}\r\nContent-Type: {att.content_type}\r\n"
                      f"Content-Transfer-Encoding: base64\r\nContent-ID: <{pic.cid}>\r\n"
                      f"Content-Disposition: inline; {_file_param(att.filename)}\r\n\r\n",
                      _base64_lines(att.data)]
        parts.append(f"\r\n--{rel}--\r\n")
        entity = "".join(parts)
    if attached:
        parts = [f'Content-Type: multipart/mixed;\r\n boundary="{base}"\r\n\r\n--{base}\r\n',
                 entity]
        for att in attached:
            parts += [f"\r\n--{base}\r\nContent-Type: {att.content_type}\r\n"
                      "Content-Transfer-Encoding: base64\r\n"
                      f"Content-Disposition: attachment; {_file_param(att.filename)}\r\n\r\n",
                      _base64_lines(att.data)]
        parts.append(f"\r\n--{base}--\r\n")
        entity = "".join(parts)
    return entity


_PLAIN_TYPE = re.compile(r"(application|image|audio|video)/[a-z0-9][a-z0-9.+-]*")
_PLAIN_FILENAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def _plain_attachment(att: Attachment) -> bool:
    """An attachment :func:`_compose_plain` writes as the general path would:
    a non-text type, a short file name of plain characters, some data."""
    return (bool(att.data) and _PLAIN_TYPE.fullmatch(att.content_type) is not None
            and _PLAIN_FILENAME.fullmatch(att.filename) is not None
            and len(att.filename) <= 40 and len(att.content_type) <= 60)


# --------------------------------------------------------------------------- transports


class TemporaryFailure(Exception):
    """Sending failed for now (a 4xx answer, a refused connection, a full
    disk): the relay tries again later."""


class ServerUnavailable(TemporaryFailure):
    """The server could not be reached or will not talk to us at all
    (connection refused or lost, TLS or login failed): every other mail would
    fail the same way now, so the relay stops its pass."""


class PermanentFailure(Exception):
    """Sending can never succeed (a 5xx answer, a malformed recipient): the
    relay gives up on this mail."""


class OutboundTransport(Protocol):
    """Where composed mail goes. ``send`` either delivers or raises
    :class:`TemporaryFailure` / :class:`PermanentFailure`."""

    name: str

    def send(self, envelope_from: str, to_addr: str, message: bytes) -> None: ...


@runtime_checkable
class BackgroundOutbound(OutboundTransport, Protocol):
    """A transport that can also send in the background (SMTP): ``start``
    returns at once with a future whose ``result()`` is ``None`` once the
    mail is accepted, or raises what ``send`` would. The relay uses it to
    send several mails at a time, and to let acknowledgements leave while
    the judge handles the next mail."""

    def start(self, envelope_from: str, to_addr: str, message: bytes) -> Future[None]: ...


def _check_recipient(to_addr: str) -> None:
    if not _ADDR.fullmatch(to_addr):
        raise PermanentFailure(f"recipient {to_addr!r} is not exactly one address")


class MaildirOutbound:
    """Delivers each message as a new file in a Maildir folder (the embedded
    default, also what tests read). Like a local delivery agent it prepends
    ``Return-Path`` and ``Delivered-To`` with the envelope, and stores LF line
    ends. Each file appears atomically (written in ``tmp/``, renamed into
    ``new/``)."""

    name = "maildir"

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._box = Maildir(str(self.path), factory=None, create=True)
        for sub in ("tmp", "new", "cur"):  # Maildir() skips this when the folder exists
            (self.path / sub).mkdir(parents=True, exist_ok=True)

    def send(self, envelope_from: str, to_addr: str, message: bytes) -> None:
        _check_recipient(to_addr)
        if envelope_from and not _ADDR.fullmatch(envelope_from):
            raise PermanentFailure(f"envelope sender {envelope_from!r} is not an address")
        head = f"Return-Path: <{envelope_from}>\nDelivered-To: {to_addr}\n".encode()
        data = head + message.replace(b"\r\n", b"\n")
        try:
            self._box.add(data)
        except OSError as exc:
            raise TemporaryFailure(f"maildir {self.path}: {exc}") from exc


SEPARATOR = "=" * 24
"""Start of the line :class:`StdoutOutbound` writes before each message."""


class StdoutOutbound:
    """Writes each message to a text stream: a separator line naming the
    envelope, then the message with LF line ends, then a blank line."""

    name = "stdout"

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def send(self, envelope_from: str, to_addr: str, message: bytes) -> None:
        _check_recipient(to_addr)
        text = message.decode("utf-8", "replace").replace("\r\n", "\n")
        if not text.endswith("\n"):
            text += "\n"
        try:
            self.stream.write(f"{SEPARATOR} mail from <{envelope_from}> to <{to_addr}>\n")
            self.stream.write(text + "\n")
            self.stream.flush()
        except OSError as exc:
            raise TemporaryFailure(f"stream: {exc}") from exc

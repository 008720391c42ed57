"""What the inbox table records of a mail set aside (moved to Failed).

A mail is set aside because reading it cost too much, failed, or was not
possible at all: so it is never read again in full for the record. Only the
first :data:`HEAD_BYTES` of its header section are looked at, without
decoding beyond the Subject's encoded words: the Message-ID, the From
address, the Subject and the Date, each cut short.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from email.header import decode_header, make_header
from email.parser import BytesHeaderParser
from email.policy import compat32

from judge.mail.mailin import IncomingMail

__all__ = ["HEAD_BYTES", "headers_only"]

HEAD_BYTES = 16_384
"""How much of a set-aside mail's header section is read for its record."""

_MSGID = re.compile(r"<[^<>\s]{1,250}>")
_BLANK = re.compile(rb"\r?\n\r?\n")
_ADDR = re.compile(r"[^<>\s,;:\"()]{1,64}@[^<>\s,;:\"()]{1,190}")


def _field(value: object) -> str:
    return " ".join(str(value or "").split())[:300]


def headers_only(raw: bytes) -> IncomingMail:
    """An :class:`IncomingMail` with what the first header lines of ``raw``
    say (nothing of its body): enough to record it and find it again."""
    end = _BLANK.search(raw, 0, HEAD_BYTES)
    head = raw[:end.start() + 1] if end else raw[:HEAD_BYTES]
    try:
        msg = BytesHeaderParser(policy=compat32).parsebytes(head)
        message_id, sender, subject, date = (_field(msg.get(n)) for n in
                                             ("Message-ID", "From", "Subject", "Date"))
    except Exception:  # whatever the bytes: the record carries the file's hash
        message_id = sender = subject = date = ""
    with contextlib.suppress(Exception):  # encoded words in the 300 characters kept
        subject = _field(make_header(decode_header(subject)))
    found = _MSGID.search(message_id)
    digest = hashlib.sha256(raw).hexdigest()
    address = _ADDR.search(sender.rsplit("<", 1)[-1] if "<" in sender else sender)
    return IncomingMail(
        message_id=found.group(0) if found else f"<{digest}@judge.invalid>",
        from_addr=address.group(0).lower() if address else "",
        from_name="",
        reply_to="",
        return_path=None,
        subject=subject,
        date=date,
        in_reply_to="",
        references=(),
        lines=(),
        body_hash=hashlib.sha256(b"").hexdigest(),
        attachments=(),
        drop=None,
        refuse=None,
        auth_results=(),
    )

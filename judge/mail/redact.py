"""Secrets kept out of what the judge echoes and stores.

A seat's token must never stand in clear in a reply's echo, a subject kept
in the database, a sent mail kept in the outbox, or a handled mail kept in
the inbound Maildir. Lines are read after Unicode compatibility folding
(NFKC), so a fullwidth ``ＳＩＧＮＯＮ`` is masked like a plain one.
"""

from __future__ import annotations

import email
import email.policy
import re
import unicodedata
from email.message import EmailMessage

from judge.mail.bounds import stream_safe


def fold(text: str) -> str:
    """Unicode compatibility folding (NFKC): a fullwidth ``ＳＩＧＮＯＮ`` is
    ``SIGNON``, a fullwidth digit a digit. Every line is read folded. The
    text is made stream-safe first (UAX #15 section 13), so that a long run of
    combining marks costs its length, not its square."""
    return unicodedata.normalize("NFKC", stream_safe(text))


#: A word that looks like a seat token: 12 to 20 symbols of the token
#: alphabet (no i, l, o or 1), with at least one letter and one digit.
_T = "a-hj-km-np-z02-9"
_TOKENISH = re.compile(rf"(?<![A-Za-z0-9])(?=[{_T}]*[02-9])(?=[{_T}]*[a-z])[{_T}]{{12,20}}"
                       r"(?![A-Za-z0-9])")


#: A word of exactly a token's length from the token alphabet, digits or not
#: (one token in a hundred has no digit).
_TOKEN_LONG = re.compile(rf"(?<![A-Za-z0-9])[{_T}]{{16}}(?![A-Za-z0-9])")
#: Where the judge itself writes a token, and a SIGNON anywhere in a line.
_TOKEN_PLACES = re.compile(r"(token is:\s*|\bSIGNON\s+\S+\s+\S+\s+)(\S+?)(?=[.,;]?(\s|$))",
                          re.IGNORECASE)


def mask_secrets(text: str) -> str:
    """``text`` with a SIGNON's token and any word that looks like a token
    masked: what the judge echoes or keeps never holds a token in clear."""
    words = text.split()
    if len(words) >= 4 and fold(words[0]).upper() == "SIGNON":
        words[3] = "*" * 8
        text = " ".join(words)
    text = _TOKEN_PLACES.sub(lambda m: m.group(1) + "*" * 8, text)
    text = _TOKEN_LONG.sub("*" * 8, text)
    return _TOKENISH.sub("*" * 8, text)


def mask_secrets_text(text: str) -> str:
    """:func:`mask_secrets` line by line over a whole text (a mail body)."""
    return "\n".join(mask_secrets(line) if line.strip() else line
                     for line in text.split("\n"))


#: A header field name at the start of a line (an unfolded header).
_FIELD = re.compile(rb"^([!-9;-~]+)[ \t]*:(.*)$", re.DOTALL)
#: A Content-Type the direct path reads: plain text in ASCII or UTF-8.
_PLAIN_TYPE = re.compile(rb'^\s*text/plain\s*(;\s*charset\s*=\s*"?(us-ascii|utf-8)"?\s*)?$',
                         re.IGNORECASE)


def _redact_plain(raw: bytes) -> bytes | None:
    """:func:`redact_raw` for the common mail written directly: one
    text/plain part in ASCII or UTF-8, sent 7bit or 8bit, with a subject
    that holds no token. The body is masked line by line (each line
    folded as :func:`fold` does, its line end kept); everything else stays
    as it came. ``None`` for any other mail (the email package reads it)."""
    cut = raw.find(b"\n\n")
    crlf = raw.find(b"\r\n\r\n")
    if crlf != -1 and (cut == -1 or crlf < cut):
        head, body = raw[: crlf + 2], raw[crlf + 4 :]
        sep = b"\r\n"
    elif cut != -1:
        head, body = raw[: cut + 1], raw[cut + 2 :]
        sep = b"\n"
    else:
        return None
    fields: dict[bytes, bytes] = {}
    name = b""
    for line in head.split(b"\n"):
        line = line.rstrip(b"\r")
        if not line:
            continue
        if line[:1] in (b" ", b"\t"):
            if not name:
                return None
            fields[name] += b" " + line.strip()
            continue
        match = _FIELD.match(line)
        if match is None:
            return None
        name = match.group(1).lower()
        if name in fields and name in (b"content-type", b"content-transfer-encoding",
                                       b"subject"):
            return None  # repeated: let the email package decide
        fields[name] = match.group(2).strip()
    ctype = fields.get(b"content-type")
    if ctype is not None and not _PLAIN_TYPE.match(ctype):
        return None
    if fields.get(b"content-transfer-encoding", b"7bit").lower() not in (b"7bit", b"8bit"):
        return None
    subject = fields.get(b"subject")
    if subject is not None:
        if not subject.isascii() or b"=?" in subject:
            return None
        plain = fold(subject.decode("ascii"))
        if mask_secrets(plain) != plain:
            return None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "\r" in text.replace("\r\n", "\n"):
        return None  # a bare CR: the email package's reading of it differs
    out = []
    changed = False
    for row in text.split("\n"):
        end = "\r" if row.endswith("\r") else ""
        content = row[:-1] if end else row
        if content.strip():
            folded = fold(content)
            masked = mask_secrets(folded)
            if masked != folded:
                changed = True
                content = masked
        out.append(content + end)
    if not changed:
        return raw
    new_body = "\n".join(out).encode("utf-8")
    if not new_body.isascii() and fields.get(b"content-transfer-encoding") is None:
        return None  # 7bit by default, and no longer 7bit
    return head + sep + new_body


def redact_raw(raw: bytes) -> bytes:
    """A stored copy of a mail with every token in its subject and text parts
    masked (the raw bytes unchanged when there is none)."""
    direct = _redact_plain(raw)
    if direct is not None:
        return direct
    return _redact_mime(raw)


def _redact_mime(raw: bytes) -> bytes:
    """:func:`redact_raw` through the email package (any MIME structure)."""
    try:
        msg = email.message_from_bytes(raw, policy=email.policy.default)
    except Exception:  # a message the parser cannot read is kept as it came
        return raw
    if not isinstance(msg, EmailMessage):
        return raw
    changed = False
    subject = msg.get("Subject")
    if subject is not None:
        plain = fold(str(subject))
        masked = mask_secrets(plain)
        if masked != plain:
            msg.replace_header("Subject", masked)
            changed = True
    for part in msg.walk():
        if part.is_multipart() or part.get_content_maintype() != "text":
            continue
        try:
            text = part.get_content()
        except Exception:  # an undecodable part: nothing to mask in it
            continue
        plain = fold(str(text))
        masked = mask_secrets_text(plain)
        if masked != plain:
            assert isinstance(part, EmailMessage)
            part.set_content(masked, subtype=part.get_content_subtype(), charset="utf-8")
            changed = True
    return msg.as_bytes() if changed else raw

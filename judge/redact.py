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


def fold(text: str) -> str:
    """Unicode compatibility folding (NFKC): a fullwidth ``ＳＩＧＮＯＮ`` is
    ``SIGNON``, a fullwidth digit a digit. Every line is read folded."""
    return unicodedata.normalize("NFKC", text)


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


def redact_raw(raw: bytes) -> bytes:
    """A stored copy of a mail with every token in its subject and text parts
    masked (the raw bytes unchanged when there is none)."""
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

"""Hard bounds on what one mail can make the judge do.

Every stage a mail goes through (header reading, decoding, normalisation,
the grammar, the game's reader, redaction, the reply) must cost time and
memory linear in the mail's size. The helpers here keep each stage within
a bound, cheaply and before the stage runs:

* :func:`header_breach` and :func:`trim_headers` read the header section of
  a raw mail with a plain line scan, so that no header longer than
  ``limits.max_header_chars`` or holding more than ``limits.max_encoded_words``
  RFC 2047 encoded words ever reaches the standard library's header parser;
* :func:`longest_line` finds a body line beyond ``limits.max_line_chars``
  before the text is normalised or split into commands;
* :func:`stream_safe` puts a text in Unicode's Stream-Safe Text Format
  (UAX #15, section 13: no more than 30 non-starters in a row, a COMBINING
  GRAPHEME JOINER between longer runs), under which NFC and NFKC are linear
  (canonical reordering of a run of combining marks costs its square);
* :func:`echo` quotes at most ``limits.max_echo_chars`` of a line in a reply.

Pure: no I/O, no clock.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator

__all__ = [
    "CGJ",
    "MAX_NON_STARTERS",
    "echo",
    "header_breach",
    "longest_line",
    "stream_safe",
    "trim_headers",
]

MAX_NON_STARTERS = 30
"""UAX #15 section 13: a stream-safe text has at most 30 non-starters in a row."""
CGJ = "\u034f"
"""COMBINING GRAPHEME JOINER: a starter that blocks reordering and shows nothing."""

MAX_HEADER_CHARS = 16_000
MAX_ENCODED_WORDS = 200
MAX_LINE_CHARS = 10_000
MAX_ECHO_CHARS = 200


def echo(text: str, limit: int = MAX_ECHO_CHARS) -> str:
    """``text`` as a reply quotes it: at most ``limit`` characters, then ``...``."""
    return text if len(text) <= limit else text[:limit] + "..."


# --------------------------------------------------------------------------- normalisation


@functools.cache
def _non_starters() -> re.Pattern[str]:
    """A run of more than :data:`MAX_NON_STARTERS` characters each of which
    decomposes (NFKD) to a non-starter first: combining marks, and the few
    characters of combining class 0 whose decomposition starts with one
    (U+0F73 TIBETAN VOWEL SIGN II)."""
    found: list[int] = []
    for cp in range(0x20000):  # no non-starter lies beyond plane 1
        ch = chr(cp)
        if unicodedata.combining(ch):
            found.append(cp)
            continue
        parts = [p for p in unicodedata.decomposition(ch).split() if not p.startswith("<")]
        if parts and unicodedata.combining(chr(int(parts[0], 16))):
            found.append(cp)
    ranges: list[tuple[int, int]] = []
    for cp in found:
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1] = (ranges[-1][0], cp)
        else:
            ranges.append((cp, cp))
    cls = "".join(re.escape(chr(a)) + ("-" + re.escape(chr(b)) if b > a else "")
                  for a, b in ranges)
    return re.compile(f"[{cls}]{{{MAX_NON_STARTERS + 1},}}")


def stream_safe(text: str) -> str:
    """``text`` in the Stream-Safe Text Format (UAX #15 section 13): a
    COMBINING GRAPHEME JOINER after every 30 non-starters of a longer run.
    Text with no such run (every text a person writes) comes back as it is."""
    if text.isascii():
        return text

    def cut(m: re.Match[str]) -> str:
        run = m.group(0)
        return CGJ.join(run[i:i + MAX_NON_STARTERS]
                        for i in range(0, len(run), MAX_NON_STARTERS))

    return _non_starters().sub(cut, text)


# --------------------------------------------------------------------------- body lines

_LINE_BREAK = re.compile(r"\r\n|[\r\n\u2028\u2029\x85]")


def longest_line(text: str) -> tuple[int, int]:
    """(number from 1, length) of the longest line of ``text``, line breaks
    as :func:`judge.mail.mailin.clean_body` reads them (CRLF, CR, LF, U+2028,
    U+2029, NEL). One pass; ``(0, 0)`` for an empty text."""
    best, number, start = 0, 0, 0
    n = 1
    for m in _LINE_BREAK.finditer(text):
        if m.start() - start > best:
            best, number = m.start() - start, n
        start = m.end()
        n += 1
    if len(text) - start > best:
        best, number = len(text) - start, n
    return number, best


# --------------------------------------------------------------------------- headers

_HEADER_END = re.compile(rb"\r?\n\r?\n")


def _head(raw: bytes, scan: int) -> tuple[bytes, bytes]:
    """(header section with its last line end, the rest from the blank line on)."""
    match = _HEADER_END.search(raw, 0, scan)
    if match is None:
        return raw[:scan], b""
    return raw[: match.start() + 1], raw[match.start() + 1:]


def _fields(head: bytes) -> Iterator[tuple[bytes, list[bytes]]]:
    """(lower-cased name, its physical lines) of each field of a header section."""
    name = b""
    lines: list[bytes] = []
    for line in head.splitlines(keepends=True):
        if line[:1] in (b" ", b"\t") and lines:
            lines.append(line)
            continue
        if lines:
            yield name, lines
        name = line.split(b":", 1)[0].strip().lower()
        lines = [line]
    if lines:
        yield name, lines


def _breach(name: bytes, lines: list[bytes], max_chars: int, max_words: int) -> str:
    size = sum(len(line.rstrip(b"\r\n")) for line in lines)
    label = name.decode("latin-1")[:40].title() or "(unnamed)"
    if size > max_chars:
        return (f"its {label} header has {size:,} characters, and a header may have "
                f"{max_chars:,} (limits.max_header_chars)")
    words = sum(line.count(b"=?") for line in lines)
    if words > max_words:
        return (f"its {label} header holds {words:,} encoded words, and a header may hold "
                f"{max_words:,} (limits.max_encoded_words)")
    return ""


READ_FIELDS = frozenset({
    b"from", b"sender", b"reply-to", b"return-path", b"to", b"cc", b"subject", b"date",
    b"message-id", b"in-reply-to", b"mime-version", b"content-type",
    b"content-transfer-encoding", b"content-disposition",
})
"""The header fields whose content the judge acts on: one of them beyond a
bound refuses the mail. Any other field beyond a bound (a References list of
a long thread, a trace header) is only trimmed: the mail is read without it."""


def header_breach(raw: bytes, max_chars: int = MAX_HEADER_CHARS,
                  max_words: int = MAX_ENCODED_WORDS, scan: int = 1_000_000, *,
                  read_only: bool = False) -> str:
    """The first header of ``raw`` (within its first ``scan`` bytes) beyond a
    bound, in words, or ``""`` (with ``read_only``: the first of
    :data:`READ_FIELDS`). One pass over the header section."""
    head, _ = _head(raw, scan)
    if len(head) <= max_chars and head.count(b"=?") <= max_words:
        return ""  # no field can break a bound
    for name, lines in _fields(head):
        if read_only and name not in READ_FIELDS:
            continue
        found = _breach(name, lines, max_chars, max_words)
        if found:
            return found
    return ""


def trim_headers(raw: bytes, max_chars: int = MAX_HEADER_CHARS,
                 max_words: int = MAX_ENCODED_WORDS, scan: int = 1_000_000) -> bytes:
    """``raw`` with every header beyond a bound replaced by a short one that
    says so (``Subject: (not read: 925,000 characters)``); ``raw`` itself
    when none is. What follows the header section is kept as it is."""
    if not header_breach(raw, max_chars, max_words, scan):
        return raw
    head, rest = _head(raw, scan)
    if not rest and len(raw) > len(head):
        rest = raw[len(head):]
    out: list[bytes] = []
    for name, lines in _fields(head):
        if _breach(name, lines, max_chars, max_words):
            size = sum(len(line) for line in lines)
            end = b"\r\n" if lines[-1].endswith(b"\r\n") else b"\n"
            label = lines[0].split(b":", 1)[0][:76] if b":" in lines[0] else b"X-Not-Read"
            out.append(label + f": (not read: {size:,} bytes)".encode() + end)
        else:
            out.extend(lines)
    return b"".join(out) + rest

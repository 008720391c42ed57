"""Invisible format characters, dropped from everything a player writes.

A press message, a name, a deck's name or an order line that a reply echoes
reaches other players' mail: a character they cannot see could hide text in
it (Unicode tag characters, U+E0000 to U+E007F, spell ASCII invisibly), make
two names look alike while they differ (a zero-width space inside a name),
or make the judge's own lines read backwards (the bidirectional controls).
:func:`visible` drops them all, in one pass, wherever player text enters
(:func:`judge.mail.mailin.clean_body`, the Subject, and again where press is
taken, for text that did not come through the mail reader).

What goes: every character of Unicode's general category Cf ("format",
UAX #44), which holds the tag characters, the bidirectional embeddings,
overrides, isolates and marks, the zero-width space and no-break space
(U+200B, U+2060, U+FEFF), the invisible operators (U+2061 to U+2064), the
soft hyphen, the interlinear annotation marks and the rest.

What stays, by necessity: ZERO WIDTH NON-JOINER (U+200C) and ZERO WIDTH
JOINER (U+200D), when both of their neighbours belong to writing that uses
them (The Unicode Standard, chapter 23.2, "Layout Controls"): Arabic and
Persian (the ZWNJ of a Persian prefix is spelling, "می‌خواهم"), the Brahmic
scripts of India and Southeast Asia (the ZWJ or ZWNJ after a virama picks
the half form or the explicit virama of a conjunct), Sinhala, Tibetan,
Myanmar, Khmer and Mongolian; and emoji, whose ZWJ sequences (UTS #51
section 2.3) make one picture of several ("family", "woman technologist").
Between any other characters (Latin, Greek, Cyrillic, CJK, digits, spaces)
a joiner changes nothing a reader sees, and it goes.

Pure and linear: one ``str.translate`` and, when a joiner is left, one
regular-expression pass that looks at its two neighbours.
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["JOINERS", "format_characters", "needs_joiner", "visible"]

ZWNJ = "\u200c"
ZWJ = "\u200d"
JOINERS = frozenset({ZWNJ, ZWJ})

#: Blocks of the scripts whose letters a ZWJ or ZWNJ joins or separates
#: (chapter 23.2 of The Unicode Standard): Arabic, Syriac, Thaana, NKo,
#: Samaritan, Mandaic and the Arabic supplements; the Brahmic scripts of
#: India (Devanagari to Sinhala), Tibetan, Myanmar, Khmer, Mongolian; the
#: Indic and Southeast Asian extensions (Syloti Nagri to Meetei Mayek);
#: Arabic presentation forms; the historic Brahmic scripts of plane 1.
_JOINING_SCRIPTS = (
    (0x0600, 0x08FF), (0x0900, 0x0DFF), (0x0F00, 0x109F), (0x1780, 0x18AF),
    (0xA800, 0xABFF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFC), (0x10D00, 0x10D3F),
    (0x11000, 0x11FFF),
)
#: Emoji and what goes inside an emoji ZWJ sequence (UTS #51): pictographs,
#: symbols, skin tones, VARIATION SELECTOR-16, the keycap mark.
_EMOJI = ((0x2190, 0x2BFF), (0x1F000, 0x1FAFF), (0xFE0F, 0xFE0F), (0x20E3, 0x20E3),
          (0x3030, 0x303D), (0x3297, 0x3299))


def needs_joiner(ch: str) -> bool:
    """Whether ``ch`` is a character next to which a ZWJ or ZWNJ can mean
    something: a letter or mark of a script of :data:`_JOINING_SCRIPTS`,
    or a part of an emoji."""
    cp = ord(ch)
    if cp < 0x0600:
        return False
    if any(a <= cp <= b for a, b in _EMOJI):
        return True
    if not unicodedata.category(ch).startswith(("L", "M")):
        return False
    return any(a <= cp <= b for a, b in _JOINING_SCRIPTS)


@functools.cache
def format_characters() -> frozenset[int]:
    """Every code point of general category Cf (format) in this Python's
    Unicode database, the two joiners included. (Cf lies only in planes 0,
    1 and 14.)"""
    planes = (range(0x20000), range(0xE0000, 0xE1000))
    return frozenset(cp for plane in planes for cp in plane
                     if unicodedata.category(chr(cp)) == "Cf")


@functools.cache
def _table() -> dict[int, None]:
    return dict.fromkeys(cp for cp in format_characters() if chr(cp) not in JOINERS)


_JOINER = re.compile("[\u200c\u200d]+")


def visible(text: str) -> str:
    """``text`` without its invisible format characters (see the module):
    every Cf character but a ZWJ or ZWNJ between two characters that need
    one (:func:`needs_joiner`); a run of joiners keeps its first."""
    if text.isascii():
        return text
    text = text.translate(_table())
    if ZWJ not in text and ZWNJ not in text:
        return text

    def keep(m: re.Match[str]) -> str:
        i, j = m.start(), m.end()
        if i > 0 and j < len(text) and needs_joiner(text[i - 1]) and needs_joiner(text[j]):
            return m.group()[0]
        return ""

    return _JOINER.sub(keep, text)

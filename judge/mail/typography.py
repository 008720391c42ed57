"""Typographic marks read as the grammar's own, before any game reads a line.

Mail clients replace what players type: Outlook's editor turns `` - `` into
an en dash, phones offer an em dash, a copy from a word processor brings a
minus sign or a non-breaking hyphen, and some players write an arrow. Every
game's grammar writes a move with the ASCII hyphen (``A Mos - Ukr``) or the
ASCII arrow ``->`` (``A8->5``), and names with hyphens (``han-dan``,
``Yin-Yang Swords``), so every dash below reads as ``-`` and every arrow
as ``->`` (the Diplomacy grammar reads ``->`` as a move too). HTML entity
forms (``&ndash;``, ``&#8211;``, ``&rarr;``) are decoded before this.

:func:`plain_marks` is applied once, by :func:`judge.grammar.parse_body`,
to every command and game line (press text keeps its own marks). It is one
``str.translate``: linear in the line.
"""

from __future__ import annotations

__all__ = ["ARROWS", "DASHES", "plain_marks"]

DASHES = (
    "\u2010"  # hyphen
    "\u2011"  # non-breaking hyphen (NFKC folds it to U+2010)
    "\u2012"  # figure dash
    "\u2013"  # en dash
    "\u2014"  # em dash
    "\u2015"  # horizontal bar
    "\u2043"  # hyphen bullet
    "\u2212"  # minus sign
    "\u2e3a"  # two-em dash
    "\u2e3b"  # three-em dash
    "\ufe58"  # small em dash
    "\ufe63"  # small hyphen-minus (NFKC folds it to "-")
    "\uff0d"  # fullwidth hyphen-minus (NFKC folds it to "-")
)
"""Characters read as the hyphen ``-``."""

ARROWS = (
    "\u2192"  # rightwards arrow
    "\u21d2"  # rightwards double arrow
    "\u21e8"  # rightwards white arrow
    "\u2794"  # heavy wide-headed rightwards arrow
    "\u2799"  # heavy rightwards arrow
    "\u279c"  # heavy round-tipped rightwards arrow
    "\u279d"  # triangle-headed rightwards arrow
    "\u279e"  # heavy triangle-headed rightwards arrow
    "\u27a1"  # black rightwards arrow
    "\u27f6"  # long rightwards arrow
    "\u27f9"  # long rightwards double arrow
)
"""Characters read as the arrow ``->``."""

_TABLE = str.maketrans({**dict.fromkeys(DASHES, "-"), **dict.fromkeys(ARROWS, "->")})


def plain_marks(text: str) -> str:
    """``text`` with every typographic dash as ``-`` and every arrow as ``->``."""
    return text if text.isascii() else text.translate(_TABLE)

"""Colour helpers shared by the games' drawings."""

from __future__ import annotations


def dark(colour: str) -> bool:
    """Whether ``colour`` (``#rrggbb``) is dark enough that text on it must
    be white (its luma, ITU-R BT.601 weights, below 140 of 255)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 140

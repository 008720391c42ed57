"""Committed-seed randomness that anyone can audit after the game.

Each game gets a 256-bit seed from :mod:`secrets`; ``commitment(seed)`` (its
SHA-256) is published in the first report. Draw number ``n`` with purpose ``p``
is ``HMAC-SHA256(seed, f"{p}|{n}")`` read as a 256-bit integer; a value in
``range(bound)`` is taken by rejection sampling (values at or above the largest
multiple of ``bound`` below 2**256 are thrown away and the counter moves on), so
every outcome is exactly equally likely. Shuffles are Fisher-Yates over such
draws. Every draw is recorded as a :class:`Draw`; when the seed is revealed at
the end, :func:`recompute` checks each one.

The counter is per game, not per purpose, so the log is one sequence.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

_SPACE = 1 << 256


def new_seed() -> bytes:
    """A fresh 256-bit seed."""
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """The published SHA-256 (hex) of a seed."""
    return hashlib.sha256(seed).hexdigest()


def _block(seed: bytes, purpose: str, counter: int) -> int:
    mac = hmac.new(seed, f"{purpose}|{counter}".encode(), hashlib.sha256).digest()
    return int.from_bytes(mac, "big")


@dataclass(frozen=True)
class Draw:
    """One random integer taken: ``value`` in ``range(bound)`` from HMAC block
    ``counter`` (after any rejected blocks, which are not recorded)."""

    purpose: str
    counter: int
    bound: int
    value: int

    def to_json(self) -> list[Any]:
        return [self.purpose, self.counter, self.bound, self.value]

    @classmethod
    def from_json(cls, raw: Sequence[Any]) -> Draw:
        return cls(str(raw[0]), int(raw[1]), int(raw[2]), int(raw[3]))


class Rng:
    """The only source of chance a game may use.

    ``counter`` is the number of HMAC blocks used so far; the judge stores it
    with the game so the next action continues the sequence. ``draws`` collects
    what this instance drew, for the action log.
    """

    def __init__(self, seed: bytes, counter: int = 0) -> None:
        if len(seed) != 32:
            raise ValueError("seed must be 32 bytes")
        self._seed = seed
        self.counter = counter
        self.draws: list[Draw] = []

    def below(self, bound: int, purpose: str) -> int:
        """A uniform integer in ``range(bound)``. ``purpose`` names the draw in the
        log (``"die"``, ``"shuffle:deck"``): it is part of the HMAC input."""
        if bound < 1:
            raise ValueError("bound must be at least 1")
        if "|" in purpose:
            raise ValueError("purpose may not contain '|'")
        limit = _SPACE - (_SPACE % bound)
        while True:
            block = _block(self._seed, purpose, self.counter)
            counter = self.counter
            self.counter += 1
            if block < limit:
                value = block % bound
                self.draws.append(Draw(purpose, counter, bound, value))
                return value

    def die(self, sides: int = 6, purpose: str = "die") -> int:
        """A die roll, 1..sides."""
        return self.below(sides, purpose) + 1

    def choice(self, items: Sequence[T], purpose: str) -> T:
        return items[self.below(len(items), purpose)]

    def shuffle(self, items: MutableSequence[T], purpose: str) -> None:
        """Fisher-Yates in place: for i from the end, swap with a uniform j <= i."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1, purpose)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T], purpose: str) -> list[T]:
        out = list(items)
        self.shuffle(out, purpose)
        return out


class VerifyError(Exception):
    """A logged draw that the revealed seed does not reproduce."""


def recompute(seed: bytes, draws: Sequence[Draw], start: int = 0) -> None:
    """Check that ``draws`` (in log order, starting at block ``start``) are exactly
    what ``seed`` gives. Rejected blocks in between are recomputed too, so a draw
    with a skipped counter must be explained by rejections. Raises VerifyError."""
    counter = start
    for i, d in enumerate(draws):
        limit = _SPACE - (_SPACE % d.bound)
        while True:
            block = _block(seed, d.purpose, counter)
            if block < limit:
                break
            counter += 1
        if counter != d.counter:
            raise VerifyError(
                f"draw {i} ({d.purpose}): logged at block {d.counter}, seed gives block {counter}"
            )
        value = block % d.bound
        if value != d.value:
            raise VerifyError(
                f"draw {i} ({d.purpose}, block {d.counter}): logged {d.value}, seed gives {value}"
            )
        counter += 1

"""A test clock the judge reads the time from."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta


@dataclass
class Clock:
    """A settable clock: call it for the time, ``advance`` it by hand."""

    now: datetime = field(default_factory=lambda: datetime(2026, 3, 1, 12, 0, tzinfo=UTC))

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw: float) -> None:
        self.now += timedelta(**kw)

"""Fixtures of the hostile-input tests: the judge of tests/core (a home on
the Maildir transports, a test clock, the test game, cheap scrypt)."""

from __future__ import annotations

from tests.core.conftest import _fast_kdf_and_test_game, clock, home, judge, post

__all__ = ["_fast_kdf_and_test_game", "clock", "home", "judge", "post"]

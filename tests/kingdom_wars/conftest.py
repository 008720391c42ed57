"""Fixtures of the Kingdom Wars tests: a cheap key derivation for every test, and
``post``, a judge on a fresh Maildir home whose games all draw from the
mail tests' seed (tests/support/mailfixtures.py)."""

from __future__ import annotations

from tests.kingdom_wars.test_mail import SEED
from tests.support.mailfixtures import fast_kdf, seeded_post

__all__ = ["fast_kdf", "post"]

post = seeded_post(SEED)

"""Fixtures the games' tests by mail share: a cheap key derivation for the
tokens (the tests send many mails), and ``post``, a judge on a fresh
Maildir home whose games all draw from one seed. A folder's conftest.py
imports the first and makes the second with its seed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bench.support.maildir import open_post
from bench.support.post import Post
from judge.store import set_kdf_cost


@pytest.fixture(autouse=True)
def fast_kdf() -> Iterator[None]:
    set_kdf_cost(2**8)
    yield


def seeded_post(seed: bytes) -> Callable[[Path], Iterator[Post]]:
    """A ``post`` fixture: a judge on a fresh Maildir home under the test's
    ``tmp_path``, every game it creates drawing from ``seed``."""

    @pytest.fixture(name="post")
    def _post(tmp_path: Path) -> Iterator[Post]:
        yield from open_post(tmp_path, seed)

    return _post

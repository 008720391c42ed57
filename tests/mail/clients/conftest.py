"""The client corpus plays on a judge home of its own (bench/support/maildir.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from judge.store import set_kdf_cost


@pytest.fixture(autouse=True)
def _fast_kdf() -> Iterator[None]:
    # scrypt at full cost makes every seat slow to create; hashes keep their cost
    set_kdf_cost(2**8)
    yield
    set_kdf_cost(2**14)

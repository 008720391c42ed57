"""A judge on a Maildir home, for tests by mail: it lives in
bench/support/maildir.py (the benchmarks use it too, and bench/ never imports
tests/); the names are kept here for tests that import them from tests.support."""

from __future__ import annotations

from bench.support.maildir import Outbox as Outbox
from bench.support.maildir import open_post as open_post
from bench.support.maildir import whole as whole

"""A PostgreSQL database of its own for each test that needs one.

``.ci/run`` starts a throw-away PostgreSQL cluster and exports its URL as
``JUDGE_TEST_POSTGRES``. Each test gets a fresh schema in it (the URL it is
given names that schema as its ``search_path``), dropped afterwards, so that
tests on several workers never see one another's tables.

Without a server, a test marked ``postgres`` is skipped with one line saying
how to run it; under CI (``CI=true``) a missing server fails it instead.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote

import pytest

ENV = "JUDGE_TEST_POSTGRES"
MISSING = (f"no PostgreSQL server for the tests marked postgres: set {ENV} to a "
           "postgresql:// URL (bash .ci/run starts one)")


def server_url() -> str:
    """The test server's URL; skips (fails under CI) when there is none."""
    url = os.environ.get(ENV, "")
    if not url:
        if os.environ.get("CI"):
            pytest.fail(MISSING)
        pytest.skip(MISSING)
    return url


def with_schema(url: str, schema: str) -> str:
    """``url`` with ``schema`` as the connection's search_path."""
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options={quote(f'-csearch_path={schema}')}"


@contextmanager
def fresh_database() -> Iterator[str]:
    """The URL of a new, empty schema on the test server, dropped at the end."""
    import psycopg

    url = server_url()
    schema = "t_" + secrets.token_hex(6)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"create schema {schema}")
    try:
        yield with_schema(url, schema)
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            # Connections a test left open (a killed daemon's) go first.
            conn.execute("select pg_terminate_backend(pid) from pg_stat_activity "
                         "where pid != pg_backend_pid() and query like %s",
                         [f"%{schema}%"])
            conn.execute(f"drop schema {schema} cascade")

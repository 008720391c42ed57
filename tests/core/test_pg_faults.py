"""A PostgreSQL server that drops the judge's connection (a restart, an
administrator's kill) is waited out: the cycle's parts it hit wait for the
next cycle, with one line saying why; nothing is lost or applied twice; the
next cycle connects again and carries on."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from judge.service import Judge
from judge.store import is_busy, is_fault
from tests.core.conftest import Post

pytestmark = pytest.mark.postgres

BOTH_BACKENDS = False


@pytest.fixture
def database() -> Iterator[str]:
    from tests.support.postgres import fresh_database

    with fresh_database() as url:
        yield url


def _drop_connection(judge: Judge) -> None:
    """What a server restart does to the judge's connection."""
    pid = judge.store.conn.info.backend_pid
    from tests.support.postgres import server_url

    with psycopg.connect(server_url(), autocommit=True) as admin:
        admin.execute("select pg_terminate_backend(%s)", [pid])


def test_a_dropped_connection_is_waited_out(judge: Judge, post: Post) -> None:
    assert judge.store.postgres
    post.deliver(post.raw("stranger@x.example", "HELP\n"))
    _drop_connection(judge)
    lines = judge.cycle()
    assert any("database unreachable or failing" in line and "the mail" in line
               for line in lines), lines
    assert judge.store.inbox() == []  # (connected again) nothing of the mail was kept
    assert list((post.home / "mail" / "in" / "new").iterdir())  # it waits in the inbox
    lines = judge.cycle()
    assert any("from stranger@x.example: processed" in line for line in lines), lines
    [row] = judge.store.inbox()
    assert row["status"] == "processed"
    assert len(judge.store.outbox()) == 1  # answered once


def test_deadlocks_and_serialization_failures_are_tried_again() -> None:
    from psycopg import errors

    assert is_busy(errors.DeadlockDetected("deadlock detected"))
    assert is_busy(errors.SerializationFailure("could not serialize access"))
    assert is_busy(errors.LockNotAvailable("canceling statement due to lock timeout"))
    assert is_fault(errors.AdminShutdown("terminating connection")).startswith(
        "database unreachable")
    assert not is_fault(errors.UniqueViolation("duplicate key"))
    assert not is_fault(errors.UndefinedColumn("column does not exist"))

"""Fixtures for the tests against real mail servers.

``mail_servers`` (session) starts Dovecot and the SMTP fronts once
(:mod:`bench.support.mailservers`). When they cannot be started it fails with
one plain message naming what is missing: every test that needs them then
errors with that message; none is skipped in silence. Tests that use it get
the ``mailserver`` marker, so ``-m "not mailserver"`` leaves them out on a
machine without Dovecot.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.support.mailplayers import Mail, judge_config
from bench.support.mailservers import MailServers, ServersUnavailable
from judge.game import registry
from judge.service import Judge
from judge.store import set_kdf_cost
from tests.core.conftest import Clock
from tests.games import add_report_files
from tests.games.sealed_bids import GAME as SEALED

INSTALL = "apt-get install -y --no-install-recommends dovecot-imapd dovecot-lmtpd"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "mail_servers" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.mailserver)


@pytest.fixture(scope="session")
def mail_servers() -> Iterator[MailServers]:
    try:
        servers = MailServers.start()
    except ServersUnavailable as exc:
        pytest.fail(
            f"MAIL SERVERS UNAVAILABLE: the Dovecot + SMTP test servers cannot be started "
            f"here: {exc}. Install them (Debian 12: {INSTALL}) or leave these tests out "
            f"with -m 'not mailserver'.",
            pytrace=False,
        )
    yield servers
    servers.close()


@pytest.fixture(autouse=True)
def _fast_kdf_and_test_game() -> Iterator[None]:
    set_kdf_cost(2**8)
    registry.register(SEALED)
    add_report_files()
    add_report_files()
    yield
    registry.unregister(SEALED.id)


@pytest.fixture
def servers(mail_servers: MailServers) -> MailServers:
    """The servers with every mailbox emptied."""
    mail_servers.empty()
    return mail_servers


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def home(tmp_path: Path, servers: MailServers, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A judge home configured for IMAP in and SMTP out on the test servers."""
    monkeypatch.setenv("JUDGE_TEST_IMAP_PASSWORD", "judge")
    h = tmp_path / "home"
    h.mkdir()
    (h / "judge.toml").write_text(judge_config(servers), encoding="utf-8")
    return h


@pytest.fixture
def judge(home: Path, clock: Clock) -> Iterator[Judge]:
    j = Judge.open(home, now=clock)
    yield j
    j.close()


@pytest.fixture
def mail(servers: MailServers, judge: Judge) -> Mail:
    return Mail(servers, judge)

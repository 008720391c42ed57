"""Root test configuration.

Its only job: put the project root on ``sys.path`` so that tests can import
``judge``, ``games`` and the shared test helpers in ``tests.support`` whether
pytest is run as ``pytest`` or ``python -m pytest`` and whether or not the
project is installed. (``pythonpath = ["."]`` under ``[tool.pytest.ini_options]``
would do the same; this file can then go.)
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

# Every report's attachment is checked against its view schema in the tests
# (judge.reports.CHECK_VIEWS), in this process and in the judges it starts.
os.environ["JUDGE_CHECK_VIEWS"] = "1"

# Property tests: in CI (CI=true) the examples are derived from the test's name,
# so a run is reproducible; elsewhere hypothesis explores afresh each time.
import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


#: The back-ends a test module that sets ``BOTH_BACKENDS = True`` runs on
#: (through the ``database`` fixture): SQLite, and PostgreSQL (marked postgres).
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if ("database" in metafunc.fixturenames and getattr(metafunc.module, "BOTH_BACKENDS", False)
            and metafunc.definition.get_closest_marker("sqlite_only") is None):
        metafunc.parametrize("database", BACKENDS, indirect=True)


@pytest.fixture
def database(request: pytest.FixtureRequest) -> Iterator[str]:
    """What ``judge.database`` is set to: ``"judge.db"`` (SQLite), or the URL
    of a fresh PostgreSQL schema when the test runs on that back-end."""
    if getattr(request, "param", "sqlite") == "sqlite":
        yield "judge.db"
        return
    from tests.support.postgres import fresh_database

    with fresh_database() as url:
        yield url


_NO_POSTGRES: list[int] = []


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test that measures with pytest-benchmark ``benchmark``:
    .ci/run runs those in one process of their own after the rest (spread
    over the CPUs by pytest-xdist, under which pytest-benchmark measures
    nothing).

    Without a PostgreSQL server (outside CI) the tests marked postgres are
    left out, and the run's summary says so in one line; under CI they stay
    and fail (tests/support/postgres.py)."""
    for item in items:
        if "benchmark" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.benchmark)
    if os.environ.get("JUDGE_TEST_POSTGRES") or os.environ.get("CI"):
        return
    left = [item for item in items if item.get_closest_marker("postgres") is not None]
    if left:
        kept = [item for item in items if item.get_closest_marker("postgres") is None]
        config.hook.pytest_deselected(items=left)
        items[:] = kept
        _NO_POSTGRES.append(len(left))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line for every test skipped because the rulebooks, reference
    texts or data beside the repository are missing (a plain clone):
    how many, which files, where they were looked for."""
    from tests.support import rulebooks

    files: set[str] = set()
    count = 0
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
        if reason.startswith(f"Skipped: {rulebooks.SKIP_REASON}: "):
            count += 1
            files.add(reason.split(": ", 2)[2].split(" not found", 1)[0])
    if count:
        terminalreporter.write_line(
            f"SKIPPED {count} tests that quote the rulebooks: {', '.join(sorted(files))} "
            f"not found in {rulebooks.shared()} (a plain clone has no ../shared; set "
            "JUDGE_SHARED to run them)", yellow=True, bold=True)
    _postgres_summary(terminalreporter)


def _postgres_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line when the tests marked postgres were left out (no server)."""
    # (under pytest-xdist the workers collect and leave them out; this
    # process cannot count them, so it says so whenever there is no server)
    if os.environ.get("JUDGE_TEST_POSTGRES") or os.environ.get("CI"):
        return
    if _NO_POSTGRES or terminalreporter.config.getoption("numprocesses", None):
        from tests.support.postgres import MISSING

        terminalreporter.write_line(f"POSTGRES TESTS NOT RUN: {MISSING}", yellow=True)

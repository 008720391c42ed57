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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that measures with pytest-benchmark ``benchmark``:
    .ci/run runs those in one process of their own after the rest (spread
    over the CPUs by pytest-xdist, under which pytest-benchmark measures
    nothing)."""
    for item in items:
        if "benchmark" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.benchmark)


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

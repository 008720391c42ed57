"""Root test configuration.

Its only job: put the project root on ``sys.path`` so that tests can import
``judge``, ``games`` and the shared test helpers in ``tests.support`` whether
pytest is run as ``pytest`` or ``python -m pytest`` and whether or not the
project is installed. (``pythonpath = ["."]`` under ``[tool.pytest.ini_options]``
would do the same; this file can then go.)
"""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

# Property tests: in CI (CI=true) the examples are derived from the test's name,
# so a run is reproducible; elsewhere hypothesis explores afresh each time.
import os  # noqa: E402

from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

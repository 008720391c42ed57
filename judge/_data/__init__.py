"""Where the judge's data files are: ``templates/`` and ``schemas/``.

Both folders sit at the top of the source tree and are installed as the
packages ``judge._data.templates`` and ``judge._data.schemas`` (a
package-dir mapping in pyproject.toml), so :func:`folder` finds them through
:mod:`importlib.resources` the same way in a source checkout installed
editable, a wheel, ``pip install --user`` and ``pip install --target``.
"""

from __future__ import annotations

import atexit
import contextlib
from functools import cache
from importlib import resources
from pathlib import Path

_kept = contextlib.ExitStack()
atexit.register(_kept.close)


@cache
def folder(name: str) -> Path:
    """The folder of data ``name`` (``templates`` or ``schemas``) on disk."""
    found = resources.files(f"judge._data.{name}")
    if isinstance(found, Path):
        return found
    # Imported from an archive (a zipapp): unpacked once for this process.
    return _kept.enter_context(resources.as_file(found))

"""The command line every counting script in bench/ shares: its options, then
the figures as JSON (``--json``) or as lines for a reader."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping

Figures = Mapping[str, object]


def report_main(argv: list[str] | None, doc: str | None,
                options: Callable[[argparse.ArgumentParser], None],
                count: Callable[[argparse.Namespace], Figures],
                show: Callable[[Figures], None]) -> int:
    """Parse ``argv`` (the script's own ``options``, and ``--json``), count,
    and print the figures: as JSON with ``--json``, else through ``show``.
    The description is the first paragraph of the script's ``doc``."""
    ap = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    options(ap)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    out = count(args)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        show(out)
    return 0

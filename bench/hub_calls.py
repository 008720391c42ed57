"""How often the modules of ``judge/`` call back into the ``Judge`` hub.

A call into the hub is a call of a method of :class:`judge.service.Judge`
(``judge.outbox()``, ``ctx.judge.workspace()``, ``self.judge.now()``)
on a name or attribute called ``judge``, ``j`` or ``hub``, found by reading
the source (no import). Counted per module, outside ``judge/service.py``
itself, and split between the hub's own clients (the CLI, the daemon, the
demo: they hold a Judge) and the stations of the mail path, which should
get what they need handed to them and return what they make.

Usage::

    python bench/hub_calls.py [--root PATH] [--json]
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from pathlib import Path
from typing import TypedDict, cast

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.support.report import Figures, report_main  # noqa: E402

#: Modules that hold a Judge by design: the hub's clients, not its stations.
CLIENTS = ("judge/cli.py", "judge/daemon.py", "judge/demo.py")

#: The names a Judge goes by in the stations.
NAMES = frozenset({"judge", "j", "hub"})


def hub_methods(root: Path) -> set[str]:
    """The methods of the class ``Judge`` in ``root/judge/service.py``."""
    tree = ast.parse((root / "judge" / "service.py").read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Judge")
    return {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}


def _on_hub(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id in NAMES) or (
        isinstance(node, ast.Attribute) and node.attr in NAMES)


class HubFigures(TypedDict):
    """What :func:`count` finds: calls into the hub, by module and method."""

    calls: int
    station_calls: int
    station_modules: int
    stations: dict[str, int]
    station_methods: dict[str, int]
    client_calls: int
    clients: dict[str, int]
    methods: dict[str, int]


def count(root: Path = ROOT) -> HubFigures:
    methods = hub_methods(root)
    per: Counter[str] = Counter()
    which: Counter[str] = Counter()
    station_which: Counter[str] = Counter()
    for path in sorted((root / "judge").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel == "judge/service.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in methods and _on_hub(node.func.value)):
                per[rel] += 1
                which[node.func.attr] += 1
                if rel not in CLIENTS:
                    station_which[node.func.attr] += 1
    stations = {k: v for k, v in per.items() if k not in CLIENTS}
    clients = {k: v for k, v in per.items() if k in CLIENTS}
    return {
        "calls": sum(per.values()),
        "station_calls": sum(stations.values()),
        "station_modules": len(stations),
        "stations": dict(sorted(stations.items())),
        "station_methods": dict(station_which.most_common()),
        "client_calls": sum(clients.values()),
        "clients": dict(sorted(clients.items())),
        "methods": dict(which.most_common()),
    }


def _options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--root", type=Path, default=ROOT, help="a tree holding judge/")


def _show(figures: Figures) -> None:
    out = cast(HubFigures, figures)  # the figures count() made
    print(f"calls into the Judge hub: {out['calls']}")
    print(f"  from the stations: {out['station_calls']} in {out['station_modules']} modules")
    for rel, n in out["stations"].items():
        print(f"    {n:4d} {rel}")
    print(f"  from its clients (CLI, daemon, demo): {out['client_calls']}")
    print("  by method: " + ", ".join(f"{k} {v}" for k, v in
                                     out["methods"].items()))


def main(argv: list[str] | None = None) -> int:
    return report_main(argv, __doc__, _options, lambda args: count(args.root), _show)


if __name__ == "__main__":
    sys.exit(main())

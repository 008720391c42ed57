"""How the modules of a package import each other: function-local imports
and import circles.

A function-local import (an ``import`` inside a ``def``) is usually there
to break an import circle; a circle is a set of modules each of which,
following module-level imports, reaches every other. Imports under
``if TYPE_CHECKING:`` are counted apart: they never run, so they make no
circle at run time.

Printed for the package (``games`` unless ``--package``): the number of
modules, of function-local imports (and where), and the import circles
(strongly connected components of more than one module, or a module
importing itself), each with its members.

Usage::

    python bench/imports.py [--package judge_games] [--json]
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict, cast

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.support.report import Figures, report_main  # noqa: E402


@dataclass
class Module:
    """One module of the package: what it imports at module level, under
    ``TYPE_CHECKING``, and inside functions."""

    name: str
    path: Path
    imports: set[str] = field(default_factory=set)
    typing_only: set[str] = field(default_factory=set)
    local: list[tuple[int, str]] = field(default_factory=list)
    local_targets: set[str] = field(default_factory=set)
    #: Each import statement's targets, by where it stands (resolved apart:
    #: ``from pkg import a`` names ``pkg.a``, not ``pkg`` itself).
    statements: list[tuple[str, list[str]]] = field(default_factory=list)


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _targets(node: ast.Import | ast.ImportFrom, here: str, is_package: bool) -> list[str]:
    """The modules ``node`` imports, absolute (``from . import x`` may name a
    module ``x`` or a name in the package; both are returned and those that
    are no module of the package are dropped later)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = node.module or ""
    if node.level:
        pkg = here.split(".") if is_package else here.split(".")[:-1]
        pkg = pkg[: len(pkg) - (node.level - 1)]
        base = ".".join([*pkg, base]) if base else ".".join(pkg)
    return [base, *(f"{base}.{a.name}" for a in node.names)]


def _walk(
    body: list[ast.stmt], mod: Module, is_package: bool, *, in_def: bool, typing: bool
) -> None:
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            targets = _targets(node, mod.name, is_package)
            # ``import a, b`` imports each; ``from a import b, c`` names b and c in a
            groups = [[t] for t in targets] if isinstance(node, ast.Import) else [targets]
            if in_def:
                mod.local.append((node.lineno, targets[0]))
                mod.statements += [("local", g) for g in groups]
                continue
            mod.statements += [("typing" if typing else "imports", g) for g in groups]
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            _walk(node.body, mod, is_package, in_def=in_def, typing=True)
            _walk(node.orelse, mod, is_package, in_def=in_def, typing=typing)
        else:
            for child_body in _bodies(node):
                inner = in_def or isinstance(
                    node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
                )
                _walk(child_body, mod, is_package, in_def=inner, typing=typing)


def _bodies(node: ast.stmt) -> Iterator[list[ast.stmt]]:
    for name in ("body", "orelse", "finalbody"):
        value = getattr(node, name, None)
        if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
            yield value
    for handler in getattr(node, "handlers", []) or []:
        yield handler.body
    for case in getattr(node, "cases", []) or []:
        yield case.body


def _resolve(targets: list[str], mods: dict[str, Module]) -> set[str]:
    """The modules of the package that one import statement's ``targets``
    name: ``from pkg import mod`` gives ``pkg`` and ``pkg.mod``; ``pkg.mod``
    is meant when it is a module, and ``pkg`` too when some other name is
    imported from it."""
    head, *names = targets
    if head not in mods:
        return set()
    if not names:
        return {head}
    modules = {n for n in names if n in mods}
    return modules | ({head} if len(modules) < len(names) else set())


def scan(package: str, root: Path = ROOT) -> dict[str, Module]:
    """Every module of ``package`` (a folder under ``root``) with its imports,
    restricted to modules of the package."""
    mods: dict[str, Module] = {}
    for path in sorted((root / package).rglob("*.py")):
        mod = Module(module_name(path, root), path)
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        _walk(tree.body, mod, path.name == "__init__.py", in_def=False, typing=False)
        mods[mod.name] = mod
    for mod in mods.values():
        found: dict[str, set[str]] = {"imports": set(), "typing": set(), "local": set()}
        for where, targets in mod.statements:
            found[where] |= _resolve(targets, mods)
        mod.imports = found["imports"] - {mod.name}
        mod.typing_only = found["typing"] - mod.imports - {mod.name}
        mod.local_targets = found["local"] - {mod.name}
    return mods


def circles(
    mods: dict[str, Module], *, hoisted: bool = False, typing: bool = False
) -> list[list[str]]:
    """Strongly connected components of the module-level import graph with
    more than one member (Tarjan's algorithm, iterative); with ``hoisted``,
    function-local imports count as edges too (the circles they hide); with
    ``typing``, imports under ``TYPE_CHECKING`` too (circles of types)."""
    edges = {
        name: sorted(
            m.imports
            | (m.local_targets if hoisted else set())
            | (m.typing_only if typing else set())
        )
        for name, m in mods.items()
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for start in sorted(mods):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(edges[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(edges[nxt])))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp: list[str] = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


class ImportFigures(TypedDict):
    """What :func:`report` finds in a package."""

    package: str
    modules: int
    function_local_imports: int
    local_imports: list[str]  # "path:line target"
    circles: int
    circle_members: list[list[str]]
    circles_with_local_imports: int
    hidden_circle_members: list[list[str]]
    circles_with_typing_imports: int
    typed_circle_members: list[list[str]]


def report(package: str, root: Path = ROOT) -> ImportFigures:
    mods = scan(package, root)
    local = [
        f"{m.path.relative_to(root)}:{line} {target}"
        for m in mods.values()
        for line, target in m.local
    ]
    found = circles(mods)
    hidden = circles(mods, hoisted=True)
    typed = circles(mods, hoisted=True, typing=True)
    return {
        "package": package,
        "modules": len(mods),
        "function_local_imports": len(local),
        "local_imports": local,
        "circles": len(found),
        "circle_members": found,
        "circles_with_local_imports": len(hidden),
        "hidden_circle_members": hidden,
        "circles_with_typing_imports": len(typed),
        "typed_circle_members": typed,
    }


def _options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--package", default="judge_games")


def _show(figures: Figures) -> None:
    out = cast(ImportFigures, figures)  # the figures report() made
    print(f"{out['package']}: {out['modules']} modules")
    print(f"function-local imports: {out['function_local_imports']}")
    for line in out["local_imports"]:
        print(f"  {line}")
    print(f"import circles: {out['circles']}")
    for comp in out["circle_members"]:
        print("  " + " <-> ".join(comp))
    print(f"import circles, function-local imports counted: {out['circles_with_local_imports']}")
    for comp in out["hidden_circle_members"]:
        print("  " + " <-> ".join(comp))
    print(f"... and TYPE_CHECKING imports counted too: {out['circles_with_typing_imports']}")
    for comp in out["typed_circle_members"]:
        print("  " + " <-> ".join(comp))


def main(argv: list[str] | None = None) -> int:
    return report_main(argv, __doc__, _options, lambda args: report(args.package), _show)


if __name__ == "__main__":
    sys.exit(main())

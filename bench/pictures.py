"""Benchmark: the cost of a map picture (time to draw, PNG size) for each
game that draws one, on the known positions of tests/pictures (the Diplomacy
maps, Three Kingdoms, Conflict of Alliances, Conquest Tactics), and
Kingdom Wars' tables; Conquest Tactics also as North reads its field.

    python bench/pictures.py [--stages] [--rounds N]

Reports, per case, the mean and worst time (and the mean CPU time) of a
drawing from its view (the picture caches emptied before each: the scene
built, rendered and reduced to a palette PNG; what a running judge keeps
whatever the position, a map's geometry, the renderer's fonts and the
pixels of a map's static layers, is loaded before) and the PNG's size,
against the budget of 50 ms and 150 KB on average.

Each case is also drawn the former way in the same rounds, alternated
with the present one (so both see the same load): the whole scene's SVG
rendered in one pass (``before``), against the static layers' pixels kept
and the rest rendered over them, the names that stand at their first place
laid in from a kept layer of names (``after``,
:func:`judge.pictures.rendering.composed`).
The closing lines give the mean of the cases' means before and after, in
wall and CPU time, and whether the budget holds. On a loaded machine the
wall times stretch (the load average is printed): the CPU times, and the
ratio of after to before, are what compare between runs.

``--stages`` adds, per case, the median CPU time of each stage of a
drawing: the scene built (Python: shapes and label placement), rendered
(libvips' SVG loader, librsvg: parsing, text layout, rasterising; with
layers, the runs that change rendered and laid over the kept ones, and
the stamped names laid in), the
palette chosen, every pixel mapped to it, the PNG encoded.
"""

from __future__ import annotations

import hashlib
import os
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

# The repository first, for judge and the known positions.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support.positions import GAMES, conquest_tactics, full_view, known_view, position
from judge import pictures
from judge.game import draw as by_id
from judge.pictures import rendering
from judge.pictures.scene import Scene

ROUNDS = 20
BUDGET_MS = 50.0
BUDGET_KB = 150.0
T = TypeVar("T")

#: Kingdom Wars draws a table, not a map: its known seven seats and a full twelve.
TABLES = {"kingdom_wars 7": known_view, "kingdom_wars 12": full_view}


def cases() -> list[tuple[str, str, Mapping[str, Any]]]:
    """(game, name, view) of every case measured."""
    out: list[tuple[str, str, Mapping[str, Any]]] = [
        (game_id, game_id, position(game_id)) for game_id in GAMES]
    out += [("kingdom_wars", name, make()) for name, make in TABLES.items()]
    out.append(("conquest_tactics", "conquest_tactics N", conquest_tactics("North")))
    return out


def before(game_id: str, view: Mapping[str, Any]) -> bytes:
    """The former drawing: the scene's whole SVG rendered in one pass (with
    the digests :func:`judge.game.draw.picture` keys its caches by, as the
    present drawing has them)."""
    by_id._drawn_from(game_id, view, None, "png")
    svg = by_id.scene(game_id, view).svg()
    hashlib.sha256(svg.encode("utf-8")).hexdigest()
    return rendering.png(svg)


def after(game_id: str, view: Mapping[str, Any]) -> bytes:
    """The drawing as the judge makes it (:func:`judge.game.draw.picture`)."""
    pictures._png_cache.clear()
    by_id._picture_cache.clear()
    return by_id.picture(game_id, view)


def rendered(drawn: Scene) -> Any:
    """A scene's pixels, as :meth:`Scene.png` renders them."""
    stamped = drawn.stamped()
    if not drawn.layers and stamped is None:
        return rendering.pixels(drawn.svg())
    return rendering.composed(drawn.runs(), stamped)


def stages(game_id: str, view: Mapping[str, Any], rounds: int) -> dict[str, float]:
    """Median CPU milliseconds of each stage of one drawing of ``view``."""
    spent: dict[str, list[float]] = {}

    def timed(name: str, step: Callable[[], T]) -> T:
        start = time.process_time()
        out = step()
        spent.setdefault(name, []).append((time.process_time() - start) * 1000)
        return out

    for _ in range(rounds):
        drawn = timed("scene", lambda: by_id.scene(game_id, view))
        full = timed("render", partial(rendered, drawn))
        palette = timed("palette", partial(rendering.palette_of, full))
        small = timed("map", partial(rendering.indexed, full, palette))
        timed("encode", partial(rendering.encode, small))
    return {name: statistics.median(ms) for name, ms in spent.items()}


def measure(draw: Callable[[], bytes]) -> tuple[float, float, bytes]:
    """(wall ms, CPU ms, the PNG) of one drawing."""
    start, start_cpu = time.perf_counter(), time.process_time()
    png = draw()
    return ((time.perf_counter() - start) * 1000, (time.process_time() - start_cpu) * 1000,
            png)


def main() -> None:
    args = sys.argv[1:]
    by_stage = "--stages" in args
    rounds = int(args[args.index("--rounds") + 1]) if "--rounds" in args else ROUNDS
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; {rounds} rounds,"
          " the former and the present drawing alternated")
    rows = []
    for game_id, name, view in cases():
        before(game_id, view)  # loads the map, its geometry and the fonts
        after(game_id, view)  # and keeps the static layers' pixels
        was: list[tuple[float, float]] = []
        now: list[tuple[float, float]] = []
        for i in range(rounds):
            pair = [(was, partial(before, game_id, view)), (now, partial(after, game_id, view))]
            for times, draw in pair if i % 2 else reversed(pair):
                wall, cpu, png = measure(draw)
                times.append((wall, cpu))
                if times is now:
                    size = len(png)
        row = (statistics.mean(w for w, _ in was), statistics.mean(c for _, c in was),
               statistics.mean(w for w, _ in now), statistics.mean(c for _, c in now),
               max(w for w, _ in now), size)
        rows.append(row)
        print(f"{name:21} mean {row[2]:6.1f} ms  worst {row[4]:6.1f} ms  CPU mean {row[3]:6.1f} ms"
              f"  PNG {size / 1024:6.1f} KB   before: mean {row[0]:6.1f} ms, CPU {row[1]:6.1f} ms"
              f"  (CPU x{row[3] / row[1]:.2f})")
        if by_stage:
            print("    CPU median: " + ", ".join(f"{stage} {ms:.1f}" for stage, ms
                                               in stages(game_id, view, rounds).items()) + " ms")
    wall_was, cpu_was, wall_now, cpu_now = (statistics.mean(r[i] for r in rows) for i in range(4))
    kb = statistics.mean(r[5] for r in rows) / 1024
    print(f"mean of the {len(rows)} means: before {wall_was:.1f} ms (CPU {cpu_was:.1f} ms),"
          f" after {wall_now:.1f} ms (CPU {cpu_now:.1f} ms): CPU x{cpu_now / cpu_was:.2f}")
    print(f"mean PNG size {kb:.1f} KB")
    verdict = [f"{what} {ms:.1f} ms {'within' if ms <= BUDGET_MS else 'OVER'}"
               for what, ms in (("wall", wall_now), ("CPU", cpu_now))]
    print(f"budget {BUDGET_MS:.0f} ms and {BUDGET_KB:.0f} KB a picture on average: "
          + ", ".join(verdict) + f", PNG {kb:.1f} KB "
          + ("within" if kb <= BUDGET_KB else "OVER"))


if __name__ == "__main__":
    main()

"""Benchmark: the cost of a map picture (time to draw, PNG size) for each
game that draws one, on the known positions of tests/pictures (the Diplomacy
maps, Three Kingdoms, Conflict of Alliances, Conquest Tactics), and
Kingdom Wars' tables; Conquest Tactics also as North reads its field.

    python bench/pictures.py [--stages]

Reports, per game, the mean and worst time (and the mean CPU time) of a
drawing from its view (the picture caches emptied before each: the scene
built, its SVG rendered and reduced to a palette PNG; what a running judge
keeps whatever the position, a map's geometry and the renderer's fonts, is
loaded before) and the PNG's size, against the budget of 50 ms and 150 KB
on average. ``--stages`` adds, per game, the median CPU time of each stage
of a drawing: the scene built (Python: shapes and label placement), its
SVG rendered by libvips (librsvg: parsing, text layout, rasterising), the
palette chosen, every pixel mapped to it, the PNG encoded.
"""

from __future__ import annotations

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
from judge.pictures import rendering

ROUNDS = 20
T = TypeVar("T")

#: Kingdom Wars draws a table, not a map: its known seven seats and a full twelve.
TABLES = {"kingdom_wars 7": known_view, "kingdom_wars 12": full_view}


def stages(game_id: str, view: Mapping[str, Any]) -> dict[str, float]:
    """Median CPU milliseconds of each stage of one drawing of ``view``."""
    spent: dict[str, list[float]] = {}

    def timed(name: str, step: Callable[[], T]) -> T:
        start = time.process_time()
        out = step()
        spent.setdefault(name, []).append((time.process_time() - start) * 1000)
        return out

    for _ in range(ROUNDS):
        drawn = timed("scene", lambda: pictures.scene(game_id, view))
        svg = timed("svg", drawn.svg)
        full = timed("render", partial(rendering.pixels, svg))
        palette = timed("palette", partial(rendering.palette_of, full))
        small = timed("map", partial(rendering.indexed, full, palette))
        timed("encode", partial(rendering.encode, small))
    return {name: statistics.median(ms) for name, ms in spent.items()}


def main() -> None:
    by_stage = "--stages" in sys.argv[1:]
    sizes = []
    cases = [(game_id, game_id, position(game_id)) for game_id in GAMES]
    cases += [("kingdom_wars", name, make()) for name, make in TABLES.items()]
    cases.append(("conquest_tactics", "conquest_tactics N", conquest_tactics("North")))
    for game_id, name, view in cases:
        pictures.picture(game_id, view)  # loads the map, its geometry and the fonts
        times, cpu = [], []
        for _ in range(ROUNDS):
            pictures._png_cache.clear()
            pictures._picture_cache.clear()
            start, start_cpu = time.perf_counter(), time.process_time()
            png = pictures.picture(game_id, view)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
        sizes.append(len(png))
        print(f"{name:22} mean {statistics.mean(times):6.1f} ms  worst {max(times):6.1f} ms"
              f"  CPU mean {statistics.mean(cpu):6.1f} ms  PNG {len(png) / 1024:6.1f} KB")
        if by_stage:
            print("    CPU median: " + ", ".join(f"{name} {ms:.1f}"
                                               for name, ms in stages(game_id, view).items())
                  + " ms")
    print(f"mean PNG size {statistics.mean(sizes) / 1024:.1f} KB (budget: 50 ms, 150 KB)")


if __name__ == "__main__":
    main()

"""Region geometry on real coastlines, from Natural Earth's land (public
domain) as the geopandas 0.14 wheel ships it (``naturalearth_lowres``, the
1:110m countries).

``python tools/geography.py GAME`` reads ``judge_games/GAME/places.yaml``
(a projection, the picture's window on it, and the points each province grows
from), and writes beside it:

* ``coast.yaml``: Natural Earth's land in the picture's pixels (what the
  regions are tested against);
* ``geometry.yaml``: the regions. The picture is cut into a grid of cells;
  each cell is land or water as the land's outline says. A river space
  (``rivers`` in places.yaml: its course through places on its banks) is its
  course, ``river_width`` pixels wide, cut out of the land. The seas grow
  first from their points over the water, then the land provinces over the
  land, nearest first (a shortest-path race inside the water or the land),
  and a cell goes to a province only if none of the eight cells around it
  belongs to a province it has no border with in ``map.yaml``. Land no
  province may take is impassable (``_void``); water no sea reaches (the
  Caspian, the China seas of an all-land map) is water of no province
  (``_lake``). The outlines between provinces are traced along the grid,
  each stretch between two meeting points once, straightened
  (Douglas-Peucker, less along a river) and smoothed (Chaikin), so two
  regions share exactly the same points where they meet;
* ``xy`` of ``map.yaml`` (``x``, ``y`` for Three Kingdoms): each province's
  first point (a river's, moved onto its course), and its coasts'.

It says which borders of the map did not come out as a shared edge (add
points or list the border under ``crossings``); on a map with rivers, a land
border across a river is a crossing of it without being listed. This is a tool for the
project's maintainers: it needs the optional ``geo`` dependencies (``pip
install -e '.[geo]'``); the judge itself reads only the files it writes.
"""

from __future__ import annotations

import heapq
import itertools
import math
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parent.parent
Point = tuple[float, float]
VOID = "_void"
LAKE = "_lake"
EDGE = "_edge"  # beyond the grid


# ---------------------------------------------------------------- the data
def land_outline() -> Any:
    """Natural Earth 1:110m land: the union of the countries of geopandas'
    ``naturalearth_lowres``."""
    import warnings

    import geopandas  # type: ignore[import-untyped]
    import shapely  # type: ignore[import-untyped]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        path = geopandas.datasets.get_path("naturalearth_lowres")
    frame = geopandas.read_file(path)
    return shapely.union_all(frame.geometry.values)


class Window:
    """Longitude and latitude to the picture's pixels."""

    def __init__(self, places: dict[str, Any], size: tuple[int, int]) -> None:
        import pyproj

        self.tr = pyproj.Transformer.from_crs("EPSG:4326", places["projection"], always_xy=True)
        cx, cy = self.tr.transform(*places["centre"])
        self.cx, self.cy = float(cx), float(cy)
        self.k = float(places["km_per_px"])
        self.w, self.h = size

    def __call__(self, lon: float, lat: float) -> Point:
        x, y = self.tr.transform(lon, lat)
        return ((x - self.cx) / self.k + self.w / 2, (self.cy - y) / self.k + self.h / 2)

    def geometry(self, geom: Any) -> Any:
        import shapely

        def f(coords: np.ndarray) -> np.ndarray:
            x, y = self.tr.transform(coords[:, 0], coords[:, 1])
            return np.column_stack([(np.asarray(x) - self.cx) / self.k + self.w / 2,
                                    (self.cy - np.asarray(y)) / self.k + self.h / 2])

        return shapely.transform(geom, f)


# ---------------------------------------------------------------- growing
NEIGHBOURS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
STEPS = NEIGHBOURS


def grow(land: np.ndarray, seeds: dict[str, list[tuple[int, int]]], sea: set[str],
         borders: set[tuple[str, str]], impassable: list[tuple[int, int]],
         fixed: frozenset[str] = frozenset()) -> np.ndarray:
    """Label every cell (index into the returned names list; see :func:`label`)."""
    names = sorted(seeds)
    index = {n: i for i, n in enumerate(names)}
    n_void = len(names)
    rows, cols = land.shape
    labels = np.full(land.shape, -1, dtype=np.int32)
    ok = np.zeros((n_void + 1, n_void + 1), dtype=bool)
    for a, b in borders:
        if a in index and b in index:
            ok[index[a], index[b]] = ok[index[b], index[a]] = True
    for i in range(n_void + 1):
        ok[i, i] = True
        ok[i, n_void] = ok[n_void, i] = True  # impassable land borders anything
    is_sea = [n in sea for n in names] + [False]
    land_l = cast(list[list[bool]], land.tolist())
    lab_l = cast(list[list[int]], labels.tolist())
    ok_l = cast(list[list[bool]], ok.tolist())

    still = {index[n] for n in fixed}

    def race(heap: list[tuple[float, int, int, int]]) -> None:
        heapq.heapify(heap)
        while heap:
            d, who, r, c = heapq.heappop(heap)
            if lab_l[r][c] != -1:
                continue
            if land_l[r][c] == is_sea[who]:
                continue  # a sea on land or a land province in the water
            row_ok = ok_l[who]
            clash = False
            for dr, dc in NEIGHBOURS:
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols:
                    other = lab_l[rr][cc]
                    if other >= 0 and not row_ok[other]:
                        clash = True
                        break
            if clash:
                continue
            lab_l[r][c] = who
            if who in still:
                continue  # a river is its course, and does not spread
            for dr, dc in STEPS:
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols and lab_l[rr][cc] == -1:
                    heapq.heappush(heap, (d + (1.4142 if dr and dc else 1.0), who, rr, cc))

    # the seas first, then the land along their coasts
    race([(0.0, index[n], r, c) for n, cells in seeds.items() if n in sea for r, c in cells])
    race([(0.0, index[n], r, c) for n, cells in seeds.items() if n not in sea for r, c in cells]
         + [(0.0, n_void, r, c) for r, c in impassable])
    return np.array(lab_l, dtype=np.int32)


# ---------------------------------------------------------------- tracing
def trace(grid: list[list[str]], step: float, origin: Point, tol: float, rounds: int,
          fine: frozenset[str] = frozenset()) -> dict[str, list[list[Point]]]:
    """The outline rings of each name of a grid of names. The outlines are cut
    into stretches between the corners where three names meet (or two meet
    corner to corner); each stretch is straightened once and used by the names
    on both its sides, so neighbours share its points exactly."""
    rows, cols = len(grid), len(grid[0])

    def at(r: int, c: int) -> str:
        return grid[r][c] if 0 <= r < rows and 0 <= c < cols else EDGE

    # directed edges between grid corners (row, column), each with the name on
    # its right: every boundary edge twice, once for the name on each side
    nxt: dict[Corner, list[Corner]] = {}
    owner: dict[Edge, str] = {}

    def add(p: Corner, q: Corner, name: str) -> None:
        nxt.setdefault(p, []).append(q)
        owner[(p, q)] = name

    for r in range(-1, rows):
        for c in range(-1, cols):
            a = at(r, c)
            b = at(r + 1, c)  # the cell below
            if a != b and c >= 0:
                add((r + 1, c + 1), (r + 1, c), a)
                add((r + 1, c), (r + 1, c + 1), b)
            b = at(r, c + 1)  # the cell to the right
            if a != b and r >= 0:
                add((r, c + 1), (r + 1, c + 1), a)
                add((r + 1, c + 1), (r, c + 1), b)

    def node(p: Corner) -> bool:
        i, j = p
        nw, ne, sw, se = at(i - 1, j - 1), at(i - 1, j), at(i, j - 1), at(i, j)
        return len({nw, ne, sw, se}) >= 3 or (nw == se != ne)

    def follow(e: Edge) -> Edge:
        """The edge continuing ``e`` past a corner that is no node."""
        p, q = e
        name, other = owner[e], owner[(q, p)]
        for x in nxt[q]:
            if owner[(q, x)] == name and owner[(x, q)] == other:
                return (q, x)
        raise AssertionError(f"the outline breaks at {q}")

    # stretches: their points, keyed by their first grid edge; and their last edge
    stretch: dict[Edge, list[Point]] = {}
    last: dict[Edge, Edge] = {}
    done: set[Edge] = set()

    def walk(e: Edge) -> None:
        corners = [e[0], e[1]]
        edges = [e]
        while not node(corners[-1]) and corners[-1] != corners[0]:
            e = follow(e)
            edges.append(e)
            corners.append(e[1])
        sides = {owner[edges[0]], owner[(edges[0][1], edges[0][0])]}
        # a river's banks are straightened less: it is only a few cells wide
        pts = simplify([(origin[0] + j * step, origin[1] + i * step) for i, j in corners],
                       min(tol, 0.8 * step) if sides & fine else tol)
        if EDGE not in sides:
            pts = smooth(pts, rounds)  # (the frame's straight edge is left as it is)
        back = (corners[-1], corners[-2])
        stretch[edges[0]] = pts
        last[edges[0]] = edges[-1]
        stretch[back] = list(reversed(pts))
        last[back] = (edges[0][1], edges[0][0])
        for a, b in edges:
            done.add((a, b))
            done.add((b, a))

    for e in sorted(owner):
        if e not in done and node(e[0]):
            walk(e)
    for e in sorted(owner):  # closed outlines with no node (an island of one name)
        if e not in done:
            walk(e)
    starts: dict[tuple[str, Corner], list[Edge]] = {}
    for e in sorted(stretch):
        starts.setdefault((owner[e], e[0]), []).append(e)
    rings: dict[str, list[list[Point]]] = {}
    used: set[Edge] = set()
    for e in sorted(stretch):
        name = owner[e]
        if name == EDGE or e in used:
            continue
        ring: list[Point] = []
        cur = e
        while cur not in used:
            used.add(cur)
            ring.extend(stretch[cur][:-1])
            end = last[cur][1]
            options = [x for x in starts.get((name, end), []) if x not in used]
            if not options:
                break
            cur = options[0]
        if len(ring) >= 3:
            rings.setdefault(name, []).append(ring)
    return rings


Corner = tuple[int, int]
Edge = tuple[Corner, Corner]


def smooth(pts: Sequence[Point], rounds: int = 2) -> list[Point]:
    """Chaikin's corner cutting, ends kept, to 0.1 px."""
    out = list(pts)
    for _ in range(rounds):
        if len(out) < 3:
            break
        new = [out[0]]
        for (x1, y1), (x2, y2) in itertools.pairwise(out):
            new += [(0.75 * x1 + 0.25 * x2, 0.75 * y1 + 0.25 * y2),
                    (0.25 * x1 + 0.75 * x2, 0.25 * y1 + 0.75 * y2)]
        new[1] = out[0]
        new[-1] = out[-1]
        out = new[1:]
    rounded = [(round(x, 1), round(y, 1)) for x, y in out]
    return [p for i, p in enumerate(rounded) if i == 0 or p != rounded[i - 1]]


def simplify(pts: Sequence[Point], tol: float) -> list[Point]:
    """Douglas-Peucker within ``tol`` pixels, ends kept."""
    if len(pts) <= 2:
        return list(pts)
    if pts[0] == pts[-1]:  # a closed stretch: keep a far point too
        far = max(range(len(pts)), key=lambda i: math.dist(pts[0], pts[i]))
        return simplify(pts[:far + 1], tol)[:-1] + simplify(pts[far:], tol)
    keep = [False] * len(pts)
    keep[0] = keep[-1] = True
    stack = [(0, len(pts) - 1)]
    while stack:
        i, j = stack.pop()
        (x1, y1), (x2, y2) = pts[i], pts[j]
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1.0
        best, worst = -1.0, -1
        for k in range(i + 1, j):
            d = abs(dy * (pts[k][0] - x1) - dx * (pts[k][1] - y1)) / length
            if d > best:
                best, worst = d, k
        if best > tol:
            keep[worst] = True
            stack += [(i, worst), (worst, j)]
    return [p for p, k in zip(pts, keep, strict=True) if k]


# ---------------------------------------------------------------- the files
def write_xy(map_path: Path, points: dict[str, Point]) -> None:
    """Rewrite the ``xy`` of each province (and coast) in map.yaml, or its
    ``x`` and ``y`` (Three Kingdoms), nothing else."""
    lines = map_path.read_text("utf-8").split("\n")
    prov = None
    for i, line in enumerate(lines):
        m = re.match(r"^  (\d+):\s+\{.*\bx: -?[\d.]+,\s*y: -?[\d.]+", line)
        if m and m.group(1) in points:
            x, y = points[m.group(1)]
            lines[i] = re.sub(r"\bx: -?[\d.]+,\s*y: -?[\d.]+",
                              f"x: {round(x)}, y: {round(y)}", line)
            continue
        m = re.match(r"^  ([A-Za-z][A-Za-z0-9]*):", line)
        if m:
            prov = m.group(1)
        c = re.match(r"^\s+(\w+): \{xy:", line)
        loc = f"{prov}/{c.group(1)}" if c and prov else prov
        if loc in points and "xy: [" in line:
            x, y = points[loc]
            lines[i] = re.sub(r"xy: \[[^\]]*\]", f"xy: [{round(x)}, {round(y)}]", line, count=1)
    map_path.write_text("\n".join(lines), "utf-8")


def borders_of(raw: dict[str, Any]) -> set[tuple[str, str]]:
    """The map's borders: a Diplomacy map's army and fleet lists, or a list
    of ``adjacent`` pairs (Three Kingdoms)."""
    out: set[tuple[str, str]] = set()
    for a, b in raw.get("adjacent") or []:
        x, y = str(a), str(b)
        out.add((x, y) if x <= y else (y, x))
    for pid, p in raw["provinces"].items():
        lists = [p.get("army") or [], p.get("fleet") or []]
        lists += [c.get("fleet") or [] for c in (p.get("coasts") or {}).values()]
        for names in lists:
            for other in names:
                o = other.split("/")[0]
                out.add((pid, o) if pid <= o else (o, pid))
    return out


def rings_text(rings: Iterable[Sequence[Point]]) -> str:
    return "[" + ", ".join("[" + ", ".join(f"[{_num(x)}, {_num(y)}]" for x, y in ring) + "]"
                           for ring in rings) + "]"


def _num(v: float) -> str:
    return f"{v:.1f}".removesuffix(".0")


def main(argv: Sequence[str]) -> int:
    import shapely

    game = argv[0]
    folder = ROOT / "judge_games" / game
    places = yaml.safe_load((folder / "places.yaml").read_text("utf-8"))
    raw = yaml.safe_load((folder / "map.yaml").read_text("utf-8"))
    w, h = raw.get("size") or (raw["width"], raw["height"])
    win = Window(places, (int(w), int(h)))
    step = float(places["cell"])
    margin = float(places["margin"])
    x0, y0 = -margin, -margin
    cols = math.ceil((w + 2 * margin) / step)
    rows = math.ceil((h + 2 * margin) / step)
    box = shapely.box(x0 - 50, y0 - 50, x0 + cols * step + 50, y0 + rows * step + 50)
    lons, lats = places["lonlat_box"][:2], places["lonlat_box"][2:]
    near = shapely.box(lons[0], lats[0], lons[1], lats[1])
    land = shapely.make_valid(win.geometry(land_outline().intersection(near))).intersection(box)
    land = shapely.simplify(land, 0.5)
    xs = x0 + (np.arange(cols) + 0.5) * step
    ys = y0 + (np.arange(rows) + 0.5) * step
    gx, gy = np.meshgrid(xs, ys)
    mask = shapely.contains_xy(land, gx, gy)
    # rivers: each river space's course, river_width pixels wide, is water and that space's
    courses: dict[str, Any] = {}
    river_cells: dict[str, list[tuple[int, int]]] = {}
    for key, pts in (places.get("rivers") or {}).items():
        line = shapely.LineString([win(float(lon), float(lat)) for lon, lat in pts])
        # a river ends at the coast (a cell or so into the sea, to meet it)
        on_land = line.intersection(land.buffer(1.5 * step))
        if on_land.geom_type == "MultiLineString":
            on_land = max(on_land.geoms, key=lambda g: g.length)
        if on_land.geom_type == "LineString" and not on_land.is_empty:
            line = on_land
        courses[str(key)] = line
        width = float(places.get("river_width", 2 * step))
        inside = shapely.contains_xy(line.buffer(width / 2, cap_style="flat"), gx, gy)
        river_cells[str(key)] = [(int(r), int(c)) for r, c in zip(*np.nonzero(inside), strict=True)]
        mask &= ~inside

    def cell(p: Point) -> tuple[int, int]:
        return (min(rows - 1, max(0, int((p[1] - y0) // step))),
                min(cols - 1, max(0, int((p[0] - x0) // step))))

    sea = {str(pid) for pid, p in raw["provinces"].items() if p.get("type") == "sea"}
    crossings = {tuple(sorted(c)) for c in places.get("crossings") or []}
    borders = borders_of(raw)
    seeds: dict[str, list[tuple[int, int]]] = {}
    points: dict[str, Point] = {}
    for key, pts in places["provinces"].items():
        pid = str(key)
        xy = [win(float(lon), float(lat)) for lon, lat in pts]
        if pid in courses:  # a river's fleet stands on its course
            on = courses[pid].interpolate(courses[pid].project(shapely.Point(xy[0])))
            xy = [(float(on.x), float(on.y))]
        points[pid] = xy[0]
        seeds[pid] = [cell(p) for p in xy] + river_cells.get(pid, [])
        for p, (lon, lat) in zip(xy, pts, strict=True):
            r, c = cell(p)
            if bool(mask[r, c]) == (pid in sea):
                print(f"warning: {pid}'s point {lon}, {lat} is on the wrong side of the coast")
    for loc, (lon, lat) in (places.get("coasts") or {}).items():
        points[loc] = win(float(lon), float(lat))
    missing = {str(k) for k in raw["provinces"]} - set(seeds)
    if missing:
        raise SystemExit(f"no points for {sorted(missing)}")
    impassable = [cell(win(float(lon), float(lat))) for lon, lat in places.get("impassable") or []]
    labels = grow(mask, seeds, sea, borders, impassable, frozenset(courses))
    names = sorted(seeds)
    grid = [[names[v] if 0 <= v < len(names) else (VOID if v == len(names) else
                                                   (VOID if mask[r, c] else LAKE))
             for c, v in enumerate(row)] for r, row in enumerate(labels.tolist())]
    # which borders came out as cells side by side
    met: set[tuple[str, str]] = set()
    for r in range(rows):
        for c in range(cols):
            a = grid[r][c]
            below = grid[r + 1][c] if r + 1 < rows else a
            right = grid[r][c + 1] if c + 1 < cols else a
            for b in (below, right):
                if a != b:
                    met.add((a, b) if a <= b else (b, a))
    if courses:  # a land border across a river is drawn as a crossing of it
        crossings |= {b for b in borders if b not in met and not set(b) & sea}
    lost = sorted(b for b in borders if b not in met and b not in crossings)
    for a, b in lost:
        print(f"the border {a}-{b} is not drawn: add points, or list it under crossings")
    unplaced = int((labels < 0).sum())
    print(f"{game}: {rows}x{cols} cells, {unplaced} of no province")
    rings = trace(grid, step, (x0, y0), float(places["straighten"]), int(places["smooth"]),
                  frozenset(courses))
    lines = [f"# Region geometry, written by `python tools/geography.py {game}`: "
             "do not edit by hand.",
             "# See tools/geography.py and README.md for how it is made.",
             f"size: [{w}, {h}]",
             "crossings: [" + ", ".join(f"[{a}, {b}]" for a, b in sorted(crossings)) + "]",
             "regions:"]
    for name in sorted(rings):
        lines.append(f"  {name}: {rings_text(rings[name])}")
    (folder / "geometry.yaml").write_text("\n".join(lines) + "\n", "utf-8")
    # the land, for the tests: only what lies in the picture's window
    polys = [g for g in getattr(land, "geoms", [land]) if not g.is_empty]
    coast = ["# Natural Earth 1:110m land (public domain), in this picture's pixels: written by",
             f"# `python tools/geography.py {game}` from geopandas 0.14's naturalearth_lowres.",
             "land:"]
    for g in polys:
        g = shapely.simplify(g, 0.5)
        if g.area < 4:
            continue
        rs = [list(g.exterior.coords)[:-1]] + [list(i.coords)[:-1] for i in g.interiors]
        coast.append(f"  - {rings_text(rs)}")
    (folder / "coast.yaml").write_text("\n".join(coast) + "\n", "utf-8")
    write_xy(folder / "map.yaml", points)
    return 1 if lost else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

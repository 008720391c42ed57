"""The picture of a Conflict of Alliances game, drawn from a view.

The printed map is not available, so the drawing is ours: each area's city
stands on a point of ``layout.yaml``, and the areas' regions
(``geometry.yaml``) are built from those points and the borders of
``map.yaml`` by :mod:`judge.pictures.layout` (``python
tools/layout.py conflict_of_alliances``): two regions share an edge
exactly where the map has a border, drawn by its kind (a normal border a
thin line, a mountain border a thick brown one, a waterway a thick blue one
with a small arrowhead pointing downstream).

Each area is tinted in the colour of the force whose control marker is in
its city (the marker itself: a square in that colour on the city), with its
name and its resource points (a red disc for 2, a black one for 1). Every
stack of counters is a label in its force's colour: the force, its ready
armies and its tired ones, then its generals (a tired one marked so); the
city's garrison first, the field forces below it. An operation in progress
is drawn as an arrow along its path. A panel on the right gives the turn,
the initiative, each side's resource points against the target, the
diplomacy track with every counter on it, the eliminated forces and each
side's cards as counts (hand, deck) and face-up discards by name.

Only public facts are drawn: no hand, no face-down card, whatever view it
is given (a seat's view draws the same picture as the observers').
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

from judge.pictures import geometry as geo
from judge.pictures.colour import dark
from judge.pictures.layout import OUTSIDE, VOID, Plan, Point, key
from judge.pictures.scene import Scene, toward
from judge.pictures.text import text_width
from judge_games.diplomacy.picture import BORDER, VOID_FILL, blend

FOLDER = Path(__file__).parent

LAND = "#efe6cf"
SEA = "#b7d3ea"
MOUNTAIN = "#7a4a1e"
WATERWAY = "#2a7ab8"
PANEL = 320

COLOURS = {
    "qin": "#363699",
    "qi": "#e6d00b",
    "chu": "#c8372d",
    "zhao": "#99368f",
    "wei": "#2e7fc0",
    "han": "#e08a12",
    "yan": "#19804c",
    "yiqu": "#663514",
    "song": "#59b2b2",
    "shu": "#859936",
}
#: How much of its controlling force's colour an area's land takes.
TINT = 0.5
SIDE_COLOURS = {"Lianheng": "#3d3d3d", "Alliance": "#b03a2e", "Neutral": "#888888"}


class CoADrawing:
    """The drawing of the Conflict of Alliances map."""

    #: The view keys a scene reads (see judge.pictures.Drawing); a side's own
    #: hand is not drawn, only its size.
    reads = frozenset({"areas", "cards", "diplomacy", "eliminated", "initiative", "operation",
                       "phase", "rp", "scenario_name", "target", "turn", "turns"})

    folder = FOLDER

    @cached_property
    def map(self) -> dict[str, Any]:
        raw: dict[str, Any] = yaml.safe_load((self.folder / "map.yaml").read_text("utf-8"))
        return raw

    @cached_property
    def layout(self) -> dict[str, Any]:
        raw: dict[str, Any] = yaml.safe_load((self.folder / "layout.yaml").read_text("utf-8"))
        return raw

    @cached_property
    def forces(self) -> dict[str, Any]:
        raw: dict[str, Any] = yaml.safe_load((self.folder / "forces.yaml").read_text("utf-8"))
        return raw

    @cached_property
    def card_names(self) -> dict[str, str]:
        """A card's id (either deck) -> its printed name."""
        raw = yaml.safe_load((self.folder / "cards.yaml").read_text("utf-8"))
        return {cid: str(c.get("name", cid)) for deck in raw.values() for cid, c in deck.items()}

    @property
    def geometry_path(self) -> Path:
        return self.folder / "geometry.yaml"

    @cached_property
    def geometry(self) -> geo.Geometry:
        return geo.load(self.geometry_path)

    def areas(self) -> list[str]:
        return list(self.map["areas"])

    def borders(self) -> dict[tuple[str, str], tuple[str, str | None]]:
        """Every border of the map: (a, b) sorted -> (kind, downstream area)."""
        out: dict[tuple[str, str], tuple[str, str | None]] = {}
        for entry in self.map["borders"]:
            extra = entry[3] if len(entry) > 3 else {}
            out[key(entry[0], entry[1])] = (str(entry[2]), extra.get("downstream"))
        return out

    def where(self, area: str) -> Point:
        x, y = self.layout["points"][area]
        return (float(x), float(y))

    def plan(self) -> Plan:
        """The cities' points and the borders, shortest first, with the bends
        of ``layout.yaml``."""
        points = {a: self.where(a) for a in self.areas()}
        borders = sorted(self.borders(), key=lambda b: geo.distance(points[b[0]], points[b[1]]))
        waypoints = {(w["between"][0], w["between"][1]): [(float(x), float(y)) for x, y in w["via"]]
                     for w in self.layout.get("waypoints") or []}
        w, h = self.layout["size"]
        return Plan(size=(int(w), int(h)), points=points, borders=borders, waypoints=waypoints)

    def shared(self, a: str, b: str) -> list[tuple[Point, Point]]:
        g = self.geometry
        return sorted(geo.edges_of(g.rings(a)) & geo.edges_of(g.rings(b)))

    # ------------------------------------------------------------------ fixed layers
    @cached_property
    def _bottom(self) -> list[tuple[str, str, tuple[Any, ...]]]:
        s = Scene(1, 1)
        g = self.geometry
        s.shape(g.rings(OUTSIDE), fill=SEA)
        for a in self.areas():
            s.shape(g.rings(a), fill=LAND, region=a)
        s.shape(g.rings(VOID), fill=VOID_FILL)
        return s.items

    @cached_property
    def _top(self) -> list[tuple[str, str, tuple[Any, ...]]]:
        s = Scene(1, 1)
        g = self.geometry
        for a in self.areas():
            s.shape(g.rings(a), fill="none", stroke=BORDER, width=1.2)
        s.shape(g.rings(VOID), fill="none", stroke=BORDER, width=1.2)
        for (a, b), (kind, down) in sorted(self.borders().items()):
            if kind == "normal":
                continue
            edges = self.shared(a, b)
            colour = MOUNTAIN if kind == "mountain" else WATERWAY
            for e0, e1 in edges:
                s.line([e0, e1], colour, 5.0 if kind == "mountain" else 6.0,
                       dash="7 3" if kind == "mountain" else None)
            if kind == "waterway" and down and edges:
                # the stream: an arrowhead across the middle of the border, downstream
                up = b if down == a else a
                mid = edges[len(edges) // 2]
                m = toward(mid[0], mid[1], 0.5)
                pu, pd = self.where(up), self.where(down)
                s.arrow([_shift(m, pu, pd, -14), _shift(m, pu, pd, 14)], WATERWAY, 3.0, head=10)
        for a, info in self.map["areas"].items():
            x, y = self.where(a)
            s.text((x, y - 26), str(info["name"]), size=14, fill="#222222", halo="#ffffff",
                   bold=True)
            rp = int(info["rp"])
            s.circle((x + 26, y), 9, fill="#c0392b" if rp == 2 else "#111111", stroke="#ffffff",
                     width=1.5)
            s.text((x + 26, y), str(rp), size=11, fill="#ffffff", bold=True)
        return s.items

    # ------------------------------------------------------------------ the scene
    def name(self, force: str) -> str:
        return str(self.forces["forces"].get(force, {}).get("name", force))

    def general(self, g: str) -> str:
        return str(self.forces["generals"].get(g, {}).get("name", g))

    def scene(self, view: Mapping[str, Any], results: Sequence[Mapping[str, Any]]) -> Scene:
        w, h = self.layout["size"]
        s = Scene(int(w) + PANEL, int(h), background=SEA)
        s.layer(self._bottom)
        g = self.geometry
        areas = {str(a["id"]): a for a in view.get("areas") or []}
        for a, info in sorted(areas.items()):
            if a in self.map["areas"] and info.get("city"):
                city = str(info["city"])
                tint = blend(COLOURS.get(city, "#888888"), LAND, TINT)
                s.shape(g.rings(a), fill=tint)
        op = view.get("operation")
        if op:  # under the names and borders, which stay legible
            self._operation(s, op)
        s.layer(self._top)
        for a, info in sorted(areas.items()):
            if a in self.map["areas"]:
                self._area(s, a, info)
        if op:
            self._moving(s, op)
        self._panel(s, view, float(w))
        return s

    def _operation(self, s: Scene, op: Mapping[str, Any]) -> None:
        path = [str(op.get("from") or "")] + [str(p) for p in op.get("path") or []]
        pts = [self.where(p) for p in path if p in self.map["areas"]]
        colour = COLOURS.get(str(op.get("force")), "#555555")
        if len(pts) >= 2:
            s.arrow(pts, "#000000", 7.0, head=19, shorten=24)
            s.arrow(pts, colour, 4.5, head=16, shorten=26)
        battle = op.get("battle")
        if battle and battle.get("area") in self.map["areas"]:
            x, y = self.where(str(battle["area"]))
            s.circle((x, y), 17, fill="none", stroke="#d00000", width=3.5)

    def _moving(self, s: Scene, op: Mapping[str, Any]) -> None:
        """The counters on the move, beside the end of the operation's arrow."""
        path = [str(op.get("from") or "")] + [str(p) for p in op.get("path") or []]
        pts = [self.where(p) for p in path if p in self.map["areas"]]
        moving = op.get("moving") or {}
        if not pts or not (moving.get("armies") or moving.get("generals")):
            return
        at = toward(pts[-1], pts[-2], 0.45) if len(pts) >= 2 else (pts[0][0], pts[0][1] - 50)
        self._stack(s, at, {"force": op.get("force"), "place": "moving",
                            "ready": moving.get("armies", 0), "tired": 0,
                            "generals": [{"id": g, "ready": True}
                                         for g in moving.get("generals") or []]})

    def _area(self, s: Scene, a: str, info: Mapping[str, Any]) -> None:
        x, y = self.where(a)
        city = info.get("city")
        if city:
            colour = COLOURS.get(str(city), "#888888")
            s.rect(x - 9, y - 9, 18, 18, fill=colour, stroke="#000000", width=2.0)
        else:
            s.rect(x - 9, y - 9, 18, 18, fill="#ffffff", stroke="#000000", width=2.0)
        yy = y + 24
        for st in info.get("stacks") or []:
            yy = self._stack(s, (x, yy), st)

    def _stack(self, s: Scene, at: Point, st: Mapping[str, Any]) -> float:
        """One stack's label centred at ``at``; returns where the next one goes."""
        force = str(st["force"])
        colour = COLOURS.get(force, "#888888")
        ink = "#ffffff" if dark(colour) else "#000000"
        text = f"{self.name(force)} {st.get('ready', 0)}"
        if st.get("tired"):
            text += f" +{st['tired']} tired"
        if st.get("place") == "field":
            text += " (field)"
        elif st.get("place") == "moving":
            text += " moving"
        gens = [self.general(str(gg["id"])) + ("" if gg.get("ready") else " (tired)")
                for gg in st.get("generals") or []]
        width = max([text_width(text, 12, True), *(text_width(t, 11.5) for t in gens)]) + 12
        width = max(width, 40.0)
        height = 19.0 + 16.0 * len(gens)
        x, y = at
        # kept whole inside the map's frame (an area by the edge)
        right = float(self.layout["size"][0])
        x = min(max(x, width / 2 + 3), right - width / 2 - 3)
        s.rect(x - width / 2, y - 9.5, width, height, fill=colour, stroke="#000000", width=1.2,
               rx=3)
        s.text((x, y), text, size=12, fill=ink, bold=True)
        for i, t in enumerate(gens):
            s.text((x, y + 16 * (i + 1)), t, size=11.5, fill=ink)
        return y + height + 4

    def _panel(self, s: Scene, view: Mapping[str, Any], x0: float) -> None:
        s.rect(x0, 0, PANEL, s.height, fill="#ffffff", stroke="#555555", width=1)
        x = x0 + 14
        s.text((x, 22), str(view.get("scenario_name") or "Conflict of Alliances"), size=15,
               anchor="start", bold=True)
        s.text((x, 42), f"Turn {view.get('turn')} of {view.get('turns')}", size=13,
               anchor="start")
        s.text((x, 60), str(view.get("phase") or ""), size=11.5, anchor="start")
        ini = view.get("initiative") or {}
        s.text((x, 80), f"Initiative: {ini.get('side')}"
               + (" (switched)" if ini.get("switched") else ""), size=12, anchor="start")
        rp = view.get("rp") or {}
        s.text((x, 100), f"RP: Lianheng {rp.get('Lianheng')}, Alliance {rp.get('Alliance')}",
               size=12, anchor="start")
        s.text((x, 118), f"Qin {rp.get('Qin')}, target {view.get('target')}", size=12,
               anchor="start")
        # the diplomacy track: one row per position, the counters on it
        y = 146.0
        s.text((x, y), "Diplomacy track", size=13, anchor="start", bold=True)
        y += 20
        on: dict[int, list[Mapping[str, Any]]] = {}
        for d in view.get("diplomacy") or []:
            if d.get("position") is not None:
                on.setdefault(int(d["position"]), []).append(d)
        for i, space in enumerate(self.forces["track"]):
            faction = str(space["faction"])
            s.rect(x, y - 10, PANEL - 28, 22, fill=blend(SIDE_COLOURS[faction], "#ffffff", 0.15),
                   stroke="#999999", width=1)
            s.text((x + 6, y + 1), str(space["name"]), size=11.5, anchor="start")
            cx = x + 104
            for d in on.get(i, []):
                force = str(d["force"])
                label = self.name(force) + ("*" if d.get("stance") == "Revenge Qin" else "")
                wdt = 8.0 * len(label) + 8
                colour = COLOURS.get(force, "#888888")
                s.rect(cx, y - 8, wdt, 18, fill=colour, stroke="#000000", width=1, rx=3)
                s.text((cx + wdt / 2, y + 1), label, size=11,
                       fill="#ffffff" if dark(colour) else "#000000", bold=True)
                cx += wdt + 4
            y += 24
        s.text((x, y), "* Revenge Qin (not received)", size=11, anchor="start", italic=True)
        y += 22
        gone = [self.name(str(f)) for f in view.get("eliminated") or []]
        if gone:
            s.text((x, y), "Eliminated: " + ", ".join(gone), size=12, anchor="start")
            y += 22
        s.text((x, y), "Cards", size=13, anchor="start", bold=True)
        y += 20
        for side, c in (view.get("cards") or {}).items():
            discards = list(c.get("discard") or [])
            down = sum(1 for d in discards if not d.get("face_up"))
            s.text((x, y), f"{side}: hand {c.get('hand')}, deck {c.get('deck')}, "
                   f"{down} face down", size=12, anchor="start")
            y += 17
            up = [self.card_names.get(str(d["card"]), str(d["card"])) for d in discards
                  if d.get("face_up") and d.get("card")]
            line = "face up: " + (", ".join(up[-4:]) if up else "none")
            if len(up) > 4:
                line = f"face up ({len(up)}): ..., " + ", ".join(up[-3:])
            s.text((x + 10, y), line, size=11, anchor="start")
            y += 21
        y += 6
        s.text((x, y), "Borders", size=13, anchor="start", bold=True)
        for i, (label, colour, dash) in enumerate((("mountain", MOUNTAIN, "7 3"),
                                                   ("waterway", WATERWAY, None))):
            s.line([(x + 110 * i, y + 20), (x + 110 * i + 34, y + 20)], colour, 5.0, dash=dash)
            s.text((x + 110 * i + 40, y + 20), label, size=11.5, anchor="start")


def _shift(m: Point, up: Point, down: Point, d: float) -> Point:
    """``m`` moved ``d`` along the direction from ``up`` to ``down``."""
    dx, dy = down[0] - up[0], down[1] - up[1]
    n = (dx * dx + dy * dy) ** 0.5 or 1.0
    return (m[0] + dx / n * d, m[1] + dy / n * d)


DRAWING = CoADrawing()

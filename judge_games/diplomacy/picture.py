"""Pictures of a Diplomacy-family position (classic, Warring States).

Drawn from the map file (province types, centres, where units stand) and the
region geometry beside it (``geometry.yaml``: written by
``tools/geography.py`` on the real coastline from the map's
``places.yaml``, as classic and Warring States have). A view gives
the units, dislodged units, centre owners and the last phase's orders with
their results; the last phase is drawn over the position:

* a move: an arrow from where the unit stood to where it went (red cross on
  it when it failed: bounced, void, no convoy);
* a support: a dashed line from the supporter to the middle of the
  supported move (or to the unit it holds), crossed when cut or void;
* a convoy: a dotted line from the fleet to the middle of the convoyed move;
* a retreat: an orange arrow; a disband or removal: a cross on the unit;
  a build: a ring around the new unit;
* a dislodged unit: drawn beside its province, ringed in red, with dotted
  lines to where it may retreat.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

from judge.pictures import geometry as geo
from judge.pictures.colour import dark
from judge.pictures.labels import Label, place
from judge.pictures.layout import LAKE, OUTSIDE, VOID, Point, key
from judge.pictures.scene import Scene, toward

LAND = "#efe6cf"
SEA = "#a9cbe8"
RIVER = "#7fb2de"
VOID_FILL = "#b9b4aa"
OUTSIDE_FILL = "#c9dcec"
BORDER = "#5a5246"
WALL = "#7a3b12"
FAILED = "#d00000"
RETREAT = "#ff8c00"

FAILED_CODES = {"bounce", "void", "no convoy", "cut", "disband"}


def blend(colour: str, base: str, t: float) -> str:
    """``colour`` mixed into ``base`` by ``t`` (0: base, 1: colour)."""
    c = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(base[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(bb + (cc - bb) * t):02x}" for cc, bb in zip(c, b, strict=True))


class DiplomacyDrawing:
    """The drawing of one Diplomacy-family map (folder with map.yaml)."""

    #: The view keys a scene reads: the board is public, so every power's
    #: report of a phase shares one picture (see judge.pictures.Drawing).
    reads = frozenset({"centres", "dislodged", "last", "phase", "phase_title", "powers", "units"})

    def __init__(self, folder: Path, colours: Mapping[str, str], *, label_size: float = 13.0,
                 unit_size: float = 13.0) -> None:
        self.folder = folder
        self.colours = dict(colours)
        self.label_size = label_size
        self.unit_size = unit_size

    # ------------------------------------------------------------------ data
    @cached_property
    def map(self) -> dict[str, Any]:
        raw: dict[str, Any] = yaml.safe_load((self.folder / "map.yaml").read_text("utf-8"))
        return raw

    @property
    def geometry_path(self) -> Path:
        return self.folder / "geometry.yaml"

    @cached_property
    def geometry(self) -> geo.Geometry:
        return geo.load(self.geometry_path)

    def borders(self) -> list[tuple[str, str]]:
        """Every border of the map (army or fleet, coasts folded into provinces)."""
        out: set[tuple[str, str]] = set()
        for pid, p in self.map["provinces"].items():
            lists = [p.get("army") or [], p.get("fleet") or []]
            lists += [c.get("fleet") or [] for c in (p.get("coasts") or {}).values()]
            for names in lists:
                for other in names:
                    out.add(key(pid, other.split("/")[0]))
        return sorted(out)

    def water(self) -> set[str]:
        return {pid for pid, p in self.map["provinces"].items() if p["type"] == "sea"}

    def walls(self) -> list[tuple[str, str, str]]:
        """(province whose wall it is, the two provinces of its border)."""
        out = []
        for b in self.map.get("borders") or []:
            x, y = b["between"]
            for tag in b.get("tags") or []:
                if tag.startswith("wall:"):
                    out.append((tag.split(":", 1)[1], x, y))
        return out

    # ------------------------------------------------------------------ layers
    def where(self, loc: str) -> Point:
        """Where a unit at ``loc`` (``Spa/nc`` or ``Spa``) is drawn."""
        prov, _, coast = loc.partition("/")
        p = self._province(prov)
        if coast and p.get("coasts") and coast in p["coasts"] and p["coasts"][coast].get("xy"):
            x, y = p["coasts"][coast]["xy"]
        else:
            x, y = p["xy"]
        return (float(x), float(y))

    def _province(self, name: str) -> dict[str, Any]:
        provs: dict[str, Any] = self.map["provinces"]
        if name in provs:
            p: dict[str, Any] = provs[name]
            return p
        for pid, p in provs.items():
            if pid.lower() == name.lower():
                found: dict[str, Any] = p
                return found
        raise KeyError(name)

    def _id(self, name: str) -> str:
        provs = self.map["provinces"]
        if name in provs:
            return name
        return next((pid for pid in provs if pid.lower() == name.lower()), name)

    @cached_property
    def _bottom(self) -> list[tuple[str, str, tuple[Any, ...]]]:
        s = Scene(1, 1)
        g = self.geometry
        s.shape(g.rings(OUTSIDE), fill=OUTSIDE_FILL)
        for pid, p in self.map["provinces"].items():
            fill = (RIVER if p.get("river") else SEA) if p["type"] == "sea" else LAND
            s.shape(g.rings(pid), fill=fill, region=pid)
        s.shape(g.rings(VOID), fill=VOID_FILL)
        s.shape(g.rings(LAKE), fill=SEA)
        return s.items

    @cached_property
    def _top(self) -> list[tuple[str, str, tuple[Any, ...]]]:
        s = Scene(1, 1)
        g = self.geometry
        for pid in self.map["provinces"]:
            s.shape(g.rings(pid), fill="none", stroke=BORDER, width=1.2)
        s.shape(g.rings(VOID), fill="none", stroke=BORDER, width=1.2)
        for _owner, x, y in self.walls():
            for e0, e1 in self._shared(x, y):
                s.line([e0, e1], WALL, 5.0, dash="6 3")
        for a, b in sorted(g.crossings):
            pa, pb = self.where(a), self.where(b)
            s.line([toward(pa, pb, 0.3), toward(pa, pb, 0.7)], BORDER, 1.5,
                   dash="2 4")
        for pid, p in self.map["provinces"].items():
            cx, cy = self.where(pid)
            if p.get("centre"):
                s.circle((cx + 17, cy + 15), 5.5, fill="#ffffff", stroke="#000000", width=1.5)
                s.circle((cx + 17, cy + 15), 2.2, fill="#000000")
        return s.items

    def _labels(self) -> list[Label]:
        """The provinces' names, placed on each scene clear of its units and
        orders (:mod:`judge.pictures.labels`)."""
        out = []
        for pid, p in self.map["provinces"].items():
            sea = p["type"] == "sea"
            out.append(Label(self.where(pid), pid, self.label_size,
                             fill="#1d3557" if sea else "#222222", italic=sea,
                             region=self.geometry.rings(pid), beside=self.unit_size + 1))
        return out

    def _shared(self, a: str, b: str) -> list[tuple[Point, Point]]:
        g = self.geometry
        return sorted(geo.edges_of(g.rings(a)) & geo.edges_of(g.rings(b)))

    def _unit(self, s: Scene, kind: str, at: Point, colour: str, ring: str | None = None) -> None:
        r = self.unit_size
        if ring:
            s.circle(at, r + 5, fill="none", stroke=ring, width=3.5)
        if kind.upper() == "F":
            s.rect(at[0] - r, at[1] - r * 0.75, 2 * r, 1.5 * r, fill=colour, stroke="#000000",
                   width=1.5, rx=4)
        else:
            s.circle(at, r, fill=colour, stroke="#000000", width=1.5)
        ink = "#ffffff" if dark(colour) else "#000000"
        s.text(at, kind.upper(), size=r * 1.1, fill=ink, bold=True)

    # ------------------------------------------------------------------ the scene
    def scene(self, view: Mapping[str, Any], results: Sequence[Mapping[str, Any]]) -> Scene:
        w, h = self.map["size"]
        s = Scene(int(w), int(h), background=OUTSIDE_FILL)
        s.layer(self._bottom)
        g = self.geometry
        for power, centres in sorted((view.get("centres") or {}).items()):
            colour = self.colours.get(power, "#888888")
            for c in centres:
                s.shape(g.rings(self._id(c)), fill=blend(colour, LAND, 0.45))
        s.layer(self._top)
        last = view.get("last") or {}
        entries = list(last.get("entries") or [])
        entries += [r for r in results if r.get("kind") == "result" and r not in entries]
        phase = str(last.get("phase") or "")
        self._orders(s, entries, phase)
        for power, units in sorted((view.get("units") or {}).items()):
            colour = self.colours.get(power, "#888888")
            for u in units:
                kind, _, loc = u.partition(" ")
                self._unit(s, kind, self.where(loc), colour)
        for power, units in sorted((view.get("dislodged") or {}).items()):
            colour = self.colours.get(power, "#888888")
            for u, info in sorted(units.items()):
                kind, _, loc = u.partition(" ")
                at = self.where(loc)
                beside = (at[0] + 20, at[1] - 20)
                for r in (info or {}).get("retreats") or []:
                    s.line([beside, self.where(r)], RETREAT, 2.0, dash="2 5")
                self._unit(s, kind, beside, colour, ring=FAILED)
        self._legend(s, view)
        place(s, self._labels(), (2.0, 2.0, w - 2.0, h - 2.0))
        return s

    def _legend(self, s: Scene, view: Mapping[str, Any]) -> None:
        title = str(view.get("phase_title") or view.get("phase") or "")
        rows = [(p["name"], f"{p['name']}: {p['centres']} centres, {p['units']} units")
                for p in view.get("powers") or []]
        x, y = 12.0, 12.0
        height = 26 + 20 * len(rows)
        s.rect(x, y, 290, height, fill="#ffffff", stroke="#555555", width=1, rx=4)
        s.text((x + 10, y + 14), title, size=15, anchor="start", bold=True)
        for i, (name, text) in enumerate(rows):
            yy = y + 34 + 20 * i
            s.circle((x + 18, yy), 7, fill=self.colours.get(name, "#888888"), stroke="#000000")
            s.text((x + 32, yy), text, size=13, anchor="start")

    def _orders(self, s: Scene, entries: Sequence[Mapping[str, Any]], phase: str) -> None:
        moves: dict[str, tuple[Point, Point]] = {}
        parsed = []
        for e in entries:
            order = str(e.get("order") or "")
            codes = set(e.get("results") or [])
            parsed.append((e, order, codes))
            m = _MOVE.match(order)
            if m and not phase.endswith("R"):
                moves[self._id(m["loc"].split("/")[0])] = (self.where(m["loc"]),
                                                           self.where(m["dest"]))
        for e, order, codes in parsed:
            colour = self.colours.get(str(e.get("power") or ""), "#555555")
            failed = bool(codes & FAILED_CODES)
            if (m := _SUPPORT.match(order)) or (m := _CONVOY.match(order)):
                origin = self.where(m["loc"])
                target = self.where(m["target"])
                end = toward(target, self.where(m["dest"]), 0.5) if m["dest"] else target
                dash = "8 5" if order.split()[2].upper() == "S" else "2 5"
                s.line([origin, toward(origin, end, 0.97)], colour, 3.0, dash=dash)
                s.circle(end, 5, fill="none", stroke=colour, width=2.5)
                if failed:
                    s.cross(toward(origin, end, 0.5), 12)
            elif (m := _MOVE.match(order)) or (m := _RETREAT.match(order)):
                a, b = self.where(m["loc"]), self.where(m["dest"])
                retreat = phase.endswith("R") or " R " in f" {order.upper()} "
                stroke = RETREAT if retreat else colour
                s.arrow([a, b], "#000000", 6.5, head=17, shorten=self.unit_size + 1)
                s.arrow([a, b], stroke, 4.0, head=14, shorten=self.unit_size + 3)
                if failed:
                    s.cross(toward(a, b, 0.55), 14)
            elif (m := _BUILD.match(order)):
                s.circle(self.where(m["loc"]), self.unit_size + 6, fill="none", stroke="#1a9850",
                         width=3.5)
            elif (m := _REMOVE.match(order)) or (m := _DISBAND.match(order)):
                s.cross(self.where(m["loc"]), 30)
            elif not order and e.get("kind") == "dislodged":
                unit = str(e.get("unit") or "")
                loc = unit.partition(" ")[2]
                if loc:
                    s.cross((self.where(loc)[0] + 20, self.where(loc)[1] - 20), 26)


_LOC = r"[A-Za-z][A-Za-z0-9]*(?:/[a-z]{2})?"
_MOVE = re.compile(rf"^[AF] (?P<loc>{_LOC})(?: - {_LOC})* - (?P<dest>{_LOC})(?: via convoy)?$")
_SUPPORT = re.compile(rf"^[AF] (?P<loc>{_LOC}) S [AF] (?P<target>{_LOC})(?: - (?P<dest>{_LOC}))?$")
_CONVOY = re.compile(rf"^[AF] (?P<loc>{_LOC}) C [AF] (?P<target>{_LOC})(?: - (?P<dest>{_LOC}))?$")
_RETREAT = re.compile(rf"^[AF] (?P<loc>{_LOC}) R (?P<dest>{_LOC})$")
_BUILD = re.compile(rf"^Build [AF] (?P<loc>{_LOC})$")
_REMOVE = re.compile(rf"^Remove [AF] (?P<loc>{_LOC})$")
_DISBAND = re.compile(rf"^[AF] (?P<loc>{_LOC}) D$")

"""The picture of a Three Kingdoms game, drawn from a view.

The map is ours (``map.yaml``: a point per province and the borders, no
seas); its regions (``geometry.yaml``) are the real land of China partitioned
by ``tools/geography.py`` from the places of ``places.yaml`` (see README.md),
so two regions share an edge exactly where the map has a border, and the sea
(``_lake``: water of no province) is drawn as water. Each kingdom's land has
a faint tint of its own and a thick line round it; a centre a player owns is
filled in the player's colour.

Pieces are drawn in their owner's colour: an army as a square (``A``), a
militia as a circle (``M``, ringed when marked by optional rule 2), a leader
as a diamond (``L``); several pieces in a province stand side by side. The
last campaign's orders (``view["last"]``) are drawn over the position: moves
as arrows, supports as dashed lines to the middle of the supported move (or
to the piece they hold), a red cross on a bounced or void move and on a cut
or void support; dislodged pieces stand beside their province ringed in red,
with dotted lines to where they may retreat; once they have, dashed orange
arrows show the retreats (a red cross on two that met in one province, and where a
militia was disbanded). A panel on the right lists the
players (character, kingdom, centres, units, capital) and their statuses.
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
from judge_games.diplomacy.picture import BORDER, FAILED, LAND, RETREAT, SEA, VOID_FILL, blend

FOLDER = Path(__file__).parent

#: The faint tint of each kingdom's land (no kingdom: the middle lands).
TINTS = {"Wei": "#e4e7ee", "Shu": "#e3ecd9", "Wu": "#f1e2da", None: LAND}
#: The colours of a kingdom's first and second character.
COLOURS = {
    "Wei": ("#2f4fb3", "#0bbae6"),
    "Shu": ("#59b274", "#e68e0b"),
    "Wu": ("#c8372d", "#056666"),
}
KINGDOM_LINE = "#3b3026"
PANEL = 290
UNIT = 11.0

_PIECE = r"(?P<kind>[LAM])(?P<at>\d+)"
_MOVE = re.compile(rf"^{_PIECE}->(?P<to>\d+)$")
_SUPPORT = re.compile(rf"^{_PIECE} S (?P<tkind>[LAM])(?P<tat>\d+)(?:->(?P<to>\d+))?(?: D)?$")
_DESTROY = re.compile(rf"^{_PIECE} DESTROY$")


class ThreeKingdomsDrawing:
    """The drawing of the Three Kingdoms map (``map.yaml`` and ``geometry.yaml``)."""

    #: The view keys a scene reads (see judge.pictures.Drawing).
    reads = frozenset({"dislodged", "last", "owner", "phase", "pieces", "players", "status"})

    folder = FOLDER

    @cached_property
    def map(self) -> dict[str, Any]:
        raw: dict[str, Any] = yaml.safe_load((self.folder / "map.yaml").read_text("utf-8"))
        return raw

    @cached_property
    def provinces(self) -> dict[str, dict[str, Any]]:
        """Province number (as text: the geometry's region names) -> its entry."""
        return {str(n): p for n, p in self.map["provinces"].items()}

    @property
    def geometry_path(self) -> Path:
        return self.folder / "geometry.yaml"

    @cached_property
    def geometry(self) -> geo.Geometry:
        return geo.load(self.geometry_path)

    def borders(self) -> list[tuple[str, str]]:
        """Every border of the map, as pairs of province numbers (text)."""
        return sorted({key(str(a), str(b)) for a, b in self.map["adjacent"]})

    def where(self, n: str | int) -> Point:
        p = self.provinces[str(n)]
        return (float(p["x"]), float(p["y"]))

    # ------------------------------------------------------------------ fixed layers
    def _kingdom(self, n: str) -> str | None:
        k = self.provinces[n]["kingdom"]
        return None if k == "none" else str(k)

    @cached_property
    def _bottom(self) -> list[tuple[str, str, tuple[Any, ...]]]:
        s = Scene(1, 1)
        g = self.geometry
        s.shape(g.rings(OUTSIDE), fill=LAND)
        for n in self.provinces:
            s.shape(g.rings(n), fill=TINTS[self._kingdom(n)], region=n)
        s.shape(g.rings(VOID), fill=VOID_FILL)
        s.shape(g.rings(LAKE), fill=SEA)
        return s.items

    @cached_property
    def _top(self) -> list[tuple[str, str, tuple[Any, ...]]]:
        s = Scene(1, 1)
        g = self.geometry
        for n in self.provinces:
            s.shape(g.rings(n), fill="none", stroke=BORDER, width=1.2)
        s.shape(g.rings(VOID), fill="none", stroke=BORDER, width=1.2)
        # the kingdoms' frontiers: shared edges of provinces of two kingdoms
        edges = {n: geo.edges_of(g.rings(n)) for n in self.provinces}
        for a, b in self.borders():
            if self._kingdom(a) != self._kingdom(b):
                for e0, e1 in sorted(edges[a] & edges[b]):
                    s.line([e0, e1], KINGDOM_LINE, 3.5)
        for n, p in self.provinces.items():
            x, y = self.where(n)
            if p["centre"]:
                s.circle((x - 24, y - 14), 5.5, fill="#ffffff", stroke="#000000", width=1.5)
                s.circle((x - 24, y - 14), 2.2, fill="#000000")
        return s.items

    @cached_property
    def _labels(self) -> list[Label]:
        """The provinces' numbers and names, placed on each scene clear of
        its pieces and orders (:mod:`judge.pictures.labels`)."""
        return [Label(self.where(n), f"{n} {p['name']}", 12.0, region=self.geometry.rings(n),
                      beside=UNIT + 2) for n, p in self.provinces.items()]

    # ------------------------------------------------------------------ pieces
    def _piece(self, s: Scene, kind: str, at: Point, colour: str, *, ring: str | None = None,
               marked: bool = False) -> None:
        r = UNIT
        x, y = at
        if ring:
            s.circle(at, r + 5, fill="none", stroke=ring, width=3.5)
        if marked:
            s.circle(at, r + 4, fill="none", stroke="#000000", width=1.5)
        if kind == "A":
            s.rect(x - r, y - r, 2 * r, 2 * r, fill=colour, stroke="#000000", width=1.5, rx=3)
        elif kind == "M":
            s.circle(at, r * 0.85, fill=colour, stroke="#000000", width=1.5)
        else:
            d = r * 1.2
            s.shape([[(x, y - d), (x + d, y), (x, y + d), (x - d, y)]], fill=colour,
                    stroke="#000000", width=1.5)
        ink = "#ffffff" if dark(colour) else "#000000"
        s.text(at, kind, size=r * (1.0 if kind == "A" else 0.9), fill=ink, bold=True)

    @staticmethod
    def _spots(centre: Point, count: int) -> list[Point]:
        """Where ``count`` pieces in one province stand, side by side."""
        step = 2 * UNIT + 4
        x0 = centre[0] - step * (count - 1) / 2
        return [(x0 + step * i, centre[1]) for i in range(count)]

    # ------------------------------------------------------------------ the scene
    def colours(self, view: Mapping[str, Any]) -> dict[str, str]:
        """role -> colour: by the character's kingdom, first or second of it."""
        out: dict[str, str] = {}
        seen: dict[str, int] = {}
        for p in view.get("players") or []:
            k = str(p.get("kingdom"))
            i = seen.get(k, 0)
            seen[k] = i + 1
            pair = COLOURS.get(k, ("#888888", "#bbbbbb"))
            out[str(p["role"])] = pair[min(i, 1)]
        return out

    def scene(self, view: Mapping[str, Any], results: Sequence[Mapping[str, Any]]) -> Scene:
        w, h = int(self.map["width"]), int(self.map["height"])
        s = Scene(w + PANEL, h, background=LAND)
        s.layer(self._bottom)
        colours = self.colours(view)
        g = self.geometry
        for n, role in sorted((view.get("owner") or {}).items()):
            if str(n) in self.provinces:
                base = TINTS[self._kingdom(str(n))]
                s.shape(g.rings(str(n)), fill=blend(colours.get(str(role), "#888888"), base, 0.45))
        s.layer(self._top)
        capitals = {str(p["capital"]) for p in view.get("players") or [] if p.get("capital")}
        for n in sorted(capitals & set(self.provinces)):
            x, y = self.where(n)
            s.circle((x - 24, y - 14), 9, fill="none", stroke="#000000", width=2.0)
        last = view.get("last") or {}
        entries = list(last.get("entries") or [])
        self._orders(s, entries, colours)
        self._retreats(s, last.get("retreats") or [])
        by_place: dict[str, list[Mapping[str, Any]]] = {}
        for p in view.get("pieces") or []:
            by_place.setdefault(str(p["at"]), []).append(p)
        for n, pieces in sorted(by_place.items()):
            if n not in self.provinces:
                continue
            for spot, p in zip(self._spots(self.where(n), len(pieces)), pieces, strict=True):
                self._piece(s, str(p["kind"]), spot, colours.get(str(p["owner"]), "#888888"),
                            marked=bool(p.get("marked")))
        for group in view.get("dislodged") or []:
            n = str(group["at"])
            if n not in self.provinces:
                continue
            beside = self._beside(n)
            for o in group.get("options") or []:
                if str(o) in self.provinces:
                    s.line([beside, self.where(o)], RETREAT, 2.0, dash="2 5")
            pieces = list(group.get("pieces") or [])
            for spot, p in zip(self._spots(beside, len(pieces)), pieces, strict=True):
                self._piece(s, str(p["kind"]), spot, colours.get(str(p["owner"]), "#888888"),
                            ring=FAILED)
        self._panel(s, view, colours, w)
        place(s, self._labels, (2.0, 2.0, w - 2.0, h - 2.0))
        return s

    def _beside(self, n: str) -> Point:
        """Where pieces dislodged from province ``n`` stand (beside its point)."""
        x, y = self.where(n)
        return (x + 22, y - 24)

    def _retreats(self, s: Scene, retreats: Sequence[Mapping[str, Any]]) -> None:
        # The retreat phase after the campaign: each retreat a dashed orange
        # arrow (dashed, apart from every player's solid arrows) from where the
        # piece stood dislodged; a red cross where two retreats into one
        # province destroyed each other, and on the spot of a piece disbanded.
        for r in retreats:
            at, to = str(r["from"]), r["to"]
            if at not in self.provinces:
                continue
            beside = self._beside(at)
            if to is None:
                s.cross(beside, 12)
                continue
            end = self.where(str(to))
            s.arrow([beside, end], RETREAT, 3.0, head=12, dash="6 4", shorten=UNIT + 2)
            if r["result"] == "destroyed":
                s.cross(toward(beside, end, 0.55), 12)

    def _orders(self, s: Scene, entries: Sequence[Mapping[str, Any]],
                colours: Mapping[str, str]) -> None:
        for e in entries:
            order = str(e.get("order") or "").removesuffix(" (no order)")
            codes = {str(c).split(" ")[0] for c in e.get("results") or []}
            colour = colours.get(str(e.get("player")), "#555555")
            if (m := _MOVE.match(order)) and m["to"] in self.provinces:
                a, b = self.where(m["at"]), self.where(m["to"])
                s.arrow([a, b], "#000000", 6.5, head=17, shorten=UNIT + 2)
                s.arrow([a, b], colour, 4.0, head=14, shorten=UNIT + 4)
                if codes & {"bounced", "void"} and "moves" not in codes:
                    s.cross(toward(a, b, 0.55), 14)
            elif (m := _SUPPORT.match(order)) and m["tat"] in self.provinces:
                origin = self.where(m["at"])
                target = self.where(m["tat"])
                end = toward(target, self.where(m["to"]), 0.5) if m["to"] else target
                s.line([origin, toward(origin, end, 0.97)], colour, 3.0, dash="8 5")
                s.circle(end, 5, fill="none", stroke=colour, width=2.5)
                if codes & {"cut", "void"}:
                    s.cross(toward(origin, end, 0.5), 12)
            elif (m := _DESTROY.match(order)) and m["at"] in self.provinces:
                x, y = self.where(m["at"])
                s.circle((x - 24, y - 14), 12, fill="none", stroke=FAILED, width=3.0)

    def _panel(self, s: Scene, view: Mapping[str, Any], colours: Mapping[str, str],
               x0: float) -> None:
        h = s.height
        s.rect(x0, 0, PANEL, h, fill="#ffffff", stroke="#555555", width=1)
        x = x0 + 14
        title = str(view.get("phase") or "")
        s.text((x, 22), "Three Kingdoms", size=15, anchor="start", bold=True)
        s.text((x, 42), title, size=13, anchor="start")
        y = 72.0
        for p in view.get("players") or []:
            role = str(p["role"])
            s.circle((x + 8, y), 8, fill=colours.get(role, "#888888"), stroke="#000000")
            s.text((x + 22, y - 1), f"{role}: {p.get('character')}", size=13, anchor="start",
                   bold=True)
            capital = p.get("capital")
            line = (f"{p.get('kingdom')}, {p.get('centres')} centres, {p.get('units')} units"
                    + (f", capital {capital}" if capital else ""))
            if not p.get("leader"):
                line += ", no leader"
            s.text((x + 22, y + 17), line, size=11.5, anchor="start")
            y += 44
        status = view.get("status") or []
        if status:
            y += 6
            s.text((x, y), "Statuses", size=13, anchor="start", bold=True)
            y += 20
            shown = [st for st in status if st.get("status") != "neutral"]
            for st in shown:
                s.text((x, y), f"{st['a']} - {st['b']}: {st['status']}", size=11.5,
                       anchor="start")
                y += 16
            s.text((x, y), "all others neutral" if shown else "all neutral", size=11.5,
                   anchor="start", italic=True)
            y += 16
        y += 14
        s.text((x, y), "Pieces", size=13, anchor="start", bold=True)
        for i, (kind, label) in enumerate((("A", "army"), ("M", "militia"), ("L", "leader"))):
            self._piece(s, kind, (x + 12 + 88 * i, y + 26), "#dddddd")
            s.text((x + 28 + 88 * i, y + 26), label, size=11.5, anchor="start")
        y += 50
        s.circle((x + 8, y), 5.5, fill="#ffffff", stroke="#000000", width=1.5)
        s.circle((x + 8, y), 2.2, fill="#000000")
        s.text((x + 22, y), "support centre", size=11.5, anchor="start")
        s.circle((x + 130, y), 5.5, fill="#ffffff", stroke="#000000", width=1.5)
        s.circle((x + 130, y), 9, fill="none", stroke="#000000", width=2.0)
        s.text((x + 144, y), "capital", size=11.5, anchor="start")


DRAWING = ThreeKingdomsDrawing()

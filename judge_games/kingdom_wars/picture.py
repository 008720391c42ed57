"""The picture of a Kingdom Wars table: the seats around the table in turn
order, as one seat (or an observer) may see them.

Drawn only from a view (:func:`judge_games.kingdom_wars.views.view`), so it shows
nothing the reader may not know. Each seat is a panel:

* a header in its kingdom's colour (Wei blue, Shu red, Wu green, Neutral
  grey; an Ambitionist purple, named as such; a seat with no exposed
  general light grey, "no kingdom"), with its seat letter, and chips for
  the current turn and the reader's own seat;
* health as pips and as "3/4", the number of hand cards, the attack range;
* the Main and Supporting Generals: exposed ones by name, hidden ones as
  "hidden" (the reader's own, and any it has viewed, by name and marked
  "hidden");
* the equipment zone and the judgement zone, card by card;
* chips for "in Chains", "Stacked" and the markers (Pioneer, Yin-Yang,
  Perfect Pair);
* for a living reader, the distance from it to each living seat, in green
  when the seat is within the reader's attack range (also a badge in the
  header corner).

Eliminated seats are greyed. Play goes counter-clockwise ("the Starting
Player, followed by other players in a counter clockwise direction"), so the
seats run counter-clockwise from the bottom, the reader's own seat (seat A
for an observer) at the bottom; arrows between panels show the turn order.
The middle of the table says the round, the phase, the deck, the discard
deck's top cards and the processing area.

Seats stand on the outer cells of a grid (3 by 3 for 4 to 8 seats, up to
4 by 4 for 12), so every panel keeps the same size and no two overlap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from judge.pictures.scene import Scene
from judge.pictures.text import fit, text_width, wrap

KINGDOM_COLOURS = {"Wei": "#2f5db8", "Shu": "#c0302e", "Wu": "#2c8a43", "Neutral": "#7a7a7a"}
AMBITIONIST = "#7b3f9f"
NO_KINGDOM = "#d9d6cf"
DEAD_HEADER = "#b4b4b4"

TABLE = "#f3efe4"
PANEL = "#ffffff"
DEAD_PANEL = "#ebebeb"
INK = "#1c1c1c"
MUTED = "#6a6a6a"
DEAD_INK = "#979797"
HP_FULL = "#cf2b2b"
HP_LOST = "#ffffff"
REACH = "#1f8a3a"
OUT_OF_REACH = "#8a8a8a"
CURRENT = "#e39b00"
ARROW = "#a89c82"

#: The turn order arrows' and panels' measures, in pixels.
WIDTH = 290
GAP = 34
MARGIN = 14
HEADER = 30
ROW = 17
CHIP_ROW = 21
PAD = 7
MIN_HEIGHT = 170
TAG = 54  # the width of a row's small grey tag ("main", "equip")
SIZE = 13.0
SMALL = 11.0

#: Where the seats stand, counter-clockwise from the bottom: (column, row)
#: of the grid, per number of seats. The first is the reader's seat.
SLOTS: dict[int, tuple[tuple[float, float], ...]] = {
    4: ((1, 2), (2, 1), (1, 0), (0, 1)),
    5: ((1, 2), (2, 1.25), (1.5, 0), (0.5, 0), (0, 1.25)),
    6: ((1, 2), (2, 1.5), (2, 0.5), (1, 0), (0, 0.5), (0, 1.5)),
    7: ((1.5, 2), (3, 1.5), (3, 0.5), (2, 0), (1, 0), (0, 0.5), (0, 1.5)),
    8: ((1, 2), (2, 2), (2, 1), (2, 0), (1, 0), (0, 0), (0, 1), (0, 2)),
    9: ((1.5, 2), (3, 2), (3, 1), (3, 0), (2, 0), (1, 0), (0, 0), (0, 1), (0, 2)),
    10: ((1, 3), (2, 3), (2, 2), (2, 1), (2, 0), (1, 0), (0, 0), (0, 1), (0, 2), (0, 3)),
    11: ((1.5, 3), (3, 3), (3, 2), (3, 1), (3, 0), (2, 0), (1, 0), (0, 0), (0, 1), (0, 2),
         (0, 3)),
    12: ((1, 3), (2, 3), (3, 3), (3, 2), (3, 1), (3, 0), (2, 0), (1, 0), (0, 0), (0, 1),
         (0, 2), (0, 3)),
}

MARKERS = (("pioneer", "Pioneer"), ("yin-yang", "Yin-Yang"), ("perfect-pair", "Perfect Pair"))
SLOT_NAMES = {"main": "main", "deputy": "support"}
PHASE_NAMES = {"preparation": "Preparation", "judgement": "Judgement", "draw": "Draw",
               "play": "Play", "discard": "Discard", "final": "Final"}




@dataclass
class Chip:
    """A small rounded label: a state or a marker."""

    text: str
    fill: str
    ink: str = "#ffffff"

    @property
    def width(self) -> float:
        return text_width(self.text, SMALL, True) + 12


@dataclass
class Row:
    """One line of a seat's panel: ``kind`` is ``hp``, ``item`` (a grey tag
    and a text), ``note`` (a text) or ``chips``."""

    kind: str
    tag: str = ""
    text: str = ""
    ink: str = INK
    bold: bool = False
    right: str = ""
    hp: tuple[int, int] = (0, 0)
    chips: list[list[Chip]] = field(default_factory=list)

    @property
    def height(self) -> int:
        if self.kind == "chips":
            return CHIP_ROW * len(self.chips)
        if self.kind == "hp":
            return ROW + 3
        return ROW


@dataclass
class Panel:
    """A seat drawn: its header and rows."""

    seat: str
    alive: bool
    header: str
    kingdom: str
    colour: str
    tags: list[Chip]
    rows: list[Row]
    current: bool = False
    mine: bool = False
    badge: tuple[int, bool] | None = None  # the reader's distance, within reach

    @property
    def height(self) -> int:
        return HEADER + 2 * PAD + sum(r.height for r in self.rows)


def chip_lines(chips: Sequence[Chip], width: float) -> list[list[Chip]]:
    """``chips`` flowed into lines no wider than ``width``."""
    lines: list[list[Chip]] = []
    used = width + 1
    for c in chips:
        if lines and used + 4 + c.width <= width:
            lines[-1].append(c)
            used += 4 + c.width
        else:
            lines.append([c])
            used = c.width
    return lines


def kingdom_of(seat: Mapping[str, Any], you: Mapping[str, Any] | None) -> tuple[str, str]:
    """The kingdom label of a seat's header, and its colour."""
    kingdom = seat.get("kingdom")
    if seat.get("ambitionist"):
        return (f"Ambitionist ({kingdom})" if kingdom else "Ambitionist"), AMBITIONIST
    if kingdom:
        return str(kingdom), KINGDOM_COLOURS.get(str(kingdom), NO_KINGDOM)
    if you is not None and you.get("kingdom_of_generals"):
        return f"hidden: {you['kingdom_of_generals']}", NO_KINGDOM
    return "no kingdom", NO_KINGDOM


def general_row(g: Mapping[str, Any], mine: bool, alive: bool) -> Row:
    """The row of one General card of a seat."""
    tag = SLOT_NAMES.get(str(g.get("slot")), str(g.get("slot")))
    name = g.get("general")
    ink = INK if alive else DEAD_INK
    if g.get("exposed"):
        return Row("item", tag=tag, text=str(name), ink=ink, bold=alive)
    if name is None:
        return Row("item", tag=tag, text="hidden", ink=MUTED if alive else DEAD_INK)
    mark = "(hidden)" if mine else "(hidden, viewed)"
    return Row("item", tag=tag, text=f"{name} {mark}", ink=MUTED if alive else DEAD_INK)


def panel(view: Mapping[str, Any], seat: Mapping[str, Any]) -> Panel:
    """The panel of one seat of ``view``."""
    r = str(seat["seat"])
    role = view.get("role")
    mine = role == r
    alive = bool(seat.get("alive", True))
    you = view.get("you") if mine else None
    current = view.get("current") == r and view.get("stage") == "play"
    tags: list[Chip] = []
    if current:
        tags.append(Chip("turn", CURRENT))
    if mine:
        tags.append(Chip("you", "#111111"))
    if view.get("stage") == "generals":
        return Panel(r, True, r, "choosing generals", NO_KINGDOM, tags,
                     [Row("note", text="choosing generals", ink=MUTED)], mine=mine)
    kingdom, colour = kingdom_of(seat, you)
    winner = r in (view.get("winners") or [])
    if winner:
        tags.insert(0, Chip("winner", "#b8860b"))
    rows: list[Row] = []
    if alive:
        rows.append(Row("hp", hp=(int(seat.get("hp", 0)), int(seat.get("max_hp", 0))),
                        right=f"hand {seat.get('hand', 0)}"))
    else:
        kingdom, colour = f"eliminated · {kingdom}", DEAD_HEADER
        if seat.get("hand"):
            rows.append(Row("note", text=f"hand {seat['hand']}", ink=DEAD_INK))
    rows += [general_row(g, mine, alive) for g in seat.get("generals", [])]
    badge = None
    if alive:
        reach = f"attack range {seat.get('attack_range', 0)}"
        if mine:
            rows.append(Row("note", text=f"your {reach}", ink=INK))
        elif "distance" in seat:
            d, within = int(seat["distance"]), bool(seat.get("within_reach"))
            badge = (d, within)
            rows.append(Row("note", text=f"distance {d} · {'in' if within else 'out of'} range",
                            ink=REACH if within else OUT_OF_REACH, bold=within,
                            right=f"range {seat.get('attack_range', 0)}"))
        else:
            rows.append(Row("note", text=reach, ink=MUTED))
    ink = INK if alive else DEAD_INK
    rows += [Row("item", tag="equip", text=str(e), ink=ink) for e in seat.get("equip", [])]
    for j in seat.get("judge", []):
        card, as_ = str(j.get("card", "")), str(j.get("as", ""))
        text = card if card.startswith(as_ + " ") else f"{as_} ({card})"
        rows.append(Row("item", tag="judge", text=text, ink=ink))
    chips: list[Chip] = []
    if seat.get("chained"):
        chips.append(Chip("in Chains", "#8a5a14" if alive else DEAD_INK))
    if seat.get("stacked"):
        chips.append(Chip("Stacked", "#404040" if alive else DEAD_INK))
    markers = seat.get("markers") or {}
    for key, name in MARKERS:
        n = int(markers.get(key, 0))
        if n:
            chips.append(Chip(f"{name} ×{n}" if n > 1 else name, "#5e6b7a" if alive else DEAD_INK))
    if chips:
        rows.append(Row("chips", chips=chip_lines(chips, WIDTH - 2 * PAD)))
    return Panel(r, alive, r, kingdom, colour, tags, rows, current=current, mine=mine,
                 badge=badge)


@dataclass(frozen=True)
class Layout:
    """Where each panel stands: top-left corners, panel size, the canvas and
    the middle of the table."""

    corners: dict[str, tuple[float, float]]
    height: int
    size: tuple[int, int]
    middle: tuple[float, float, float, float]


def layout(seats: Sequence[str], role: str | None, height: int) -> Layout:
    """The places of ``seats`` (in turn order), ``role``'s at the bottom."""
    n = len(seats)
    slots = SLOTS.get(n) or _ring(n)
    first = seats.index(role) if role in seats else 0
    cols = int(max(x for x, _ in slots)) + 1
    rows = int(max(y for _, y in slots)) + 1
    cw, ch = WIDTH + GAP, height + GAP
    corners = {}
    for i, r in enumerate(seats):
        x, y = slots[(i - first) % n]
        corners[r] = (MARGIN + x * cw, MARGIN + y * ch)
    size = (round(2 * MARGIN + (cols - 1) * cw + WIDTH),
            round(2 * MARGIN + (rows - 1) * ch + height))
    left, top = MARGIN + WIDTH + GAP / 2, MARGIN + height + GAP / 2
    middle = (left, top, size[0] - 2 * left, size[1] - 2 * top)
    return Layout(corners, height, size, middle)


def _ring(n: int) -> tuple[tuple[float, float], ...]:
    """Places for a table the rules do not allow (fewer than 4 or more than
    12 seats): a plain row, so that a damaged view still draws."""
    return tuple((float(i), 0.0) for i in range(n))


class KingdomWarsDrawing:
    """The drawing of a Kingdom Wars view."""

    def scene(self, view: Mapping[str, Any], results: Sequence[Mapping[str, Any]]) -> Scene:
        seats = [s for s in view.get("seats", []) if isinstance(s, Mapping)]
        panels = [panel(view, s) for s in seats]
        height = max([MIN_HEIGHT, *(p.height for p in panels)])
        role = view.get("role")
        where = layout([p.seat for p in panels], role if isinstance(role, str) else None, height)
        scene = Scene(where.size[0], where.size[1], background=TABLE)
        self._arrows(scene, [where.corners[p.seat] for p in panels], height)
        self._middle(scene, view, where.middle)
        for p in panels:
            self._panel(scene, p, where.corners[p.seat], height)
        return scene

    # ------------------------------------------------------------------ parts
    def _arrows(self, scene: Scene, corners: Sequence[tuple[float, float]], height: int) -> None:
        """Arrows from each panel to the next in turn order, in the gaps."""
        n = len(corners)
        if n < 2:
            return
        for i in range(n):
            (ax, ay), (bx, by) = corners[i], corners[(i + 1) % n]
            a = (ax + WIDTH / 2, ay + height / 2)
            b = (bx + WIDTH / 2, by + height / 2)
            t0 = _leave(a, b, WIDTH / 2 + 3, height / 2 + 3)
            t1 = 1 - _leave(b, a, WIDTH / 2 + 3, height / 2 + 3)
            if t1 - t0 <= 0:
                continue
            p0 = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
            p1 = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
            scene.arrow([p0, p1], ARROW, width=3.0, head=11.0)

    def _middle(self, scene: Scene, view: Mapping[str, Any],
                box: tuple[float, float, float, float]) -> None:
        """The middle of the table: round, phase, decks, who the picture is for."""
        x, y, w, h = box
        if w < 60 or h < 40:
            return
        scene.rect(x, y, w, h, "#e6dfcc", stroke="#c7bda3", width=1.0, rx=10.0)
        inner = w - 24
        lines: list[tuple[str, float, bool, str]] = []

        def add(text: str, size: float = 12.0, bold: bool = False, ink: str = INK) -> None:
            lines.extend((t, size, bold, ink) for t in wrap(text, inner, size, bold))

        add(f"Kingdom Wars · round {view.get('round', 1)}", 15.0, True)
        if view.get("stage") == "generals":
            add("The players are choosing their generals.")
        elif view.get("stage") == "over":
            winners = ", ".join(view.get("winners") or []) or "none"
            add(f"Game over · winners: {winners}", 13.0, True)
            if view.get("end"):
                add(str(view["end"]), ink=MUTED)
        else:
            current = view.get("current")
            ph = PHASE_NAMES.get(str(view.get("turn_phase")), str(view.get("turn_phase")))
            add(f"Seat {current}'s turn: {ph} Phase", 13.0, True)
        if view.get("death_match"):
            add("Death match", 13.0, True, HP_FULL)
        add(f"Deck {view.get('deck', 0)} · discard deck {view.get('discard_count', 0)}")
        top = list(view.get("discard") or [])[-3:]
        if top:
            add("Discarded last: " + ", ".join(reversed(top)), ink=MUTED)
        if view.get("processing"):
            add("Processing: " + ", ".join(view["processing"]), ink=MUTED)
        role = view.get("role")
        add(f"Seat {role}'s view" if role else "Public view", 12.0, True)
        mine = next((s for s in view.get("seats", []) if s.get("seat") == role), None)
        if mine is not None and any("distance" in s for s in view.get("seats", [])):
            add(f"Distances are from seat {role}; in range: within its attack range "
                f"({mine.get('attack_range', 0)}).", 11.0, ink=MUTED)
        add("Play goes counter-clockwise (arrows).", 11.0, ink=MUTED)
        cy = y + 12
        for text, size, bold, ink in lines:
            if cy + size > y + h - 6:
                break
            scene.text((x + 12, cy + size / 2), text, size=size, fill=ink, anchor="start",
                       bold=bold)
            cy += size + 5

    def _panel(self, scene: Scene, p: Panel, corner: tuple[float, float], height: int) -> None:
        x, y = corner
        fill = PANEL if p.alive else DEAD_PANEL
        if p.current:
            scene.rect(x - 4, y - 4, WIDTH + 8, height + 8, CURRENT, rx=11.0)
        outline = "#111111" if p.mine else "#9a9a9a"
        scene.shape([[(x, y), (x + WIDTH, y), (x + WIDTH, y + height), (x, y + height)]],
                    fill=fill, stroke=outline, width=2.5 if p.mine else 1.0,
                    region=f"seat-{p.seat}")
        scene.rect(x + 1, y + 1, WIDTH - 2, HEADER - 1, p.colour)
        light = p.colour in (NO_KINGDOM, DEAD_HEADER)
        head_ink = INK if light else "#ffffff"
        scene.text((x + PAD + 2, y + HEADER / 2), p.seat, size=18.0, fill=head_ink,
                   anchor="start", bold=True)
        right = x + WIDTH - PAD
        if p.badge is not None:
            d, within = p.badge
            c = (right - 10, y + HEADER / 2)
            scene.circle(c, 11.0, REACH if within else "#ffffff",
                         stroke="#ffffff" if within else OUT_OF_REACH, width=2.0)
            scene.text(c, str(d), size=12.0, fill="#ffffff" if within else INK, bold=True)
            right -= 26
        for chip in reversed(p.tags):
            left = right - chip.width
            scene.rect(left, y + 7, chip.width, HEADER - 14, chip.fill, stroke="#ffffff",
                       width=1.0, rx=7.0)
            scene.text((left + chip.width / 2, y + HEADER / 2), chip.text, size=SMALL,
                       fill=chip.ink, bold=True)
            right = left - 4
        kx = x + PAD + 2 + text_width(p.seat, 18.0, True) + 8
        text, size = fit(p.kingdom, right - kx - 4, 13.0, True)
        scene.text((kx, y + HEADER / 2), text, size=size, fill=head_ink, anchor="start",
                   bold=True)
        cy = y + HEADER + PAD
        for row in p.rows:
            self._row(scene, row, x + PAD, cy, WIDTH - 2 * PAD)
            cy += row.height

    def _row(self, scene: Scene, row: Row, x: float, y: float, w: float) -> None:
        mid = y + ROW / 2
        if row.kind == "hp":
            hp, top = row.hp
            mid += 1
            px = x + 6
            if top <= 10:
                for i in range(top):
                    scene.circle((px, mid), 5.5, HP_FULL if i < hp else HP_LOST,
                                 stroke="#7a1a1a", width=1.0)
                    px += 14
            scene.text((px + 2, mid), f"{hp}/{top}", size=SIZE, fill=INK, anchor="start",
                       bold=True)
        elif row.kind == "chips":
            cy = y + 2
            for line in row.chips:
                cx = x
                for chip in line:
                    scene.rect(cx, cy, chip.width, CHIP_ROW - 5, chip.fill, rx=7.0)
                    scene.text((cx + chip.width / 2, cy + (CHIP_ROW - 5) / 2), chip.text,
                               size=SMALL, fill=chip.ink, bold=True)
                    cx += chip.width + 4
                cy += CHIP_ROW
            return
        elif row.kind == "item":
            scene.text((x, mid), row.tag, size=SMALL, fill=MUTED, anchor="start")
            text, size = fit(row.text, w - TAG, SIZE, row.bold)
            scene.text((x + TAG, mid), text, size=size, fill=row.ink, anchor="start",
                       bold=row.bold)
        else:
            room = w - (text_width(row.right, 12.0) + 10 if row.right else 0)
            text, size = fit(row.text, room, 12.0, row.bold)
            scene.text((x, mid), text, size=size, fill=row.ink, anchor="start", bold=row.bold)
        if row.right:
            scene.text((x + w - text_width(row.right, 12.0), mid), row.right, size=12.0,
                       fill=MUTED, anchor="start")


def _leave(a: tuple[float, float], b: tuple[float, float], hw: float, hh: float) -> float:
    """The fraction of the way from ``a`` to ``b`` at which the segment leaves
    the box of half-width ``hw`` and half-height ``hh`` around ``a``."""
    dx, dy = abs(b[0] - a[0]), abs(b[1] - a[1])
    ts = [hw / dx if dx else 2.0, hh / dy if dy else 2.0]
    return min(ts)


DRAWING = KingdomWarsDrawing()

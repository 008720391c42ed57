"""The picture of a Conquest Tactics game: the 5x5 field as one player (or
an observer) reads it, and a side panel.

Drawn only from a view (:func:`judge_games.conquest_tactics.views.view`), so it
shows nothing the reader may not know; the view is already in the reader's
frame (``view["frame"]``: South for an observer), so the field is drawn as
the view names it: columns A-E from the left, row 1 (the reader's own edge)
at the bottom, and the picture of a seat differs from the observers' only
by that frame.

* Both Deployment Zones (each player's two rows) are tinted in their
  player's colour: South blue, North vermilion (Okabe-Ito colours, told
  apart with any colour vision).
* A base is a strip along the bottom of its space, in its owner's colour,
  with its health left over its total ("Base 7/10"); a destroyed base
  grey.
* A troop is a token in its owner's colour: a short name (the card name
  without its faction word), its level, its damage over its health (and a
  bar of health, damage dark), and small marks: ``E`` per piece of
  equipment, ``+`` for a buff, ``-`` for a debuff.
* The action being settled (``view["action"]``) is an arrow from the
  acting troop to its target (a ring round the target when no troop acts).
* The panel: turn, stage, initiative, who acts, the action, and per player
  its TP, hand and supply counts, base, Victory Conditions achieved (n of
  4) and trophies; the opponent above, the frame's player below.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from judge.pictures.scene import Scene
from judge.pictures.text import fit, text_width, wrap

SOUTH, NORTH = "South", "North"
COLOURS = {SOUTH: "#0072b2", NORTH: "#d55e00"}
TINTS = {SOUTH: "#d6e7f5", NORTH: "#fbe1d0"}
MIDDLE = "#f4f2ea"
GRID = "#8a8a8a"
INK = "#1c1c1c"
MUTED = "#5f5f5f"
DEAD = "#9a9a9a"
BACKGROUND = "#ffffff"
ARROW = "#111111"

COLUMNS = "ABCDE"
SIZE = 5
CELL = 124
LEFT = 30  # room for the row numbers
TOP = 16
BOTTOM = 30  # room for the column letters
GAP = 18
PANEL = 310
PAD = 10
TOKEN_H = 92
SMALL = 11.0
TEXT = 12.0

#: Faction words a short name leaves out.
FACTION_WORDS = {"Human", "Malice", "Kaborha"}
STAGES = {"forces": "set-up", "decks": "deck lists", "deploy": "Deployment",
          "up": "Up the Field", "mobilize": "Mobilize", "play": "Play",
          "follow": "Play (after a move)", "window": "Play (an instant)", "over": "game over"}
VERBS = {"ATTACK": "attacks", "CAST": "casts", "USE": "uses", "PLAY": "plays",
         "REDEEM": "redeems", "RECYCLE": "recycles"}




def short_name(name: str) -> str:
    """A troop's name on its token: without the faction's word."""
    words = name.split()
    if len(words) > 1 and words[0] in FACTION_WORDS:
        words = words[1:]
    return " ".join(words)


def name_lines(name: str, width: float) -> list[str]:
    """A token's name: at most three lines of ``width`` (the last cut short
    if it must be)."""
    lines = wrap(short_name(name), width, TEXT, True)
    if len(lines) > 3:
        lines = [*lines[:2], " ".join(lines[2:])]
    return [fit(t, width, TEXT, True)[0] for t in lines]


def cell_of(space: Any) -> tuple[int, int] | None:
    """(column 0-4 from the left, row 0-4 from the top) of a space as the
    view names it, or None."""
    text = str(space or "")
    if len(text) != 2 or text[0] not in COLUMNS or text[1] not in "12345":
        return None
    return COLUMNS.index(text[0]), SIZE - int(text[1])


def corner(cell: tuple[int, int]) -> tuple[float, float]:
    return LEFT + cell[0] * CELL, TOP + cell[1] * CELL


def middle(cell: tuple[int, int]) -> tuple[float, float]:
    """The middle of a token on the space ``cell``."""
    x, y = corner(cell)
    return x + CELL / 2, y + 6 + TOKEN_H / 2


def other(role: str) -> str:
    return NORTH if role == SOUTH else SOUTH


class ConquestTacticsDrawing:
    """The drawing of a Conquest Tactics view."""

    def scene(self, view: Mapping[str, Any], results: Sequence[Mapping[str, Any]]) -> Scene:
        frame = str(view.get("frame") or SOUTH)
        if frame not in COLOURS:
            frame = SOUTH
        board = SIZE * CELL
        width = LEFT + board + GAP + PANEL + PAD
        scene = Scene(width, TOP + board + BOTTOM, background=BACKGROUND)
        self._field(scene, frame)
        players = [p for p in view.get("players") or [] if isinstance(p, Mapping)]
        for p in players:
            self._base(scene, p)
        troops = [t for t in view.get("troops") or [] if isinstance(t, Mapping)]
        action = view.get("action")
        acting = self._acting(action) if isinstance(action, Mapping) else set()
        for t in troops:
            self._token(scene, t, str(t.get("at")) in acting)
        if isinstance(action, Mapping):  # over the tokens, under their text
            self._action(scene, action)
        for t in troops:
            self._troop(scene, t)
        self._panel(scene, view, frame, players, LEFT + board + GAP)
        return scene

    # ------------------------------------------------------------------ the field
    def _field(self, scene: Scene, frame: str) -> None:
        """The spaces, tinted by zone (the frame's player's two rows at the
        bottom), the grid and its letters and numbers."""
        for row in range(SIZE):
            rank = SIZE - row
            tint = TINTS[frame] if rank <= 2 else TINTS[other(frame)] if rank >= 4 else MIDDLE
            for col in range(SIZE):
                x, y = corner((col, row))
                scene.shape([[(x, y), (x + CELL, y), (x + CELL, y + CELL), (x, y + CELL)]],
                            fill=tint, stroke=GRID, width=1.0,
                            region=f"space-{COLUMNS[col]}{rank}")
        board = SIZE * CELL
        scene.rect(LEFT, TOP, board, board, "none", stroke=INK, width=2.0)
        for i in range(SIZE):
            scene.text((LEFT / 2, TOP + i * CELL + CELL / 2), str(SIZE - i), size=14.0,
                       fill=INK, bold=True)
            scene.text((LEFT + i * CELL + CELL / 2, TOP + board + BOTTOM / 2), COLUMNS[i],
                       size=14.0, fill=INK, bold=True)

    def _base(self, scene: Scene, p: Mapping[str, Any]) -> None:
        base = p.get("base")
        if not isinstance(base, Mapping):
            return
        cell = cell_of(base.get("at"))
        if cell is None:
            return
        x, y = corner(cell)
        alive = bool(base.get("alive", True))
        colour = COLOURS.get(str(p.get("role")), DEAD) if alive else DEAD
        health, damage = int(base.get("health", 0)), int(base.get("damage", 0))
        at = base.get("at")
        scene.shape([[(x + 3, y + 3), (x + CELL - 3, y + 3), (x + CELL - 3, y + CELL - 3),
                      (x + 3, y + CELL - 3)]], fill="none", stroke=colour, width=3.0,
                    region=f"base-{at}")
        top = y + TOKEN_H + 10
        scene.rect(x + 5, top, CELL - 10, CELL - 5 - (top - y), colour, rx=4.0)
        label = f"Base {health - damage}/{health}" if alive else "Base destroyed"
        scene.text((x + CELL / 2, top + (CELL - 5 - (top - y)) / 2), label, size=SMALL,
                   fill="#ffffff", bold=True)

    def _token(self, scene: Scene, t: Mapping[str, Any], acting: bool) -> None:
        """A troop's token (thick edged when it acts in, or is the target of,
        the action being settled)."""
        cell = cell_of(t.get("at"))
        if cell is None:
            return
        x0, y0 = corner(cell)
        x, y, w = x0 + 6, y0 + 6, CELL - 12
        colour = COLOURS.get(str(t.get("owner")), DEAD)
        scene.shape([[(x, y), (x + w, y), (x + w, y + TOKEN_H), (x, y + TOKEN_H)]],
                    fill=colour, stroke=INK, width=4.0 if acting else 1.0,
                    region=f"troop-{t.get('at')}")

    def _troop(self, scene: Scene, t: Mapping[str, Any]) -> None:
        """What a token says: name, level, damage/health, marks."""
        cell = cell_of(t.get("at"))
        if cell is None:
            return
        x0, y0 = corner(cell)
        x, y, w = x0 + 6, y0 + 6, CELL - 12
        lines = name_lines(str(t.get("name", "")), w - 8)
        cy = y + 10
        for line in lines:
            scene.text((x + w / 2, cy), line, size=TEXT, fill="#ffffff", bold=True)
            cy += 14
        health, damage = int(t.get("health", 0)), int(t.get("damage", 0))
        sy = y + 53
        scene.text((x + 5, sy), f"L{t.get('level', 0)}", size=SMALL, fill="#ffffff",
                   anchor="start", bold=True)
        stat = f"dmg {damage}/{health}"
        scene.text((x + w - 5 - text_width(stat, SMALL, True), sy), stat, size=SMALL,
                   fill="#ffffff", anchor="start", bold=True)
        # health: one segment per point, the damage dark
        if health > 0:
            bx, bw, by = x + 5, w - 10, y + 61
            seg = bw / health
            for i in range(health):
                fill = "#1c1c1c" if i >= health - damage else "#ffffff"
                scene.rect(bx + i * seg + 0.5, by, max(seg - 1.5, 1.0), 6, fill)
        marks = ["E"] * len(t.get("equipment") or [])
        if t.get("buff"):
            marks.append("+")
        if t.get("debuff"):
            marks.append("-")
        mx = x + 5
        for mark in marks:
            fill, ink = {"E": ("#ffffff", INK), "+": ("#ffffff", "#006d2c"),
                         "-": ("#1c1c1c", "#ffffff")}[mark]
            scene.circle((mx + 8, y + 80), 8.0, fill, stroke=INK, width=1.0)
            scene.text((mx + 8, y + 80), "−" if mark == "-" else mark, size=SMALL, fill=ink,
                       bold=True)
            mx += 19

    @staticmethod
    def _acting(a: Mapping[str, Any]) -> set[str]:
        return {str(a[k]) for k in ("from", "at") if a.get(k)}

    def _action(self, scene: Scene, a: Mapping[str, Any]) -> None:
        """The action being settled: an arrow from the acting troop to its
        target, or a ring round the target."""
        target = cell_of(a.get("at"))
        if target is None:
            return
        source = cell_of(a.get("from"))
        end = middle(target)
        if source is None or source == target:
            scene.circle(end, CELL / 2 - 2, "none", stroke=ARROW, width=4.0)
            return
        start = middle(source)
        dx, dy = end[0] - start[0], end[1] - start[1]
        d = math.hypot(dx, dy)
        hw, hh = CELL / 2 - 6, TOKEN_H / 2
        edge = min(hw / abs(dx) * d if dx else math.inf, hh / abs(dy) * d if dy else math.inf)
        scene.arrow([start, end], ARROW, width=5.0, head=18.0, shorten=edge - 3)

    # ------------------------------------------------------------------ the panel
    def _panel(self, scene: Scene, view: Mapping[str, Any], frame: str,
               players: Sequence[Mapping[str, Any]], x: float) -> None:
        scene.rect(x, TOP, PANEL, SIZE * CELL, "#f7f7f4", stroke=GRID, width=1.0, rx=8.0)
        out = Writer(scene, x + PAD, TOP + PAD, PANEL - 2 * PAD)
        out.line("Conquest Tactics", 16.0, True)
        stage = str(view.get("stage", ""))
        out.line(f"Turn {view.get('turn', 0)} · {STAGES.get(stage, stage)}", 13.0, True)
        out.line(f"Initiative: {view.get('initiative') or '—'}")
        acting = [str(r) for r in view.get("acting") or []]
        out.line(f"To act: {', '.join(acting) if acting else '—'}")
        a = view.get("action")
        if isinstance(a, Mapping):
            what = VERBS.get(str(a.get("verb")), str(a.get("verb", "")).lower())
            card = f" {a['card']}" if a.get("card") else ""
            route = " → ".join(str(s) for s in (a.get("from"), a.get("at")) if s)
            out.line(f"Action: {a.get('by')} {what}{card}" + (f", {route}" if route else "")
                     + f" ({a.get('step')} step)", bold=True)
        result = view.get("result")
        if isinstance(result, Mapping) and result.get("text"):
            out.line(f"Game over: {result['text']}", 13.0, True)
        out.y += 4
        order = {other(frame): 0, frame: 1}
        for p in sorted(players, key=lambda p: order.get(str(p.get("role")), 2)):
            self._player(out, p)
        out.y += 2
        out.line(f"The field as {frame} reads it: row 1 is {frame}'s edge.", SMALL, ink=MUTED)
        out.line("Marks: E equipment, + buff, − debuff; dmg: damage/health.", SMALL, ink=MUTED)

    def _player(self, out: Writer, p: Mapping[str, Any]) -> None:
        role = str(p.get("role", ""))
        colour = COLOURS.get(role, DEAD)
        scene, x, w = out.scene, out.x, out.width
        scene.rect(x, out.y, w, 22, colour, rx=4.0)
        faction = str(p.get("faction") or "").title()
        head = f"{role} · {faction}" if faction else role
        text, size = fit(head, w - 70, 13.0, True)
        scene.text((x + 6, out.y + 11), text, size=size, fill="#ffffff", anchor="start",
                   bold=True)
        tp = f"TP {p.get('tp', 0)}"
        scene.text((x + w - 6 - text_width(tp, 13.0, True), out.y + 11), tp, size=13.0,
                   fill="#ffffff", anchor="start", bold=True)
        out.y += 27
        out.line(f"Hand {p.get('hand', 0)} · supply {p.get('supply', 0)}", indent=6.0)
        base = p.get("base")
        if isinstance(base, Mapping):
            h, d = int(base.get("health", 0)), int(base.get("damage", 0))
            state = f"{h - d}/{h}" if base.get("alive", True) else "destroyed"
            out.line(f"Base: {base.get('name', '')} {state}", indent=6.0)
        victories = [v for v in p.get("victories") or [] if isinstance(v, Mapping)]
        done = [v for v in victories if v.get("done")]
        out.line(f"Victory conditions {len(done)} of {len(victories)}", bold=True, indent=6.0)
        for v in done:
            out.line(f"✓ {v.get('name', '')}", ink=MUTED, indent=16.0)
        trophies = [str(t) for t in p.get("trophies") or []]
        out.line(f"Trophies {len(trophies)}" + (": " + ", ".join(trophies) if trophies else ""),
                 indent=6.0)
        out.y += 6


class Writer:
    """Lines of text down the panel: ``y`` is where the next one goes."""

    def __init__(self, scene: Scene, x: float, y: float, width: float) -> None:
        self.scene, self.x, self.y, self.width = scene, x, y, width

    def line(self, text: str, size: float = TEXT, bold: bool = False, ink: str = INK,
             indent: float = 0.0) -> None:
        room = self.width - indent
        for part in wrap(text, room, size, bold):
            part, s = fit(part, room, size, bold)
            self.scene.text((self.x + indent, self.y + s / 2 + 1), part, size=s, fill=ink,
                            anchor="start", bold=bold)
            self.y += s + 5


DRAWING = ConquestTacticsDrawing()

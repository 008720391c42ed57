"""One Military Campaign on the shared Diplomacy resolver
(:func:`judge_games.diplomacy.resolver.adjudicate_forces`): pieces grouped into
forces, their strengths, and when a move joins the pieces where it goes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from judge.game.engine import Role
from judge_games.diplomacy.orders import MOVE, SUPPORT
from judge_games.diplomacy.resolver import Force, Strengths, adjudicate_forces
from judge_games.diplomacy.variant import Piece

from .rules import STRENGTH


@dataclass
class Campaign:
    """What one Military Campaign did to the pieces (by index in ``pieces``)."""

    moved: dict[int, int] = field(default_factory=dict)
    """Piece -> the province it entered."""
    dislodged: dict[int, int] = field(default_factory=dict)
    """Piece -> the province the dislodging force came from."""
    removed: set[int] = field(default_factory=set)
    """Militia removed by army supremacy (optional rule 4)."""
    bounced: set[int] = field(default_factory=set)
    cut: set[int] = field(default_factory=set)
    """Supporting pieces whose support was cut."""
    void: set[int] = field(default_factory=set)
    """Supporting pieces whose support matched no order."""
    standoffs: set[int] = field(default_factory=set)
    """Provinces left empty because movers bounced there (no retreat into them)."""


def supremacy(
    moving: Sequence[Piece],
    stay: Sequence[Piece],
    may_stack: Callable[[Sequence[Piece]], bool],
    army_supremacy: bool,
) -> list[Piece]:
    """Optional rule 4: "an army moving into a space with a friendly militia will
    dislodge the militia to take dominance in the space": the militia it removes
    (none when the rule is off or the move may not end there even so)."""
    if not army_supremacy or not any(p["kind"] == "A" for p in moving):
        return []
    owner = moving[0]["owner"]
    militia = [p for p in stay if p["kind"] == "M" and p["owner"] == owner]
    rest = [p for p in stay if not (p["kind"] == "M" and p["owner"] == owner)]
    return militia if militia and may_stack([*moving, *rest]) else []


def adjudicate_campaign(
    pieces: Sequence[Piece],
    orders: Mapping[int, Mapping[str, Any]],
    powers: Sequence[Role],
    defence: Callable[[Piece], int],
    may_stack: Callable[[Sequence[Piece]], bool],
    army_supremacy: bool = False,
) -> Campaign:
    """Resolve one campaign on the shared Diplomacy resolver.

    ``orders`` maps a piece's index to its status-checked order (``{"verb":
    "move", "to": n}``, ``{"verb": "support", "target": piece, "to": n | None}``,
    anything else defends; a piece without one defends). Pieces of one owner in
    one province with the same order form one force: "Pieces move with the power
    of their force (2 for an army, 1 for militia and 1 for a Leader Character)",
    a leader moving with its army adds its strength, and a support given by both
    counts both. ``powers`` numbers the owners; ``defence`` is a piece's strength
    defending; ``may_stack`` says whether pieces may share a province.
    """
    keys: dict[tuple[Any, ...], int] = {}
    members: list[list[int]] = []
    force_of: list[int] = []
    for i, p in enumerate(pieces):
        o = orders.get(i, {})
        verb = o.get("verb")
        if verb == "move":
            key: tuple[Any, ...] = (p["at"], p["owner"], verb, int(o["to"]))
        elif verb == "support":
            to = o.get("to")
            key = (p["at"], p["owner"], verb, int(o["target"]), -1 if to is None else int(to))
        else:
            key = (p["at"], p["owner"])
        f = keys.setdefault(key, len(members))
        if f == len(members):
            members.append([])
        members[f].append(i)
        force_of.append(f)
    forces: list[Force] = []
    for key in keys:
        at, power = int(key[0]), powers.index(key[1])
        if len(key) == 2:
            forces.append(Force(at, power))
        elif key[2] == "move":
            forces.append(Force(at, power, MOVE, key[3]))
        else:
            forces.append(Force(at, power, SUPPORT, key[4], force_of[key[3]]))
    attack = [sum(STRENGTH[str(pieces[i]["kind"])] for i in m) for m in members]
    strengths = Strengths(
        base=[sum(defence(pieces[i]) for i in m) for m in members],
        move_base=attack,
        weight=attack,
        # "A piece that is blocked in its move returns to its space of origin and
        # defends that space."
        beaten_defends=True,
        # "If there are equal forces moving on to a space then that space is not
        # entered into by any of the movers", even by one beaten head to head.
        beaten_prevents=True,
    )

    def split(mover: int, staying: Sequence[int]) -> tuple[list[Piece], list[Piece]]:
        """The pieces of the force ``mover`` and of the forces ``staying``."""
        return [pieces[i] for i in members[mover]], [
            pieces[i] for f in staying for i in members[f]
        ]

    def joins(mover: int, staying: Sequence[int]) -> bool:
        """The shared resolver's :data:`~judge_games.diplomacy.resolver.Joins`:
        a force joins the pieces staying where it moves when they may share
        the province, or under optional rule 4 when an army removes its
        owner's militia there."""
        moving, stay = split(mover, staying)
        return may_stack([*moving, *stay]) or bool(
            supremacy(moving, stay, may_stack, army_supremacy)
        )

    res = adjudicate_forces(forces, strengths, joins)
    out = Campaign(standoffs=set(res.contested))
    for f, m in enumerate(members):
        for i in m:
            if f in res.moved:
                out.moved[i] = forces[f].dest
            elif f in res.bounced:
                out.bounced.add(i)
            if f in res.cut:
                out.cut.add(i)
            if f in res.void:
                out.void.add(i)
            if f in res.dislodged:
                out.dislodged[i] = res.dislodged[f]
    for w, staying in res.joined.items():
        moving, stay = split(w, staying)
        if not may_stack([*moving, *stay]):
            gone = supremacy(moving, stay, may_stack, army_supremacy)
            out.removed.update(
                i for f in staying for i in members[f] if any(pieces[i] is g for g in gone)
            )
    return out

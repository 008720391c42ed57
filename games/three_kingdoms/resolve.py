"""Simultaneous resolution of one Military Campaign (rulebook, "Conflict Resolution").

Pure functions over plain data. The caller (game.py) has already turned every
order the diplomatic status forbids into a defend order ("A unit whose order is
written as invalid automatically defends his province").

Pieces are numbered by their index in the caller's list. Pieces of one owner
moving from one province to the same province move as one force ("greater
force acting in unison"): a leader moving with its army adds its strength.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Piece = Mapping[str, Any]
"""``{"kind": "A"|"M"|"L", "owner": role, "at": province}``."""
Order = Mapping[str, Any]
"""``{"verb": "move", "to": n}``, ``{"verb": "support", "target": piece, "to": n | None}``
or ``{"verb": "defend"}`` (a missing order defends too)."""

GroupKey = tuple[int, str, int]
"""(origin, owner, destination) of a force."""


@dataclass
class Rules:
    """What the resolution needs to know about the game around it."""

    attack: Callable[[int], int]
    """Strength of a piece moving or supporting (army 2, militia 1, leader 1)."""
    defence: Callable[[int], int]
    """Strength of a piece defending (militia 2 in its kingdom's support provinces)."""
    joinable: Callable[[Sequence[int], Sequence[int]], bool]
    """May the moving pieces end in one province with the staying ones (a leader
    joining its own unit, or the reverse)?"""
    army_supremacy: bool = False
    """Optional rule 4: an army moving onto a friendly militia removes it."""


@dataclass
class Result:
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


def _support_into(pieces: Sequence[Piece], orders: Mapping[int, Order], s: int) -> int:
    """The target space of support ``s``: where the supported move goes, or
    where the supported defender stands."""
    o = orders[s]
    return int(o["to"]) if o.get("to") is not None else int(pieces[int(o["target"])]["at"])


def adjudicate(pieces: Sequence[Piece], orders: Mapping[int, Order], rules: Rules) -> Result:
    """Resolve one campaign. ``orders`` maps piece index to its (status-checked) order."""
    movers = {p: int(o["to"]) for p, o in orders.items() if o.get("verb") == "move"}
    groups: dict[GroupKey, list[int]] = {}
    for p, to in sorted(movers.items()):
        groups.setdefault((int(pieces[p]["at"]), str(pieces[p]["owner"]), to), []).append(p)

    # Support is given either to help a mover or to help a non move ordered defender:
    # "A unit ordered to move CANNOT be supported to defend its province".
    supports: list[int] = []
    void: set[int] = set()
    for s, o in sorted(orders.items()):
        if o.get("verb") != "support":
            continue
        t = int(o["target"])
        into = o.get("to")
        ok = movers.get(t) == int(into) if into is not None else t not in movers
        if ok:
            supports.append(s)
        else:
            void.add(s)
    # "All supports in a province are CUT when the province is attacked by any unit
    # from outside the target of the support."
    base_cut = {
        s
        for s in supports
        for p, to in movers.items()
        if to == pieces[s]["at"]
        and pieces[p]["owner"] != pieces[s]["owner"]
        and pieces[p]["at"] != _support_into(pieces, orders, s)
    }
    extra: set[int] = set()
    for _ in range(len(supports) + 2):
        res = _movement(pieces, orders, rules, groups, supports, base_cut | extra)
        # ... "or is not dislodged from the target space".
        more = {
            s
            for s in supports
            if s in res.dislodged and res.dislodged[s] == _support_into(pieces, orders, s)
        }
        if more <= extra:
            break
        extra |= more
    res.cut = (base_cut | extra) & set(supports)
    res.void = void
    return res


def _movement(
    pieces: Sequence[Piece],
    orders: Mapping[int, Order],
    rules: Rules,
    groups: Mapping[GroupKey, list[int]],
    supports: Sequence[int],
    cut: set[int],
) -> Result:
    live = [s for s in supports if s not in cut]

    def attack(key: GroupKey) -> int:
        members = groups[key]
        total = sum(rules.attack(p) for p in members)
        for s in live:
            o = orders[s]
            if o.get("to") == key[2] and int(o["target"]) in members:
                total += rules.attack(s)
        return total

    strength = {key: attack(key) for key in groups}
    ordered_to_move = {p for members in groups.values() for p in members}
    bounced: set[GroupKey] = set()
    by_province: dict[int, list[int]] = {}
    for i, piece in enumerate(pieces):
        by_province.setdefault(int(piece["at"]), []).append(i)

    def staying(x: int) -> list[int]:
        out = []
        for p in by_province.get(x, []):
            key = next((k for k, m in groups.items() if p in m), None)
            if key is None or key in bounced:
                out.append(p)
        return out

    def hold(x: int) -> int:
        stay = staying(x)
        total = sum(rules.defence(p) for p in stay)
        for s in live:
            o = orders[s]
            t = int(o["target"])
            if o.get("to") is None and t in stay and t not in ordered_to_move:
                total += rules.attack(s)
        return total

    targets = sorted({k[2] for k in groups})
    removed: set[int] = set()
    entered: dict[int, GroupKey] = {}
    for _ in range(len(groups) * 2 + 2):
        new: set[GroupKey] = set()
        removed = set()
        entered = {}
        for t in targets:
            incoming = [k for k in groups if k[2] == t]
            best = max(strength[k] for k in incoming)
            top = [k for k in incoming if strength[k] == best]
            # "If there are equal forces moving on to a space then that space is not
            # entered into by any of the movers."
            new.update(k for k in incoming if k not in top or len(top) > 1)
            if len(top) > 1:
                continue
            w = top[0]
            stay = staying(t)
            if not stay or rules.joinable(groups[w], stay):
                entered[t] = w
                continue
            if rules.army_supremacy and _supremacy(pieces, rules, groups[w], stay):
                entered[t] = w
                removed.update(p for p in stay if pieces[p]["kind"] == "M")
                continue
            if any(pieces[p]["owner"] == w[1] for p in stay):
                # "you may not dislodge one of your own units but may stage a supported
                # move into a friendly occupied space to keep others out."
                new.add(w)
                continue
            # "If a piece is in a province that is moved on with greater force ...
            # then the unit is dislodged."
            if strength[w] > hold(t):
                entered[t] = w
            else:
                new.add(w)
        # Two forces moving into each other's provinces: the stronger goes on against
        # what stays, the weaker (both when equal) is held back.
        for k1 in groups:
            for k2 in groups:
                if k1 < k2 and k1[0] == k2[2] and k2[0] == k1[2]:
                    if k1 in bounced or k2 in bounced:
                        continue
                    if strength[k1] <= strength[k2]:
                        new.add(k1)
                    if strength[k2] <= strength[k1]:
                        new.add(k2)
        if new <= bounced:
            break
        bounced |= new

    res = Result()
    for key, members in groups.items():
        if key in bounced:
            res.bounced.update(members)
        else:
            for p in members:
                res.moved[p] = key[2]
    for t, w in entered.items():
        if w in bounced:
            continue
        stay = staying(t)
        if stay and not rules.joinable(groups[w], stay):
            for p in stay:
                if p in removed:
                    res.removed.add(p)
                elif pieces[p]["owner"] != w[1]:
                    res.dislodged[p] = w[0]
    for t in targets:
        if all(k in bounced for k in groups if k[2] == t) and not staying(t):
            res.standoffs.add(t)
    return res


def _supremacy(
    pieces: Sequence[Piece], rules: Rules, movers: Sequence[int], stay: Sequence[int]
) -> bool:
    """Optional rule 4: "an army moving into a space with a friendly militia will
    dislodge the militia to take dominance in the space"."""
    owner = pieces[movers[0]]["owner"]
    if not any(pieces[p]["kind"] == "A" for p in movers):
        return False
    militia = [p for p in stay if pieces[p]["kind"] == "M" and pieces[p]["owner"] == owner]
    if not militia:
        return False
    rest = [p for p in stay if p not in militia]
    return not rest or rules.joinable(movers, rest)

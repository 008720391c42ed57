"""Binding a written order to the board: which unit, which coast, and is it possible.

An order is *legal* when, not knowing any other order, it could be carried
out on this board (DATC 4.E.1). Illegal orders are refused by mail and, in
the offline/DATC path, treated as not given (the unit holds, result
``void``). The checks here follow the preferred DATC options:

* unit type and coast of the ordered unit as written are ignored (4.C.1, 4.C.2, 4.B.5);
* a fleet move to a multi-coast province without a coast goes to the only
  reachable coast (4.B.2) and is ambiguous when both are reachable (4.B.1);
  a coast that cannot be reached makes the move illegal (4.B.3); a coast on
  an army move or a one-coast province is ignored (4.B.6);
* a support must be to a province the supporter could move to itself, of a
  unit that could make the move supported (6.A.10, 6.B.5, 6.D.31, 6.D.34);
* a convoy must be by a fleet at sea that lies on some irredundant route of
  fleets now on the board (6.F.1, 6.G.19); an army move that is neither
  adjacent nor possible by such a route is illegal (6.A.1, 6.D.32);
* builds only in an owned, empty home centre, fleets only on a coast, a coast
  named in a multi-coast province (4.B.7, 4.C.3, 4.C.4, 6.I.2-6.I.6).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from judge.game.engine import AmbiguousLine, IllegalLine

from .board import (
    Board,
    Unit,
    convoy_capable,
    convoy_route_exists,
    fleet_provinces,
    necessary_fleets,
)
from .orders import (
    ADJUSTMENTS,
    BUILD,
    CONVOY,
    DISBAND,
    HOLD,
    MOVE,
    REMOVE,
    RETREAT,
    RETREATS,
    SUPPORT,
    WAIVE,
    Draft,
    Order,
    Ref,
    order_text,
)

if TYPE_CHECKING:
    from .variant import VariantRules


class UnitNotFound(IllegalLine):
    """The order names no unit of the ordering power (none there, or another's)."""


@dataclass(frozen=True)
class Dislodged:
    """A unit dislodged in the last movement phase and where it may retreat."""

    unit: Unit
    attacker_from: int
    """Province the dislodging unit came from (-1: it came by convoy)."""
    retreats: tuple[int, ...]
    """Locations it may retreat to."""


@dataclass
class Situation:
    """What an order is checked against: the board and the phase."""

    board: Board
    kind: str
    """``M``, ``R`` or ``A``."""
    dislodged: Mapping[int, Dislodged] = field(default_factory=dict)
    owner: Mapping[int, int] = field(default_factory=dict)
    """Supply centre province -> owning power index."""
    adjust: Mapping[int, int] = field(default_factory=dict)
    """Power index -> builds allowed (positive) or removals due (negative)."""
    rules: VariantRules | None = None
    """The game's variant rules (:mod:`judge_games.diplomacy.variant`; ``None``: standard)."""


def _name(board: Board, prov: int) -> str:
    return board.dm.provinces[prov].name


def bind(sit: Situation, power: int, draft: Draft) -> Order:
    """The legal order ``power`` gave with ``draft``, or raise a RuleError
    (``UnitNotFound`` when the order is not about a unit of ``power``).
    A variant's rules (``sit.rules``) bind first when they know the draft."""
    rules = sit.rules
    if rules is not None and rules.bind is not None:
        special = rules.bind(sit, power, draft)
        if special is not None:
            return special
    if sit.kind == ADJUSTMENTS:
        return _bind_adjustment(sit, power, draft)
    if sit.kind == RETREATS:
        return _bind_retreat(sit, power, draft)
    return _bind_movement(sit, power, draft)


def _own_unit(sit: Situation, power: int, where: Ref | None, units: Mapping[int, Unit]) -> Unit:
    assert where is not None
    unit = units.get(where.province)
    if unit is not None and unit.power == power:
        return unit
    name = _name(sit.board, where.province)
    if unit is None:
        what = "dislodged unit" if sit.kind == RETREATS else "unit"
        raise UnitNotFound(f"there is no {what} in {name}")
    owner = sit.board.dm.powers[unit.power].adjective
    raise UnitNotFound(f"the unit in {name} is {owner}, not yours")


# ---------------------------------------------------------------------- movement


def memo_key(d: Draft, unit: Unit, other: Unit | None) -> tuple[int, int, str, int, str]:
    """The key of ``DipMap.bound`` for draft ``d`` given to ``unit``, naming
    ``other`` (the unit in ``d.target``'s province, if any)."""
    if other is None:
        return (id(d), unit.loc, unit.type, -1, "")
    return (id(d), unit.loc, unit.type, other.loc, other.type)


_MAX_BOUND = 100_000
"""The most orders kept bound per map (then the store starts afresh)."""


def _bind_movement(sit: Situation, power: int, d: Draft) -> Order:
    if d.kind not in (HOLD, MOVE, SUPPORT, CONVOY):
        raise IllegalLine(
            "only hold, move, support and convoy orders are given in a movement phase"
        )
    board = sit.board
    unit = _own_unit(sit, power, d.where, board.units)
    if d.kind == CONVOY:
        return _bind_convoy(board, unit, d)
    # A hold, a move that needs no convoy and a support that needs none for
    # the move it supports are legal or not by the map alone, given the unit
    # ordered and the unit supported: such an order, once bound, is kept
    # (DipMap.bound, keyed by the draft object, which read_order keeps, and
    # where the two units stand and what they are, whoever owns them).
    other = board.units.get(d.target.province) if d.target is not None else None
    key = memo_key(d, unit, other)
    dm = board.dm
    known: tuple[Draft, Order] | None = dm.bound.get(key)
    if known is not None and known[0] is d:
        return known[1]
    if d.kind == HOLD:
        order = Order(HOLD, unit.type, unit.loc)
    elif d.kind == MOVE:
        assert d.dest is not None
        dest, via = move_destination(board, unit, d.dest, d.via)
        order = Order(MOVE, unit.type, unit.loc, dest, via=via)
        if unit.type == "A" and (via or dest not in dm.army_adj[dm.locations[unit.loc].province]):
            return order  # by convoy: depends on the fleets on the board
    else:
        order = _bind_support(board, unit, d)
        if (
            other is not None
            and other.type == "A"
            and order.dest >= 0
            and dm.locations[order.dest].province not in dm.army_adj[order.target]
        ):
            return order  # a convoyed move supported: depends on the fleets
    if len(dm.bound) >= _MAX_BOUND:
        dm.bound.clear()
    dm.bound[key] = (d, order)
    return order


def move_destination(board: Board, unit: Unit, dest: Ref, via: bool) -> tuple[int, bool]:
    """Where a move of ``unit`` to ``dest`` goes, and whether it is ordered via
    convoy; raises IllegalLine/AmbiguousLine when the move is impossible."""
    dm = board.dm
    src = dm.locations[unit.loc].province
    dp = dest.province
    if unit.type == "A" and not via and dp in dm.army_adj[src]:
        return dp, False
    here, there = _name(board, src), _name(board, dp)
    if dp == src:
        raise IllegalLine(f"a unit cannot move to the province it is in ({here})")
    if unit.type == "A":
        if dm.is_sea(dp):
            raise IllegalLine(f"an army cannot move into a sea ({there})")
        if convoy_route_exists(dm, src, dp, fleet_provinces(board)):
            return dp, via
        if via:
            raise IllegalLine(
                f"no fleets stand where they could convoy an army from {here} to {there}"
            )
        raise IllegalLine(
            f"{here} does not border {there} and no fleets could convoy the army there"
        )
    if via:
        raise IllegalLine("only armies can be convoyed")
    if dm.provinces[dp].kind == "land":
        raise IllegalLine(f"a fleet cannot move inland ({there})")
    return fleet_target(board, unit, dest, "move"), False


def fleet_target(board: Board, unit: Unit, dest: Ref, verb: str) -> int:
    """The location a fleet at ``unit.loc`` reaches in province ``dest``."""
    dm = board.dm
    dp = dest.province
    here, there = _name(board, dm.locations[unit.loc].province), _name(board, dp)
    adj = dm.fleet_adj[unit.loc]
    locs = dm.fleet_locs[dp]
    if len(locs) > 1:
        if dest.coast:
            want = next((loc for loc in locs if dm.locations[loc].coast == dest.coast), -1)
            if want < 0:
                raise IllegalLine(f"{there} has no coast {dest.coast!r}")
            if want not in adj:
                raise IllegalLine(
                    f"a fleet in {here} cannot reach the {_coast_name(dest.coast)} of {there}"
                )
            return want
        reach = [loc for loc in locs if loc in adj]
        if not reach:
            raise IllegalLine(f"a fleet in {here} cannot reach {there}")
        if len(reach) > 1:
            choices = [
                order_text(dm, Order(MOVE if verb == "move" else RETREAT, "F", unit.loc, loc))
                for loc in reach
            ]
            raise AmbiguousLine(f"{there} has two coasts reachable from {here}", choices=choices)
        return reach[0]
    if not locs or locs[0] not in adj:
        raise IllegalLine(f"a fleet in {here} cannot reach {there}")
    return locs[0]


def _coast_name(coast: str) -> str:
    return {"nc": "north coast", "sc": "south coast", "ec": "east coast", "wc": "west coast"}.get(
        coast, coast
    )


def _can_reach(board: Board, unit: Unit, prov: int) -> bool:
    """Whether ``unit`` could move to ``prov`` by itself (no convoy): the test a
    supporter must pass for the province it supports into."""
    dm = board.dm
    if unit.type == "A":
        return prov in dm.army_adj[dm.locations[unit.loc].province]
    return prov in dm.fleet_reach[unit.loc]


def _bind_support(board: Board, unit: Unit, d: Draft) -> Order:
    dm = board.dm
    assert d.target is not None
    sprov = dm.locations[unit.loc].province
    tp = d.target.province
    target = board.at(tp)
    if target is None:
        raise IllegalLine(f"there is no unit in {_name(board, tp)} to support")
    if d.dest is None:
        if tp == sprov:
            raise IllegalLine("a unit cannot support itself")
        if not _can_reach(board, unit, tp):
            raise IllegalLine(
                f"the unit in {_name(board, sprov)} could not move to {_name(board, tp)}, "
                "so it cannot support there"
            )
        return Order(SUPPORT, unit.type, unit.loc, -1, tp, target_unit=target.type)
    dp = d.dest.province
    if dp == sprov:
        raise IllegalLine("a unit cannot support a move into its own province")
    if tp == sprov:
        raise IllegalLine("a unit cannot support its own move")
    if not _can_reach(board, unit, dp):
        raise IllegalLine(
            f"the unit in {_name(board, sprov)} could not move to {_name(board, dp)}, "
            "so it cannot support a move there"
        )
    dest = dp
    if target.type == "A":
        if dm.is_sea(dp) or dp == tp:
            raise IllegalLine(f"the army in {_name(board, tp)} cannot move to {_name(board, dp)}")
        if dp not in dm.army_adj[tp] and not convoy_route_exists(
            dm, tp, dp, fleet_provinces(board, exclude=sprov)
        ):
            raise IllegalLine(
                f"the army in {_name(board, tp)} could not reach {_name(board, dp)}"
                + (
                    " (the only convoy route runs through the supporter)"
                    if convoy_route_exists(dm, tp, dp, fleet_provinces(board))
                    else ""
                )
            )
    else:
        if dm.provinces[dp].kind == "land":
            raise IllegalLine(f"the fleet in {_name(board, tp)} cannot move inland")
        locs = dm.fleet_locs[dp]
        adj = dm.fleet_adj[target.loc]
        if d.dest.coast and len(locs) > 1:
            want = next((loc for loc in locs if dm.locations[loc].coast == d.dest.coast), -1)
            if want < 0:
                raise IllegalLine(f"{_name(board, dp)} has no coast {d.dest.coast!r}")
            if want not in adj:
                raise IllegalLine(
                    f"the fleet in {_name(board, tp)} cannot reach the "
                    f"{_coast_name(d.dest.coast)} of {_name(board, dp)}"
                )
            dest = want
        elif not any(loc in adj for loc in locs):
            raise IllegalLine(f"the fleet in {_name(board, tp)} cannot reach {_name(board, dp)}")
    return Order(SUPPORT, unit.type, unit.loc, dest, tp, target_unit=target.type)


def _bind_convoy(board: Board, unit: Unit, d: Draft) -> Order:
    dm = board.dm
    assert d.target is not None and d.dest is not None
    cprov = dm.locations[unit.loc].province
    if unit.type != "F":
        raise IllegalLine("only fleets can convoy")
    if not convoy_capable(dm, cprov):
        raise IllegalLine(f"a fleet in {_name(board, cprov)} cannot convoy: only fleets at sea can")
    tp, dp = d.target.province, d.dest.province
    army = board.at(tp)
    if army is None:
        raise IllegalLine(f"there is no army in {_name(board, tp)} to convoy")
    if army.type != "A":
        raise IllegalLine("only armies can be convoyed")
    if not (dm.is_coastal(tp) and dm.is_coastal(dp)) or tp == dp:
        raise IllegalLine(
            f"an army cannot be convoyed from {_name(board, tp)} to {_name(board, dp)}"
        )
    if cprov not in necessary_fleets(dm, tp, dp, fleet_provinces(board)):
        raise IllegalLine(
            f"the fleet in {_name(board, cprov)} is on no convoy route from "
            f"{_name(board, tp)} to {_name(board, dp)}"
        )
    return Order(CONVOY, "F", unit.loc, dp, tp, target_unit="A")


# ---------------------------------------------------------------------- retreats


def _bind_retreat(sit: Situation, power: int, d: Draft) -> Order:
    if d.kind not in (RETREAT, DISBAND):
        raise IllegalLine("only retreat and disband orders are given in a retreat phase")
    units = {p: dl.unit for p, dl in sit.dislodged.items()}
    unit = _own_unit(sit, power, d.where, units)
    if d.kind == DISBAND:
        return Order(DISBAND, unit.type, unit.loc)
    assert d.dest is not None and d.where is not None
    dm = sit.board.dm
    options = sit.dislodged[d.where.province].retreats
    dp = d.dest.province
    if unit.type == "F" and len(dm.fleet_locs[dp]) > 1:
        dest = fleet_target(sit.board, unit, d.dest, "retreat")
    else:
        dest = dp
    if dest not in options:
        here = _name(sit.board, d.where.province)
        if options:
            shown = ", ".join(dm.loc_text(o) for o in options)
            raise IllegalLine(
                f"the unit dislodged from {here} cannot retreat to {_name(sit.board, dp)}"
                f" (it may retreat to {shown} or disband)"
            )
        raise IllegalLine(f"the unit dislodged from {here} has nowhere to retreat: it disbands")
    return Order(RETREAT, unit.type, unit.loc, dest)


# ---------------------------------------------------------------------- adjustments


def _bind_adjustment(sit: Situation, power: int, d: Draft) -> Order:
    dm = sit.board.dm
    due = sit.adjust.get(power, 0)
    if d.kind == WAIVE:
        if due <= 0:
            raise IllegalLine("you have no builds to waive")
        if d.waives > due:
            most = order_text(dm, Order(WAIVE, "", -1, waives=due))
            raise IllegalLine(f"you may build {due}", hint=f'did you mean "{most}"?')
        return Order(WAIVE, "", -1, waives=d.waives)
    assert d.where is not None
    prov = d.where.province
    name = _name(sit.board, prov)
    if d.kind == REMOVE:
        own = _own_unit(sit, power, d.where, sit.board.units)
        if due >= 0:
            raise IllegalLine("you have no units to remove")
        return Order(REMOVE, own.type, own.loc)
    if d.kind != BUILD:
        raise IllegalLine("only builds, removals and waives are ordered in the adjustments")
    if due <= 0:
        raise IllegalLine("you have no builds")
    pv = dm.provinces[prov]
    if dm.home_of[prov] != power:
        raise IllegalLine(f"{name} is not one of your home supply centres")
    if sit.owner.get(prov, -1) != power:
        raise IllegalLine(f"you do not own {name} now")
    if sit.board.at(prov) is not None:
        raise IllegalLine(f"{name} is occupied")
    unit = d.unit
    if not unit:
        if pv.kind == "land":
            unit = "A"
        elif pv.coasts and d.where.coast:
            unit = "F"
        else:
            raise AmbiguousLine(
                f"say which unit to build in {name}",
                choices=[f"Build A {pv.id}"]
                + [f"Build F {dm.loc_text(loc)}" for loc in dm.fleet_locs[prov]],
            )
    if unit == "A":
        return Order(BUILD, "A", prov)
    if pv.kind != "coast":
        raise IllegalLine(f"a fleet cannot be built in {name}: it is inland")
    locs = dm.fleet_locs[prov]
    if len(locs) > 1:
        if not d.where.coast:
            raise AmbiguousLine(
                f"say on which coast of {name} to build the fleet",
                choices=[f"Build F {dm.loc_text(loc)}" for loc in locs],
            )
        loc = next((lc for lc in locs if dm.locations[lc].coast == d.where.coast), -1)
        if loc < 0:
            raise IllegalLine(f"{name} has no coast {d.where.coast!r}")
        return Order(BUILD, "F", loc)
    return Order(BUILD, "F", locs[0])

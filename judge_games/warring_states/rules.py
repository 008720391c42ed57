"""The Warring States rules that differ from standard Diplomacy.

Sources: ``warring-states-diplomacy.txt`` (the rulebook: powers, victory,
walls) and ``warring-states-fleets.md`` (the restated fleet sections). Where
those leave a point open, the ruling is ours; each is marked *ruling* here
and listed in README.md.

:class:`WarringStatesRules` plugs into the shared Diplomacy code through
the game's variant record (:mod:`judge_games.diplomacy.variant`), as the
functions of :meth:`WarringStatesRules.changes`:

* order forms: ``A Luo convert`` (an army becomes a fleet), ``F WYR - MYR -
  LYR`` (a rapid river move through up to three river spaces);
* legality: no convoys; a fleet ordered, from a land province, to move,
  support or retreat where only an army can go turns back into an army that
  carries out the order; builds are armies only, in any home centre the
  power owns (its own or another power's);
* strengths: walls, floating fortresses, graded support cuts (see
  :meth:`WarringStatesRules.movement_strengths`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from judge.game.engine import IllegalLine
from judge_games.diplomacy.board import Board, Unit
from judge_games.diplomacy.geography import DipMap
from judge_games.diplomacy.legality import Situation, UnitNotFound
from judge_games.diplomacy.orders import (
    ADJUSTMENTS,
    BUILD,
    CONVERT,
    CONVOY,
    HOLD,
    MOVE,
    MOVEMENT,
    RETREAT,
    RETREATS,
    SUPPORT,
    Draft,
    Order,
    Reader,
    Ref,
)
from judge_games.diplomacy.phases import Position
from judge_games.diplomacy.resolver import Strengths
from judge_games.diplomacy.variant import VariantRules

MAX_RIVER_SPACES = 3
"""Fleets rules, "Rapid river move": through up to three river spaces."""

_CONVERT_WORDS = {"convert", "converts", "conversion", "becomes", "become", "transform"}
_FLEET_WORDS = {"f", "fleet", "fleets", "ship", "ships"}
_CONVERT_RE = re.compile(r"\b(convert|converts|conversion|becomes?|transform)\b", re.IGNORECASE)


class WarringStatesRules:
    """The variant's rules over one map; ``rivers`` are the river spaces."""

    def __init__(self, dm: DipMap, rivers: frozenset[int]) -> None:
        self.dm = dm
        self.rivers = rivers
        self.homes: tuple[int, ...] = tuple(h for pw in dm.powers for h in pw.home)
        # walls[(a, b)]: province b has a wall on its border with a
        self.walled: frozenset[tuple[int, int]] = frozenset(
            (a, b)
            for key, tags in dm.borders.items()
            for a in key
            for b in key
            if a != b and f"wall:{dm.provinces[b].id}" in tags
        )

    # ------------------------------------------------------------------ geography

    def changes(self) -> VariantRules:
        """These rules as the family's record of changes to the standard rules."""
        return VariantRules(
            read_order=self.read_order,
            bind=self.bind,
            movement_strengths=self.movement_strengths,
            retreat_adjacency=self.retreat_adjacency,
            build_sites=self.build_sites,
            winners=self.winners,
        )

    def is_water(self, p: int) -> bool:
        """River or sea space (only fleets stand there)."""
        return self.dm.is_sea(p)

    def is_river(self, p: int) -> bool:
        return p in self.rivers

    def wall(self, frm: int, into: int) -> bool:
        """Walls, rule 1: crossing from ``frm`` into ``into`` crosses a wall of
        ``into`` (rule 3: walls of ``frm`` itself never count)."""
        return (frm, into) in self.walled

    def river_paths(self, start: int) -> list[tuple[int, ...]]:
        """Every rapid river move of a fleet in ``start``: sequences of 2 or 3
        distinct river spaces, each a fleet neighbour of the one before (the
        first a neighbour of ``start``), never re-entering ``start``."""
        dm = self.dm
        out: list[tuple[int, ...]] = []

        def walk(at: int, seq: tuple[int, ...]) -> None:
            if len(seq) >= 2:
                out.append(seq)
            if len(seq) == MAX_RIVER_SPACES:
                return
            for q in sorted(dm.fleet_reach[at]):
                if q in self.rivers and q not in seq and q != start:
                    walk(q, (*seq, q))

        for q in sorted(dm.fleet_reach[start]):
            if q in self.rivers:
                walk(q, (q,))
        return out

    # ------------------------------------------------------------------ grammar

    def read_order(self, dm: DipMap, line: str, phase_kind: str) -> Draft | None:
        """``A Luo convert`` (also ``converts``, ``convert to fleet``,
        ``becomes fleet``, ``Convert A Luo``): the conversion order."""
        if phase_kind != MOVEMENT or not _CONVERT_RE.search(line):
            return None
        r = Reader(dm, line)
        lead = bool(r.take(_CONVERT_WORDS))
        r.power_word()
        unit = r.unit_type()
        where = r.place()
        if not lead:
            if not r.take(_CONVERT_WORDS):
                raise r.invalid("a conversion is '<army> convert'")
            while r.take({"to", "into", "a", "an", "in"}):
                pass
            r.take(_FLEET_WORDS)
        r.end()
        return Draft(CONVERT, unit, where)

    # ------------------------------------------------------------------ legality

    def bind(self, sit: Situation, power: int, draft: Draft) -> Order | None:
        if sit.kind == MOVEMENT:
            return self._bind_movement(sit, power, draft)
        if sit.kind == RETREATS:
            return self._bind_retreat(sit, power, draft)
        if sit.kind == ADJUSTMENTS and draft.kind == BUILD:
            return self._bind_build(sit, power, draft)
        return None

    def _name(self, p: int) -> str:
        return self.dm.provinces[p].name

    def _own(self, sit: Situation, power: int, where: Ref | None) -> Unit:
        assert where is not None
        unit = sit.board.at(where.province)
        if unit is None:
            raise UnitNotFound(f"there is no unit in {self._name(where.province)}")
        if unit.power != power:
            owner = self.dm.powers[unit.power].adjective
            raise UnitNotFound(f"the unit in {self._name(where.province)} is {owner}, not yours")
        return unit

    def _bind_movement(self, sit: Situation, power: int, d: Draft) -> Order | None:
        dm = self.dm
        if d.kind == CONVOY:
            # Fleets: "There are no convoys."
            self._own(sit, power, d.where)
            raise IllegalLine("there are no convoys in Warring States")
        if d.kind == HOLD:
            return None
        unit = self._own(sit, power, d.where)
        prov = dm.locations[unit.loc].province
        if d.kind == CONVERT:
            # Fleets: "an army standing where a fleet may stand can be ordered
            # to convert into a fleet".
            if unit.type != "A":
                raise IllegalLine("only an army converts into a fleet")
            if not dm.fleet_locs[prov]:
                raise IllegalLine(
                    f"a fleet cannot stand in {self._name(prov)} (it touches no river or sea)"
                )
            return Order(CONVERT, "A", unit.loc, becomes="F")
        if d.kind == MOVE:
            assert d.dest is not None
            if d.via:
                raise IllegalLine("there are no convoys in Warring States")
            if d.path:
                return self._bind_rapid(unit, prov, d)
            return self._bind_move(unit, prov, d.dest.province)
        if d.kind == SUPPORT:
            return self._bind_support(sit, unit, prov, d)
        return None

    def _bind_move(self, unit: Unit, prov: int, dp: int) -> Order:
        dm = self.dm
        here, there = self._name(prov), self._name(dp)
        if dp == prov:
            raise IllegalLine(f"a unit cannot move to the province it is in ({here})")
        if unit.type == "A":
            if self.is_water(dp):
                raise IllegalLine(f"an army cannot move into a river or sea ({there})")
            if dp not in dm.army_adj[prov]:
                raise IllegalLine(f"{here} does not border {there} (there are no convoys)")
            return Order(MOVE, "A", unit.loc, dp)
        if dp in dm.fleet_reach[unit.loc]:
            return Order(MOVE, "F", unit.loc, dm.fleet_locs[dp][0])
        if not self.is_water(prov) and dp in dm.army_adj[prov]:
            # Fleets: "A fleet ordered to move ... into a place that only an
            # army can reach turns back into an army, which carries out that
            # order in the same season."
            return Order(MOVE, "F", unit.loc, dp, becomes="A")
        if self.is_water(prov) and not self.is_water(dp) and dp not in dm.fleet_reach[unit.loc]:
            # Ruling: on a river or at sea there is no army to turn back into.
            raise IllegalLine(f"a fleet in {here} cannot reach {there}")
        raise IllegalLine(f"{here} does not border {there}")

    def _bind_rapid(self, unit: Unit, prov: int, d: Draft) -> Order:
        """Rapid river move: the fleet names every river space it passes."""
        assert d.dest is not None
        dm = self.dm
        if unit.type != "F":
            raise IllegalLine("only a fleet moves through several spaces, along a river")
        seq = (*(r.province for r in d.path), d.dest.province)
        if len(seq) > MAX_RIVER_SPACES:
            raise IllegalLine(
                f"a rapid river move passes through at most {MAX_RIVER_SPACES} river spaces"
            )
        at = prov
        for q in seq:
            if q not in self.rivers:
                raise IllegalLine(
                    f"a rapid move goes only through river spaces ({self._name(q)} is not one)"
                )
            if q not in dm.fleet_reach[at]:
                raise IllegalLine(f"{self._name(at)} does not border {self._name(q)}")
            at = q
        if len(set(seq)) != len(seq) or prov in seq:
            raise IllegalLine("a rapid river move does not pass a space twice")
        return Order(MOVE, "F", unit.loc, seq[-1], path=seq[:-1])

    def _reaches(self, unit: Unit, prov: int, q: int) -> tuple[bool, bool]:
        """Whether ``unit`` in ``prov`` could move to ``q`` by itself, and
        whether it would have to turn back into an army to do so."""
        dm = self.dm
        if unit.type == "A":
            return q in dm.army_adj[prov], False
        if q in dm.fleet_reach[unit.loc]:
            return True, False
        if not self.is_water(prov) and q in dm.army_adj[prov]:
            return True, True
        return False, False

    def _bind_support(self, sit: Situation, unit: Unit, prov: int, d: Draft) -> Order:
        assert d.target is not None
        tp = d.target.province
        target = sit.board.at(tp)
        if target is None:
            raise IllegalLine(f"there is no unit in {self._name(tp)} to support")
        if tp == prov:
            raise IllegalLine("a unit cannot support itself")
        # Fleets: "A support that names the wrong unit type still counts as
        # a support": the type written is ignored; target_unit is the real one.
        if d.dest is None:
            ok, turn = self._reaches(unit, prov, tp)
            if not ok:
                raise IllegalLine(
                    f"the unit in {self._name(prov)} could not move to {self._name(tp)}, "
                    "so it cannot support there"
                )
            return Order(
                SUPPORT,
                unit.type,
                unit.loc,
                -1,
                tp,
                target_unit=target.type,
                becomes="A" if turn else "",
            )
        dp = d.dest.province
        if dp == prov:
            raise IllegalLine("a unit cannot support a move into its own province")
        if dp == tp:
            raise IllegalLine("a unit cannot move to the province it is in")
        ok, turn = self._reaches(unit, prov, dp)
        if not ok:
            raise IllegalLine(
                f"the unit in {self._name(prov)} could not move to {self._name(dp)}, "
                "so it cannot support a move there"
            )
        can, _ = self._reaches(target, tp, dp)
        if not can and target.type == "F":
            can = any(seq[-1] == dp for seq in self.river_paths(tp))
        if not can:
            raise IllegalLine(f"the unit in {self._name(tp)} could not reach {self._name(dp)}")
        return Order(
            SUPPORT,
            unit.type,
            unit.loc,
            dp,
            tp,
            target_unit=target.type,
            becomes="A" if turn else "",
        )

    def _bind_retreat(self, sit: Situation, power: int, d: Draft) -> Order | None:
        # Fleets: a fleet ordered to retreat where only an army can go turns
        # back into an army (the retreat options include those places).
        if d.kind != RETREAT or d.where is None or d.dest is None:
            return None
        dl = sit.dislodged.get(d.where.province)
        if dl is None or dl.unit.power != power or dl.unit.type != "F":
            return None
        dm = self.dm
        prov, dp = d.where.province, d.dest.province
        if dp in dm.fleet_reach[dl.unit.loc] or dp not in dm.army_adj[prov]:
            return None
        if dp not in dl.retreats:
            return None  # the standard binder explains the refusal
        return Order(RETREAT, "F", dl.unit.loc, dp, becomes="A")

    def _bind_build(self, sit: Situation, power: int, d: Draft) -> Order:
        # Builds: "Only armies are built. A power may build in any home supply
        # centre it owns that is empty, including home centres of other powers
        # that it has captured."
        assert d.where is not None
        prov = d.where.province
        name = self._name(prov)
        if sit.adjust.get(power, 0) <= 0:
            raise IllegalLine("you have no builds")
        if d.unit == "F":
            raise IllegalLine("only armies are built; an army on a river bank or coast may convert")
        if prov not in self.homes:
            raise IllegalLine(f"{name} is not a home supply centre")
        if sit.owner.get(prov, -1) != power:
            raise IllegalLine(f"you do not own {name} now")
        if sit.board.at(prov) is not None:
            raise IllegalLine(f"{name} is occupied")
        return Order(BUILD, "A", prov)

    # ------------------------------------------------------------------ builds, retreats

    def build_sites(self, dm: DipMap, power: int) -> tuple[int, ...]:
        return self.homes

    def winners(self, pos: Position) -> list[int]:
        # Victory: "If there is a tie at 18, play continues until one power
        # has more than the other, or until a draw is agreed on."
        counts = {pw.idx: pos.centre_count(pw.idx) for pw in self.dm.powers}
        best = max(counts.values())
        leaders = [p for p, c in counts.items() if c == best]
        return leaders if best >= self.dm.victory and len(leaders) == 1 else []

    def retreat_adjacency(self, dm: DipMap, unit: Unit, province: int) -> frozenset[int] | None:
        if unit.type == "F" and not self.is_water(province):
            return dm.fleet_adj[unit.loc] | dm.army_adj[province]
        return None

    # ------------------------------------------------------------------ strengths

    def movement_strengths(self, board: Board, orders: Mapping[int, Order]) -> Strengths:
        """Strengths of one movement phase.

        * Floating fortresses: a fleet in a river space holds and defends
          with 2 (``base``); a fleet in a river or sea space that moves or
          supports into an adjacent river space does so with 2 (``move_base``,
          ``weight``); a rapid river move enters its last river space from
          a river space, so it attacks with 2 (ruling).
        * Walls (rules 1-3): a move crossing a wall of the province it enters
          (``penalised``), or supported across such a wall
          (``support_penalty``; support holds are unaffected), loses one,
          never more than one; only against another power's unit there
          (``penalise_defended_only``; rule 4 for one's own units, since an
          attack on one's own unit never dislodges it and its prevent
          strength is not reduced).
        * Graded cuts: a strength-2 support loses what the strongest single
          attack on the supporter has, the supports of the unit it attacks
          not counting; rule 5 follows (a zero attack cuts nothing).
        """
        dm = self.dm
        n = len(dm.provinces)
        base = [1] * n
        move_base = [1] * n
        weight = [1] * n
        penalised = [False] * n
        support_penalty = [False] * n
        for p, u in board.units.items():
            if u.type == "F" and p in self.rivers:
                base[p] = 2
        for p, o in orders.items():
            unit = board.units.get(p)
            if unit is None:
                continue
            fleet_afloat = unit.type == "F" and self.is_water(p) and not o.becomes
            if o.kind == MOVE:
                q = dm.locations[o.dest].province
                frm = o.path[-1] if o.path else p
                move_base[p] = 2 if fleet_afloat and q in self.rivers else 1
                penalised[p] = self.wall(frm, q)
            elif o.kind == SUPPORT:
                q = o.target if o.dest < 0 else dm.locations[o.dest].province
                if fleet_afloat and q in self.rivers:
                    weight[p] = 2
                if o.dest >= 0:
                    support_penalty[p] = self.wall(p, q)
            else:
                move_base[p] = base[p]
        return Strengths(
            base=base,
            weight=weight,
            penalised=penalised,
            support_penalty=support_penalty,
            move_base=move_base,
            penalise_defended_only=True,
            penalise_prevent=True,
            graded_cuts=True,
        )

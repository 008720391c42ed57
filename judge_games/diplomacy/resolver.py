"""Movement adjudication by Kruijswijk's partial-information algorithm.

This follows DATC v3.0 chapter 5 ("The process of adjudication"): every
MOVE, SUPPORT and CONVOY order is a boolean decision defined by the
equations of 5.B (attack, hold, defend and prevent strength, path), solved by
two mutually recursive functions. ``resolve`` caches results, detects
dependency cycles and applies the backup rule; ``adjudicate`` evaluates one
decision optimistically or pessimistically, assuming the best or the worst
for every dependency that is not yet resolved (5.E). A decision is settled
when both assumptions agree.

A cycle that keeps both assumptions apart has zero or two solutions (5.B.9):

* if it holds a convoy order, the Szykman rule applies (DATC 4.A.2): the
  convoy orders in it fail, as if the fleets held;
* if it holds only moves, it is a circular movement and every move in it
  succeeds;
* otherwise (only possible with variant rules) every order in it fails.

The convoy decision looks at attacking moves through ``adjudicate`` rather
than ``resolve`` (the "simple hack" of 5.D), so that paradox cycles are clean.

The preferred options this encodes: multi-route convoys are disrupted only
when every route is (4.A.1); a convoyed army cuts no support for an attack
on the province it left (4.A.4, 6.G.13); a dislodged unit still bounces
outside a head-to-head battle (4.A.7, via the prevent strength of 5.B.6).

The decisions belong to *forces*: the pieces of one power in one province
carrying the same order. One set of equations (``_decide``) serves two
front ends:

* :func:`adjudicate_movement`, the standard game and its map variants: one
  unit per province, so a force is a unit and is numbered by its province;
* :func:`adjudicate_forces`, for games whose provinces hold several pieces
  (Three Kingdoms: a leader with an army or militia). Several forces may
  start in one province; the province-level notions are taken over the
  forces there: what stays (those not ordered to move and the moves that
  fail), the hold strength (the sum of what stays, with the supports to
  hold of each force), the powers a move may not dislodge (those staying).
  A ``joins`` function (:data:`Joins`) says when a move enters
  beside what stays instead of fighting it (a *join*).

Everything is integer-indexed (by province, or by force); no strings,
dictionaries of names or copies in the hot path.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .board import Board, Unit
from .geography import DipMap
from .orders import CONVERT, CONVOY, HOLD, MOVE, SUPPORT, Order

if TYPE_CHECKING:
    from .variant import VariantRules

_HOLD, _MOVE, _SUPPORT, _CONVOY = 0, 1, 2, 3
# A variant's conversion (CONVERT) stands still all season: a hold.
_KIND = {HOLD: _HOLD, MOVE: _MOVE, SUPPORT: _SUPPORT, CONVOY: _CONVOY, CONVERT: _HOLD}

# Result codes (tests/datc/FORMAT.md, the offline format).
BOUNCE = "bounce"
CUT = "cut"
DISLODGED = "dislodged"
VOID = "void"
NO_CONVOY = "no convoy"
DISBAND = "disband"


Joins = Callable[[int, Sequence[int]], bool]
"""For a game whose provinces hold several pieces (:func:`adjudicate_forces`,
forces named by their index in the list given to it): may the force
``mover`` end its move beside the forces ``staying`` where it goes, without a
battle? Then it does not dislodge them, they add nothing to the province's
hold strength against it, and it still has to beat every other move there
(its prevent strength). Without it (the standard rules) a move where one's
own forces stay fails, and one where another power's stay must dislodge
them. The answer must not turn from yes to no when ``staying`` loses
members."""


@dataclass
class Strengths:
    """Variant hooks for strength (all default to the standard rules).

    The lists are indexed like the decisions: by province in
    :func:`adjudicate_movement`, by force in :func:`adjudicate_forces`.

    ``base[p]``: strength of the unit in province ``p`` on its own (1).
    ``weight[p]``: what a support by the unit in ``p`` adds (1).
    ``penalised[p]``: for a move from ``p``: its attack strength drops by one
    (not below zero) when this is true (e.g. it crosses a wall).
    ``support_penalty[p]``: for a support from ``p``: the attack it supports
    drops by one when this support counts (supported across a wall). The
    drop is never more than one. With any penalty in use, an attack whose
    strength drops to nothing does not cut the support it attacks.
    ``move_base[p]``: strength of a move from ``p`` on its own (its attack,
    its prevent strength and its defence in a head-to-head battle);
    defaults to ``base`` (which then is only the strength of a unit that
    stays).
    ``penalise_defended_only``: the penalties apply only to an attack that
    meets another power's unit staying in (or fighting head to head from)
    the province attacked, not to a move into an empty or vacated province
    (Warring States walls defend the unit in the walled province).
    ``penalise_prevent``: the penalties also weaken the move where it
    contests the province with other moves (its prevent strength) and in a
    head-to-head battle (its defend strength), when it meets another power's
    unit staying in the province (Warring States walls, rules 1 and 4).
    ``beaten_defends``: a move beaten in a head-to-head battle still
    defends its province: the winner must also overcome the province's hold
    strength, in which the beaten force counts as staying (Three Kingdoms:
    "A piece that is blocked in its move returns to its space of origin and
    defends that space").
    ``beaten_prevents``: a move beaten in a head-to-head battle still
    contests its destination with other moves there (Three Kingdoms, which
    knows no exception to "If there are equal forces moving on to a space
    then that space is not entered into by any of the movers"; standard:
    it has no effect there, DATC 5.B.6).
    ``graded_cuts``: a support of weight ``w`` loses ``min(w, s)`` where
    ``s`` is the strength of the strongest single attack on the supporter
    (an attack from the province the support aims at still counts only by
    dislodging it); the supports given by the unit in that aimed-at province
    never count towards the strength of such an attack (Warring States
    floating fortresses). The support order "fails" (``cut``) when nothing
    of it is left.
    """

    base: list[int] | None = None
    weight: list[int] | None = None
    penalised: list[bool] | None = None
    support_penalty: list[bool] | None = None
    move_base: list[int] | None = None
    penalise_defended_only: bool = False
    penalise_prevent: bool = False
    graded_cuts: bool = False
    beaten_defends: bool = False
    beaten_prevents: bool = False


@dataclass
class MovementResult:
    """What a movement phase did.

    ``orders``: the legal order of each unit that had one (by starting
    province); the others held. ``moved``: starting province -> destination location of every
    successful move. ``codes``: starting province -> result codes (empty:
    success). ``dislodged``: province -> (unit, attacker's origin province,
    whether the attacker came by convoy). ``contested``: provinces left empty
    by a standoff. ``board``: the units after the phase (dislodged ones not
    on it).
    """

    orders: dict[int, Order]
    moved: dict[int, int]
    codes: dict[int, list[str]]
    dislodged: dict[int, tuple[Unit, int, bool]]
    contested: set[int]
    board: Board
    convoyed: set[int] = field(default_factory=set)


def adjudicate_movement(
    board: Board,
    orders: Mapping[int, Order],
    void: Sequence[int] = (),
    strengths: Strengths | None = None,
) -> MovementResult:
    """Resolve one movement phase.

    ``orders`` maps a unit's province to its legal order (see
    :mod:`judge_games.diplomacy.legality`); a unit without one holds. ``void``
    lists provinces whose unit was given only illegal orders: it holds and
    is reported ``void``.
    """
    dm: DipMap = board.dm
    n, loc_prov, army_adj, sea_nb = len(dm.provinces), dm.loc_province, dm.army_adj, dm.sea_reach
    units = board.units
    occupied = list(units)

    kind = [-1] * n
    power = [-1] * n
    occ = [-1] * n  # one force per unit, numbered by its province
    mdest = [-1] * n  # move: destination province
    target = [-1] * n  # support/convoy: province of the unit supported/convoyed
    sdest = [-1] * n  # support: province aimed at (hold: target); convoy: army's goal
    convoyed = [False] * n
    res = [-1] * n  # decisions: -1 unresolved, 0 fails, 1 succeeds (holds: 0)
    attackers: dict[int, list[int]] = {}
    rapid: list[int] = []
    moves: list[int] = []
    supports: list[int] = []
    convoys: list[int] = []
    for p, u in units.items():
        power[p] = u.power
        occ[p] = p
        o = orders.get(p)
        if o is None or o.kind == HOLD:
            kind[p] = _HOLD
            res[p] = 0
            continue
        k = _KIND[o.kind]
        kind[p] = k
        if k == _HOLD:  # a variant order that stands still (CONVERT)
            res[p] = 0
            continue
        if k == _MOVE:
            q = loc_prov[o.dest]
            mdest[p] = q
            moves.append(p)
            if o.path:
                rapid.append(p)
            if q in attackers:
                attackers[q].append(p)
            else:
                attackers[q] = [p]
            # Convoy intent (DATC 4.A.3, 2023 rules, no fallback to the land
            # route): by convoy when not adjacent or ordered "via convoy" ...
            if u.type == "A" and (o.via or q not in army_adj[p]):
                convoyed[p] = True
        elif k == _SUPPORT:
            target[p] = o.target
            sdest[p] = o.target if o.dest < 0 else loc_prov[o.dest]
            supports.append(p)
        else:
            target[p] = o.target
            sdest[p] = loc_prov[o.dest]
            convoys.append(p)
    # A move through several spaces (variant: Warring States rapid river
    # moves) is opposed, and does not take place, when a space it passes
    # through holds a unit, is the destination of another move, or is
    # passed through by another such move.
    blocked: list[int] = []
    if rapid:
        through: dict[int, int] = {}
        for p in rapid:
            for r in orders[p].path:
                through[r] = through.get(r, 0) + 1
        for p in rapid:
            if any(r in units or r in attackers or through[r] > 1 for r in orders[p].path):
                blocked.append(p)
        for p in blocked:
            q = mdest[p]
            attackers[q].remove(p)
            if not attackers[q]:
                del attackers[q]
            moves.remove(p)
            res[p] = 0
    # ... or when a fleet of the same power is ordered to convoy it.
    for c in convoys:
        a = target[c]
        if kind[a] == _MOVE and mdest[a] == sdest[c] and power[a] == power[c]:
            convoyed[a] = True

    # Matching: supports and convoys that fit the orders they name (DATC
    # 5.B.2; a support naming a coast must name the coast moved to, 6.B.9).
    msup: dict[int, list[int]] = {}
    hsup: dict[int, list[int]] = {}
    cfleets: dict[int, list[int]] = {}
    valid = [True] * n
    for p in supports:
        t = target[p]
        if sdest[p] == t:
            if kind[t] == _MOVE:
                valid[p] = False
                res[p] = 0
                continue
            hsup.setdefault(t, []).append(p)
        else:
            d = orders[p].dest
            if kind[t] == _MOVE and mdest[t] == sdest[p] and (d == sdest[p] or orders[t].dest == d):
                msup.setdefault(t, []).append(p)
            else:
                valid[p] = False
                res[p] = 0
                continue
        if p not in attackers:
            res[p] = 1
    for p in convoys:
        a = target[p]
        if kind[a] == _MOVE and mdest[a] == sdest[p] and convoyed[a]:
            cfleets.setdefault(a, []).append(p)
            if p not in attackers:
                res[p] = 1
        else:
            valid[p] = False
            res[p] = 0
    h2h, _, path = _decide(
        _identity(n),
        occ,
        _NO_STACKS,
        kind,
        power,
        mdest,
        target,
        sdest,
        convoyed,
        res,
        attackers,
        moves,
        supports,
        convoys,
        msup,
        hsup,
        cfleets,
        set(rapid),
        sea_nb,
        strengths or _STANDARD,
        None,
    )

    # ------------------------------------------------------------------ outcome
    codes: dict[int, list[str]] = {p: [] for p in occupied}
    for p in void:
        codes[p].append(VOID)
    for p in blocked:
        codes[p].append(BOUNCE)
    moved: dict[int, int] = {}
    new_units: dict[int, Unit] = {}
    for p in moves:
        if res[p] == 1:
            o = orders[p]
            dest = o.dest
            moved[p] = dest
            u = units[p]
            new_units[loc_prov[dest]] = Unit(u.power, o.becomes or u.type, dest)
        elif convoyed[p] and not path(p, False):
            codes[p].append(NO_CONVOY)
        else:
            codes[p].append(BOUNCE)
    for p in supports:
        if not valid[p]:
            codes[p].append(VOID)
        elif res[p] == 0:
            codes[p].append(CUT)
    for p in convoys:
        # A convoy is void when it matched no army moving by convoy, or when
        # the Szykman rule made it fail with the fleet not dislodged.
        if not valid[p] or (res[p] == 0 and not any(res[m] == 1 for m in attackers.get(p, ()))):
            codes[p].append(VOID)
    dislodged: dict[int, tuple[Unit, int, bool]] = {}
    for p in occupied:
        if p in moved:
            continue
        o = orders.get(p)
        if p in new_units:
            winner = next(a for a in attackers[p] if a in moved)
            u = units[p]
            if o is not None and o.becomes and o.kind != CONVERT:
                # Variant: the unit changed type to carry out its order; a
                # conversion (CONVERT) fails when the unit is dislodged.
                u = _changed(dm, u, o.becomes)
            dislodged[p] = (u, winner, convoyed[winner])
            codes[p].append(DISLODGED)
        elif o is not None and o.becomes:
            new_units[p] = _changed(dm, units[p], o.becomes)
        else:
            new_units[p] = units[p]
    contested: set[int] = set()
    for q, movers in attackers.items():
        if q in new_units:
            continue
        for w in movers:
            if res[w] == 1:
                continue
            if convoyed[w] and not path(w, False):
                continue
            opp = h2h[w]
            if opp >= 0 and res[opp] == 1:
                continue
            contested.add(q)
            break
    return MovementResult(
        orders=dict(orders),
        moved=moved,
        codes=codes,
        dislodged=dislodged,
        contested=contested,
        board=Board(dm, new_units),
        convoyed={p for p in occupied if convoyed[p]},
    )


def _changed(dm: DipMap, unit: Unit, utype: str) -> Unit:
    """``unit`` turned into a unit of type ``utype`` where it stands."""
    loc = dm.locations[unit.loc].province if utype == "A" else unit.loc
    return Unit(unit.power, utype, loc)


_STANDARD = Strengths()
_NO_STACKS: dict[int, list[int]] = {}
_IDENTITY: dict[int, list[int]] = {}


def _identity(n: int) -> list[int]:
    """``[0, 1, ..., n - 1]``, built once per size (never modified)."""
    found = _IDENTITY.get(n)
    if found is None:
        found = _IDENTITY[n] = list(range(n))
    return found


def _decide(
    at: Sequence[int],
    occ: Sequence[int],
    stacks: Mapping[int, list[int]],
    kind: list[int],
    power: Sequence[int],
    mdest: Sequence[int],
    target: Sequence[int],
    sdest: Sequence[int],
    convoyed: Sequence[bool],
    res: list[int],
    attackers: dict[int, list[int]],
    moves: Sequence[int],
    supports: Sequence[int],
    convoys: Sequence[int],
    msup: Mapping[int, list[int]],
    hsup: Mapping[int, list[int]],
    cfleets: Mapping[int, list[int]],
    passing: set[int] | frozenset[int],
    sea_nb: Sequence[frozenset[int]],
    st: Strengths,
    joins: Joins | None,
) -> tuple[list[int], dict[int, list[int]], Callable[[int, bool], bool]]:
    """Settle every decision of one movement phase in ``res`` (1 succeeds, 0 fails).

    Everything is indexed by force (a "slot"): ``at[s]`` is the province of
    force ``s``; ``occ[q]`` is the force starting in province ``q`` (-1: none,
    -2: several, listed in ``stacks[q]``). With one unit per province (the
    standard game) a force's slot is its province. ``kind``/``power``: its
    order kind and power; ``mdest``: a move's destination province;
    ``target``: the force supported or convoyed; ``sdest``: the province a
    support aims at (for a support to hold: the supported force's province)
    or a convoy's goal; ``attackers[q]``: the moves into ``q``; ``msup``/
    ``hsup``: the matching supports of a move / of a force that stays;
    ``cfleets``: the convoys of a convoyed move; ``passing``: moves that meet
    nobody head to head (moves through several spaces).

    Returns the head-to-head opponent of each move (-1: none), the moves with
    more than one such opponent (possible only with stacks) and the path
    test of convoyed moves, for the caller's outcome.
    """
    n = len(kind)
    empty: list[int] = []
    # Head-to-head battles: a move and a move from its destination into the
    # province it leaves, neither by convoy or through several spaces.
    h2h = [-1] * n
    duels: dict[int, list[int]] = {}
    for q, movers in attackers.items():
        o = occ[q]
        if o == -1:
            continue
        for f in (o,) if o >= 0 else stacks[q]:
            if kind[f] != _MOVE or convoyed[f] or f in passing:
                continue
            back = mdest[f]
            for p in movers:
                if at[p] == back and not convoyed[p] and p not in passing:
                    for a, b in ((p, f), (f, p)):
                        if h2h[a] < 0:
                            h2h[a] = b
                        elif a in duels:
                            duels[a].append(b)
                        else:
                            duels[a] = [h2h[a], b]

    base = st.base or [1] * n
    weight = st.weight or [1] * n
    mbase = st.move_base or base
    pen_move = st.penalised
    pen_sup = st.support_penalty
    penalties = pen_move is not None or pen_sup is not None
    defended_only = st.penalise_defended_only
    pen_prevent = st.penalise_prevent and penalties
    graded = st.graded_cuts
    duel_holds = st.beaten_defends
    duel_prevents = st.beaten_prevents

    visited = [False] * n
    cycle: list[int] = []
    in_cycle = [False] * n
    state = [0, False]  # recursion_hits, uncertain

    def resolve(d: int, opt: bool) -> bool:
        r = res[d]
        if r >= 0:
            return r == 1
        if in_cycle[d]:
            state[1] = True
            return opt
        if visited[d]:
            cycle.append(d)
            in_cycle[d] = True
            state[0] += 1
            state[1] = True
            return opt
        visited[d] = True
        old_len = len(cycle)
        old_hits = state[0]
        old_uncertain = state[1]
        state[1] = False
        first = adjudicate(d, True)
        second = adjudicate(d, False) if (state[1] and first) else first
        visited[d] = False
        if first == second:
            for x in cycle[old_len:]:
                in_cycle[x] = False
            del cycle[old_len:]
            state[0] = old_hits
            state[1] = old_uncertain
            res[d] = 1 if first else 0
            return first
        if in_cycle[d]:
            state[0] -= 1
        if state[0] == old_hits:
            members = cycle[old_len:] or [d]  # never retry without progress
            backup_rule(members)
            for x in cycle[old_len:]:
                in_cycle[x] = False
            del cycle[old_len:]
            state[1] = old_uncertain
            return resolve(d, opt)
        if not in_cycle[d]:
            cycle.append(d)
            in_cycle[d] = True
        return opt

    def backup_rule(members: list[int]) -> None:
        convoys = [d for d in members if kind[d] == _CONVOY]
        if convoys:
            for d in convoys:  # Szykman rule
                res[d] = 0
        elif all(kind[d] == _MOVE for d in members):
            for d in members:  # circular movement
                res[d] = 1
        else:
            for d in members:
                res[d] = 0

    def nsup(sups: list[int], opt: bool) -> int:
        total = 0
        for s in sups:
            if res[s] == 1 or (res[s] < 0 and resolve(s, opt)):
                w = weight[s]
                if graded and w > 1:
                    w -= cut_level(s, opt)
                total += w
        return total

    def cut_level(d: int, opt: bool) -> int:
        # Variant (graded cuts): how much of the support of ``d`` the
        # strongest single attack on it takes away; ``opt`` as for nsup.
        w = weight[d]
        aim = sdest[d]
        pd = power[d]
        # the unit a supported attack goes against gives no strength to
        # attacks that would cut the support (not for a support to hold)
        excl = occ[aim] if aim != at[target[d]] else -1
        level = 0
        for m in attackers.get(at[d], empty):
            if power[m] == pd:
                continue
            if at[m] == aim:
                if resolve(m, not opt):
                    return w
            elif path(m, not opt):
                level = max(level, attack(m, not opt, excl))
                if level >= w:
                    return w
        return level

    def path(p: int, opt: bool) -> bool:
        if not convoyed[p]:
            return True
        fleets = cfleets.get(p)
        if not fleets:
            return False
        ok = {at[f] for f in fleets if res[f] == 1 or (res[f] < 0 and resolve(f, opt))}
        if not ok:
            return False
        goal = sea_nb[mdest[p]]
        todo = [f for f in ok if f in sea_nb[at[p]]]
        seen = set(todo)
        while todo:
            f = todo.pop()
            if f in goal:
                return True
            for g in sea_nb[f]:
                if g in ok and g not in seen:
                    seen.add(g)
                    todo.append(g)
        return False

    def staying(q: int, opt: bool, p: int, duelists: bool) -> list[int]:
        # The forces that stay in the stacked province ``q`` as move ``p``
        # meets them: all but the moves away that succeed under ``opt``; a
        # head-to-head opponent of ``p`` counts as there if ``duelists``
        # (else it is left to the head-to-head battle).
        out = []
        for f in stacks[q]:
            if kind[f] == _MOVE:
                if h2h[p] == f or (duels and f in duels.get(p, empty)):
                    if not duelists:
                        continue
                elif resolve(f, opt):
                    continue
            out.append(f)
        return out

    def attack(p: int, opt: bool, excl: int = -1) -> int:
        # ``excl``: a force whose support does not count (graded cuts).
        if convoyed[p] and not path(p, opt):
            return 0
        q = mdest[p]
        o = occ[q]
        stay: list[int] | None = None
        if o >= 0:
            if kind[o] == _MOVE and h2h[p] < 0 and resolve(o, opt):
                o = -1  # it leaves
        elif o == -2:
            stay = staying(q, opt, p, True)
            o = stay[0] if stay else -1
        if o < 0:
            sups = msup.get(p, empty)
            if excl >= 0:
                sups = [s for s in sups if s != excl]
            strength = mbase[p] + nsup(sups, opt)
            if defended_only:
                return strength
        elif joins is not None and joins(p, stay or (o,)):
            # Variant: it enters beside what stays there; nobody to dislodge.
            return mbase[p] + nsup(msup.get(p, empty), opt)
        elif stay is None:
            pq = power[o]
            if pq == power[p]:
                return 0
            sups = [s for s in msup.get(p, empty) if power[s] != pq and s != excl]
            strength = mbase[p] + nsup(sups, opt)
        else:
            held = {power[f] for f in stay}
            if power[p] in held:
                return 0
            sups = [s for s in msup.get(p, empty) if power[s] not in held and s != excl]
            strength = mbase[p] + nsup(sups, opt)
        if strength > 0 and penalties:
            # Variant rule (e.g. walls): one point off when the move, or a
            # support that counts under the same assumption, is penalised.
            hit = pen_move is not None and pen_move[p]
            if not hit and pen_sup is not None:
                hit = any(pen_sup[s] and (res[s] == 1 or (res[s] < 0 and opt)) for s in sups)
            if hit:
                strength -= 1
        return strength

    def hold(q: int, opt: bool, p: int) -> int:
        # The hold strength of province ``q`` against move ``p``.
        o = occ[q]
        if o == -1:
            return 0
        if o >= 0:
            if kind[o] == _MOVE:
                if resolve(o, not opt):
                    return 0
                strength = base[o]
            else:
                strength = base[o] + nsup(hsup.get(o, empty), opt)
            if joins is not None and joins(p, (o,)):
                return 0
            return strength
        # Several forces: the sum of what stays (moves that fail included).
        stay = staying(q, not opt, p, duel_holds)
        if not stay or (joins is not None and joins(p, stay)):
            return 0
        total = 0
        for f in stay:
            total += base[f] if kind[f] == _MOVE else base[f] + nsup(hsup.get(f, empty), opt)
        return total

    def penalty(p: int, sups: list[int], opt: bool) -> int:
        # Variant: one point off a move that is penalised itself or has a
        # penalised support counting under the assumption ``opt``.
        if pen_move is not None and pen_move[p]:
            return 1
        if pen_sup is not None and any(
            pen_sup[s] and (res[s] == 1 or (res[s] < 0 and opt)) for s in sups
        ):
            return 1
        return 0

    def prevent(w: int, opt: bool) -> int:
        if convoyed[w] and not path(w, opt):
            return 0
        o = h2h[w]
        if o >= 0 and not duel_prevents:
            if resolve(o, not opt):
                return 0
            if duels:
                for o2 in duels.get(w, empty):
                    if resolve(o2, not opt):
                        return 0
        sups = msup.get(w, empty)
        strength = mbase[w] + nsup(sups, opt)
        if pen_prevent and strength > 0:
            # ... in a standoff too, when the move meets another power's
            # unit that stays (or fights head to head) where it goes.
            q = occ[mdest[w]]
            if q >= 0 and power[q] != power[w]:
                k = kind[q]
                if k != _MOVE or o >= 0 or not resolve(q, opt):
                    strength -= penalty(w, sups, opt)
        return strength

    def defend(o: int, opt: bool) -> int:
        # The strength of ``o``'s move in a head-to-head battle.
        sups = msup.get(o, empty)
        strength = mbase[o] + nsup(sups, opt)
        if pen_prevent and strength > 0 and power[h2h[o]] != power[o]:
            strength -= penalty(o, sups, opt)
        return strength

    def adjudicate_move(p: int, opt: bool) -> bool:
        a = attack(p, opt)
        if a == 0:
            return False
        q = mdest[p]
        o = h2h[p]
        if o >= 0:
            if a <= defend(o, not opt):
                return False
            if duels:
                for o2 in duels.get(p, empty):
                    if a <= defend(o2, not opt):
                        return False
            # What else stays there must be beaten too (stacks), and with
            # ``beaten_defends`` the beaten move as well.
            if (duel_holds or occ[q] == -2) and a <= hold(q, not opt, p):
                return False
        elif a <= hold(q, not opt, p):
            return False
        for w in attackers[q]:  # noqa: SIM110 - a plain loop is faster here
            if w != p and a <= prevent(w, not opt):
                return False
        return True

    def adjudicate(d: int, opt: bool) -> bool:
        k = kind[d]
        if k == _MOVE:
            return adjudicate_move(d, opt)
        if k == _SUPPORT:
            if graded:
                return cut_level(d, not opt) < weight[d]
            aim = sdest[d]
            pd = power[d]
            for m in attackers.get(at[d], empty):
                if power[m] == pd:
                    continue
                if at[m] == aim:
                    # An attack from where the support goes cuts it only by
                    # dislodging the supporter (5.B.2).
                    if resolve(m, not opt):
                        return False
                elif path(m, not opt) and (penalties is False or attack(m, not opt) > 0):
                    # With variant penalties an attack reduced to nothing
                    # cuts no support (Warring States walls, rule 5).
                    return False
            return True
        # CONVOY: the fleet must not be dislodged (5.B.3), via adjudicate (5.D).
        for m in attackers.get(at[d], empty):  # noqa: SIM110 - a plain loop is faster here
            if adjudicate_move(m, not opt):
                return False
        return True

    if sys.getrecursionlimit() < 4000:
        sys.setrecursionlimit(4000)
    lone_ok = pen_move is None and not graded
    for p in moves:
        if res[p] < 0:
            q = mdest[p]
            if lone_ok and occ[q] == -1 and len(attackers[q]) == 1 and not convoyed[p]:
                res[p] = 1  # a lone move into an empty province
            else:
                resolve(p, True)
    for p in supports:
        if res[p] < 0:
            resolve(p, True)
    for p in convoys:
        if res[p] < 0:
            resolve(p, True)
    return h2h, duels, path


@dataclass(frozen=True)
class Force:
    """The pieces of one power in one province that carry the same order.

    ``order``: ``HOLD``, ``MOVE`` or ``SUPPORT`` (:mod:`judge_games.diplomacy.orders`);
    ``dest``: a move's destination province, or the province a support aims
    at (-1: a support to hold); ``target``: the index of the force a support
    names.
    """

    at: int
    power: int
    order: str = HOLD
    dest: int = -1
    target: int = -1


@dataclass
class ForceResult:
    """What a movement phase did to a list of forces (named by index).

    ``moved``: the moves that succeed; ``bounced``: those that fail; ``cut``:
    the supports that fail; ``void``: supports that match no order (a
    support to hold of a force that moves, a support of a move elsewhere).
    ``dislodged``: force -> the province its attacker came from.
    ``joined``: a move that ended beside forces staying where it went (a
    join, :data:`Joins`) -> those forces, not dislodged.
    ``contested``: provinces a move was ordered into that no force enters
    and no force stays in.
    """

    moved: set[int]
    bounced: set[int]
    cut: set[int]
    void: set[int]
    dislodged: dict[int, int]
    joined: dict[int, list[int]]
    contested: set[int]


def adjudicate_forces(
    forces: Sequence[Force],
    strengths: Strengths | None = None,
    joins: Joins | None = None,
) -> ForceResult:
    """Resolve one movement phase of ``forces``, several of which may start
    in one province; by land only (no convoys). ``strengths`` is indexed by
    force (``base``: the hold strength of the force, the sum of its pieces';
    ``move_base`` and ``weight``: its strength moving and supporting).
    """
    m = len(forces)
    provinces = 1 + max((max(f.at, f.dest) for f in forces), default=-1)
    at = [f.at for f in forces]
    occ = [-1] * provinces
    stacks: dict[int, list[int]] = {}
    kind = [_HOLD] * m
    power = [f.power for f in forces]
    mdest = [-1] * m
    target = [-1] * m
    sdest = [-1] * m
    res = [-1] * m
    attackers: dict[int, list[int]] = {}
    moves: list[int] = []
    supports: list[int] = []
    for s, f in enumerate(forces):
        o = occ[f.at]
        if o == -1:
            occ[f.at] = s
        else:
            if o >= 0:
                stacks[f.at] = [o]
                occ[f.at] = -2
            stacks[f.at].append(s)
        k = _KIND[f.order]
        kind[s] = k
        if k == _MOVE:
            mdest[s] = f.dest
            moves.append(s)
            attackers.setdefault(f.dest, []).append(s)
        elif k == _SUPPORT:
            target[s] = f.target
            supports.append(s)
        elif k == _HOLD:
            res[s] = 0
        else:
            raise ValueError(f"force {s}: no convoys here")
    # Matching: a support to hold fits a force that does not move ("A unit
    # ordered to move CANNOT be supported to defend its province"), a
    # support of a move fits a move to the province it names.
    msup: dict[int, list[int]] = {}
    hsup: dict[int, list[int]] = {}
    void: set[int] = set()
    for s in supports:
        t = target[s]
        d = forces[s].dest
        if d < 0 and kind[t] != _MOVE:
            sdest[s] = at[t]
            hsup.setdefault(t, []).append(s)
        elif d >= 0 and kind[t] == _MOVE and mdest[t] == d:
            sdest[s] = d
            msup.setdefault(t, []).append(s)
        else:
            void.add(s)
            res[s] = 0
            continue
        if at[s] not in attackers:
            res[s] = 1
    _decide(
        at,
        occ,
        stacks,
        kind,
        power,
        mdest,
        target,
        sdest,
        [False] * m,
        res,
        attackers,
        moves,
        supports,
        (),
        msup,
        hsup,
        {},
        frozenset(),
        (),
        strengths or _STANDARD,
        joins,
    )
    moved = {s for s in moves if res[s] == 1}
    dislodged: dict[int, int] = {}
    joined: dict[int, list[int]] = {}
    entered = set()
    for w in sorted(moved):
        q = mdest[w]
        entered.add(q)
        o = occ[q]
        if o == -1:
            continue
        stay = [x for x in ((o,) if o >= 0 else stacks[q]) if x not in moved]
        if not stay:
            continue
        if joins is not None and joins(w, stay):
            joined[w] = stay
        else:
            for x in stay:
                dislodged[x] = at[w]
    contested = {
        q
        for q in attackers
        if q not in entered and (occ[q] == -1 or all(x in moved for x in stacks.get(q, [occ[q]])))
    }
    return ForceResult(
        moved=moved,
        bounced={s for s in moves if res[s] != 1},
        cut={s for s in supports if res[s] == 0 and s not in void},
        void=void,
        dislodged=dislodged,
        joined=joined,
        contested=contested,
    )


def retreat_options(
    dm: DipMap, result: MovementResult, province: int, rules: VariantRules | None = None
) -> tuple[int, ...]:
    """Locations the unit dislodged from ``province`` may retreat to: adjacent,
    empty after the movement, not left empty by a standoff (6.H.6) and not the
    province its attacker came from unless the attacker came by convoy (4.A.5,
    6.H.11)."""
    unit, attacker, by_convoy = result.dislodged[province]
    occupied = result.board.units
    adj = dm.army_adj[province] if unit.type == "A" else dm.fleet_adj[unit.loc]
    if rules is not None and rules.retreat_adjacency is not None:
        adj = rules.retreat_adjacency(dm, unit, province) or adj
    cands = sorted(adj, key=dm.loc_text)
    out = []
    for loc in cands:
        q = dm.locations[loc].province
        if q in occupied or q in result.contested:
            continue
        if q == attacker and not by_convoy:
            continue
        out.append(loc)
    return tuple(out)

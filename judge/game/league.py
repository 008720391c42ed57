"""Leagues: scoring, standings, ratings and reliability over a league's games.

Pure functions over plain records: no I/O, no clock. The database side (which
games a league holds, the seats, the cached log summaries) and the mail are in
:mod:`judge.commands.league`.

A league counts **finished** games only: standings, ratings and reliability
all come from games whose full history is out, so nothing here tells anyone
who plays which seat of a running game.

Scoring systems (:data:`SCORING`, chosen per league):

* ``draw-size``: a solo win is 1 point to the winner; a draw shared by ``n``
  gives ``1/n`` to each seat in it; everyone else 0.
* ``sum-of-squares``: a solo win is 1 point to the winner; otherwise each
  surviving seat gets its score squared over the sum of the survivors'
  squares (Diplomacy: supply centres, from the ``scores`` of the game's
  record, :class:`judge.game.spec.GameSpec`).
  A game that keeps no score falls back to draw-size.
* ``wdl``: a win 3 points, a place in a draw 1, a loss 0.

Every system also counts wins, draws and losses. Points are exact
:class:`~fractions.Fraction` values (1/3 + 1/3 is 2/3).

Ratings: openskill's Plackett-Luce model (Weng and Lin 2011, algorithm 4),
one team of one per seat, over the league's games in the order they ended.
A seat's place in a game: the winners (or every seat in a draw) share place
1; the others follow by score (most first), and seats without score by how
long they stayed in the game (the last log entry at which they owed a
decision: a later elimination places higher); equal keys share a place.
The rating shown is openskill's ordinal, ``mu - 3 sigma``.

Reliability: for each decision a seat owed (an order set resolved, an action
of its turn) whether it sent something or the default acted for it, counted
for the player who held the seat at that log entry (:class:`Seat` keeps the
earlier holders); plus how many seats each player left (resigned, ejected
or replaced).

Results go to the player holding the seat when the game ended; a player who
left a seat before the end takes no result from it (their absences count in
reliability).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from openskill.models import PlackettLuce

from judge.game import adjudicator as adj
from judge.game.engine import JSON, Role
from judge.game.spec import Game

SCORING: dict[str, str] = {
    "draw-size": "a solo win 1 point; a draw shared by n, 1/n to each seat in it; others 0",
    "sum-of-squares": "a solo win 1 point; else each survivor its centres squared over the "
                      "sum of the survivors' squares",
    "wdl": "a win 3 points, a draw 1, a loss 0",
}
DEFAULT_SCORING = "draw-size"

#: Seat statuses of a seat nobody holds any more (until the GM replaces it).
GONE = frozenset({"resigned", "ejected"})


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Handover:
    """A player who left a seat: ``address`` held it up to log entry ``last_n``."""

    address: str
    last_n: int
    reason: str  # resigned | ejected | replaced


@dataclass(frozen=True)
class Seat:
    """One seat of a league game: who holds it now, and who held it before."""

    role: Role
    address: str
    status: str
    handovers: tuple[Handover, ...] = ()

    def holder(self, n: int) -> str | None:
        """Who held the seat at log entry ``n`` (None: nobody, it was left)."""
        done = sorted(self.handovers, key=lambda h: h.last_n)
        for h in done:
            if n <= h.last_n:
                return h.address
        if done and self.status in GONE and self.address == done[-1].address:
            return None
        return self.address


@dataclass(frozen=True)
class Owed:
    """A decision seat ``role`` owed at log entry ``n``; ``missed``: it sent nothing."""

    n: int
    role: Role
    missed: bool


@dataclass(frozen=True)
class GameResult:
    """One finished game of a league, as scoring needs it."""

    game: str
    ended: str
    """When the entry that ended it was logged (UTC ISO 8601): the order of ratings."""
    seats: tuple[Seat, ...]
    winners: tuple[Role, ...]
    draw: bool
    scores: Mapping[Role, int] = field(default_factory=dict)
    owed: tuple[Owed, ...] = ()
    cancelled: bool = False
    """Its GM cancelled it: no result (scored as abandoned)."""

    @property
    def players(self) -> dict[Role, str]:
        """Role -> the address holding the seat at the end."""
        return {s.role: s.address for s in self.seats}

    @property
    def sharing(self) -> tuple[Role, ...]:
        """The seats that won or share the draw (a draw that names nobody is
        shared by every seat)."""
        if self.draw and not self.winners:
            return tuple(s.role for s in self.seats)
        return self.winners

    @property
    def abandoned(self) -> bool:
        return not self.sharing

    def last_owed(self) -> dict[Role, int]:
        out: dict[Role, int] = {}
        for o in self.owed:
            out[o.role] = max(out.get(o.role, 0), o.n)
        return out


# --------------------------------------------------------------------------- one game


def result_of(result: GameResult, role: Role) -> str:
    """``win``, ``draw`` or ``loss`` for ``role``."""
    if role not in result.sharing:
        return "loss"
    return "win" if len(result.sharing) == 1 and not result.draw else "draw"


def points(result: GameResult, scoring: str) -> dict[Role, Fraction]:
    """Each seat's points from one game under ``scoring``."""
    if scoring not in SCORING:
        raise ValueError(f"no scoring system {scoring!r} (systems: {', '.join(SCORING)})")
    roles = [s.role for s in result.seats]
    out = {r: Fraction(0) for r in roles}
    if result.abandoned:
        return out
    kinds = {r: result_of(result, r) for r in roles}
    if scoring == "wdl":
        return {r: Fraction({"win": 3, "draw": 1, "loss": 0}[kinds[r]]) for r in roles}
    if any(k == "win" for k in kinds.values()):
        return {r: Fraction(1 if kinds[r] == "win" else 0) for r in roles}
    if scoring == "sum-of-squares":
        squares = {r: result.scores.get(r, 0) ** 2 for r in roles}
        total = sum(squares.values())
        if total:
            return {r: Fraction(squares[r], total) for r in roles}
    share = Fraction(1, len(result.sharing))
    return {r: share if kinds[r] == "draw" else Fraction(0) for r in roles}


def places(result: GameResult) -> dict[Role, int]:
    """Each seat's place (1 = best; equal places share a number): the
    winners (every seat of a draw) first, then by score, then by how long
    a seat without score stayed in the game."""
    last = result.last_owed()

    def key(role: Role) -> tuple[int, int]:
        score = result.scores.get(role, 0)
        return (score, 0 if score else last.get(role, 0))

    roles = [s.role for s in result.seats]
    out = {r: 1 for r in roles if r in result.sharing}
    rest = [r for r in roles if r not in out]
    keys = sorted({key(r) for r in rest}, reverse=True)
    first = 2 if out else 1
    for r in rest:
        out[r] = first + keys.index(key(r))
    return out


# --------------------------------------------------------------------------- standings


@dataclass
class Standing:
    address: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: Fraction = Fraction(0)
    rank: int = 0


def _ranked(rows: list[Any], key: Callable[[Any], Any]) -> None:
    """Number ``rows`` (sorted best first) by ``key``: equal keys share a rank."""
    prev: Any = object()
    for i, row in enumerate(rows, 1):
        k = key(row)
        if k != prev:
            row.rank, prev = i, k
        else:
            row.rank = rows[i - 2].rank


def standings(results: Iterable[GameResult], scoring: str) -> list[Standing]:
    """The league table: points (then wins) first, fewer games first on a tie."""
    table: dict[str, Standing] = {}
    for result in results:
        got = points(result, scoring)
        for seat in result.seats:
            row = table.setdefault(seat.address, Standing(seat.address))
            row.games += 1
            kind = result_of(result, seat.role)
            row.wins += kind == "win"
            row.draws += kind == "draw"
            row.losses += kind == "loss"
            row.points += got[seat.role]
    rows = sorted(table.values(), key=lambda s: (-s.points, -s.wins, s.games, s.address))
    _ranked(rows, lambda s: (s.points, s.wins, s.games))
    return rows


# --------------------------------------------------------------------------- ratings


@dataclass
class Rating:
    address: str
    mu: float
    sigma: float
    games: int = 0
    rank: int = 0

    @property
    def ordinal(self) -> float:
        """openskill's ordinal: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma


def in_order(results: Iterable[GameResult]) -> list[GameResult]:
    """The games in the order they ended."""
    return sorted(results, key=lambda r: (r.ended, r.game))


def ratings(results: Iterable[GameResult], model: PlackettLuce | None = None) -> list[Rating]:
    """Every player's rating after the league's games, played in the order
    they ended through openskill's Plackett-Luce model (its defaults: mu 25,
    sigma 25/3); best ordinal first. An abandoned game rates nobody."""
    model = model if model is not None else PlackettLuce()
    current: dict[str, Any] = {}
    games: dict[str, int] = {}
    for result in in_order(results):
        seats = _distinct(result.seats)
        if result.abandoned or len(seats) < 2:
            continue
        place = places(result)
        teams = [[current.get(s.address) or model.rating(name=s.address)] for s in seats]
        rated = model.rate(teams, ranks=[float(place[s.role]) for s in seats])
        for seat, team in zip(seats, rated, strict=True):
            current[seat.address] = team[0]
            games[seat.address] = games.get(seat.address, 0) + 1
    rows = [Rating(a, float(r.mu), float(r.sigma), games[a]) for a, r in current.items()]
    rows.sort(key=lambda r: (-r.ordinal, r.address))
    _ranked(rows, lambda r: round(r.ordinal, 9))
    return rows


def _distinct(seats: Sequence[Seat]) -> list[Seat]:
    """One seat per player (a player holding two seats is rated for the first)."""
    seen: set[str] = set()
    out = []
    for s in seats:
        if s.address not in seen:
            seen.add(s.address)
            out.append(s)
    return out


# --------------------------------------------------------------------------- reliability


@dataclass
class Reliability:
    address: str
    owed: int = 0
    missed: int = 0
    left: int = 0

    @property
    def rate(self) -> float | None:
        """Missed decisions per decision owed (None when none were owed)."""
        return self.missed / self.owed if self.owed else None


def reliability(results: Iterable[GameResult]) -> list[Reliability]:
    """Per player: decisions owed and missed while holding a seat, and seats
    left; the most reliable first."""
    table: dict[str, Reliability] = {}
    for result in results:
        by_role = {s.role: s for s in result.seats}
        for seat in result.seats:
            table.setdefault(seat.address, Reliability(seat.address))
            for h in seat.handovers:
                table.setdefault(h.address, Reliability(h.address)).left += 1
        for o in result.owed:
            held = by_role.get(o.role)
            who = held.holder(o.n) if held is not None else None
            if who is None:
                continue
            row = table.setdefault(who, Reliability(who))
            row.owed += 1
            row.missed += o.missed
    return sorted(table.values(), key=lambda r: (r.rate is None, r.rate or 0.0, r.left,
                                                 -r.owed, r.address))


# --------------------------------------------------------------------------- the log


@dataclass(frozen=True)
class LogSummary:
    owed: tuple[Owed, ...]
    ended: str
    """When the last entry that moved the game was logged."""


def summarise_log(game: Game, rows: Iterable[Mapping[str, Any]], seed: bytes) -> LogSummary:
    """Walk a game's log (rows as stored, ``payload`` decoded, oldest first),
    rebuilding its table entry by entry: before each resolution every seat
    that owed orders and has none held missed the phase; each single action
    a seat took itself was owed and sent, each default that acted for a
    seat on its turn was owed and missed (answers to response windows are
    not counted: standing answers give them by design)."""
    table: adj.Table | None = None
    owed: list[Owed] = []
    ended = ""
    for row in rows:
        kind, role, payload = row["kind"], row["role"], row["payload"]
        n = int(row["n"])
        if table is not None:
            if kind == "resolve":
                owed.extend(Owed(n, r, r not in table.submitted)
                            for r in sorted(adj.ordering_roles(game, table)))
            elif kind in ("act", "default") and role and "window" not in payload:
                owed.append(Owed(n, role, kind == "default"))
        table = adj.apply_entry(game, table, row, seed).table
        if kind in adj.MOVES:
            ended = str(row.get("created") or "")
    return LogSummary(tuple(owed), ended)


# --------------------------------------------------------------------------- output


def fmt_points(value: Fraction, scoring: str) -> str:
    """Whole points under ``wdl``, three decimals under the others."""
    return str(value.numerator) if scoring == "wdl" else f"{float(value):.3f}"


def describe(result: GameResult) -> str:
    if result.cancelled:
        return "cancelled by its GM"
    if result.abandoned:
        return "abandoned"
    names = ", ".join(result.sharing)
    if len(result.sharing) == 1 and not result.draw:
        return f"won by {names}"
    return f"a draw shared by {names}"


def render(name: str, scoring: str, results: Sequence[GameResult], running: Sequence[str],
           show: Callable[[str], str] = str) -> str:
    """The text STANDINGS and ``judge league show`` print. ``show`` writes
    an address as the reader may see it."""
    ordered = in_order(results)
    out = [f"League {name}: {scoring} scoring ({SCORING[scoring]}).",
           f"{len(ordered)} finished game(s)"
           + (f"; running or forming: {', '.join(running)}" if running else "") + "."]
    if ordered:
        out.append("")
        out.append("Games, in the order they ended:")
        for r in ordered:
            out.append(f"  {r.game}: {describe(r)} (ended {r.ended or '?'})")
    width = max([len(show(a)) for r in ordered for a in r.players.values()] + [6])
    out += ["", "Standings:",
            f"  {'#':>3}  {'player':<{width}}  games   W   D   L   points"]
    for s in standings(ordered, scoring):
        out.append(f"  {s.rank:>3}  {show(s.address):<{width}}  {s.games:>5}  {s.wins:>2}"
                   f"  {s.draws:>2}  {s.losses:>2}  {fmt_points(s.points, scoring):>7}")
    out += ["", "Ratings (openskill, Plackett-Luce; ordinal = mu - 3 sigma):",
            f"  {'#':>3}  {'player':<{width}}  games      mu   sigma  ordinal"]
    for x in ratings(ordered):
        out.append(f"  {x.rank:>3}  {show(x.address):<{width}}  {x.games:>5}  {x.mu:>6.2f}"
                   f"  {x.sigma:>6.2f}  {x.ordinal:>7.2f}")
    rel = reliability(ordered)
    width = max([len(show(r.address)) for r in rel] + [6])
    out += ["", "Reliability (decisions owed, missed: the default acted; seats left):",
            f"  {'player':<{width}}  owed  missed    rate  left"]
    for y in rel:
        rate = "-" if y.rate is None else f"{y.rate:.1%}"
        out.append(f"  {show(y.address):<{width}}  {y.owed:>4}  {y.missed:>6}  "
                   f"{rate:>6}  {y.left:>4}")
    if not ordered:
        out += ["", "(No game of the league has finished yet.)"]
    return "\n".join(out) + "\n"


def to_json(name: str, scoring: str, results: Sequence[GameResult],
            running: Sequence[str]) -> dict[str, JSON]:
    """The same as :func:`render`, as JSON (points as floats and as fractions)."""
    ordered = in_order(results)
    return {
        "league": name,
        "scoring": scoring,
        "running": list(running),
        "games": [{"game": r.game, "ended": r.ended, "winners": list(r.sharing),
                   "draw": r.draw, "result": describe(r), "players": r.players,
                   "scores": dict(r.scores)} for r in ordered],
        "standings": [{"rank": s.rank, "player": s.address, "games": s.games, "wins": s.wins,
                       "draws": s.draws, "losses": s.losses, "points": float(s.points),
                       "fraction": str(s.points)} for s in standings(ordered, scoring)],
        "ratings": [{"rank": x.rank, "player": x.address, "games": x.games, "mu": x.mu,
                     "sigma": x.sigma, "ordinal": x.ordinal} for x in ratings(ordered)],
        "reliability": [{"player": x.address, "owed": x.owed, "missed": x.missed,
                         "rate": x.rate, "left": x.left} for x in reliability(ordered)],
    }

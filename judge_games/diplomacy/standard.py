"""The standard map form of the Diplomacy family: its rules over a
:class:`~judge_games.diplomacy.geography.DipMap` (one unit a province, the
seasons ``S``/``F``/``W`` of movement, retreats and adjustments) as the
functions of a :class:`~judge_games.diplomacy.variant.DiplomacyVariant`
record, made by :func:`standard`. Classic Diplomacy is that record with the
standard rules; Warring States gives its :class:`VariantRules`, verbs,
texts and extra legal lines.

The state is JSON (:class:`StandardState`): the position (phase, units,
dislodged units with their retreats, supply centre owners, as in the offline
format but spelt like reports), the options, the last phase's report and,
once over, the outcome. Orders for the current phase are never in the
state: the judge holds them until the phase is resolved.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypedDict, cast

from judge.game.engine import (
    JSON,
    Action,
    AmbiguousLine,
    DecisionKind,
    Event,
    IllegalLine,
    InvalidLine,
    OptionSpec,
    Role,
    RuleError,
    State,
    VerbSpec,
    private,
    public,
)

from . import spelling
from .board import convoy_destinations, fleet_provinces, sea_neighbours
from .geography import DipMap, normalize
from .legality import Situation, bind
from .offline import adjudicate_document
from .orders import (
    ADJUSTMENTS,
    BUILD,
    MOVEMENT,
    REMOVE,
    RETREATS,
    WAIVE,
    AmbiguousName,
    Order,
    UnknownName,
    order_text,
    read_order,
)
from .phases import PhaseReport, Position, phase_title, run_phase, split_phase
from .serial import (
    position_json,
    read_position,
    starting_board,
    starting_owner,
)
from .variant import DiplomacyVariant, Phase, VariantRules

if TYPE_CHECKING:
    from judge.game.rng import Rng  # annotations only: adjudication draws no dice

VERBS: tuple[VerbSpec, ...] = (
    VerbSpec("<unit> H", "hold (also: a unit with no order holds)", "A Par H"),
    VerbSpec("<unit> - <province>", "move (also ->, M, move)", "A Par - Bur"),
    VerbSpec(
        "<unit> - <province> via convoy",
        "move by convoy, even to a neighbour (also: a VIA at the end)",
        "A Lon - Bel via convoy",
    ),
    VerbSpec("<unit> S <unit>", "support a unit that holds", "A Mun S A Ber"),
    VerbSpec("<unit> S <unit> - <province>", "support a move", "A Mun S A Par - Bur"),
    VerbSpec("<fleet> C <army> - <province>", "convoy an army", "F Nth C A Lon - Nwy"),
    VerbSpec("<unit> R <province>", "retreat a dislodged unit", "A Mun R Boh"),
    VerbSpec("<unit> D", "disband a dislodged unit", "A Mun D"),
    VerbSpec("Build <unit>", "build in an owned, empty home centre", "Build F StP/nc"),
    VerbSpec("Remove <unit>", "remove a unit when you have too many", "Remove A Par"),
    VerbSpec("Waive", "decline a build", "Waive"),
)

_SPAN = 5
"""The most words a place name is read from (``"Gulf of Bothnia"``)."""
_PER_NAME = 5
"""The most names tried in place of one unknown name."""


def _respellings(dm: DipMap, tokens: Sequence[str], index: int) -> list[tuple[int, int, list[str]]]:
    """``tokens`` with the words at ``index`` (one or more, for a name of
    several words) replaced by the abbreviation of a province whose name,
    abbreviation or alias is close to them (:meth:`DipMap.similar`), each
    with its distance and where the replacement stands, nearest first, at
    most :data:`_PER_NAME`."""
    best: dict[tuple[int, int, int], int] = {}
    for start in _starts(dm, tokens, index):
        words: list[str] = []
        for end in range(start, min(len(tokens), start + _SPAN)):
            tok = tokens[end]
            if tok == "-" and words:
                continue  # "Mid-Atlantc": a hyphen inside a name
            if not tok[:1].isalnum():
                break
            words.append(tok)
            if end < index:
                continue  # a replacement covers the unknown word
            for d, prov in dm.similar("".join(words)):
                if d < best.get((prov, start, end + 1), d + 1):
                    best[(prov, start, end + 1)] = d
    ranked = sorted(best.items(), key=lambda kv: kv[1])[:_PER_NAME]
    return [
        (d, start, [*tokens[:start], normalize(dm.provinces[prov].id), *tokens[end:]])
        for (prov, start, end), d in ranked
    ]


def _starts(dm: DipMap, tokens: Sequence[str], index: int) -> list[int]:
    """Where the misspelt name around ``tokens[index]`` may start: there, or
    up to two words (and hyphens) before when the reader took them for a
    name, the first part of the misspelt one (``"Mid-Atlantc"``, ``"Mid
    Atlantik"``: ``Mid`` is an abbreviation)."""
    out = [index]
    for start in range(index - 1, max(index - 4, -1), -1):
        if tokens[start] == "-":
            continue
        if not tokens[start][:1].isalnum():
            break
        if "".join(t for t in tokens[start:index] if t != "-") in dm.names:
            out.append(start)
    return out


def _builds(action: Action) -> int:
    """How many builds a held build or waive order uses (``Waive 2``: two)."""
    if action.data.get("kind") != WAIVE:
        return 1
    words = action.text.split()
    return int(words[1]) if len(words) > 1 and words[1].isdigit() else 1


MOVEMENT_PROMPT = "order your units: hold, move, support, convoy"
"""What a movement phase asks under the standard rules."""

_PROMPTS = {
    RETREATS: "retreat or disband your dislodged units",
    ADJUSTMENTS: "build or remove units (or waive builds)",
}


class StandardState(TypedDict):
    """The top-level state of a game on the standard map form."""

    game: str
    options: dict[str, int]
    """``start_year`` and ``max_year`` (0: no limit)."""
    last: dict[str, Any] | None
    """The last phase's report (see ``_report_json``)."""
    ended: dict[str, Any] | None
    """How the game ended: ``winners``, ``draw``, ``reason``."""
    phase: str
    units: dict[str, Any]
    dislodged: dict[str, Any]
    centers: dict[str, Any]


class StandardForm:
    """The standard rules over one map, under a variant's :class:`VariantRules`:
    the functions :func:`standard` puts in the game's record."""

    def __init__(
        self,
        dm: DipMap,
        *,
        id: str,
        rules: VariantRules | None = None,
        movement_prompt: str = MOVEMENT_PROMPT,
        extra_legal: Callable[[Position, int], list[str]] | None = None,
        whole_line_choices: bool = False,
    ) -> None:
        """``extra_legal``: more candidate order lines for a power in a
        movement phase (the variant's order forms), each offered only if it
        parses and binds; ``whole_line_choices``: a name that fits several
        provinces is answered with the whole order lines that parse
        (``"A Luo - YRM"``) rather than the names."""
        self.map = dm
        self.id = id
        self.rules = rules
        self.movement_prompt = movement_prompt
        self.extra_legal = extra_legal
        self.whole_line_choices = whole_line_choices

    # ------------------------------------------------------------------ state

    def position(self, state: State) -> Position:
        return read_position(self.map, state, state["phase"], self.rules)

    def _store(self, state: State, pos: Position) -> State:
        out = dict(state)
        out.update(position_json(pos, upper=False))
        return out

    def _power(self, role: Role) -> int:
        try:
            return self.map.power_index[role.lower()]
        except KeyError:
            raise IllegalLine(f"{role} is not a power of this game") from None

    # ------------------------------------------------------------------ contract

    def setup(self, options: Mapping[str, JSON], rng: Rng) -> State:
        year = int(options.get("start_year", self.map.start_year) or self.map.start_year)
        pos = Position(
            f"S{year}M",
            starting_board(self.map),
            starting_owner(self.map),
            rules=self.rules,
        )
        body = position_json(pos, upper=False)
        state = StandardState(
            game=self.id,
            options={"start_year": year, "max_year": int(options.get("max_year", 0) or 0)},
            last=None,
            ended=None,
            phase=body["phase"],
            units=body["units"],
            dislodged=body["dislodged"],
            centers=body["centers"],
        )
        return cast(State, state)

    def roles(self, state: State) -> list[Role]:
        return [pw.name for pw in self.map.powers]

    def stage(self, state: State) -> str:
        """The state's name in the table: ``over``, else the phase's kind
        (``M``, ``R``, ``A``)."""
        return "over" if state.get("ended") else str(state["phase"])[-1:]

    def deciders(self, state: State) -> list[Role]:
        if state.get("ended"):
            return []
        return [self.map.powers[p].name for p in self.position(state).deciders()]

    def movement_asks(self, state: State) -> str:
        return f"{phase_title(state['phase'])}: {self.movement_prompt}"

    def adjustments_default(self, state: State) -> str:
        """Waive builds, civil disorder removals, or only the one that applies."""
        pos = self.position(state)
        signs = {pos.adjustments()[p] > 0 for p in pos.deciders()}
        if signs == {True}:
            return "waive builds"
        if signs == {False}:
            return "civil disorder removals"
        return "waive builds; civil disorder removals"

    def parse(self, state: State, role: Role, line: str) -> Action:
        pos = self.position(state)
        _, _, kind = split_phase(pos.phase)
        if state.get("ended"):
            try:
                read_order(self.map, line, kind, self.rules)
            except RuleError as exc:
                raise exc.with_line(line) from None
            raise IllegalLine("the game is over", line=line)
        return self._parse(self._situation(pos), self._power(role), line)

    def _situation(self, pos: Position) -> Situation:
        _, _, kind = split_phase(pos.phase)
        return Situation(
            pos.board,
            kind,
            dislodged=pos.dislodged,
            owner=pos.owner,
            adjust=pos.adjustments(),
            rules=pos.rules,
        )

    def _parse(self, sit: Situation, power: int, line: str) -> Action:
        """The action ``line`` gives; when the variant answers an ambiguous
        name with whole lines (``whole_line_choices``), its choices are the
        order lines that parse with each name in its place."""
        try:
            return self._parse_line(sit, power, line)
        except AmbiguousLine as exc:
            if not self.whole_line_choices:
                raise
            cands = exc.lines() if isinstance(exc, AmbiguousName) else list(exc.choices)
            good: list[str] = []
            for cand in cands:
                try:
                    good.append(self._parse_line(sit, power, cand).text)
                except RuleError:
                    continue
            raise AmbiguousLine(exc.message, line=line, choices=good) from None

    def _parse_line(self, sit: Situation, power: int, line: str) -> Action:
        try:
            order = self._order(sit, power, line)
        except UnknownName as exc:
            choices = [text for _, text in self._respelt(sit, power, exc)]
            choices = choices[: spelling.MAX_SUGGESTIONS]
            raise UnknownName(
                exc.message,
                line=line,
                hint=spelling.hint(choices),
                tokens=exc.tokens,
                index=exc.index,
                choices=choices,
            ) from None
        except InvalidLine as exc:
            mended = None if exc.hint else self._hyphened(sit, power, line)
            if mended:
                exc.hint = spelling.hint([mended])
            raise exc.with_line(line) from None
        except RuleError as exc:
            raise exc.with_line(line) from None
        text = order_text(self.map, order)
        return Action(text=text, key=self._key(order), data={"kind": order.kind})

    def _hyphened(self, sit: Situation, power: int, line: str) -> str | None:
        """The legal move a line not understood gives with the move's hyphen
        put back before its last word (``Mos Ukr``, ``A Mos Ukr``: "did you
        mean "A Mos - Ukr"?"), else ``None``. One more reading, only for a
        line of two or three words with no hyphen."""
        words = line.split()
        if not 2 <= len(words) <= 3 or any(w in ("-", "->") for w in words):
            return None
        try:
            order = self._order(sit, power, " ".join(words[:-1]) + " - " + words[-1])
        except RuleError:
            return None
        return order_text(self.map, order)

    def _order(self, sit: Situation, power: int, line: str) -> Order:
        """The legal order ``line`` gives, or the reader's or binder's RuleError."""
        return bind(sit, power, read_order(self.map, line, sit.kind, sit.rules))

    def _respelt(
        self, sit: Situation, power: int, exc: UnknownName, depth: int = 0
    ) -> list[tuple[int, str]]:
        """What a line with an unknown name may have meant: the canonical
        texts of the legal orders it gives with a name of the map close to
        the written one in its place (and, up to two more times, to the next
        unknown name), each with the edit distance of its corrections,
        nearest first. Only legal orders count, so a misspelt destination
        of a move becomes a province the unit can reach, a misspelt unit one
        of the power's own."""
        found: dict[str, int] = {}

        def take(d: int, text: str) -> None:
            if d < found.get(text, d + 1):
                found[text] = d

        for d, start, tokens in _respellings(self.map, exc.tokens, exc.index):
            line = " ".join(tokens)
            try:
                take(d, order_text(self.map, self._order(sit, power, line)))
            except UnknownName as again:
                # Another unknown name further on (not the rest of this one,
                # which a longer replacement covers): correct it too.
                if depth < 2 and again.index > start + 1:
                    for d2, text in self._respelt(sit, power, again, depth + 1):
                        take(d + d2, text)
            except AmbiguousLine as amb:  # "F Mao - Spa": the choices are whole lines
                for choice in amb.choices:
                    try:
                        take(d, order_text(self.map, self._order(sit, power, choice)))
                    except RuleError:
                        continue
            except RuleError:
                continue
        order = {text: i for i, text in enumerate(found)}
        return sorted(((d, t) for t, d in found.items()), key=lambda dt: (dt[0], order[dt[1]]))

    def _key(self, order: Order) -> str:
        if order.kind == WAIVE:
            return "waive"
        prov = self.map.provinces[self.map.locations[order.loc].province].id
        if order.kind == BUILD:
            return f"build:{prov}"
        if order.kind == REMOVE:
            return f"remove:{prov}"
        return prov

    def unordered(self, state: State, role: Role, held: Sequence[Action]) -> list[str]:
        """In a movement phase, ``role``'s units that no held order names
        (they hold at the deadline)."""
        pos = self.position(state)
        if not pos.phase.endswith("M"):
            return []
        keys = {a.key for a in held}
        mine = sorted(pos.board.of(self._power(role)), key=lambda pu: self.map.provinces[pu[0]].id)
        return [pos.board.unit_text(unit) for prov, unit in mine
                if self.map.provinces[prov].id not in keys]

    def check_held(self, state: State, role: Role, action: Action, held: Sequence[Action]) -> None:
        """In an adjustment phase, refuse a build (or waive) that would give
        ``role`` more builds than it may make: one per supply centre over its
        units. ``held`` are the orders held before it; a later order with the
        same key replaces an earlier one (a second build in one province
        replaces the first), and a waived build counts as a build. By mail a
        build over the number is refused on its line, so that it is not
        "accepted" and then void at the deadline (DATC 4.D.4, 6.I.1: "only
        the first legal ones are executed", which still governs orders given
        in one offline order set). Likewise a removal over the number the
        power must remove (DATC 6.J.1)."""
        pos = self.position(state)
        kind = action.data.get("kind")
        if not pos.phase.endswith(ADJUSTMENTS) or kind not in (BUILD, WAIVE, REMOVE):
            return
        allowed = pos.adjustments()[self._power(role)]
        latest: dict[str | None, Action] = {}
        for i, a in enumerate([*held, action]):
            latest[a.key if a.key is not None else f"#{i}"] = a
        if kind == REMOVE:
            # DATC 6.J.1 (and 4.D.6): removals beyond the number a power must
            # make are not carried out; by mail the one over is refused here.
            removals = [a for a in latest.values() if a.data.get("kind") == REMOVE]
            if allowed >= 0 or len(removals) <= -allowed:
                return
            others = [a.text for a in removals if a is not action]
            raise IllegalLine(
                f"you must remove {-allowed}",
                hint="already ordered: " + ", ".join(others) + "; leave this line out, or "
                "send one ORDERS block with only the removals you want (it replaces the "
                "orders held)",
            )
        builds = [a for a in latest.values() if a.data.get("kind") in (BUILD, WAIVE)]
        if sum(_builds(a) for a in builds) <= allowed:
            return
        others = [a.text for a in builds if a is not action]
        # The earlier lines may stand in this very mail (an ORDERS block) or
        # be held from an earlier one: the hint is true of both.
        raise IllegalLine(
            f"you may build {allowed}",
            hint="already ordered: " + ", ".join(others) + " (a Waive counts as a build); "
            "leave this line out, or send one ORDERS block with only the builds you want "
            "(it replaces the orders held)",
        )

    def phase_after(self, state: State, phase: str) -> bool:
        """``S1901R``, ``F1901M``, ``W1901A``...: later than the phase now?"""
        def rank(name: str) -> tuple[int, int] | None:
            m = re.fullmatch(r"([SFW])(\d{4})([MRA])", name.strip().upper())
            if m is None:
                return None
            step = {"SM": 0, "SR": 1, "FM": 2, "FR": 3, "WA": 4}.get(m.group(1) + m.group(3))
            return None if step is None else (int(m.group(2)), step)

        want, now = rank(phase), rank(str(state.get("phase", "")))
        return want is not None and now is not None and want > now

    def act(self, state: State, role: Role, action: Action, rng: Rng) -> tuple[State, list[Event]]:
        raise IllegalLine("Diplomacy orders are written for the phase and resolved together")

    def resolve(
        self, state: State, orders: Mapping[Role, Sequence[Action]], rng: Rng
    ) -> tuple[State, list[Event]]:
        if state.get("ended"):
            raise IllegalLine("the game is over")
        pos = self.position(state)
        lines: dict[int, list[str]] = {}
        for role, actions in orders.items():
            power = self._power(role)
            latest: dict[str | None, int] = {}
            for i, a in enumerate(actions):
                latest[a.key if a.key is not None else f"#{i}"] = i
            keep = sorted(latest.values())
            lines[power] = [actions[i].text for i in keep]
        report = run_phase(pos, lines)
        new = self._store(state, report.position)
        new["last"] = self._report_json(report)
        events = self._events(report)
        new["ended"] = self._check_end(new, report.position)
        if new["ended"]:
            events.append(
                public(f"Game over: {new['ended']['reason']}", kind="end", **new["ended"])
            )
        return new, events

    def _check_end(self, state: State, pos: Position) -> dict[str, Any] | None:
        winners = pos.winners()
        if winners:
            names = [self.map.powers[w].name for w in winners]
            return {
                "winners": names,
                "draw": False,
                "reason": f"{' and '.join(names)} owns {self.map.victory} supply centres",
            }
        max_year = int(state.get("options", {}).get("max_year", 0) or 0)
        season, year, _ = split_phase(pos.phase)
        if max_year and season == "S" and year > max_year:
            survivors = self._survivors(pos)
            return {
                "winners": survivors,
                "draw": True,
                "reason": f"the game reached the end of {max_year}: the survivors draw",
            }
        return None

    def survivors(self, state: State) -> list[Role]:
        """Powers still in the game (owning a supply centre or a unit): those
        who must all vote for an agreed draw."""
        return self._survivors(self.position(state))

    def _survivors(self, pos: Position) -> list[str]:
        alive = {u.power for u in pos.board.units.values()} | set(pos.owner.values())
        return [pw.name for pw in self.map.powers if pw.idx in alive]

    def scores(self, state: State) -> dict[Role, int]:
        """Each power's supply centres (sum-of-squares scoring; the order of
        the powers that did not win)."""
        pos = self.position(state)
        return {pw.name: pos.centre_count(pw.idx) for pw in self.map.powers}

    def agreed_draw(self, state: State, roles: Sequence[Role]) -> State:
        """End the game in a draw shared by ``roles`` (all survivors voted DRAW)."""
        new = dict(state)
        names = [self.map.powers[self._power(r)].name for r in roles]
        new["ended"] = {
            "winners": names,
            "draw": True,
            "reason": "draw agreed by " + ", ".join(names),
        }
        return new

    # ------------------------------------------------------------------ reports

    def _report_json(self, report: PhaseReport) -> dict[str, Any]:
        dm = self.map
        return {
            "phase": report.phase,
            "title": phase_title(report.phase),
            "entries": [
                {
                    "power": dm.powers[e.power].name,
                    "unit": e.unit,
                    "order": e.order,
                    "results": list(e.codes),
                    "reason": e.reason,
                    "kind": e.kind,
                }
                for e in report.entries
            ],
            "destroyed": [
                {"power": dm.powers[e.power].name, "unit": e.unit} for e in report.destroyed
            ],
            "skipped": list(report.skipped),
        }

    def _events(self, report: PhaseReport) -> list[Event]:
        dm = self.map
        events: list[Event] = [
            public(f"{phase_title(report.phase)}:", kind="phase", phase=report.phase)
        ]
        winter = report.phase.endswith("A")
        for e in report.entries:
            power = dm.powers[e.power].name
            if winter and e.kind == "unit" and not e.codes:
                continue  # a unit that simply stays through the adjustments
            if e.order:
                order = e.order
            elif e.kind == "dislodged":
                order = f"{e.unit} (no order: disbands)"
            elif winter:
                order = f"Remove {e.unit}"
            else:
                order = f"{e.unit} (no order: holds)"
            result = ", ".join(e.codes) if e.codes else "ok"
            text = f"{power}: {order} ({result})"
            if e.reason:
                text += f" [{e.reason}]"
            events.append(
                public(
                    text,
                    kind="result",
                    power=power,
                    unit=e.unit,
                    order=e.order,
                    results=list(e.codes),
                )
            )
        for e in report.destroyed:
            power = dm.powers[e.power].name
            events.append(
                public(
                    f"{power}: {e.unit} is dislodged with nowhere to retreat and disbands",
                    kind="destroyed",
                    power=power,
                    unit=e.unit,
                )
            )
        for i in report.ignored:
            role = dm.powers[i.power].name
            events.append(private(role, f'Ignored: "{i.line}": {i.reason}', kind="ignored"))
        for s in report.skipped:
            events.append(public(s, kind="skipped"))
        return events

    def view(self, state: State, role: Role | None) -> dict[str, JSON]:
        pos = self.position(state)
        dm = self.map
        season, year, kind = split_phase(pos.phase)
        adjust = pos.adjustments()
        deciders = {dm.powers[p].name for p in pos.deciders()} if not state.get("ended") else set()
        powers = []
        for pw in dm.powers:
            powers.append(
                {
                    "name": pw.name,
                    "adjective": pw.adjective,
                    "centres": pos.centre_count(pw.idx),
                    "units": pos.board.count(pw.idx),
                    "adjustment": adjust[pw.idx] if kind == ADJUSTMENTS else 0,
                    "to_order": pw.name in deciders,
                    "eliminated": pos.board.count(pw.idx) == 0 and pos.centre_count(pw.idx) == 0,
                }
            )
        body = position_json(pos, upper=False)
        return {
            "game": self.id,
            "phase": pos.phase,
            "phase_title": phase_title(pos.phase),
            "role": role,
            "year": year,
            "season": season,
            "victory": dm.victory,
            "powers": powers,
            "units": body["units"],
            "centres": body["centers"],
            "dislodged": body["dislodged"],
            "last": state.get("last"),
            "ended": state.get("ended"),
        }

    def legal(self, state: State, role: Role) -> list[str]:
        if state.get("ended"):
            return []
        pos = self.position(state)
        dm = self.map
        power = self._power(role)
        _, _, kind = split_phase(pos.phase)
        cands: list[str] = []
        if kind == MOVEMENT:
            for prov, u in sorted(pos.board.of(power)):
                head = f"{u.type} {dm.loc_text(u.loc)}"
                cands.append(f"{head} H")
                if u.type == "A":
                    dests = [dm.provinces[q].id for q in sorted(dm.army_adj[prov])]
                else:
                    dests = [dm.loc_text(loc) for loc in sorted(dm.fleet_adj[u.loc])]
                cands += [f"{head} - {d}" for d in dests]
                if u.type == "A" and dm.is_coastal(prov):
                    fleets = fleet_provinces(pos.board)
                    for q in convoy_destinations(dm, prov, fleets):
                        if q not in dm.army_adj[prov]:
                            cands.append(f"{head} - {dm.provinces[q].id}")
                reach = dm.army_adj[prov] if u.type == "A" else dm.fleet_reach[u.loc]
                for q in sorted(reach):
                    other = pos.board.at(q)
                    if other is not None:
                        cands.append(f"{head} S {other.type} {dm.provinces[q].id}")
                    for r, v in sorted(pos.board.units.items()):
                        if r != prov and r != q and v.type == "A" and q in dm.army_adj[r]:
                            cands.append(f"{head} S A {dm.provinces[r].id} - {dm.provinces[q].id}")
                if u.type == "F" and dm.is_sea(prov):
                    for r, v in sorted(pos.board.units.items()):
                        if v.type == "A" and prov in sea_neighbours(dm, r):
                            for q in sorted(dm.fleet_reach[u.loc]):
                                if dm.is_coastal(q) and q != r:
                                    cands.append(
                                        f"{head} C A {dm.provinces[r].id} - {dm.provinces[q].id}"
                                    )
        elif kind == RETREATS:
            for _, d in sorted(pos.dislodged.items()):
                if d.unit.power != power:
                    continue
                head = f"{d.unit.type} {dm.loc_text(d.unit.loc)}"
                cands += [f"{head} R {dm.loc_text(r)}" for r in d.retreats]
                cands.append(f"{head} D")
        else:
            n = pos.adjustments()[power]
            if n > 0:
                for h in pos.buildable(power):
                    cands.append(f"Build A {dm.provinces[h].id}")
                    cands += [f"Build F {dm.loc_text(loc)}" for loc in dm.fleet_locs[h]]
                cands.append("Waive")
            elif n < 0:
                cands += [
                    f"Remove {u.type} {dm.loc_text(u.loc)}" for _, u in sorted(pos.board.of(power))
                ]
        if kind == MOVEMENT and self.extra_legal is not None:
            cands += self.extra_legal(pos, power)
        out: list[str] = []
        seen: set[str] = set()
        sit = self._situation(pos)
        for line in cands:
            try:
                text = self._parse(sit, power, line).text
            except RuleError:
                continue
            if text not in seen:
                seen.add(text)
                out.append(text)
        return out

    # ------------------------------------------------------------------ offline

    def adjudicate_json(self, doc: dict[str, Any]) -> dict[str, Any]:
        """One line of ``judge adjudicate`` (see :mod:`judge_games.diplomacy.offline`)."""
        return adjudicate_document(self.map, self.id, doc, self.rules)


def standard(
    dm: DipMap,
    *,
    id: str,
    title: str,
    aliases: tuple[str, ...] = (),
    rules: VariantRules | None = None,
    verbs: tuple[VerbSpec, ...] = VERBS,
    movement_prompt: str = MOVEMENT_PROMPT,
    extra_legal: Callable[[Position, int], list[str]] | None = None,
    whole_line_choices: bool = False,
    playthrough_options: Mapping[str, JSON] | None = None,
) -> DiplomacyVariant[DipMap]:
    """The record of a game on the standard map form over ``dm``: the
    standard rules, changed by ``rules`` (see :class:`StandardForm` for
    ``extra_legal`` and ``whole_line_choices``)."""
    form = StandardForm(
        dm,
        id=id,
        rules=rules,
        movement_prompt=movement_prompt,
        extra_legal=extra_legal,
        whole_line_choices=whole_line_choices,
    )

    def phase(prompt: Callable[[State], str], default: Callable[[State], str]) -> Phase:
        """Every state is one order set, read and resolved alike: the
        phase's kind (from its name) tells the reader and the resolver
        which orders it takes."""
        return Phase(
            kind=DecisionKind.ORDERS,
            deciders=form.deciders,
            prompt=prompt,
            default=default,
            parse=form.parse,
            legal=form.legal,
            resolve=form.resolve,
            act=form.act,
            check_held=form.check_held,
            unordered=form.unordered,
        )

    def asks(kind: str) -> Callable[[State], str]:
        return lambda state: f"{phase_title(state['phase'])}: {_PROMPTS[kind]}"

    def says(text: str) -> Callable[[State], str]:
        return lambda state: text

    phases = {
        MOVEMENT: phase(form.movement_asks, says("hold")),
        RETREATS: phase(asks(RETREATS), says("disband")),
        ADJUSTMENTS: phase(asks(ADJUSTMENTS), form.adjustments_default),
        "over": replace(phase(says(""), says("")), kind=None),
    }
    return DiplomacyVariant(
        id=id,
        title=title,
        aliases=aliases,
        map=dm,
        options=(
            OptionSpec("start_year", dm.start_year, "the year the game starts in"),
            OptionSpec(
                "max_year", 0, "after the winter of this year the survivors draw (0: no limit)"
            ),
        ),
        verbs=verbs,
        phases=phases,
        stage=form.stage,
        phase_name=lambda state: str(state["phase"]),
        setup=form.setup,
        roles=form.roles,
        view=form.view,
        survivors=form.survivors,
        agreed_draw=form.agreed_draw,
        rules=rules,
        scores=form.scores,
        phase_after=form.phase_after,
        offline=form.adjudicate_json,
        playthrough_options=playthrough_options or {"max_year": 1903},
    )

"""``WarringStatesGame``: the judge's game contract for Warring States.

Everything is :class:`~games.diplomacy.game.DiplomacyGame` except:

* the rules hooks (:mod:`games.warring_states.rules`) are attached to the map;
* the verbs (no convoys, no fleet builds; conversion, rapid river moves);
* victory (in the rules hooks): 18 centres win only when no other power has
  as many;
* ``legal`` also offers conversions, fleets turning back into armies and
  rapid river moves.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import yaml

from games.diplomacy import DiplomacyGame
from games.diplomacy.legality import Situation
from games.diplomacy.orders import MOVEMENT
from games.diplomacy.phases import split_phase
from judge.engine import (
    JSON,
    Action,
    AmbiguousLine,
    Decision,
    OptionSpec,
    Role,
    RuleError,
    State,
    VerbSpec,
)

from .rules import WarringStatesRules

_AMBIGUOUS_WORD = re.compile(r"^'([^']*)' could be")
"""The name an ambiguity message quotes (games.diplomacy.orders)."""

VERBS: tuple[VerbSpec, ...] = (
    VerbSpec("<unit> H", "hold (also: a unit with no order holds)", "A Luo H"),
    VerbSpec("<unit> - <province>", "move (also ->, M, move)", "A Luo - Yiy"),
    VerbSpec(
        "<fleet> - <river> - <river> [- <river>]",
        "rapid river move through up to three river spaces, when unopposed",
        "F WYR - MYR - LYR",
    ),
    VerbSpec(
        "<army> convert", "turn an army on a river bank or coast into a fleet", "A Luo convert"
    ),
    VerbSpec("<unit> S <unit>", "support a unit that holds", "A Yiy S A Luo"),
    VerbSpec("<unit> S <unit> - <province>", "support a move", "A Yiy S A Luo - Zmo"),
    VerbSpec("<unit> R <province>", "retreat a dislodged unit", "A Luo R Yiy"),
    VerbSpec("<unit> D", "disband a dislodged unit", "A Luo D"),
    VerbSpec("Build A <province>", "build an army in an owned, empty home centre", "Build A Luo"),
    VerbSpec("Remove <unit>", "remove a unit when you have too many", "Remove A Luo"),
    VerbSpec("Waive", "decline a build", "Waive"),
)


def _rivers(path: Path, game: DiplomacyGame) -> frozenset[int]:
    """The river spaces of the map file (``river: true``)."""
    with path.open(encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    dm = game.map
    return frozenset(
        dm.province(pid).idx for pid, p in raw["provinces"].items() if p.get("river", False)
    )


class WarringStatesGame(DiplomacyGame):
    """Warring States over a map file; see the module docstring."""

    verbs = VERBS
    playthrough_options: Mapping[str, JSON] = {"max_year": 352}
    """Random playthroughs end after the winter of the third year (a draw)."""

    def __init__(
        self,
        map_path: Path,
        *,
        id: str,
        title: str,
        aliases: tuple[str, ...] = (),
        options: tuple[OptionSpec, ...] | None = None,
    ) -> None:
        super().__init__(map_path, id=id, title=title, aliases=aliases, options=options)
        self.rules = WarringStatesRules(self.map, _rivers(map_path, self))
        self.map.rules = self.rules

    def extra_legal(self, state: State, role: Role) -> list[str]:
        pos = self.position(state)
        _, _, kind = split_phase(pos.phase)
        if kind != MOVEMENT:
            return []
        dm = self.map
        rules = self.rules
        power = self._power(role)
        out: list[str] = []
        for prov, u in sorted(pos.board.of(power)):
            head = f"{u.type} {dm.loc_text(u.loc)}"
            if u.type == "A":
                if dm.fleet_locs[prov]:
                    out.append(f"{head} convert")
                continue
            if not rules.is_water(prov):
                # Fleets: moving or supporting where only an army can go
                # turns the fleet back into an army.
                inland = sorted(dm.army_adj[prov] - dm.fleet_reach[u.loc])
                out += [f"{head} - {dm.provinces[q].id}" for q in inland]
                for q in inland:
                    other = pos.board.at(q)
                    if other is not None:
                        out.append(f"{head} S {other.type} {dm.provinces[q].id}")
                    for r, v in sorted(pos.board.units.items()):
                        if r not in (prov, q) and q in dm.army_adj[r]:
                            out.append(
                                f"{head} S {v.type} {dm.provinces[r].id} - {dm.provinces[q].id}"
                            )
            for seq in rules.river_paths(prov):
                out.append(f"{head} - " + " - ".join(dm.provinces[q].id for q in seq))
        return out

    def _parse(self, sit: Situation, power: int, line: str) -> Action:
        """As for every Diplomacy game, but an ambiguous name offers whole
        order lines that parse (``"A Luo - YRM"``), never bare names."""
        try:
            return super()._parse(sit, power, line)
        except AmbiguousLine as exc:
            word = _AMBIGUOUS_WORD.match(exc.message)
            good: list[str] = []
            for choice in exc.choices:
                cand = choice
                if word and choice.split()[0] not in ("Build", "Waive") and " " not in choice:
                    pattern = r"\s+".join(re.escape(w) for w in word.group(1).split())
                    cand = re.sub(pattern, choice, line, count=1, flags=re.IGNORECASE)
                try:
                    good.append(super()._parse(sit, power, cand).text)
                except RuleError:
                    continue
            raise AmbiguousLine(exc.message, line=line, choices=good) from None

    def pending(self, state: State) -> list[Decision]:
        return [
            replace(d, prompt=d.prompt.replace("support, convoy", "support, convert"))
            for d in super().pending(state)
        ]

"""The Warring States variant record (:data:`VARIANT`): the standard map
form of the Diplomacy family (:func:`~judge_games.diplomacy.standard.standard`)
on our map, with

* the rules hooks (:mod:`judge_games.warring_states.rules`);
* the verbs (no convoys, no fleet builds; conversion, rapid river moves) and
  the movement prompt that names conversion, not convoy;
* victory (in the rules hooks): 18 centres win only when no other power has
  as many;
* more legal lines: conversions, fleets turning back into armies and rapid
  river moves;
* an ambiguous name answered with whole order lines that parse.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from judge.game.engine import VerbSpec
from judge_games.diplomacy.geography import DipMap, load_map
from judge_games.diplomacy.phases import Position
from judge_games.diplomacy.standard import standard
from judge_games.diplomacy.variant import DiplomacyVariant

from .rules import WarringStatesRules

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


MOVEMENT_PROMPT = "order your units: hold, move, support, convert"
"""No convoys in Warring States: the prompt names conversion instead."""


def _rivers(path: Path, dm: DipMap) -> frozenset[int]:
    """The river spaces of the map file (``river: true``)."""
    with path.open(encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    return frozenset(
        dm.province(pid).idx for pid, p in raw["provinces"].items() if p.get("river", False)
    )


def extra_legal(rules: WarringStatesRules, pos: Position, power: int) -> list[str]:
    """Candidate lines of the variant's own order forms for ``power`` in a
    movement phase (each is offered only if it parses and binds)."""
    dm = pos.dm
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


MAP_FILE = Path(__file__).with_name("map.yaml")
MAP = load_map(MAP_FILE)
RULES = WarringStatesRules(MAP, _rivers(MAP_FILE, MAP))
"""The variant's rules over our map."""

VARIANT: DiplomacyVariant[DipMap] = standard(
    MAP,
    id="warring_states",
    title="Warring States",
    aliases=("warring", "ws", "zhanguo"),
    rules=RULES.changes(),
    verbs=VERBS,
    movement_prompt=MOVEMENT_PROMPT,
    extra_legal=lambda pos, power: extra_legal(RULES, pos, power),
    whole_line_choices=True,
    # Random playthroughs end after the winter of the third year (a draw).
    playthrough_options={"max_year": 352},
)

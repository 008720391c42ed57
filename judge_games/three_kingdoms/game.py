"""Diplomacy of the Three Kingdoms (Edi Birsan): the judge's game contract.

The rulebook is ``three-kingdoms-diplomacy.txt``; comments quote it. Where it is
silent the choice made here is written in README.md ("Our readings").

State (plain JSON):

* ``players``: roles ``Player1``..``PlayerN`` in the rulebook's order of play
  ("starting with the youngest player": Player1 is the youngest);
* ``characters``: role -> ``{"name", "kingdom"}`` drawn at random at set-up;
* ``pieces``: ``[{"kind": "A"|"M"|"L", "owner", "at", "marked"}]``;
* ``owner``: centre (as a string) -> role; ``capital``: role -> centre;
* ``stance``: role -> {player or kingdom -> "alliance"|"neutral"|"war"}, what
  each player has declared; ``civil_war``: pairs of roles, never revoked;
* ``stage``: ``capital``, ``militia``, ``campaign``, ``retreat``, ``adjust``, ``over``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from judge.engine import (
    JSON,
    Action,
    Decision,
    DecisionKind,
    OptionSpec,
    Outcome,
    Role,
    State,
    VerbSpec,
)
from judge.rng import Rng
from judge_games.three_kingdoms.board import BOARD, KINGDOMS, Board

from . import legality, rules
from .rules import OPTIONAL_RULES, POOL, SUGGESTED


class ThreeKingdomsGame:
    """The game's rules object, which ``judge_games.three_kingdoms.SPEC`` records."""

    id = "three_kingdoms"
    title = "Diplomacy of the Three Kingdoms"
    aliases: tuple[str, ...] = ("3k", "threekingdoms", "three-kingdoms")
    options: tuple[OptionSpec, ...] = (
        OptionSpec("players", 6, "number of players (3-6)", (3, 4, 5, 6)),
        OptionSpec("length", 10, "adjustment periods before an unsettled victory"),
        OptionSpec("destined", 14, "centres for a Destined Victor"),
        *(OptionSpec(name, False, text) for name, text in OPTIONAL_RULES),
    )
    verbs: tuple[VerbSpec, ...] = (
        VerbSpec(
            "CAPITAL <centre>", "set-up: place your leader and army (your capital)", "CAPITAL 8"
        ),
        VerbSpec(
            "MILITIA <centre>", "set-up: place a militia in a centre of your kingdom", "MILITIA 6"
        ),
        VerbSpec("NAME <name>", "set-up: rename your character", "NAME Cao Mengde"),
        VerbSpec("<piece><p>-><q>", "move a piece (A army, M militia, L leader)", "A8->5"),
        VerbSpec("<piece><p> S <piece><q>[-><r>]", "support a move or a defender", "L8 S M7->6"),
        VerbSpec("<piece><p> D", "defend (the default)", "A8 D"),
        VerbSpec("<piece><p> DISBAND", "retreat phase: remove a dislodged militia", "M7 DISBAND"),
        VerbSpec(
            "A<p> DESTROY", "optional rule 5: destroy the capital the army sits in", "A8 DESTROY"
        ),
        VerbSpec(
            "WAR|NEUTRAL|ALLIANCE|CIVIL WAR <player or kingdom>",
            "a status order, in effect from this campaign",
            "WAR Player2",
        ),
        VerbSpec(
            "CLAIM LEGENDARY|UNIFICATION|DESTINED", "claim a victory that holds", "CLAIM DESTINED"
        ),
        VerbSpec("CONCEDE <player>", "concede the game to a player", "CONCEDE Player1"),
        VerbSpec("BUILD A|M<centre>", "adjustment: build a unit", "BUILD M6"),
        VerbSpec("REMOVE A|M<p>", "adjustment: remove a unit", "REMOVE M7"),
        VerbSpec("WAIVE", "adjustment: build nothing", "WAIVE"),
    )
    view_schema = "three-kingdoms-view.schema.json"
    playthrough_options: Mapping[str, JSON] = {"length": 3}
    # The contract suite plays each number of players to a victory. Random
    # orders rarely reach 14 centres, so those runs lower the Destined mark
    # (an option of the game) and play longer: most end in a claimed Destined
    # victory, the rest in an unsettled one.
    victory_playthroughs: tuple[Mapping[str, JSON], ...] = tuple(
        {"players": n, "length": 12, "destined": 7} for n in (3, 4, 5, 6)
    )

    def __init__(self, board: Board = BOARD) -> None:
        self.board = board

    def setup(self, options: Mapping[str, JSON], rng: Rng) -> State:
        """The Standard Start: characters are drawn at random (the committed seed
        stands for the bag), then players place capitals and militia in turn."""
        opts = {o.name: options.get(o.name, o.default) for o in self.options}
        n = int(opts["players"])
        if n not in POOL:
            raise ValueError("Diplomacy of the Three Kingdoms takes 3 to 6 players")
        if int(opts["length"]) < 1 or int(opts["destined"]) < 1:
            raise ValueError("length and destined must be at least 1")
        players = [f"Player{i}" for i in range(1, n + 1)]
        # "Each of the players pick one character at random starting with the youngest."
        bag: list[tuple[str, int]] = []
        for k in KINGDOMS:
            if POOL[n][k] == 2:
                bag += [(k, 0), (k, 1)]
            else:  # which of the kingdom's two characters goes into the bag
                bag.append((k, rng.below(2, "characters")))
        rng.shuffle(bag, "characters")
        characters = {
            r: {"name": SUGGESTED[k][i], "kingdom": k}
            for r, (k, i) in zip(players, bag, strict=True)
        }
        stance: dict[str, dict[str, str]] = {}
        for r in players:
            stance[r] = {}
            for o in players:
                if o != r:
                    # "When there are 2 players in the same kingdom, the players start
                    # in this status [alliance] automatically."
                    same = characters[r]["kingdom"] == characters[o]["kingdom"]
                    stance[r][o] = "alliance" if same else "neutral"
            for k in KINGDOMS:
                if k != characters[r]["kingdom"]:
                    stance[r][k] = "neutral"
        return {
            "options": opts,
            "players": players,
            "characters": characters,
            "stage": "capital",
            "setup_turn": 0,
            "turn": 0,
            "campaign": 0,
            "pieces": [],
            "owner": {},
            "capital": {r: None for r in players},
            "stance": stance,
            "civil_war": [],
            "dislodged": [],
            "escaped": [],
            "destroying": {},
            "destroyed": [],
            "adjustments": 0,
            "last": None,
            "result": None,
        }

    def roles(self, state: State) -> list[Role]:
        return list(state["players"])

    def pending(self, state: State) -> list[Decision]:
        stage = state["stage"]
        phase = rules._phase(state)
        if stage == "capital":
            return [
                Decision(
                    DecisionKind.ACTION,
                    (rules._setup_role(state),),
                    phase,
                    prompt="CAPITAL <centre of your kingdom>",
                    default="the lowest-numbered free centre",
                )
            ]
        if stage == "militia":
            return [
                Decision(
                    DecisionKind.ACTION,
                    (rules._setup_role(state),),
                    phase,
                    prompt="MILITIA <centre of your kingdom>",
                    default="the lowest-numbered free centre",
                )
            ]
        if stage == "campaign":
            roles = tuple(
                r for r in rules.active(state) if legality._campaign_lines(self.board, state, r)
            )
            return [
                Decision(
                    DecisionKind.ORDERS,
                    roles,
                    phase,
                    prompt="orders for your pieces and status orders",
                    default="every piece defends",
                )
            ]
        if stage == "retreat":
            roles = tuple(r for r in state["players"] if legality._retreat_lines(state, r))
            return [
                Decision(
                    DecisionKind.ORDERS,
                    roles,
                    phase,
                    prompt="retreat your dislodged pieces",
                    default="each piece takes its first retreat",
                )
            ]
        if stage == "adjust":
            roles = tuple(
                r for r in state["players"] if legality._adjust_lines(self.board, state, r)
            )
            return [
                Decision(
                    DecisionKind.ORDERS,
                    roles,
                    phase,
                    prompt="build or remove units",
                    default="builds waived, removals chosen by the judge",
                )
            ]
        return []

    def default(self, state: State, decision: Decision, role: Role) -> Action | None:
        if state["stage"] in ("capital", "militia") and role == rules._setup_role(state):
            free = rules._free_centres(self.board, state, role)
            if free:
                line = f"{state['stage'].upper()} {free[0]}"
                return legality.parse(self.board, state, role, line)
        return None

    def outcome(self, state: State) -> Outcome | None:
        r = state.get("result")
        if not r:
            return None
        return Outcome(tuple(r["winners"]), bool(r["draw"]), str(r["reason"]))

    def view(self, state: State, role: Role | None) -> dict[str, JSON]:
        """Everything is public in this game except orders not yet resolved, which
        the judge holds outside the state."""
        players = []
        for r in state["players"]:
            c = state["characters"][r]
            players.append(
                {
                    "role": r,
                    "character": c["name"],
                    "kingdom": c["kingdom"],
                    "capital": state["capital"][r],
                    "centres": len(rules.centres_of(state, r)),
                    "units": len(rules.units_of(state, r)),
                    "leader": rules.leader_of(state, r) is not None,
                    "balance": rules.balance(state, r) if state["stage"] == "adjust" else 0,
                    "to_order": any(r in d.roles for d in self.pending(state)),
                }
            )
        status = []
        if not state["options"]["free_style"]:
            for i, a in enumerate(state["players"]):
                for b in state["players"][i + 1 :]:
                    status.append({"a": a, "b": b, "status": rules.status(state, a, b)})
        return {
            "game": self.id,
            "phase": rules._phase(state),
            "role": role,
            "stage": state["stage"],
            "turn": state["turn"],
            "campaign": state["campaign"],
            "options": dict(state["options"]),
            "players": players,
            "pieces": [
                {"kind": p["kind"], "owner": p["owner"], "at": p["at"], "marked": p["marked"]}
                for p in state["pieces"]
            ],
            "owner": dict(state["owner"]),
            "status": status,
            "at_war_with_kingdoms": {
                r: sorted(k for k in KINGDOMS if state["stance"][r].get(k) == "war")
                for r in state["players"]
            },
            "dislodged": copy.deepcopy(state["dislodged"]),
            "destroyed": list(state["destroyed"]),
            "adjustments": state["adjustments"],
            "last": copy.deepcopy(state["last"]),
            "result": copy.deepcopy(state["result"]),
        }

    # ------------------------------------------------------------ rule questions
    # (for the tests and tools that ask the game; the answers are in rules.py)

    def kingdom(self, state: State, role: Role) -> str:
        return rules.kingdom_of(state, role)

    def centres_of(self, state: State, role: Role) -> list[int]:
        return rules.centres_of(state, role)

    def is_centre(self, state: State, n: int) -> bool:
        return rules.is_centre(self.board, state, n)

    def pieces_at(self, state: State, n: int) -> list[dict[str, Any]]:
        return rules.pieces_at(state, n)

    def status(self, state: State, a: Role, b: Role) -> str:
        return rules.status(state, a, b)

    def may_stack(self, state: State, pieces: Sequence[Mapping[str, Any]]) -> bool:
        return rules.may_stack(state, pieces)

    def balance(self, state: State, role: Role) -> int:
        return rules.balance(state, role)

    def victories(self, state: State, role: Role) -> list[str]:
        return rules.victories(self.board, state, role)

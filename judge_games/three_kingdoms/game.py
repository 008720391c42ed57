"""Diplomacy of the Three Kingdoms (Edi Birsan) as a game of the Diplomacy
family: its record (:func:`three_kingdoms`), held by the family's one game
class (:class:`~judge_games.diplomacy.game.DiplomacyGame`).

The rulebook is ``three-kingdoms-diplomacy.txt``; comments quote it. Where it is
silent the choice made here is written in README.md ("Our readings"). The
record's map form is the numbered provinces of :mod:`.board`, several
pieces to a province (its ``stacking`` rule: :func:`.rules.may_stack`); its
states are the set-up's single actions (``capital``, ``militia``) and the
Great Turn's order sets (``campaign``, ``retreat``, ``adjust``), each read by
:mod:`.legality` and played by :mod:`.phases` on the family's resolver.

State (plain JSON, :class:`ThreeKingdomsState`):

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
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, TypedDict, cast

from judge.game.engine import (
    JSON,
    Action,
    DecisionKind,
    OptionSpec,
    Role,
    State,
    VerbSpec,
)
from judge.game.rng import Rng
from judge_games.diplomacy.variant import DiplomacyVariant, Phase, Piece, Resolve
from judge_games.three_kingdoms.board import BOARD, KINGDOMS, Board

from . import legality, phases, rules
from .rules import OPTIONAL_RULES, POOL, SUGGESTED

ID = "three_kingdoms"


class ThreeKingdomsState(TypedDict):
    """The top-level state of a Three Kingdoms game (see the module docstring)."""

    options: dict[str, Any]
    players: list[Role]
    characters: dict[Role, dict[str, str]]
    stage: str
    setup_turn: int
    """Set-up: how many placements were made in this stage."""
    turn: int
    """The Great Turn (0 during set-up)."""
    campaign: int
    """The Military Campaign of the turn (1 or 2)."""
    pieces: list[dict[str, Any]]
    owner: dict[str, Role]
    capital: dict[Role, int | None]
    stance: dict[Role, dict[str, str]]
    civil_war: list[list[Role]]
    dislodged: list[dict[str, Any]]
    escaped: list[Role]
    """Players whose leader made its heroic escape (optional rule 1: once)."""
    destroying: dict[str, Any]
    """Optional rule 5: capitals (as strings) an army began to destroy."""
    destroyed: list[int]
    """Capitals destroyed (optional rule 5): no longer centres."""
    adjustments: int
    """Adjustment periods played."""
    last: dict[str, Any] | None
    result: dict[str, Any] | None
    """How the game ended: ``winners``, ``draw``, ``reason``."""


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("players", 6, "number of players (3-6)", (3, 4, 5, 6)),
    OptionSpec("length", 10, "adjustment periods before an unsettled victory"),
    OptionSpec("destined", 14, "centres for a Destined Victor"),
    *(OptionSpec(name, False, text) for name, text in OPTIONAL_RULES),
)

VERBS: tuple[VerbSpec, ...] = (
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

def setup(options: Mapping[str, JSON], rng: Rng) -> State:
    """The Standard Start: characters are drawn at random (the committed seed
    stands for the bag), then players place capitals and militia in turn."""
    opts = {o.name: options.get(o.name, o.default) for o in OPTIONS}
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
    state = ThreeKingdomsState(
        options=opts,
        players=players,
        characters=characters,
        stage="capital",
        setup_turn=0,
        turn=0,
        campaign=0,
        pieces=[],
        owner={},
        capital={r: None for r in players},
        stance=stance,
        civil_war=[],
        dislodged=[],
        escaped=[],
        destroying={},
        destroyed=[],
        adjustments=0,
        last=None,
        result=None,
    )
    return cast(State, state)


def roles(state: State) -> list[Role]:
    return list(state["players"])


def placement(board: Board, state: State, role: Role) -> Action | None:
    """A seat silent at its set-up deadline places in the lowest-numbered
    free centre of its kingdom."""
    if role != rules._setup_role(state):
        return None
    free = rules._free_centres(board, state, role)
    if not free:
        return None
    return legality.parse(board, state, role, f"{state['stage'].upper()} {free[0]}")


def view(
    deciders: Callable[[State], Sequence[Role]], state: State, role: Role | None
) -> dict[str, JSON]:
    """Everything is public in this game except orders not yet resolved, which
    the judge holds outside the state. ``deciders``: who must decide now."""
    owing = set(deciders(state))
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
                "to_order": r in owing,
            }
        )
    status = []
    if not state["options"]["free_style"]:
        for i, a in enumerate(state["players"]):
            for b in state["players"][i + 1 :]:
                status.append({"a": a, "b": b, "status": rules.status(state, a, b)})
    return {
        "game": ID,
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


def three_kingdoms(
    stacking: Callable[[State, Sequence[Piece]], bool] = rules.may_stack,
) -> DiplomacyVariant[Board]:
    """The record of Diplomacy of the Three Kingdoms, whose ``stacking``
    rule (the rulebook's, :func:`.rules.may_stack`) says which pieces may
    share a province when a campaign is resolved."""
    board = BOARD

    def says(text: str) -> Callable[[State], str]:
        return lambda state: text

    def setup_step(prompt: str) -> Phase:
        """A set-up state: one seat at a time places a piece."""
        return Phase(
            kind=DecisionKind.ACTION,
            deciders=lambda state: (rules._setup_role(state),),
            prompt=says(prompt),
            default=says("the lowest-numbered free centre"),
            parse=partial(legality.parse, board),
            legal=partial(legality.legal, board),
            resolve=phases.no_order_set,
            act=partial(phases.act, board),
            fallback=partial(placement, board),
        )

    def order_set(
        deciders: Callable[[State], Sequence[Role]],
        prompt: str,
        default: str,
        resolve: Resolve,
    ) -> Phase:
        """A state of the Great Turn: every seat with something to order
        writes one order set, resolved together."""
        return Phase(
            kind=DecisionKind.ORDERS,
            deciders=deciders,
            prompt=says(prompt),
            default=says(default),
            parse=partial(legality.parse, board),
            legal=partial(legality.legal, board),
            resolve=resolve,
            act=phases.no_action,
        )

    table: dict[str, Phase] = {
        "capital": setup_step("CAPITAL <centre of your kingdom>"),
        "militia": setup_step("MILITIA <centre of your kingdom>"),
        "campaign": order_set(
            lambda state: [
                r for r in rules.active(state) if legality._campaign_lines(board, state, r)
            ],
            "orders for your pieces and status orders",
            "every piece defends",
            partial(phases.campaign, board, stacking),
        ),
        "retreat": order_set(
            lambda state: [r for r in state["players"] if legality._retreat_lines(state, r)],
            "retreat your dislodged pieces",
            "each piece takes its first retreat",
            partial(phases.retreats, board),
        ),
        "adjust": order_set(
            lambda state: [
                r for r in state["players"] if legality._adjust_lines(board, state, r)
            ],
            "build or remove units",
            "builds waived, removals chosen by the judge",
            partial(phases.adjust, board),
        ),
    }
    table["over"] = Phase(
        kind=None,
        deciders=lambda state: (),
        prompt=says(""),
        default=says(""),
        parse=partial(legality.parse, board),
        legal=partial(legality.legal, board),
        resolve=phases.no_order_set,
        act=phases.no_action,
    )

    def deciders(state: State) -> Sequence[Role]:
        phase = table[state["stage"]]
        return () if phase.kind is None else phase.deciders(state)

    return DiplomacyVariant(
        id=ID,
        title="Diplomacy of the Three Kingdoms",
        draws=True,  # the characters are dealt face down at random (setup)
        aliases=("3k", "threekingdoms", "three-kingdoms"),
        map=board,
        options=OPTIONS,
        verbs=VERBS,
        view_schema="three-kingdoms-view.schema.json",
        phases=table,
        stage=lambda state: str(state["stage"]),
        phase_name=rules._phase,
        setup=setup,
        roles=roles,
        view=partial(view, deciders),
        survivors=rules.survivors,
        agreed_draw=phases.agreed_draw,
        outcome_key="result",
        stacking=stacking,
        playthrough_options={"length": 3},
        # The contract suite plays each number of players to a victory. Random
        # orders rarely reach 14 centres, so those runs lower the Destined mark
        # (an option of the game) and play longer: most end in a claimed Destined
        # victory, the rest in an unsettled one.
        victory_playthroughs=tuple(
            {"players": n, "length": 12, "destined": 7} for n in (3, 4, 5, 6)
        ),
    )

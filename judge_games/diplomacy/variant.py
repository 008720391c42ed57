"""The variant record: one Diplomacy-family game, whole, as data and
functions, held by the game (:class:`~judge_games.diplomacy.game.DiplomacyGame`,
which implements the judge's contract once over it), never by the map.

:class:`DiplomacyVariant` is one frozen record (godip's ``Variant`` in
spirit): what the game is called and offers (id, title, options, verbs), its
map form (a :class:`~judge_games.diplomacy.geography.DipMap` of provinces
holding one unit each, or Three Kingdoms' numbered provinces holding stacks
of pieces), its states table (:class:`Phase`: for each state of the game,
who decides, what they are asked, how a line is read and which lines are
legal, and how the order set is resolved, or the single action played) and
the functions over the whole state (set-up, view, survivors, scores).

The standard map form (classic Diplomacy, Warring States) fills the record
with :func:`judge_games.diplomacy.standard.standard`; a variant on it changes
the standard rules through :class:`VariantRules` (new order forms, other
legality, strengths that depend on the orders, other build sites and
retreat borders, other victory), a record of functions that the shared
grammar, legality, resolver and phases read from what they are given
(``rules`` of a :class:`~judge_games.diplomacy.phases.Position` or
:class:`~judge_games.diplomacy.legality.Situation`, or the ``rules`` argument
of :func:`~judge_games.diplomacy.orders.read_order`); ``None`` (the record or
one of its functions) means the standard rule. Three Kingdoms fills the
record from its own rules (``judge_games/three_kingdoms/game.py``) and shares
the family's resolver, spelling help and game contract.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from judge.game.engine import (
    JSON,
    Action,
    DecisionKind,
    Event,
    OptionSpec,
    Role,
    State,
    VerbSpec,
)

if TYPE_CHECKING:
    from judge.game.rng import Rng

    from .board import Board, Unit
    from .geography import DipMap
    from .legality import Situation
    from .orders import Draft, Order
    from .phases import Position
    from .resolver import Strengths

M = TypeVar("M")
"""The map form of a game of the family."""

Piece = Mapping[str, Any]
"""One piece of a game whose provinces hold several (Three Kingdoms)."""

Resolve = Callable[[State, Mapping[Role, Sequence[Action]], "Rng"], tuple[State, list[Event]]]
"""Resolve a state's order sets: play the phase (new state, events)."""
Act = Callable[[State, Role, Action, "Rng"], tuple[State, list[Event]]]
"""Play one seat's single action."""


@dataclass(frozen=True)
class VariantRules:
    """How a variant on the standard map form changes the standard rules:
    each function ``None`` (or returning ``None``) for "the standard rule"."""

    read_order: Callable[[DipMap, str, str], Draft | None] | None = None
    """``(map, line, phase kind)``: a draft for an order form only the
    variant knows (else ``None``). May raise ``InvalidLine``/``AmbiguousLine``
    quoting ``line``."""
    bind: Callable[[Situation, int, Draft], Order | None] | None = None
    """``(situation, power, draft)``: the legal order for ``draft`` under the
    variant's rules, or ``None`` to bind it by the standard rules. May raise
    ``RuleError``."""
    movement_strengths: Callable[[Board, Mapping[int, Order]], Strengths] | None = None
    """Strengths of a movement phase knowing the legal orders."""
    retreat_adjacency: Callable[[DipMap, Unit, int], frozenset[int] | None] | None = None
    """``(map, unit, province)``: locations the unit dislodged from the
    province may retreat to if empty (``None``: its own army or fleet borders)."""
    build_sites: Callable[[DipMap, int], tuple[int, ...]] | None = None
    """Provinces where a power may build when it owns them and they are
    empty (standard: its own home centres)."""
    winners: Callable[[Position], list[int]] | None = None
    """Power indices that have won in a position (standard: every power
    owning the map's ``victory`` number of centres)."""


@dataclass(frozen=True)
class Phase:
    """One state of a family game, as the judge meets it: a simultaneous
    order set (``ORDERS``: revisable until the deadline, ``resolve`` runs the
    phase) or one seat's single action (``ACTION``: ``act`` plays it), or
    nothing to decide (``kind`` ``None``: the game is over)."""

    kind: DecisionKind | None
    deciders: Callable[[State], Sequence[Role]]
    """Who must decide now, in the rulebook's order."""
    prompt: Callable[[State], str]
    default: Callable[[State], str]
    """What happens to a seat that sends nothing, in words."""
    parse: Callable[[State, Role, str], Action]
    legal: Callable[[State, Role], list[str]]
    resolve: Resolve
    act: Act
    fallback: Callable[[State, Role], Action | None] | None = None
    """The action played for a seat silent at the deadline (``None``: none)."""
    check_held: Callable[[State, Role, Action, Sequence[Action]], None] | None = None
    """Refuse a line that breaks a rule only with the orders held (the
    contract's ``check_held``)."""
    unordered: Callable[[State, Role, Sequence[Action]], list[str]] | None = None
    """What of a seat's has no order among those held."""


@dataclass(frozen=True)
class DiplomacyVariant(Generic[M]):
    """One Diplomacy-family game; see the module docstring."""

    id: str
    title: str
    map: M
    """The map form: a ``DipMap`` (standard) or the numbered provinces of
    Three Kingdoms."""
    options: tuple[OptionSpec, ...]
    verbs: tuple[VerbSpec, ...]
    """The order forms the help lists."""
    phases: Mapping[str, Phase]
    """The states table: a state's name -> its :class:`Phase`."""
    stage: Callable[[State], str]
    """The name of the state the game is in (a key of ``phases``)."""
    phase_name: Callable[[State], str]
    """What the decision now is called in reports (``S1901M``, ``Great Turn 1,
    campaign 1``)."""
    setup: Callable[[Mapping[str, JSON], Rng], State]
    roles: Callable[[State], list[Role]]
    view: Callable[[State, Role | None], dict[str, JSON]]
    survivors: Callable[[State], list[Role]]
    """Who must vote for an agreed draw."""
    agreed_draw: Callable[[State, Sequence[Role]], State]
    outcome_key: str = "ended"
    """The state's key for how the game ended (``winners``, ``draw``,
    ``reason``; absent or empty while it runs)."""
    aliases: tuple[str, ...] = ()
    view_schema: str = "diplomacy-view.schema.json"
    rules: VariantRules | None = None
    """The standard map form's rule changes (``None``: the standard rules)."""
    stacking: Callable[[State, Sequence[Piece]], bool] | None = None
    """For a map form whose provinces hold several pieces: may these pieces
    share a province (``None``: one unit a province)."""
    scores: Callable[[State], dict[Role, int]] | None = None
    phase_after: Callable[[State, str], bool] | None = None
    """Whether a decision of that name may come later (orders sent ahead)."""
    offline: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """``judge adjudicate`` of one JSON document (``None``: not offered)."""
    playthrough_options: Mapping[str, JSON] = field(default_factory=dict)
    """Options under which random playthroughs end quickly."""
    victory_playthroughs: tuple[Mapping[str, JSON], ...] = ()
    """Option sets under which a seeded random playthrough ends in a victory."""
    draws: bool = False
    """Whether the rules make random draws (Diplomacy makes none; a variant
    that deals or shuffles says so), which the reports then speak of."""

"""The variant record: everything in which one Diplomacy-family game over a
map differs from the standard rules, held by the game
(:class:`~judge_games.diplomacy.game.DiplomacyGame`), never by the map.

:class:`DiplomacyVariant` is one frozen record: the map, the rule hooks
(:class:`VariantRules`: new order forms, other legality, strengths that
depend on the orders, other build sites and retreat borders, other
victory), the texts players read (the verbs of the help, the prompt of a
movement phase) and what the game offers (more legal lines, whole-line
choices for an ambiguous name). The classic game's record is the map with
every field at its default: the standard rules.

The shared grammar, legality, resolver and phases read the hooks from what
they are given (``rules`` of a :class:`~judge_games.diplomacy.phases.Position` or
:class:`~judge_games.diplomacy.legality.Situation`, or the ``rules`` argument of
:func:`~judge_games.diplomacy.orders.read_order`), put there from the game's
record; ``None`` means the standard rules throughout.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from judge.engine import JSON, VerbSpec

if TYPE_CHECKING:
    from .board import Board, Unit
    from .geography import DipMap
    from .legality import Situation
    from .orders import Draft, Order
    from .phases import Position
    from .resolver import Strengths

MOVEMENT_PROMPT = "order your units: hold, move, support, convoy"
"""What a movement phase asks under the standard rules."""


class VariantRules:
    """The standard rules: subclass and override what the variant changes.
    Every method returns ``None`` for "the standard rule applies"."""

    def read_order(self, dm: DipMap, line: str, phase_kind: str) -> Draft | None:
        """A draft for an order form only the variant knows (else ``None``).
        May raise ``InvalidLine``/``AmbiguousLine`` quoting ``line``."""
        return None

    def bind(self, sit: Situation, power: int, draft: Draft) -> Order | None:
        """The legal order for ``draft`` under the variant's rules, or
        ``None`` to bind it by the standard rules. May raise ``RuleError``."""
        return None

    def movement_strengths(self, board: Board, orders: Mapping[int, Order]) -> Strengths | None:
        """Strengths for a movement phase knowing the legal orders (``None``: standard)."""
        return None

    def retreat_adjacency(self, dm: DipMap, unit: Unit, province: int) -> frozenset[int] | None:
        """Locations ``unit`` dislodged from ``province`` may retreat to if
        empty (``None``: its own army or fleet borders)."""
        return None

    def build_sites(self, dm: DipMap, power: int) -> tuple[int, ...] | None:
        """Provinces where ``power`` may build when it owns them and they are
        empty (``None``: its own home centres)."""
        return None

    def winners(self, pos: Position) -> list[int] | None:
        """Power indices that have won in ``pos`` (``None``: every power
        owning the map's ``victory`` number of centres)."""
        return None


@dataclass(frozen=True)
class DiplomacyVariant:
    """One Diplomacy-family game's map and rules; see the module docstring."""

    map: DipMap
    rules: VariantRules | None = None
    """The rule hooks (``None``: the standard rules)."""
    verbs: tuple[VerbSpec, ...] = ()
    """The order forms the help lists (empty: the standard ones)."""
    movement_prompt: str = MOVEMENT_PROMPT
    """What a movement phase asks players to do (after the phase's title)."""
    extra_legal: Callable[[Position, int], list[str]] | None = None
    """More candidate order lines for a power in a movement phase (the
    variant's order forms); each is offered only if it parses and binds."""
    whole_line_choices: bool = False
    """Whether a name that fits several provinces is answered with the
    whole order lines that parse (``"A Luo - YRM"``) rather than the names."""
    playthrough_options: Mapping[str, JSON] = field(
        default_factory=lambda: {"max_year": 1903}
    )
    """Options under which random playthroughs end quickly."""

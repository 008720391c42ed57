"""Hooks a variant attaches to its map (``DipMap.rules``) where its rules
differ from the standard ones in ways the ``DiplomacyGame.strengths`` hook
cannot express: new order forms, other legality, strengths that depend on
the orders, other build sites and retreat borders.

Every method of :class:`VariantRules` returns ``None`` for "the standard
rule applies"; the shared grammar, legality, resolver and phases call them
only when the map has rules attached, so the classic game never sees them.

:class:`Stacking` is the hook of a game whose provinces hold several pieces
and that uses the resolver without a Diplomacy map
(:func:`games.diplomacy.resolver.adjudicate_forces`, Three Kingdoms): when a
move ends beside the pieces staying where it goes instead of fighting them.
Its strengths go through :class:`~games.diplomacy.resolver.Strengths`
(indexed by force there).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Board, Unit
    from .geography import DipMap
    from .legality import Situation
    from .orders import Draft, Order
    from .phases import Position
    from .resolver import Strengths


class VariantRules:
    """The standard rules: subclass and override what the variant changes."""

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


class Stacking:
    """Hooks of a game whose provinces hold several pieces, for
    :func:`~games.diplomacy.resolver.adjudicate_forces` (forces are named by
    their index in the list given to it). The standard rules: subclass and
    override what the game changes."""

    def joins(self, mover: int, staying: Sequence[int]) -> bool:
        """May the force ``mover`` end its move beside the forces ``staying``
        where it goes, without a battle? Then it does not dislodge them, they
        add nothing to the province's hold strength against it, and it still
        has to beat every other move there (its prevent strength). Standard
        (``False``): a move where one's own forces stay fails, and one where
        another power's stay must dislodge them. The answer must not turn
        from yes to no when ``staying`` loses members."""
        return False

"""``DiplomacyGame``: the judge's game contract, implemented once for every
game of the Diplomacy family over its record
(:class:`~judge_games.diplomacy.variant.DiplomacyVariant`).

Each contract method finds the state the game is in (the record's
``stage``) and asks that state's :class:`~judge_games.diplomacy.variant.Phase`:
who decides and what they are asked, how a line reads, which lines are
legal, and how the order set is resolved (or the single action played).
Nothing here knows a map form: classic Diplomacy, Warring States and Three
Kingdoms are all this class, each with its own record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic

from judge.game.engine import (
    JSON,
    Action,
    Decision,
    Event,
    Outcome,
    Role,
    State,
)

from .variant import DiplomacyVariant, M, Phase

if TYPE_CHECKING:
    from judge.game.rng import Rng


class DiplomacyGame(Generic[M]):
    """A Diplomacy-family game: the contract over one record. See the module docstring."""

    def __init__(self, variant: DiplomacyVariant[M]) -> None:
        self.variant = variant
        self.map: M = variant.map
        self.id = variant.id
        self.title = variant.title
        self.aliases = variant.aliases
        self.options = variant.options
        self.verbs = variant.verbs
        self.view_schema = variant.view_schema
        self.playthrough_options: Mapping[str, JSON] = variant.playthrough_options
        self.victory_playthroughs = variant.victory_playthroughs
        self.draws = variant.draws
        self._pending_seen: list[tuple[State, tuple[Decision, ...]]] = []

    def _phase(self, state: State) -> Phase:
        return self.variant.phases[self.variant.stage(state)]

    def setup(self, options: Mapping[str, JSON], rng: Rng) -> State:
        return self.variant.setup(options, rng)

    def roles(self, state: State) -> list[Role]:
        return self.variant.roles(state)

    def pending(self, state: State) -> list[Decision]:
        # The judge asks this many times while it handles one mail (whose
        # turn it is, what is owed, the deadline, each report); a state is a
        # value never changed in place (the game contract), so the answer for
        # the very same state object is kept for the next few asks.
        for seen, decided in self._pending_seen:
            if seen is state:
                return list(decided)
        out = self._pending(state)
        self._pending_seen = [(state, tuple(out)), *self._pending_seen[:3]]
        return out

    def _pending(self, state: State) -> list[Decision]:
        """The open state's one decision, when it asks someone."""
        phase = self._phase(state)
        if phase.kind is None:
            return []
        roles = tuple(phase.deciders(state))
        if not roles:
            return []
        return [
            Decision(
                kind=phase.kind,
                roles=roles,
                phase=self.variant.phase_name(state),
                prompt=phase.prompt(state),
                default=phase.default(state),
            )
        ]

    def parse(self, state: State, role: Role, line: str) -> Action:
        return self._phase(state).parse(state, role, line)

    def legal(self, state: State, role: Role) -> list[str]:
        return self._phase(state).legal(state, role)

    def resolve(
        self, state: State, orders: Mapping[Role, Sequence[Action]], rng: Rng
    ) -> tuple[State, list[Event]]:
        return self._phase(state).resolve(state, orders, rng)

    def act(self, state: State, role: Role, action: Action, rng: Rng) -> tuple[State, list[Event]]:
        return self._phase(state).act(state, role, action, rng)

    def default(self, state: State, decision: Decision, role: Role) -> Action | None:
        fallback = self._phase(state).fallback
        return None if fallback is None else fallback(state, role)

    def check_held(self, state: State, role: Role, action: Action, held: Sequence[Action]) -> None:
        check = self._phase(state).check_held
        if check is not None:
            check(state, role, action, held)

    def unordered(self, state: State, role: Role, held: Sequence[Action]) -> list[str]:
        unordered = self._phase(state).unordered
        return [] if unordered is None else unordered(state, role, held)

    def view(self, state: State, role: Role | None) -> dict[str, JSON]:
        return self.variant.view(state, role)

    def outcome(self, state: State) -> Outcome | None:
        ended = state.get(self.variant.outcome_key)
        if not ended:
            return None
        return Outcome(
            winners=tuple(ended["winners"]), draw=bool(ended["draw"]), reason=str(ended["reason"])
        )

    def survivors(self, state: State) -> list[Role]:
        return self.variant.survivors(state)

    def agreed_draw(self, state: State, roles: Sequence[Role]) -> State:
        return self.variant.agreed_draw(state, roles)

    def scores(self, state: State) -> dict[Role, int]:
        return {} if self.variant.scores is None else self.variant.scores(state)

    def phase_after(self, state: State, phase: str) -> bool:
        after = self.variant.phase_after
        return after is not None and after(state, phase)

    def adjudicate_json(self, doc: dict[str, Any]) -> dict[str, Any]:
        """One line of ``judge adjudicate`` (see :mod:`judge_games.diplomacy.offline`)."""
        if self.variant.offline is None:
            raise ValueError(f"{self.id} has no offline adjudication")
        return self.variant.offline(doc)

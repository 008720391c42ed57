"""A seat's view reads the table once per skill question (``Ctx.reading``)
and says exactly what a view that asks the skills afresh every time says."""

from __future__ import annotations

import pytest

from games.kingdom_wars import skills, views
from games.kingdom_wars.table import Ctx
from judge import registry
from tests.support.driver import play

GAME = registry.get("kingdom_wars")


def _states(seed: int, seats: int) -> list[dict[str, object]]:
    steps = play(GAME, seed, options={"seats": seats}).steps
    return [s.state for s in steps[:: max(1, len(steps) // 60)]]


@pytest.mark.parametrize(("seed", "seats"), [(103, 12), (7, 5)])
def test_a_view_is_the_same_with_the_skills_looked_up_once(
    seed: int, seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    states = _states(seed, seats)
    kept = [views.view(st, r, "p") for st in states for r in [*GAME.roles(st), None]]
    asked: list[int] = []
    real = skills._holders

    def afresh(g: Ctx, ids: frozenset[str]) -> list[tuple[str, skills.Skill]]:
        asked.append(1)
        g.holders = None  # nothing kept: every question asked of the table again
        return real(g, ids)

    monkeypatch.setattr(skills, "_holders", afresh)
    fresh = [views.view(st, r, "p") for st in states for r in [*GAME.roles(st), None]]
    assert asked, "the views asked no skill question: the comparison shows nothing"
    assert kept == fresh


def test_reading_keeps_what_the_skills_answered() -> None:
    state = _states(103, 12)[-2]
    g = Ctx.reading(state)
    ids = skills._overriding("modify")
    first = skills._holders(g, ids)
    assert g.holders is not None and g.holders[ids] is first
    assert skills._holders(g, ids) is first
    plain = Ctx(state)
    assert plain.holders is None
    assert skills._holders(plain, ids) == first and plain.holders is None

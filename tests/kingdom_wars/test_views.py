"""A seat's view, the check of a line and the legal lines read the table
once per skill question (``Ctx.reading``), and say exactly what they say
when the skills are asked afresh every time (a check that exposes a general
for a moment, ``play.exposed_for``, drops what was kept)."""

from __future__ import annotations

import pytest

from bench.support.kingdom_wars import copy_of, table
from judge.game import registry
from judge.game.engine import Action, RuleError
from judge_games.kingdom_wars import play as plays
from judge_games.kingdom_wars import skills, views
from judge_games.kingdom_wars.table import Ctx
from tests.support.driver import play

GAME = registry.get("kingdom_wars")


def _states(seed: int, seats: int) -> list[dict[str, object]]:
    steps = play(GAME, seed, options={"seats": seats}).steps
    return [s.state for s in steps[:: max(1, len(steps) // 60)]]


@pytest.mark.parametrize(("seed", "seats"), [
    pytest.param(103, 12, marks=pytest.mark.slow), (7, 5)])
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


def _checked(states: list[dict[str, object]]) -> list[tuple[list[str], list[Action | str]]]:
    """Every seat's legal lines in each state, and what parsing each gives."""
    out: list[tuple[list[str], list[Action | str]]] = []
    for st in states:
        for role in GAME.roles(st):
            lines = GAME.legal(st, role)
            parsed: list[Action | str] = []
            for line in lines[:40]:
                try:
                    parsed.append(GAME.parse(st, role, line))
                except RuleError as exc:  # pragma: no cover - a legal line is read
                    parsed.append(str(exc))
            out.append((lines, parsed))
    return out


@pytest.mark.parametrize(("seed", "seats"), [
    pytest.param(103, 12, marks=pytest.mark.slow), (11, 8)])
def test_checks_and_legal_lines_are_the_same_with_the_skills_looked_up_once(
    seed: int, seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    states = _states(seed, seats)
    kept = _checked(states)
    real = skills._holders

    def afresh(g: Ctx, ids: frozenset[str]) -> list[tuple[str, skills.Skill]]:
        g.holders = None
        return real(g, ids)

    monkeypatch.setattr(skills, "_holders", afresh)
    assert sum(len(lines) for lines, _ in kept) > 100
    assert kept == _checked(states)


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


def test_a_general_exposed_for_a_check_counts_though_the_skills_were_kept() -> None:
    """kingdom-wars-skills.yaml, duanliang (Xu Huang, hidden): a black basic
    card used as Rations Depleted reaches distance 2, as using it exposes the
    general. The check exposes him for a moment (``exposed_for``); what the
    context kept of the skills before must not hide his Cut Supplies."""
    club = copy_of("attack", "clubs", 2)
    state = table(
        {"A": ("xu-huang", "cao-cao"), "B": ("sun-quan", "gan-ning"),
         "C": ("liu-bei", "zhang-fei"), "D": ("hua-tuo", "lv-bu")},
        hands={"A": [club]}, turn="A",
    )
    g = Ctx.reading(state)
    ids = skills._overriding("modify")
    before = skills._holders(g, ids)  # kept: Xu Huang is hidden
    assert ("A", skills.SKILLS["cut-supplies"]) not in before
    with plays.exposed_for(g, "A", "cut-supplies"):
        inside = skills._holders(g, ids)
    assert ("A", skills.SKILLS["cut-supplies"]) in inside
    assert ("A", skills.SKILLS["cut-supplies"]) not in skills._holders(g, ids)
    # and through the game: the line reaches C, two seats away
    action = GAME.parse(state, "A", "USE Rations Depleted BY Cut Supplies WITH Attack C2 ON C")
    assert action.data["on"] == ["C"]

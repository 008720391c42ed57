"""Invariants of every position reached in random playthroughs (all optional
rules on, and free style on its own): the stacking rules hold, every player has
at most one leader, owned provinces are centres, and nothing is dislodged
outside a retreat phase."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from judge_games.three_kingdoms import GAME, RULES, rules
from tests.support.driver import play, playthrough_options

ALL_ON = {
    "heroic_escape": True,
    "militia_disband": True,
    "army_supremacy": True,
    "capital_destruction": True,
    "neutral_zone_battles": True,
    "combined_leaders": True,
}


def _problems(state: dict[str, Any]) -> list[str]:
    out: list[str] = []
    provinces = Counter(p["at"] for p in state["pieces"])
    for n in provinces:
        here = rules.pieces_at(state, n)
        if not rules.may_stack(state, here):
            # Rulebook: "There can only be one army or militia piece in a space at a
            # time. There can only be one character in a province and he may only be
            # in a province with one of his own pieces."
            out.append(f"{n}: {here}")
    leaders = Counter(p["owner"] for p in state["pieces"] if p["kind"] == "L")
    out += [f"{r} has {k} leaders" for r, k in leaders.items() if k > 1]
    for c in state["owner"]:
        if not rules.is_centre(RULES.map, state, int(c)):
            out.append(f"{c} is owned but no centre")
    if state["dislodged"] and state["stage"] != "retreat":
        out.append("dislodged pieces outside a retreat phase")
    return out


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize(
    "extra", [ALL_ON, {"free_style": True}, {}], ids=["all-options", "free-style", "plain"]
)
def test_positions_keep_the_rules(players: int, extra: dict[str, Any]) -> None:
    for seed in (11, 12):
        options = playthrough_options(GAME, {"players": players, "length": 6, **extra})
        p = play(GAME, seed, options=options)
        assert p.outcome is not None
        for step in p.steps:
            problems = _problems(step.state)
            assert not problems, f"seed {seed} step {step.index}: {problems}"

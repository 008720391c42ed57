"""Invariants of the resolver over many reproducible random movement phases
(the benchmark's generator): whatever the orders, the result is a board."""

from __future__ import annotations

import random
from pathlib import Path

from judge_games.diplomacy.resolver import adjudicate_movement
from tests.support.bench import load_bench

ROOT = Path(__file__).resolve().parents[2]




def test_random_phases_give_consistent_boards() -> None:
    bench = load_bench("adjudicate")
    rnd = random.Random(7)
    moved_total = dislodged_total = 0
    for _ in range(400):
        board, lines = bench.random_phase(rnd, 30)
        legal, bad = bench.bind_all(board, lines)
        res = adjudicate_movement(board, legal, bad)
        dm = board.dm
        # Every unit is either on the new board or dislodged, never both, never lost.
        assert len(res.board.units) + len(res.dislodged) == len(board.units)
        for prov, unit in res.board.units.items():
            assert dm.locations[unit.loc].province == prov
        for p, dest in res.moved.items():
            assert res.board.units[dm.locations[dest].province].loc == dest
            assert board.units[p].power == res.board.units[dm.locations[dest].province].power
        for prov, (unit, attacker, _) in res.dislodged.items():
            assert attacker in res.moved and dm.locations[res.moved[attacker]].province == prov
            # No power dislodges its own unit (DATC 6.D.10 ff).
            assert board.units[attacker].power != unit.power
            assert prov not in res.moved
        moved_total += len(res.moved)
        dislodged_total += len(res.dislodged)
    assert moved_total > 1000 and dislodged_total > 50  # the generator makes real fights

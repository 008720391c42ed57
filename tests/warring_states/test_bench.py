"""The resolver on random Warring States movement phases (the benchmark's
generator, ``bench/adjudicate.py --map warring_states``): invariants that
hold whatever the orders, and a pytest-benchmark figure (no timing
assertion; the full benchmark is the script)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from judge_games.diplomacy.orders import CONVERT, MOVE
from judge_games.diplomacy.resolver import adjudicate_movement
from judge_games.warring_states import RULES
from tests.support.bench import load_bench

ROOT = Path(__file__).resolve().parents[2]




BENCH = load_bench("adjudicate")


def test_random_phases_give_consistent_boards() -> None:
    rnd = random.Random(350)
    seen = {"rapid": 0, "rapid moved": 0, "convert": 0, "turned": 0, "dislodged": 0}
    dm = RULES.map
    for _ in range(300):
        board, lines = BENCH.random_phase(rnd, 30, RULES)
        legal, bad = BENCH.bind_all(board, lines)
        res = adjudicate_movement(board, legal, bad, BENCH.strengths(board, legal))
        assert len(res.board.units) + len(res.dislodged) == len(board.units)
        for prov, unit in res.board.units.items():
            assert dm.locations[unit.loc].province == prov
            # armies never on a river or at sea
            assert unit.type == "F" or not dm.is_sea(prov)
        seen["dislodged"] += len(res.dislodged)
        for p, o in legal.items():
            if o.kind == MOVE and o.path:
                seen["rapid"] += 1
                if p in res.moved:
                    seen["rapid moved"] += 1
                    # Ruling: every space passed was empty and no other move entered it.
                    for r in o.path:
                        assert r not in board.units
                        assert not any(
                            q != p and dm.locations[x.dest].province == r
                            for q, x in legal.items()
                            if x.kind == MOVE
                        )
            if o.kind == CONVERT:
                seen["convert"] += 1
                after = res.board.units.get(p)
                if p in res.dislodged:
                    assert res.dislodged[p][0].type == "A"
                else:
                    assert after is not None and after.type == "F"
            if o.becomes == "A" and o.kind == MOVE:
                seen["turned"] += 1
                where = dm.locations[o.dest].province if p in res.moved else p
                unit = res.board.units.get(where) or res.dislodged[p][0]
                assert unit.type == "A"
    # the generator exercises every special order
    assert all(n > 0 for n in seen.values()), seen


PHASES = [BENCH.random_phase(random.Random(1901 + i), 30, RULES) for i in range(50)]
BOUND = [BENCH.bind_all(b, ls) for b, ls in PHASES]


def test_resolver_on_fifty_random_phases(benchmark: Any) -> None:
    def run() -> int:
        moved = 0
        for (board, _), (legal, bad) in zip(PHASES, BOUND, strict=True):
            st = BENCH.strengths(board, legal)
            moved += len(adjudicate_movement(board, legal, bad, st).moved)
        return moved

    assert benchmark(run) > 0

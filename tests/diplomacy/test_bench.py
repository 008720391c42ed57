"""pytest-benchmark measurements of the resolver (no timing assertions: the
figures are for reading with ``pytest tests/diplomacy/test_bench.py``; the
full benchmark is ``bench/adjudicate.py``)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from judge_games.classic import RULES
from judge_games.diplomacy.resolver import adjudicate_movement
from tests.support.bench import load_bench

ROOT = Path(__file__).resolve().parents[2]




BENCH = load_bench("adjudicate")
RND = random.Random(1901)
PHASES = [BENCH.random_phase(RND, 30) for _ in range(50)]
BOUND = [BENCH.bind_all(b, ls) for b, ls in PHASES]
DOCS = [BENCH.document(b, ls) for b, ls in PHASES]


def test_resolver_on_fifty_random_phases(benchmark: Any) -> None:
    def run() -> int:
        moved = 0
        for (board, _), (legal, bad) in zip(PHASES, BOUND, strict=True):
            moved += len(adjudicate_movement(board, legal, bad).moved)
        return moved

    assert benchmark(run) > 0


def test_offline_documents_on_fifty_random_phases(benchmark: Any) -> None:
    def run() -> int:
        return sum(len(RULES.adjudicate_json(doc)["results"]) for doc in DOCS)

    assert benchmark(run) == sum(len(b.units) for b, _ in PHASES)

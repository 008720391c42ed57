"""pytest-benchmark measurements of the resolver (no timing assertions: the
figures are for reading with ``pytest tests/diplomacy/test_bench.py``; the
full benchmark is ``bench/adjudicate.py``)."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType
from typing import Any

from games.classic import GAME
from games.diplomacy.resolver import adjudicate_movement

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_adjudicate", ROOT / "bench/adjudicate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _bench()
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
        return sum(len(GAME.adjudicate_json(doc)["results"]) for doc in DOCS)

    assert benchmark(run) == sum(len(b.units) for b, _ in PHASES)

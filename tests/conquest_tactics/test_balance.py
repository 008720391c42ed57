"""bench/balance.py: seeded self-play of every pairing of the starter decks,
two games a pairing; the report's shape, and every game ended with a result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge_games.conquest_tactics.cards import POOL
from tests.support.bench import load_bench

ROOT = Path(__file__).resolve().parents[2]




BENCH = load_bench("balance")
PAIRING_KEYS = {"south", "north", "games", "south_wins", "north_wins", "draws", "mean_turns",
                "results", "unfinished"}


@pytest.mark.slow  # a whole game (or bench run): not in the fast tier
def test_two_games_a_pairing(capsys: pytest.CaptureFixture[str]) -> None:
    assert BENCH.main(["--games", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"games", "seed", "turn_limit", "pairings"}
    factions = sorted(POOL.starters)
    assert {"kaborha", "malice", "humans", "gunget"} <= set(factions)
    pairs = [(p["south"], p["north"]) for p in report["pairings"]]
    assert sorted(pairs) == sorted((s, n) for s in factions for n in factions)
    for p in report["pairings"]:
        assert set(p) == PAIRING_KEYS
        assert p["games"] == 2 and p["unfinished"] == 0, p
        assert p["south_wins"] + p["north_wins"] + p["draws"] == 2, p
        assert set(p["results"]) == {"3-0", "3-1", "3-2", "3-3", "limit"}
        assert sum(p["results"].values()) == 2, p
        assert p["results"]["3-3"] <= p["draws"]
        assert 1 <= p["mean_turns"] <= report["turn_limit"]


def test_the_same_seed_plays_the_same_games() -> None:
    one = BENCH.play_game("humans", "malice", BENCH.seed_of("humans", "malice", 0, 7), 30)
    two = BENCH.play_game("humans", "malice", BENCH.seed_of("humans", "malice", 0, 7), 30)
    other = BENCH.play_game("humans", "malice", BENCH.seed_of("humans", "malice", 1, 7), 30)
    assert one == two and one["ended"] and one["text"]
    assert other["ended"]

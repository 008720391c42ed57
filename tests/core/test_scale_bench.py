"""``bench/scale.py`` runs, small (no timing assertions: its figures are for
reading; the benchmark's default is 1,000 games and 10,000 mails)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.bench import load_bench

ROOT = Path(__file__).resolve().parents[2]




@pytest.mark.slow  # a whole game (or bench run): not in the fast tier
def test_scale_bench_small(capsys: pytest.CaptureFixture[str]) -> None:
    """Four games (two of each kind) with two mails each, and two games with
    twenty: every mail is processed whole (the bench exits otherwise), the
    outbox is empty afterwards, and the figures are there."""
    assert load_bench("scale").main(["--games", "4", "--mails", "8", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    for key in ("seconds", "peak_rss_mb", "mails", "games", "ms_per_mail_10x100",
                "ms_per_mail_1000x10"):
        assert result[key] > 0, key
    assert (result["games"], result["mails"]) == (4, 8)
    small, large = result["small"], result["large"]
    assert (small["games"], small["mails"]) == (2, 40)
    assert small["queued_after"] == large["queued_after"] == 0
    assert small["db_mb_after"] > small["db_mb_before"] and small["game_years"] > 0

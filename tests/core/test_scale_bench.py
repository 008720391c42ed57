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


@pytest.mark.slow
@pytest.mark.postgres
def test_scale_bench_daemons_on_postgresql(capsys: pytest.CaptureFixture[str]) -> None:
    """Two daemons on one PostgreSQL database and one inbox, one of them
    killed every four mails: the figures of the issue's run are printed, and
    nothing was lost, doubled or handled out of order (the bench's exit
    status says so too)."""
    from tests.support.postgres import server_url

    argv = ["--games", "4", "--mails", "16", "--database", server_url(), "--daemons", "2",
            "--kill-every", "4", "--json"]
    assert load_bench("scale").main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["mails"], result["games"], result["daemons"]) == (16, 4, 2)
    assert result["kills"] >= 3
    assert (result["lost"], result["doubled"], result["out_of_order"]) == (0, 0, 0)
    assert result["seconds"] > 0 and result["cpu_ms_per_mail"] > 0
    assert result["database"] == "postgresql"

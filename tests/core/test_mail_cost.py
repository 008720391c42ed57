"""``bench/mail_cost.py`` runs, on a short game (no timing assertions: the
figures are for reading; the benchmark's default plays thirty years)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.bench import load_bench

ROOT = Path(__file__).resolve().parents[2]




def test_mail_cost_on_three_years(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_bench("mail_cost")
    assert bench.main(["--year", "1903", "--n", "5", "--replays", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    early, late = result["year1"], result["late"]
    assert early["phase"] == "S1901M" and late["phase"] == "S1903M"
    assert early["mails"] == late["mails"] == 5
    assert late["log_entries"] > early["log_entries"] and late["snapshots"] > 1
    # At both points the phase waits for one power, with six order sets in.
    assert early["entries_after_snapshot"] == late["entries_after_snapshot"] == 6
    for key in ("ratio_median", "ratio_p90", "ratio_replay_snapshot", "ratio_replay_full"):
        assert result[key] > 0

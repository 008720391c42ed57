"""``bench/mail_cost.py`` runs, on a short game (no timing assertions: the
figures are for reading; the benchmark's default plays thirty years)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_mail_cost", ROOT / "bench/mail_cost.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_mail_cost_on_three_years(capsys: pytest.CaptureFixture[str]) -> None:
    assert _bench().main(["--year", "1903", "--n", "5", "--replays", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    early, late = result["year1"], result["late"]
    assert early["phase"] == "S1901M" and late["phase"] == "S1903M"
    assert early["mails"] == late["mails"] == 5
    assert late["log_entries"] > early["log_entries"] and late["snapshots"] > 1
    # At both points the phase waits for one power, with six order sets in.
    assert early["entries_after_snapshot"] == late["entries_after_snapshot"] == 6
    for key in ("ratio_median", "ratio_p90", "ratio_replay_snapshot", "ratio_replay_full"):
        assert result[key] > 0

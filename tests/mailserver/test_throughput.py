"""The throughput benchmark (bench/mail_throughput.py) at a small size, so
that it keeps working: every order mail is logged once and acknowledged, and
in the classic run every turn report arrives too. The figures it prints are
for people; the test asserts only the counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.support.mailservers import MailServers
from tests.support.bench import load_bench


def test_benchmark_counts(servers: MailServers, tmp_path: Path,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUDGE_TEST_IMAP_PASSWORD", "judge")
    bench = load_bench("mail_throughput")
    raw = bench.raw_rate(servers, 40, tmp_path)
    judged = bench.judge_rate(servers, 40, 2**8, tmp_path)
    assert raw["mails"] == 40 and raw["rate"] > 0
    assert judged["orders_logged"] == 40
    assert judged["mails_processed"] == 40 + 6  # CREATE, 3 JOINs, START, the warm-up
    assert servers.count("judge") == 0
    print(f"raw {raw['rate']:.0f}/s, judge {judged['rate']:.0f}/s")


def test_classic_benchmark_counts(servers: MailServers, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Seven powers' order sets through the servers: every order mail taken
    whole, the phases resolved as in the throw-away home, and every
    acknowledgement and turn report the judge sent there delivered here."""
    monkeypatch.setenv("JUDGE_TEST_IMAP_PASSWORD", "judge")
    bench = load_bench("mail_throughput")
    script = bench.classic_script(20, tmp_path)
    # S1901M (7 orders), F1901M (7), the winter adjustments, then S1902M.
    powers = [power for power, _ in script.mails]
    assert sorted(powers[:7]) == sorted(set(powers[:7])) and len(set(powers[:7])) == 7
    assert script.sent > 20 + 2 * 7  # an acknowledgement each and two turns' reports
    (tmp_path / "run").mkdir()
    run = bench.classic_rate(servers, script, 2**8, tmp_path / "run")
    assert run["mails_processed"] == 20 + 1 and run["orders_whole"] == 20 + 1  # and the warm-up
    assert run["phase"] not in ("S1901M", "F1901M")
    assert run["mails_delivered"] == run["mails_sent"] >= script.sent
    assert servers.count("judge") == 0

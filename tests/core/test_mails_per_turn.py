"""The mail targets of DESIGN.md ("Decisions, windows and who gets mail"),
measured by bench/mails_per_turn.py: one game turn of Five Kingdoms Attack
Qin played by mail, with ``SET ACK all`` and with ``SET ACK errors``. Per seat
and turn: sent <= 1.2 x decisions; received <= 2 x decisions + 1 (ACK all),
received <= decisions + 1 (ACK errors)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.bench import load_bench

ROOT = Path(__file__).resolve().parents[2]
KEYS = {"game", "scenario", "turn", "seat", "ack", "sent", "decisions", "received"}




BENCH = load_bench("mails_per_turn")


def _run(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, list[dict[str, Any]]]:
    code = BENCH.main(["--turns", "1", "--scenario", "five-kingdoms", "--json", *extra])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]
    return code, rows


def _misses(rows: list[dict[str, Any]]) -> list[str]:
    out = []
    for r in rows:
        d = r["decisions"]
        limit = 2 * d + 1 if r["ack"] == "all" else d + 1
        if r["sent"] > 1.2 * d:
            out.append(f"ACK {r['ack']} turn {r['turn']} {r['seat']}: sent {r['sent']} > 1.2 x {d}")
        if r["received"] > limit:
            out.append(f"ACK {r['ack']} turn {r['turn']} {r['seat']}: "
                       f"received {r['received']} > {limit}")
    return out


def _check(code: int, rows: list[dict[str, Any]]) -> None:
    assert all(set(r) == KEYS for r in rows)
    assert {(r["ack"], r["seat"], r["turn"]) for r in rows} == {
        (ack, seat, 1) for ack in ("all", "errors") for seat in ("Lianheng", "Alliance")}
    assert all(r["game"] == "conflict_of_alliances" and r["scenario"] == "five-kingdoms"
               for r in rows)
    assert all(r["decisions"] > 0 for r in rows), "a seat decided nothing: the run proved little"
    assert _misses(rows) == []
    assert code == 0


def test_targets_hold_when_players_reply_to_requests(capsys: pytest.CaptureFixture[str]) -> None:
    _check(*_run(capsys))


@pytest.mark.slow
def test_targets_hold_when_players_write_new_mails(capsys: pytest.CaptureFixture[str]) -> None:
    _check(*_run(capsys, "--new-mails"))


@pytest.mark.slow
def test_kingdom_wars_six_seats_meet_the_targets_each_round(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The scripted six-seat Kingdom Wars game, one round (a turn of every
    seat), both acknowledgement settings: the same targets per seat and round."""
    code = BENCH.main(["--turns", "1", "--scenario", "kingdom-wars-6", "--json"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert all(set(r) == KEYS for r in rows)
    assert {(r["ack"], r["seat"], r["turn"]) for r in rows} == {
        (ack, seat, 1) for ack in ("all", "errors") for seat in "ABCDEF"}
    assert all(r["game"] == "kingdom_wars" and r["scenario"] == "kingdom-wars-6" for r in rows)
    # A seat may have nothing to decide in a round (a Play Phase whose only
    # line is PASS is not asked, nor a forced answer; the windows answer by
    # standing answers): most seats decide, and one that does not gets at
    # most one mail.
    assert len({r["seat"] for r in rows if r["decisions"] > 0}) >= 4, \
        "too few seats decided: the run proved little"
    assert all(r["received"] <= 1 for r in rows if r["decisions"] == 0)
    assert _misses(rows) == []
    assert code == 0


@pytest.mark.slow
def test_conquest_tactics_meets_the_targets_each_turn(capsys: pytest.CaptureFixture[str]) -> None:
    """Two scripted turns of Conquest Tactics (Humans against Malice), both
    acknowledgement settings: the same targets per seat and turn; a whole
    Mobilize goes in one mail."""
    code = BENCH.main(["--turns", "2", "--scenario", "conquest-tactics", "--json"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert all(set(r) == KEYS for r in rows)
    assert {(r["ack"], r["seat"], r["turn"]) for r in rows} == {
        (ack, seat, turn) for ack in ("all", "errors") for seat in ("South", "North")
        for turn in (1, 2)}
    assert all(r["game"] == "conquest_tactics" and r["scenario"] == "conquest-tactics"
               for r in rows)
    assert all(r["decisions"] > 0 for r in rows), "a seat decided nothing: the run proved little"
    assert _misses(rows) == []
    assert code == 0

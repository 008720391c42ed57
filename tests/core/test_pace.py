"""bench/pace.py, the calendar of the card games by mail: one short game
of each kind (two rounds), through the script's own functions, and its JSON
output. What it counts must agree with the judge's own records and with the
players' reading hours."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from tests.support.bench import load_bench

BENCH = load_bench("pace")
KEYS = {"game", "seats", "games", "median_days", "median_rounds", "blocking_per_round",
        "windows_per_round"}
SHORT = 2
"""Rounds per game in these tests: the game is stopped when the next one begins."""


@pytest.fixture(scope="module")
def runs() -> dict[str, Any]:
    BENCH.set_kdf_cost(2**8)
    return {game: BENCH.play(game, 6, 7, 1, max_rounds=SHORT) for game in BENCH.GAMES}


def test_reading_times() -> None:
    # 08:00, 13:00 and 21:00 local; UTC-8 reads at 16:00, 21:00 and 05:00 UTC.
    at = datetime(2026, 3, 2, 16, 0, tzinfo=UTC)
    assert BENCH.next_reading(at, -8.0) == at
    assert BENCH.next_reading(at + timedelta(minutes=1), -8.0) == datetime(
        2026, 3, 2, 21, 0, tzinfo=UTC)
    assert BENCH.next_reading(datetime(2026, 3, 2, 21, 30, tzinfo=UTC), -8.0) == datetime(
        2026, 3, 3, 5, 0, tzinfo=UTC)
    assert BENCH.zones(6) == [-8.0, -5.0, -1.0, 2.0, 6.0, 9.0]
    assert BENCH.zones(2) == [-8.0, 9.0]


def test_listed_lines() -> None:
    # A compact line stands for every line made by taking one word at each
    # bar (judge/game/choices.py); both headings of the request are read.
    text = ("You owe: an action (A: Play Phase): play a card or pass.\n"
            "Your choices (x|y: send one of them):\n  PASS\n  USE Attack HQ ON B|F\n"
            "  REVEAL MAIN|DEPUTY|BOTH\n\nDeadline: x\n")
    assert BENCH.listed_lines(text) == ["PASS", "USE Attack HQ ON B", "USE Attack HQ ON F",
                                        "REVEAL MAIN", "REVEAL DEPUTY", "REVEAL BOTH"]
    assert BENCH.listed_lines("You owe: x\nYour choices:\n  SHOW Dodge D9\n") == [
        "SHOW Dodge D9"]
    assert BENCH.listed_lines("no request here\n") == []


@pytest.fixture(scope="module")
def requests() -> dict[str, list[tuple[str, list[str]]]]:
    """Every request of one round of each game, as the judge mailed it, with
    the lines the game took from its reader at that moment."""
    BENCH.set_kdf_cost(2**8)
    seen: dict[str, list[tuple[str, list[str]]]] = {g: [] for g in BENCH.GAMES}
    deliver = BENCH._deliver

    def spy(run: Any, room: Any, mails: Any, by_address: Any) -> None:
        table = room.table()
        rules = BENCH.Game_of(run.game)
        for m in mails:
            p = by_address.get(m.to)
            if m.asks and p is not None and table is not None:
                d = BENCH.adj.decision_for(rules, table, p.role)
                legal = list(rules.legal(table.state, p.role)) if d is not None else []
                seen[run.game].append((m.text, legal))
        deliver(run, room, mails, by_address)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(BENCH, "_deliver", spy)
        for game in BENCH.GAMES:
            BENCH.play(game, 4, 11, 1, max_rounds=1)
    return seen


@pytest.mark.parametrize("game", ["kingdom_wars", "conquest_tactics", "conflict_of_alliances"])
def test_the_players_read_the_choices_of_current_requests(
        requests: dict[str, list[tuple[str, list[str]]]], game: str) -> None:
    """The bench's players pick from what a request mail lists: every
    request of the judge's current templates that lists choices is read as
    exactly the lines the game takes (none missed, none made up). Fails when
    the requests' wording changes and the bench reads no choices."""
    with_choices = [(text, legal) for text, legal in requests[game] if "\nYour choices" in text]
    assert len(with_choices) >= 3, game
    for text, legal in with_choices:
        listed = BENCH.listed_lines(text)
        assert listed, text
        assert sorted(listed) == sorted(legal), text


def test_reading_model() -> None:
    """The default players skip about 15% of their readings and one seat of
    each game is away 48 hours once, reading nothing; ``steady`` keeps every
    reading."""
    players = BENCH._players("kingdom_wars", 6, 3, 1, False, BENCH.HUMAN)
    away = [p for p in players.values() if p.away is not None]
    assert len(away) == 1
    begins, ends = away[0].away
    assert ends - begins == timedelta(hours=48)
    p = away[0]
    moment = BENCH.START
    kept = total = 0
    for _ in range(600):
        moment = BENCH.next_reading(moment + timedelta(minutes=1), p.offset)
        total += 1
        if p.reads_at(moment):
            kept += 1
            assert not begins <= moment < ends
    assert 0.78 < kept / (total - 6) < 0.92  # six readings fall in the absence
    p.arrived = [begins]
    assert p.next_reading() >= ends
    steady = BENCH._players("kingdom_wars", 6, 3, 1, False, BENCH.STEADY)
    assert all(q.away is None for q in steady.values())
    q = steady["A"]
    assert all(q.reads_at(BENCH.START + timedelta(hours=h)) for h in range(200))


@pytest.mark.slow
@pytest.mark.parametrize("game", ["kingdom_wars", "conquest_tactics", "conflict_of_alliances"])
def test_one_short_game(runs: dict[str, Any], game: str) -> None:
    run = runs[game]
    assert run.seats == (6 if game == "kingdom_wars" else 2)
    assert run.rounds > 0 and run.days > 0
    assert run.ended or run.capped == f"{SHORT} rounds"
    assert run.rounds <= SHORT
    # Every response window the table showed (one that waited for a seat asked
    # by hand) is one the judge's log closes, or one still open when the game
    # was stopped; the others closed as they opened (judge/game/timing.py).
    assert run.logged_windows
    assert run.windows <= run.logged_windows | run.open_windows
    # Every blocking request was answered by one mail, at the first reading time
    # of its player (a session of 5 minutes a mail, however many players read at once).
    assert run.blocking > 0 and run.mails_in > 0
    assert run.mails_in <= run.blocking
    assert run.unparsed == 0 and run.listed_picks > 0
    for offset, moment in run.sent_at:
        local = moment.astimezone(timezone(timedelta(hours=offset)))
        after = min((local - local.replace(hour=h, minute=0, second=0)).total_seconds()
                    % 86400 for h in BENCH.READ_HOURS)
        assert 0 < after <= 2 * 3600, (offset, moment)
    # The clock: the game's days are the time from START to the last thing that happened.
    assert run.sent_at
    last = max(m for _, m in run.sent_at)
    assert run.started + timedelta(days=run.days) >= last
    assert run.days_per_round * run.rounds == pytest.approx(run.days)
    assert len(run.round_days) == run.rounds
    assert all(d > 0 for d in run.round_days)
    assert sum(run.round_days) <= run.days


@pytest.mark.slow
def test_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = BENCH.main(["--game", "conflict_of_alliances", "--games", "1", "--max-rounds",
                       str(SHORT), "--json"])
    assert code == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert len(rows) == 1
    row = rows[0]
    assert set(row) >= KEYS
    assert row["game"] == "conflict_of_alliances" and row["seats"] == 2 and row["games"] == 1
    assert row["median_days"] > 0 and 0 < row["median_rounds"] <= SHORT
    assert row["blocking_per_round"] > 0
    assert row["windows_per_round"] >= 0


@pytest.mark.slow
def test_days_cap() -> None:
    BENCH.set_kdf_cost(2**8)
    run = BENCH.play("conflict_of_alliances", 2, 7, 1, max_days=1.0)
    assert not run.ended and run.capped == "1 days"
    assert 1.0 < run.days < 1.5  # stopped at the first thing that happened after a day

"""A clock that jumps, forged senders and a replaced player's old token, by
real mail (the Maildir transports): what each attack of the round did, and
what it does now."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from judge import cli, health
from judge.mail.mailout import TemporaryFailure
from judge.service import Judge
from tests.core.conftest import Clock, Post
from tests.core.helpers import GM_ADDR, start_sealed, stored_game, token_in
from tests.hostile.support import mails_to, one_cycle, raw_mail

NORTH = "north@players.example"


class Steady:
    """A steady clock the test moves apart from the wall clock: what a
    machine's CLOCK_BOOTTIME does while someone sets its wall clock."""

    def __init__(self) -> None:
        self.seconds = 1_000.0
        self.boot = "boot-1"

    def __call__(self) -> tuple[str, float]:
        return self.boot, self.seconds


@pytest.fixture
def steady() -> Steady:
    return Steady()


@pytest.fixture
def timed(home: Path, clock: Clock, steady: Steady) -> Iterator[Post]:
    """A judge whose wall clock (``clock``) may jump while its steady clock
    (``steady``) does not."""
    j = Judge.open(home, now=clock, steady=steady)
    yield Post(j, home, clock)
    j.close()


def _pass(clock: Clock, steady: Steady, **kw: float) -> None:
    """Time passes: both clocks move."""
    clock.advance(**kw)
    steady.seconds += timedelta(**kw).total_seconds()


def _phase(post: Post) -> str:
    return str(stored_game(post.judge.store, "g1")["phase"])


# --------------------------------------------------------------------------- the clock


def test_a_clock_jump_holds_the_phases_until_the_operator_confirms(
        timed: Post, clock: Clock, steady: Steady) -> None:
    """Issue: the clock a day ahead processed a phase with default orders.
    Now the judge holds every phase, logs why, `judge status` says it, and
    `judge clock confirm` lets them go."""
    post = timed
    start_sealed(post)
    before = _phase(post)
    clock.advance(days=3)  # the wall clock jumps; no time passed
    lines = post.judge.cycle()
    assert any("deadlines held" in line and "limits.max_clock_jump_hours" in line
               for line in lines), lines
    assert _phase(post) == before
    state = health.status(post.home, now=clock.now)
    assert "max_clock_jump_hours" in state["clock_held"] and not state["ok"]
    assert "PHASES HELD" in health.describe(state)
    clock.advance(hours=1)
    steady.seconds += 3_600
    post.judge.cycle()
    assert _phase(post) == before  # held until the operator says so
    result = CliRunner().invoke(cli.main, ["--home", str(post.home), "clock", "confirm"])
    assert result.exit_code == 0 and "confirmed; it held: the clock moved forward" in result.output
    post.judge.cycle()
    assert _phase(post) != before  # the deadline, long past, is processed now
    assert "clock_held" not in health.status(post.home, now=clock.now)


def test_time_that_really_passed_is_no_jump(timed: Post, clock: Clock, steady: Steady) -> None:
    """A judge stopped for three days and started again (the steady clock
    says three days passed) processes what fell due."""
    post = timed
    start_sealed(post)
    before = _phase(post)
    _pass(clock, steady, days=3)
    lines = post.judge.cycle()
    assert not any("held" in line for line in lines)
    assert _phase(post) != before


def test_after_a_restart_of_the_machine_a_jump_holds(
        timed: Post, clock: Clock, steady: Steady) -> None:
    """Another boot: the steady clock cannot tell what passed, and a move
    past the limit holds."""
    post = timed
    start_sealed(post)
    steady.boot, steady.seconds = "boot-2", 30.0
    clock.advance(days=3)
    assert any("deadlines held" in line for line in post.judge.cycle())


def test_a_jump_forward_then_back_never_refuses_mail_at_the_true_time(
        timed: Post, clock: Clock, steady: Steady) -> None:
    """Issue: after one cycle with the clock a day ahead, a player's press
    at the true time was refused by press_per_hour (counts written "in the
    future" counted for a day); so was a stranger's HELP."""
    post = timed
    seats = start_sealed(post)
    post.new()
    true_time = clock.now
    clock.now = true_time + timedelta(days=1)
    sign = seats.signon("North")
    for i in range(15):  # 2 recipients each: 30 press mails, the hour's all
        post.deliver(raw_mail(NORTH, f"{sign}\nPRESS TO ALL\nahead {i}\nENDPRESS\n"))
    post.deliver(raw_mail("stranger@elsewhere.example", "HELP\n"))
    post.judge.cycle()
    ahead = clock.now.replace(microsecond=0)
    assert post.judge.store.used("press", "g1/north", (ahead - timedelta(hours=1)).isoformat(),
                                 ahead.isoformat()) == 30  # the hour "ahead" is full
    post.new()
    clock.now = true_time + timedelta(minutes=5)  # the clock set right again
    post.send(NORTH, f"{sign}\nPRESS TO ALL\nat the true time\nENDPRESS\n")
    post.send("stranger@elsewhere.example", "HELP\n")
    mails = post.new()
    ack = post.text(mails_to(mails, NORTH)[-1])
    assert "press sent to" in ack and "press_per_hour" not in ack
    assert len(mails_to(mails, "east@players.example")) == 1
    assert len(mails_to(mails, "stranger@elsewhere.example")) == 1


# --------------------------------------------------------------------------- strangers


def test_observe_codes_count_within_strangers_per_hour(post: Post) -> None:
    """Issue: 40 forged addresses got 40 mails in an hour (30 codes, then 10
    refusals: the codes were never counted as answers to strangers)."""
    post.send(GM_ADDR, "CREATE x0 sealed_bids\n")
    post.new()
    for i in range(40):
        post.clock.advance(minutes=1)
        post.send(f"o{i}@forged.example", "OBSERVE x0\n")
    strangers = {m["To"] for m in post.new()}
    assert len(strangers) == post.judge.config.strangers_per_hour == 30


def test_an_observer_confirming_at_once_still_gets_the_answer(post: Post) -> None:
    """The code's answer is one a stranger asked for by name: it counts among
    the hour's strangers, but is not held back by "once an hour"."""
    post.send(GM_ADDR, "CREATE x0 sealed_bids\n")
    post.new()
    post.send("fan@elsewhere.example", "OBSERVE x0\n")
    text = post.text(post.new()[-1])
    code = next(x.split()[-1] for x in text.splitlines() if x.strip().startswith("OBSERVE x0 "))
    post.send("fan@elsewhere.example", f"OBSERVE x0 {code}\n")
    assert "you follow x0" in post.text(post.new()[-1])


# --------------------------------------------------------------------------- CREATE LEAGUE


def test_create_league_needs_more_than_a_from_address(post: Post) -> None:
    """Issue: a forged From of a listed creator (SPF and DMARC failing)
    created a league. Now the code goes to the real address, and a guess
    creates nothing."""
    post.judge.config.creators = ["*", "lea@league.example"]
    forged = raw_mail("lea@league.example", "CREATE LEAGUE autumn\n",
                      headers="Authentication-Results: mx.example; spf=fail; dmarc=fail\r\n")
    one_cycle(post, forged)
    assert post.judge.store.league("autumn") is None
    text = post.text(mails_to(post.new(), "lea@league.example")[0])  # to the real owner
    assert "a code to confirm follows below" in text
    one_cycle(post, raw_mail("lea@league.example", "CREATE LEAGUE autumn draw-size ABCDEFGHJK\n"))
    assert "is not the code sent to this address" in post.text(post.new()[-1])
    assert post.judge.store.league("autumn") is None
    line = next(x.strip() for x in text.splitlines() if x.startswith("  CREATE LEAGUE autumn"))
    post.send("lea@league.example", line + "\n")
    assert "created league autumn" in post.text(post.new()[-1])
    assert post.judge.store.league("autumn") is not None


def test_create_league_signed_on_with_a_token_of_the_address(post: Post) -> None:
    post.judge.config.creators = ["*", GM_ADDR]
    seats = start_sealed(post)
    post.new()
    post.send(GM_ADDR, f"{seats.gm()}\nCREATE LEAGUE winter wdl\n")
    assert "created league winter" in post.text(post.new()[-1])
    league = post.judge.store.league("winter")
    assert league is not None
    assert league["scoring"] == "wdl"


# --------------------------------------------------------------------------- replaced players


def test_a_replaced_players_old_token_alarms_the_gm_not_the_new_player(post: Post) -> None:
    """Issue: a mail signed with the old token made the new player receive a
    "sign-on refused" alarm, while the old address heard nothing."""
    seats = start_sealed(post)
    post.send(GM_ADDR, f"{seats.gm()}\nREPLACE North north2@players.example\n")
    token_in(post, "north2@players.example")
    post.new()
    old = f"{seats.signon('North')}\nSTATUS\n"
    post.send(NORTH, old)
    mails = post.new()
    assert mails_to(mails, "north2@players.example") == []
    alarm = mails_to(mails, GM_ADDR)
    assert len(alarm) == 1 and "sign-on refused" in str(alarm[0]["Subject"])
    told = mails_to(mails, NORTH)
    assert len(told) == 1 and "is no longer your seat" in str(told[0]["Subject"])
    assert "has given the seat of North to another player" in post.text(told[0])
    post.clock.advance(hours=2)
    post.send(NORTH, old)
    assert mails_to(post.new(), NORTH) == []  # told once a day, not at every mail


class _Refusing:
    """An outbound transport whose server answers 4xx: every mail waits."""

    name = "refusing"

    def send(self, envelope_from: str, to_addr: str, message: bytes) -> None:
        raise TemporaryFailure("451 try again later")


def test_mail_whose_retry_was_set_while_the_clock_ran_ahead_goes_at_the_true_time(
        timed: Post, clock: Clock) -> None:
    """A mail that failed while the clock ran a day ahead was retried "two
    minutes later" by that clock: a day later by the true one."""
    post = timed
    seats = start_sealed(post)
    post.new()
    true_time = clock.now
    clock.now = true_time + timedelta(days=1)
    real = post.judge.outbound
    post.judge.outbound = _Refusing()
    post.send(NORTH, f"{seats.signon('North')}\nSTATUS\n")
    assert post.new() == [] and post.judge.store.outbox("queued")
    post.judge.outbound = real
    clock.now = true_time + timedelta(minutes=5)
    post.judge.cycle()
    assert len(mails_to(post.new(), NORTH)) == 1

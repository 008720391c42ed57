"""The GM's whole job by mail: press, ending or cancelling a game, options
before START, deadlines as durations or a daily time, notices to the GM,
and no more than one mail per player for one GM mail."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner

from judge.cli import main
from judge.commands import league as league_commands
from judge.game import scheduler
from judge.site import publish as site
from tests.core.conftest import Clock, Post
from tests.core.helpers import GM_ADDR, Seats, hand, start_sealed, stored_game, token_in

#: The store and the mail pipeline on SQLite and on PostgreSQL (tests/conftest.py).
BOTH_BACKENDS = True


def _to(mails: list[EmailMessage], address: str) -> list[EmailMessage]:
    return [m for m in mails if m["To"] == address]


def _gm_ack(post: Post, mails: list[EmailMessage]) -> str:
    acks = [m for m in _to(mails, GM_ADDR) if (m["Subject"] or "").startswith("Re:")]
    assert acks
    return post.text(acks[-1])


def test_gm_press_and_changes_make_one_mail_per_player(post: Post) -> None:
    seats = start_sealed(post)
    post.new()
    post.send(GM_ADDR, f"{seats.gm()}\nPRESS TO ALL\nWelcome, all three of you.\nENDPRESS\n"
                       "EXTEND 12\nPAUSE\n")
    mails = post.new()
    assert "press sent to everyone" in _gm_ack(post, mails)
    for address in seats.addresses.values():
        [mine] = _to(mails, address)
        text = post.text(mine)
        assert "Press from the GM to everyone:\n\nWelcome, all three of you." in text
        assert "extended" in text and "has paused the game" in text
        assert mine["Subject"] == ("[g1] from the GM: press; the deadline is extended; "
                                   "the game is paused")


def test_gm_press_to_some_seats_only(post: Post) -> None:
    seats = start_sealed(post)
    post.new()
    post.send(GM_ADDR, f"{seats.gm()}\nPRESS TO North, East\nA word with you two.\nENDPRESS\n")
    mails = post.new()
    assert "press sent to East, North" in _gm_ack(post, mails)
    for role in ("North", "East"):
        [mine] = _to(mails, seats.addresses[role])
        assert "Press from the GM to East, North:\n\nA word with you two." in post.text(mine)
    assert _to(mails, seats.addresses["South"]) == []


def test_gm_press_to_an_unknown_seat_is_refused_and_sends_nothing(post: Post) -> None:
    seats = start_sealed(post)
    post.new()
    post.send(GM_ADDR, f"{seats.gm()}\nPRESS TO North, Atlantis\nHello.\nENDPRESS\n")
    mails = post.new()
    text = _gm_ack(post, mails)
    assert "no active seat called Atlantis in g1" in text and "PRESS TO ALL" in text
    assert [m["To"] for m in mails] == [GM_ADDR]


def test_gm_press_to_public_is_kept_for_the_public_page(post: Post) -> None:
    seats = start_sealed(post)
    post.send(GM_ADDR, f"{seats.gm()}\nPRESS TO PUBLIC\nThe game has begun.\nENDPRESS\n")
    press = post.judge.store.public_press("g1")
    assert [(p["sender"], p["text"]) for p in press] == [("the GM", "The game has begun.")]


def _league_game(post: Post) -> Seats:
    """League autumn (its GM: GM_ADDR) and its game g1 of three seats, started."""
    with post.judge.store.atomic():
        league_commands.create_league(post.judge, "autumn", "draw-size", GM_ADDR)
    post.send(GM_ADDR, "CREATE g1 sealed_bids rounds=3\n")
    gm = token_in(post, GM_ADDR)
    tokens, addresses = {}, {}
    for role in ("North", "East", "South"):
        addresses[role] = f"{role.lower()}@players.example"
        post.send(addresses[role], f"JOIN g1 {role}\n")
        tokens[role] = token_in(post, addresses[role])
    post.send(GM_ADDR, f"SIGNON g1 GM {gm}\nLEAGUE autumn\nSTART\n")
    assert post.judge.store.league_of("g1") == "autumn"
    post.new()
    return Seats(gm, tokens, addresses)


def test_end_draw_is_recorded_in_the_league_the_reports_and_the_pages(
        post: Post, tmp_path: Path) -> None:
    seats = _league_game(post)
    post.send(GM_ADDR, f"{seats.gm()}\nEND DRAW North, East\n")
    mails = post.new()
    assert "g1 ends in a draw shared by East, North" in _gm_ack(post, mails)
    for address in seats.addresses.values():
        final = [post.text(m) for m in _to(mails, address)]
        assert any("The game is over: a draw shared by East, North (declared by the GM)" in t
                   for t in final), final
    assert stored_game(post.judge.store, "g1")["status"] == "finished"
    assert "log entries rebuild the stored game" in post.judge.replay_check("g1")
    shown = league_commands.show(post.judge, "autumn")
    assert "a draw shared by East, North" in shown
    data = league_commands.show_json(post.judge, "autumn")
    points = {r["player"]: r["points"] for r in data["standings"]}
    assert points["north@players.example"] == points["east@players.example"] > 0
    assert points["south@players.example"] == 0
    site.publish(post.judge, tmp_path / "site", fmt="svg", draw=None, force=True)
    page = (tmp_path / "site" / "games" / "g1" / "index.html").read_text()
    league_page = (tmp_path / "site" / "leagues" / "autumn.html").read_text()
    assert "g1: a draw shared by East, North (ended" in league_page
    assert "declared by the GM." in page and "Draw shared by East, North" in page


def test_end_win_and_what_is_refused(post: Post) -> None:
    seats = start_sealed(post)
    post.new()
    post.send(GM_ADDR, f"{seats.gm()}\nEND DRAW North\nEND WIN Atlantis\n")
    text = _gm_ack(post, post.new())
    assert "a draw is shared by two seats or more\n      for one seat, END WIN North" in text
    assert "no seat called Atlantis in g1" in text
    assert stored_game(post.judge.store, "g1")["status"] == "active"
    post.send(GM_ADDR, f"{seats.gm()}\nEND WIN East\nCANCEL GAME\n")
    text = _gm_ack(post, post.new())
    assert "g1 ends: East wins" in text and "g1 is over already" in text
    table = post.judge.table("g1")
    assert table.outcome is not None and table.outcome["winners"] == ["East"]
    assert not table.outcome["draw"]


def test_cancel_counts_for_nobody_in_the_league(post: Post) -> None:
    seats = _league_game(post)
    post.send(GM_ADDR, f"{seats.gm()}\nCANCEL GAME\n")
    mails = post.new()
    assert "g1 is cancelled" in _gm_ack(post, mails)
    assert any("cancelled by the GM, with no result" in post.text(m)
               for m in _to(mails, seats.addresses["North"]))
    assert "cancelled by its GM" in league_commands.show(post.judge, "autumn")
    data = league_commands.show_json(post.judge, "autumn")
    assert all(r["points"] == 0 for r in data["standings"])


def test_a_forming_game_cannot_be_ended(post: Post) -> None:
    post.send(GM_ADDR, "CREATE g2 sealed_bids\n")
    gm = token_in(post, GM_ADDR)
    post.new()
    post.send(GM_ADDR, f"SIGNON g2 GM {gm}\nEND WIN North\n")
    assert "g2 has not started" in _gm_ack(post, post.new())


def _forming_in_league(post: Post) -> tuple[str, dict[str, str]]:
    """League autumn and its forming game g2, joined by North and East (not
    started); the GM's token and each seat's."""
    with post.judge.store.atomic():
        league_commands.create_league(post.judge, "autumn", "draw-size", GM_ADDR)
    post.send(GM_ADDR, "CREATE g2 sealed_bids\n")
    gm = token_in(post, GM_ADDR)
    post.send(GM_ADDR, f"SIGNON g2 GM {gm}\nLEAGUE autumn\n")
    tokens = {}
    for role in ("North", "East"):
        address = f"{role.lower()}@players.example"
        post.send(address, f"JOIN g2 {role}\n")
        tokens[address] = token_in(post, address)
    post.new()
    return gm, tokens


def test_cancel_game_before_start_tells_who_joined_once_and_leaves_no_open_game(
        post: Post, tmp_path: Path) -> None:
    """CANCEL GAME from the GM of a game not yet started: the game is kept,
    cancelled, its tokens stop working, each player who joined gets one
    mail, and it is no longer open to join, in its league or on the pages."""
    gm, tokens = _forming_in_league(post)
    site.publish(post.judge, tmp_path / "site", fmt="svg", draw=None, force=True)
    assert (tmp_path / "site" / "games" / "g2").is_dir()
    post.send(GM_ADDR, f"SIGNON g2 GM {gm}\nCANCEL GAME\n")
    mails = post.new()
    assert ("g2 is cancelled before it started; told: east@players.example, "
            "north@players.example") in _gm_ack(post, mails)
    assert sorted(m["To"] for m in mails) == [
        "east@players.example", GM_ADDR, "north@players.example"]
    for address in tokens:
        [mine] = _to(mails, address)
        assert mine["Subject"] == "[g2] cancelled before it started"
        assert "has cancelled the game before it started" in post.text(mine)
    assert stored_game(post.judge.store, "g2")["status"] == "cancelled"
    assert all(s.token_hash == "" for s in post.judge.store.seats("g2"))
    # No longer open: LIST leaves it out, a JOIN, a START or a second CANCEL is refused.
    post.send("west@players.example", "LIST\nJOIN g2\n")
    text = post.text(post.new()[-1])
    assert "g2:" not in text and "(none now: CREATE one)" in text
    assert "g2 was cancelled by its GM before it started" in text
    post.send(GM_ADDR, f"SIGNON g2 GM {gm}\nSTART\nCANCEL GAME\n")
    mails = post.new()
    assert _gm_ack(post, mails).count("g2 was cancelled by its GM before it started") == 2
    assert [m["To"] for m in mails] == [GM_ADDR]  # nobody is told twice
    assert stored_game(post.judge.store, "g2")["status"] == "cancelled"
    # The pages drop it; its league counts it neither finished nor running.
    site.publish(post.judge, tmp_path / "site", fmt="svg", draw=None, force=True)
    assert not (tmp_path / "site" / "games" / "g2").exists()
    assert "g2" not in (tmp_path / "site" / "index.html").read_text()
    assert "g2" not in (tmp_path / "site" / "leagues" / "autumn.html").read_text()
    assert "g2" not in league_commands.show(post.judge, "autumn")
    result = CliRunner().invoke(main, ["--home", str(post.home), "game", "list"])
    assert result.exit_code == 0
    [row] = [ln.split() for ln in result.output.splitlines() if ln.startswith("g2 ")]
    assert row[:3] == ["g2", "sealed_bids", "cancelled"]


def test_the_operator_cancels_a_game_not_yet_started_from_the_command_line(
        post: Post) -> None:
    post.clock.now = datetime.now(UTC)  # the command line runs on the real clock
    _gm, tokens = _forming_in_league(post)
    result = CliRunner().invoke(main, ["--home", str(post.home), "game", "end", "g2",
                                       "--cancel"])
    assert result.exit_code == 0, result.output
    assert "g2 is cancelled before it started; told: east@players.example" in result.output
    post.clock.now = datetime.now(UTC) + timedelta(minutes=1)
    post.judge.cycle()
    mails = post.new()
    assert sorted(m["To"] for m in mails) == sorted(tokens)
    assert stored_game(post.judge.store, "g2")["status"] == "cancelled"
    result = CliRunner().invoke(main, ["--home", str(post.home), "game", "end", "g2",
                                       "--cancel"])
    assert result.exit_code == 1 and "was cancelled by its GM before it started" in result.output
    result = CliRunner().invoke(main, ["--home", str(post.home), "game", "show", "g2"])
    assert result.output == "g2 was cancelled by its GM before it started: 2 seat(s) had joined\n"


def test_joins_come_to_the_gm_in_one_mail_per_cycle_and_a_full_table_is_told(
        post: Post) -> None:
    post.send(GM_ADDR, "CREATE g1 sealed_bids\n")
    post.new()
    for role in ("North", "East", "South"):  # three JOINs read in one cycle
        post.deliver(post.raw(f"{role.lower()}@players.example", f"JOIN g1 {role}\n"))
    post.judge.cycle()
    [notice] = _to(post.new(), GM_ADDR)
    text = post.text(notice)
    assert notice["Subject"] == "[g1] 3 joined"
    assert "g1: 3 of 4 seats taken." in text
    for role in ("North", "East", "South"):
        assert f"{role.lower()}@players.example joined as {role}" in text
    assert "full" not in text
    post.judge.cycle()
    assert _to(post.new(), GM_ADDR) == []  # nothing new, nothing told
    post.send("west@players.example", "JOIN g1\n")
    [notice] = _to(post.new(), GM_ADDR)
    assert notice["Subject"] == "[g1] 1 joined; the table is full"
    text = post.text(notice)
    assert "west@players.example joined (role by lot at START)" in text
    assert "The table is full: send START" in text and "4 of 4 seats taken" in text


def test_requests_to_join_come_to_the_gm_in_one_mail_with_the_lines_to_answer(
        post: Post) -> None:
    post.send(GM_ADDR, "CREATE g1 sealed_bids\n")
    gm = token_in(post, GM_ADDR)
    post.send(GM_ADDR, f"SIGNON g1 GM {gm}\nSET joins approval\n")
    post.new()
    post.deliver(post.raw("anna@players.example", "JOIN g1 North\n"))
    post.deliver(post.raw("bob@players.example", "JOIN g1\n"))
    post.judge.cycle()
    [notice] = _to(post.new(), GM_ADDR)
    text = post.text(notice)
    assert notice["Subject"] == "[g1] 2 ask(s) to join"
    assert ("anna@players.example asks to join as North: ADMIT anna@players.example, or "
            "REMOVE anna@players.example") in text
    assert "bob@players.example asks to join (role by lot at START)" in text


def test_set_changes_the_games_options_before_start_only(post: Post) -> None:
    post.send(GM_ADDR, "CREATE g1 sealed_bids rounds=3\n")
    gm = token_in(post, GM_ADDR)
    for role in ("North", "East", "South"):
        post.send(f"{role.lower()}@players.example", f"JOIN g1 {role}\n")
    post.new()
    post.send(GM_ADDR, f"SIGNON g1 GM {gm}\nSET rounds 5\nSET rounds many\nSET colour red\n")
    text = _gm_ack(post, post.new())
    assert "option rounds is now 5" in text
    assert "option rounds takes a value such as 5 (its default), not 'many'" in text
    assert "no setting 'colour'" in text and "options of this game (before START)" in text
    assert json.loads(stored_game(post.judge.store, "g1")["options"])["rounds"] == 5
    post.send(GM_ADDR, f"SIGNON g1 GM {gm}\nSTART\nSET rounds 4\n")
    text = _gm_ack(post, post.new())
    assert "rounds is an option of the game, fixed when g1 started" in text
    assert json.loads(stored_game(post.judge.store, "g1")["options"])["rounds"] == 5
    assert post.judge.table("g1").state["rounds"] == 5  # the game was set up with it


def test_deadlines_as_durations(post: Post, clock: Clock) -> None:
    seats = start_sealed(post)
    post.new()
    post.send(GM_ADDR, f"{seats.gm()}\nSET DEADLINE 72h\nSET orders_hours 3d\n"
                       "SET window_min_minutes 1h\nSET abandon_after 3d\nSET DEADLINE 0h\n")
    text = _gm_ack(post, post.new())
    assert "deadline set to Wed 04 Mar 2026 12:00 UTC" in text  # 1 March 12:00 + 72 h
    assert "orders_hours is now 72.0" in text and "window_min_minutes is now 60.0" in text
    assert "abandon_after takes a number of hours, not '3d'" in text
    assert "'0h' is not a duration from now up to 365 days" in text
    deadline = post.judge.store.deadline("g1")
    assert deadline is not None and deadline["deadline"] == "2026-03-04T12:00:00+00:00"


def test_a_daily_deadline_time_in_a_zone(post: Post, clock: Clock) -> None:
    """Every deadline falls at 20:00 in Paris: the one running now moves to
    the first 20:00 at or after it, and the next phase's too."""
    seats = start_sealed(post)
    post.new()
    post.send(GM_ADDR, f"{seats.gm()}\nSET DEADLINE every day at 25:00 Europe/Paris\n"
                       "SET DEADLINE every day at 20:00 Europe/Paris\nSTATUS\n")
    mails = post.new()
    text = _gm_ack(post, mails)
    assert "'25:00 Europe/Paris' is not a time of day and a zone" in text
    # 1 March 12:00 UTC + 48 h = 3 March 12:00 UTC (13:00 in Paris) -> 20:00 Paris
    assert "deadlines fall every day at 20:00 Europe/Paris; this one is now " \
           "Tue 03 Mar 2026 19:00 UTC" in text
    assert "Deadlines fall every day at 20:00 Europe/Paris." in text
    [told] = _to(mails, seats.addresses["North"])
    assert "Tue 03 Mar 2026 19:00 UTC" in post.text(told)
    for role in ("North", "East", "South"):  # every bid in: the next round opens now
        card = hand(post, role)[0]
        post.send(seats.addresses[role], f"{seats.signon(role)}\nBID {card}\n")
    deadline = post.judge.store.deadline("g1")
    assert deadline is not None
    when = scheduler.parse_time(deadline["deadline"]).astimezone(scheduler.zone("Europe/Paris"))
    assert (when.hour, when.minute) == (20, 0)
    assert when - clock.now >= timedelta(hours=24)  # the phase's hours (action_hours), at least
    post.send(GM_ADDR, f"{seats.gm()}\nSET DEADLINE every day off\n")
    assert "deadlines no longer fall at a set time of day" in _gm_ack(post, post.new())


def test_durations_and_daily_times_read_by_the_scheduler() -> None:
    assert scheduler.parse_duration("72h") == 72
    assert scheduler.parse_duration("3d") == 72
    assert scheduler.parse_duration("1d12h") == 36
    assert scheduler.parse_duration("90m") == 1.5
    assert scheduler.parse_duration("12") == 12
    for bad in ("", "h", "3 weeks", "d3"):
        with pytest.raises(ValueError):
            scheduler.parse_duration(bad)
    assert scheduler.parse_daily("8:30") == "08:30 UTC"
    # 29 March 2026: Paris moves from CET to CEST, 20:00 is 18:00 UTC from then on
    before = datetime(2026, 3, 28, 20, 0, tzinfo=UTC)
    assert scheduler.at_daily(before, "20:00 Europe/Paris") == datetime(2026, 3, 29, 18, 0,
                                                                       tzinfo=UTC)
    # 02:30 does not exist in Paris on 29 March: the next day's is taken
    assert scheduler.at_daily(datetime(2026, 3, 28, 12, 0, tzinfo=UTC),
                              "02:30 Europe/Paris") == datetime(2026, 3, 30, 0, 30, tzinfo=UTC)


def test_tokens_made_on_the_command_line_are_mailed_to_their_seats(post: Post) -> None:
    def cli(*args: str) -> str:
        result = CliRunner().invoke(main, ["--home", str(post.home), *args])
        assert result.exit_code == 0, result.output
        return result.output

    out = cli("game", "create", "g1", "--game", "sealed_bids", "--gm", GM_ADDR)
    assert out.strip() == f"created g1; the GM's token was mailed to {GM_ADDR}"
    out = cli("game", "seat", "g1", "north@players.example", "--role", "North")
    assert out.strip() == "north@players.example joined g1; the token was mailed there"
    out = cli("game", "seat", "g1", "east@players.example", "--role", "East", "--no-mail")
    token = out.split("token: ")[1].strip()
    assert out.startswith("east@players.example joined g1; token: ")
    mails = post.new()
    assert [m["To"] for m in mails] == [GM_ADDR, "north@players.example"]
    assert "SIGNON g1 North " in post.text(mails[1])
    # the mailed tokens work by mail, the printed one too
    gm = token_in(post, GM_ADDR)
    north = token_in(post, "north@players.example")
    post.send("north@players.example", f"SIGNON g1 North {north}\nSET TIMEZONE Asia/Tokyo\n")
    assert "times are now shown in Asia/Tokyo" in post.text(
        _to(post.new(), "north@players.example")[-1])
    post.send("east@players.example", f"SIGNON g1 East {token}\nSET TIMEZONE UTC\n")
    assert "times are now shown in UTC" in post.text(_to(post.new(), "east@players.example")[-1])
    post.send(GM_ADDR, f"SIGNON g1 GM {gm}\nSTART\n")
    assert stored_game(post.judge.store, "g1")["status"] == "active"


def test_a_listed_creator_creates_a_league_by_mail(post: Post) -> None:
    post.send("anyone@players.example", "CREATE LEAGUE spring\n")
    text = post.text(post.new()[-1])
    assert "only the game masters the judge's operator lists may create a league" in text
    assert post.judge.store.league("spring") is None
    post.judge.config.creators = ["*", "lea@league.example"]
    post.send("lea@league.example", "CREATE LEAGUE autumn sum-of-squares\n")
    text = post.text(post.new()[-1])  # the From address alone proves nothing: a code
    assert "a code to confirm follows below" in text and post.judge.store.league("autumn") is None
    line = next(x.strip() for x in text.splitlines() if x.startswith("  CREATE LEAGUE autumn"))
    post.send("lea@league.example", f"{line}\nCREATE LEAGUE winter golf\n")
    text = post.text(post.new()[-1])
    assert "created league autumn" in text and "LEAGUE autumn" in text
    assert "no scoring system 'golf'" in text
    row = post.judge.store.league("autumn")
    assert row is not None and row["gm_address"] == "lea@league.example"
    assert row["scoring"] == "sum-of-squares" and post.judge.store.league("winter") is None
    post.send("lea@league.example", "CREATE g1 sealed_bids\n")
    gm = token_in(post, "lea@league.example")
    post.send("lea@league.example", f"SIGNON g1 GM {gm}\nLEAGUE autumn\n")
    assert "g1 is a game of league autumn" in post.text(post.new()[-1])


def test_the_operator_ends_a_game_from_the_command_line(post: Post) -> None:
    post.clock.now = datetime.now(UTC)  # the command line runs on the real clock
    seats = _league_game(post)

    def cli(*args: str) -> tuple[int, str]:
        result = CliRunner().invoke(main, ["--home", str(post.home), "game", "end", *args])
        return result.exit_code, result.output

    assert cli("g1")[0] == 2  # no result given
    code, out = cli("g1", "--win", "North,East")
    assert code == 1 and "one seat wins" in out
    assert stored_game(post.judge.store, "g1")["status"] == "active"
    code, out = cli("g1", "--draw", "ALL")
    assert code == 0 and "g1 ends in a draw shared by East, North, South" in out
    assert stored_game(post.judge.store, "g1")["status"] == "finished"
    post.clock.now = datetime.now(UTC) + timedelta(minutes=1)
    post.judge.cycle()
    mails = post.new()
    for address in seats.addresses.values():
        assert any("a draw shared by East, North, South (declared by the GM)" in post.text(m)
                   for m in _to(mails, address))
    assert "a draw shared by East, North, South" in league_commands.show(post.judge, "autumn")

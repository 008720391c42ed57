"""What the GM and the operator see of a game: `judge game list`, `judge
game show --as ROLE` (what that role has on file, who still owes), and the
GM's STATUS by mail and `--as GM [--json]` (position, settings, league,
orders on file, misses, the clock in the GM's zone)."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from judge.cli import main
from tests.core.conftest import Clock, Post
from tests.core.helpers import CLASSIC_POWERS, GM_ADDR, start_classic, start_sealed, token_in


def _cli(post: Post, *args: str) -> str:
    result = CliRunner().invoke(main, ["--home", str(post.home), *args])
    assert result.exit_code == 0, result.output
    return result.output


def _gm_ack(post: Post) -> str:
    mails = [m for m in post.new() if m["To"] == GM_ADDR and m["Subject"].startswith("Re:")]
    assert mails
    return post.text(mails[-1])


def test_game_list_has_a_header_and_no_repeated_column(post: Post) -> None:
    post.send(GM_ADDR, "CREATE spring26 classic\n")
    start_sealed(post)
    out = _cli(post, "game", "list").splitlines()
    assert out[0].split() == ["GAME", "KIND", "STATUS", "PHASE", "SEATS", "LEAGUE"]
    forming = next(x for x in out if x.startswith("spring26"))
    assert forming.split() == ["spring26", "classic", "forming", "-", "0", "-"]
    running = re.split(r"\s{2,}", next(x for x in out if x.startswith("g1")))
    assert running[:3] == ["g1", "sealed_bids", "active"] and running[4:] == ["3", "-"]


def test_show_as_a_power_gives_its_orders_on_file_and_who_still_owes(post: Post) -> None:
    tokens = start_classic(post)
    post.send("france@players.example",
              f"SIGNON dip France {tokens['France']}\nORDERS\nA Par - Bur\nA Mar H\nEND\n")
    out = _cli(post, "game", "show", "dip", "--as", "france")
    assert "On file for France, S1901M: A Par - Bur; A Mar H" in out
    owed = next(x for x in out.splitlines() if x.startswith("Still owed for S1901M by: "))
    assert "France" not in owed
    assert all(p in owed for p in CLASSIC_POWERS if p != "France")


def test_gm_status_by_mail_and_show_as_gm(post: Post, clock: Clock) -> None:
    tokens = start_classic(post)
    gm = token_in(post, GM_ADDR)
    post.send("france@players.example",
              f"SIGNON dip France {tokens['France']}\nORDERS\nA Par - Bur\nEND\n")
    post.new()
    post.send(GM_ADDR, f"SIGNON dip GM {gm}\nSET TIMEZONE Europe/Paris\nSET grace_hours 6\n"
                       "EJECT Italy\nSTATUS\n")
    text = _gm_ack(post)
    assert "times are now shown to the GM in Europe/Paris" in text
    assert "League: none" in text
    deadline = next(x for x in text.splitlines() if x.startswith("Deadline of S1901M: "))
    assert deadline.endswith("CET")  # in the GM's zone (1 March 2026: winter time)
    owed = next(x for x in text.splitlines() if x.startswith("Still owed by: "))
    assert "Italy" not in owed and "France" not in owed and "England" in owed
    open_line = next(x for x in text.splitlines() if x.startswith("Open: S1901M"))
    assert "Italy" not in open_line  # ejected: the defaults act for it
    assert "  France: france@players.example, active, 1 order(s) on file" in text
    assert "  Italy: italy@players.example, ejected (civil disorder" in text
    assert "grace_hours 6*" in text and "orders_hours 48" in text
    assert "The position, as observers see it:" in text and "A Par" in text
    assert "A Par - Bur" not in text  # the GM sees that France ordered, not what
    # the operator's command shows the same, and as JSON
    assert "Still owed by: " in _cli(post, "game", "show", "dip", "--as", "GM")
    data = json.loads(_cli(post, "game", "show", "dip", "--as", "GM", "--json"))
    assert data["timezone"] == "Europe/Paris" and data["settings"]["grace_hours"] == 6
    seat = {s["role"]: s for s in data["seats"]}
    assert seat["France"]["orders_on_file"] == 1 and not seat["France"]["owes"]
    assert "Italy" not in data["owed"] and "England" in data["owed"]


def test_misses_in_a_row_are_shown_to_the_gm(post: Post, clock: Clock) -> None:
    seats = start_sealed(post)
    clock.advance(hours=200)  # past the deadline and the grace: every seat missed it
    post.judge.cycle()
    post.new()
    post.send(GM_ADDR, f"{seats.gm()}\nSTATUS\n")
    assert "missed 1 deadline(s) in a row" in _gm_ack(post)


def test_the_late_notice_gives_the_gms_own_time(post: Post, clock: Clock) -> None:
    seats = start_sealed(post)
    post.send(GM_ADDR, f"{seats.gm()}\nSET TIMEZONE Asia/Tokyo\n")
    post.new()
    clock.advance(hours=49)  # past the deadline, within the grace
    post.judge.cycle()
    [late] = [m for m in post.new() if m["To"] == GM_ADDR and "late" in m["Subject"]]
    text = post.text(late)
    assert "has passed and the judge has nothing from" in text
    assert "JST" in text and "+00:00" not in text


def test_gm_status_of_a_forming_game(post: Post) -> None:
    post.send(GM_ADDR, "CREATE g1 sealed_bids\n")
    gm = token_in(post, GM_ADDR)
    post.send("north@players.example", "JOIN g1 North\n")
    post.new()
    post.send(GM_ADDR, f"SIGNON g1 GM {gm}\nSTATUS\n")
    text = _gm_ack(post)
    assert "g1: Sealed Bids (sealed_bids), forming" in text
    assert "Forming: 1 of 4 seats taken" in text
    assert "  (asked for North): north@players.example, joined" in text

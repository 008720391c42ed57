"""The conversation around the rules: every mail states true facts (the
deadline of the decision it asks for, in the seat's own zone; what still
has no order), and the first report already names the new phase's deadline."""

from __future__ import annotations

import json
import re

from tests.core.conftest import Post
from tests.core.helpers import CLASSIC_POWERS, GM_ADDR, start_classic, token_in

#: The store and the mail pipeline on SQLite and on PostgreSQL (tests/conftest.py).
BOTH_BACKENDS = True


def test_the_acknowledgement_gives_the_deadline_and_the_units_left(post: Post) -> None:
    tokens = start_classic(post)
    france = "france@players.example"
    post.new()
    post.send(france, f"SIGNON dip France {tokens['France']}\nSET TIMEZONE Europe/Paris\n"
                      "A Par - Bur\n")
    text = post.text([m for m in post.new() if m["To"] == france][-1])
    # The game started at 12:00 UTC on 1 March with 48 hours for orders.
    assert "The deadline of S1901M is Tue 03 Mar 2026 13:00 CET." in text
    assert "Still without orders (they hold if you send none): F Bre, A Mar." in text
    assert text.count("Still without orders") == 1
    post.send(france, f"SIGNON dip France {tokens['France']}\nF Bre - Mao\nA Mar - Spa\n")
    text = post.text([m for m in post.new() if m["To"] == france][-1])
    assert "Still without orders" not in text and "The deadline of S1901M" in text


def test_every_report_gives_the_deadline_of_its_own_phase(post: Post) -> None:
    """Every turn report stated the previous phase's deadline (the first report
    none): the reports were queued before the new phase's clock was set."""
    tokens = start_classic(post)
    first = [m for m in post.sent() if "report for" in str(m["Subject"])]
    assert len(first) == 7
    assert all("Deadline: Tue 03 Mar 2026 12:00 UTC" in post.text(m) for m in first)
    post.new()
    post.clock.advance(hours=5)
    for power in CLASSIC_POWERS:
        post.send(f"{power.lower()}@players.example",
                  f"SIGNON dip {power} {tokens[power]}\nORDERS\nEND\n")
    reports = [m for m in post.new() if "report for" in str(m["Subject"])]
    assert len(reports) == 7 and all("F1901M" in str(m["Subject"]) for m in reports)
    # F1901M opened at 17:00 on 1 March: its deadline is 48 hours later.
    assert all("Deadline: Tue 03 Mar 2026 17:00 UTC" in post.text(m) for m in reports)


def test_the_gm_hears_of_missed_orders_an_abandoned_seat_and_the_end(post: Post) -> None:
    """The GM was blind: no notice of missed orders, of an abandoned power
    (Turkey missed 10 phases) or of the end of the game."""
    from tests.core.helpers import hand, start_sealed

    seats = start_sealed(post, rounds=3)
    post.send(GM_ADDR, f"{seats.gm()}\nSET abandon_after 2\nSET gm_copies yes\n"
                       "SET grace_hours 0\n")
    post.new()
    notices: list[str] = []
    for _ in range(2):  # two rounds in which South never writes
        for role in ("North", "East"):
            post.send(seats.addresses[role], f"{seats.signon(role)}\nBID {hand(post, role)[0]}\n")
        post.clock.advance(hours=49)
        post.judge.cycle()  # the bid deadline: South's lowest card is bid for it
        post.clock.advance(hours=25)
        post.judge.cycle()  # the winner's award and any window: defaults
        post.clock.advance(hours=25)
        post.judge.cycle()
        notices += [post.text(m) for m in post.new() if m["To"] == GM_ADDR]
    missed = [t for t in notices if "passed without a word from" in t]
    assert missed and "South" in missed[0]
    assert any("South (south@players.example) has now missed 2 deadlines in a row: the seat "
               "looks abandoned. REPLACE South <address>" in t for t in notices)
    assert any("g1: Sealed Bids, report for observers" in t for t in notices)  # gm_copies
    for _ in range(6):
        post.clock.advance(hours=49)
        post.judge.cycle()
    assert post.judge.table("g1").outcome is not None
    final = [m for m in post.new() if m["To"] == GM_ADDR and "final report" in str(m["Subject"])]
    assert len(final) == 1 and "The game is over" in post.text(final[0])


def test_the_daemon_wakes_at_the_minute_of_the_next_deadline(post: Post) -> None:
    """The daemon processed a deadline at the next poll, not at its minute: it
    now sleeps no longer than until the next moment a clock asks for."""
    from judge.daemon import pause_before_next
    from tests.core.helpers import start_sealed

    post.judge.config.poll_seconds = 3600
    assert pause_before_next(post.judge) == 3600  # no game: the poll
    start_sealed(post)
    # The bid's reminder is due 36 hours after the start: still the poll.
    assert pause_before_next(post.judge) == 3600
    post.clock.advance(hours=35, minutes=59, seconds=30)
    assert pause_before_next(post.judge) == 30.5  # the reminder's minute
    post.judge.cycle()


def test_press_white_grey_named_and_none(post: Post) -> None:
    from tests.core.helpers import start_sealed

    seats = start_sealed(post)
    north = seats.addresses["North"]
    sign = seats.signon("North")
    post.send(GM_ADDR, f"{seats.gm()}\nSET press grey\n")
    post.new()
    post.send(north, f"{sign}\nPRESS TO East\nally?\nENDPRESS\n")
    (press,) = [m for m in post.new() if m["To"] == seats.addresses["East"]]
    assert "Press from a power to East" in post.text(press) and "North" not in post.text(press)
    post.send(GM_ADDR, f"{seats.gm()}\nSET press named\n")
    post.send(north, f"{sign}\nPRESS TO ALL\nhello all\nENDPRESS\n")
    assert "goes only to named powers" in post.text(post.new()[-1])
    post.send(GM_ADDR, f"{seats.gm()}\nSET press none\n")
    post.send(north, f"{sign}\nPRESS TO East\nhi\nENDPRESS\n")
    assert "is played without press" in post.text(post.new()[-1])


def test_public_draw_votes_and_a_concession_agreed_by_all(post: Post) -> None:
    from tests.core.helpers import start_sealed

    seats = start_sealed(post)
    post.send(GM_ADDR, f"{seats.gm()}\nSET draw_votes public\n")
    post.new()
    post.send(seats.addresses["North"], f"{seats.signon('North')}\nDRAW\n")
    heard = {m["To"] for m in post.new() if "votes for a draw" in str(m["Subject"])}
    assert heard == {seats.addresses["East"], seats.addresses["South"]}
    post.send(seats.addresses["North"], f"{seats.signon('North')}\nCONCEDE East\n")
    post.send(seats.addresses["South"], f"{seats.signon('South')}\nCONCEDE Nobody\n")
    assert "'Nobody' is not another survivor" in post.text(
        [m for m in post.new() if m["To"] == seats.addresses["South"]][-1])
    assert post.judge.table("g1").outcome is None
    post.send(seats.addresses["South"], f"{seats.signon('South')}\nCONCEDE East\n")
    outcome = post.judge.table("g1").outcome
    assert outcome is not None and outcome["winners"] == ["East"] and not outcome["draw"]
    finals = [m for m in post.new() if "final report" in str(m["Subject"])]
    assert {m["To"] for m in finals} == {*seats.addresses.values(), GM_ADDR}
    assert "rebuild the stored game" in post.judge.replay_check("g1")


def test_an_absence_moves_a_deadline_that_falls_inside_it(post: Post) -> None:
    """SET ABSENCE: a deadline of a decision the seat owes that falls inside its
    absence moves to the absence's end, by at most max_extend_hours; capped
    at max_absence_days per game."""
    from tests.core.helpers import start_sealed

    seats = start_sealed(post)  # 1 March 12:00 UTC; bids due 3 March 12:00
    sign = seats.signon("North")
    post.send(seats.addresses["North"], f"{sign}\nSET ABSENCE 2026-03-02 2026-03-03\n")
    deadline = post.judge.store.deadline("g1")
    assert deadline is not None and deadline["deadline"] == "2026-03-04T00:00:00+00:00"
    post.send(seats.addresses["East"], f"{seats.signon('East')}\nSET ABSENCE 2026-03-02 "
                                       "2026-03-30\nSET ABSENCE 2026-13-01 2026-13-02\n")
    text = post.text(post.new()[-1])
    assert "that would make 29 days of absence in g1, and a seat may announce 14" in text
    assert "cannot read '2026-13-01 2026-13-02' as two days" in text
    post.send(seats.addresses["South"], f"{seats.signon('South')}\nSET ABSENCE 2026-03-02 "
                                        "2026-03-14\n")
    deadline = post.judge.store.deadline("g1")
    # South's absence runs to 15 March, but a deadline moves by 72 hours at most.
    assert deadline is not None and deadline["deadline"] == "2026-03-06T12:00:00+00:00"


def test_observers_get_the_public_report_of_each_turn(post: Post) -> None:
    from tests.core.helpers import start_sealed

    start_sealed(post)
    post.send("fan@watch.example", "OBSERVE g1\n")
    asked = post.text(post.new()[-1])
    assert "you follow g1" not in asked and post.judge.store.observers("g1") == []
    code = re.search(r"OBSERVE g1 ([A-Z2-7]{10})", asked)
    assert code is not None, asked
    post.clock.advance(hours=1)  # a stranger is answered once an hour
    post.send("fan@watch.example", f"OBSERVE g1 {code.group(1)}\n")
    assert "you follow g1" in post.text(post.new()[-1])
    post.clock.advance(hours=100)
    for _ in range(3):
        post.clock.advance(hours=49)
        post.judge.cycle()
    seen = [m for m in post.new() if m["To"] == "fan@watch.example"]
    assert seen and all("for observers" in str(m["Subject"]) for m in seen)
    text = post.text(seen[0])
    assert "report for observers" in text and "Your hand" not in text
    view = json.loads(next(seen[0].iter_attachments()).get_content())
    assert view["role"] is None and not view.get("hand")  # the observer's view: no hand
    post.send("fan@watch.example", "OBSERVE g1 OFF\n")
    post.new()
    post.clock.advance(hours=49)
    post.judge.cycle()
    assert [m for m in post.new() if m["To"] == "fan@watch.example"] == []


def test_who_has_orders_in_is_shown_to_all_only_when_the_game_says_so(post: Post) -> None:
    """"Orders are due from:" listed every power even after six had ordered;
    who has orders in is now the GM's to see (STATUS), or everyone's with
    SET orders_in all."""
    tokens = start_classic(post)
    france = "france@players.example"
    post.send(france, f"SIGNON dip France {tokens['France']}\nA Par - Bur\nSTATUS\n")
    assert "Orders are in from" not in post.text(post.new()[-1])
    gm_token = token_in(post, GM_ADDR)
    post.send(GM_ADDR, f"SIGNON dip GM {gm_token}\nSET orders_in all\n")
    post.send(france, f"SIGNON dip France {tokens['France']}\nSTATUS\n")
    text = post.text(post.new()[-1])
    assert ("Orders are in from: France; still due from: Austria, England, Germany, Italy, "
            "Russia, Turkey.") in text


def test_orders_sent_ahead_are_held_until_their_phase_opens(post: Post) -> None:
    """Orders for a later phase of one's own (ORDERS F1901M while S1901M is
    open; a retreat or build preference) are held and checked when that
    phase begins: the lines that fit then are the orders, the others are
    named in the seat's next mail; orders for a phase that never comes are
    dropped with a word."""
    tokens = start_classic(post)
    england = "england@players.example"
    post.send(england, f"SIGNON dip England {tokens['England']}\nORDERS F1901M\nF Lon - Nth\n"
                       "A Par - Bur\nEND\nORDERS F1901R\nF Nth - Nwy\nEND\n")
    text = post.text(post.new()[-1])
    assert "orders ahead for F1901M: checked when it opens" in text
    assert post.judge.table("dip").held("England") == []
    for power in CLASSIC_POWERS:  # spring: everyone holds
        post.send(f"{power.lower()}@players.example",
                  f"SIGNON dip {power} {tokens[power]}\nORDERS\nEND\n")
    table = post.judge.table("dip")
    assert table.state["phase"] == "F1901M"
    assert [a.text for a in table.held("England")] == ["F Lon - Nth"]
    mine = [post.text(m) for m in post.new() if m["To"] == england]
    assert any('"A Par - Bur", was not taken' in t for t in mine)
    assert any("Your orders sent ahead for F1901M are held: F Lon - Nth." in t for t in mine)
    for power in CLASSIC_POWERS:  # fall: no retreat phase follows
        post.send(f"{power.lower()}@players.example",
                  f"SIGNON dip {power} {tokens[power]}\nWAIT\nNOWAIT\n")
    post.clock.advance(hours=49)
    post.judge.cycle()
    post.clock.advance(hours=25)
    post.judge.cycle()
    table = post.judge.table("dip")
    assert table.state["phase"] != "F1901R" and not table.ahead.get("England")
    mine = [post.text(m) for m in post.new() if m["To"] == england]
    assert any("sent ahead for F1901R were not used" in t for t in mine)
    assert "rebuild the stored game" in post.judge.replay_check("dip")


def test_a_body_sent_again_is_handled_again_and_loose_orders_list_once(post: Post) -> None:
    """A mail with the same body as one its sender sent within 10 minutes was
    dropped with no reply (a STATUS twice; a set-up mail sent too early and
    again on time). And each loose order line repeated the whole "orders
    held" block."""
    tokens = start_classic(post)
    france = "france@players.example"
    body = f"SIGNON dip France {tokens['France']}\nSTATUS\n"
    post.new()
    post.send(france, body)
    post.send(france, body)
    assert len([m for m in post.new() if m["To"] == france]) == 2
    post.send(france, f"SIGNON dip France {tokens['France']}\nA Par - Bur\nA Mar - Spa\n")
    text = post.text(post.new()[-1])
    assert text.count("Orders held for France") == 1


def test_after_a_rollback_every_seat_gets_the_report_rolled_back_to(post: Post) -> None:
    """After ROLLBACK, orders went into the earlier phase unseen: now every
    seat is told, and gets its report of the position rolled back to."""
    tokens = start_classic(post)
    gm = token_in(post, GM_ADDR)
    for power in CLASSIC_POWERS:
        post.send(f"{power.lower()}@players.example",
                  f"SIGNON dip {power} {tokens[power]}\nORDERS\nEND\n")
    assert post.judge.table("dip").state["phase"] == "F1901M"
    post.new()
    post.send(GM_ADDR, f"SIGNON dip GM {gm}\nROLLBACK\n")
    mails = post.new()
    for power in CLASSIC_POWERS:
        # one mail: the report rolled back to, the GM's word at its head
        [mine] = [m for m in mails if m["To"] == f"{power.lower()}@players.example"]
        assert "report for" in str(mine["Subject"]) and "S1901M" in str(mine["Subject"])
        assert post.text(mine).startswith("From the GM: rolled back to S1901M\n\nThe GM of "
                                          "dip has undone the last step"), power


def test_mail_settings_are_taken_and_a_wrong_mode_is_refused(post: Post) -> None:
    from tests.core.helpers import start_sealed

    seats = start_sealed(post)
    north = seats.addresses["North"]
    post.send(north, f"{seats.signon('North')}\nSET MAIL digest\nSET ACK sometimes\n")
    text = post.text(post.new()[-1])
    assert "you now get a digest each game turn" in text
    assert "'sometimes' is not a setting of SET ACK" in text
    assert "SET ACK all or SET ACK errors" in text
    seat = post.judge.store.seat("g1", "North")
    assert seat is not None and seat.mail_mode == "digest" and seat.ack_mode == "all"

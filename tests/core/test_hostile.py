"""Hostile mail and careless hosts: nobody can block, flood or confuse a game.

Each test is one defect found by attacking the judge by mail, as a stranger,
a hostile player or a careless GM would; each failed on the judge before it
was mended.
"""

from __future__ import annotations

import stat
from datetime import timedelta
from email.message import EmailMessage

import pytest
from click.testing import CliRunner

from judge import cli
from tests.core.conftest import Clock, Post
from tests.core.helpers import CLASSIC_POWERS, GM_ADDR, start_classic, start_sealed, token_in


def _last_to(post: Post, address: str) -> str:
    mails = [m for m in post.new() if m["To"] == address]
    assert mails, f"no mail to {address}"
    return post.text(mails[-1])


def _to(mails: list[EmailMessage], address: str) -> list[EmailMessage]:
    return [m for m in mails if m["To"] == address]


# --------------------------------------------------------------------------- seats


def test_a_stranger_cannot_block_a_forming_game(post: Post) -> None:
    """JOIN names a role the game has, and never goes past its seat count; the
    GM removes any seat before START, by mail or on the command line."""
    post.send(GM_ADDR, "CREATE fg sealed_bids\n")
    gm = token_in(post, GM_ADDR)
    post.new()
    post.send("mallory@evil.example", "JOIN fg Narnia\n")
    text = _last_to(post, "mallory@evil.example")
    assert "Sealed Bids has no role 'Narnia'" in text
    assert "roles: North, East, South, West" in text
    assert post.judge.store.seats("fg") == []
    for i, role in enumerate(("North", "East", "South", "West")):
        post.send(f"p{i}@players.example", f"JOIN fg {role}\n")
    post.clock.advance(hours=1)  # a stranger is answered once an hour
    post.send("mallory@evil.example", "JOIN fg\n")
    assert "fg is full: it has 4 seats" in _last_to(post, "mallory@evil.example")
    assert len(post.judge.store.seats("fg")) == 4
    # The GM removes a seat by mail; the address is told.
    post.send(GM_ADDR, f"SIGNON fg GM {gm}\nREMOVE p3@players.example\nREMOVE nobody@x.example\n")
    mails = post.new()
    ack = post.text(_to(mails, GM_ADDR)[-1])
    assert "p3@players.example no longer has a seat in fg" in ack
    assert "no seat of 'nobody@x.example' in fg" in ack
    assert "removed your seat" in post.text(_to(mails, "p3@players.example")[-1])
    # ... and on the command line.
    result = CliRunner().invoke(cli.main, ["--home", str(post.home), "game", "unseat", "fg",
                                           "South"])
    assert result.exit_code == 0, result.output
    assert "p2@players.example no longer has a seat in fg" in result.output
    post.judge.store.db.conn.commit()
    assert {s.address for s in post.judge.store.seats("fg")} == {
        "p0@players.example", "p1@players.example"}
    post.send(GM_ADDR, f"SIGNON fg GM {gm}\nSTART\n")
    assert "fg started" in _last_to(post, GM_ADDR)


def test_joins_by_approval(post: Post) -> None:
    post.send(GM_ADDR, "CREATE ap sealed_bids\n")
    gm = token_in(post, GM_ADDR)
    post.send(GM_ADDR, f"SIGNON ap GM {gm}\nSET joins approval\n")
    post.new()
    post.send("anna@players.example", "JOIN ap North\n")
    mails = post.new()
    assert "your request is with its GM" in post.text(_to(mails, "anna@players.example")[0])
    assert "token is:" not in post.text(_to(mails, "anna@players.example")[0])
    assert "ADMIT anna@players.example" in post.text(_to(mails, GM_ADDR)[0])
    post.send(GM_ADDR, f"SIGNON ap GM {gm}\nADMIT anna@players.example\n")
    token = token_in(post, "anna@players.example")
    post.send("anna@players.example", f"SIGNON ap North {token}\nSTATUS\n")
    assert "ap is forming" in _last_to(post, "anna@players.example")


def test_list_shows_only_games_open_to_join(post: Post) -> None:
    start_sealed(post)  # g1: running
    post.send(GM_ADDR, "CREATE open1 sealed_bids\n")
    post.send("who@x.example", "LIST\n")
    text = _last_to(post, "who@x.example")
    assert "open1: Sealed Bids (sealed_bids), 0 of 4 seats taken, open" in text
    assert "g1" not in text


# --------------------------------------------------------------------------- floods


def test_one_mail_of_press_to_all_cannot_flood(post: Post) -> None:
    """199 PRESS TO ALL lines once queued 1,195 mails: beyond
    limits.press_recipients_per_mail the mail is refused whole, with one reply."""
    seats = start_sealed(post)
    post.new()
    body = seats.signon("North") + "\n" + "PRESS TO ALL\nhello\nENDPRESS\n" * 60
    post.send(seats.addresses["North"], body)
    mails = post.new()
    assert [m["To"] for m in mails] == [seats.addresses["North"]]
    text = post.text(mails[0])
    assert "not carried out" in text and "limits.press_recipients_per_mail" in text
    assert post.judge.store.outbox("queued") == []


def test_press_per_hour(post: Post, clock: Clock) -> None:
    seats = start_sealed(post)
    post.new()
    sign = seats.signon("North")
    for _ in range(7):  # 2 recipients each: 14 press mails
        post.send(seats.addresses["North"], f"{sign}\nPRESS TO ALL\nhi\nENDPRESS\n")
    post.new()
    for i in range(9):
        post.send(seats.addresses["North"], f"{sign}\nPRESS TO ALL\nagain {i}\nENDPRESS\n")
    texts = [post.text(m) for m in _to(post.new(), seats.addresses["North"])]
    assert "limits.press_per_hour" in texts[-1]  # 32 would be over 30
    assert all("press sent to" in t for t in texts[:-1])
    clock.advance(hours=1, minutes=1)
    post.send(seats.addresses["North"], f"{sign}\nPRESS TO ALL\nlater\nENDPRESS\n")
    assert "press sent to" in _last_to(post, seats.addresses["North"])


def test_many_create_or_join_lines_are_refused_whole(post: Post) -> None:
    """One stranger mail with 200 CREATE or JOIN lines made 200 games or seats
    (and held the write lock for about 25 s)."""
    post.send("mallory@evil.example", "".join(f"CREATE x{i} sealed_bids\n" for i in range(150)))
    assert "limits.creates_per_mail" in _last_to(post, "mallory@evil.example")
    assert post.judge.store.game_names() == []
    post.send(GM_ADDR, "CREATE fg sealed_bids\n")
    post.clock.advance(hours=1)  # a stranger is answered once an hour
    post.send("mallory@evil.example", "JOIN fg\n" * 50)
    assert "limits.joins_per_mail" in _last_to(post, "mallory@evil.example")
    assert post.judge.store.seats("fg") == []


def test_games_a_stranger_may_create_per_day(post: Post, clock: Clock) -> None:
    for i in range(3):
        post.send("maker@x.example", f"CREATE d{i} sealed_bids\n")
        clock.advance(minutes=1)
    post.send("maker@x.example", "CREATE d3 sealed_bids\n")
    assert "limits.creates_per_day" in _last_to(post, "maker@x.example")
    assert post.judge.store.game("d3") is None
    clock.advance(days=1)
    post.send("maker@x.example", "CREATE d3 sealed_bids\n")
    assert post.judge.store.game("d3") is not None


def test_backscatter_to_forged_strangers_is_capped(post: Post) -> None:
    """Any number of arbitrary addresses got one reply an hour each: now at
    most limits.strangers_per_hour different strangers are answered an hour."""
    for i in range(40):
        post.send(f"victim{i}@forged.example", "HELP\n")
    answered = {m["To"] for m in post.new()}
    assert len(answered) == post.judge.config.strangers_per_hour == 30


def test_a_forged_registered_from_earns_few_replies(post: Post) -> None:
    seats = start_sealed(post)
    post.new()
    for i in range(30):
        post.send(seats.addresses["North"], f"HELP\nLIST {i}\n")
    replies = _to(post.new(), seats.addresses["North"])
    assert len(replies) < 30
    since = (post.clock.now.replace(microsecond=0) - timedelta(hours=1)).isoformat()
    until = post.clock.now.replace(microsecond=0).isoformat()
    assert post.judge.store.replies_since(seats.addresses["North"], since, until) == 20


# --------------------------------------------------------------------------- stale mail


def test_a_stale_spring_block_replaces_nothing_in_the_fall(post: Post) -> None:
    """An old spring ORDERS block re-sent in the fall replaced the three orders
    France held with nothing, while the acknowledgement said the refused lines
    changed nothing."""
    tokens = start_classic(post)
    france = "france@players.example"
    spring = "ORDERS\nA Par - Bur\nA Mar - Spa\nF Bre - Mao\nEND\n"
    for power in CLASSIC_POWERS:
        body = spring if power == "France" else "ORDERS\nEND\n"
        post.send(f"{power.lower()}@players.example",
                  f"SIGNON dip {power} {tokens[power]}\n{body}")
    assert post.judge.table("dip").state["phase"] == "F1901M"
    post.send(france, f"SIGNON dip France {tokens['France']}\n"
                      "ORDERS\nA Bur H\nA Spa H\nF Mao H\nEND\n")
    held = [a.text for a in post.judge.table("dip").held("France")]
    assert len(held) == 3
    post.new()
    post.send(france, f"SIGNON dip France {tokens['France']}\n{spring}")
    text = _last_to(post, france)
    assert "replaced nothing" in text
    assert [a.text for a in post.judge.table("dip").held("France")] == held
    # A block that names its phase is refused whole once that phase is over.
    post.send(france, f"SIGNON dip France {tokens['France']}\nORDERS S1901M\n"
                      "A Bur - Mun\nEND\n")
    text = _last_to(post, france)
    assert "this block is for S1901M, and the game is at F1901M" in text
    assert [a.text for a in post.judge.table("dip").held("France")] == held


# --------------------------------------------------------------------------- tokens


def test_resign_eject_and_replace_revoke_the_old_token(post: Post) -> None:
    seats = start_sealed(post)
    post.send(seats.addresses["North"], f"{seats.signon('North')}\nRESIGN\n")
    lines = post.send(seats.addresses["North"], f"{seats.signon('North')}\nDRAW\n")
    assert "auth-failure" in lines[0]
    post.send(GM_ADDR, f"{seats.gm()}\nEJECT East\nREPLACE South new@players.example\n")
    for role in ("East", "South"):
        lines = post.send(seats.addresses[role], f"{seats.signon(role)}\nDRAW\n")
        assert "auth-failure" in lines[0], role
    assert post.judge.table("g1").draw_votes == []


def test_fullwidth_signon_is_read_and_its_token_never_echoed(post: Post) -> None:
    seats = start_sealed(post)
    post.new()
    token = seats.tokens["North"]
    post.send(seats.addresses["North"], f"ＳＩＧＮＯＮ g1 North {token}\nSTATUS\n",
              subject=f"Re: SIGNON g1 North {token}")
    mails = _to(post.new(), seats.addresses["North"])
    text = post.text(mails[-1])
    assert "signed on as North in g1" in text
    assert token not in text and token not in str(mails[-1]["Subject"])
    assert str(mails[-1]["Subject"]).count("Re:") == 1
    row = post.judge.store.inbox()[-1]
    assert token not in row["subject"]


def test_tokens_have_eighty_bits_and_the_database_is_private(post: Post) -> None:
    from judge.store import TOKEN_ALPHABET, TOKEN_LENGTH, new_token

    assert len(TOKEN_ALPHABET) ** TOKEN_LENGTH >= 2**80
    assert len(set(TOKEN_ALPHABET)) == len(TOKEN_ALPHABET) and not set("ilo1") & set(
        TOKEN_ALPHABET)
    assert len(new_token()) == TOKEN_LENGTH
    start_sealed(post)
    for suffix in ("", "-wal", "-shm"):
        path = post.judge.config.db_path.with_name("judge.db" + suffix)
        if path.exists():
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, suffix


# --------------------------------------------------------------------------- names and values


def test_look_alike_game_names_are_refused(post: Post) -> None:
    post.send(GM_ADDR, "CREATE spring26 sealed_bids\n")
    for name in ("SPRING26", "spring２６"):
        post.send(GM_ADDR, f"CREATE {name} sealed_bids\n")
        assert "a game called 'spring26' already exists" in _last_to(post, GM_ADDR), name
    post.send(GM_ADDR, "CREATE spr\u0456ng26 sealed_bids\n")  # a Cyrillic і
    assert "is not a usable game name" in _last_to(post, GM_ADDR)
    assert post.judge.store.game_names() == ["spring26"]


def test_press_loses_bidi_controls(post: Post) -> None:
    seats = start_sealed(post)
    post.new()
    post.send(seats.addresses["North"],
              f"{seats.signon('North')}\nPRESS TO East\nattack \u202enow\u202c\nENDPRESS\n")
    press = [m for m in post.new() if m["To"] == seats.addresses["East"]]
    assert press and "attack now" in post.text(press[0])
    assert "\u202e" not in post.text(press[0])


def test_gm_values_the_code_could_fail_on_are_refused_on_their_line(post: Post) -> None:
    seats = start_sealed(post)
    post.new()
    post.send(GM_ADDR, f"{seats.gm()}\nSET DEADLINE 9999-12-31 23:59\n"
                       "REPLACE East a@b.example,c@d.example\nSET grace_hours nan\n"
                       "EXTEND 1e308\nSET joins maybe\n")
    text = _last_to(post, GM_ADDR)
    assert "more than 365 days away" in text
    assert "is not one mail address" in text
    assert "grace_hours must be between 0 and 1440 hours" in text
    assert "may be extended by 72 hours in all" in text
    assert "joins is open or approval" in text
    assert text.count("-> not accepted") == 5


def test_no_write_lock_is_held_while_tokens_are_checked(
        post: Post, monkeypatch: pytest.MonkeyPatch) -> None:
    """A mail's tokens are checked (scrypt, the slow part) before its
    transaction begins, so a flood of signed mails never holds the write lock
    for the time of their key derivations."""
    import hashlib

    from judge import store as store_module

    seats = start_sealed(post)
    store_module._VERIFIED.clear()  # no token is known to this process yet
    conn = post.judge.store.db.conn
    during: list[bool] = []
    real = hashlib.scrypt

    def spy(password: bytes, *, salt: bytes, n: int, r: int, p: int, dklen: int) -> bytes:
        during.append(conn.in_transaction)
        return real(password, salt=salt, n=n, r=r, p=p, dklen=dklen)

    monkeypatch.setattr(hashlib, "scrypt", spy)  # the module the store calls scrypt from
    post.send(seats.addresses["North"], f"{seats.signon('North')}\nSTATUS\n")
    post.send(seats.addresses["East"], f"SIGNON g1 East {'x' * 16}\nSTATUS\n")  # a wrong one
    assert len(during) == 2 and not any(during)


def test_a_seat_with_a_refused_line_is_not_ready(post: Post) -> None:
    """Early processing ran while the last seat's mail had a refused line, so
    that seat never had the chance to mend it. Now such a seat is not ready,
    and its acknowledgement says so, until it sends orders with none."""
    from tests.core.helpers import hand

    seats = start_sealed(post)
    for role in ("North", "East"):
        card = hand(post, role)[0]
        post.send(seats.addresses[role], f"{seats.signon(role)}\nBID {card}\n")
    card = hand(post, "South")[0]
    post.new()
    post.send(seats.addresses["South"], f"{seats.signon('South')}\nBID {card}\nBID 99Z\n")
    assert "will not be processed before its deadline" in _last_to(post, seats.addresses["South"])
    assert post.judge.table("g1").state["stage"] == "bid"
    post.send(seats.addresses["South"], f"{seats.signon('South')}\nBID {card}\n")
    assert post.judge.table("g1").state["stage"] != "bid"


def test_a_sign_off_after_the_orders_is_not_read_as_orders(post: Post) -> None:
    """A sign-off after ORDERS ... END was read as orders (and refused, line by
    line): lines after the last command that the game does not understand
    are listed as not read, and change nothing."""
    from tests.core.helpers import hand

    seats = start_sealed(post)
    card = hand(post, "North")[0]
    post.new()
    post.send(seats.addresses["North"],
              f"{seats.signon('North')}\nORDERS\nBID {card}\nEND\nCheers,\nAnna\n")
    text = _last_to(post, seats.addresses["North"])
    assert text.count("not read: looks like a signature") == 2
    assert "Every line was accepted." in text
    assert [a.text for a in post.judge.table("g1").held("North")] == [f"BID {card}"]
    # Without orders before them, such lines are orders gone wrong: refused.
    post.send(seats.addresses["North"], f"{seats.signon('North')}\nCheers\n")
    text = _last_to(post, seats.addresses["North"])
    assert 'line 2: "Cheers"' in text and "not understood" in text


def test_the_gm_sees_the_game_and_everyone_hears_the_gm(post: Post) -> None:
    seats = start_sealed(post)
    from tests.core.helpers import hand

    card = hand(post, "North")[0]
    post.send(seats.addresses["North"], f"{seats.signon('North')}\nBID {card}\n")
    post.new()
    post.send(GM_ADDR, f"{seats.gm()}\nSTATUS\nEXTEND 12\nPAUSE\n")
    mails = post.new()
    gm = post.text(_to(mails, GM_ADDR)[-1])
    assert "North: north@players.example, active, 1 order(s) on file" in gm
    assert "East: east@players.example, active, owes orders" in gm
    assert "Deadline of " in gm
    for role, address in seats.addresses.items():
        mine = [post.text(m) for m in _to(mails, address)]
        assert any("extended round 1: bids by 12 hours" in t for t in mine), role
        assert any("has paused the game" in t for t in mine), role
    result = CliRunner().invoke(cli.main, ["--home", str(post.home), "game", "show", "g1",
                                           "--as", "GM"])
    assert result.exit_code == 0 and "South: south@players.example" in result.output


def test_help_for_a_game_kind_lists_only_its_own_orders(post: Post) -> None:
    post.send("who@x.example", "HELP sealed_bids\n")
    text = _last_to(post, "who@x.example")
    assert "Orders and actions of Sealed Bids" in text and "BID <card>" in text
    assert "SIGNON <game> <role> <token>" not in text


def test_no_token_is_kept_in_clear_after_a_scripted_game(post: Post, clock: Clock) -> None:
    """Every token mailed out stayed readable in outbox.raw (all 10 of one home
    were recovered), a SIGNON in the Subject was stored in inbox.subject and
    outbox.subject. After a scripted game, grep the database (and its WAL) and
    the judge's inbound Maildir for every token: none is there."""
    from tests.core.helpers import hand

    seats = start_sealed(post)
    post.send(GM_ADDR, f"{seats.gm()}\nREPLACE South south2@players.example\n")
    tokens = [seats.gm_token, *seats.tokens.values(), token_in(post, "south2@players.example")]
    seats.tokens["South"], seats.addresses["South"] = tokens[-1], "south2@players.example"
    for role in ("North", "East", "South"):
        card = hand(post, role)[0]
        post.send(seats.addresses[role], f"BID {card}\nSTATUS\n",
                  subject=f"Re: {seats.signon(role)}")
    post.send(seats.addresses["North"], f"{seats.signon('North')}\n{seats.tokens['North']}\n")
    clock.advance(days=3)
    post.judge.cycle()
    assert post.judge.store.outbox("queued") == []
    post.judge.close()
    home = post.home
    stored = b"".join(p.read_bytes() for p in home.glob("judge.db*"))
    kept = b"".join(p.read_bytes() for p in (home / "mail" / "in").rglob("*") if p.is_file())
    assert len(tokens) == 5 and stored and kept
    for token in tokens:
        assert token.encode() not in stored, token
        assert token.encode() not in kept, token
    # ... while the players did receive them.
    out = b"".join(p.read_bytes() for p in (home / "mail" / "out").rglob("*") if p.is_file())
    assert all(t.encode() in out for t in tokens)


def test_a_token_without_a_digit_is_masked_too() -> None:
    """One token in a hundred has no digit; it was kept in clear in the
    outbox's copy of the JOIN reply (found as a flaky secrets-at-rest test)."""
    from judge.mail.redact import mask_secrets_text

    body = ("You have a seat in g1. Your secret token is: sxrhgqtcnuuwmvbc\n"
            "Keep it private. Sign your mails with SIGNON g1 North sxrhgqtcnuuwmvbc.\n")
    assert "sxrhgqtcnuuwmvbc" not in mask_secrets_text(body)
    assert "A Par - Bur" in mask_secrets_text("A Par - Bur")

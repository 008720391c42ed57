"""The GM's whole job by mail: press, ending or cancelling a game, options
before START, deadlines as durations or a daily time, notices to the GM,
and no more than one mail per player for one GM mail."""

from __future__ import annotations

from email.message import EmailMessage

from tests.core.conftest import Post
from tests.core.helpers import GM_ADDR, start_sealed


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

"""judge.lifecycle: the one place a game is created, seated, started, has a
seat replaced or ejected, and ends. Its seat changes hand back the token and
the mails they make (the mail commands and the CLI send them); a refused
change leaves the game as it was."""

from __future__ import annotations

import pytest

from judge import lifecycle
from judge.session import CommandError
from tests.core.conftest import Post
from tests.core.helpers import start_sealed

#: The store and the mail pipeline on SQLite and on PostgreSQL (tests/conftest.py).
BOTH_BACKENDS = True


def test_replace_returns_the_token_and_its_mails_and_queues_none(post: Post) -> None:
    seats = start_sealed(post)
    queued = len(post.judge.store.outbox())
    ws = post.judge.workspace()
    g = ws.get("g1")
    done = lifecycle.replace(ws, g, "east", "<Anna@Example.org>")
    ws.flush()
    assert len(post.judge.store.outbox()) == queued  # the caller sends them
    assert done.seat.role == "East" and done.seat.address == "anna@example.org"
    assert [n.address for n in done.notices] == [seats.addresses["East"], "anna@example.org"]
    assert f"SIGNON g1 East {done.token}" in done.notices[-1].text
    assert done.announce is not None and done.announce[0] == "East has a new player"
    seat = ws.get("g1").seat("East")
    assert seat is not None and seat.address == "anna@example.org"


def test_eject_returns_the_mail_to_the_player_it_removes(post: Post) -> None:
    seats = start_sealed(post)
    ws = post.judge.workspace()
    done = lifecycle.eject(ws, ws.get("g1"), "South")
    assert done.token == "" and done.seat.status == "ejected"
    assert [n.address for n in done.notices] == [seats.addresses["South"]]
    assert "your token no longer works" in done.notices[0].text
    assert done.announce is not None and "civil disorder" in done.announce[0]


def test_a_refused_replace_or_end_changes_nothing(post: Post) -> None:
    start_sealed(post)
    before = (post.judge.store.game("g1"), post.judge.store.seats("g1"))
    ws = post.judge.workspace()
    g = ws.get("g1")
    with pytest.raises(CommandError, match="is not one mail address"):
        lifecycle.replace(ws, g, "East", "anna at example.org")
    with pytest.raises(CommandError, match="no seat 'Atlantis'"):
        lifecycle.eject(ws, g, "Atlantis")
    with pytest.raises(CommandError, match="a draw is shared by two seats or more"):
        lifecycle.end(ws, g, "draw", ["North"])
    with pytest.raises(CommandError, match="one seat wins"):
        lifecycle.end(ws, g, "win", ["North", "East"])
    ws.flush()
    assert (post.judge.store.game("g1"), post.judge.store.seats("g1")) == before


def test_the_operators_notices_name_the_game_case_folded() -> None:
    gm = lifecycle.operator_gm_notice("Spring26", "GM@Example.org", "t0k")
    assert (gm.address, gm.subject, gm.game) == ("gm@example.org", "[spring26] you are the GM",
                                                 "spring26")
    assert "SIGNON spring26 GM t0k" in gm.text
    seat = lifecycle.operator_seat_notice("Spring26", "Marie@Example.fr", None, "t0k")
    assert "SIGNON spring26 <role> t0k, with the role the start report gives you" in seat.text

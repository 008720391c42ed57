"""Conquest Tactics by mail: regression tests for defects found in matches
played at correspondence pace (a draw in a league, the Mobilize by mail, the
hand and deployment reports, the deck-list request, instants), each through
the Maildir pipeline.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from games.conquest_tactics import field as F
from judge.cli import main
from judge.rng import Rng
from judge.store import set_kdf_cost
from tests.conquest_tactics.test_mail import (
    ADDR,
    BALANCE,
    NAME,
    SEED,
    STARTER_FORCES,
    N,
    Players,
    Privacy,
    S,
    Seen,
    _play,
    _set_up,
    _text,
)
from tests.core.conftest import Post
from tests.core.helpers import GM_ADDR, token_in
from tests.support.maildir import Outbox, open_post


@pytest.fixture(autouse=True)
def _fast_kdf() -> Iterator[None]:
    set_kdf_cost(2**8)
    yield


@pytest.fixture
def post(tmp_path: Path) -> Iterator[Post]:
    yield from open_post(tmp_path, SEED)


def _cli(home: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def _start(post: Post, options: str, league: str | None = None) -> tuple[Players, str]:
    """CREATE (in ``league``), two JOINs and START, by mail; the GM's token."""
    players = Players(post, Outbox(post), Privacy())
    post.send(GM_ADDR, f"CREATE {NAME} conquest_tactics {options}\n")
    gm = token_in(post, GM_ADDR)
    if league is not None:
        post.send(GM_ADDR, f"SIGNON {NAME} GM {gm}\nLEAGUE {league}\n")
    for role in (S, N):
        post.send(ADDR[role], f"JOIN {NAME} {role}\n")
        players.tokens[role] = token_in(post, ADDR[role])
    post.send(GM_ADDR, f"SIGNON {NAME} GM {gm}\nSTART\n")
    players.cycle()
    for role in (S, N):
        players.bots[role] = BALANCE.Bot(role, Rng(hashlib.sha256(role.encode()).digest(), 0))
    return players, gm


# --------------------------------------------------------------------------- a draw


@pytest.mark.parametrize(("scoring", "each"), [("draw-size", 0.5), ("sum-of-squares", 0.5),
                                                ("wdl", 1.0)])
def test_a_drawn_match_counts_as_a_draw_in_a_league(post: Post, scoring: str,
                                                    each: float) -> None:
    """Victory: "3-3 Draw" in the result table; the turn limit (ours) gives
    the match to the greater tally, so equal tallies at the limit draw too.
    A league match with a turn limit of 1, played by mail, ends 0-0 at the
    first Halt: a draw shared by both players, not an abandoned match. Under
    each scoring system the league counts it as a draw for both: half a
    point each under draw-size and sum-of-squares (no Victory Conditions to
    square: the draw is shared equally), one point each under wdl."""
    league = "cup"
    _cli(post.home, "league", "create", league, "--scoring", scoring, "--gm", GM_ADDR)
    players, _ = _start(post, "south=kaborha north=gunget turn_limit=1", league)
    _set_up(players, STARTER_FORCES)
    _play(players, Seen())
    outcome = players.table().outcome
    assert outcome is not None and outcome["draw"], outcome
    assert str(outcome["reason"]).startswith("0-0 Draw")
    assert sorted(outcome["winners"]) == sorted(F.ROLES)  # type: ignore[arg-type]
    for role in (S, N):
        final = [_text(m) for m in players.outbox.mails if m["To"] == ADDR[role]
                 and "final report" in str(m["Subject"])][-1]
        assert "a draw shared by South, North" in final, final
        assert "nobody" not in final

    shown = json.loads(_cli(post.home, "league", "show", league, "--json"))
    (game,) = shown["games"]
    assert game["draw"] and game["result"] == "a draw shared by South, North"
    rows = {r["player"]: r for r in shown["standings"]}
    assert set(rows) == set(ADDR.values())
    for row in rows.values():
        assert (row["games"], row["wins"], row["draws"], row["losses"]) == (1, 0, 1, 0), row
        assert row["points"] == each, (scoring, row)
    text = _cli(post.home, "league", "show", league)
    assert "abandoned" not in text and "a draw shared by South, North" in text

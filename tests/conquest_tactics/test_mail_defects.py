"""Conquest Tactics by mail: regression tests for defects found in matches
played at correspondence pace (a draw in a league, the Mobilize by mail, the
hand and deployment reports, the deck-list request, instants), each through
the Maildir pipeline.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bench.support.maildir import Outbox
from judge.cli import main
from judge.game import adjudicator as adj
from judge.game.rng import Rng
from judge_games.conquest_tactics import GAME, rules
from judge_games.conquest_tactics import field as F
from judge_games.conquest_tactics.cards import POOL
from judge_games.conquest_tactics.table import Ctx, card
from tests.conquest_tactics.scenario import asked_anew
from tests.conquest_tactics.test_mail import (
    ADDR,
    BALANCE,
    FORCES,
    NAME,
    STARTER_FORCES,
    N,
    Players,
    Privacy,
    S,
    Seen,
    _bot_line,
    _play,
    _set_up,
    _text,
)
from tests.core.conftest import Post
from tests.core.helpers import GM_ADDR, token_in


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
    assert sorted(outcome["winners"]) == sorted(F.ROLES)
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


# --------------------------------------------------------------------------- Mobilize by mail


def _until(players: Players, done: Any, steps: int = 300) -> None:
    """The bots answer every decision by mail until ``done(state)``."""
    for _ in range(steps):
        table = players.table()
        if done(table.state):
            return
        owed = sorted(adj.waiting_on(GAME, table))
        if not owed:
            players.tick(minutes=31)
            continue
        role = owed[0]
        players.send(role, [_bot_line(players, role, table.state)])
    raise AssertionError("the match never got there")


HAND = ["aimed-shot", "footsoldiers", "fireball", "archers", "longsword"]
"""South's hand for its first Mobilize (set in the stored state before it)."""


def _to_mobilize(post: Post) -> Players:
    """A match by mail up to turn 1's Mobilize, South holding :data:`HAND`."""
    players, _ = _start(post, "south=humans north=malice")
    _set_up(players, FORCES)
    _until(players, lambda s: s["stage"] == "up")
    table = players.table()
    p = table.state["p"][S]
    p["supply"] += p["hand"]
    p["hand"] = list(HAND)
    for c in HAND:
        if c in p["supply"]:
            p["supply"].remove(c)
    post.judge.store.update_game(NAME, table_json=table.dumps())
    _until(players, lambda s: s["stage"] == "mobilize")
    return players


def _free(state: dict[str, Any], n: int) -> list[str]:
    """``n`` open spaces of South's deployment zone, in South's frame."""
    g = Ctx(state)
    return [F.to_frame(x, S) for x in F.deployment_zone(S)
            if g.troop_at(x) is None and g.base_at(x) is None][:n]


def _request(players: Players, role: str, phase: str) -> str:
    return next(_text(m) for m in reversed(players.outbox.mails) if m["To"] == ADDR[role]
                and "your decision" in str(m["Subject"]) and phase in str(m["Subject"]))


def test_discard_numbers_the_hand_as_the_last_report_lists_it(post: Post) -> None:
    """DISCARD n takes the n-th card of the hand as the last report listed it
    (the game's README), through every line of a mail: after a first line
    deploys one card and discards the first, ``DISCARD 3`` is still the
    report's third card, not the third of what is left. The hand list shows
    the level of each troop, spell and skill (UPGRADE depends on it).
    Mobilize: "Each card discarded is worth two Tactical Points"."""
    players = _to_mobilize(post)
    request = _request(players, S, "Mobilize")
    listed = re.search(r"^Your hand: (.*)$", request, re.M)
    assert listed is not None
    a, b = _free(players.table().state, 2)
    log, _ = players.send(S, [f"DEPLOY footsoldiers {a} DISCARD 1",
                              f"DEPLOY archers {b} DISCARD 3"])
    assert not any("failed" in x for x in log), log
    p = rules.held_ctx(players.table().state, S).p(S)  # held until both have mobilized
    assert p["discard"][-2:] == ["aimed-shot", "fireball"], p["discard"]
    assert p["hand"] == ["longsword"]
    assert listed.group(1) == ("1 Aimed Shot (level 1), 2 Footsoldiers (level 0), "
                               "3 Fireball (level 1), 4 Archers (level 1), 5 Longsword")


def test_done_after_a_refused_line_ends_the_mobilize(post: Post) -> None:
    """A Mobilize mail whose first line is refused and whose last is DONE:
    the DONE is taken, as written (Mobilize: "Players can choose to pay
    Tactical Points to deploy additional Troops"; a player ends its part when
    it says so). The Mobilize does not wait for the deadline on that seat;
    the acknowledgement says which line was refused and that DONE was done,
    and the refused card is still in hand."""
    players = _to_mobilize(post)
    (a,) = _free(players.table().state, 1)
    hand = list(players.table().state["p"][S]["hand"])
    _, mails = players.send(S, [f"DEPLOY footsoldier {a}", "DONE"])
    held = rules.held_ctx(players.table().state, S).p(S)  # held until both have mobilized
    assert held["done"]
    assert held["hand"] == hand
    ack = next(_text(m) for m in mails if m["To"] == ADDR[S] and "read as follows" in _text(m))
    assert re.search(r'"DEPLOY footsoldier [A-E]\d"\n\s+\S', ack), ack
    assert "done: DONE" in ack, ack
    assert S not in adj.waiting_on(GAME, players.table())


# --------------------------------------------------------------------------- deployment


def test_starting_forces_stay_face_down_until_deployed(post: Post) -> None:
    """Setup: "Players compare the number of Tactical Points they have
    selected"; the player with Initiative deploys first, then "the other
    player follows the same procedure". The forces are face down until
    placed (the README: counts until played): the first deployer's request
    names none of the other side's starting cards, only how many are still
    to deploy, and each side is told its own forces privately."""
    players, _ = _start(post, "south=humans north=malice")
    for role in (S, N):
        players.send(role, FORCES[role])
    state = players.table().state
    assert state["stage"] == "deploy"
    first = state["deployer"]
    other = F.other(first)
    request = _request(players, first, "deploy")
    them, me = state["p"][other], state["p"][first]
    theirs = {card(c).name for c in them["forces"] + them.get("start_spells", [])}
    mine = {card(c).name for c in me["forces"] + [k["card"] for k in me["knowledge"]]}
    hidden = theirs - mine
    assert hidden and not [n for n in hidden if n in request], hidden
    assert f"Starting troops still to deploy: {len(them['forces'])} (face down)" in request
    assert "Tactical Points of starting forces (" in request
    own = "\n".join(_text(m) for m in players.outbox.mails if m["To"] == ADDR[other])
    assert "Your starting forces: " in own and all(n in own for n in theirs)


# --------------------------------------------------------------------------- deck lists


def test_the_deck_list_request_says_how_and_starter_plays_the_starter(post: Post) -> None:
    """With submitted decks, the first request says how to send a deck list
    (the deck building guidelines' counts), which starter deck is the
    default, and how to play it at once: ``STARTER``. North sends STARTER,
    South a starter of another faction; the match goes on to its set-up
    with those decks."""
    players, _ = _start(post, "decks=submitted south=humans north=malice")
    request = _request(players, N, "deck lists")
    assert "DECK <a name for your deck>" in request and "  END" in request
    assert "sixty supply cards" in request and "four in all" in request
    assert 'the malice one ("Malice starter")' in request
    assert "\n  STARTER\n" in request
    assert "South (, deck )" not in request and "Your deck (choose" not in request
    log, _ = players.send(N, ["STARTER"])
    assert not any("failed" in x for x in log), log
    players.send(S, ["STARTER kaborha"])
    state = players.table().state
    assert state["stage"] == "forces"
    assert state["p"][N]["faction"] == "malice" and state["p"][S]["faction"] == "kaborha"
    assert state["p"][S]["deck"] == POOL.starters["kaborha"].name


# --------------------------------------------------------------------------- instants


def test_an_instant_circumstance_by_mail_in_the_play_phase(post: Post) -> None:
    """Play Circumstance: "Other Circumstances are Instants and may be
    played at any time": South, with control in the Play phase, plays Second
    Wind on a damaged troop of its own by mail, and it heals; the game
    offers the line among South's choices."""
    players, _ = _start(post, "south=humans north=malice")
    _set_up(players, FORCES)
    _until(players, lambda s: s["stage"] == "play")
    table = players.table()
    state = table.state
    g = Ctx(state)
    troop = next(iter(g.troops(S)))
    troop["damage"] = 2
    state["actor"] = S
    state["p"][S]["hand"] = ["second-wind"]
    state["p"][S]["tp"] = max(1, state["p"][S]["tp"])  # Second Wind costs 1
    state["serial"] += 1  # a new decision: South is asked
    asked_anew(state)  # the decision asked anew, under its new number
    post.judge.store.update_game(NAME, table_json=table.dumps())
    space = F.to_frame(troop["at"], S)
    assert any(x.startswith("PLAY second-wind ON ") for x in GAME.legal(players.table().state, S))
    log, _ = players.send(S, [f"PLAY second-wind ON {space}"])
    assert not any("failed" in x for x in log), log
    state = players.table().state
    healed = Ctx(state).troop_at(troop["at"])
    assert healed is not None and healed["damage"] == 0
    assert "second-wind" in state["p"][S]["removed"]

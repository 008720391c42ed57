"""By mail, through the whole judge: a full turn of Conflict of Alliances in
which neither player's mail shows anything of the other's hand or face-down
cards, with queued actions and standing window policies."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.support.maildir import open_post, whole
from judge.game import adjudicator as adj
from judge.game.engine import RuleError
from judge.game.rng import Rng
from judge.store import set_kdf_cost
from judge_games.conflict_of_alliances import GAME
from judge_games.conflict_of_alliances.data import DATA, slug
from tests.core.conftest import Post
from tests.core.helpers import GM_ADDR, stored_game, token_in

L, A = "Lianheng", "Alliance"
ADDR = {L: "zhang.yi@players.example", A: "su.qin@players.example"}


@pytest.fixture(autouse=True)
def _fast_kdf() -> Iterator[None]:
    set_kdf_cost(2**8)
    yield


@pytest.fixture
def post(tmp_path: Path) -> Iterator[Post]:
    yield from open_post(tmp_path)


def _start(post: Post, options: str = "") -> dict[str, str]:
    post.send(GM_ADDR, f"CREATE g1 conflict_of_alliances {options}\n")
    gm = token_in(post, GM_ADDR)
    tokens = {}
    for side in (L, A):
        post.send(ADDR[side], f"JOIN g1 {side}\n")
        tokens[side] = token_in(post, ADDR[side])
    post.send(GM_ADDR, f"SIGNON g1 GM {gm}\nSTART\n")
    return tokens


ONLY = {side: {c for c in DATA.cards[side] if c not in DATA.cards[A if side == L else L]}
        for side in (L, A)}
"""Card names found in one deck only: seeing one tells which card it is."""


def _names(card: str, side: str) -> list[str]:
    return [card, DATA.cards[side][card].name]


def _leaks(post: Post, reader: str, shown: set[str]) -> list[str]:
    """Names of the opponent's deck-only cards in mail to ``reader`` that the
    opponent never showed (played face up)."""
    them = A if reader == L else L
    found = []
    for msg in post.sent():
        if msg["To"] != ADDR[reader]:
            continue
        text = whole(msg)
        for card in ONLY[them] - shown:
            for name in _names(card, them):
                if name in text:
                    found.append(f"{name!r} in {msg['Subject']!r}")
    return found


def _shown(state: dict[str, Any], side: str) -> set[str]:
    z = state["cards"][side]
    return {slug(c) for c, up in z["discard"] if up} | {slug(c) for c in z["removed"]}


def test_a_full_turn_by_mail_keeps_both_hands_secret(post: Post) -> None:
    tokens = _start(post)
    chooser = random.Random(7)
    table = post.judge.table("g1")
    assert table.state["turn"] == 1
    seen_turn_two = False
    shown: dict[str, set[str]] = {L: set(), A: set()}
    face_down = 0
    for _ in range(200):
        # Past any window's minimum open time: the cycle closes what may close.
        post.clock.advance(minutes=31)
        post.judge.cycle()
        table = post.judge.table("g1")
        state = table.state
        for side in (L, A):
            shown[side] |= _shown(state, side)
        if state["turn"] >= 2:
            seen_turn_two = True
            break
        due = adj.open_decisions(GAME, table)
        assert due, "the game waits for nobody"
        # Every role the decision lists answers (a LOSE decision may list both).
        for role in due[0].roles:
            lines = GAME.legal(state, role)
            # Prefer plays, face down and face up, so both kinds of secret are tested.
            plays = [x for x in lines if x.startswith("PLAY")]
            line = chooser.choice(plays) if plays and chooser.random() < 0.85 else lines[0]
            face_down += "FACEDOWN" in line
            log = post.send(ADDR[role], f"SIGNON g1 {role} {tokens[role]}\n{line}\n")
        after = post.judge.table("g1")
        assert after.dumps() != table.dumps(), f"{line!r} was not taken: {log}"
    assert seen_turn_two, "the first turn did not end"
    for side in (L, A):
        assert _leaks(post, side, shown[A if side == L else L]) == []
    # The reports did carry the players' own hands and the public board.
    mine = [m for m in post.sent() if m["To"] == ADDR[L]]
    assert any("Your hand:" in whole(m) for m in mine)
    assert any("Diplomacy track" in whole(m) for m in mine)
    assert face_down > 0, "no card was played face down: the test proved little"


def test_face_down_play_reads_as_a_card_face_down(post: Post) -> None:
    tokens = _start(post)
    state = post.judge.table("g1").state
    side = state["active"]
    other = A if side == L else L
    card = next(slug(c) for c in sorted(state["cards"][side]["hand"]))
    line = f"PLAY {card} FACEDOWN WEATHER LOCK"
    post.new()
    post.send(ADDR[side], f"SIGNON g1 {side} {tokens[side]}\n{line}\n")
    theirs = [whole(m) for m in post.new() if m["To"] == ADDR[other]]
    assert theirs and any("a card face down" in t for t in theirs)
    assert not any(DATA.cards[side][card].name in t and card in ONLY[side] for t in theirs)


def test_policy_pass_answers_before_combat_windows(post: Post) -> None:
    """A standing policy (POLICY before-combat PASS) answers the window as it
    opens, and a window that asks nobody by hand closes at once ("Responses":
    the passive player is offered the window every time; whether it is asked
    depends only on its setting, so the timing tells nothing)."""
    tokens = _start(post, "scenario=five-kingdoms")
    state = post.judge.table("g1").state
    assert state["active"] == L
    post.send(ADDR[A], f"SIGNON g1 {A} {tokens[A]}\nPOLICY before-combat PASS\n")
    # Qin attacks Ba Shu (Shu, Neutral) from Hanzhong with a face-down card.
    card = slug(sorted(state["cards"][L]["hand"])[0])
    post.send(ADDR[L], f"SIGNON g1 {L} {tokens[L]}\n"
                       f"PLAY {card} FACEDOWN MILITARY hanzhong qin 2 TO ba-shu\n")
    rows = post.judge.store.actions("g1")
    asked = [json.loads(r["payload"]) for r in rows if r["kind"] == "asked"]
    assert asked and asked[0]["by_hand"] == []
    answered = [json.loads(r["payload"]) for r in rows if r["kind"] == "answer"]
    assert answered and answered[0]["by"] == "policy"
    table = post.judge.table("g1")
    assert not any(w.get("by_hand") for w in table.windows.values())
    assert adj.waiting_on(GAME, table) <= {L, A}


def test_lines_sent_out_of_turn_are_queued(post: Post) -> None:
    tokens = _start(post)
    state = post.judge.table("g1").state
    waiting = A if state["active"] == L else L
    post.new()
    post.send(ADDR[waiting], f"SIGNON g1 {waiting} {tokens[waiting]}\nPASS\n")
    ack = [whole(m) for m in post.new() if m["To"] == ADDR[waiting]]
    assert any("queued" in t for t in ack)
    post.send(ADDR[waiting], f"SIGNON g1 {waiting} {tokens[waiting]}\nPLAY nonsense FACEUP\n")
    ack = [whole(m) for m in post.new() if m["To"] == ADDR[waiting]]
    assert any("no card called" in t for t in ack)
    active = state["active"]
    post.send(ADDR[active], f"SIGNON g1 {active} {tokens[active]}\nPASS\n")
    after = post.judge.table("g1").state
    # the queued PASS was taken in turn: two passes ended turn 1
    assert after["turn"] == 2


def test_first_report_carries_the_sides_card_texts_and_help_gives_a_card(post: Post) -> None:
    """Players asked for the card texts: each seat's first report lists its own
    deck's cards (and not the opponent's), and HELP <card> gives one card's
    text by mail."""
    tokens = _start(post)
    first = {side: next(whole(m) for m in post.sent() if m["To"] == ADDR[side]
                        and "report for" in str(m["Subject"])) for side in (L, A)}
    assert "The Alliance deck: 23 cards." in first[A] and "Su Qin" in first[A]
    assert "The Alliance deck" not in first[L]
    post.new()
    post.send(ADDR[L], f"SIGNON g1 {L} {tokens[L]}\nHELP su-qin\nHELP no-such-card\n")
    text = whole(post.new()[-1])
    assert "Su Qin (蘇秦) [su-qin], Alliance deck: 1 copy, character card." in text
    assert "no game, card or rule called 'no-such-card'" in text


def test_resign_concedes_a_two_player_game(post: Post) -> None:
    """RESIGN in this two-player game concedes: the other side wins and both
    are told in their final reports; the resigned seat's token is revoked."""
    tokens = _start(post)
    post.new()
    post.send(ADDR[A], f"SIGNON g1 {A} {tokens[A]}\nRESIGN\n")
    table = post.judge.table("g1")
    assert table.outcome is not None and table.outcome["winners"] == [L]
    mails = post.new()
    ack = [whole(m) for m in mails if m["To"] == ADDR[A] and "Re:" in str(m["Subject"])]
    assert ack and "you have conceded g1" in ack[0]
    finals = {side: [whole(m) for m in mails if m["To"] == ADDR[side]
                     and "final report" in str(m["Subject"])] for side in (L, A)}
    assert finals[L] and "Alliance resigns; Lianheng wins the game." in finals[L][0]
    assert "The game is over: won by Lianheng" in finals[L][0]
    assert stored_game(post.judge.store, "g1")["status"] == "finished"
    lines = post.send(ADDR[A], f"SIGNON g1 {A} {tokens[A]}\nSTATUS\n")
    assert "auth-failure" in lines[0]


def _plan(state: dict[str, Any], side: str) -> tuple[str, str]:
    """Two plays of ``side`` face down, of two cards, on areas the other does
    not name, neither a battle; the second still fits after the first and a
    pass of the other side."""
    legal = [x for x in GAME.legal(state, side) if " FACEDOWN " in x and " ATTACK " not in x]
    other = A if side == L else L
    for first in legal:
        after, _ = GAME.act(state, side, GAME.parse(state, side, first), Rng(bytes(32), 0))
        if GAME.pending(after)[0].roles != (other,):
            continue
        after, _ = GAME.act(after, other, GAME.parse(after, other, "PASS"), Rng(bytes(32), 0))
        named = {w for w in first.split() if w in state["areas"]}
        for second in legal:
            words = second.split()
            mine = {w for w in words if w in state["areas"]}
            if words[1] == first.split()[1] or not mine or mine & named:
                continue
            try:
                GAME.parse(after, side, second)
            except RuleError:
                continue
            return first, second
    raise AssertionError("no two plays to plan")


@pytest.mark.parametrize("changed", [False, True])
def test_plays_written_ahead_run_until_an_area_they_name_changes(post: Post,
                                                                  changed: bool) -> None:
    """Action step: "The players take turns in alternation". A play written
    after the one asked for is a plan: taken at the writer's next action
    phase while the areas it names are as they were when it was written.
    When a card played has changed one of them (here: an army added in the
    stored state, as a reinforcement there does), the plan stops: the line
    is dropped, its writer is told why and asked. The request says so."""
    tokens = _start(post)
    state = post.judge.table("g1").state
    side = str(state["active"])
    other = A if side == L else L
    request = [whole(m) for m in post.new() if m["To"] == ADDR[side]][-1]
    assert "You may write your next plays after this one, a plan" in request
    first, second = _plan(state, side)
    post.send(ADDR[side], f"SIGNON g1 {side} {tokens[side]}\n{first}\n{second}\n")
    ack = [whole(m) for m in post.new() if m["To"] == ADDR[side]]
    assert any("queued as line 1" in t for t in ack), ack
    if changed:
        table = post.judge.table("g1")
        area = next(w for w in second.split() if w in table.state["areas"])
        stacks = table.state["areas"][area]["stacks"]
        force = next(iter(stacks), "qi")
        stacks.setdefault(force, {"ready": 0, "tired": 0, "generals": {}})["ready"] += 1
        post.judge.store.update_game("g1", table_json=table.dumps())
    post.send(ADDR[other], f"SIGNON g1 {other} {tokens[other]}\nPASS\n")
    mails = [whole(m) for m in post.new() if m["To"] == ADDR[side]]
    after = post.judge.table("g1").state
    if changed:
        assert any(f'Your queued line "{second}" was dropped: your plan stopped' in t
                   for t in mails), mails
        assert adj.decision_for(GAME, post.judge.table("g1"), side) is not None
        assert after["active"] == side
    else:
        assert not any("plan stopped" in t for t in mails)
        table = post.judge.table("g1")
        assert not table.queue.get(side)  # the second play was taken
        assert adj.decision_for(GAME, table, side) is None
        assert after["active"] == other or after["turn"] > state["turn"]

"""Conquest Tactics on the decision kernel (judge/game/flow.py, turns.py): the
combat's instant windows open above the action they answer, and a match
stored before the game ran on the kernel goes on by mail."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.support.maildir import open_post
from judge.game import adjudicator as adj
from judge.game import registry
from judge.game.engine import DecisionKind
from judge.game.flow import kernel_of
from judge.store import set_kdf_cost
from judge_games.conquest_tactics import GAME
from judge_games.conquest_tactics.table import RULES
from tests.conquest_tactics.scenario import act, put, table
from tests.conquest_tactics.test_mail import ADDR, FORCES, NAME, SEED, N, S, _set_up, _text
from tests.conquest_tactics.test_mail_defects import _start, _until
from tests.core.conftest import Post


@pytest.fixture(autouse=True)
def _fast_kdf() -> Iterator[None]:
    set_kdf_cost(2**8)
    yield


@pytest.fixture
def post(tmp_path: Path) -> Iterator[Post]:
    yield from open_post(tmp_path, SEED)


def test_the_game_names_its_kernel_and_every_ask_has_its_answer() -> None:
    """The judge and the contract suite find the kernel by the game's
    ``kernel``; each kind of decision the turn asks is answered by a handler
    of the same rules (or resolved together: deck lists, starting forces)."""
    assert kernel_of(registry.get("conquest_tactics")) is RULES
    asked = {"deploy", "up", "mobilize", "play", "follow", "window"}
    assert asked <= set(RULES.answers)
    assert {"decks", "forces", "deploy", "turn", "up", "mobilize", "play", "follow", "window",
            "resolve", "halt"} <= set(RULES.steps)


def test_an_attack_waits_under_both_of_its_windows() -> None:
    """Combat: "1.) Attacker: Declare Action & Pay Tactical Points 2.)
    Defender: Declare an instant effect ... 6.) Attacker: Declare incoming
    Counterattack Damage (if applicable) 7.) Defender: Declare an instant
    effect": the Play decision that declared the attack waits, suspended and
    asking nobody, while the window of step 2 and then that of step 7 (the
    attacker's, facing the Counterattack) are asked one level above it; once
    the Counterattack is dealt it comes off the stack and the Play phase goes
    on at the outer level."""
    s = table(tp=(5, 5))
    put(s, "South", "footsoldiers", "C3")
    put(s, "North", "malice-ghoul", "C4")
    s, _ = act(s, "South", "ATTACK C3 C4")
    play, defend = s["asks"]
    assert (play["kind"], play["roles"], play["open"]) == ("play", [], False)
    assert (defend["kind"], defend["roles"], defend["step"]) == ("window", ["North"], "defend")
    [d] = GAME.pending(s)
    assert (d.kind, d.roles, d.depth, d.window) == (DecisionKind.RESPONSE, ("North",), 1,
                                                    "instant")
    assert RULES.open_depth(s) == 1 and RULES.ask_for(s, "South") is None
    s, _ = act(s, "North", "PASS")
    assert [a["kind"] for a in s["asks"]] == ["play", "window"]
    assert s["asks"][1]["roles"] == ["South"] and s["asks"][1]["step"] == "counter"
    assert [(d.roles, d.depth) for d in GAME.pending(s)] == [(("South",), 1)]
    s, events = act(s, "South", "PASS")
    assert any("counterattack" in e.text for e in events)
    [play] = s["asks"]
    assert play["kind"] == "play" and play["open"] and play["serial"] == s["serial"]
    assert [d.depth for d in GAME.pending(s)] == [0] and s["todo"] == []


def test_a_move_is_followed_by_its_troop_at_the_outer_level() -> None:
    """Play: a troop that moved "may" then act: the move answers the Play
    decision, and the troop's own decision follows at the same level."""
    s = table(tp=(5, 5))
    put(s, "South", "footsoldiers", "C2")
    put(s, "North", "malice-ghoul", "C4")  # in reach after the move
    s, _ = act(s, "South", "MOVE C2 C3")
    [follow] = s["asks"]
    assert follow["kind"] == "follow" and follow["roles"] == ["South"]
    assert [d.depth for d in GAME.pending(s)] == [0]


def _stored_as_before(post: Post) -> None:
    """The stored match as a judge of before the port stored it: the same
    state without the kernel's frames and asks."""
    table = post.judge.table(NAME)
    for k in ("todo", "asks"):
        del table.state[k]
    post.judge.store.update_game(NAME, table_json=table.dumps())
    assert "asks" not in json.loads(table.dumps())["state"]


def test_a_match_stored_before_the_port_goes_on_by_mail(post: Post) -> None:
    """A match stored without frames (an instant window open, the action
    under it) names the same decision, takes the window's answer by mail and
    goes on as the kernel runs it."""
    players, _ = _start(post, "south=humans north=malice")
    for role in (S, N):  # every window asked by hand: none is answered by a standing answer
        players.send(role, ["POLICY instant ASK"])
    _set_up(players, FORCES)
    _until(players, lambda s: s["stage"] == "window")
    before = post.judge.table(NAME)
    phase = adj.phase_key(GAME, before)
    owed = sorted(adj.waiting_on(GAME, before))
    depth = [d.depth for d in adj.open_decisions(GAME, before)]
    _stored_as_before(post)
    old = post.judge.table(NAME)
    assert "asks" not in old.state
    assert adj.phase_key(GAME, old) == phase and sorted(adj.waiting_on(GAME, old)) == owed
    assert [d.depth for d in adj.open_decisions(GAME, old)] == depth == [1]
    # Before its next mail too, the log rebuilds the stored match as the game reads it.
    post.judge.replay_check(NAME, full=True)
    role = owed[0]
    log, mails = players.send(role, ["PASS"])
    assert not any("failed" in x for x in log), log
    after = post.judge.table(NAME)
    assert "asks" in after.state and adj.phase_key(GAME, after) != phase
    replies = [_text(m) for m in mails if m["To"] == ADDR[role]]
    assert replies and not any("nothing is asked of you" in t for t in replies), replies
    assert {S, N} >= set(adj.waiting_on(GAME, after))
    # The frames and asks the old state was read as are those the kernel
    # itself leaves: the log, replayed from the seed, rebuilds the same table.
    post.judge.replay_check(NAME, full=True)

"""Saved games keep playing: states written by earlier versions of the game
(tests/conflict_of_alliances/fixtures/pre_kernel_states.json, one or two for
every kind of decision: bids, action phases, a card's next step, both
response windows, losses, going on after a battle, choosing a card) load and
go on exactly as they did then -- the same events for the same readers, the
same pending decisions, the same views and legal lines of every seat. And
upgraded, such a state is the very state the game now reaches by the same
moves from the start, so that the judge's replay check (which rebuilds a
game from its log and compares) holds for a game saved before."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.support.maildir import open_post, whole
from judge.game.engine import Decision
from judge.game.rng import Rng
from judge.store import set_kdf_cost
from judge_games.conflict_of_alliances import GAME
from judge_games.conflict_of_alliances.kernel import PLAN_NOTE
from judge_games.conflict_of_alliances.turns import upgrade
from tests.conflict_of_alliances.test_mail import ADDR, A, L, _start
from tests.core.conftest import Post

FIXTURE = Path(__file__).parent / "fixtures" / "pre_kernel_states.json"
CASES: list[dict[str, Any]] = json.loads(FIXTURE.read_text())["cases"]


def _decision(d: Decision) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(
        {k: list(v) if isinstance(v, tuple) else v for k, v in vars(d).items()}, default=str))
    # The action request's word on plays written ahead came after the
    # kernel: the decision is the same.
    out["prompt"] = out["prompt"].replace(PLAN_NOTE, "")
    return out


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def _play(state: dict[str, Any], base: bytes,
          move: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    rng = Rng(base, move["counter"])
    if "resolve" in move:
        orders = {r: [GAME.parse(state, r, line) for line in lines]
                  for r, lines in move["resolve"].items()}
        return GAME.resolve(state, orders, rng)
    return GAME.act(state, move["role"], GAME.parse(state, move["role"], move["line"]), rng)


def _snapshot(state: dict[str, Any]) -> dict[str, Any]:
    views = {str(r): GAME.view(state, r) for r in [None, *GAME.roles(state)]}
    legal = {r: GAME.legal(state, r) for r in GAME.roles(state)}
    return {"pending": [_decision(d) for d in GAME.pending(state)],
            "views": _digest(views), "legal": _digest(legal)}


def test_every_kind_of_decision_has_a_saved_state() -> None:
    assert {c["stage"] for c in CASES} == {
        "bid", "action", "step:military", "step:reinforce", "window:before-combat",
        "window:character-card", "losses", "continue", "choose:take", "choose:keep"}


@pytest.mark.parametrize("case", CASES, ids=[f"{i}-{c['stage']}" for i, c in enumerate(CASES)])
def test_a_saved_state_plays_on_as_it_did(case: dict[str, Any]) -> None:
    state = case["state"]
    base = bytes.fromhex(case["base"])
    assert GAME.view(state, None) == case["view"]
    assert _snapshot(state) == case["before"]
    # The judge reads the open decision from the kernel (judge/game/adjudicator.py).
    kernel = GAME.kernel
    assert kernel is not None  # the game is played on the kernel
    waiting = kernel.waiting(state)
    assert [(depth, tuple(a["roles"])) for depth, a in waiting] == [
        (d.depth, d.roles) for d in GAME.pending(state)]
    assert kernel.open_depth(state) == 0 and "asks" not in state
    for n, move in enumerate(case["moves"]):
        state, events = _play(state, base, move)
        assert [e.to_json() for e in events] == move["events"], f"move {n}"
        assert _snapshot(state) == move["after"], f"move {n}"


PLAYED = [c for c in CASES if c["path"] is not None]
"""The saved states reached by a recorded playthrough from the start."""


@pytest.mark.parametrize("case", PLAYED, ids=[f"{i}-{c['stage']}" for i, c in enumerate(PLAYED)])
def test_an_upgraded_state_is_the_state_the_same_moves_reach_now(case: dict[str, Any]) -> None:
    base = bytes.fromhex(case["base"])
    state = GAME.setup({o.name: o.default for o in GAME.options} | case["options"], Rng(base))
    for move in case["path"]:
        state, _ = _play(state, base, move)
    upgraded = upgrade(case["state"])
    assert json.dumps(upgraded, sort_keys=True) == json.dumps(state, sort_keys=True)


@pytest.fixture(autouse=True)
def _fast_kdf() -> Iterator[None]:
    set_kdf_cost(2**8)
    yield


@pytest.fixture
def post(tmp_path: Path) -> Iterator[Post]:
    yield from open_post(tmp_path)


def test_a_game_saved_before_plays_on_by_mail(post: Post) -> None:
    """A game stored in the earlier shape (here at an action phase: no asks,
    no serial) takes a player's mail as it did, the other player is asked
    next, and the log still rebuilds the stored game."""
    tokens = _start(post, "scenario=five-kingdoms")
    raw = post.judge.table("g1").to_json()
    saved = {k: v for k, v in raw["state"].items() if k not in ("asks", "serial")}
    assert set(saved) == set(CASES[0]["state"])  # the shape of a state saved then
    raw["state"] = saved
    post.judge.store.update_game("g1", table_json=json.dumps(raw))
    active = saved["active"]
    other = A if active == L else L
    # Before its next mail too, the log rebuilds the stored game as the game reads it.
    assert post.judge.replay_check("g1").endswith("rebuild the stored game")
    post.new()
    post.send(ADDR[active], f"SIGNON g1 {active} {tokens[active]}\nPASS\n")
    after = post.judge.table("g1").state
    assert after["asks"] and after["active"] == other and after["passes"] == 1
    theirs = [whole(m) for m in post.new() if m["To"] == ADDR[other]]
    assert any(f"{active} passes." in t for t in theirs)
    assert any("You owe: an action" in t for t in theirs)
    assert post.judge.replay_check("g1").endswith("rebuild the stored game")

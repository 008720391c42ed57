"""Seeded random playthroughs of both scenarios to the end, checked with the
contract suite's properties (tests/contract), and a whole game by mail whose
every die roll and shuffle `judge verify` recomputes from the revealed seed."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from bench.support.maildir import open_post
from judge.cli import main
from judge.store import set_kdf_cost
from judge_games.conflict_of_alliances import GAME
from tests.contract.test_contract import PROPERTIES
from tests.core.conftest import Post
from tests.core.helpers import GM_ADDR, stored_game, token_in
from tests.support.driver import play

#: The fast tier plays the first; the rest are whole games, marked slow.
CASES = [
    ("five-kingdoms", "basic", 11),
    pytest.param("qin-dominates", "basic", 12, marks=pytest.mark.slow),
    pytest.param("qin-dominates", "basic", 13, marks=pytest.mark.slow),
    pytest.param("five-kingdoms", "bidding", 14, marks=pytest.mark.slow),
    pytest.param("qin-dominates", "match", 15, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("scenario", "victory", "seed"), CASES)
def test_random_playthrough_to_the_end(scenario: str, victory: str, seed: int) -> None:
    options = {o.name: o.default for o in GAME.options}
    options.update(scenario=scenario, victory=victory)
    p = play(GAME, seed, options=options)
    assert p.outcome is not None, f"no end after {len(p.records)} steps"
    for check in PROPERTIES:
        check(GAME, p)
    final = p.final
    assert final["stage"] == "over"
    if victory != "match":
        assert final["turn"] == final["turns"] or "qin" in final["eliminated"]
    else:
        assert final["game_no"] == 2 and len(final["games"]) == 2
    fought = [e for s in p.steps for e in s.events if e.text.startswith("Dice:")]
    assert fought, "no battle was fought"


@pytest.fixture
def post(tmp_path: Path) -> Iterator[Post]:
    set_kdf_cost(2**8)
    yield from open_post(tmp_path)


@pytest.mark.slow
def test_a_whole_game_by_mail_verifies(post: Post) -> None:
    """The judge plays a Five Kingdoms game by mail to its end; `judge verify`
    then recomputes every draw (the deck shuffles and the combat dice) from the
    revealed seed and replays the log."""
    post.send(GM_ADDR, "CREATE g1 conflict_of_alliances scenario=five-kingdoms\n")
    gm = token_in(post, GM_ADDR)
    addr = {"Lianheng": "zhang.yi@players.example", "Alliance": "su.qin@players.example"}
    tokens = {}
    for side, a in addr.items():
        post.send(a, f"JOIN g1 {side}\n")
        tokens[side] = token_in(post, a)
    post.send(GM_ADDR, f"SIGNON g1 GM {gm}\nSTART\n")
    chooser = random.Random(3)
    for _ in range(3000):
        if stored_game(post.judge.store, "g1")["status"] == "finished":
            break
        state = post.judge.table("g1").state
        decision = GAME.pending(state)[0]
        for role in decision.roles:
            lines = GAME.legal(state, role)
            attacks = [x for x in lines if "MILITARY" in x]
            pool = attacks if attacks and chooser.random() < 0.7 else lines
            post.clock.advance(minutes=11)
            post.send(addr[role], f"SIGNON g1 {role} {tokens[role]}\n{chooser.choice(pool)}\n")
    assert stored_game(post.judge.store, "g1")["status"] == "finished"
    draws = [d for r in post.judge.store.actions("g1") for d in json.loads(r["draws"])]
    assert any(d[0] == "die:attacker" for d in draws) and any(
        d[0].startswith("shuffle:") for d in draws)
    out = CliRunner().invoke(main, ["--home", str(post.home), "verify", "g1"],
                             catch_exceptions=False)
    assert out.exit_code == 0, out.output
    assert "seed matches its commitment" in out.output and "draws recomputed" in out.output

"""Warring States through the judge's contract: the opening, a year of play
with the new orders, views, reports, and a short game by mail."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import jsonschema
from click.testing import CliRunner

from judge import reports
from judge.cli import main
from judge.demo import run_demo
from judge.game import registry
from judge.game.engine import DecisionKind
from judge.game.spec import Game
from judge.service import Judge
from judge_games.warring_states import GAME
from tests.core.conftest import Clock
from tests.core.helpers import stored_game

from .helpers import play, rng, state

ROOT = Path(__file__).resolve().parents[2]
VIEW_SCHEMA = json.loads((ROOT / "schemas/diplomacy-view.schema.json").read_text())


def test_registered_with_aliases() -> None:
    assert registry.get("warring_states") is GAME
    assert registry.get("ws") is GAME
    assert isinstance(GAME, Game)
    verbs = " ".join(v.syntax + " " + v.example for v in GAME.verbs)
    assert "convert" in verbs and "F WYR - MYR - LYR" in verbs
    assert " C " not in verbs and "Build F" not in verbs  # no convoys, no fleet builds


def test_setup_is_the_rulebook_opening() -> None:
    """Rulebook: three armies per power on its home centres; spring 350."""
    st = GAME.setup({}, rng())
    assert st["phase"] == "S350M"
    assert sorted(st["units"]["Qin"]) == ["A Nan", "A Xia", "A Yon"]
    assert sorted(st["centers"]["Chu"]) == ["Cha", "Sho", "Yin"]
    assert json.loads(json.dumps(st)) == st
    [decision] = GAME.pending(st)
    assert decision.kind is DecisionKind.ORDERS and len(decision.roles) == 7
    assert "convert" in decision.prompt and "convoy" not in decision.prompt


def test_a_year_with_conversion_river_moves_and_a_build() -> None:
    """Spring: Han converts the army in Luoyang; Wei converts Zhongmou.
    Fall: Han's new fleet makes a rapid move down the Yellow River while
    Han's army takes Chen and Wei's fleet turns back into an army to take
    the Yangzhai it left; Wei's winter build is an army in Zhongmou."""
    st = GAME.setup({}, rng())
    st, _ = play(st, Han=["A Luo convert", "A Yaz - Che"], Wei=["A Zmo convert"])
    assert st["phase"] == "F350M"
    assert "F Luo" in st["units"]["Han"] and "F Zmo" in st["units"]["Wei"]
    legal = GAME.legal(st, "Han")
    assert "F Luo - MYR - WYR - UYR" in legal and "F Luo - Yiy" in legal
    st, events = play(st, Han=["F Luo - MYR - WYR"], Wei=["F Zmo - Yaz"])
    texts = [e.text for e in events]
    assert "Han: F Luo - MYR - WYR (ok)" in texts
    assert "Wei: F Zmo - Yaz (ok)" in texts
    assert "F WYR" in st["units"]["Han"]
    assert "A Yaz" in st["units"]["Wei"]  # the fleet turned back into an army
    assert st["phase"] == "W350A"
    assert "Yaz" in st["centers"]["Wei"] and "Che" in st["centers"]["Han"]
    [decision] = GAME.pending(st)
    assert decision.roles == ("Wei",)  # Han: 3 centres (Yangzhai lost, Chen won), 3 units
    st, _ = play(st, Wei=["Build Zmo"])
    assert "A Zmo" in st["units"]["Wei"]
    assert st["phase"] == "S351M"


def test_views_validate_and_reports_render() -> None:
    st = GAME.setup({}, rng())
    st, events = play(st, Han=["A Luo convert"], Qin=["A Xia - Hex"], Wei=["A Wei - Hex"])
    for role in [*GAME.roles(st), None]:
        jsonschema.validate(GAME.view(st, role), VIEW_SCHEMA)
    text = reports.game_report(GAME, GAME.view(st, "Han"), events, "Han", "g1")
    assert "SPRING 350 MOVEMENT RESULTS" in text
    assert "A Luo convert" in text
    assert "A Xia - Hex  [bounce]" in text
    assert "F Luo" in text  # the unit list shows the new fleet
    assert "NEXT PHASE: Fall 350 movement" in text


def test_a_short_game_by_mail() -> None:
    """Playable by mail end to end: the demo creates a game by mail, seats
    the seven powers, and plays phases of random legal orders sent by mail."""
    out: list[str] = []
    run_demo("warring_states", 3, False, out.append, everything=True)
    mail = "\n".join(out)
    assert "CREATE demo warring_states" in mail
    for power in ("Qin", "Chu", "Zhao", "Wei", "Han", "Yan", "Qi"):
        assert f"JOIN demo {power}" in mail
    assert "SPRING 350 MOVEMENT RESULTS" in mail
    assert "FALL 350 MOVEMENT RESULTS" in mail


def test_state_from_helpers_is_a_game_state() -> None:
    st = state({"Han": ["F MYR"]})
    assert GAME.legal(st, "Han")[0] == "F MYR H"


def test_judge_game_create_and_play_to_the_year_limit(tmp_path: Path) -> None:
    """``judge game create ... --game warring_states``: seat the seven powers,
    start, read a report, then let every deadline pass (units hold) until the
    year limit ends the game in a draw; the seed then verifies."""
    home = tmp_path / "league"
    CliRunner().invoke(main, ["init", "--home", str(home)], catch_exceptions=False)

    def run(*args: str) -> str:
        result = CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    out = run("game", "create", "g", "--game", "warring_states", "--option", "max_year=350")
    assert "GM token:" in out
    for power in ("Qin", "Chu", "Zhao", "Wei", "Han", "Yan", "Qi"):
        run("game", "seat", "g", f"{power.lower()}@x.example", "--role", power)
    assert "started" in run("game", "start", "g")
    shown = run("game", "show", "g", "--as", "Han")
    assert "report for Han" in shown and "A Luo" in shown
    clock = Clock(datetime.now(UTC))  # the game's deadlines were set by the real clock
    for _ in range(50):
        judge = Judge.open(home, now=clock)
        try:
            if stored_game(judge.store, "g")["status"] == "finished":
                break
            clock.advance(hours=80)
            judge.cycle()
        finally:
            judge.close()
    view = json.loads(run("game", "show", "g", "--json"))
    assert view["ended"]["draw"] and len(view["ended"]["winners"]) == 7
    assert "seed matches its commitment" in run("verify", "g")


def test_random_playthrough_uses_every_new_order() -> None:
    """A seeded game of random legal orders runs through movement, retreat
    and adjustment phases to its year limit; along the way armies convert,
    fleets make rapid river moves and turn back into armies, and the state
    stays JSON with views valid."""
    st = GAME.setup({"max_year": 357}, rng())
    r = rng()
    kinds: set[str] = set()
    used = {"convert": 0, "rapid": 0, "turned back": 0}
    for _ in range(60):
        if GAME.outcome(st):
            break
        [decision] = GAME.pending(st)
        kinds.add(decision.phase[-1])
        acts = {}
        for role in decision.roles:
            lines = GAME.legal(st, role)
            acts[role] = [GAME.parse(st, role, r.choice(lines, "pick")) for _ in range(6)]
        st, events = GAME.resolve(st, acts, r)
        for e in events:
            if e.data.get("kind") != "result" or e.data.get("results"):
                continue
            order = str(e.data.get("order") or "")
            if order.endswith(" convert"):
                used["convert"] += 1
            elif order.startswith("F ") and order.count(" - ") >= 2:
                used["rapid"] += 1
            elif order.startswith("F ") and " - " in order:
                dest = order.rsplit(" - ", 1)[1]
                if f"A {dest}" in {u for units in st["units"].values() for u in units}:
                    used["turned back"] += 1
        assert json.loads(json.dumps(st)) == st
        jsonschema.validate(GAME.view(st, None), VIEW_SCHEMA)
    out = GAME.outcome(st)
    assert out is not None and out.draw
    assert {"M", "R", "A"} <= kinds
    assert all(n > 0 for n in used.values()), used

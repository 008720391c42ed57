"""The thin CLI over the library: init, game create/seat/start/list/show,
replay, verify (and, with a finished game, the seed check)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from judge.cli import main
from judge.service import Judge
from tests.core.conftest import Clock


def run(home: Path, *args: str, ok: bool = True) -> str:
    result = CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    if ok:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code != 0, result.output
    return result.output


def _finish(home: Path, clock: Clock) -> None:
    """Let deadlines pass until the game ends, with every seat's default."""
    for _ in range(200):
        judge = Judge.open(home, now=clock)
        try:
            if judge.store.game("g")["status"] == "finished":  # type: ignore[index]
                return
            clock.advance(hours=80)
            judge.cycle()
        finally:
            judge.close()
    raise AssertionError("the game did not end")


def test_cli_round_trip(tmp_path: Path, clock: Clock) -> None:
    home = tmp_path / "league"
    out = CliRunner().invoke(main, ["init", "--home", str(home)]).output
    assert "judge.toml" in out and (home / "judge.db").exists()
    out = run(home, "game", "create", "g", "--game", "sealed_bids", "--option", "rounds=2",
              "--option", "players=2", "--gm", "gm@x.example")
    assert "GM token:" in out
    assert "no option" in run(home, "game", "create", "h", "--game", "sealed_bids",
                              "--option", "colour=red", ok=False)
    run(home, "game", "seat", "g", "n@x.example", "--role", "North")
    run(home, "game", "seat", "g", "e@x.example")
    assert "started" in run(home, "game", "start", "g")
    assert re.search(r"^g\tsealed_bids\tactive\t", run(home, "game", "list"), re.M)
    shown = run(home, "game", "show", "g", "--as", "north")
    assert "report for North" in shown
    view = json.loads(run(home, "game", "show", "g", "--as", "North", "--json"))
    assert view["role"] == "North" and "hand" in view
    observer = json.loads(run(home, "game", "show", "g", "--json"))
    assert "hand" not in observer
    assert "has no role" in run(home, "game", "show", "g", "--as", "Pope", ok=False)
    assert "rebuild the stored game" in run(home, "replay", "g")
    assert "secret until" in run(home, "verify", "g", ok=False)

    _finish(home, clock)
    out = run(home, "verify", "g")
    assert "seed matches its commitment" in out and "draws recomputed" in out


def test_verify_and_replay_fail_loudly_on_tampering(tmp_path: Path, clock: Clock) -> None:
    home = tmp_path / "league"
    CliRunner().invoke(main, ["init", "--home", str(home)])
    run(home, "game", "create", "g", "--game", "sealed_bids", "--option", "rounds=1",
        "--option", "players=2")
    run(home, "game", "seat", "g", "n@x.example")
    run(home, "game", "seat", "g", "e@x.example")
    run(home, "game", "start", "g")
    _finish(home, clock)
    judge = Judge.open(home, now=clock)
    row = next(r for r in judge.store.actions("g") if json.loads(r["draws"]))
    draws = json.loads(row["draws"])
    draws[0][3] = (draws[0][3] + 1) % draws[0][2]
    judge.store.db.execute("update actions set draws = ? where seq = ?",
                           [json.dumps(draws), row["seq"]])
    judge.store.db.conn.commit()
    judge.close()
    assert "draw 0" in run(home, "verify", "g", ok=False)


def test_replay_detects_a_changed_state(tmp_path: Path) -> None:
    home = tmp_path / "league"
    CliRunner().invoke(main, ["init", "--home", str(home)])
    run(home, "game", "create", "g", "--game", "sealed_bids", "--option", "players=2")
    run(home, "game", "seat", "g", "n@x.example")
    run(home, "game", "seat", "g", "e@x.example")
    run(home, "game", "start", "g")
    judge = Judge.open(home)
    table = judge.table("g")
    table.state["scores"]["North"] = 99
    judge.store.update_game("g", table_json=table.dumps())
    judge.store.db.conn.commit()
    judge.close()
    assert "differs in state" in run(home, "replay", "g", ok=False)


def _all_commands() -> list[list[str]]:
    """Every command and subcommand of `judge`, as argument lists."""
    out: list[list[str]] = []

    def walk(group: click.Group, prefix: list[str]) -> None:
        for name, cmd in group.commands.items():
            out.append([*prefix, name])
            if isinstance(cmd, click.Group):
                walk(cmd, [*prefix, name])

    walk(main, [])
    return out


@pytest.mark.parametrize("command", _all_commands(), ids=" ".join)
def test_every_command_has_help_with_an_example(command: list[str]) -> None:
    out = CliRunner().invoke(main, [*command, "--help"]).output
    assert "Example:" in out


def test_adjudicate_reports_bad_lines(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["adjudicate"], input='not json\n{"game": "nope"}\n')
    lines = [json.loads(x) for x in result.output.splitlines()]
    assert result.exit_code == 1
    assert lines[0]["error"].startswith("line 1:")
    assert "no game called 'nope'" in lines[1]["error"]

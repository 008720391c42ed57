"""The thin CLI over the library: init, game create/seat/start/list/show,
replay, verify (and, with a finished game, the seed check), game map."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from judge.cli import main
from judge.service import Judge
from tests.core.conftest import Clock, Post
from tests.core.helpers import start_classic, stored_game


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
            if stored_game(judge.store, "g")["status"] == "finished":
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
    assert "the GM's token was mailed to gm@x.example" in out
    assert "no option" in run(home, "game", "create", "h", "--game", "sealed_bids",
                              "--option", "colour=red", ok=False)
    run(home, "game", "seat", "g", "n@x.example", "--role", "North")
    run(home, "game", "seat", "g", "e@x.example")
    assert "started" in run(home, "game", "start", "g")
    assert re.search(r"^g\s+sealed_bids\s+active\s", run(home, "game", "list"), re.M)
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


# --------------------------------------------------------------------------- judge game map


def _code(home: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--home", str(home), *args])
    return result.exit_code, result.output


def _cycles(home: Path, clock: Clock, n: int) -> None:
    """Let ``n`` deadlines pass (every seat's default), from now (the CLI
    set the game's clock running by the wall clock)."""
    from datetime import UTC, datetime

    clock.now = max(clock.now, datetime.now(UTC))
    for _ in range(n):
        clock.advance(hours=80)
        judge = Judge.open(home, now=clock)
        try:
            judge.cycle()
        finally:
            judge.close()


def test_game_map_draws_a_phase_as_png_or_svg(tmp_path: Path, clock: Clock) -> None:
    from xml.etree import ElementTree

    from PIL import Image

    home = tmp_path / "league"
    CliRunner().invoke(main, ["init", "--home", str(home)])
    run(home, "game", "create", "g", "--game", "classic")
    for power in ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"):
        run(home, "game", "seat", "g", f"{power.lower()}@x.example", "--role", power)
    run(home, "game", "start", "g")
    _cycles(home, clock, 1)  # Spring 1901 is played (every unit holds)
    phases = run(home, "game", "list")
    assert not re.search(r"\sS1901M\s", phases), phases

    out = run(home, "game", "map", "g", "-o", str(tmp_path / "now.png"))
    assert "as observers see it" in out
    with Image.open(tmp_path / "now.png") as im:
        assert im.format == "PNG" and im.size[0] > 1000
    out = run(home, "game", "map", "g", "--phase", "s1901m", "--as", "france",
              "-o", str(tmp_path / "s1901m.svg"))
    assert "g S1901M, as France sees it" in out
    svg = (tmp_path / "s1901m.svg").read_bytes()
    assert ElementTree.fromstring(svg).tag == "{http://www.w3.org/2000/svg}svg"
    assert b'class="region Par"' in svg
    set_up = run(home, "game", "map", "g", "--phase", "set-up", "-o", str(tmp_path / "0.svg"))
    assert "set-up" in set_up

    for args, words in [
        (["nope", "-o", "x.png"], "no game called 'nope'"),
        (["g", "--phase", "W1999A", "-o", "x.png"],
         "has no phase 'W1999A'; its phases: set-up, S1901M"),
        (["g", "--as", "Pope", "-o", "x.png"], "has no role 'Pope'; roles: Austria"),
        (["g", "-o", "x.gif"], "must end in .png or .svg"),
    ]:
        code, output = _code(home, "game", "map", *args)
        assert code == 2, output
        assert words in " ".join(output.split()), output
    assert not (Path.cwd() / "x.png").exists()


def test_game_map_as_a_seat_shows_that_seats_hidden_facts_to_the_operator(
        tmp_path: Path, clock: Clock) -> None:
    """The operator's command may draw any seat's view (its help says so):
    Kingdom Wars' hidden generals appear in their own seat's picture only,
    never in the observers' nor in another seat's."""
    home = tmp_path / "league"
    CliRunner().invoke(main, ["init", "--home", str(home)])
    run(home, "game", "create", "k", "--game", "kingdom_wars", "--option", "seats=4")
    for i in range(4):
        run(home, "game", "seat", "k", f"p{i}@x.example")
    run(home, "game", "start", "k")
    _cycles(home, clock, 2)  # the generals are chosen by default
    assert "operator" in run(home, "game", "map", "--help")

    def hidden(role: str | None) -> set[str]:
        path = tmp_path / f"{role}.svg"
        run(home, "game", "map", "k", *(["--as", role] if role else []), "-o", str(path))
        return set(re.findall(r">([^<]+) \(hidden\)</text>", path.read_text()))

    assert hidden(None) == set()
    seats = {r: hidden(r) for r in "ABCD"}
    for r, names in seats.items():
        assert len(names) == 2, (r, names)
        assert all(not (names & other) for o, other in seats.items() if o != r)


def test_game_show_after_a_seat_ordered_never_says_it_still_owes(post: Post) -> None:
    """`judge game show --as France` after France has ordered: the report
    names who orders in the phase, and the one line that speaks of owing
    ("Still owed ... by") leaves France out; no line says France's orders
    are still due."""
    tokens = start_classic(post, "dip")
    post.send("france@players.example",
              f"SIGNON dip France {tokens['France']}\nORDERS\nA Par - Bur\nEND\n")
    post.judge.close()
    shown = run(post.home, "game", "show", "dip", "--as", "France")
    assert "On file for France, S1901M: A Par - Bur" in shown
    assert "You owe" not in shown
    [owed] = [ln for ln in shown.splitlines() if "owed" in ln.lower() or "due" in ln.lower()]
    assert owed == ("Still owed for S1901M by: Austria, England, Germany, Italy, Russia, "
                    "Turkey")
    assert ("Orders this phase from: Austria, England, France, Germany, Italy, Russia, "
            "Turkey.") in shown

"""``judge demo``: the newcomer's first ten minutes. Every game's demo plays
legal orders written as a player writes them (nothing it sends is refused),
and its default account is short: one seat's mails in full, the others in a
line each."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from judge.cli import main
from judge.demo import run_demo

GAMES = ("classic", "warring_states", "three_kingdoms", "conflict_of_alliances",
         "kingdom_wars", "conquest_tactics")


def _run(kind: str, everything: bool) -> str:
    out: list[str] = []
    run_demo(kind, 6, False, out.append, everything=everything)
    return "\n".join(out)


@pytest.mark.parametrize("kind", [  # Warring States' demo plays classic's code: CI runs it
    pytest.param(k, marks=pytest.mark.slow) if k == "warring_states" else k for k in GAMES])
def test_no_line_the_demo_sends_is_refused(kind: str) -> None:
    text = _run(kind, everything=True)
    replies = text.split("\n<<< judge to ")[1:]
    assert replies, "the judge sent nothing"
    for reply in replies:
        assert "not accepted" not in reply, reply
        assert "were not accepted" not in reply and "Ignored:" not in reply, reply
        assert "was refused" not in reply, reply
    assert "log entries rebuild the stored game" in text


def test_classic_builds_as_a_player_writes_them() -> None:
    """One ORDERS block with the builds the power may make, and no Waive
    after a build that already uses the allowance (Russia builds 1 in
    W1901A in the demo's game: the line the issue's demo was refused)."""
    text = _run("classic", everything=True)
    blocks = re.findall(r">>> mail from \S+: W1901A orders\n(.*?)\n\[judge\]", text, re.S)
    assert blocks
    for block in blocks:
        lines = block.splitlines()
        assert lines[1] == "ORDERS" and lines[-1] == "END"
        orders = lines[2:-1]
        assert orders and orders[0].startswith("Build ")  # the builds first
        reply = text.split(block, 1)[1].split("\n>>> ", 1)[0]
        assert "Every line was accepted." in reply
    assert "W1902A" in text  # six phases were played, none held up by a refused line
    # sensible as well as legal: a support names a move the power ordered
    assert " S " in text and "[void]" not in text


def test_the_default_account_is_short_and_follows_one_seat() -> None:
    short = _run("classic", everything=False)
    full = _run("classic", everything=True)
    assert len(short.splitlines()) * 4 < len(full.splitlines())
    assert "Austria's mails in full" in short
    # Austria's report in full, England's in one line
    assert "report for Austria: S1901M - your decision\ndemo: Diplomacy" in short
    assert re.search(r"<<< judge to england@players.example: \[demo\] report for England: "
                     r"S1901M - your decision \(\d+ lines, 2 attached\)", short)
    assert "[judge]" not in short and "[judge]" in full


def test_diplomacy_first_report_speaks_of_no_dice() -> None:
    """Classic Diplomacy makes no random draw: its reports speak of no seed
    (a game that draws tells of its seed), and a report opens with the phase
    in words, its short name after."""
    text = _run("classic", everything=False)
    first = text.split("report for Austria: S1901M")[1].split("<<<")[0]
    assert first.splitlines()[1:3] == ["demo: Diplomacy, report for Austria",
                                       "Phase: Spring 1901 movement (S1901M)"]
    assert "seed" not in first and "random" not in first
    assert "dice" not in first.lower()


@pytest.mark.parametrize("kind", ["three_kingdoms", "conquest_tactics"])
def test_a_game_that_draws_tells_of_its_seed(kind: str) -> None:
    text = _run(kind, everything=False)
    first = text.split(" - your decision\n", 1)[1].split("<<<")[0]
    assert first.splitlines()[1].startswith("Phase: set-up")
    assert "Every random draw of this game comes from a secret seed" in first


def test_the_demo_ends_with_what_to_do_next() -> None:
    text = _run("conquest_tactics", everything=False)
    ending = text.split("log entries rebuild the stored game", 1)[1]
    assert "=== what next" in ending
    assert "judge demo --keep" in ending and "mail/out/new" in ending
    assert "judge init --home ~/judge" in ending
    assert "game create mygame --game conquest_tactics" in ending
    assert "judge --home ~/judge serve" in ending


def test_demo_help_lists_the_games_and_the_default_phases() -> None:
    out = CliRunner().invoke(main, ["demo", "--help"]).output
    for kind in GAMES:
        assert kind in out
    assert "[default: 6]" in out and "[default: classic]" in out and "--all" in out

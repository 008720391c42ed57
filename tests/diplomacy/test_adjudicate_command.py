"""``judge adjudicate`` as a command: it starts with only what adjudication
needs (no mail stack, store, templates or schema library), and it reads
what other tools write."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from judge import cli
from judge.game import league
from judge.game.engine import InvalidLine
from judge_games.classic import RULES
from judge_games.diplomacy.orders import MOVEMENT, read_order

ROOT = Path(__file__).resolve().parents[2]

#: Modules (and packages) the adjudicate command must never load.
MAIL_STACK = (
    "email",
    "smtplib",
    "imaplib",
    "imapclient",
    "aiosmtplib",
    "jinja2",
    "jsonschema",
    "sqlite3",
    "sqlite_utils",
    "openskill",
    "judge.mail.mailin",
    "judge.mail.mailout",
    "judge.pipeline",
    "judge.reports",
    "judge.service",
    "judge.session",
    "judge.store",
)

_PROBE = """
import atexit, json, sys
atexit.register(lambda: sys.stderr.write("MODULES " + json.dumps(sorted(sys.modules)) + "\\n"))
"""
#: The program as installed (the console script), and the click command.
ROUTES = {
    "program": "sys.argv = ['judge', 'adjudicate']\nfrom judge.entry import run\nrun()\n",
    "click": "from judge.cli import main\nmain(['adjudicate'], prog_name='judge')\n",
}


@pytest.mark.parametrize(
    ("route", "also_absent"),
    [("program", ("click", "logging", "tomllib")), ("click", ())],
    ids=["judge adjudicate", "through the click group"],
)
def test_adjudicate_does_not_import_the_mail_stack(
    route: str, also_absent: tuple[str, ...]
) -> None:
    doc = {
        "game": "classic",
        "phase": "S1901M",
        "orders": {"ENGLAND": ["F LON - NTH", "A LVP - YOR"], "FRANCE": ["A PAR - BUR"]},
    }
    run = subprocess.run(
        [sys.executable, "-c", _PROBE + ROUTES[route]],
        input=json.dumps(doc) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["units"]["ENGLAND"] == ["F EDI", "F NTH", "A YOR"]
    assert out["units"]["FRANCE"] == ["F BRE", "A BUR", "A MAR"]
    line = next(x for x in run.stderr.splitlines() if x.startswith("MODULES "))
    modules = set(json.loads(line.removeprefix("MODULES ")))
    assert "judge_games.classic" in modules  # the probe did see the command run
    absent = (*MAIL_STACK, *also_absent)
    loaded = sorted(m for m in modules if any(m == x or m.startswith(x + ".") for x in absent))
    assert loaded == []


def test_the_command_line_lists_the_league_scoring_systems() -> None:
    assert sorted(cli.SCORING) == sorted(league.SCORING)
    assert cli.DEFAULT_SCORING == league.DEFAULT_SCORING


# ---------------------------------------------------------------------- VIA


def _swap(england: str) -> dict[str, Any]:
    """An English army and a German one trading places, a German fleet
    offering the English army a convoy: by land they meet head to head."""
    return RULES.adjudicate_json(
        {
            "game": "classic",
            "phase": "S1901M",
            "units": {"ENGLAND": ["A EDI"], "GERMANY": ["A YOR", "F NTH"]},
            "orders": {"ENGLAND": [england], "GERMANY": ["F NTH C A EDI - YOR", "A YOR - EDI"]},
        }
    )


def test_a_trailing_via_is_a_move_by_convoy() -> None:
    out = _swap("A EDI - YOR VIA")
    assert out["results"] == {"A EDI": [], "A YOR": [], "F NTH": []}
    assert out["units"] == {"ENGLAND": ["A YOR"], "GERMANY": ["A EDI", "F NTH"]}
    assert _swap("A Edi - Yor via convoy")["units"] == out["units"]


def test_without_via_the_armies_meet_head_to_head() -> None:
    out = _swap("A EDI - YOR")
    assert out["results"]["A EDI"] == ["bounce"] and out["results"]["A YOR"] == ["bounce"]
    assert out["units"] == {"ENGLAND": ["A EDI"], "GERMANY": ["F NTH", "A YOR"]}


def test_via_reads_as_via_convoy_in_any_case() -> None:
    dm = RULES.map
    written = read_order(dm, "A LON - NWY VIA", MOVEMENT)
    assert written.via and written == read_order(dm, "A Lon - Nwy via convoy", MOVEMENT)
    assert read_order(dm, "a lon - nwy via", MOVEMENT) == written
    assert not read_order(dm, "A LON - NWY", MOVEMENT).via


def test_via_must_end_the_line() -> None:
    with pytest.raises(InvalidLine, match="'via x' at the end"):
        read_order(RULES.map, "A LON - NWY VIA X", MOVEMENT)

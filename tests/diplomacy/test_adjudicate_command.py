"""``judge adjudicate`` as a command: it starts with only what adjudication
needs (no mail stack, store, templates or schema library), and it reads
what other tools write."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from judge import cli, league

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
    "judge.mailin",
    "judge.mailout",
    "judge.pipeline",
    "judge.reports",
    "judge.service",
    "judge.session",
    "judge.store",
)

_PROBE = """
import atexit, json, sys
atexit.register(lambda: sys.stderr.write("MODULES " + json.dumps(sorted(sys.modules)) + "\\n"))
from judge.cli import main
main(["adjudicate"], prog_name="judge")
"""


def test_adjudicate_does_not_import_the_mail_stack() -> None:
    doc = {
        "game": "classic",
        "phase": "S1901M",
        "orders": {"ENGLAND": ["F LON - NTH", "A LVP - YOR"], "FRANCE": ["A PAR - BUR"]},
    }
    run = subprocess.run(
        [sys.executable, "-c", _PROBE],
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
    assert "games.classic" in modules  # the probe did see the command run
    loaded = sorted(
        m for m in modules if any(m == bad or m.startswith(bad + ".") for bad in MAIL_STACK)
    )
    assert loaded == []


def test_the_command_line_lists_the_league_scoring_systems() -> None:
    assert sorted(cli.SCORING) == sorted(league.SCORING)
    assert cli.DEFAULT_SCORING == league.DEFAULT_SCORING

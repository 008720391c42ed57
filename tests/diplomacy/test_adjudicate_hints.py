"""`judge adjudicate` adjudicates from the board whatever a document's
hints say: a ``retreats`` hint naming a province that holds a unit, or the
one the attacker came from, gives no retreat there; a retreat ordered there
is void and the unit disbands (DATC 6.H.5; MILA's engine does the same).
And the exit status: 1 when some document was invalid, every line answered."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from judge.game.offline import adjudicate_stream

ROOT = Path(__file__).resolve().parents[2]
#: The program as installed (the console script ``judge adjudicate``).
PROGRAM = [sys.executable, "-c",
           "import sys\nsys.argv = ['judge', 'adjudicate']\nfrom judge.entry import run\nrun()\n"]

#: Russia's A Sev has dislodged Turkey's F Arm; Turkey's F Ank and A Con
#: stand where they stood.
BOARD = {"game": "classic", "phase": "S1901R",
         "units": {"TURKEY": ["F ANK", "A CON"], "RUSSIA": ["F BLA", "A SEV"]}}


def _run(*docs: Mapping[str, object]) -> tuple[int, list[dict[str, Any]]]:
    """The exit status and the answers (JSON documents) to ``docs``."""
    out = io.StringIO()
    status = adjudicate_stream([json.dumps(d) + "\n" for d in docs], out)
    return status, [json.loads(line) for line in out.getvalue().splitlines()]


def _retreat(order: str, hint: list[str]) -> dict[str, object]:
    return {**BOARD, "dislodged": {"TURKEY": {"F ARM": {"from": "SEV", "retreats": hint}}},
            "orders": {"TURKEY": [order]}}


def test_a_retreat_into_an_occupied_province_named_by_the_hint_is_void() -> None:
    status, [result] = _run(_retreat("F ARM R ANK", ["ANK"]))
    assert status == 0, result
    assert result["results"] == {"F ARM": ["void", "disband"]}
    assert result["units"] == {"RUSSIA": ["F BLA", "A SEV"], "TURKEY": ["F ANK", "A CON"]}
    assert result["dislodged"] == {}


def test_a_retreat_to_the_attackers_province_named_by_the_hint_is_void() -> None:
    status, [result] = _run({**BOARD, "units": {"TURKEY": ["F ANK", "A CON"],
                                                 "RUSSIA": ["F BLA"]},
                             "dislodged": {"TURKEY": {"F ARM": {"from": "SEV",
                                                               "retreats": ["SEV"]}}},
                             "orders": {"TURKEY": ["F ARM R SEV"]}})
    assert status == 0, result
    assert result["results"] == {"F ARM": ["void", "disband"]}
    assert "F SEV" not in result["units"]["TURKEY"]


def test_the_hints_vacant_provinces_are_kept() -> None:
    """The board allows what the hint allows where it is vacant: the hint
    may leave out a province a standoff left empty, which the board alone
    cannot tell."""
    doc = {**BOARD, "units": {"TURKEY": ["A CON"], "RUSSIA": ["F BLA", "A SEV"]},
           "dislodged": {"TURKEY": {"F ARM": {"from": "SEV", "retreats": ["ANK"]}}},
           "orders": {"TURKEY": ["F ARM R ANK"]}}
    status, [result] = _run(doc)
    assert status == 0 and result["results"] == {"F ARM": []}, result
    assert result["units"]["TURKEY"] == ["F ANK", "A CON"]


def test_the_exit_status_is_1_when_some_document_is_invalid_and_every_line_answered() -> None:
    docs = [_retreat("F ARM R ANK", ["ANK"]), {"game": "classic", "phase": "nonsense"},
            _retreat("F ARM R ANK", ["ANK"])]
    run = subprocess.run(PROGRAM, cwd=ROOT,
                         input="".join(json.dumps(d) + "\n" for d in docs),
                         capture_output=True, text=True, check=False, timeout=120)
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert run.returncode == 1, run.stderr
    assert len(lines) == 3 and "error" in lines[1] and lines[1]["error"].startswith("line 2:")
    assert lines[0] == lines[2] and "error" not in lines[0]
    good = subprocess.run(PROGRAM, cwd=ROOT,
                          input=json.dumps(docs[0]) + "\n", capture_output=True, text=True,
                          check=False, timeout=120)
    assert good.returncode == 0 and len(good.stdout.splitlines()) == 1

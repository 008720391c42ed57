"""Attachment file names made from phase names (judge/notify.py)."""

from __future__ import annotations

import re

from judge.notify import file_part

SAFE = re.compile(r"^[A-Za-z0-9._-]+$")


def test_phase_names_make_safe_file_names() -> None:
    """A phase name with a colon, a comma, an apostrophe or a hash (Conquest
    Tactics' set-up, a Kingdom Wars turn) gives a file name of letters,
    digits, dots, hyphens and underscores only."""
    for phase, want in (("set-up: Base and starting forces", "set-up_Base_and_starting_forces"),
                        ("round 2, B's turn #14: play", "round_2_B_s_turn_14_play"),
                        ("S1901M", "S1901M"), ("turn 1 Mobilize", "turn_1_Mobilize")):
        assert file_part(phase) == want
        assert SAFE.match(file_part(phase))

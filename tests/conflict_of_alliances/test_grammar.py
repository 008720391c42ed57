"""The mail grammar: canonical text, the three grades of error, and the
distinction the judge's queue relies on (a well-formed line that does not fit
the moment is IllegalLine, never InvalidLine)."""

from __future__ import annotations

import pytest

from judge.game.engine import AmbiguousLine, IllegalLine, InvalidLine
from judge_games.conflict_of_alliances import GAME
from judge_games.conflict_of_alliances.commands import syntax, text
from tests.conflict_of_alliances.helpers import A, L, State, deal, empty, parse, put, stance


def _s() -> State:
    s = empty()
    put(s, "guanzhong", "qin", 4, generals=["sima-cuo"])
    put(s, "han-dan", "zhao", 3)
    stance(s, "zhao", "anti-qin")
    deal(s, L, "fan-ju", "zhang-yi", "legendary-general")
    deal(s, A, "su-qin", "emergency-mobilization")
    return s


@pytest.mark.parametrize(("line", "canonical"), [
    ("play Fan_Ju facedown military Guanzhong 3 to XiaoHan",
     "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 3 TO xiao-han"),
    ("PLAY fan-ju DOWN MILITARY guanzhong qin 2 sima-cuo TO xiao-han han",
     "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 2 sima-cuo LEAD sima-cuo TO xiao-han han"),
    ("PLAY fan-ju FACEDOWN DIPLOMACY zhao left", None),
    ("PLAY fan-ju FACEDOWN WEATHER", "PLAY fan-ju FACEDOWN WEATHER LOCK"),
    ("pass", "PASS"),
    ("PLAY zhang-yi FACEUP a qi", "PLAY zhang-yi FACEUP A qi"),
])
def test_canonical_text_round_trips(line: str, canonical: str | None) -> None:
    s = _s()
    stance(s, "qi", "neutral-2")
    stance(s, "zhao", "neutral-2")
    action = parse(s, L, line)
    if canonical is not None:
        assert action.text == canonical
    assert parse(s, L, action.text) == action


@pytest.mark.parametrize("line", [
    "", "HELLO", "PLAY", "PLAY nonsense FACEUP", "PLAY fan-ju SIDEWAYS",
    "PLAY fan-ju FACEDOWN FEAST", "PLAY fan-ju FACEDOWN MILITARY atlantis",
    "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 3 TO", "PLAY zhang-yi FACEUP",
    "PLAY fan-ju FACEDOWN DIPLOMACY zhao UP", "LOSE 2 SIDEWAYS", "BID lots",
    "MILITARY guanzhong qin 3 TO xiao-han TO han",
])
def test_lines_that_are_not_commands_are_invalid(line: str) -> None:
    with pytest.raises(InvalidLine):
        GAME.parse(_s(), L, line)


@pytest.mark.parametrize(("side", "line"), [
    (A, "PASS"),  # not the Alliance's action phase
    (L, "PLAY su-qin FACEUP A qi"),  # a card of the other deck
    (L, "PLAY mi-yue FACEUP A"),  # not in hand
    (L, "RESPOND li-si"),  # no window open
    (L, "LOSE 1 MOVED"),  # no battle
    (L, "MILITARY guanzhong qin 3 TO xiao-han"),  # no card step pending
    (L, "ATTACK zhao"),
    (L, "BID 7"),
    (L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 3 TO han"),  # not adjacent
])
def test_well_formed_lines_that_do_not_fit_are_illegal(side: str, line: str) -> None:
    """The judge queues an out-of-turn line unless it is InvalidLine."""
    s = _s()
    with pytest.raises(IllegalLine):
        parse(s, side, line)


def test_ambiguous_lines_offer_complete_choices() -> None:
    s = _s()
    s["active"] = A
    put(s, "han-dan", "yan", 2)
    stance(s, "yan", "anti-qin")
    with pytest.raises(AmbiguousLine) as info:
        parse(s, A, "PLAY su-qin FACEDOWN MILITARY han-dan 2 TO wei")
    assert sorted(info.value.choices) == [
        "PLAY su-qin FACEDOWN MILITARY han-dan yan 2 TO wei",
        "PLAY su-qin FACEDOWN MILITARY han-dan zhao 2 TO wei",
    ]
    for choice in info.value.choices:
        parse(s, A, choice)


def test_syntax_and_text_are_inverse_for_every_legal_line() -> None:
    s = _s()
    for line in GAME.legal(s, L):
        cmd = parse(s, L, line).data
        assert text(dict(cmd)) == line
        assert syntax(line)["verb"] == cmd["verb"]

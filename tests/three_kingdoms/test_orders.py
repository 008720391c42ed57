"""Order grammar (rulebook, "Campaign Military Orders"): the rulebook's notation,
the same orders in words, canonical texts and graded errors."""

from __future__ import annotations

from typing import Any

import pytest

from bench.support.three_kingdoms import position, rng
from judge.game.engine import IllegalLine, InvalidLine
from judge_games.three_kingdoms import GAME, RULES, rules
from judge_games.three_kingdoms.orders import ProvinceName

K4 = {"Player1": "Wei", "Player2": "Wei", "Player3": "Shu", "Player4": "Wu"}


def _state() -> dict[str, Any]:
    return position(K4, {"Player1": "L8 A8 M7 M6", "Player3": "A25", "Player2": "A9"})


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        # "A8->5 or Army in province 8 moves to province 5"
        ("A8->5", "A8->5"),
        ("Army in province 8 moves to province 5", "A8->5"),
        ("a 8 - 5", "A8->5"),
        # "L8 S M7->6 or Leader in province 8 supports Militia in province 7 to 6"
        ("L8 S M7->6", "L8 S M7->6"),
        ("Leader in province 8 supports Militia in province 7 to 6", "L8 S M7->6"),
        # "M7->6 or Militia in province 7 moves to province 6"
        ("M7->6", "M7->6"),
        ("Militia in province 7 moves to province 6", "M7->6"),
        ("L8 S A9", "L8 S A9"),
        ("leader 8 supports army 9 defends", "L8 S A9"),
        ("A8 D", "A8 D"),
        ("A8 stands", "A8 D"),
        ("A8", "A8 D"),
        ("declare war on Player3", "WAR Player3"),
        ("war liu bei", "WAR Player3"),
        ("WAR Shu", "WAR Shu"),
        ("neutral towards Player4", "NEUTRAL Player4"),
        ("alliance with player4", "ALLIANCE Player4"),
        ("civil war against Player2", "CIVIL WAR Player2"),
        ("concede to Player2", "CONCEDE Player2"),
    ],
)
def test_notation_and_words(line: str, canonical: str) -> None:
    state = _state()
    action = GAME.parse(state, "Player1", line)
    assert action.text == canonical
    assert GAME.parse(state, "Player1", canonical) == action


def test_one_order_per_piece() -> None:
    """Rulebook: "Orders are issued by piece": a later order for the same piece replaces the
    earlier (same key); a leader and the army under it are separate pieces."""
    state = _state()
    a = GAME.parse(state, "Player1", "A8->5")
    b = GAME.parse(state, "Player1", "A8 D")
    c = GAME.parse(state, "Player1", "L8->5")
    assert a.key == b.key != c.key


@pytest.mark.parametrize(
    "line", ["¤", "X8->5", "A8 jumps 5", "A->5", "WAR", "CLAIM glory", "A8->5 now", "A8 S"]
)
def test_invalid_lines(line: str) -> None:
    with pytest.raises(InvalidLine):
        GAME.parse(_state(), "Player1", line)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("A8->23", "not adjacent"),  # "All pieces may move to an adjacent province."
        ("A25->5", "no A25"),  # not one's own piece
        ("M8->5", "no M8"),
        ("L8 S A25->13", "support is given into an adjacent province"),
        ("A8 S M7->24", "cannot move"),
        ("CIVIL WAR Player3", "own kingdom"),
        ("ALLIANCE Wei", "foreign kingdom"),
        ("BUILD A8", "supply adjustment"),
        ("M7 DISBAND", "retreat phase"),
        ("A8 DESTROY", "optional rule 5"),
        ("CAPITAL 8", "set-up"),
    ],
)
def test_illegal_lines(line: str, why: str) -> None:
    with pytest.raises(IllegalLine, match=why):
        GAME.parse(_state(), "Player1", line)


def test_error_quotes_the_line() -> None:
    with pytest.raises(IllegalLine) as info:
        GAME.parse(_state(), "Player1", "A8->23")
    assert info.value.line == "A8->23"
    assert "A8->23" in str(info.value)


@pytest.mark.parametrize(
    ("line", "hint"),
    [
        # Orders give provinces by number; a name in its place, or a name
        # misspelt, is answered with the legal lines it could mean.
        ("A8->Changan", 'did you mean "A8->5"?'),  # Chang'an, 5
        ("A8->Xuchnag", 'did you mean "A8->6"?'),  # Xuchang, a transposition
        ("Army in Luoyang moves to Hedong", 'did you mean "A8->16"?'),  # two names
        ("L8 S M7->Xuchang", 'did you mean "L8 S M7->6"?'),
        ("M Nanyan D", 'did you mean "M7 D"?'),
        # A province the army cannot reach: no line, but its number.
        ("A8->Liangzhou", "Liangzhou is 12"),
        ("A8->Xanadu", "e.g. A8->5"),  # nothing close
    ],
)
def test_a_province_name_suggests_its_number(line: str, hint: str) -> None:
    state = _state()
    with pytest.raises(ProvinceName) as info:
        GAME.parse(state, "Player1", line)
    err = info.value
    assert err.line == line and err.hint == hint
    assert len(err.choices) <= 3
    for choice in err.choices:
        assert GAME.parse(state, "Player1", choice).text == choice


def test_a_province_name_at_the_set_up() -> None:
    state = GAME.setup({"players": 3}, rng())
    role = GAME.pending(state)[0].roles[0]
    kingdom = rules.kingdom_of(state, role)
    first = RULES.map.centres(kingdom)[0]
    name = RULES.map.provinces[first].name
    with pytest.raises(ProvinceName) as info:
        GAME.parse(state, role, f"CAPITAL {name}")
    assert info.value.choices == (f"CAPITAL {first}",)

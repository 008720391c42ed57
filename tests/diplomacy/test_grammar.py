"""The order grammar: every form the issue lists, canonical texts that read
back, and graded errors that quote the line and say what would be right."""

from __future__ import annotations

import pytest

from judge.game.engine import AmbiguousLine, IllegalLine, InvalidLine, RuleError
from judge_games.classic import GAME, RULES

from .helpers import rng, state

OPENING = state()
BOARD = state(
    {
        "England": ["F Nth", "A Lon", "F Eng", "A Yor"],
        "France": ["A Par", "A Mar", "F Mao", "F Spa/nc"],
        "Germany": ["A Mun", "A Ber"],
        "Russia": ["F StP/sc"],
        "Italy": ["A Nap"],
    },
    phase="S1901M",
)


@pytest.mark.parametrize(
    ("role", "line", "canonical"),
    [
        ("France", "A Par - Bur", "A Par - Bur"),
        ("France", "A Par-Bur", "A Par - Bur"),
        ("France", "A Paris -> Burgundy", "A Par - Bur"),
        ("France", "A PAR M BUR", "A Par - Bur"),
        ("France", "a par move bur", "A Par - Bur"),
        ("France", "Army Paris moves to Burgundy", "A Par - Bur"),
        ("France", "Par - Bur", "A Par - Bur"),  # unit type left out: DATC 4.C.1
        ("France", "F Par - Bur", "A Par - Bur"),  # wrong unit type ignored: DATC 4.C.2
        ("France", "A Par H", "A Par H"),
        ("France", "A Paris holds", "A Par H"),
        ("France", "A Par", "A Par H"),
        ("England", "F Nth C A Lon - Nwy", "F Nth C A Lon - Nwy"),
        ("England", "F North Sea convoys A London -> Norway", "F Nth C A Lon - Nwy"),
        ("England", "F Nth C Lon - Nwy", "F Nth C A Lon - Nwy"),
        ("England", "A Lon - Nwy", "A Lon - Nwy"),
        ("England", "A Lon - Yor via convoy", "A Lon - Yor via convoy"),
        ("England", "A Lon - Yor (via convoy)", "A Lon - Yor via convoy"),
        ("England", "A Lon - Nth - Nwy", "A Lon - Nwy"),  # a path is ignored: DATC 4.A.6
        ("Germany", "A Mun S A Par - Bur", "A Mun S A Par - Bur"),
        ("Germany", "A Mun supports French A Paris - Burgundy", "A Mun S A Par - Bur"),
        ("Germany", "A Mun S A Ber", "A Mun S A Ber"),
        ("Germany", "A Munich supports Berlin", "A Mun S A Ber"),
        ("Germany", "A Mun S A Ber H", "A Mun S A Ber"),
        ("France", "F Spa/nc - Mao", "F Spa/nc - Mao"),
        ("France", "F Spain(nc) - Portugal", "F Spa/nc - Por"),
        ("France", "F Spa nc - Gas", "F Spa/nc - Gas"),
        ("France", "F Spa/sc - Gas", "F Spa/nc - Gas"),  # wrong own coast ignored: DATC 4.B.5
        ("Russia", "F StP(sc) - Bot", "F StP/sc - Bot"),
        ("Russia", "F St. Petersburg (south coast) - Gulf of Bothnia", "F StP/sc - Bot"),
        ("France", "F Mao - Spa/sc", "F Mao - Spa/sc"),
        ("France", "F Mid-Atlantic Ocean - Spain (north coast)", "F Mao - Spa/nc"),
        ("France", "F MAO - NAF", "F Mao - Naf"),
        ("France", "F Mid - Gas", "F Mao - Gas"),
        ("France", "A Mar - Spa/sc", "A Mar - Spa"),  # coasts mean nothing to armies: 4.B.6
        ("Italy", "A Nap - Apu", "A Nap - Apu"),
    ],
)
def test_movement_forms(role: str, line: str, canonical: str) -> None:
    action = GAME.parse(BOARD, role, line)
    assert action.text == canonical
    again = GAME.parse(BOARD, role, action.text)
    assert again == action  # the canonical text reads back to the same action


def test_keys_group_orders_by_unit() -> None:
    """The last order for a unit replaces earlier ones: they share the key."""
    a = GAME.parse(BOARD, "France", "A Par - Bur")
    b = GAME.parse(BOARD, "France", "A Par H")
    c = GAME.parse(BOARD, "France", "A Mar - Bur")
    assert a.key == b.key == "Par"
    assert c.key == "Mar"


def test_retreat_and_disband_forms() -> None:
    st = state(
        {"Germany": ["A Ber"], "France": ["A Mun"]},
        phase="S1901R",
        dislodged={"Germany": {"A Mun": {"from": "Bur", "retreats": ["Boh", "Sil"]}}},
    )
    assert GAME.parse(st, "Germany", "A Mun R Boh").text == "A Mun R Boh"
    assert GAME.parse(st, "Germany", "A Munich retreats to Bohemia").text == "A Mun R Boh"
    assert GAME.parse(st, "Germany", "A Mun - Sil").text == "A Mun R Sil"
    assert GAME.parse(st, "Germany", "A Mun D").text == "A Mun D"
    assert GAME.parse(st, "Germany", "Disband A Mun").text == "A Mun D"
    with pytest.raises(IllegalLine, match="cannot retreat to Burgundy"):
        GAME.parse(st, "Germany", "A Mun R Bur")
    with pytest.raises(InvalidLine, match="may only retreat"):
        GAME.parse(st, "Germany", "A Mun S A Ber")


def _winter() -> dict[str, object]:
    return state(
        {"Russia": ["A Mos"], "France": ["A Par", "A Bre", "A Mar", "A Bur"]},
        phase="W1901A",
        centers={"Russia": ["Mos", "StP", "War"], "France": ["Par", "Bre"]},
    )


def test_adjustment_forms() -> None:
    st = _winter()
    assert GAME.parse(st, "Russia", "Build A War").text == "Build A War"
    assert GAME.parse(st, "Russia", "build army warsaw").text == "Build A War"
    assert GAME.parse(st, "Russia", "Build F StP/nc").text == "Build F StP/nc"
    assert GAME.parse(st, "Russia", "Build F St Petersburg (north coast)").text == "Build F StP/nc"
    assert GAME.parse(st, "Russia", "A War B").text == "Build A War"
    assert GAME.parse(st, "Russia", "Waive").text == "Waive"
    assert GAME.parse(st, "Russia", "waive 2").text == "Waive 2"
    assert GAME.parse(st, "France", "Remove A Bur").text == "Remove A Bur"
    assert GAME.parse(st, "France", "Disband A Bur").text == "Remove A Bur"
    assert GAME.parse(st, "France", "A Mar D").text == "Remove A Mar"
    build = GAME.parse(st, "Russia", "Build A War")
    assert build.key == "build:War"
    assert GAME.parse(st, "Russia", build.text) == build


@pytest.mark.parametrize(
    ("st", "role", "line", "grade", "words"),
    [
        (OPENING, "France", "A Par flies to Bur", InvalidLine, "expected H, -, S or C"),
        (OPENING, "France", "Hello there", InvalidLine, "expected a province"),
        (OPENING, "France", "A Par - Xanadu", InvalidLine, "expected a destination"),
        (OPENING, "France", "A Par - Bur please", InvalidLine, "at the end"),
        (OPENING, "France", "A Par R Bur", InvalidLine, "retreat phase"),
        (OPENING, "France", "Build A Par", InvalidLine, "adjustments"),
        (OPENING, "France", "A Par - Mun", IllegalLine, "Paris does not border Munich"),
        (OPENING, "France", "A Gas - Bur", IllegalLine, "no unit in Gascony"),
        (OPENING, "France", "A Mun - Bur", IllegalLine, "German, not yours"),
        (OPENING, "France", "F Bre - Par", IllegalLine, "cannot move inland"),
        (OPENING, "France", "A Par - Eng", IllegalLine, "army cannot move into a sea"),
        (OPENING, "France", "A Par - Par", IllegalLine, "province it is in"),
        (OPENING, "France", "F Bre - Lon via convoy", IllegalLine, "only armies"),
        (OPENING, "France", "A Mar S A Par - Pic", IllegalLine, "could not move to Picardy"),
        (OPENING, "France", "A Par S A Par", IllegalLine, "cannot support itself"),
        (OPENING, "France", "F Bre C A Par - Lon", IllegalLine, "only fleets at sea"),
        (BOARD, "France", "F Spa/nc - Lyo", IllegalLine, "cannot reach Gulf of Lyon"),
        (BOARD, "France", "F Mao - Spa", AmbiguousLine, "two coasts"),
        (BOARD, "France", "A Par - Nor", AmbiguousLine, "could be"),
        (BOARD, "Russia", "F StP/sc - Bar", IllegalLine, "cannot reach Barents Sea"),
    ],
)
def test_graded_errors(
    st: dict[str, object], role: str, line: str, grade: type[RuleError], words: str
) -> None:
    with pytest.raises(grade) as info:
        GAME.parse(st, role, line)
    err = info.value
    assert type(err) is grade or isinstance(err, grade)
    assert words in str(err)
    assert err.line == line
    assert str(err).startswith(f'"{line}": {err.grade.value}:')


def test_ambiguous_coast_names_the_choices() -> None:
    with pytest.raises(AmbiguousLine) as info:
        GAME.parse(BOARD, "France", "F Mid - Spa")
    err = info.value
    assert err.choices == ("F Mao - Spa/nc", "F Mao - Spa/sc")
    assert str(err) == (
        '"F Mid - Spa": ambiguous: Spain has two coasts reachable from Mid-Atlantic Ocean '
        '(did you mean "F Mao - Spa/nc" or "F Mao - Spa/sc"?)'
    )


def test_ambiguous_abbreviation_names_the_choices() -> None:
    with pytest.raises(AmbiguousLine) as info:
        GAME.parse(BOARD, "France", "A Par - Nor")
    assert set(info.value.choices) == {"Nwy", "Nwg", "Nth", "Naf", "Nao"}


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("Build A Mos", "occupied"),
        ("Build A Sev", "do not own"),
        ("Build A Par", "not one of your home"),
        ("Build F War", "inland"),
        ("Build F StP", "which coast"),
        ("Build StP/xc", "expected a coast"),
        ("Remove A Mos", "no units to remove"),
    ],
)
def test_build_errors(line: str, words: str) -> None:
    """DATC 6.I.2-6.I.6 and 4.B.7, refused at the door by mail."""
    with pytest.raises(RuleError, match=words):
        GAME.parse(_winter(), "Russia", line)


def test_too_many_builds_is_not_a_parse_error_but_the_first_ones_count() -> None:
    """By mail each build is checked alone; at the deadline only the first legal
    builds are carried out (DATC 4.D.4, 6.I.1)."""
    st = state({"Russia": ["A Mos"]}, phase="W1901A", centers={"Russia": ["Mos", "StP", "War"]})
    acts = [GAME.parse(st, "Russia", x) for x in ("Build A War", "Build A StP", "Waive")]
    new, _ = GAME.resolve(st, {"Russia": acts}, rng())
    assert sorted(new["units"]["Russia"]) == ["A Mos", "A StP", "A War"]


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        ("A Swe - Den", "A Swe - Den"),  # not "Sweden"
        ("A Swe-Den", "A Swe - Den"),
        ("F Nwy-Nth", "F Nwy - Nth"),
    ],
)
def test_a_hyphen_between_names_is_a_move(line: str, canonical: str) -> None:
    st = state({"Russia": ["A Swe", "F Nwy"]})
    assert GAME.parse(st, "Russia", line).text == canonical


@pytest.mark.parametrize("line", ["¢Waive", "A Par - Bur §", "A Par → Bur", "A Pär - Bur"])
def test_stray_characters_are_invalid(line: str) -> None:
    with pytest.raises(InvalidLine, match="unexpected character"):
        GAME.parse(BOARD, "France", line)


def test_quick_path_reads_like_the_general_reader() -> None:
    """The regular-expression path for common forms gives the same draft as
    the general reader, on every legal line of a played position."""
    from judge_games.diplomacy import orders as o

    st = state()
    lines = [line for role in GAME.roles(st) for line in GAME.legal(st, role)]
    lines += [x.upper() for x in lines] + ["F Spa/nc - Mao", "A Par H", "F Nth C A Lon - Nwy"]
    for line in lines:
        quick = o._quick_movement(RULES.map, line)
        assert quick is not None, line
        slow = o._read_movement(o.Reader(RULES.map, line))
        assert quick == slow, line

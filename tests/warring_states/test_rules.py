"""Rule clauses of Warring States through the game contract: the order
grammar for the new orders with graded errors, builds, victory, and the
strength hooks. Each test cites the rule it shows; the multi-unit scenarios
are in cases/ (test_cases.py)."""

from __future__ import annotations

import pytest

from judge.game.engine import AmbiguousLine, IllegalLine, InvalidLine, RuleError
from judge_games.diplomacy.board import Board, Unit
from judge_games.diplomacy.legality import Situation, bind
from judge_games.diplomacy.orders import MOVE, MOVEMENT, SUPPORT, Order, UnknownName, read_order
from judge_games.diplomacy.serial import read_position
from judge_games.warring_states import GAME
from judge_games.warring_states import RULES as WARRING_STATES
from judge_games.warring_states.game import RULES as WS_RULES
from judge_games.warring_states.rules import WarringStatesRules

from .helpers import play, rng, state

DM = WARRING_STATES.map
RULES = WS_RULES
CHANGES = WARRING_STATES.variant.rules
assert isinstance(RULES, WarringStatesRules)


def prov(pid: str) -> int:
    return DM.province(pid).idx


# ---------------------------------------------------------------------- grammar


@pytest.mark.parametrize(
    "line",
    [
        "A Luo convert",
        "A Luoyang converts",
        "a luo convert to fleet",
        "A Luo converts into a fleet",
        "Convert A Luo",
        "Han A Luo convert",
        "A Luoyang becomes fleet",
    ],
)
def test_conversion_forms_read_to_one_canonical_order(line: str) -> None:
    """Fleets: "an army standing where a fleet may stand can be ordered to
    convert into a fleet"; every spelling gives ``A Luo convert``."""
    st = state()
    action = GAME.parse(st, "Han", line)
    assert action.text == "A Luo convert"
    assert GAME.parse(st, "Han", action.text) == action
    assert action.key == "Luo"  # replaces an earlier order for the same unit


def test_rapid_move_reads_its_path_and_round_trips() -> None:
    """Rapid river move: the order names each river space passed."""
    st = state({"Wei": ["F WYR"]})
    action = GAME.parse(st, "Wei", "F Western Yellow River - Middle Yellow River - LYR")
    assert action.text == "F WYR - MYR - LYR"
    assert GAME.parse(st, "Wei", action.text) == action
    # A plain move stays a plain move.
    assert GAME.parse(st, "Wei", "F WYR - MYR").text == "F WYR - MYR"


@pytest.mark.parametrize(
    ("units", "role", "line", "grade", "words"),
    [
        ({"Han": ["A Luo"]}, "Han", "A Luo convert sideways", InvalidLine, "did not understand"),
        ({"Han": ["A Luo"]}, "Han", "A Luo convert convert", InvalidLine, "did not understand"),
        ({"Han": ["A Yiy"]}, "Han", "A Yiy convert", IllegalLine, "cannot stand"),
        ({"Han": ["F Luo"]}, "Han", "F Luo convert", IllegalLine, "only an army"),
        ({"Han": ["A Luo"]}, "Wei", "A Luo convert", IllegalLine, "not yours"),
        ({"Han": ["A Luo"]}, "Han", "A Zmo convert", IllegalLine, "no unit"),
        (
            {"Zhao": ["F UYR"]},
            "Zhao",
            "F UYR - WYR - MYR - LYR - YRM",
            IllegalLine,
            "at most 3",
        ),
        ({"Zhao": ["F YRM"]}, "Zhao", "F YRM - Boh - Yel", IllegalLine, "only through river"),
        ({"Wei": ["F WYR"]}, "Wei", "F WYR - LYR - YRM", IllegalLine, "does not border"),
        ({"Wei": ["F WYR"]}, "Wei", "F WYR - MYR - WYR", IllegalLine, "twice"),
        ({"Han": ["A Luo"]}, "Han", "A Luo - Yiy - Yaz", IllegalLine, "only a fleet"),
        ({"Yan": ["A Gua", "F Boh"]}, "Yan", "F Boh C A Gua - Lin", IllegalLine, "no convoys"),
        ({"Yan": ["A Gua", "F Boh"]}, "Yan", "A Gua - Lin", IllegalLine, "no convoys"),
        ({"Yan": ["A Gua", "F Boh"]}, "Yan", "A Gua - Hej via convoy", IllegalLine, "no convoys"),
        ({"Han": ["F MYR"]}, "Han", "F MYR - Yiy", IllegalLine, "cannot reach"),
        ({"Han": ["A Luo"]}, "Han", "A Luo - Yellow", AmbiguousLine, "could be"),
    ],
)
def test_new_orders_have_graded_errors(
    units: dict[str, list[str]], role: str, line: str, grade: type[RuleError], words: str
) -> None:
    """Every refused line is graded (invalid / illegal / ambiguous) and quoted."""
    st = state(units)
    with pytest.raises(RuleError) as info:
        GAME.parse(st, role, line)
    assert type(info.value) is grade or isinstance(info.value, grade)
    assert info.value.line == line
    assert words in str(info.value)


def test_conversion_is_read_only_in_movement() -> None:
    st = state({"Han": ["A Luo"]}, phase="W350A", centers={"Han": ["Luo", "Yiy"]})
    with pytest.raises(InvalidLine):
        GAME.parse(st, "Han", "A Luo convert")


def test_a_fleet_turning_back_into_an_army_keeps_the_written_order() -> None:
    """Fleets: the fleet ordered inland turns back into an army; its order's
    canonical text is the order as written, and reads back the same."""
    st = state({"Han": ["F Luo"]})
    action = GAME.parse(st, "Han", "F Luoyang - Yiyang")
    assert action.text == "F Luo - Yiy"
    order = bind(
        Situation(read_position(DM, st, st["phase"], CHANGES).board, MOVEMENT, rules=CHANGES),
        DM.power_index["han"],
        read_order(DM, action.text, MOVEMENT, CHANGES),
    )
    assert order.becomes == "A" and order.kind == MOVE


def test_retreat_inland_reads_and_turns_back() -> None:
    """Fleets: "... retreat ... into a place that only an army can reach turns
    back into an army"."""
    st = state(
        {"Wei": ["A Luo", "A Hen"]},
        phase="S350R",
        dislodged={"Han": {"F Luo": {"from": "Zmo"}}},
    )
    action = GAME.parse(st, "Han", "F Luo R Yiy")
    assert action.text == "F Luo R Yiy"
    st, _ = GAME.resolve(st, {"Han": [action]}, rng())
    assert st["units"]["Han"] == ["A Yiy"]


# ---------------------------------------------------------------------- builds


def test_only_armies_are_built_in_any_owned_home_centre() -> None:
    """Builds: "Only armies are built. A power may build in any home supply
    centre it owns that is empty, including home centres of other powers
    that it has captured.\""""
    st = state(
        {"Qin": ["A Xia"]},
        phase="W350A",
        centers={"Qin": ["Xia", "Luo", "Lu"], "Han": ["Yiy", "Yaz"]},
    )
    assert GAME.parse(st, "Qin", "Build A Luo").text == "Build A Luo"
    assert GAME.parse(st, "Qin", "Build Luo").text == "Build A Luo"
    for line, words in [
        ("Build F Luo", "only armies"),
        ("Build A Lu", "not a home supply centre"),
        ("Build A Yiy", "do not own"),
        ("Build A Xia", "occupied"),
    ]:
        with pytest.raises(IllegalLine, match=words):
            GAME.parse(st, "Qin", line)
    legal = GAME.legal(st, "Qin")
    assert "Build A Luo" in legal and not any(line.startswith("Build F") for line in legal)
    st, _ = play(st, Qin=["Build A Luo"])
    assert sorted(st["units"]["Qin"]) == ["A Luo", "A Xia"]


def test_a_power_with_only_captured_home_centres_free_is_asked_to_build() -> None:
    """Builds: captured home centres count as build sites for the decision too."""
    st = state(
        {"Qin": ["A Xia", "A Yon", "A Nan"]},
        phase="W350A",
        centers={"Qin": ["Xia", "Yon", "Nan", "Luo"]},
    )
    [decision] = GAME.pending(st)
    assert decision.roles == ("Qin",)


# ---------------------------------------------------------------------- victory


def _centres(n: int, start: int) -> list[str]:
    return [DM.provinces[c].id for c in DM.centres[start : start + n]]


def test_eighteen_centres_win_when_no_one_else_has_as_many() -> None:
    """Victory: 18 of 38 centres win (checked after the fall turn)."""
    st = state({"Qin": ["A Lon"]}, phase="F350M", centers={"Qin": _centres(18, 0)})
    st, _ = play(st)
    out = GAME.outcome(st)
    assert out is not None and out.winners == ("Qin",) and not out.draw


def test_a_tie_at_eighteen_plays_on_until_one_leads() -> None:
    """Victory: "If there is a tie at 18, play continues until one power has
    more than the other, or until a draw is agreed on.\""""
    centres = {"Qin": _centres(18, 0), "Chu": _centres(18, 18)}
    st = state({"Qin": ["A Lon"], "Chu": ["A Luj"]}, phase="F350M", centers=centres)
    st, _ = play(st)
    assert GAME.outcome(st) is None
    assert GAME.pending(st)
    # One more centre for Qin (the last neutral one) breaks the tie.
    last = DM.provinces[DM.centres[36]].id
    lead = {"Qin": [*_centres(18, 0), last], "Chu": _centres(18, 18)}
    st = state({"Qin": ["A Lon"], "Chu": ["A Luj"]}, phase="F350M", centers=lead)
    st, _ = play(st)
    out = GAME.outcome(st)
    assert out is not None and out.winners == ("Qin",)
    # A draw may be agreed during the tie.
    drawn = GAME.agreed_draw(state(centers=centres), ["Qin", "Chu"])
    agreed = GAME.outcome(drawn)
    assert agreed is not None and agreed.draw


# ---------------------------------------------------------------------- strengths


def test_strengths_of_floating_fortresses_and_walls() -> None:
    """Floating fortresses and walls as the strengths hook gives them: base 2
    for a fleet on a river, 2 for a fleet moving or supporting from a river
    or sea into a river, 1 from a land province; a wall penalty for a move or
    support across the wall of the province entered, none for a hold support."""
    board = Board(DM)
    han, wei = DM.power_index["han"], DM.power_index["wei"]
    board.place(Unit(han, "F", prov("MYR")))
    board.place(Unit(han, "F", prov("YRM")))
    board.place(Unit(han, "F", prov("Luo")))
    board.place(Unit(wei, "F", prov("Boh")))
    board.place(Unit(wei, "A", prov("Lu")))
    board.place(Unit(wei, "A", prov("Ju")))
    orders = {
        prov("MYR"): Order(MOVE, "F", prov("MYR"), prov("LYR")),
        prov("YRM"): Order(SUPPORT, "F", prov("YRM"), prov("LYR"), prov("MYR"), target_unit="F"),
        prov("Luo"): Order(MOVE, "F", prov("Luo"), prov("LYR")),
        prov("Boh"): Order(MOVE, "F", prov("Boh"), prov("YRM")),
        prov("Lu"): Order(MOVE, "A", prov("Lu"), prov("Lin")),
        prov("Ju"): Order(SUPPORT, "A", prov("Ju"), prov("Lin"), prov("Lu"), target_unit="A"),
    }
    s = RULES.movement_strengths(board, orders)
    assert s.base is not None and s.move_base is not None and s.weight is not None
    assert s.penalised is not None and s.support_penalty is not None
    assert s.base[prov("MYR")] == 2 and s.base[prov("Boh")] == 1 and s.base[prov("Luo")] == 1
    assert s.move_base[prov("MYR")] == 2 and s.move_base[prov("Boh")] == 2
    assert s.move_base[prov("Luo")] == 1
    assert s.weight[prov("YRM")] == 2
    assert s.penalised[prov("Lu")] and s.support_penalty[prov("Ju")]
    assert not s.penalised[prov("MYR")]
    hold = {prov("Ju"): Order(SUPPORT, "A", prov("Ju"), -1, prov("Lu"), target_unit="A")}
    assert not (RULES.movement_strengths(board, hold).support_penalty or [True])[prov("Ju")]


def test_an_ambiguous_name_offers_whole_lines_that_parse() -> None:
    """Graded errors: an ambiguous name lists the readings that are legal
    orders, each of which parses (and none when no reading is legal)."""
    st = state({"Han": ["F LYR"]})
    with pytest.raises(AmbiguousLine) as info:
        GAME.parse(st, "Han", "F LYR - yellow")
    assert info.value.choices == ("F LYR - YRM",)
    assert GAME.parse(st, "Han", "F LYR - YRM").text == "F LYR - YRM"
    with pytest.raises(AmbiguousLine) as info:
        GAME.parse(state(), "Han", "JIAN")
    assert info.value.choices == ()


def test_a_misspelt_name_suggests_the_lines_it_could_mean() -> None:
    """Graded errors: an unknown name is invalid, with a hint of the whole
    lines (at most three, nearest first) that a close name of the map makes
    legal now: here the provinces Luoyang borders; none when nothing is close
    or no close name makes a legal order (an army cannot go onto a river)."""
    st = state()
    with pytest.raises(UnknownName) as info:
        GAME.parse(st, "Han", "A Luo - Zhongmuo")
    assert info.value.hint == 'did you mean "A Luo - Zmo"?'
    assert GAME.parse(st, "Han", "A Luo - Zmo").text == "A Luo - Zmo"
    with pytest.raises(UnknownName) as info:
        GAME.parse(st, "Han", "A Luo - Middle Yelow River")
    assert info.value.choices == () and info.value.hint == ""
    with pytest.raises(UnknownName) as info:
        GAME.parse(state({"Han": ["F LYR"]}), "Han", "F LYR - Midle Yellow River")
    assert info.value.choices == ("F LYR - MYR",)

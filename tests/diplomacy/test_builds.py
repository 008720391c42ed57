"""A build beyond the number a power may make (its supply centres over its
units) is refused on its line when it is sent, with the number, instead of
being accepted and then void at the deadline. The judge parses each line
alone and asks the game's ``check_held`` hook whether it fits with what the
seat holds; here the hook, then the same by mail."""

from __future__ import annotations

import dataclasses
import email
import email.policy
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.support.classic_mail import GM_ADDR, ClassicByMail, StillClock, address
from judge import config as cfg
from judge.game.engine import Action, IllegalLine
from judge.game.spec import Game
from judge.service import Judge
from judge.store import set_kdf_cost
from judge_games.classic import GAME, SPEC

from .helpers import state

# Russia owns four centres with two units: it may build 2 (its four home
# centres are empty).
WINTER = state(
    {"Russia": ["A Ukr", "F Bla"]},
    phase="W1901A",
    centers={"Russia": ["Mos", "StP", "War", "Sev"]},
)


def _held(*lines: str) -> list[Action]:
    return [GAME.parse(WINTER, "Russia", x) for x in lines]


def test_a_build_over_the_number_is_refused_with_it() -> None:
    held = _held("Build A War")
    GAME.check_held(WINTER, "Russia", _held("Build F StP/nc")[0], held)  # the second fits
    with pytest.raises(IllegalLine) as info:
        GAME.check_held(
            WINTER, "Russia", _held("Build A StP")[0], _held("Build A War", "Build A Mos")
        )
    assert "you may build 2" in info.value.message
    assert info.value.grade.value == "illegal"
    assert "Build A War, Build A Mos" in info.value.hint and "ORDERS" in info.value.hint


def test_a_build_in_the_same_province_replaces_the_earlier_one() -> None:
    """Orders are keyed (``build:StP``): the later build in St Petersburg
    replaces the earlier one, so it takes no further build."""
    held = _held("Build A War", "Build A StP")
    GAME.check_held(WINTER, "Russia", _held("Build F StP/nc")[0], held)


def test_waive_counts_as_a_build() -> None:
    with pytest.raises(IllegalLine, match="you may build 2"):
        GAME.check_held(WINTER, "Russia", _held("Waive")[0], _held("Build A War", "Build A StP"))
    with pytest.raises(IllegalLine, match="you may build 2"):
        GAME.check_held(WINTER, "Russia", _held("Build A War")[0], _held("Waive 2"))
    GAME.check_held(WINTER, "Russia", _held("Waive")[0], _held("Build A War"))
    # Waive replaces Waive (one key): "Waive" after "Waive 2" waives one.
    GAME.check_held(WINTER, "Russia", _held("Build A War")[0], _held("Waive 2", "Waive"))


def test_waiving_more_than_the_number_is_refused_alone() -> None:
    with pytest.raises(IllegalLine, match="you may build 2") as info:
        GAME.parse(WINTER, "Russia", "Waive 3")
    assert info.value.hint == 'did you mean "Waive 2"?'


def test_other_orders_and_phases_are_not_counted() -> None:
    spring = state()
    GAME.check_held(spring, "France", GAME.parse(spring, "France", "A Par H"), [])
    # The contract's default: every parsed action fits.
    plain = Game(dataclasses.replace(SPEC, check_held=None))
    plain.check_held(spring, "France", Action("x"), [Action("y")])  # raises nothing


# --------------------------------------------------------------------------- by mail


@pytest.fixture
def game(tmp_path: Path) -> Iterator[ClassicByMail]:
    set_kdf_cost(2**8)
    home = tmp_path / "home"
    cfg.init_home(home)
    clock = StillClock()
    judge = Judge.open(home, now=clock)
    g = ClassicByMail(judge, home, clock)
    g.setup(max_year=0)
    yield g
    judge.close()


def _send(g: ClassicByMail, role: str, body: str) -> str:
    """Mail ``body`` as ``role``; the judge's reply."""
    g.deliver(address(role), f"SIGNON {g.name} {role} {g.tokens[role]}\n{body}\n")
    g.cycle()
    row = g.judge.store.outbox()[-1]
    msg = email.message_from_bytes(row["raw"], policy=email.policy.default)
    assert isinstance(msg, email.message.EmailMessage)
    part = msg.get_body(("plain",))
    assert part is not None
    return str(part.get_content()).replace("\r\n", "\n")


def _process(g: ClassicByMail) -> None:
    g.deliver(GM_ADDR, f"SIGNON {g.name} GM {g.gm_token}\nPROCESS\n")
    g.cycle()


def test_by_mail_the_extra_build_is_refused_on_its_line(game: ClassicByMail) -> None:
    """Germany takes Denmark and Holland in 1901 (the others hold): 2 builds."""
    _send(game, "Germany", "A Mun - Ruh\nA Ber - Kie\nF Kie - Den")
    _process(game)
    _send(game, "Germany", "A Kie - Hol\nF Den H\nA Ruh H")
    _process(game)
    assert game.phase() == "W1901A"

    reply = _send(game, "Germany", "Build A Mun\nBuild A Ber\nBuild A Kie")
    assert '"Build A Kie"\n      illegal: you may build 2' in reply
    assert [a.text for a in game.table().held("Germany")] == ["Build A Mun", "Build A Ber"]

    # A later mail counts what is held; a build in the same province replaces.
    reply = _send(game, "Germany", "Build F Kie\nBuild F Ber")
    assert '"Build F Kie"\n      illegal: you may build 2' in reply
    assert [a.text for a in game.table().held("Germany")] == ["Build A Mun", "Build F Ber"]

    # An ORDERS block replaces everything held: its own lines are counted.
    reply = _send(game, "Germany", "ORDERS\nBuild F Kie\nWaive\nBuild A Mun\nEND")
    assert '"Build A Mun"\n      illegal: you may build 2' in reply
    assert [a.text for a in game.table().held("Germany")] == ["Build F Kie", "Waive"]


def test_the_hint_holds_for_lines_of_one_block_and_for_lines_held_before() -> None:
    """The extra line may follow the others in the same ORDERS block: the
    hint must not send the player to write one block when they did."""
    with pytest.raises(IllegalLine) as info:
        GAME.check_held(WINTER, "Russia", _held("Waive")[0], _held("Build A War", "Build A Mos"))
    assert "leave this line out" in info.value.hint
    assert "send all your builds in one ORDERS block" not in info.value.hint


# France must remove one: two centres, three units.
AUTUMN_LOSS = state(
    {"France": ["A Par", "A Pic", "F Bre"]},
    phase="W1901A",
    centers={"France": ["Par", "Bre"]},
)


def test_a_removal_over_the_number_is_refused_on_its_line() -> None:
    """DATC 6.J.1: France has to disband one; removals beyond that are not
    carried out, so by mail the one over the number is refused when sent."""
    first = GAME.parse(AUTUMN_LOSS, "France", "Remove A Pic")
    GAME.check_held(AUTUMN_LOSS, "France", first, [])
    second = GAME.parse(AUTUMN_LOSS, "France", "Remove A Par")
    with pytest.raises(IllegalLine, match="you must remove 1") as info:
        GAME.check_held(AUTUMN_LOSS, "France", second, [first])
    assert "Remove A Pic" in info.value.hint
    # The same unit again replaces the first removal (one key): it fits.
    GAME.check_held(AUTUMN_LOSS, "France", GAME.parse(AUTUMN_LOSS, "France", "Remove A Pic"),
                    [first])

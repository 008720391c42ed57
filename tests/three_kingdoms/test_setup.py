"""The Standard Start by mail (rulebook, "The Set Up")."""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

import pytest

from bench.support.three_kingdoms import rng
from judge.game.engine import DecisionKind, IllegalLine
from judge.game.rng import Rng
from judge_games.three_kingdoms import GAME, RULES, rules


def _setup(players: int, seed: bytes = b"setup") -> dict[str, Any]:
    return GAME.setup({"players": players}, Rng(hashlib.sha256(seed).digest()))


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (3, {"Wei": 1, "Shu": 1, "Wu": 1}),
        (4, {"Wei": 2, "Shu": 1, "Wu": 1}),
        (5, {"Wei": 2, "Shu": 1, "Wu": 2}),
        (6, {"Wei": 2, "Shu": 2, "Wu": 2}),
    ],
)
def test_characters_by_number_of_players(players: int, expected: dict[str, int]) -> None:
    """Rulebook: "For three players use one player from each kingdom. For four player games
    use two for Wei and one for each of Wu and Shu. For five player games use two
    for Wei, Wu and one for Shu. For six player games use two for each kingdom." """
    state = _setup(players)
    kingdoms = Counter(c["kingdom"] for c in state["characters"].values())
    assert kingdoms == expected
    names = {c["name"] for c in state["characters"].values()}
    assert names <= {"Cao Cao", "Lv Bu", "Liu Bei", "Ma Chao", "Sun Quan", "Taishi Ci"}
    assert len(names) == players


def test_characters_are_drawn_from_the_seed() -> None:
    """Rulebook: "Each of the players pick one character at random": the committed seed
    decides, the same seed gives the same draw, and the draw is logged."""
    first = Rng(hashlib.sha256(b"a").digest())
    state = GAME.setup({"players": 6}, first)
    again = GAME.setup({"players": 6}, Rng(hashlib.sha256(b"a").digest()))
    assert state["characters"] == again["characters"]
    assert first.draws and all(d.purpose == "characters" for d in first.draws)
    draws = {
        tuple(c["name"] for c in _setup(6, bytes([i]))["characters"].values()) for i in range(12)
    }
    assert len(draws) > 1
    # With one character of a kingdom in play, either of its two may be in the bag.
    wei = {
        c["name"]
        for i in range(12)
        for c in _setup(3, bytes([i]))["characters"].values()
        if c["kingdom"] == "Wei"
    }
    assert wei == {"Cao Cao", "Lv Bu"}


def test_same_kingdom_players_start_allied() -> None:
    """Rulebook: "When there are 2 players in the same kingdom, the players start in this
    status automatically." Others start neutral."""
    state = _setup(6)
    for a in state["players"]:
        for b in state["players"]:
            if a < b:
                same = state["characters"][a]["kingdom"] == state["characters"][b]["kingdom"]
                assert rules.status(state, a, b) == ("alliance" if same else "neutral")


def _act(state: dict[str, Any], line: str) -> dict[str, Any]:
    (decision,) = GAME.pending(state)
    assert decision.kind is DecisionKind.ACTION
    (role,) = decision.roles
    new, _ = GAME.act(state, role, GAME.parse(state, role, line), rng())
    return new


def test_capital_then_militia_in_turns() -> None:
    """Rulebook: "2. The player then immediately places the character and an Army piece under
    it in one of the centers of that character's kingdom. This is the player's
    capital. 3. Once all the players have placed their characters and starting
    Army, the youngest player then places a Militia unit in one of the centers in
    his kingdom. 4. This is repeated until each player has 2 militia, 1 army and
    his character on the board. 5. The game then starts." """
    state = _setup(3)
    order = []
    for _ in range(3):
        (d,) = GAME.pending(state)
        order.append(d.roles[0])
        role = d.roles[0]
        free = GAME.legal(state, role)
        assert all(line.startswith("CAPITAL ") for line in free)
        state = _act(state, free[0])
        cap = state["capital"][role]
        assert {(p["kind"], p["at"]) for p in state["pieces"] if p["owner"] == role} == {
            ("L", cap),
            ("A", cap),
        }
        assert state["owner"][str(cap)] == role
    assert order == ["Player1", "Player2", "Player3"]  # "starting with the youngest"
    order = []
    for _ in range(6):
        (d,) = GAME.pending(state)
        order.append(d.roles[0])
        state = _act(state, GAME.legal(state, d.roles[0])[0])
    assert order == ["Player1", "Player2", "Player3"] * 2
    assert state["stage"] == "campaign" and state["turn"] == 1 and state["campaign"] == 1
    for role in state["players"]:
        kinds = Counter(p["kind"] for p in state["pieces"] if p["owner"] == role)
        assert kinds == {"L": 1, "A": 1, "M": 2}
        assert len(rules.centres_of(state, role)) == 3


def test_placement_only_in_own_kingdom_and_free_centres() -> None:
    state = _setup(3)
    role = GAME.pending(state)[0].roles[0]
    mine = rules.kingdom_of(state, role)
    foreign = next(c for c in RULES.map.centres() if RULES.map.kingdom_of(c) != mine)
    with pytest.raises(IllegalLine):
        GAME.parse(state, role, f"CAPITAL {foreign}")
    non_centre = next(
        n for n, p in RULES.map.provinces.items() if p.kingdom == mine and not p.centre
    )
    with pytest.raises(IllegalLine):
        GAME.parse(state, role, f"CAPITAL {non_centre}")
    other = state["players"][1]
    with pytest.raises(IllegalLine, match="turn"):
        GAME.parse(state, other, GAME.legal(state, role)[0])


def test_rename_character() -> None:
    """Rulebook: "Players may name their characters as they please"."""
    state = _setup(3)
    role = GAME.pending(state)[0].roles[0]
    action = GAME.parse(state, role, "NAME cao mengde")
    assert action.text == "NAME Cao Mengde"
    new, _events = GAME.act(state, role, action, rng())
    assert new["characters"][role]["name"] == "Cao Mengde"
    assert GAME.pending(new) == GAME.pending(state)  # still that player's turn to place


def test_default_placement() -> None:
    """At the deadline a player who did not place takes the lowest free centre."""
    state = _setup(3)
    (d,) = GAME.pending(state)
    action = GAME.default(state, d, d.roles[0])
    assert action is not None and action.text == GAME.legal(state, d.roles[0])[0]

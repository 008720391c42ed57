"""Victory (rulebook, "To Win" and "Game Length")."""

from __future__ import annotations

from bench.support.three_kingdoms import play, position, texts
from judge_games.three_kingdoms import GAME, RULES, rules
from judge_games.three_kingdoms.board import BOARD

K3 = {"Player1": "Wei", "Player2": "Shu", "Player3": "Wu"}


def test_destined_victor_claims_fourteen_centres() -> None:
    """Rulebook: "Destined Victor: own 14 centers"; "A player may claim any of these as they
    occur"."""
    centres = BOARD.centres()
    s = position(K3, {"Player1": "L8 A8", "Player2": "L27 A27"}, owner={"Player1": centres[:14]})
    assert "CLAIM DESTINED" in GAME.legal(s, "Player1")
    s2, _ = play(s, {"Player1": ["CLAIM DESTINED"]})
    out = GAME.outcome(s2)
    assert out is not None and out.winners == ("Player1",) and "destined" in out.reason
    assert GAME.pending(s2) == []


def test_a_claim_that_does_not_hold_is_refused() -> None:
    s = position(K3, {"Player1": "L8 A8", "Player2": "L27 A27"}, owner={"Player1": [8]})
    assert "CLAIM DESTINED" not in GAME.legal(s, "Player1")
    s2, events = play(s, {"Player1": ["CLAIM DESTINED"]})
    assert GAME.outcome(s2) is None
    assert any("does not hold" in t for t in texts(events))


def test_unification() -> None:
    """Rulebook: "Unification Victory: Own a large number of the support centers in each of
    the three Kingdoms. (Six in Wei and 5 in each of the other two Kingdoms)." """
    own = BOARD.centres("Wei")[:6] + BOARD.centres("Shu")[:5] + BOARD.centres("Wu")[:4]
    s = position(K3, {"Player1": "L8 A8", "Player2": "L27"}, owner={"Player1": own}, destined=99)
    assert rules.victories(RULES.map, s, "Player1") == []
    s["owner"][str(BOARD.centres("Wu")[4])] = "Player1"
    assert rules.victories(RULES.map, s, "Player1") == ["unification"]
    s2, _ = play(s, {"Player1": ["CLAIM UNIFICATION"]})
    out = GAME.outcome(s2)
    assert out is not None and out.winners == ("Player1",)


def test_legendary_victory() -> None:
    """Rulebook: "Legendary Victory: be the only character left alive." """
    s = position(K3, {"Player1": "L8 A8", "Player2": "A27"})
    assert "legendary" in rules.victories(RULES.map, s, "Player1")
    assert "legendary" not in rules.victories(RULES.map, s, "Player2")
    s2, _ = play(s, {"Player1": ["CLAIM LEGENDARY"]})
    out = GAME.outcome(s2)
    assert out is not None and "legendary" in out.reason


def test_unsettled_victory_at_the_agreed_end() -> None:
    """Rulebook: "Unsettled Victory: have the most supply centers at the end of the game";
    "until an agreed time or turn (suggested is three hours or 10 Adjustment
    periods)": the option ``length`` (default 10) counts adjustment periods."""
    assert next(o.default for o in GAME.options if o.name == "length") == 10
    s = position(K3, {"Player1": "L8 A8 M6", "Player2": "L27 A27"}, length=1)
    s, _ = play(s, {})
    s, _ = play(s, {})
    if s["stage"] == "adjust":
        s, _ = play(s, {})
    out = GAME.outcome(s)
    assert out is not None and out.winners == ("Player1",) and "unsettled" in out.reason
    # A tie for the most centres is shared.
    t = position(K3, {"Player1": "L8 A8", "Player2": "L27 A27"}, length=1)
    t, _ = play(t, {})
    t, _ = play(t, {})
    out = GAME.outcome(t)
    assert out is not None and out.draw and out.winners == ("Player1", "Player2")


def test_unanimous_concession() -> None:
    """Rulebook: "A game may be played until there is a victory, there is a unanimous
    concession ...": every other player concedes to the same player."""
    s = position(K3, {"Player1": "L8 A8", "Player2": "L27 A27", "Player3": "L39 A39"})
    s2, _ = play(s, {"Player2": ["CONCEDE Player1"]})
    assert GAME.outcome(s2) is None
    s3, _ = play(s, {"Player2": ["CONCEDE Player1"], "Player3": ["CONCEDE Player1"]})
    out = GAME.outcome(s3)
    assert out is not None and out.winners == ("Player1",) and "concession" in out.reason


def test_agreed_draw_hooks() -> None:
    """The judge's DRAW vote: the survivors are the players still in the game (a
    piece or a centre), and an agreed draw ends the game shared by them."""
    s = position(K3, {"Player1": "L8 A8", "Player2": "L27 A27"})
    assert GAME.survivors(s) == ["Player1", "Player2"]
    ended = GAME.agreed_draw(s, ["Player2", "Player1"])
    out = GAME.outcome(ended)
    assert out is not None and out.draw and out.winners == ("Player1", "Player2")
    assert GAME.pending(ended) == [] and GAME.outcome(s) is None

"""A game from submitted decks (option ``decks=submitted``): the deck lists
sent are the decks played (Setup: "Remove your Base, Victory Conditions,
and Trophies from your deck")."""

from __future__ import annotations

from judge.game.rng import Rng
from judge_games.conquest_tactics import GAME
from judge_games.conquest_tactics.cards import POOL
from judge_games.conquest_tactics.decks import canonical


def test_the_decks_sent_are_the_decks_played() -> None:
    rng = Rng(bytes(32), 0)
    state = GAME.setup({"decks": "submitted"}, rng)
    assert state["stage"] == "decks"
    line = canonical(POOL.starters["kaborha"]).replace(
        "DECK Kaborha starter:", "DECK Pit Fighters:", 1)
    sent = GAME.parse(state, "South", line)
    # resolving once raised AttributeError: the deck's read-back was a (deck, breaches) pair
    new, events = GAME.resolve(state, {"South": [sent]}, rng)
    assert new["stage"] == "forces"
    south, north = new["p"]["South"], new["p"]["North"]
    assert south["deck"] == "Pit Fighters" and south["faction"] == "kaborha"
    assert sorted(south["supply"]) == sorted(POOL.starters["kaborha"].supply)
    assert new["bases"]["South"]["card"] == POOL.starters["kaborha"].base
    assert north["faction"] == "malice"  # no list sent: the option's starter deck
    assert [e.text for e in events] == [
        "South plays the deck 'Pit Fighters'.",
        "North sent no deck list and plays the malice starter deck."]

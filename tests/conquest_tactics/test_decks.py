"""Conquest Tactics deck lists: the text format, every guideline of the
rulebook's "Summary of Deck Building Guidelines" (each broken once, the
breach quoting the line and saying what would be right), unknown cards, the
one-line canonical form, and the four starter decks.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judge_games.conquest_tactics import cards as ct
from judge_games.conquest_tactics.cards import POOL, DataError, load
from judge_games.conquest_tactics.decks import (
    DECK_SIZE,
    Breach,
    DeckList,
    canonical,
    check,
    parse_canonical,
    parse_deck,
    parse_text,
)

HUMANS = (ct.DECKS_DIR / "humans.txt").read_text(encoding="utf-8")


def lines_of(text: str) -> list[str]:
    return text.splitlines()


def edited(replace: str, by: str, text: str = HUMANS) -> str:
    assert replace in lines_of(text), replace
    return "\n".join(by if ln == replace else ln for ln in lines_of(text))


def breaches_of(text: str) -> list[Breach]:
    deck, breaches = parse_text("test", text)
    assert deck is None
    assert breaches
    return breaches


def the_breach(text: str, quoted: str) -> Breach:
    """The one breach, quoting the line ``quoted`` with its right number."""
    breaches = breaches_of(text)
    assert len(breaches) == 1, [str(b) for b in breaches]
    b = breaches[0]
    assert b.line_text == quoted
    assert lines_of(text)[b.line_no - 1].strip() == quoted
    assert str(b).startswith(f'line {b.line_no} "{quoted}": ')
    assert "(Summary of Deck Building Guidelines)" in b.message or "Bases" in b.message
    return b


# --------------------------------------------------------------------------- the starters


@pytest.mark.parametrize("faction", ["kaborha", "malice", "humans", "gunget"])
def test_each_starter_is_legal_and_68_cards(faction: str) -> None:
    """Card Types and Deckbuilding: "exactly sixty-eight cards"; the starter
    reads without a breach and passes every guideline."""
    deck = POOL.starters[faction]
    assert len(deck.ids) == DECK_SIZE == 68
    assert (len(deck.victories), len(deck.trophies), len(deck.supply)) == (4, 3, 60)
    assert POOL.card(deck.base).type == "base"
    assert check(deck) == []
    text = (ct.DECKS_DIR / f"{faction}.txt").read_text(encoding="utf-8")
    again, breaches = parse_text(deck.name, text)
    assert breaches == [] and again == deck


def test_a_starter_that_breaks_a_guideline_is_a_data_error(tmp_path: Path) -> None:
    """A starter deck is checked at import: six Archers stop the pool loading."""
    decks = tmp_path / "decks"
    shutil.copytree(ct.DECKS_DIR, decks)
    (decks / "humans.txt").write_text(edited("5 Archers", "6 Archers"), encoding="utf-8")
    with pytest.raises(DataError) as exc:
        load(ct.CARDS_DIR, decks)
    assert 'decks/humans.txt: line' in str(exc.value)
    assert '"6 Archers": at most five copies of a troop' in str(exc.value)


def test_starter_order_is_kept() -> None:
    """Victory Conditions and Trophies keep the listed order (the Trophy pile's)."""
    deck = POOL.starters["humans"]
    assert deck.victories == ("hold-the-field", "knights-oath", "siege-breaker", "standing-army")
    assert deck.trophies == ("royal-standard", "crown-treasury", "relic-of-light")
    assert deck.supply[:6] == ("footsoldiers",) * 5 + ("human-infantry-1",)


# --------------------------------------------------------------------------- the guidelines


def test_no_base() -> None:
    """One Base: without one the breach names the deck and suggests Bases."""
    breaches = breaches_of(edited("Human Keep", "# no base"))
    assert len(breaches) == 1
    assert breaches[0].line_no == 0
    assert str(breaches[0]).startswith("the deck: one and only one Base must be carried")
    assert '"Human Keep"' in breaches[0].hint


def test_two_bases() -> None:
    """One Base: a second one is refused on its line."""
    b = the_breach(edited("Human Keep", "Human Keep\nHuman Outpost"), "Human Outpost")
    assert "one and only one Base" in b.message
    assert b.hint == "carry 0" or "remove 1 Base" in b.hint


def test_two_copies_of_the_base_on_one_line() -> None:
    """One Base: "2 Human Keep" should be 1."""
    b = the_breach(edited("Human Keep", "2 Human Keep"), "2 Human Keep")
    assert b.hint == "carry 1"


def test_five_victory_conditions() -> None:
    """Four Victory Conditions: a fifth is too many."""
    text = edited("Standing Army", "Standing Army\nRaze the Walls")
    b = the_breach(text, "Raze the Walls")
    assert "exactly four Victory Conditions" in b.message
    assert "remove 1 Victory Condition (5 listed in all)" in b.hint


def test_three_victory_conditions() -> None:
    """Four Victory Conditions: three are too few."""
    b = the_breach(edited("Standing Army", ""), "Siege Breaker")
    assert b.hint == "add 1 more Victory Condition (3 listed)"


def test_three_copies_of_a_victory_condition() -> None:
    """No more than two copies of any Victory Condition."""
    text = edited("Siege Breaker", "").replace("Standing Army", "3 Standing Army")
    text = edited("Knight's Oath", "", text)
    text = edited("Hold the Field", "", text)
    text = text.replace("3 Standing Army", "3 Standing Army\nKnight's Oath")
    b = the_breach(text, "3 Standing Army")
    assert "at most two copies of a Victory Condition" in b.message
    assert b.hint == "carry 2"


def test_two_trophies() -> None:
    """Three Trophies: two are too few."""
    b = the_breach(edited("Relic of Light", ""), "Crown Treasury")
    assert "exactly three Trophies" in b.message and b.hint == "add 1 more Trophy (2 listed)"


def test_a_trophy_twice() -> None:
    """No more than one copy of any Trophy."""
    text = edited("Relic of Light", "Crown Treasury")
    b = the_breach(text, "Crown Treasury")
    assert "at most one copy of a Trophy" in b.message
    assert b.line_no == lines_of(text).index("Crown Treasury", 12) + 1
    assert "drop this line" in b.hint


def test_supply_of_61() -> None:
    """Supply Pile- 60 cards: one more is refused at the line where the count
    passes 60 (here the last)."""
    b = the_breach(edited("1 Human Paladin", "2 Human Paladin"), "Royal Decree")
    assert "exactly sixty cards" in b.message
    assert "remove 1 supply card (61 listed in all)" in b.hint


def test_supply_of_59() -> None:
    """Supply Pile- 60 cards: one fewer is refused, quoting the last supply line."""
    b = the_breach(edited("2 Longsword", "1 Longsword"), "Royal Decree")
    assert b.hint == "add 1 more supply card (59 listed)"


def test_six_circumstances() -> None:
    """Up to five Circumstances."""
    text = edited("Royal Decree", "Royal Decree\nHex").replace("1 Human Paladin", "# none")
    b = the_breach(text, "Hex")
    assert "at most five Circumstances" in b.message
    assert "remove 1 Circumstance (6 listed in all)" in b.hint


def test_a_circumstance_twice() -> None:
    """No more than one copy of any Circumstance."""
    b = the_breach(edited("Royal Decree", "Rally"), "Rally")
    assert "at most one copy of a Circumstance" in b.message


def test_six_copies_of_a_troop() -> None:
    """No more than five copies of any Troop: the rulebook's example line."""
    text = edited("5 Archers", "6 Archers").replace("1 Human Paladin", "# no paladin")
    b = the_breach(text, "6 Archers")
    assert str(b) == (f'line {b.line_no} "6 Archers": at most five copies of a troop may be '
                      f"carried (Summary of Deck Building Guidelines); carry 5")


def test_a_troop_over_two_lines() -> None:
    """No more than five copies of any Troop, counted over every line."""
    text = edited("1 Human Paladin", "1 Archers")
    b = the_breach(text, "1 Archers")
    assert "at most five copies of a troop" in b.message
    assert "drop this line (6 copies in all on lines" in b.hint


def test_four_copies_of_a_spell() -> None:
    """No more than three copies of any Spell."""
    text = edited("2 Holy Smite", "4 Holy Smite").replace("2 Longsword", "# none")
    b = the_breach(text, "4 Holy Smite")
    assert "at most three copies of a Spell, Skill or Equipment" in b.message
    assert b.hint == "carry 3"


def test_four_copies_of_a_skill() -> None:
    """No more than three copies of any Skill."""
    text = edited("3 Aimed Shot", "4 Aimed Shot").replace("1 Pinning Shot", "# none")
    assert the_breach(text, "4 Aimed Shot").hint == "carry 3"


def test_four_copies_of_equipment() -> None:
    """No more than three copies of any Equipment."""
    text = edited("2 Longsword", "4 Longsword").replace("2 Tower Shield", "# none")
    assert the_breach(text, "4 Longsword").hint == "carry 3"


def test_the_base_limits_the_troops() -> None:
    """Bases: the Human Keep allows Human troops only; the Human Outpost any.

    Bases: "Many Bases limit the types of troops you may have in your deck".
    """
    text = edited("1 Human Paladin", "1 Kaborha Brawler")
    b = the_breach(text, "1 Kaborha Brawler")
    assert 'the Base "Human Keep" allows only troops of Humans' in b.message
    assert '"Human Outpost"' in b.hint and '"Kaborha Fighting Pits"' in b.hint
    deck, breaches = parse_text("mixed", edited("Human Keep", "Human Outpost", text))
    assert breaches == [] and deck is not None


def test_every_breach_is_reported() -> None:
    """Several guidelines broken at once: each is reported."""
    text = edited("5 Archers", "6 Archers")
    text = edited("2 Longsword", "4 Longsword", text)
    text = edited("Relic of Light", "Crown Treasury", text)
    messages = [b.message for b in breaches_of(text)]
    assert any("five copies of a troop" in m for m in messages)
    assert any("three copies of a Spell" in m for m in messages)
    assert any("one copy of a Trophy" in m for m in messages)
    assert any("exactly sixty cards" in m for m in messages)


def test_check_of_a_deck_list_made_by_hand() -> None:
    """check() works on any DeckList; the lines quoted are canonical entries."""
    start = POOL.starters["kaborha"]
    deck = DeckList("bad", "", start.victories[:3], start.trophies, start.supply)
    breaches = check(deck)
    assert [b.line_no for b in breaches] == [0, 3]
    assert breaches[1].line_text == "1 break-the-gates"
    wrong = DeckList("bad", "archers", start.victories, start.trophies, start.supply)
    assert any('"Archers" is a troop, not the Base' in b.message for b in check(wrong))


# --------------------------------------------------------------------------- the text format


def test_format_forms() -> None:
    """Counts, no count, comments, blank lines, levels written several ways."""
    text = HUMANS.replace("4 Human Infantry level 1", "4 human-infantry-1")
    text = text.replace("2 Human Infantry level 2", "2 HUMAN INFANTRY 2")
    text = text.replace("3 Human Defensive Infantry level 2",
                        "3 Human Defensive Infantry (level 2)")
    deck, breaches = parse_text("forms", text)
    assert breaches == [] and deck == POOL.starters["humans"].__class__(
        "forms", *[getattr(POOL.starters["humans"], f)
                   for f in ("base", "victories", "trophies", "supply")])


def test_a_shared_name_needs_its_level() -> None:
    """Human Infantry is printed at two levels: the line must say which."""
    breaches = breaches_of(edited("4 Human Infantry level 1", "4 Human Infantry"))
    assert len(breaches) == 1
    assert breaches[0].line_text == "4 Human Infantry"
    assert breaches[0].hint == 'write "Human Infantry level 1" or "Human Infantry level 2"'


def test_a_level_that_is_not_printed() -> None:
    """A level the name is not printed at."""
    breaches = breaches_of(edited("1 Human Paladin", "1 Human Paladin level 3"))
    assert breaches[0].message == '"Human Paladin" is printed at level 4, not at level 3'


def test_an_unknown_card_gets_the_nearest_names() -> None:
    """An unknown name: the breach quotes the line and offers near names."""
    breaches = breaches_of(edited("5 Footsoldiers", "5 Footsoliders"))
    assert len(breaches) == 1
    b = breaches[0]
    assert b.line_text == "5 Footsoliders"
    assert b.message == 'no card is named "Footsoliders"'
    assert b.hint.startswith('did you mean "Footsoldiers"')


def test_a_zero_count() -> None:
    """A count must be 1 or more."""
    breaches = breaches_of(edited("1 Human Paladin", "0 Human Paladin"))
    assert breaches[0].message == "a count must be 1 or more"


def test_an_empty_list() -> None:
    """A list of comments only names no cards."""
    deck, breaches = parse_deck("empty", [(1, "# nothing"), (2, "")])
    assert deck is None and breaches[0].message == "the deck list names no cards"


# --------------------------------------------------------------------------- canonical


@pytest.mark.parametrize("faction", ["kaborha", "malice", "humans", "gunget"])
def test_canonical_round_trip(faction: str) -> None:
    """canonical() is one line that parse_canonical() reads back to the deck."""
    deck = POOL.starters[faction]
    text = canonical(deck)
    assert "\n" not in text and text.startswith(f"DECK {deck.name}: 1 {deck.base}; ")
    again, breaches = parse_canonical(text)
    assert breaches == [] and again == deck


def test_canonical_keeps_the_order_of_repeats() -> None:
    """Copies listed apart stay apart, so the round trip keeps the order."""
    text = edited("1 Human Paladin", "# none").replace("5 Footsoldiers", "4 Footsoldiers")
    text += "\n1 Footsoldiers\n1 Human Paladin"
    deck, breaches = parse_text("apart", text)
    assert breaches == [] and deck is not None
    assert deck.supply[-2:] == ("footsoldiers", "human-paladin")
    assert parse_canonical(canonical(deck))[0] == deck


def test_parse_canonical_reports_breaches() -> None:
    """A canonical line with an illegal count is refused like a deck list."""
    text = canonical(POOL.starters["humans"]).replace("5 archers", "6 archers")
    deck, breaches = parse_canonical(text)
    assert deck is None
    assert any(b.line_text == "6 archers" and b.hint == "carry 5" for b in breaches)
    assert parse_canonical("not a deck")[1][0].message.startswith("a one-line deck starts")


def test_canonical_refuses_a_name_it_could_not_read_back() -> None:
    """A name with a colon or semicolon cannot be written on one line."""
    deck = POOL.starters["humans"]
    with pytest.raises(ValueError):
        canonical(DeckList("a: b", deck.base, deck.victories, deck.trophies, deck.supply))

"""Conquest Tactics cards: the faction files fit their schema (a broken copy
is refused with every problem named by file and card), every card the
rulebook names exists with the rulebook's facts, troops upgrade as the
Mobilize passage says, and the pool is what judge_games/conquest_tactics/README.md
promises.

Passages of the rulebook are quoted in docstrings on lines beginning with
``> ``; :func:`test_quoted_passages_are_the_rulebooks` checks each of them
against the rulebook text.
"""

from __future__ import annotations

import inspect
import json
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from judge_games.conquest_tactics import cards as ct
from judge_games.conquest_tactics.cards import POOL, Card, DataError, can_upgrade, load
from tests.support import rulebooks


def rulebook_text() -> str:
    """The rulebook (../shared/rules; the test is skipped without it)."""
    return rulebooks.text("rules/conquest-tactics.txt")

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "schemas"
                     / ct.SCHEMA).read_text(encoding="utf-8"))


def flat(text: str) -> str:
    return " ".join(text.split())


def one(name: str, level: int | None = None) -> Card:
    found = POOL.lookup(name, level=level)
    assert len(found) == 1, (name, level, found)
    return found[0]


def broken(tmp_path: Path, faction: str, change: Callable[[dict[str, Any]], None]) -> str:
    """The DataError of the card files with one faction file changed."""
    folder = tmp_path / "cards"
    shutil.copytree(ct.CARDS_DIR, folder)
    path = folder / f"{faction}.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    with pytest.raises(DataError) as exc:
        load(folder, None)
    return str(exc.value)


def raw_card(doc: dict[str, Any], name: str) -> dict[str, Any]:
    for raw in doc["cards"]:
        if raw["name"] == name:
            assert isinstance(raw, dict)
            return raw
    raise AssertionError(name)


# --------------------------------------------------------------------------- the schema


def test_schema_vocabularies_are_cards_py() -> None:
    """The schema's enums are exactly the closed vocabularies of cards.py, so
    a file cannot say anything the engine does not carry out."""
    defs = SCHEMA["$defs"]
    assert tuple(defs["effect"]["properties"]["do"]["enum"]) == ct.EFFECT_KINDS
    assert tuple(defs["ability"]["properties"]["when"]["enum"]) == ct.WHENS
    assert tuple(defs["target"]["enum"]) == ct.TARGETS
    assert tuple(defs["stat"]["enum"]) == ct.STATS
    assert tuple(defs["school"]["enum"]) == ct.SCHOOLS
    assert tuple(defs["condition"]["properties"]["kind"]["enum"]) == ct.CONDITION_KINDS
    assert tuple(defs["condition"]["properties"]["zone"]["enum"]) == ct.ZONES
    assert tuple(defs["card"]["properties"]["type"]["enum"]) == ct.CARD_TYPES
    by_type = {b["if"]["properties"]["type"].get("const", None): b["then"]["properties"]
               for b in defs["card"]["allOf"]}
    assert tuple(by_type["equipment"]["slot"]["enum"]) == ct.EQUIPMENT_SLOTS
    assert tuple(by_type["circumstance"]["kind"]["enum"]) == ct.CIRCUMSTANCE_KINDS
    assert tuple(by_type[None]["kind"]["enum"]) == ct.SPELL_KINDS


def test_the_files_load() -> None:
    """Four factions, each file named after its faction."""
    assert sorted(POOL.factions) == ["gunget", "humans", "kaborha", "malice"]
    assert {c.faction for c in POOL.cards.values()} == set(POOL.factions)


def test_schema_refuses_a_free_text_effect(tmp_path: Path) -> None:
    """An effect must be one of EFFECT_KINDS: free text is refused, naming the
    file, the card and the field."""
    def change(doc: dict[str, Any]) -> None:
        raw_card(doc, "Trample")["effects"][0]["do"] = "deal 3 damage to everything nearby"
    message = broken(tmp_path, "kaborha", change)
    assert "kaborha.yaml: Trample: effects.0.do: " in message
    assert "is not one of" in message


def test_schema_refuses_a_missing_field(tmp_path: Path) -> None:
    """A troop without its health is refused."""
    def change(doc: dict[str, Any]) -> None:
        del raw_card(doc, "Archers")["health"]
    message = broken(tmp_path, "humans", change)
    assert "humans.yaml: Archers: 'health' is a required property" in message


def test_schema_refuses_a_field_of_another_type(tmp_path: Path) -> None:
    """Icons are printed on troops only; a spell carrying icons is refused."""
    def change(doc: dict[str, Any]) -> None:
        raw_card(doc, "Shadow Bolt")["icons"] = ["dark"]
    message = broken(tmp_path, "malice", change)
    assert "malice.yaml: Shadow Bolt: " in message and "'icons' was unexpected" in message


def test_a_bare_on_is_explained(tmp_path: Path) -> None:
    """YAML reads a bare ``on:`` key as true; the loader says so."""
    folder = tmp_path / "cards"
    shutil.copytree(ct.CARDS_DIR, folder)
    path = folder / "gunget.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace('"on": self', "on: self", 1),
                    encoding="utf-8")
    with pytest.raises(DataError, match=r'gunget.yaml: \(file\): .*write "on" in quotes'):
        load(folder, None)


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    """Two cross-card problems in one file come back together, one a line:
    a troop knowing a school above its level, a level 2 troop nothing
    upgrades to."""
    def change(doc: dict[str, Any]) -> None:
        raw_card(doc, "Malice Convert")["icons"] = {"dark": 3}
        raw_card(doc, "Malice Ghoul")["classification"] = "ghoul"
    message = broken(tmp_path, "malice", change)
    lines = message.splitlines()
    assert any(ln.startswith("malice.yaml: Malice Convert: knows dark at level 3") for ln in lines)
    assert any(ln.startswith("malice.yaml: Malice Dread Guard: no level 1 troop") for ln in lines)


def test_a_name_twice_is_refused(tmp_path: Path) -> None:
    """Names of cards other than troops' levels must be unique in the pool."""
    def change(doc: dict[str, Any]) -> None:
        raw_card(doc, "Absorb")["name"] = "Parry"
    message = broken(tmp_path, "gunget", change)
    assert "its id 'parry' is already taken" in message


def test_a_weaker_redeem_is_refused(tmp_path: Path) -> None:
    """Trophies: Redeem is the powerful option, Recycle the less powerful.

    > Redeem allows you to use a powerful effect but removes the Trophy from the game.
    > Recycle results in a less powerful effect
    """
    def change(doc: dict[str, Any]) -> None:
        raw_card(doc, "Crown Treasury")["redeem"][0]["amount"] = 1
    message = broken(tmp_path, "humans", change)
    assert "humans.yaml: Crown Treasury: Redeem must be stronger than Recycle" in message


# --------------------------------------------------------------------------- the rulebook's cards


def test_kaborha_tier_1_contender() -> None:
    """Mobilize, example: a Kaborha troop of level 1 costing four.

    > Example: In the first turn a player wants to deploy a Kaborha Tier 1 Contender which
    > costs four Tactical Points.
    """
    card = one("Kaborha Tier 1 Contender")
    assert (card.type, card.faction, card.level, card.cost) == ("troop", "kaborha", 1, 4)
    assert card.id == "kaborha-tier-1-contender"


def test_human_infantry_levels() -> None:
    """Mobilize: Human Infantry and Human Defensive Infantry both exist at
    levels 1 and 2, the defensive ones a specialization of infantry.

    > a Level 1 Human Infantry can upgrade to a Level 2 Human Defensive Infantry, but a
    > Level 1 Human Defensive Infantry cannot upgrade to a Level 2 Human Infantry.
    """
    for name in ("Human Infantry", "Human Defensive Infantry"):
        found = POOL.lookup(name)
        assert [c.level for c in found] == [1, 2]
        assert {c.faction for c in found} == {"humans"}
    assert one("Human Infantry", 1).classification == "infantry"
    assert one("Human Defensive Infantry", 1).classification == "infantry/defensive"


def test_upgrade_towards_a_specialization_is_allowed() -> None:
    """Mobilize: specializing on an upgrade is allowed.

    > Troops can become more specialized as they upgrade but specializations cannot be reversed.
    """
    lower = one("Human Infantry", 1)
    upper = one("Human Defensive Infantry", 2)
    assert can_upgrade(lower, upper)
    assert upper in POOL.upgrades(lower)
    assert one("Human Infantry", 2) in POOL.upgrades(lower)


def test_upgrade_reversing_a_specialization_is_refused() -> None:
    """Mobilize: a Level 1 Human Defensive Infantry cannot upgrade to a Level 2
    Human Infantry.

    > but a Level 1 Human Defensive Infantry cannot upgrade to a Level 2 Human Infantry.
    """
    lower = one("Human Defensive Infantry", 1)
    assert not can_upgrade(lower, one("Human Infantry", 2))
    assert POOL.upgrades(lower) == [one("Human Defensive Infantry", 2)]


def test_upgrades_go_one_level_at_a_time() -> None:
    """Mobilize: no skipping levels, and only within the faction.

    > Troops must always upgrade in consecutive levels (a Level 1 cannot upgrade to a Level 3)
    """
    assert not can_upgrade(one("Human Infantry", 1), one("Human Shield Captain"))
    assert not can_upgrade(one("Human Infantry", 2), one("Human Infantry", 1))
    assert all(u.level == 2 for u in POOL.upgrades(one("Human Infantry", 1)))
    brawler = one("Kaborha Brawler")
    assert all(u.faction == "kaborha" for u in POOL.upgrades(brawler))


def test_some_troop_of_each_faction_rises_to_level_4() -> None:
    """Every faction can raise a troop from level 1 to level 4 (and from 0 to
    1), so each raise_troop Victory Condition can be met."""
    for faction in POOL.factions:
        troops = POOL.of_faction(faction, types="troop")
        assert ct._chain(troops, 1, 4), faction
        assert ct._chain(troops, 0, 1), faction


def test_veteran_heretic_fire_mage() -> None:
    """Cast Spell, Example 1: level 2, knows Fire Magic at its level.

    > A Level 2 Veteran Heretic Fire Mage knows Fire Magic and is Level 2. Therefore it
    > knows all Level 1 and Level 2 Fire Spells.
    """
    card = one("Veteran Heretic Fire Mage")
    assert (card.faction, card.level, card.knows("fire")) == ("malice", 2, 2)


def test_malice_convert() -> None:
    """Cast Spell, Example 1: level 1, Dark Magic at level 1 only.

    > a Level 1 Malice Convert has knowledge of dark magic but can only cast Level 1 Dark
    > Magic Spells.
    """
    card = one("Malice Convert")
    assert (card.faction, card.level, card.knows("dark")) == ("malice", 1, 1)


def test_demonhunter_knows_fire_at_2() -> None:
    """Cast Spell, Example 2: a level 3 troop whose Fire Magic stops at level 2.

    > A Level 3 Demonhunter knows Fire Magic, but the card states that he only knows Level 2
    > Fire Magic.
    """
    card = one("Demonhunter")
    assert (card.faction, card.level, card.knows("fire")) == ("humans", 3, 2)
    assert "fire" in card.icons


def test_archers_have_no_melee() -> None:
    """Melee Attack: a range of 2-4 excludes range 1.

    > Many troops with ranged skill have an attack range of 2-4, which specifically excludes
    > Range 1. These troops may not melee attack.
    """
    card = one("Archers")
    assert (card.faction, card.range_min, card.range_max) == ("humans", 2, 4)


def test_a_single_range_value_includes_melee() -> None:
    """Melee Attack: "Range 5" means 1-5.

    > Other cards may have a single range value such as Range 5. It is assumed in this case
    > that they have an attack range of 1-5
    """
    assert ct._range("5") == (1, 5)
    marksmen = one("Human Marksmen")
    assert (marksmen.range_min, marksmen.range_max) == (1, 4)
    assert (one("Human Infantry", 1).range_min, one("Human Infantry", 1).range_max) == (1, 1)


def test_footsoldiers_spelling() -> None:
    """Line of sight examples: the rulebook's "Footsoliders" are our Humans'
    Footsoldiers (the one misspelling is not a card name).

    > the line of sight is NOT blocked by the friendly Footsoliders.
    """
    assert one("Footsoldiers").faction == "humans"
    assert POOL.lookup("Footsoliders") == []


def test_the_line_of_sight_gungets() -> None:
    """Line of sight examples: four Gunget troops.

    > The Archers may NOT attack this Noxious Gunget with a ranged attack as the line of
    > sight is blocked by the Buff Gunget.
    """
    for name in ("Noxious Gunget", "Buff Gunget", "Exploding Gunget", "Gunget with a Sword"):
        card = one(name)
        assert (card.type, card.faction) == ("troop", "gunget")


def test_x_costs_the_level() -> None:
    """Setup and Mobilize: an "X" cost is the card's level.

    > If the cost of a Spell is listed as "X", it will instead cost a number of Tactical
    > Points equivalent to its level.
    """
    xs = [c for c in POOL.cards.values() if c.printed_cost == "X"]
    assert xs
    assert all(c.cost == c.level for c in xs)
    flame = one("Flame Lance")
    assert (flame.printed_cost, flame.level, flame.cost) == ("X", 2, 2)
    assert ct.parse_cost("X", 3) == (3, "X")


def test_plus_y_costs_y_to_deploy() -> None:
    """Setup and Mobilize: a "+Y" cost is Y to deploy or learn (and the
    troop's attack cost plus Y to use, Use Skill).

    > If a Spell or Skill is cost "+Y" use Y as the cost for deployment.
    """
    blow = one("Crushing Blow")
    assert (blow.type, blow.printed_cost, blow.cost) == ("skill", "+1", 1)
    assert (blow.damage, blow.damage_is_bonus) == (1, True)
    strike = one("Whirlwind Strike")
    assert (strike.printed_cost, strike.cost) == ("+2", 2)
    assert ct.parse_cost("+2", 1) == (2, "+2")


def test_spells_and_skills_by_school() -> None:
    """Spells & Skills: the six schools; Dark, Fire and Light are Magic."""
    for card in POOL.cards.values():
        if card.type == "spell":
            assert card.school in ct.SPELL_SCHOOLS, card.name
        if card.type == "skill":
            assert card.school in ct.SKILL_SCHOOLS, card.name
    kinds = {c.kind for c in POOL.cards.values() if c.type in ("spell", "skill")}
    assert kinds == set(ct.SPELL_KINDS)


def test_equipment_slots() -> None:
    """Equipment: every slot is printed on some card.

    > There are three different types of Equipment: Accessories, Armor, and Weapons.
    """
    for faction in POOL.factions:
        slots = {c.slot for c in POOL.of_faction(faction, types="equipment")}
        assert slots == set(ct.EQUIPMENT_SLOTS), faction


def test_circumstance_kinds() -> None:
    """Play Circumstance: three categories, each in each faction, and at
    least five Circumstances per faction (a deck may carry five, all
    different).

    > Mobilization Circumstances must be played during the Mobilize phase of a turn. Control
    > Circumstances are used in the Play phase by the player who has control.
    """
    for faction in POOL.factions:
        found = POOL.of_faction(faction, types="circumstance")
        assert len(found) >= 5
        assert {c.kind for c in found} == set(ct.CIRCUMSTANCE_KINDS), faction


def test_each_faction_has_a_playable_pool() -> None:
    """README, The cards: the counts per faction."""
    for faction in POOL.factions:
        count = {t: len(POOL.of_faction(faction, types=t)) for t in ct.CARD_TYPES}
        assert 10 <= count["troop"] <= 14, faction
        assert 5 <= count["spell"] + count["skill"] <= 7, faction
        assert 3 <= count["equipment"] <= 4, faction
        assert count["base"] == 2, faction
        assert 3 <= count["victory"] <= 4, faction
        assert 3 <= count["trophy"] <= 4, faction
        levels = {c.level for c in POOL.of_faction(faction, types="troop")}
        assert levels == {0, 1, 2, 3, 4}, faction


def test_numbers_stay_small() -> None:
    """README: the numbers suit a 5x5 board and 5, 7, 9... Tactical Points."""
    for c in POOL.cards.values():
        if c.type == "troop":
            assert 2 <= c.health <= 10 and 1 <= c.attack <= 5 and 1 <= c.cost <= 6, c.name
            assert 1 <= c.range_min <= c.range_max <= 5
            assert all(1 <= n <= c.level for n in c.icons.values()), c.name
        if c.type == "base":
            assert 12 <= c.health <= 16


def test_icons_only_on_troops() -> None:
    """Only troops print Spell/Skill icons (Troops: the card diagram)."""
    assert all(not c.icons for c in POOL.cards.values() if c.type != "troop")


# --------------------------------------------------------------------------- ids and lookups


def test_ids_are_computed_by_one_rule() -> None:
    """README, the id rule: the slug of the name, and for a troop whose name
    is printed at several levels ``<slug>-<level>``."""
    assert one("Human Infantry", 2).id == "human-infantry-2"
    assert one("Human Defensive Infantry", 1).id == "human-defensive-infantry-1"
    assert one("Champion's Belt").id == "champions-belt"
    assert one("Gunget with a Sword").id == "gunget-with-a-sword"
    for card in POOL.cards.values():
        shared = len(POOL.lookup(card.name)) > 1
        expected = ct.slug(card.name) + (f"-{card.level}" if shared else "")
        assert card.id == expected


def test_lookup_forms() -> None:
    """An id or a name in any case and punctuation; a shared name gives every
    level unless a level is asked for; ``types`` filters."""
    assert POOL.lookup("ARCHERS") == POOL.lookup("archers") == [POOL.card("archers")]
    assert POOL.lookup("champions belt") == [POOL.card("champions-belt")]
    assert POOL.lookup("Human-Infantry-2") == [POOL.card("human-infantry-2")]
    assert len(POOL.lookup("human infantry")) == 2
    assert POOL.lookup("Human Infantry", level=1) == [POOL.card("human-infantry-1")]
    assert POOL.lookup("Archers", types=("spell",)) == []
    assert POOL.lookup("Archers", types="troop") == [POOL.card("archers")]
    with pytest.raises(KeyError):
        POOL.card("Archers")


def test_the_pool_is_immutable() -> None:
    """The pool and its cards cannot be changed."""
    with pytest.raises(TypeError):
        POOL.cards["archers"] = POOL.card("archers")  # type: ignore[index]  # refused, as tested
    with pytest.raises(TypeError):
        one("Demonhunter").icons["fire"] = 3  # type: ignore[index]  # refused, as tested
    with pytest.raises(AttributeError):
        POOL.card("archers").cost = 1  # type: ignore[misc]  # a frozen card: refused, as tested


def test_quoted_passages_are_the_rulebooks() -> None:
    """Every ``> `` passage in this module's docstrings is in the rulebook."""
    rulebook = flat(rulebook_text())
    quotes = 0
    for _, func in inspect.getmembers(sys.modules[__name__], inspect.isfunction):
        doc = inspect.getdoc(func) or ""
        for block in re.split(r"\n\s*\n", doc):
            lines = [ln[2:] for ln in block.splitlines() if ln.startswith("> ")]
            if lines:
                quotes += 1
                assert flat(" ".join(lines)) in rulebook, f"{func.__name__}: {lines}"
    assert quotes >= 12

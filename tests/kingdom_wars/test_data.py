"""Kingdom Wars data: the three files load and fit their schemas, hold the
rulebook's counts, names and numbers and the shared data files' facts, and a
broken copy of any file is refused with an error that names the file and
the field (judge_games/kingdom_wars/README.md).

Passages of the rulebook are quoted in docstrings on lines beginning with
``> ``; :func:`test_quoted_passages_are_the_rulebooks` checks each of them
against the rulebook text.
"""

from __future__ import annotations

import csv
import inspect
import re
import shutil
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from judge import reports
from judge.game import registry
from judge_games.kingdom_wars import data as kw
from judge_games.kingdom_wars.data import DATA, DataError, load
from tests.support import rulebooks


def rulebook_text() -> str:
    """The rulebook (../shared/rules; the test is skipped without it)."""
    return rulebooks.text("rules/kingdom-wars.txt")

FILES = (kw.GENERALS_FILE, kw.SKILLS_FILE, kw.DECK_FILE)


def flat(text: str) -> str:
    return " ".join(text.split())


def section(start: str, end: str) -> list[str]:
    """The rulebook's lines after the line ``start`` up to the line ``end``."""
    return rulebook_text().split(f"\n{start}\n", 1)[1].split(f"\n{end}\n", 1)[0].splitlines()


def tsv(name: str) -> list[dict[str, str]]:
    lines = rulebooks.text(f"data/{name}").splitlines()
    return list(csv.DictReader([ln for ln in lines if not ln.startswith("#")], delimiter="\t"))


# --------------------------------------------------------------------------- loading


@pytest.mark.parametrize("name", FILES)
def test_each_file_fits_its_schema(name: str) -> None:
    doc = yaml.safe_load((kw.HERE / name).read_text(encoding="utf-8"))
    errors = list(reports.validator(kw.SCHEMAS[name]).iter_errors(doc))
    assert not errors, [e.message for e in errors]


def test_the_files_load_into_typed_frozen_records() -> None:
    assert load() is not DATA  # a fresh load of the shipped files succeeds
    general = DATA.generals["cao-cao"]
    assert isinstance(general, kw.General)
    with pytest.raises(AttributeError):
        general.kingdom = "Shu"  # type: ignore[misc]  # a frozen record: refused, as tested
    assert isinstance(DATA.skills["berserk"], kw.Skill)
    assert isinstance(DATA.cards["attack"], kw.Card)
    assert isinstance(DATA.deck[0], kw.DeckCard)


def test_the_package_is_offered_as_a_game_on_its_data() -> None:
    """The registry offers the game, by id and alias, built on these data."""
    package = sys.modules["judge_games.kingdom_wars"]
    assert package.DATA is DATA
    assert "kingdom_wars" in [g.id for g in registry.available()]
    assert registry.get("kingdom_wars") is package.GAME
    assert registry.get("kingdom-wars") is package.GAME


# --------------------------------------------------------------------------- counts


def test_sixty_generals_fifteen_of_each_kingdom() -> None:
    """Game Accessories and Forces:

    > - 60 General cards

    > The force that a General belongs to are displayed in the top left
    > corner, namely: "Wei", "Shu", "Wu", "Neutral".
    """
    assert len(DATA.generals) == 60
    assert Counter(g.kingdom for g in DATA.generals.values()) == dict.fromkeys(kw.KINGDOMS, 15)


def test_108_cards_by_suit_number_and_type() -> None:
    """Game Accessories:

    > - 108 Game cards

    The make-up is the deck TSV's (the rulebook lists no suits): 27 of each
    suit, eight of each number but ten of 2 and of Q, 54 basic, 34 spell
    (29 normal, 5 time-delay) and 20 equipment cards (10 weapons, 6 mounts,
    4 armors)."""
    deck = DATA.deck
    assert len(deck) == 108 == len({c.id for c in deck})
    assert Counter(c.suit for c in deck) == dict.fromkeys(kw.SUITS, 27)
    assert Counter(c.colour for c in deck) == {"red": 54, "black": 54}
    assert Counter(c.rank for c in deck) == {r: 10 if r in (2, 12) else 8 for r in range(1, 14)}
    assert Counter(c.type for c in deck) == {"basic": 54, "spell": 34, "equipment": 20}
    assert Counter(c.subtype for c in deck) == {
        None: 54, "normal": 29, "time-delay": 5, "weapon": 10, "mount": 6, "armor": 4
    }
    copies = {c.id: len(c.copies) for c in DATA.cards.values()}
    assert (copies["attack"], copies["fire-attack"], copies["thunder-attack"]) == (21, 3, 5)
    assert (copies["dodge"], copies["peach"], copies["wine"]) == (14, 8, 3)
    assert (copies["negation"], copies["negation-force"], copies["burning-bridges"]) == (1, 2, 3)


def test_copy_ids_follow_suit_then_number() -> None:
    """``<card>.<n>`` through spades, hearts, clubs, diamonds, by number."""
    attack = [DATA.deck_card(i) for i in DATA.cards["attack"].copies]
    assert [(c.suit, c.rank) for c in attack if c] == sorted(
        ((c.suit, c.rank) for c in attack if c), key=lambda sr: (kw.SUITS.index(sr[0]), sr[1])
    )
    first, last = DATA.deck_card("attack.1"), DATA.deck_card("attack.21")
    assert first is not None and (first.suit, first.rank_label) == ("spades", "5")
    assert last is not None
    assert (last.suit, last.rank_label, last.colour) == ("diamonds", "Q", "red")


# --------------------------------------------------------------------------- the rulebook


def appendix_generals() -> dict[str, list[tuple[str, str]]]:
    """Appendix II's "Generals" lists: kingdom -> [(name, title)] in order."""
    out: dict[str, list[tuple[str, str]]] = {}
    for kingdom in kw.KINGDOMS:
        lines = rulebook_text().split(f'\n"Generals" of {kingdom.upper()}\n', 1)[1].splitlines()
        entries = []
        for line in lines:
            if not line.startswith("- "):
                break
            name, title = line[2:].split(" — ", 1)
            entries.append((name, title))
        out[kingdom] = entries
    return out


def test_every_general_is_appendix_iis_in_its_kingdom_and_order() -> None:
    """Names and titles exactly as Appendix II prints them, e.g.

    > - Cao Cao — The Martial Emperor of Wei

    > - Younger Zhuge Liang — Sleeping Dragon

    > - Zhang Zhao & Zhang Hong — Brilliant Brothers
    """
    ours = {
        k: [(g.name, g.title) for g in DATA.generals.values() if g.kingdom == k]
        for k in kw.KINGDOMS
    }
    assert ours == appendix_generals()


def perfect_pair_summary() -> set[frozenset[str]]:
    """The rulebook's Perfect Pair Summary as pairs of our ids, with its two
    departures ruled in the README: Liu Chan is Liu Shan (ruling 11), and
    the expansion's Jiang Wei and Jiang Wan & Fei Yi are left out (ruling 9)."""
    pairs: set[frozenset[str]] = set()
    for line in rulebook_text().split("\nPerfect Pair Summary\n", 1)[1].splitlines():
        if not line.startswith("- "):
            continue
        a, b = (part.split(" (")[0] for part in line[2:].split(" --- "))
        if {a, b} & {"Jiang Wei", "Jiang Wan & Fei Yi"}:
            continue
        found = [DATA.general(a), DATA.general(b)]
        assert all(found), f"not a general: {line}"
        pairs.add(frozenset(g.id for g in found if g))
    return pairs


def test_perfect_pairs_are_the_rulebooks_and_work_both_ways() -> None:
    """Perfect Pair Summary, e.g.

    > - Cao Cao --- Xu Chu

    > - Younger Zhuge Liang --- Pang Tong

    > - Zhao Yun --- Liu Chan (printed as "Liu Chan" in this summary;
    > elsewhere in the book the same General is "Liu Shan")

    Huang Yueying pairs with Elder Zhuge Liang only (README, ruling 8)."""
    ours = {frozenset((g.id, p)) for g in DATA.generals.values() for p in g.partners}
    assert ours == perfect_pair_summary()
    assert len(ours) == 18
    for a, b in map(tuple, ours):
        assert DATA.perfect_pair(a, b) and DATA.perfect_pair(b, a)
    assert DATA.perfect_pair("huang-yueying", "elder-zhuge-liang")
    assert not DATA.perfect_pair("huang-yueying", "younger-zhuge-liang")
    assert DATA.general("Liu Chan") is DATA.generals["liu-shan"]


def test_max_health_from_half_circles() -> None:
    """Distribute Health cards:

    > Example: A Player has a General card with two complete Circles and a
    > General card with a complete Circle plus a Half-Circle, the maximum
    > Health Points of this Player is 3 (2+1.5=3.5, 3.5 is rounded down to 3).
    > After he/she exposes all General cards for the first time, he/she will
    > obtain a "Yin-Yang" Marker (for that separate Half-Circle).

    Cao Cao has two circles, Sima Yi one and a half."""
    assert DATA.generals["cao-cao"].circles == 2.0
    assert DATA.generals["sima-yi"].circles == 1.5
    assert DATA.max_hp("cao-cao", "sima-yi") == DATA.max_hp("sima-yi", "cao-cao") == 3
    assert DATA.spare_half_circle("cao-cao", "sima-yi")
    assert DATA.max_hp("lv-bu", "diao-chan") == 4  # 2.5 + 1.5: no half-circle over
    assert not DATA.spare_half_circle("lv-bu", "diao-chan")
    assert DATA.max_hp("guan-yu", "liu-bei") == 4 and DATA.spare_half_circle("guan-yu", "liu-bei")


def card_entries() -> dict[str, tuple[str, str, list[str]]]:
    """The rulebook's card headings under Description of Game Cards:
    heading -> (type section, subsection, its lines)."""
    lines = section("Description of Game Cards", "Appendix I")
    sections = {"Basic Card": "basic", "Spell Card": "spell", "Equipment Cards": "equipment"}
    subsections = {"Weapon": "weapon", "Mount": "mount", "Armor": "armor"}
    kind, sub, out = "", "", {}
    current: list[str] = []
    for i, line in enumerate(lines):
        if line in sections:
            kind, sub = sections[line], ""
        elif line in subsections:
            sub = subsections[line]
        elif not line.startswith("- ") and i + 1 < len(lines) and lines[i + 1].startswith("- "):
            current = []
            out[line] = (kind, sub, current)
        elif line.startswith("- "):
            current.append(line)
    return out


RULEBOOK_HEADINGS = {
    # ruled in the README: one heading for two cards, and two headings with a
    # label after the name
    "Fire Attack / Thunder Attack": ("Fire Attack", "Thunder Attack"),
    "Negation (second card, with force effect)": ("Negation (force)",),
    "Shadowrunner (+1 Mount)": ("Shadowrunner",),
    "Red Hare (-1 Mount)": ("Red Hare",),
}


def test_card_names_types_and_subtypes_are_the_rulebooks() -> None:
    """Every card the rulebook describes is in the deck under its name and
    type; a time-delay spell is the one placed in a judgement zone:

    > Action: Place it into the judgement zone of the target player.

    The deck's other cards are the four unnamed mounts (README, ruling 3)."""
    seen = set()
    for heading, (kind, sub, lines) in card_entries().items():
        for name in RULEBOOK_HEADINGS.get(heading, (heading,)):
            card = DATA.card(name)
            assert card is not None and card.name == name, heading
            assert card.name_source == "rulebook"
            assert card.type == kind, name
            if kind == "spell":
                delayed = any("judgement zone" in ln for ln in lines if ln.startswith("- Action"))
                assert card.subtype == ("time-delay" if delayed else "normal"), name
            elif kind == "equipment":
                assert card.subtype == sub, name
            seen.add(card.id)
    rest = {c.id for c in DATA.cards.values()} - seen
    assert rest == {"dilu", "yellow-lightning", "ferghana", "purple-stallion"}
    for cid in rest:
        card = DATA.cards[cid]
        assert card.name_source == "data-file" and card.subtype == "mount"
        assert card.name not in rulebook_text()


def test_weapon_ranges_are_the_rulebooks() -> None:
    """Weapon, e.g.

    > Kirin Bow
    > - Attack Range: 5

    and Attack Range:

    > Example: as illustrated above, after being equipped with a [Serpent
    > Spear], player D can use [Attack] to target player A

    where "the distance between D and A is 3"."""
    ranges = {}
    for heading, (_, sub, lines) in card_entries().items():
        if sub == "weapon":
            (line,) = [ln for ln in lines if ln.startswith("- Attack Range:")]
            ranges[heading] = int(line.rsplit(":", 1)[1])
    assert len(ranges) == 10
    assert {c.name: c.range for c in DATA.cards.values() if c.subtype == "weapon"} == ranges
    assert all(c.range is None for c in DATA.cards.values() if c.subtype != "weapon")
    assert DATA.cards["serpent-spear"].range == 3


def test_mounts_and_kinds_of_cards() -> None:
    """Mount and Basic Card:

    > Shadowrunner (+1 Mount)

    > Red Hare (-1 Mount)

    > [Fire Attack]: A kind of [Attack], the damage caused by this [Attack]
    > is Fire Damage.

    > [Negation (force)] is a kind of [Negation]
    """
    mounts = {c.id: c.distance or 0 for c in DATA.cards.values() if c.subtype == "mount"}
    assert mounts["shadowrunner"] == 1 and mounts["red-hare"] == -1
    assert sorted(mounts.values()) == [-1, -1, -1, 1, 1, 1]
    assert DATA.cards["fire-attack"].is_a("attack") and DATA.cards["thunder-attack"].is_a("attack")
    assert DATA.cards["negation-force"].is_a("negation")
    assert not DATA.cards["attack-by-fire"].is_a("attack")  # the spell (README, ruling 1)
    assert DATA.cards["attack-by-fire"].type == "spell"
    assert DATA.cards["fire-attack"].type == "basic"


def test_skills_the_rulebook_names() -> None:
    """Dying and Elimination and The Ultimate Principle:

    > Xiahou Dun can activate his skill "Eye for an Eye" only on the condition
    > that he is rescued by a player with [Peach].

    > Example: the "Berserk" skill of Zhang Fei is in conflict with the basic
    > rule of "only one [Attack] can be used during Play Phase".
    """
    eye, berserk = DATA.skill("Eye for an Eye"), DATA.skill("berserk")
    assert eye is not None and eye.holders == ("xiahou-dun",) and eye.has_kind("trigger")
    assert berserk is not None and berserk.holders == ("zhang-fei",)
    assert berserk.kinds == ("compulsory",)
    named = {s.name for s in DATA.skills.values() if s.name_source == "rulebook"}
    assert named == {"Eye for an Eye", "Berserk"}
    assert all(f'"{n}"' in rulebook_text() for n in named)


def test_kinds_agree_with_the_rulebooks_examples() -> None:
    """Hidden and Exposed Generals:

    > Guo Jia, Sima Yi, etc. can activate their skill and expose their
    > General card after suffering damage; Ma Chao, Huang Zhong, etc. can
    > activate their skill and expose their General card after targeting a
    > player with an [Attack] card; Sun Quan, Gan Ning, etc. can activate
    > their skill and expose General card during the Play Phase; Lady Zou,
    > Zhang Fei, etc. can expose their General cards during the Play Phase
    > because of their passive skills.
    """

    def kinds(name: str) -> set[str]:
        general = DATA.general(name)
        assert general is not None, name
        return {k for s in DATA.skills_of(general.id) for k in s.kinds}

    for name in ("Guo Jia", "Sima Yi", "Ma Chao", "Huang Zhong"):
        assert "trigger" in kinds(name), name
    for name in ("Sun Quan", "Gan Ning"):
        assert kinds(name) & {"active", "view-as"}, name
    for name in ("Lady Zou", "Zhang Fei"):
        assert "compulsory" in kinds(name), name


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


# --------------------------------------------------------------------------- the shared data


def test_deck_facts_are_the_deck_tsvs() -> None:
    """Every copy's suit and number, and every weapon's range, as in
    kingdom-wars-deck.tsv (README: from the shared data files)."""
    suit = {"spade": "spades", "heart": "hearts", "club": "clubs", "diamond": "diamonds"}
    theirs: dict[str, Counter[tuple[str, int]]] = {}
    ranges: dict[str, int | None] = {}
    for row in tsv("kingdom-wars-deck.tsv"):
        theirs.setdefault(row["id"], Counter())[(suit[row["suit"]], int(row["rank"]))] += 1
        ranges[row["id"]] = int(row["weapon_range"]) if row["weapon_range"] else None
    ours = {c.source_id: c for c in DATA.cards.values()}
    assert set(ours) == set(theirs)
    for sid, card in ours.items():
        copies = [DATA.deck_card(i) for i in card.copies]
        assert Counter((c.suit, c.rank) for c in copies if c) == theirs[sid], sid
        assert card.range == ranges[sid], sid


def test_general_facts_are_the_generals_tsvs() -> None:
    """Half-circles, gender, kingdom (their ``qun`` is Neutral) and skills in
    order, as in kingdom-wars-generals.tsv."""
    rows = {r["id"]: r for r in tsv("kingdom-wars-generals.tsv")}
    kingdom = {"wei": "Wei", "shu": "Shu", "wu": "Wu", "qun": "Neutral"}
    skill_of = {s.source_id: s.id for s in DATA.skills.values()}
    assert {g.source_id for g in DATA.generals.values()} == set(rows)
    for g in DATA.generals.values():
        row = rows[g.source_id]
        assert g.half_circles == int(row["half_hp"]), g.id
        assert g.gender == {"M": "male", "F": "female"}[row["gender"]], g.id
        assert g.kingdom == kingdom[row["kingdom"]], g.id
        assert g.zh == row["zh_name"], g.id
        wanted = [skill_of[s.split("(")[0]] for s in row["skills(id(zh))"].split(";")]
        assert list(g.skills) == wanted, g.id


def test_skill_kinds_and_names_are_the_skill_files() -> None:
    """Kinds and English names as kingdom-wars-skills.yaml gives them."""
    doc = yaml.safe_load(rulebooks.text("data/kingdom-wars-skills.yaml"))
    theirs = {s["id"]: s for g in doc["generals"] for s in g["skills"]}
    ours = {s.source_id: s for s in DATA.skills.values()}
    assert set(ours) == set(theirs)
    assert len(ours) == 92
    for sid, skill in ours.items():
        assert list(skill.kinds) == theirs[sid]["kind"], sid
        assert skill.name == theirs[sid]["name"], sid
        assert skill.zh == theirs[sid]["zh"], sid
    assert DATA.skills["horsemanship"].holders == ("ma-chao", "pang-de", "ma-teng")


def test_the_readme_names_every_card_the_rulebook_does_not() -> None:
    readme = (kw.HERE / "README.md").read_text(encoding="utf-8")
    for card in DATA.cards.values():
        if card.name_source == "data-file":
            assert card.name in readme and f"`{card.id}`" in readme, card.id


# --------------------------------------------------------------------------- lookups


@pytest.mark.parametrize(
    ("lookup", "word", "found"),
    [
        ("card", "Burning Bridges", "burning-bridges"),
        ("card", "burning-bridges", "burning-bridges"),
        ("card", "BURNINGBRIDGES", "burning-bridges"),
        ("card", "negation (force)", "negation-force"),
        ("card", "Attack by Fire", "attack-by-fire"),
        ("card", "fire attack", "fire-attack"),
        ("card", "+1 mount (dilu)", "dilu"),
        ("general", "lady zhen", "lady-zhen"),
        ("general", "Zhang Zhao & Zhang Hong", "zhang-zhao-zhang-hong"),
        ("general", "younger-zhuge-liang", "younger-zhuge-liang"),
        ("general", "liu chan", "liu-shan"),
        ("skill", "eye for an eye", "eye-for-an-eye"),
        ("skill", "Dragons Courage", "dragons-courage"),
        ("skill", "EIGHT FORMATIONS", "eight-formations"),
    ],
)
def test_lookups_by_id_and_by_name(lookup: str, word: str, found: str) -> None:
    find: Callable[[str], Any] = getattr(DATA, lookup)
    result = find(word)
    assert result is not None and result.id == found


def test_every_entry_is_found_by_its_id_and_its_name() -> None:
    for g in DATA.generals.values():
        assert DATA.general(g.id) is g and DATA.general(g.name.upper()) is g
    for s in DATA.skills.values():
        assert DATA.skill(s.id) is s and DATA.skill(s.name.lower()) is s
    for c in DATA.cards.values():
        assert DATA.card(c.id) is c and DATA.card(c.name.replace(" ", "-")) is c
    for copy in DATA.deck:
        assert DATA.deck_card(copy.id) is copy
    assert DATA.card("Eight Formations") is None  # a skill, not a card
    assert DATA.general("Jiang Wei") is None
    assert DATA.deck_card("attack.22") is None


# --------------------------------------------------------------------------- broken files


def broken_copy(tmp_path: Path, name: str, change: Callable[[Any], None]) -> Path:
    """The three files copied into ``tmp_path``, ``name`` changed by ``change``."""
    for each in FILES:
        shutil.copy(kw.HERE / each, tmp_path / each)
    doc = yaml.safe_load((tmp_path / name).read_text(encoding="utf-8"))
    change(doc)
    (tmp_path / name).write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    return tmp_path


def general(doc: Any, gid: str) -> dict[str, Any]:
    entry: dict[str, Any] = doc["generals"][gid]
    return entry


def card(doc: Any, cid: str) -> dict[str, Any]:
    entry: dict[str, Any] = doc["cards"][cid]
    return entry


def skill(doc: Any, sid: str) -> dict[str, Any]:
    entry: dict[str, Any] = doc["skills"][sid]
    return entry


SCHEMA_BREAKS: list[tuple[str, Callable[[Any], None], str, str]] = [
    (kw.GENERALS_FILE, lambda d: general(d, "cao-cao").update({"half-circles": "four"}),
     "generals.cao-cao.half-circles", "is not of type 'integer'"),
    (kw.GENERALS_FILE, lambda d: general(d, "cao-cao").update(kingdom="Qun"),
     "generals.cao-cao.kingdom", "'Qun' is not one of"),
    (kw.GENERALS_FILE, lambda d: general(d, "sima-yi").pop("gender"),
     "generals.sima-yi", "'gender' is a required property"),
    (kw.GENERALS_FILE, lambda d: general(d, "sima-yi").update(hp=3),
     "generals.sima-yi", "'hp' was unexpected"),
    (kw.GENERALS_FILE, lambda d: d["generals"].update({"Cao_Cao": d["generals"]["cao-cao"]}),
     "generals", "'Cao_Cao' does not match"),
    (kw.DECK_FILE, lambda d: card(d, "attack").update(range=1),
     "cards.attack", "'range' is not allowed here"),
    (kw.DECK_FILE, lambda d: card(d, "kirin-bow").pop("range"),
     "cards.kirin-bow", "'range' is a required property"),
    (kw.DECK_FILE, lambda d: card(d, "acedia").update(subtype="weapon"),
     "cards.acedia.subtype", "'weapon' is not one of"),
    (kw.DECK_FILE, lambda d: card(d, "attack")["copies"]["spades"].append(14),
     "cards.attack.copies.spades.7", "14 is greater than the maximum of 13"),
    (kw.DECK_FILE, lambda d: card(d, "dodge")["copies"].update(stars=[1]),
     "cards.dodge.copies", "'stars' was unexpected"),
    (kw.SKILLS_FILE, lambda d: skill(d, "berserk").update(kinds=["passive"]),
     "skills.berserk.kinds.0", "'passive' is not one of"),
    (kw.SKILLS_FILE, lambda d: skill(d, "berserk").pop("text"),
     "skills.berserk", "'text' is a required property"),
]


def _drop_general(d: Any) -> None:
    del d["generals"]["sima-yi"]


CROSS_BREAKS: list[tuple[str, Callable[[Any], None], str, str]] = [
    (kw.GENERALS_FILE, lambda d: general(d, "dian-wei").update(partners=[]),
     "generals.cao-cao.partners", "'dian-wei' does not list 'cao-cao' back"),
    (kw.GENERALS_FILE, lambda d: general(d, "cao-cao")["partners"].append("liu-bei"),
     "generals.cao-cao.partners", "does not list"),
    (kw.GENERALS_FILE, lambda d: general(d, "cao-cao")["partners"].append("jiang-wei"),
     "generals.cao-cao.partners", "no general 'jiang-wei'"),
    (kw.GENERALS_FILE, lambda d: general(d, "cao-cao").update(skills=["schemers-gain"]),
     "generals.cao-cao.skills", "no skill 'schemers-gain' in skills.yaml"),
    (kw.GENERALS_FILE, lambda d: general(d, "cao-cao").update(kingdom="Shu"),
     "generals", "14 generals of Wei"),
    (kw.GENERALS_FILE, _drop_general, "generals", "59 generals, the rulebook has 60"),
    (kw.GENERALS_FILE, lambda d: general(d, "sima-yi").update(aliases=["Cao Cao"]),
     "generals.sima-yi", "reads like 'cao-cao'"),
    (kw.SKILLS_FILE, lambda d: d["skills"].update(
        {"spare": {**skill(d, "berserk"), "name": "Spare", "source-id": "spare"}}),
     "skills.spare", "no general in generals.yaml has this skill"),
    (kw.DECK_FILE, lambda d: card(d, "attack")["copies"]["spades"].pop(),
     "cards", "107 cards, the rulebook has 108"),
    (kw.DECK_FILE, lambda d: card(d, "attack")["copies"]["spades"].pop(),
     "cards.*.copies", "spades: 26 not 27"),
    (kw.DECK_FILE, lambda d: card(d, "peach")["copies"]["hearts"].__setitem__(0, 5),
     "cards.*.copies", "4: 7 not 8"),
    (kw.DECK_FILE, lambda d: card(d, "stealing-sheep").update(name="Burning-Bridges"),
     "cards.stealing-sheep", "reads like 'burning-bridges'"),
    (kw.DECK_FILE, lambda d: card(d, "thunder-attack").update({"kind-of": "lightning"}),
     "cards.thunder-attack.kind-of", "'lightning' is of another type"),
]


@pytest.mark.parametrize(
    ("name", "change", "field", "complaint"),
    SCHEMA_BREAKS + CROSS_BREAKS,
    ids=[f"schema:{b[0]}:{b[2]}" for b in SCHEMA_BREAKS]
    + [f"cross:{b[0]}:{b[3]}" for b in CROSS_BREAKS],
)
def test_a_broken_file_is_refused_naming_the_file_and_field(
    tmp_path: Path, name: str, change: Callable[[Any], None], field: str, complaint: str
) -> None:
    """Each schema (SCHEMA_BREAKS) and each cross-check (CROSS_BREAKS)
    rejects a broken copy of one file, naming the file and the field."""
    folder = broken_copy(tmp_path, name, change)
    with pytest.raises(DataError) as caught:
        load(folder)
    lines = str(caught.value).splitlines()
    assert any(ln.startswith(f"{name}: {field}: ") and complaint in ln for ln in lines), lines


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    def two_problems(d: Any) -> None:
        general(d, "cao-cao").update(skills=["nothing"])
        general(d, "xu-chu").update(partners=[])

    folder = broken_copy(tmp_path, kw.GENERALS_FILE, two_problems)
    with pytest.raises(DataError) as caught:
        load(folder)
    message = str(caught.value)
    assert "generals.cao-cao.skills: no skill 'nothing'" in message
    assert "generals.cao-cao.partners: 'xu-chu' does not list 'cao-cao' back" in message


def test_a_file_that_is_not_yaml_is_named(tmp_path: Path) -> None:
    for each in FILES:
        shutil.copy(kw.HERE / each, tmp_path / each)
    (tmp_path / kw.DECK_FILE).write_text("cards: [unclosed\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"^deck\.yaml: not valid YAML"):
        load(tmp_path)
    (tmp_path / kw.SKILLS_FILE).unlink()
    with pytest.raises(DataError, match=r"^skills\.yaml: cannot be read"):
        load(tmp_path)

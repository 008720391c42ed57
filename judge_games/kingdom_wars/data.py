"""The game's data, read once at import and checked: the 60 generals
(``generals.yaml``), their skills (``skills.yaml``) and the 108 Game cards
(``deck.yaml``).

Each file is first validated against its schema
(``schemas/kingdom-wars-{generals,skills,deck}.schema.json``), then the files
are checked against each other and against the counts of the rulebook and of
the shared data files: every general's skills exist, every Perfect Pair is
listed from both ends, 60 generals and 15 of each kingdom, 108 cards with the
deck's suits, numbers and types, a range on weapons only. Every problem found
is reported at once, each as ``<file>: <field>: <what is wrong>``, in one
:class:`DataError`.

Everything here is immutable. Ids are lowercase slugs of the rulebook's names
(``cao-cao``, ``burning-bridges``, ``eye-for-an-eye``); a copy of a card in the
deck is ``<card id>.<n>`` (``attack.17``). The lookups (:meth:`Data.general`,
:meth:`Data.skill`, :meth:`Data.card`) take an id, a name or an alias in any
case, with or without spaces, hyphens or other punctuation (:func:`key`).
Where each fact came from is told in README.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import jsonschema
import yaml

from judge.game import schemas

HERE = Path(__file__).resolve().parent

GENERALS_FILE = "generals.yaml"
SKILLS_FILE = "skills.yaml"
DECK_FILE = "deck.yaml"
SCHEMAS: dict[str, str] = {
    GENERALS_FILE: "kingdom-wars-generals.schema.json",
    SKILLS_FILE: "kingdom-wars-skills.schema.json",
    DECK_FILE: "kingdom-wars-deck.schema.json",
}

KINGDOMS: tuple[str, ...] = ("Wei", "Shu", "Wu", "Neutral")
"""The four kingdoms (forces) a General card can belong to (Forces)."""

GENDERS: tuple[str, ...] = ("male", "female")

SKILL_KINDS: tuple[str, ...] = ("active", "trigger", "compulsory", "limited", "view-as")
"""``compulsory`` is the rulebook's Passive Skill and ``limited`` its Limited
Skill (Passive Skills and Limited Skills); the other three kinds are the
shared data file's."""

SUITS: tuple[str, ...] = ("spades", "hearts", "clubs", "diamonds")
RED_SUITS = frozenset({"hearts", "diamonds"})
"""Suit and Number: "red (hearts and diamonds) or black (spades and clubs)"."""

CARD_TYPES: tuple[str, ...] = ("basic", "spell", "equipment")
SUBTYPES: dict[str, tuple[str | None, ...]] = {
    "basic": (None,),
    "spell": ("normal", "time-delay"),
    "equipment": ("weapon", "mount", "armor"),
}
"""The subtypes each card type may have: a spell card is a normal or a
time-delay spell (Spell Card); equipment is a weapon, a mount or an armor
(Equipment Cards). Basic cards have none."""

RANK_LABELS: dict[int, str] = {1: "A", 11: "J", 12: "Q", 13: "K"}

GENERAL_COUNT = 60
"""Game Accessories: "60 General cards"."""
PER_KINGDOM = 15
"""Appendix II lists fifteen generals of each kingdom."""
DECK_SIZE = 108
"""Game Accessories: "108 Game cards"."""
SUIT_COUNTS: dict[str, int] = dict.fromkeys(SUITS, 27)
RANK_COUNTS: dict[int, int] = {r: 10 if r in (2, 12) else 8 for r in range(1, 14)}
TYPE_COUNTS: dict[str, int] = {"basic": 54, "spell": 34, "equipment": 20}
SUBTYPE_COUNTS: dict[str | None, int] = {
    None: 54,
    "normal": 29,
    "time-delay": 5,
    "weapon": 10,
    "mount": 6,
    "armor": 4,
}
"""The make-up of the deck in kingdom-wars-deck.tsv (the rulebook gives only
the total): 27 cards of each suit; eight of each number but ten of 2 and of Q."""


class DataError(ValueError):
    """A data file breaks its schema, contradicts another file or the rulebook."""


def key(word: str) -> str:
    """The lookup form of a name: lower case, letters and digits only, so that
    ``Burning Bridges``, ``burning-bridges`` and ``BURNINGBRIDGES`` agree."""
    return "".join(ch for ch in word.casefold() if ch.isalnum())


@dataclass(frozen=True)
class Skill:
    """A skill printed on a General card."""

    id: str
    name: str
    zh: str
    source_id: str
    """Its id in the shared data file kingdom-wars-skills.yaml."""
    name_source: str
    """``rulebook`` or ``data-file``: who gave the English name."""
    kinds: tuple[str, ...]
    text: str
    """A short reminder in our words; not the rules text."""
    holders: tuple[str, ...]
    """Ids of the generals that carry it (Horsemanship is on three)."""

    def has_kind(self, kind: str) -> bool:
        return kind in self.kinds


@dataclass(frozen=True)
class General:
    """A General card (Appendix II)."""

    id: str
    name: str
    title: str
    zh: str
    source_id: str
    """Its id in the shared data file kingdom-wars-generals.tsv."""
    kingdom: str
    half_circles: int
    """Yin-Yang half-circles on the card; two make one health point."""
    gender: str
    partners: tuple[str, ...]
    """Ids of the generals it forms a Perfect Pair with."""
    skills: tuple[str, ...]
    aliases: tuple[str, ...] = ()

    @property
    def circles(self) -> float:
        return self.half_circles / 2


@dataclass(frozen=True)
class Card:
    """One of the Game cards by name (Attack, Burning Bridges, Kirin Bow...);
    its copies in the deck are :class:`DeckCard`."""

    id: str
    name: str
    zh: str
    source_id: str
    """Its id in the shared data file kingdom-wars-deck.tsv."""
    name_source: str
    """``rulebook`` or ``data-file`` (the rulebook does not name four of the mounts)."""
    type: str
    subtype: str | None
    range: int | None
    """A weapon's attack range; None for every other card."""
    distance: int | None
    """A mount's +1 or -1; None for every other card."""
    kind_of: str | None
    """The card this one is "a kind of" (Fire Attack: ``attack``)."""
    text: str
    copies: tuple[str, ...]
    """Ids of its copies in the deck."""

    def is_a(self, card_id: str) -> bool:
        """Whether this card counts as ``card_id``: itself, or the card it is a
        kind of (a Thunder Attack is an Attack, a Negation (force) a Negation)."""
        return card_id in (self.id, self.kind_of)


@dataclass(frozen=True)
class DeckCard:
    """One of the 108 physical cards: a :class:`Card` with a suit and a number."""

    id: str
    card: Card
    suit: str
    rank: int

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def type(self) -> str:
        return self.card.type

    @property
    def subtype(self) -> str | None:
        return self.card.subtype

    @property
    def range(self) -> int | None:
        return self.card.range

    @property
    def colour(self) -> str:
        return "red" if self.suit in RED_SUITS else "black"

    @property
    def rank_label(self) -> str:
        return RANK_LABELS.get(self.rank, str(self.rank))


class Data:
    """All the game's data, checked (build it with :func:`load`)."""

    def __init__(
        self,
        generals: dict[str, General],
        skills: dict[str, Skill],
        cards: dict[str, Card],
        deck: tuple[DeckCard, ...],
    ) -> None:
        self.generals: Mapping[str, General] = MappingProxyType(generals)
        """In the file's order, which is Appendix II's, kingdom by kingdom."""
        self.skills: Mapping[str, Skill] = MappingProxyType(skills)
        self.cards: Mapping[str, Card] = MappingProxyType(cards)
        """In the file's order, which is the rulebook's Description of Game Cards."""
        self.deck: tuple[DeckCard, ...] = deck
        """Every copy, in a fixed order: the cards in the file's order, each
        card's copies by suit (``SUITS``) and number."""
        self._deck = {c.id: c for c in deck}
        self._general_keys = _keys((g.id, g.name, *g.aliases) for g in generals.values())
        self._skill_keys = _keys((s.id, s.name) for s in skills.values())
        self._card_keys = _keys((c.id, c.name) for c in cards.values())
        self.longest_key = max(len(k) for table in (self._general_keys, self._skill_keys,
                                                    self._card_keys) for k in table)
        """The longest lookup key of any name: a run of words whose key is
        longer names nothing, so a reader never needs to look further."""

    # ------------------------------------------------------------------ lookups

    def general(self, word: str) -> General | None:
        """The general whose id, name or alias is ``word`` (see :func:`key`)."""
        found = self._general_keys.get(key(word))
        return None if found is None else self.generals[found]

    def skill(self, word: str) -> Skill | None:
        found = self._skill_keys.get(key(word))
        return None if found is None else self.skills[found]

    def card(self, word: str) -> Card | None:
        """The card (by name, not a copy) whose id or name is ``word``."""
        found = self._card_keys.get(key(word))
        return None if found is None else self.cards[found]

    def deck_card(self, copy_id: str) -> DeckCard | None:
        """The copy ``attack.17``."""
        return self._deck.get(copy_id.strip().lower())

    def skills_of(self, general_id: str) -> tuple[Skill, ...]:
        return tuple(self.skills[s] for s in self.generals[general_id].skills)

    # ------------------------------------------------------------------ rules on data

    def max_hp(self, main: str, supporting: str) -> int:
        """A player's maximum health: the whole Yin-Yang circles the two
        generals make together, a spare half-circle not counting (Distribute
        Health cards: "2+1.5=3.5, 3.5 is rounded down to 3")."""
        return (self.generals[main].half_circles + self.generals[supporting].half_circles) // 2

    def spare_half_circle(self, main: str, supporting: str) -> bool:
        """Whether the pair leaves a half-circle over, which earns the Yin-Yang
        Marker once both generals are exposed."""
        return (self.generals[main].half_circles + self.generals[supporting].half_circles) % 2 == 1

    def perfect_pair(self, a: str, b: str) -> bool:
        """Whether generals ``a`` and ``b`` form a Perfect Pair (in either order)."""
        return b in self.generals[a].partners


def _keys(names: Iterable[tuple[str, ...]]) -> dict[str, str]:
    """Lookup key -> id, for entries given as (id, name, aliases...); clashes
    were rejected by :func:`load`."""
    out: dict[str, str] = {}
    for entry in names:
        for word in entry:
            out.setdefault(key(word), entry[0])
    return out


# --------------------------------------------------------------------------- loading


def _where(path: Iterable[Any]) -> str:
    return ".".join(str(p) for p in path) or "(top level)"


def _describe(error: jsonschema.ValidationError) -> str:
    """A schema complaint in plain words (``not: required`` reads badly)."""
    if error.validator == "not" and isinstance(error.validator_value, dict):
        banned = error.validator_value.get("required", [])
        if banned:
            return f"{', '.join(repr(b) for b in banned)} is not allowed here"
    return error.message


def _read(folder: Path, name: str) -> Any:
    path = folder / name
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{name}: cannot be read ({exc.strerror})") from exc
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise DataError(f"{name}: not valid YAML: {exc}") from exc
    checker = schemas.validator(SCHEMAS[name])
    errors = sorted(checker.iter_errors(doc), key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        raise DataError(
            "\n".join(f"{name}: {_where(e.absolute_path)}: {_describe(e)}" for e in errors)
        )
    return doc


def _unique(
    file: str,
    section: str,
    what: str,
    entries: Iterable[tuple[str, ...]],
    problems: list[str],
) -> None:
    """No two entries may share a lookup key: ``entries`` are (id, words...)."""
    seen: dict[str, str] = {}
    for entry in entries:
        for word in set(map(key, entry[1:])):
            other = seen.setdefault(word, entry[0])
            if other != entry[0]:
                problems.append(f"{file}: {section}.{entry[0]}: {what} reads like {other!r}'s")


def _counts(
    file: str, field: str, what: str, found: Mapping[Any, int], wanted: Mapping[Any, int],
    problems: list[str],
) -> None:
    if dict(found) != dict(wanted):
        diff = ", ".join(
            f"{'none' if k is None else k}: {found.get(k, 0)} not {wanted.get(k, 0)}"
            for k in sorted({*found, *wanted}, key=str)
            if found.get(k, 0) != wanted.get(k, 0)
        )
        problems.append(f"{file}: {field}: the {what} differ from the deck's ({diff})")


def load(folder: Path = HERE) -> Data:
    """Read, validate and cross-check the three data files in ``folder``.
    Raises :class:`DataError` listing every problem."""
    raw_generals = _read(folder, GENERALS_FILE)["generals"]
    raw_skills = _read(folder, SKILLS_FILE)["skills"]
    raw_cards = _read(folder, DECK_FILE)["cards"]
    problems: list[str] = []

    # ----------------------------------------------------------------- generals
    G = GENERALS_FILE
    generals: dict[str, General] = {}
    for gid, g in raw_generals.items():
        generals[gid] = General(
            id=gid,
            name=g["name"],
            title=g["title"],
            zh=g.get("zh", ""),
            source_id=g["source-id"],
            kingdom=g["kingdom"],
            half_circles=g["half-circles"],
            gender=g["gender"],
            partners=tuple(g["partners"]),
            skills=tuple(g["skills"]),
            aliases=tuple(g.get("aliases", ())),
        )
    if len(generals) != GENERAL_COUNT:
        problems.append(
            f"{G}: generals: {len(generals)} generals, the rulebook has {GENERAL_COUNT}"
        )
    per_kingdom = Counter(g.kingdom for g in generals.values())
    for kingdom in KINGDOMS:
        if per_kingdom[kingdom] != PER_KINGDOM:
            problems.append(
                f"{G}: generals: {per_kingdom[kingdom]} generals of {kingdom}, "
                f"Appendix II has {PER_KINGDOM}"
            )
    for g in generals.values():
        for sid in g.skills:
            if sid not in raw_skills:
                problems.append(f"{G}: generals.{g.id}.skills: no skill {sid!r} in {SKILLS_FILE}")
        for p in g.partners:
            partner = generals.get(p)
            if partner is None:
                problems.append(f"{G}: generals.{g.id}.partners: no general {p!r}")
            elif p == g.id:
                problems.append(f"{G}: generals.{g.id}.partners: a general cannot pair with itself")
            elif g.id not in partner.partners:
                problems.append(f"{G}: generals.{g.id}.partners: {p!r} does not list {g.id!r} back")
            elif partner.kingdom != g.kingdom:
                problems.append(
                    f"{G}: generals.{g.id}.partners: {p!r} is of {partner.kingdom}, "
                    f"a Perfect Pair is of one kingdom"
                )
    _unique(
        G, "generals", "its id, name or alias",
        ((g.id, g.id, g.name, *g.aliases) for g in generals.values()), problems,
    )
    _unique(G, "generals", "its source-id", ((g.id, g.source_id) for g in generals.values()),
            problems)

    # ----------------------------------------------------------------- skills
    S = SKILLS_FILE
    skills: dict[str, Skill] = {}
    for sid, s in raw_skills.items():
        holders = tuple(g.id for g in generals.values() if sid in g.skills)
        if not holders:
            problems.append(f"{S}: skills.{sid}: no general in {G} has this skill")
        skills[sid] = Skill(
            id=sid,
            name=s["name"],
            zh=s.get("zh", ""),
            source_id=s["source-id"],
            name_source=s["name-source"],
            kinds=tuple(s["kinds"]),
            text=" ".join(str(s["text"]).split()),
            holders=holders,
        )
    _unique(S, "skills", "its id or name", ((s.id, s.id, s.name) for s in skills.values()),
            problems)
    _unique(S, "skills", "its source-id", ((s.id, s.source_id) for s in skills.values()),
            problems)

    # ----------------------------------------------------------------- deck
    D = DECK_FILE
    cards: dict[str, Card] = {}
    deck: list[DeckCard] = []
    for cid, c in raw_cards.items():
        subtype = c.get("subtype")
        if subtype not in SUBTYPES[c["type"]]:
            problems.append(
                f"{D}: cards.{cid}.subtype: {subtype!r} is not a subtype of {c['type']} cards"
            )
        if ("range" in c) != (subtype == "weapon"):
            problems.append(f"{D}: cards.{cid}.range: weapons, and only weapons, have a range")
        if ("distance" in c) != (subtype == "mount"):
            problems.append(f"{D}: cards.{cid}.distance: mounts, and only mounts, have a distance")
        copies = [(suit, rank) for suit in SUITS for rank in sorted(c["copies"].get(suit, ()))]
        card = Card(
            id=cid,
            name=c["name"],
            zh=c.get("zh", ""),
            source_id=c["source-id"],
            name_source=c["name-source"],
            type=c["type"],
            subtype=subtype,
            range=c.get("range"),
            distance=c.get("distance"),
            kind_of=c.get("kind-of"),
            text=" ".join(str(c["text"]).split()),
            copies=tuple(f"{cid}.{n}" for n in range(1, len(copies) + 1)),
        )
        cards[cid] = card
        deck += [
            DeckCard(f"{cid}.{n}", card, suit, rank)
            for n, (suit, rank) in enumerate(copies, start=1)
        ]
    for card in cards.values():
        if card.kind_of is None:
            continue
        base = cards.get(card.kind_of)
        if base is None:
            problems.append(f"{D}: cards.{card.id}.kind-of: no card {card.kind_of!r}")
        elif base.kind_of is not None or base.id == card.id:
            problems.append(f"{D}: cards.{card.id}.kind-of: {base.id!r} is itself a kind of card")
        elif (base.type, base.subtype) != (card.type, card.subtype):
            problems.append(f"{D}: cards.{card.id}.kind-of: {base.id!r} is of another type")
    _unique(D, "cards", "its id or name", ((c.id, c.id, c.name) for c in cards.values()),
            problems)
    _unique(D, "cards", "its source-id", ((c.id, c.source_id) for c in cards.values()),
            problems)
    if len(deck) != DECK_SIZE:
        problems.append(f"{D}: cards: {len(deck)} cards, the rulebook has {DECK_SIZE} Game cards")
    _counts(D, "cards.*.copies", "suits", Counter(c.suit for c in deck), SUIT_COUNTS, problems)
    _counts(D, "cards.*.copies", "numbers", Counter(c.rank for c in deck), RANK_COUNTS, problems)
    _counts(D, "cards.*.type", "types", Counter(c.type for c in deck), TYPE_COUNTS, problems)
    _counts(
        D, "cards.*.subtype", "subtypes", Counter(c.subtype for c in deck), SUBTYPE_COUNTS,
        problems,
    )

    if problems:
        raise DataError("\n".join(problems))
    return Data(generals, skills, cards, tuple(deck))


DATA = load()
"""The game's data, loaded and checked when this module is first imported."""

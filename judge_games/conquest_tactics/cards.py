"""Conquest Tactics: the card pool, read once at import from
``cards/<faction>.yaml`` (each checked against
``schemas/conquest-tactics-cards.schema.json``) and the starter decks from
``decks/<faction>.txt``.

The rulebook gives the eight card types and their printed fields (Card Types
and Deckbuilding) but no card list: the cards are ours, written as data. A
card's game effects are a closed vocabulary of small typed records
(:class:`Effect`), never free text; the ``text`` of a card is a reminder for
players, the engine never reads it.

Ids are lowercase slugs of the names (``kaborha-tier-1-contender``); lookups
take an id or a name in any case, with or without spaces or hyphens
(:func:`key`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import yaml

from judge.game import schemas
from judge_games.conquest_tactics.decks import DECK_SIZE, DeckList, parse_text

CardType = Literal["base", "victory", "trophy", "troop", "spell", "skill",
                   "equipment", "circumstance"]
CARD_TYPES: tuple[str, ...] = ("base", "victory", "trophy", "troop", "spell", "skill",
                               "equipment", "circumstance")
"""The eight card types (Card Types and Deckbuilding)."""

SCHOOLS: tuple[str, ...] = ("arms", "brawn", "dark", "fire", "light", "ranged")
"""The six types of Spells and Skills: Arms Skill, Brawn Skill, Dark Magic,
Fire Magic, Light Magic, Ranged Skill (Spells & Skills)."""
SPELL_SCHOOLS = frozenset({"dark", "fire", "light"})
"""The schools that are magic (Spells); the other three are Skills."""

SPELL_KINDS: tuple[str, ...] = ("offensive", "instant", "buff", "debuff")
"""Cast Spell: Offensive Spells deal damage, Instant Spells are played after
the opponent declares an action, Buffs and Debuffs are attached to a Troop."""

EQUIPMENT_SLOTS: tuple[str, ...] = ("accessory", "armor", "weapon")
"""Equipment: "Accessories, Armor, and Weapons ... only one of each type"."""

CIRCUMSTANCE_KINDS: tuple[str, ...] = ("mobilization", "control", "instant")
"""Play Circumstance: the three categories."""

STATS: tuple[str, ...] = ("health", "defense", "attack", "counter", "attack_cost",
                          "range", "movement")
"""The stats an effect may modify (``range`` moves the top of the range)."""

EFFECT_KINDS: tuple[str, ...] = (
    "damage",      # amount [pierce] [splash]: damage to the target (defense subtracted
                   #   unless pierce; splash: that much again to each enemy adjacent to it)
    "heal",        # amount: remove that many damage tokens from the target
    "modify",      # stat, by: while attached (buff, debuff, equipment) or for the turn
    "shield",      # amount: incoming damage of this action reduced by amount (an instant)
    "cancel",      # the declared action has no effect; its cost stays paid (an instant)
    "no_counter",  # this attack draws no Counterattack
    "tp",          # amount: the player gains Tactical Points (this turn)
    "draw",        # amount: the player draws cards from the supply pile
    "push",        # the target is moved one space towards its owner's edge, if open
    "jump",        # the troop may move through other units (a static ability)
)
"""The closed set of effect kinds the engine carries out (see :class:`Effect`)."""

WHENS: tuple[str, ...] = ("static", "deploy", "halt", "on_base")
"""When a troop's or base's ability applies: always (a static modifier of the
troop itself), when it is deployed, in the Halt phase ("Some card effects occur
during this phase"), while the troop stands on its own base."""

TARGETS: tuple[str, ...] = ("self", "target", "friendly", "enemy", "all_friendly",
                            "all_enemy", "player")
"""Whom an effect acts on: the acting troop itself, the action's target (a
space in range, line of sight), any friendly troop, any enemy troop, every
friendly / enemy troop, the player (for tp and draw)."""

CONDITION_KINDS: tuple[str, ...] = (
    "destroy_points",  # n: troops of the opponent destroyed, their costs adding to n or more
    "destroy_troops",  # n: n or more enemy troops destroyed
    "destroy_base",    # the enemy base destroyed
    "damage_base",     # n: n or more damage on the enemy base
    "raise_troop",     # from, to: one troop raised from level `from` to level `to`
    "hold_spaces",     # n, zone: n spaces of the zone held by own troops at Halt
    "knowledge",       # n: n or more cards in the Knowledge Pool
    "field_troops",    # n: n or more own troops on the field at Halt
)
"""The closed vocabulary of Victory Conditions, checked in the Halt phase."""

ZONES: tuple[str, ...] = ("enemy_deployment", "middle_row", "enemy_edge")
"""The zones a hold_spaces condition may name: the opponent's deployment
zone (its two nearest rows), the third row, the opponent's edge row."""


@lru_cache(maxsize=4096)
def key(word: str) -> str:
    """The lookup form of a name: lower case, letters and digits only."""
    return "".join(ch for ch in word.casefold() if ch.isalnum())


@dataclass(frozen=True)
class Effect:
    """One typed effect: ``kind`` from :data:`EFFECT_KINDS`, whom it acts on
    (``on``, from :data:`TARGETS`) and its parameters."""

    kind: str
    on: str = "target"
    amount: int = 0
    stat: str = ""
    by: int = 0
    pierce: bool = False
    splash: int = 0


@dataclass(frozen=True)
class Ability:
    """A troop's or base's printed ability: when it applies and what it does."""

    when: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Condition:
    """What a Victory Condition card asks (one of :data:`CONDITION_KINDS`)."""

    kind: str
    n: int = 0
    zone: str = ""
    level_from: int = 0
    level_to: int = 0


@dataclass(frozen=True)
class Card:
    """Any card of the pool; the fields a type does not print stay at their
    defaults. ``faction`` is the file the card comes from (``neutral`` cards
    go in any deck a base allows)."""

    id: str
    name: str
    type: str
    faction: str
    text: str = ""
    cost: int = 0
    """Tactical Points to deploy, attach, learn or play. For a Spell or Skill
    whose printed cost is "X" or "+Y" see :attr:`printed_cost`."""
    printed_cost: str = ""
    """As printed: "3", "X" (costs its level) or "+1" (the troop's attack cost
    plus one to use; one to deploy or learn)."""
    # troops
    level: int = 0
    classification: str = ""
    """A path: ``infantry``, ``infantry/defensive``; a troop upgrades onto a
    troop one level lower whose classification is the same or a prefix of
    its own (Mobilize: "specializations cannot be reversed")."""
    health: int = 0
    defense: int = 0
    attack_cost: int = 0
    attack: int = 0
    counter: int = 0
    range_min: int = 1
    range_max: int = 1
    movement: int = 1
    icons: Mapping[str, int] = field(default_factory=dict)
    """School -> the highest level the troop knows it at (normally its own
    level; the Demonhunter knows Fire Magic only at level 2)."""
    abilities: tuple[Ability, ...] = ()
    # spells and skills
    school: str = ""
    kind: str = ""
    """Spell or Skill: offensive / instant / buff / debuff. Circumstance:
    mobilization / control / instant."""
    spell_range: tuple[int, int] | None = None
    """A spell's or skill's own range; None: the troop's."""
    damage: int = 0
    damage_is_bonus: bool = False
    """A skill whose damage is printed "+N": the troop's attack plus N."""
    effects: tuple[Effect, ...] = ()
    # equipment
    slot: str = ""
    # circumstances
    discard: int = 0
    """Cards that must be discarded to play it (Play Circumstance)."""
    # bases
    allows: tuple[str, ...] = ()
    """The factions whose troops a deck with this base may carry (empty: any)."""
    # victory conditions
    condition: Condition | None = None
    # trophies
    redeem: tuple[Effect, ...] = ()
    recycle: tuple[Effect, ...] = ()

    def knows(self, school: str) -> int:
        """The level at which this troop knows ``school`` (0: not at all)."""
        return self.icons.get(school, 0)


def parse_cost(printed: str | int, level: int) -> tuple[int, str]:
    """(cost to deploy or learn, printed form): "X" costs the card's level
    (Setup and Mobilize: "X ... a number of Tactical Points equivalent to its
    level"), "+Y" costs Y ("use Y as the cost for deployment")."""
    text = str(printed).strip().upper()
    if text == "X":
        return level, "X"
    if text.startswith("+"):
        return int(text[1:]), text
    return int(text), text


def _effect(raw: Mapping[str, Any]) -> Effect:
    return Effect(kind=str(raw["do"]), on=str(raw.get("on", "target")),
                  amount=int(raw.get("amount", 0)), stat=str(raw.get("stat", "")),
                  by=int(raw.get("by", 0)), pierce=bool(raw.get("pierce", False)),
                  splash=int(raw.get("splash", 0)))


# --------------------------------------------------------------------------- the pool

HERE = Path(__file__).resolve().parent
CARDS_DIR = HERE / "cards"
"""One file per faction, ``<faction>.yaml``."""
DECKS_DIR = HERE / "decks"
"""The starter decks, ``<faction>.txt``."""
SCHEMA = "conquest-tactics-cards.schema.json"

SKILL_SCHOOLS = frozenset(SCHOOLS) - SPELL_SCHOOLS
"""Arms, Brawn and Ranged are Skills (Spells & Skills)."""


class DataError(ValueError):
    """A card file breaks its schema or contradicts another file, or a starter
    deck breaks a guideline; every problem is one line of the message,
    ``<file>: <card>: <what is wrong>``."""


def slug(name: str) -> str:
    """The id form of a name: lower case, apostrophes dropped, every other run
    of non-alphanumerics one hyphen (``Champion's Belt`` -> ``champions-belt``)."""
    text = name.casefold().replace("'", "").replace("\u2019", "")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def _is_prefix(lower: str, upper: str) -> bool:
    head = lower.split("/")
    return upper.split("/")[: len(head)] == head


def can_upgrade(lower: Card, upper: Card) -> bool:
    """Mobilize: ``upper`` may be placed on ``lower``: both troops of one
    faction, ``upper`` exactly one level higher, and ``lower``'s classification
    the same as or a prefix of ``upper``'s ("specializations cannot be
    reversed")."""
    return (lower.type == upper.type == "troop" and lower.faction == upper.faction
            and upper.level == lower.level + 1
            and _is_prefix(lower.classification, upper.classification))


def _frozen_empty() -> Mapping[str, Any]:
    return MappingProxyType({})


@dataclass(frozen=True)
class Pool:
    """Every card, by id, and the starter decks, by faction."""

    cards: Mapping[str, Card]
    factions: Mapping[str, str]
    """Faction id (the file's stem) -> its name."""
    starters: Mapping[str, DeckList] = field(default_factory=_frozen_empty)
    index: Mapping[str, tuple[str, ...]] = field(default_factory=_frozen_empty)
    """:func:`key` of an id or a name -> the ids it names."""

    def lookup(self, word: str, *, types: Collection[str] | str | None = None,
               level: int | None = None) -> list[Card]:
        """The cards ``word`` names (an id, or a name in any case and
        punctuation): one, or every level of a name printed at several levels
        unless ``level`` is given; ``types`` keeps only cards of those types."""
        wanted = (types,) if isinstance(types, str) else types
        found = [self.cards[i] for i in self.index.get(key(word), ())]
        return sorted((c for c in found if (wanted is None or c.type in wanted)
                       and (level is None or c.level == level)),
                      key=lambda c: (c.level, c.id))

    def card(self, card_id: str) -> Card:
        """The card of this id (KeyError if there is none)."""
        try:
            return self.cards[card_id]
        except KeyError:
            raise KeyError(f"no Conquest Tactics card has the id {card_id!r}") from None

    def upgrades(self, card: Card) -> list[Card]:
        """The troops one level up that may be placed on ``card`` (Mobilize)."""
        return sorted((c for c in self.cards.values() if can_upgrade(card, c)),
                      key=lambda c: c.id)

    def names(self) -> list[str]:
        """Every card name once, sorted."""
        return sorted({c.name for c in self.cards.values()})

    def of_faction(self, faction: str, *, types: Collection[str] | str | None = None
                   ) -> list[Card]:
        """A faction's cards in file order, optionally of some types only."""
        wanted = (types,) if isinstance(types, str) else types
        return [c for c in self.cards.values()
                if c.faction == faction and (wanted is None or c.type in wanted)]


# --------------------------------------------------------------------------- loading


def _true_keys(node: Any) -> bool:
    if isinstance(node, dict):
        return any(k is True or _true_keys(v) for k, v in node.items())
    if isinstance(node, list):
        return any(_true_keys(v) for v in node)
    return False


def _label(doc: Any, path: Sequence[Any]) -> str:
    """``<card>: <field>`` of a schema complaint's place in a faction file."""
    if len(path) >= 2 and path[0] == "cards" and isinstance(path[1], int):
        cards = doc.get("cards") if isinstance(doc, dict) else None
        raw = cards[path[1]] if isinstance(cards, list) and path[1] < len(cards) else None
        name = raw.get("name") if isinstance(raw, dict) else None
        card = str(name) if isinstance(name, str) else f"cards[{path[1]}]"
        rest = ".".join(str(p) for p in path[2:])
        return f"{card}: {rest}" if rest else card
    return ".".join(str(p) for p in path) or "(top level)"


def _read(path: Path, problems: list[str]) -> dict[str, Any] | None:
    """A faction file parsed and checked against the schema (None if not)."""
    name = path.name
    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        problems.append(f"{name}: (file): cannot be read ({exc.strerror})")
        return None
    except yaml.YAMLError as exc:
        problems.append(f"{name}: (file): not valid YAML: {exc}")
        return None
    if _true_keys(doc):
        problems.append(f'{name}: (file): a key reads as true: write "on" in quotes '
                        f"(YAML reads a bare on, yes or true as the boolean true)")
        return None
    checker = schemas.validator(SCHEMA)
    errors = sorted(checker.iter_errors(doc), key=lambda e: [str(p) for p in e.absolute_path])
    for e in errors:
        problems.append(f"{name}: {_label(doc, list(e.absolute_path))}: {e.message}")
    if errors:
        return None
    assert isinstance(doc, dict)
    if doc["faction"] != path.stem:
        problems.append(f"{name}: (top level): faction {doc['faction']!r} must be the "
                        f"file's name, {path.stem!r}")
        return None
    return doc


def _range(text: str) -> tuple[int, int]:
    """ "N" is 1 to N; "A-B" is A to B (Melee Attack: "a single range value such
    as Range 5 ... an attack range of 1-5")."""
    low, _, high = text.partition("-")
    return (int(low), int(high)) if high else (1, int(low))


def _effects(raw: Iterable[Mapping[str, Any]] | None) -> tuple[Effect, ...]:
    return tuple(_effect(e) for e in raw or ())


def _abilities(raw: Iterable[Mapping[str, Any]] | None) -> tuple[Ability, ...]:
    return tuple(Ability(when=str(a["when"]), effects=_effects(a["effects"]))
                 for a in raw or ())


def _make(raw: Mapping[str, Any], faction: str, card_id: str) -> Card:
    kind = str(raw["type"])
    common: dict[str, Any] = {"id": card_id, "name": str(raw["name"]), "type": kind,
                              "faction": faction, "text": str(raw["text"])}
    if kind == "troop":
        level = int(raw["level"])
        icons_raw = raw.get("icons", {})
        icons = ({str(s): level for s in icons_raw} if isinstance(icons_raw, list)
                 else {str(s): int(n) for s, n in icons_raw.items()})
        low, high = _range(str(raw.get("range", "1")))
        return Card(**common, cost=int(raw["cost"]), printed_cost=str(raw["cost"]),
                    level=level, classification=str(raw["classification"]),
                    health=int(raw["health"]), defense=int(raw["defense"]),
                    attack_cost=int(raw["attack_cost"]), attack=int(raw["attack"]),
                    counter=int(raw["counter"]), range_min=low, range_max=high,
                    movement=int(raw.get("movement", 1)), icons=MappingProxyType(icons),
                    abilities=_abilities(raw.get("abilities")))
    if kind in ("spell", "skill"):
        level = int(raw["level"])
        cost, printed = parse_cost(raw["cost"], level)
        damage_raw = raw.get("damage", 0)
        bonus = isinstance(damage_raw, str)
        damage = int(str(damage_raw).lstrip("+"))
        spell_range = _range(str(raw["range"])) if "range" in raw else None
        return Card(**common, cost=cost, printed_cost=printed, level=level,
                    school=str(raw["school"]), kind=str(raw["kind"]), spell_range=spell_range,
                    damage=damage, damage_is_bonus=bonus, effects=_effects(raw.get("effects")))
    if kind == "equipment":
        return Card(**common, cost=int(raw["cost"]), printed_cost=str(raw["cost"]),
                    slot=str(raw["slot"]), effects=_effects(raw["effects"]))
    if kind == "circumstance":
        return Card(**common, cost=int(raw["cost"]), printed_cost=str(raw["cost"]),
                    kind=str(raw["kind"]), discard=int(raw.get("discard", 0)),
                    effects=_effects(raw["effects"]))
    if kind == "base":
        return Card(**common, health=int(raw["health"]), defense=int(raw["defense"]),
                    allows=tuple(str(f) for f in raw.get("allows", ())),
                    abilities=_abilities(raw.get("abilities")))
    if kind == "victory":
        c = raw["condition"]
        return Card(**common, condition=Condition(
            kind=str(c["kind"]), n=int(c.get("n", 0)), zone=str(c.get("zone", "")),
            level_from=int(c.get("from", 0)), level_to=int(c.get("to", 0))))
    return Card(**common, redeem=_effects(raw["redeem"]), recycle=_effects(raw["recycle"]))


def _strength(effects: Iterable[Effect]) -> int:
    return sum(e.amount + abs(e.by) + e.splash + (1 if e.pierce else 0)
               + (1 if e.on.startswith("all_") else 0) for e in effects)


def _card_problems(card: Card) -> list[str]:
    """What a card's fields say against each other (the schema checks each alone)."""
    out: list[str] = []
    if card.type == "troop":
        if card.range_min > card.range_max:
            out.append(f"range {card.range_min}-{card.range_max} runs backwards")
        for school, known in card.icons.items():
            if known > card.level:
                out.append(f"knows {school} at level {known}, above its own level {card.level} "
                           f"(Cast Spell: a troop knows a school up to its level)")
        for ability in card.abilities:
            for e in ability.effects:
                if ability.when in ("static", "on_base") and (
                        e.on != "self" or e.kind not in ("modify", "jump", "no_counter", "heal")):
                    out.append(f"a {ability.when} ability of a troop may only modify, jump, "
                               f"heal or refuse counterattacks, on itself (\"on\": self)")
    if card.type in ("spell", "skill"):
        schools = SPELL_SCHOOLS if card.type == "spell" else SKILL_SCHOOLS
        if card.school not in schools:
            out.append(f"a {card.type} of the school {card.school!r}: "
                       f"{card.type}s are {', '.join(sorted(schools))}")
        if card.damage_is_bonus and card.type != "skill":
            out.append('a damage of "+N" (the troop\'s attack plus N) is for skills only')
        if card.spell_range and card.spell_range[0] > card.spell_range[1]:
            out.append("its range runs backwards")
        kinds = {e.kind for e in card.effects}
        if card.kind == "instant" and not kinds & {"shield", "cancel", "heal", "damage"}:
            out.append("an instant must shield, cancel, heal or deal damage")
        if card.kind in ("buff", "debuff") and "modify" not in kinds:
            out.append(f"a {card.kind} must modify a stat while attached")
    if card.type == "equipment" and any(e.kind != "modify" or e.on != "self"
                                        for e in card.effects):
        out.append('equipment may only modify the stats of its troop ("on": self)')
    if card.type == "trophy" and _strength(card.redeem) <= _strength(card.recycle):
        out.append("Redeem must be stronger than Recycle (Trophies)")
    if card.type == "victory" and card.condition and card.condition.kind == "raise_troop" \
            and card.condition.level_from >= card.condition.level_to:
        out.append("raise_troop must go up: from below to")
    return out


def _chain(troops: Iterable[Card], level_from: int, level_to: int) -> bool:
    """Whether some troop of level ``level_from`` can be raised to ``level_to``."""
    pool = list(troops)
    reach = [c for c in pool if c.level == level_from]
    for _ in range(level_from, level_to):
        reach = [u for u in pool if any(can_upgrade(c, u) for c in reach)]
    return bool(reach)


def _build(docs: Sequence[tuple[str, Mapping[str, Any]]], problems: list[str]) -> Pool:
    entries = [(file, str(doc["faction"]), raw) for file, doc in docs for raw in doc["cards"]]
    levels: dict[str, set[int]] = {}
    for _, _, raw in entries:
        if raw["type"] == "troop":
            levels.setdefault(key(raw["name"]), set()).add(int(raw["level"]))
    cards: dict[str, Card] = {}
    home: dict[str, str] = {}
    for file, faction, raw in entries:
        card_id = slug(raw["name"])
        if raw["type"] == "troop" and len(levels[key(raw["name"])]) > 1:
            card_id = f"{card_id}-{raw['level']}"
        if card_id in cards:
            problems.append(f"{file}: {raw['name']}: its id {card_id!r} is already taken "
                            f"by a card of {home[card_id]}")
            continue
        cards[card_id] = _make(raw, faction, card_id)
        home[card_id] = file
    index: dict[str, set[str]] = {}
    for card in cards.values():
        index.setdefault(key(card.id), set()).add(card.id)
        index.setdefault(key(card.name), set()).add(card.id)
    for word, ids in sorted(index.items()):
        names = {cards[i].name for i in ids}
        if len(ids) > 1 and (len(names) > 1 or any(cards[i].type != "troop" for i in ids)):
            first, *rest = sorted(ids)
            problems.append(f"{home[first]}: {cards[first].name}: its name or id reads the "
                            f"same as {', '.join(cards[i].name for i in rest)} ({word!r})")
    factions = {str(doc["faction"]): str(doc["name"]) for _, doc in docs}
    for card in cards.values():
        problems.extend(f"{home[card.id]}: {card.name}: {p}" for p in _card_problems(card))
        for faction in card.allows:
            if faction not in factions:
                problems.append(f"{home[card.id]}: {card.name}: allows {faction!r}, "
                                f"which has no card file")
    troops = [c for c in cards.values() if c.type == "troop"]
    by_path: set[tuple[str, str]] = {(c.faction, c.classification) for c in troops}
    for c in troops:
        parent = c.classification.rpartition("/")[0]
        if parent and (c.faction, parent) not in by_path:
            problems.append(f"{home[c.id]}: {c.name}: no {factions[c.faction]} troop is "
                            f"classified {parent!r}, so {c.classification!r} has no root")
        if c.level >= 2 and not any(can_upgrade(d, c) for d in troops):
            problems.append(f"{home[c.id]}: {c.name}: no level {c.level - 1} troop of its "
                            f"faction can be upgraded to it (Mobilize: a troop of an "
                            f"appropriate classification one level lower)")
    for card in cards.values():
        cond = card.condition
        if cond and cond.kind == "raise_troop" and cond.level_from < cond.level_to \
                and not any(_chain([t for t in troops if t.faction == f],
                                   cond.level_from, cond.level_to) for f in factions):
            problems.append(f"{home[card.id]}: {card.name}: no troop of any faction can be "
                            f"raised from level {cond.level_from} to {cond.level_to}")
    return Pool(cards=MappingProxyType(cards), factions=MappingProxyType(factions),
                index=MappingProxyType({k: tuple(sorted(v)) for k, v in index.items()}))


def _starters(pool: Pool, folder: Path, problems: list[str]) -> dict[str, DeckList]:
    out: dict[str, DeckList] = {}
    for path in sorted(folder.glob("*.txt")):
        where = f"{folder.name}/{path.name}"
        faction = path.stem
        if faction not in pool.factions:
            problems.append(f"{where}: (deck): {faction!r} is not a faction with a card file")
            continue
        deck, breaches = parse_text(f"{pool.factions[faction]} starter",
                                    path.read_text(encoding="utf-8"), pool=pool)
        problems.extend(f"{where}: {b}" for b in breaches)
        if deck is None:
            continue
        if len(deck.ids) != DECK_SIZE:
            problems.append(f"{where}: (deck): {len(deck.ids)} cards, not {DECK_SIZE}")
        troops = [pool.cards[i] for i in set(deck.supply) if pool.cards[i].type == "troop"]
        for v in deck.victories:
            cond = pool.cards[v].condition
            if cond and cond.kind == "raise_troop" and not _chain(
                    troops, cond.level_from, cond.level_to):
                problems.append(f"{where}: {pool.cards[v].name}: no troop of the deck can be "
                                f"raised from level {cond.level_from} to {cond.level_to}")
        out[faction] = deck
    return out


def load(cards_dir: Path = CARDS_DIR, decks_dir: Path | None = DECKS_DIR) -> Pool:
    """Read every ``<faction>.yaml`` of ``cards_dir`` (and the starter decks of
    ``decks_dir`` unless None) into a :class:`Pool`; every problem is reported
    at once in one :class:`DataError`."""
    problems: list[str] = []
    docs: list[tuple[str, Mapping[str, Any]]] = []
    for path in sorted(cards_dir.glob("*.yaml")):
        doc = _read(path, problems)
        if doc is not None:
            docs.append((path.name, doc))
    if not docs and not problems:
        problems.append(f"{cards_dir.name}: (folder): no card files")
    if problems:
        raise DataError("\n".join(problems))
    pool = _build(docs, problems)
    if problems:
        raise DataError("\n".join(problems))
    if decks_dir is None:
        return pool
    starters = _starters(pool, decks_dir, problems)
    if problems:
        raise DataError("\n".join(problems))
    return replace(pool, starters=MappingProxyType(starters))


POOL: Pool = load()
"""The card pool and the starter decks, read and checked at import."""

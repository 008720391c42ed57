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

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

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

"""The game's data files, read once at import and checked: the map, the forces
and generals, the diplomacy track, the two scenarios and the two decks.

Everything here is immutable. Names used in commands are the ids of the data
files (``xiao-han``, ``sima-cuo``, ``emissary-to-zhao``); :func:`key` folds
case, spaces and underscores so that ``Xiao_Han`` and ``xiaohan`` find the
same area.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent

SIDES: tuple[str, str] = ("Lianheng", "Alliance")
"""The two players' sides, as the rulebook names them (Number of Players)."""

NEUTRAL = "Neutral"
"""The third faction (Forces and Factions)."""

BORDER_KINDS = ("normal", "mountain", "waterway")


class DataError(ValueError):
    """A data file contradicts itself or the rulebook."""


def key(word: str) -> str:
    """The lookup form of a name: lower case, no spaces, hyphens or underscores."""
    return "".join(ch for ch in word.lower() if ch not in " -_")


def other(side: str) -> str:
    """The opposing side."""
    return SIDES[1] if side == SIDES[0] else SIDES[0]


@dataclass(frozen=True)
class Area:
    id: str
    name: str
    zh: str
    rp: int


@dataclass(frozen=True)
class Border:
    a: str
    b: str
    kind: str
    downstream: str | None = None

    def cost(self, into: str) -> int:
        """Movement points to cross into ``into`` (Movement): a normal border 1,
        a mountain 2, a mountain with a waterway 1 moving with the stream and 2
        against it."""
        if self.kind == "normal":
            return 1
        if self.kind == "waterway" and self.downstream == into:
            return 1
        return 2


@dataclass(frozen=True)
class Force:
    id: str
    name: str
    zh: str
    major: bool


@dataclass(frozen=True)
class General:
    id: str
    name: str
    force: str
    icons: tuple[str, ...]

    @property
    def sword(self) -> int:
        return 1 if "sword" in self.icons else 0

    @property
    def shield(self) -> int:
        return 1 if "shield" in self.icons else 0

    @property
    def horse(self) -> bool:
        return "horse" in self.icons


@dataclass(frozen=True)
class Space:
    id: str
    name: str
    zh: str
    faction: str


@dataclass(frozen=True)
class Stack:
    force: str
    armies: int
    generals: tuple[str, ...]


@dataclass(frozen=True)
class Placement:
    city: Stack | None
    field: tuple[Stack, ...]


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    zh: str
    year: str
    turns: int
    target: int
    initiative: str
    stances: dict[str, str]
    areas: dict[str, Placement]


@dataclass(frozen=True)
class Option:
    key: str
    effect: str
    params: dict[str, Any]


@dataclass(frozen=True)
class Card:
    id: str
    side: str
    name: str
    zh: str
    copies: int
    extra_copies: int
    character: bool
    response: str | None
    linked: tuple[str, ...]
    text: str
    options: tuple[Option, ...]

    def option(self, key: str) -> Option | None:
        return next((o for o in self.options if o.key == key), None)


def _load(name: str) -> Any:
    with (HERE / name).open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def _stack(raw: Any, forces: dict[str, Force], generals: dict[str, General]) -> Stack:
    force, armies, *gens = raw
    if force not in forces:
        raise DataError(f"unknown force {force!r}")
    for g in gens:
        if g not in generals or generals[g].force != force:
            raise DataError(f"{g!r} is not a general of {force}")
    return Stack(str(force), int(armies), tuple(str(g) for g in gens))


class Data:
    """All the game's data, checked."""

    def __init__(self) -> None:
        raw_map = _load("map.yaml")
        self.areas: dict[str, Area] = {
            k: Area(k, v["name"], v["zh"], int(v["rp"])) for k, v in raw_map["areas"].items()
        }
        self.borders: dict[frozenset[str], Border] = {}
        self.neighbours: dict[str, list[str]] = {a: [] for a in self.areas}
        for entry in raw_map["borders"]:
            a, b, kind = entry[0], entry[1], entry[2]
            extra = entry[3] if len(entry) > 3 else {}
            if a not in self.areas or b not in self.areas or a == b:
                raise DataError(f"bad border {entry!r}")
            if kind not in BORDER_KINDS:
                raise DataError(f"bad border kind {kind!r}")
            down = extra.get("downstream")
            if (kind == "waterway") != (down is not None) or down not in (None, a, b):
                raise DataError(f"waterway {a}-{b} needs a downstream end")
            pair = frozenset((a, b))
            if pair in self.borders:
                raise DataError(f"border {a}-{b} twice")
            self.borders[pair] = Border(a, b, kind, down)
            self.neighbours[a].append(b)
            self.neighbours[b].append(a)
        for a in self.neighbours:
            self.neighbours[a].sort()

        raw_forces = _load("forces.yaml")
        self.forces: dict[str, Force] = {
            k: Force(k, v["name"], v["zh"], bool(v["major"]))
            for k, v in raw_forces["forces"].items()
        }
        self.generals: dict[str, General] = {
            k: General(k, v["name"], v["force"], tuple(v["icons"]))
            for k, v in raw_forces["generals"].items()
        }
        self.track: tuple[Space, ...] = tuple(
            Space(s["id"], s["name"], s["zh"], s["faction"]) for s in raw_forces["track"]
        )
        self.space_index = {s.id: i for i, s in enumerate(self.track)}
        self.space_index["revenge-qin"] = len(self.track) - 1

        self.scenarios: dict[str, Scenario] = {}
        raw_sc = _load("scenarios.yaml")
        for sid, sc in raw_sc.items():
            base = sc.get("based-on")
            areas: dict[str, Placement] = {}
            if base is not None:
                areas.update(self.scenarios[base].areas)
            for area, spec in sc["areas"].items():
                if area not in self.areas:
                    raise DataError(f"{sid}: unknown area {area!r}")
                city = _stack(spec["city"], self.forces, self.generals) if "city" in spec else None
                field = tuple(
                    _stack(s, self.forces, self.generals) for s in spec.get("field", [])
                )
                areas[area] = Placement(city, field)
            for force, space in sc["stances"].items():
                if force not in self.forces or space not in self.space_index:
                    raise DataError(f"{sid}: bad stance {force}: {space}")
            if sc["initiative"] not in SIDES:
                raise DataError(f"{sid}: initiative must be a side")
            self.scenarios[sid] = Scenario(
                sid,
                sc["name"],
                sc["zh"],
                str(sc["year"]),
                int(sc["turns"]),
                int(sc["target"]),
                sc["initiative"],
                dict(sc["stances"]),
                areas,
            )
        for sc_ in self.scenarios.values():
            majors = {f for f, v in self.forces.items() if v.major and f != "qin"}
            if set(sc_.stances) != majors:
                raise DataError(f"{sc_.id}: stances must name exactly {sorted(majors)}")

        raw_cards = _load("cards.yaml")
        self.cards: dict[str, dict[str, Card]] = {}
        for side in SIDES:
            deck: dict[str, Card] = {}
            for cid, c in raw_cards[side].items():
                options = tuple(
                    Option(o["key"], o["effect"], {k: v for k, v in o.items()
                                                    if k not in ("key", "effect")})
                    for o in c["options"]
                )
                deck[cid] = Card(
                    cid,
                    side,
                    c["name"],
                    c.get("zh", ""),
                    int(c.get("copies", 1)),
                    int(c.get("extra-copies", 0)),
                    bool(c.get("character", False)),
                    c.get("response"),
                    tuple(c.get("linked", [])),
                    " ".join(str(c["text"]).split()),
                    options,
                )
            self.cards[side] = deck
            total = sum(card.copies for card in deck.values())
            if total != 23:
                raise DataError(f"the {side} deck has {total} cards, not 23 (Cards)")

        self._area_keys = {key(a): a for a in self.areas}
        self._force_keys = {key(f): f for f in self.forces}
        self._general_keys = {key(g): g for g in self.generals}
        self._card_keys = {
            side: {key(c): c for c in deck} for side, deck in self.cards.items()
        }

    # ------------------------------------------------------------------ lookups

    def area(self, word: str) -> str | None:
        return self._area_keys.get(key(word))

    def force(self, word: str) -> str | None:
        return self._force_keys.get(key(word))

    def general(self, word: str) -> str | None:
        return self._general_keys.get(key(word))

    def card(self, side: str, word: str) -> str | None:
        return self._card_keys[side].get(key(word))

    def any_card(self, word: str) -> bool:
        return any(key(word) in keys for keys in self._card_keys.values())

    def border(self, a: str, b: str) -> Border | None:
        return self.borders.get(frozenset((a, b)))

    def step_cost(self, a: str, b: str) -> int:
        """Movement points from ``a`` into the adjacent ``b``."""
        border = self.border(a, b)
        if border is None:
            raise DataError(f"{a} and {b} are not adjacent")
        return border.cost(b)

    def deck_list(self, side: str, extra: bool = False) -> list[str]:
        """Card instance ids of a side's deck in a fixed order: ``slug.n``."""
        out: list[str] = []
        for cid, card in self.cards[side].items():
            n = card.copies + (card.extra_copies if extra else 0)
            out += [f"{cid}.{i}" for i in range(1, n + 1)]
        return out


DATA = Data()


def card_of(side: str, instance: str) -> Card:
    """The card of an instance id (``legendary-general.2``)."""
    return DATA.cards[side][instance.rsplit(".", 1)[0]]


def slug(instance: str) -> str:
    return instance.rsplit(".", 1)[0]

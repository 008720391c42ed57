"""The table of a Kingdom Wars game: the state, its zones and the small moves
every rule is made of (draw, discard, give, reveal, distance, forces).

A game's whole state is one JSON document (``state``); :class:`Ctx` wraps it
for the length of one call of the game, with the random source and the events
written so far. Every rule is a *task*: a frame (``{"t": name, ...}``) of the
decision kernel (:mod:`judge.game.flow`) on the state's ``todo`` stack, its step
registered in :data:`RULES`; a task that needs a player's choice puts an *ask*
on the ``asks`` stack and the run stops until the answer comes (the judge's
decisions are the asks, see game.py). Tasks and asks are plain data, so a
game stops and resumes anywhere, and replays.

Seats are named ``A`` to ``L`` in turn order: the next player ("the player on
your right", Appendix I) of ``A`` is ``B``, and of the last seat, ``A``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from judge.game import flow as kernel
from judge.game.engine import State
from judge.game.rng import Rng
from judge_games.kingdom_wars.data import DATA, DeckCard
from judge_games.kingdom_wars.state import Seat, general_of

Task = dict[str, Any]

SEAT_NAMES: tuple[str, ...] = tuple("ABCDEFGHIJKL")
SLOTS: tuple[str, ...] = ("main", "deputy")
EQUIP_SLOTS: tuple[str, ...] = ("weapon", "armor", "plus", "minus")
KINGDOMS: tuple[str, ...] = ("Wei", "Shu", "Wu", "Neutral")
SUIT_LETTER = {"spades": "S", "hearts": "H", "clubs": "C", "diamonds": "D"}
LETTER_SUIT = {v: k for k, v in SUIT_LETTER.items()}
SUIT_SIGN = {"spades": "\u2660", "hearts": "\u2665", "clubs": "\u2663", "diamonds": "\u2666"}
RANK_WORD = {1: "A", 11: "J", 12: "Q", 13: "K"}

TaskFn = Callable[["Ctx", Task], None]

RULES: kernel.Rules[Ctx] = kernel.Rules("Kingdom Wars", playing=lambda s: s["stage"] == "play")
"""The rules as the kernel runs them: every task by name (flow, cards,
skills) and the answer to every kind of ask (flow)."""

task = RULES.state
"""Register a rule under ``name`` (``{"t": name, ...}`` runs it)."""


# --------------------------------------------------------------------------- cards


def card(cid: str) -> DeckCard:
    """The physical card ``attack.3``."""
    found = DATA.deck_card(cid)
    if found is None:
        raise KeyError(cid)
    return found


def code(cid: str) -> str:
    """A card's suit letter and number, as lines name it: ``S7``, ``HA``, ``D10``."""
    c = card(cid)
    return SUIT_LETTER[c.suit] + RANK_WORD.get(c.rank, str(c.rank))


def label(cid: str) -> str:
    """``Attack S7`` (a card as reports and lines name it)."""
    return f"{card(cid).name} {code(cid)}"


def name_of(cid: str) -> str:
    """The card's kind id (``attack``, ``fire-attack``, ``negation-force``)."""
    return card(cid).card.id


def is_kind(card_name: str, kind: str) -> bool:
    """Whether a card of kind ``card_name`` counts as ``kind`` ("Fire Attack: a
    kind of Attack"; "Negation (force) is a kind of Negation")."""
    if card_name == kind:
        return True
    found = DATA.cards.get(card_name)
    return found is not None and found.kind_of == kind


def colour_of(cids: Sequence[str]) -> str | None:
    """The colour of cards used as one card (Appendix I, Convert: several cards
    of different colours have no colour)."""
    colours = {card(c).colour for c in cids}
    return colours.pop() if len(colours) == 1 else None


def suit_of(cids: Sequence[str]) -> str | None:
    suits = {card(c).suit for c in cids}
    return suits.pop() if len(suits) == 1 else None


def vcard(kind: str, cids: Sequence[str], by: str | None = None) -> dict[str, Any]:
    """A card as it is used or played: its kind, the physical cards it is made
    of (none for a card a skill conjures, like Eight Trigrams' Dodge), its
    suit, colour and number, and the skill or equipment that made it."""
    ranks = {card(c).rank for c in cids}
    return {"kind": kind, "cards": list(cids), "suit": suit_of(cids), "colour": colour_of(cids),
            "rank": ranks.pop() if len(ranks) == 1 else 0, "by": by}


def vlabel(v: Mapping[str, Any]) -> str:
    """``Attack S7``, ``Attack (Serpent Spear: Dodge H2 + Peach H3)``."""
    kind = DATA.cards[v["kind"]].name
    cids = list(v["cards"])
    if v.get("by") is None and len(cids) == 1 and name_of(cids[0]) == v["kind"]:
        return label(cids[0])
    what = " + ".join(label(c) for c in cids)
    raw = str(v.get("by") or "")
    found = DATA.skill(raw) if raw else None
    by = found.name if found else (DATA.cards[raw].name if raw in DATA.cards else raw)
    inner = ", ".join(x for x in (by, what) if x)
    return f"{kind} ({inner})" if inner else kind


def seat_label(seat: str) -> str:
    return f"seat {seat}"


# --------------------------------------------------------------------------- context


class Ctx(kernel.Ctx):
    """One call's view of the game: the state (changed in place: callers pass
    a copy), the random source and the events written so far; the kernel's
    context (events, frames, asks) with the rules' helpers."""

    rules = RULES

    def __init__(self, state: State, rng: Rng | None = None) -> None:
        super().__init__(state, rng)
        self.holders: dict[frozenset[str], list[tuple[str, Any]]] | None = None
        """Who holds which exposed skills, kept by :func:`judge_games.kingdom_wars.skills._holders`
        only in a context that :meth:`reading` made: one whose state is not
        changed (a check that exposes a general for a moment to try an order,
        :func:`judge_games.kingdom_wars.play.exposed_for`, calls :meth:`forget_holders`)."""

    @classmethod
    def reading(cls, state: State) -> Ctx:
        """A context for reading ``state`` only (a view, a check of an order,
        the legal lines): the skills at the table are looked up once, not at
        every distance and range."""
        g = cls(state)
        g.holders = {}
        return g

    def forget_holders(self) -> None:
        """Drop what :meth:`reading` kept of the skills: the generals shown changed."""
        if self.holders is not None:
            self.holders = {}

    # ------------------------------------------------------------------ players

    def p(self, seat: str) -> Seat:
        player: Seat = self.s["p"][seat]
        return player

    def alive(self, seat: str) -> bool:
        return bool(self.s["p"][seat]["alive"])

    def living(self) -> list[str]:
        return [r for r in self.s["seats"] if self.s["p"][r]["alive"]]

    def order_from(self, first: str, *, include_first: bool = True) -> list[str]:
        """Living seats in turn order starting with ``first`` (Events and Reaction:
        "in sequence in a counterclockwise direction, starting from the player
        who is playing his/her current turn")."""
        seats: list[str] = self.s["seats"]
        i = seats.index(first)
        ring = seats[i:] + seats[:i]
        out = [r for r in ring if self.alive(r)]
        if not include_first and out and out[0] == first:
            out = out[1:]
        return out

    def from_current(self) -> list[str]:
        return self.order_from(self.s["current"]) if self.s["current"] else self.living()

    def next_seat(self, seat: str) -> str:
        """The next living player after ``seat`` (Appendix I, Next Player)."""
        seats: list[str] = self.s["seats"]
        i = seats.index(seat)
        for k in range(1, len(seats) + 1):
            r = seats[(i + k) % len(seats)]
            if self.alive(r):
                return r
        return seat

    # ------------------------------------------------------------------ generals

    def shown(self, seat: str) -> list[str]:
        """The general ids ``seat`` has exposed."""
        p = self.p(seat)
        return [general_of(p, slot) for slot, up in zip(SLOTS, p["shown"], strict=True) if up]

    def hidden_slots(self, seat: str) -> list[str]:
        p = self.p(seat)
        return [slot for slot, up in zip(SLOTS, p["shown"], strict=True) if not up]

    def kingdom(self, seat: str) -> str | None:
        """The force's kingdom (``None`` before any exposure); an Ambitionist
        keeps the kingdom it was revealed in but is a force of its own."""
        k: str | None = self.p(seat)["kingdom"]
        return k

    def ambitionist(self, seat: str) -> bool:
        return bool(self.p(seat)["ambitionist"])

    def same_force(self, a: str, b: str) -> bool:
        """Forces: "Players in the same Force refers to non Ambitionists, and are
        in the same force as you"; only exposed generals confirm a force."""
        if a == b:
            return self.kingdom(a) is not None
        ka, kb = self.kingdom(a), self.kingdom(b)
        return (ka is not None and ka == kb and not self.ambitionist(a)
                and not self.ambitionist(b))

    def different_force(self, a: str, b: str) -> bool:
        """Both forces known and not the same (Alliance's condition)."""
        return (self.kingdom(a) is not None and self.kingdom(b) is not None
                and not self.same_force(a, b))

    def gender(self, seat: str) -> str | None:
        """Hidden generals have no gender; with both exposed, the main general's."""
        p = self.p(seat)
        if p["shown"][0]:
            return str(DATA.generals[p["main"]].gender)
        if p["shown"][1]:
            return str(DATA.generals[p["deputy"]].gender)
        return None

    def skills(self, seat: str, *, hidden: bool = False) -> list[str]:
        """The skills of ``seat``'s exposed generals (with ``hidden``, of all its
        generals: what it could use by exposing one, unless a skill forbids it to
        expose any now, Femme Fatale)."""
        p = self.p(seat)
        if hidden and not all(p["shown"]):
            from judge_games.kingdom_wars import skills

            hidden = not skills.forbids(self, "reveal", src=seat)
        out: list[str] = []
        for slot, up in zip(SLOTS, p["shown"], strict=True):
            if up or hidden:
                for sk in DATA.generals[general_of(p, slot)].skills:
                    if sk not in p.get("lost_skills", []) and sk not in out:
                        out.append(sk)
        return out

    def has_skill(self, seat: str, skill: str) -> bool:
        """Exposed and alive: a hidden general has no skills."""
        return self.alive(seat) and skill in self.skills(seat)

    def slot_of_skill(self, seat: str, skill: str) -> str | None:
        p = self.p(seat)
        for slot in SLOTS:
            if skill in DATA.generals[general_of(p, slot)].skills:
                return slot
        return None

    def suit(self, seat: str | None, cid: str) -> str:
        """The suit ``cid`` counts as for ``seat``, whose card or judgement it
        is (skills such as Rosy Cheeks make one suit count as another)."""
        from judge_games.kingdom_wars import skills

        printed = card(cid).suit
        return printed if seat is None else skills.suit(self, seat, cid, printed)

    def colour(self, seat: str | None, cid: str) -> str:
        return "red" if self.suit(seat, cid) in ("hearts", "diamonds") else "black"

    def as_held(self, seat: str, v: dict[str, Any]) -> dict[str, Any]:
        """``v`` with the suit and colour its physical cards count as for
        ``seat``, who uses or plays it (Appendix I, Convert: several cards of
        different colours have no colour)."""
        cids = list(v["cards"])
        if not cids:
            return v
        suits = {self.suit(seat, c) for c in cids}
        colours = {self.colour(seat, c) for c in cids}
        out = dict(v)
        out["suit"] = suits.pop() if len(suits) == 1 else None
        out["colour"] = colours.pop() if len(colours) == 1 else None
        return out

    # ------------------------------------------------------------------ zones

    def hand(self, seat: str) -> list[str]:
        h: list[str] = self.p(seat)["hand"]
        return h

    def equips(self, seat: str) -> list[str]:
        eq = self.p(seat)["equip"]
        return [c for c in (eq[s] for s in EQUIP_SLOTS) if c]

    def judges(self, seat: str) -> list[dict[str, Any]]:
        j: list[dict[str, Any]] = self.p(seat)["judge"]
        return j

    def weapon(self, seat: str) -> str | None:
        w = self.p(seat)["equip"]["weapon"]
        return name_of(w) if w else None

    def armor(self, seat: str) -> str | None:
        a = self.p(seat)["equip"]["armor"]
        return name_of(a) if a else None

    def has_cards(self, seat: str, *, judge: bool = False) -> bool:
        return bool(self.hand(seat) or self.equips(seat) or (judge and self.judges(seat)))

    def where(self, cid: str) -> tuple[str, str | None]:
        """Where a card lies: (zone, seat) with zone hand/equip/judge/deck/
        discard/proc/aside."""
        s = self.s
        for seat in s["seats"]:
            p = s["p"][seat]
            if cid in p["hand"]:
                return "hand", seat
            if cid in p["equip"].values():
                return "equip", seat
            if any(j["card"] == cid for j in p["judge"]):
                return "judge", seat
        for zone in ("proc", "discard", "deck"):
            if cid in s[zone]:
                return zone, None
        return "aside", None

    def take_out(self, cid: str) -> tuple[str, str | None]:
        """Remove a card from wherever it lies; returns where it was."""
        zone, seat = self.where(cid)
        s = self.s
        if zone == "hand" and seat:
            self.hand(seat).remove(cid)
        elif zone == "equip" and seat:
            eq = self.p(seat)["equip"]
            for slot in EQUIP_SLOTS:
                if eq[slot] == cid:
                    eq[slot] = None
        elif zone == "judge" and seat:
            self.p(seat)["judge"] = [j for j in self.judges(seat) if j["card"] != cid]
        elif zone in ("proc", "discard", "deck"):
            s[zone].remove(cid)
        return zone, seat

    def lost(self, seat: str, cids: Sequence[str], zones: Sequence[str]) -> None:
        """Cards left ``seat``'s hand or equipment (Appendix I, Lose a card):
        the moments skills watch for."""
        from judge_games.kingdom_wars import flow

        if "equip" in zones:
            flow.equip_lost(self, seat, [c for c, z in zip(cids, zones, strict=True)
                                         if z == "equip"])
        if "hand" in zones and not self.hand(seat):
            flow.moment(self, "hand_emptied", seat=seat)
        if cids:
            flow.moment(self, "cards_lost", seat=seat, cards=list(cids), zones=list(zones))

    def to_discard(self, cids: Sequence[str]) -> None:
        for cid in cids:
            if self.where(cid)[0] != "aside":
                self.take_out(cid)
            self.s["discard"].append(cid)

    def draw(self, seat: str, n: int, why: str = "") -> list[str]:
        """Draw ``n`` cards from the top of the deck ("If there are no more
        cards in the Game cards deck, the discard deck should be shuffled
        immediately to form a new Game cards deck")."""
        got: list[str] = []
        for _ in range(n):
            top = self.deck_top()
            if top is None:
                break
            got.append(top)
            self.hand(seat).append(top)
        if got:
            tail = f" ({why})" if why else ""
            self.split(seat, f"You draw {', '.join(label(c) for c in got)}{tail}.",
                       f"{seat_label(seat)} draws {len(got)} card{'s' * (len(got) != 1)}{tail}.",
                       drew=len(got))
        return got

    def deck_top(self) -> str | None:
        """Take the top card of the deck, reshuffling the discard deck first if
        the deck is empty; ``None`` only when no card is left anywhere."""
        s = self.s
        if not s["deck"]:
            if not s["discard"]:
                return None
            assert self.rng is not None
            s["deck"] = list(s["discard"])
            s["discard"] = []
            self.rng.shuffle(s["deck"], "shuffle:deck")
            s["reshuffles"] += 1
            self.pub("The discard deck is shuffled to form a new deck.")
        top: str = s["deck"].pop()
        return top

    def peek(self, n: int) -> list[str]:
        """Take the top ``n`` cards of the deck (reshuffling if needed)."""
        out = []
        for _ in range(n):
            c = self.deck_top()
            if c is None:
                break
            out.append(c)
        return out

    # ------------------------------------------------------------------ distance

    def seat_distance(self, a: str, b: str) -> int:
        """Steps round the living players, the shorter way (Distance)."""
        if a == b:
            return 0
        ring = self.living()
        if a not in ring or b not in ring:
            return 99
        i, j = ring.index(a), ring.index(b)
        step = abs(i - j)
        return min(step, len(ring) - step)

    def distance(self, a: str, b: str) -> int:
        """The distance from ``a`` to ``b``: +1 for a +1 mount of ``b``, -1 for a
        -1 mount of ``a`` (Mount, with its example), skill modifiers, at least 1
        (the distance to oneself is always 0)."""
        from judge_games.kingdom_wars import skills

        if a == b:
            return 0
        d = self.seat_distance(a, b)
        if self.p(b)["equip"]["plus"]:
            d += 1
        if self.p(a)["equip"]["minus"]:
            d -= 1
        d = skills.modify(self, "distance", d, src=a, to=b)
        fixed = skills.modify(self, "fixed_distance", 0, src=a, to=b)
        if fixed:
            return fixed
        return max(1, d)

    def attack_range(self, seat: str) -> int:
        """1, or the weapon's range; Six Swords of Wu lengthens the range of the
        other players of its bearer's kingdom by 1."""
        from judge_games.kingdom_wars import skills

        w = self.p(seat)["equip"]["weapon"]
        r = (card(w).range or 1) if w else 1
        for other in self.living():
            if (other != seat and self.weapon(other) == "six-swords-of-wu"
                    and self.same_force(seat, other)):
                r += 1
        return skills.modify(self, "attack_range", r, src=seat)

    def in_range(self, a: str, b: str) -> bool:
        return a != b and self.distance(a, b) <= self.attack_range(a)

    # ------------------------------------------------------------------ health

    def wounded(self, seat: str) -> bool:
        p = self.p(seat)
        return bool(p["hp"] < p["max_hp"])

    def hand_limit(self, seat: str) -> int:
        from judge_games.kingdom_wars import skills

        p = self.p(seat)
        limit = max(0, int(p["hp"])) + (2 if self.s["turn_flags"].get("yinyang_limit") else 0)
        return skills.modify(self, "hand_limit", limit, src=seat)

    def flag(self, name: str, default: Any = 0) -> Any:
        return self.s["turn_flags"].get(name, default)

    def set_flag(self, name: str, value: Any) -> None:
        self.s["turn_flags"][name] = value

    def bump(self, name: str, by: int = 1) -> int:
        n = int(self.s["turn_flags"].get(name, 0)) + by
        self.s["turn_flags"][name] = n
        return n


def fresh_player(main: str, deputy: str) -> Seat:
    """A player's table corner once its generals are chosen (Preparation)."""
    return {
        "main": main, "deputy": deputy, "shown": [False, False],
        "hp": DATA.max_hp(main, deputy), "max_hp": DATA.max_hp(main, deputy),
        "alive": True, "hand": [], "judge": [],
        "equip": dict.fromkeys(EQUIP_SLOTS),
        "chained": False, "stacked": False,
        "kingdom": None, "ambitionist": False,
        "markers": {"pioneer": 0, "yin-yang": 0, "perfect-pair": 0},
        "owed": {"yin-yang": DATA.spare_half_circle(main, deputy),
                 "perfect-pair": DATA.perfect_pair(main, deputy)},
        "both_shown_once": False,
        "seen_by": {"main": [], "deputy": []},
        "limited_used": [], "lost_skills": [], "piles": {},
    }

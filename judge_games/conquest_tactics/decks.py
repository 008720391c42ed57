"""Conquest Tactics deck lists: the text format, its parser and the deck
building guidelines.

A deck list is text, one entry a line: ``<count> <card name>`` or just
``<card name>`` (count 1). Blank lines and lines starting with ``#`` are
ignored. The card's type comes from the pool, so the lines may come in any
order. A name printed at several levels (``Human Infantry``) needs its level:
``Human Infantry level 2`` or ``Human Infantry 2``; the id
(``human-infantry-2``) is understood too.

:func:`parse_deck` reads the lines (each with its line number) into a
:class:`DeckList` and reports every problem as a :class:`Breach` that quotes
the line, says what is wrong and what would be right. :func:`check` applies
the rulebook's "Summary of Deck Building Guidelines" (and a Base's limit on
the troops it allows) to a :class:`DeckList` however it was made.
:func:`canonical` writes a deck as one line that :func:`parse_canonical`
reads back to the same deck.

This module imports the card pool only when a function is called without a
``pool`` (``cards`` imports this module to read the starter decks).
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from judge_games.conquest_tactics.cards import Card, Pool

GUIDELINES = "Summary of Deck Building Guidelines"

BASES = 1
"""Bases: "you must carry one and only one Base"."""
VICTORIES = 4
VICTORY_COPIES = 2
"""Victory Conditions: "carry four ... no more than two copies of a single"."""
TROPHIES = 3
TROPHY_COPIES = 1
"""Trophies: "exactly three ... not ... more than one copy of any Trophy"."""
SUPPLY = 60
"""Summary: "Supply Pile- 60 Cards total"."""
CIRCUMSTANCES = 5
CIRCUMSTANCE_COPIES = 1
"""Circumstances: "up to 5 ... no more than one copy of a particular"."""
TROOP_COPIES = 5
"""Troops: "no more than five copies of a particular Troop"."""
OTHER_COPIES = 3
"""Spells & Skills, Equipment: "no more than three copies"."""
DECK_SIZE = BASES + VICTORIES + TROPHIES + SUPPLY
"""Card Types and Deckbuilding: "exactly sixty-eight cards"."""

SUPPLY_TYPES: frozenset[str] = frozenset({"troop", "spell", "skill", "equipment",
                                          "circumstance"})
"""The types shuffled into the supply pile (the Base, Victory Conditions and
Trophies are set aside at Setup)."""

_COUNT = re.compile(r"^(\d+)\s*[xX]?\s+(\S.*)$")
_LEVEL = re.compile(r"^(?P<name>.*?\S)[\s,]*\(?\s*(?:(?:level|lvl)\s*|l)?(?P<level>\d)\s*\)?$",
                    re.IGNORECASE)
_CANONICAL = re.compile(r"^\s*DECK\s+(?P<name>[^:;]*):(?P<body>.*)$", re.DOTALL)
"""A one-line deck. The name runs to the first colon (its trailing spaces
trimmed after the match: a lazy name before ``\\s*:`` made a long run of
spaces cost its square)."""

MAX_ENTRIES = 2 * DECK_SIZE
"""Entries one deck list may hold: a list names each card once with its count,
so a longer one is refused at the first entry beyond it (each entry costs a
lookup and, when unknown, a search for close names)."""
MAX_SUGGESTIONS = 10
"""Unknown names in one list that get close names suggested."""
MAX_NAME = 80
"""The longest entry read as a card name: every card name is far shorter, so
a longer one is refused before the level and close-name searches."""


@dataclass(frozen=True)
class Breach:
    """One thing wrong with a deck list: the line (number and text as written;
    0 and "" when no single line is at fault), what is wrong (citing the
    rulebook) and what would be right."""

    line_no: int
    line_text: str
    message: str
    hint: str

    def __str__(self) -> str:
        where = f'line {self.line_no} "{self.line_text}"' if self.line_no else "the deck"
        return f"{where}: {self.message}; {self.hint}"


@dataclass(frozen=True)
class DeckList:
    """A deck of card ids: the Base, the four Victory Conditions and the three
    Trophies in the order listed (the Trophy pile's order), the sixty supply
    cards with repeats in the order listed."""

    name: str
    base: str
    victories: tuple[str, ...]
    trophies: tuple[str, ...]
    supply: tuple[str, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        """Every card of the deck: base, victories, trophies, supply."""
        head = (self.base,) if self.base else ()
        return head + self.victories + self.trophies + self.supply

    def counts(self) -> Counter[str]:
        """Copies of each card id."""
        return Counter(self.ids)


@dataclass(frozen=True)
class _Entry:
    line_no: int
    text: str
    card: Card
    count: int


def _default_pool() -> Pool:
    from judge_games.conquest_tactics.cards import POOL

    return POOL


def _quoted(names: Iterable[str]) -> str:
    return ", ".join(f'"{n}"' for n in names)


# --------------------------------------------------------------------------- reading


def _suggest(word: str, pool: Pool) -> str:
    names = pool.names()
    folded = {n.casefold(): n for n in names}
    close = difflib.get_close_matches(word.casefold(), list(folded), n=3, cutoff=0.5)
    if close:
        return f"did you mean {_quoted(folded[c] for c in close)}?"
    return "write a card's name as judge_games/conquest_tactics/README.md lists it"


def _levelled(name: str, found: Sequence[Card]) -> str:
    return " or ".join(f'"{name} level {c.level}"' for c in found)


def resolve(word: str, pool: Pool | None = None, *,
            suggest: bool = True) -> tuple[Card | None, str, str]:
    """The card a deck-list entry names: (card, "", "") or (None, what is
    wrong, what would be right); close names are searched for only with
    ``suggest``."""
    pool = pool or _default_pool()
    if len(word) > MAX_NAME:
        return (None, f'no card is named "{word[:40]}..." ({len(word)} characters)',
                f"a card's name has at most {MAX_NAME} characters")
    found = pool.lookup(word)
    if len(found) == 1:
        return found[0], "", ""
    if len(found) > 1:
        levels = " and ".join(str(c.level) for c in found)
        return (None, f'"{found[0].name}" is printed at levels {levels}: say which',
                f"write {_levelled(found[0].name, found)}")
    m = _LEVEL.match(word)
    if m:
        level = int(m["level"])
        named = pool.lookup(m["name"])
        at = [c for c in named if c.level == level]
        if len(at) == 1:
            return at[0], "", ""
        if named:
            levels = " and ".join(str(c.level) for c in named)
            what = "level" if len(named) == 1 else "levels"
            hint = (f'write "{named[0].name}"' if len(named) == 1
                    else f"write {_levelled(named[0].name, named)}")
            return (None, f'"{named[0].name}" is printed at {what} {levels}, not at level {level}',
                    hint)
    return None, f'no card is named "{word}"', (
        _suggest(word, pool) if suggest
        else "write a card's name as judge_games/conquest_tactics/README.md lists it")


def parse_deck(name: str, lines: Sequence[tuple[int, str]], *,
               pool: Pool | None = None) -> tuple[DeckList | None, list[Breach]]:
    """Read a deck list: ``lines`` are (line number, text). The deck, or None
    when anything is wrong, and every breach found (unreadable lines, unknown
    cards and every guideline of :func:`check`)."""
    pool = pool or _default_pool()
    breaches: list[Breach] = []
    entries: list[_Entry] = []
    unread = False
    for line_no, raw in lines:
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        if len(entries) + len(breaches) >= MAX_ENTRIES:
            breaches.append(Breach(line_no, text[:80], f"a deck list has at most {MAX_ENTRIES} "
                                   "entries; the rest was not read",
                                   "list each card once, with its count: <count> <card name>"))
            return None, breaches
        m = _COUNT.match(text)
        count, word = (int(m[1]), m[2].strip()) if m else (1, text)
        # Close names for the first few unknown ones only: each search costs.
        card, message, hint = resolve(word, pool, suggest=len(breaches) < MAX_SUGGESTIONS)
        if card is None:
            breaches.append(Breach(line_no, text, message, hint))
            unread = True
            continue
        if count < 1:
            breaches.append(Breach(line_no, text, "a count must be 1 or more",
                                   f'write "1 {card.name}" or drop the line'))
            unread = True
            continue
        entries.append(_Entry(line_no, text, card, count))
    if not entries and not breaches:
        breaches.append(Breach(0, "", "the deck list names no cards",
                               f"list {DECK_SIZE} cards, one line per card: <count> <card name>"))
        return None, breaches
    breaches.extend(_guidelines(entries, pool, totals=not unread))
    if breaches:
        return None, breaches
    return _build(name, entries), breaches


def parse_text(name: str, text: str, *,
               pool: Pool | None = None) -> tuple[DeckList | None, list[Breach]]:
    """:func:`parse_deck` of a whole text, its lines numbered from 1."""
    return parse_deck(name, list(enumerate(text.splitlines(), 1)), pool=pool)


def _build(name: str, entries: Sequence[_Entry]) -> DeckList:
    def ids(kinds: frozenset[str]) -> tuple[str, ...]:
        return tuple(e.card.id for e in entries if e.card.type in kinds for _ in range(e.count))

    bases = ids(frozenset({"base"}))
    return DeckList(name=name, base=bases[0] if bases else "",
                    victories=ids(frozenset({"victory"})), trophies=ids(frozenset({"trophy"})),
                    supply=ids(SUPPLY_TYPES))


# --------------------------------------------------------------------------- guidelines


def check(deck: DeckList, *, pool: Pool | None = None) -> list[Breach]:
    """Every guideline of the "Summary of Deck Building Guidelines" that
    ``deck`` breaks, and troops its Base does not allow. The lines quoted are
    the entries of :func:`canonical` (numbered from 1 in that order)."""
    pool = pool or _default_pool()
    breaches: list[Breach] = []
    entries: list[_Entry] = []
    slots: tuple[tuple[frozenset[str], str, tuple[str, ...]], ...] = (
        (frozenset({"base"}), "the Base", (deck.base,) if deck.base else ()),
        (frozenset({"victory"}), "a Victory Condition", deck.victories),
        (frozenset({"trophy"}), "a Trophy", deck.trophies),
        (SUPPLY_TYPES, "a supply card", deck.supply),
    )
    for line_no, (kinds, what, card_id, count) in enumerate(_runs(slots), 1):
        text = f"{count} {card_id}"
        card = pool.cards.get(card_id)
        if card is None:
            breaches.append(Breach(line_no, text, f'no card has the id "{card_id}"',
                                   _suggest(card_id, pool)))
            continue
        if card.type not in kinds:
            breaches.append(Breach(line_no, text, f'"{card.name}" is a {card.type}, '
                                   f"not {what}", f"list it as a {card.type}"))
            continue
        entries.append(_Entry(line_no, text, card, count))
    breaches.extend(_guidelines(entries, pool, totals=True))
    return breaches


def _runs(slots: Iterable[tuple[frozenset[str], str, tuple[str, ...]]]
          ) -> list[tuple[frozenset[str], str, str, int]]:
    return [(kinds, what, card_id, len(list(run)))
            for kinds, what, ids in slots for card_id, run in itertools.groupby(ids)]


def _guidelines(entries: Sequence[_Entry], pool: Pool, *, totals: bool) -> list[Breach]:
    out: list[Breach] = []
    of = {kind: [e for e in entries if e.card.type == kind]
          for kind in ("base", "victory", "trophy", "circumstance")}
    supply = [e for e in entries if e.card.type in SUPPLY_TYPES]

    base_rule = f"one and only one Base must be carried (Bases; {GUIDELINES})"
    _too_many(out, of["base"], BASES, base_rule, "Base", "Bases")
    if totals and not of["base"]:
        choices = _quoted(c.name for c in pool.cards.values() if c.type == "base")
        out.append(Breach(0, "", base_rule, f"add one Base, e.g. {choices}"))

    victory_rule = f"exactly four Victory Conditions must be carried ({GUIDELINES})"
    vc = ("Victory Condition", "Victory Conditions")
    _too_many(out, of["victory"], VICTORIES, victory_rule, *vc)
    if totals:
        _too_few(out, of["victory"], VICTORIES, victory_rule, *vc)
    _copies(out, of["victory"], VICTORY_COPIES,
            f"at most two copies of a Victory Condition may be carried ({GUIDELINES})")

    trophy_rule = f"exactly three Trophies must be carried ({GUIDELINES})"
    _too_many(out, of["trophy"], TROPHIES, trophy_rule, "Trophy", "Trophies")
    if totals:
        _too_few(out, of["trophy"], TROPHIES, trophy_rule, "Trophy", "Trophies")
    _copies(out, of["trophy"], TROPHY_COPIES,
            f"at most one copy of a Trophy may be carried ({GUIDELINES})")

    supply_rule = (f"the supply pile must hold exactly sixty cards, not counting the Base, "
                   f"Victory Conditions and Trophies ({GUIDELINES})")
    _too_many(out, supply, SUPPLY, supply_rule, "supply card", "supply cards")
    if totals:
        _too_few(out, supply, SUPPLY, supply_rule, "supply card", "supply cards")

    _too_many(out, of["circumstance"], CIRCUMSTANCES,
              f"at most five Circumstances may be carried ({GUIDELINES})",
              "Circumstance", "Circumstances")
    _copies(out, of["circumstance"], CIRCUMSTANCE_COPIES,
            f"at most one copy of a Circumstance may be carried ({GUIDELINES})")
    _copies(out, [e for e in entries if e.card.type == "troop"], TROOP_COPIES,
            f"at most five copies of a troop may be carried ({GUIDELINES})")
    _copies(out, [e for e in entries if e.card.type in ("spell", "skill", "equipment")],
            OTHER_COPIES,
            f"at most three copies of a Spell, Skill or Equipment may be carried ({GUIDELINES})")

    if of["base"]:
        _allowed(out, of["base"][0].card, [e for e in entries if e.card.type == "troop"], pool)
    out.sort(key=lambda b: b.line_no)
    return out


def _too_many(out: list[Breach], entries: Sequence[_Entry], limit: int, rule: str,
              noun: str, nouns: str) -> None:
    """One breach at the entry that takes the running total past ``limit``."""
    total = sum(e.count for e in entries)
    if total <= limit:
        return
    running = 0
    for i, e in enumerate(entries):
        before, running = running, running + e.count
        if running <= limit:
            continue
        excess = total - limit
        if i == len(entries) - 1 and before < limit:
            hint = f"carry {limit - before}"
        else:
            hint = f"remove {excess} {noun if excess == 1 else nouns} ({total} listed in all)"
        out.append(Breach(e.line_no, e.text, rule, hint))
        return


def _too_few(out: list[Breach], entries: Sequence[_Entry], need: int, rule: str,
             noun: str, nouns: str) -> None:
    total = sum(e.count for e in entries)
    if total >= need:
        return
    missing = need - total
    hint = f"add {missing} more {noun if missing == 1 else nouns} ({total} listed)"
    last = entries[-1] if entries else None
    out.append(Breach(last.line_no if last else 0, last.text if last else "", rule, hint))


def _copies(out: list[Breach], entries: Sequence[_Entry], limit: int, rule: str) -> None:
    """A card carried more than ``limit`` times: the breach quotes its last line."""
    lines: dict[str, list[_Entry]] = {}
    for e in entries:
        lines.setdefault(e.card.id, []).append(e)
    for group in lines.values():
        total = sum(e.count for e in group)
        if total <= limit:
            continue
        last = group[-1]
        if len(group) == 1:
            hint = f"carry {limit}"
        else:
            others = total - last.count
            where = ", ".join(str(e.line_no) for e in group)
            keep = limit - others
            hint = (f"carry {keep}" if keep >= 1 else "drop this line")
            hint += f" ({total} copies in all on lines {where})"
        out.append(Breach(last.line_no, last.text, rule, hint))


def _allowed(out: list[Breach], base: Card, troops: Sequence[_Entry], pool: Pool) -> None:
    """Bases: "Many Bases limit the types of troops you may have in your deck"."""
    if not base.allows:
        return
    seen: set[str] = set()
    for e in troops:
        faction = e.card.faction
        if faction in base.allows or faction == "neutral" or e.card.id in seen:
            continue
        seen.add(e.card.id)
        allowed = " and ".join(pool.factions.get(f, f) for f in base.allows)
        others = [c.name for c in pool.cards.values() if c.type == "base"
                  and (not c.allows or faction in c.allows)]
        hint = "drop it"
        if others:
            hint += f", or carry a Base that allows {pool.factions.get(faction, faction)} " \
                    f"troops: {_quoted(others)}"
        out.append(Breach(e.line_no, e.text,
                          f'the Base "{base.name}" allows only troops of {allowed} '
                          f'(Bases: "Many Bases limit the types of troops")', hint))


# --------------------------------------------------------------------------- one line


def canonical(deck: DeckList) -> str:
    """``DECK <name>: <count> <id>; ...``: the Base, the Victory Conditions,
    the Trophies, the supply, consecutive copies counted together."""
    if not deck.name.strip() or any(ch in deck.name for ch in ":;\n"):
        raise ValueError(f"a deck name for the one-line form needs no ':', ';' or line "
                         f"breaks: {deck.name!r}")
    ids = ((deck.base,) if deck.base else ()) + deck.victories + deck.trophies + deck.supply
    # Runs are counted per section so that no run spans two sections.
    parts: list[str] = []
    for section in ((deck.base,) if deck.base else (), deck.victories, deck.trophies,
                    deck.supply):
        parts.extend(f"{len(list(run))} {card_id}" for card_id, run in itertools.groupby(section))
    assert sum(int(p.split()[0]) for p in parts) == len(ids)
    return f"DECK {deck.name.strip()}: " + "; ".join(parts)


def parse_canonical(text: str, *,
                    pool: Pool | None = None) -> tuple[DeckList | None, list[Breach]]:
    """Read :func:`canonical`'s line back; the entries are numbered from 1 as
    the breaches' line numbers."""
    m = _CANONICAL.match(text)
    if m and "\n" in m["name"].rstrip():
        m = None  # the name ends at a line end
    if not m or not m["name"].rstrip():
        return None, [Breach(1, text.strip()[:80], "a one-line deck starts with DECK <name>:",
                             'write "DECK <name>: <count> <id>; <count> <id>; ..."')]
    entries = [part.strip() for part in m["body"].split(";")]
    return parse_deck(m["name"].rstrip(), list(enumerate(entries, 1)), pool=pool)

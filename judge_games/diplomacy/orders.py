"""Orders: their structured form, their canonical text, and the grammar players type.

Parsing is in two steps:

1. :func:`read_order` turns a line into a :class:`Draft`, knowing only the map
   (names, abbreviations, coasts) and the kind of phase. It raises
   :class:`~judge.game.engine.InvalidLine` for words that form no order and
   :class:`~judge.game.engine.AmbiguousLine` for a name that fits two provinces.
2. :mod:`judge_games.diplomacy.legality` binds a draft to the board: finds the unit,
   settles coasts and checks that the order is possible (raising
   :class:`~judge.game.engine.IllegalLine` or ``AmbiguousLine``), giving an :class:`Order`.

Accepted forms (any case; full names, standard abbreviations or aliases;
coasts as ``/nc``, ``(nc)``, `` nc`` or ``north coast``)::

    A Par H              A Par hold             A Par
    A Par - Bur          A Par-Bur              A Paris -> Burgundy     A PAR M BUR
    A Lon - Nwy via convoy   A LON - NWY VIA    A Yor - Nth - Nwy  (path ignored)
    A Mun S A Par - Bur  A Mun supports Par     F Nth C A Lon - Nwy
    A Mun R Boh          A Mun D                Disband A Mun
    Build A Par          Build F StP/nc         Remove A Par            Waive

The unit type may be left out or be wrong (DATC 4.C.1, 4.C.2: it is
ignored); a nationality before a supported or convoyed unit is ignored
(4.C.5, 4.C.6).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from judge.game.engine import AmbiguousLine, InvalidLine

from .geography import DipMap, normalize

if TYPE_CHECKING:
    from .variant import VariantRules

# Order kinds.
HOLD = "H"
MOVE = "M"
SUPPORT = "S"
CONVOY = "C"
RETREAT = "R"
DISBAND = "D"
BUILD = "B"
REMOVE = "X"
WAIVE = "W"
CONVERT = "V"
"""A variant order (Warring States): the unit changes type in place this season."""

# Phase kinds (the last letter of a phase name).
MOVEMENT = "M"
RETREATS = "R"
ADJUSTMENTS = "A"


class Order(NamedTuple):
    """One order bound to the board (a named tuple: made many times a phase,
    and cheaper to make than a frozen dataclass).

    ``loc`` is the location of the ordered unit (or of the build). For a move
    or retreat ``dest`` is the exact location moved to (coast included for a
    fleet). For a support or convoy, ``target`` is the province of the unit
    supported or convoyed and ``dest`` the province (or, for a support naming
    a coast, the coast location) it moves to; ``dest`` is -1 for a support to
    hold. ``via`` marks a move explicitly ordered "via convoy".
    ``waives`` is the number of builds waived (not ``count``, which a tuple has).
    """

    kind: str
    unit: str
    loc: int
    dest: int = -1
    target: int = -1
    via: bool = False
    waives: int = 1
    target_unit: str = ""
    """The type of the supported or convoyed unit, as it stands on the board."""
    path: tuple[int, ...] = ()
    """Variant moves through several spaces (Warring States rapid river
    moves): the provinces passed through before ``dest``; ``()`` otherwise."""
    becomes: str = ""
    """Variant: the unit type the unit has after this order (``""``: unchanged)."""


class Ref(NamedTuple):
    """A place as written: a province and maybe a coast."""

    province: int
    coast: str = ""


class Draft(NamedTuple):
    """An order as written, before it meets the board."""

    kind: str
    unit: str
    """``"A"``, ``"F"`` or ``""`` when not written."""
    where: Ref | None
    dest: Ref | None = None
    target_unit: str = ""
    target: Ref | None = None
    via: bool = False
    waives: int = 1
    path: tuple[Ref, ...] = ()
    """Places written between the unit and the destination of a move
    (``A Yor - Nth - Nwy``): a convoy path, ignored by the standard rules."""


class UnknownName(InvalidLine):
    """A word where a place belongs that is no name, abbreviation or alias
    on the map (nor the start of one), or words left over after a place (the
    rest of a misspelt name of several words, ``"Mid Atlantik"``). It keeps
    the line as the reader split it (``tokens``, lower case) and where the
    word stands (``index``), so that the game can try the names the player
    may have meant in its place (:meth:`judge_games.diplomacy.standard.StandardForm._parse`);
    ``choices`` are the whole lines it then suggests, in its hint."""

    def __init__(
        self,
        message: str,
        *,
        line: str = "",
        hint: str = "",
        tokens: Sequence[str] = (),
        index: int = 0,
        choices: Sequence[str] = (),
    ) -> None:
        super().__init__(message, line=line, hint=hint)
        self.tokens = tuple(tokens)
        self.index = index
        self.choices = tuple(choices)


def order_text(dm: DipMap, order: Order) -> str:
    """The canonical text of ``order``, which :func:`read_order` reads back."""
    loc = dm.loc_text
    k = order.kind
    if k == WAIVE:
        return "Waive" if order.waives == 1 else f"Waive {order.waives}"
    head = f"{order.unit} {loc(order.loc)}"
    if k == HOLD:
        return f"{head} H"
    if k == MOVE:
        through = "".join(f" - {dm.provinces[p].id}" for p in order.path)
        return f"{head}{through} - {loc(order.dest)}" + (" via convoy" if order.via else "")
    if k == CONVERT:
        return f"{head} convert"
    if k in (SUPPORT, CONVOY):
        verb = "S" if k == SUPPORT else "C"
        tgt = f"{order.target_unit} {dm.provinces[order.target].id}"
        if order.dest < 0:
            return f"{head} {verb} {tgt}"
        return f"{head} {verb} {tgt} - {loc(order.dest)}"
    if k == RETREAT:
        return f"{head} R {loc(order.dest)}"
    if k == DISBAND:
        return f"{head} D"
    if k == BUILD:
        return f"Build {head}"
    if k == REMOVE:
        return f"Remove {head}"
    raise ValueError(f"unknown order kind {k!r}")


# ---------------------------------------------------------------------- grammar

_TOKEN = re.compile(r"->|=>|[-/()]|[a-z0-9]+")
_STRAY = re.compile(r"[^A-Za-z0-9\s\-=>/().,:;']")
_POSSESSIVE = re.compile(r"'s\b")
_DOTTED_COAST = re.compile(r"\b([nsew])\s*\.\s*c\s*\.?", re.IGNORECASE)

_HOLD = {"h", "hold", "holds", "stand", "stands"}
_MOVE = {"-", "->", "=>", "m", "move", "moves", "to", "attack", "attacks"}
_SUPPORT = {"s", "support", "supports", "sup"}
_CONVOY = {"c", "convoy", "convoys", "transport", "transports"}
_RETREAT = {"r", "retreat", "retreats"}
_DISBAND = {"d", "disband", "disbands"}
_BUILD = {"b", "build", "builds"}
_REMOVE = {"remove", "removes"}
_WAIVE = {"waive", "waives", "w"}
_ARMY = {"a", "army"}
_FLEET = {"f", "fleet"}
_VIA = {"via", "by"}
_COAST_WORDS = {
    "nc": "nc",
    "sc": "sc",
    "ec": "ec",
    "wc": "wc",
    "north": "nc",
    "south": "sc",
    "east": "ec",
    "west": "wc",
    "n": "nc",
    "s": "sc",
    "e": "ec",
    "w": "wc",
}
_MAX_NAME_TOKENS = 5


class AmbiguousName(AmbiguousLine):
    """A place name in an order line that fits several provinces:
    ``choices`` are their abbreviations, and the name was written as
    ``tokens[start:end]`` (the line's words as read, lower case), so a
    choice can be put in its place to give a whole order line."""

    def __init__(
        self,
        message: str,
        *,
        line: str,
        choices: Sequence[str],
        tokens: Sequence[str],
        start: int,
        end: int,
    ) -> None:
        super().__init__(message, line=line, choices=choices)
        self.tokens = tuple(tokens)
        self.start = start
        self.end = end

    def lines(self) -> list[str]:
        """The order line with each choice in place of the ambiguous name."""
        head, tail = self.tokens[: self.start], self.tokens[self.end :]
        return [" ".join((*head, choice, *tail)) for choice in self.choices]


class Reader:
    """A cursor over the tokens of one order line (the family's grammar; a
    variant's ``read_order`` hook reads its own forms with it)."""

    def __init__(self, dm: DipMap, line: str) -> None:
        self.dm = dm
        self.line = line
        text = _DOTTED_COAST.sub(lambda m: f" {m.group(1)}c ", line.lower())
        text = _POSSESSIVE.sub("", text)
        self.toks = _TOKEN.findall(text)
        self.i = 0

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else ""

    def done(self) -> bool:
        return self.i >= len(self.toks)

    def take(self, words: set[str]) -> str:
        tok = self.peek()
        if tok and tok in words:
            self.i += 1
            return tok
        return ""

    def invalid(self, why: str) -> InvalidLine:
        return InvalidLine(why, line=self.line)

    # --------------------------------------------------------------- pieces

    def power_word(self) -> None:
        """Skip a nationality (``German``, ``France``): ignored, DATC 4.C.5/4.C.6."""
        tok = self.peek()
        if tok and tok in self.dm.power_index and normalize(tok) not in self.dm.names:
            self.i += 1

    def unit_type(self) -> str:
        if self.take(_ARMY):
            return "A"
        if self.take(_FLEET):
            return "F"
        return ""

    def place(self, what: str = "a province") -> Ref:
        prov = self._province(what)
        return Ref(prov, self._coast())

    def _province(self, what: str) -> int:
        toks, names = self.toks, self.dm.names
        best = -1
        hit: tuple[int, ...] = ()
        hyphen = False
        for j in range(self.i + 1, min(len(toks), self.i + _MAX_NAME_TOKENS) + 1):
            last = toks[j - 1]
            if not last[0].isalnum():
                if last == "-":
                    hyphen = True  # "Mid-Atlantic": a hyphen inside a name ...
                    continue
                break
            if hyphen:
                # ... but only a name written with one ("A Swe-Den" is a move).
                found_h = self.dm.hyphenated.get("".join(toks[self.i : j]))
                if found_h:
                    best, hit = j, found_h
                continue
            key = "".join(toks[self.i : j])  # tokens are already lower-case alphanumerics
            if key in names:
                best, hit = j, names[key]
        if best < 0:
            tok = self.peek()
            key = normalize(tok)
            if len(key) >= 3 and not self._misspelt_phrase():
                found = sorted(
                    {
                        p.idx
                        for p in self.dm.provinces
                        for text in (p.name, p.id, *p.aliases)
                        if normalize(text).startswith(key)
                    }
                )
                if len(found) == 1:
                    self.i += 1
                    return found[0]
                if found:
                    names_found = [self.dm.provinces[p].name for p in found]
                    raise AmbiguousName(
                        f"{tok!r} could be " + ", ".join(names_found),
                        line=self.line,
                        choices=[self.dm.provinces[p].id for p in found],
                        tokens=self.toks,
                        start=self.i,
                        end=self.i + 1,
                    )
            shown = f"{tok!r}" if tok else "nothing"
            if tok[:1].isalnum():
                raise UnknownName(
                    f"expected {what}, found {shown}",
                    line=self.line,
                    tokens=self.toks,
                    index=self.i,
                )
            raise self.invalid(f"expected {what}, found {shown}")
        if len(hit) > 1:
            raise AmbiguousName(
                f"{' '.join(self.toks[self.i : best])!r} could be "
                + ", ".join(self.dm.provinces[p].name for p in hit),
                line=self.line,
                choices=[self.dm.provinces[p].id for p in hit],
                tokens=self.toks,
                start=self.i,
                end=best,
            )
        self.i = best
        return hit[0]

    def _coast(self) -> str:
        save = self.i
        if self.take({"/"}):
            c = self._coast_word()
            if c:
                return c
            raise self.invalid("expected a coast after '/'")
        if self.take({"("}):
            c = self._coast_word()
            if c and self.take({")"}):
                return c
            self.i = save
            return ""
        tok = self.peek()
        if tok in ("nc", "sc", "ec", "wc"):
            self.i += 1
            return tok
        if tok in ("north", "south", "east", "west") and self.peek(1) == "coast":
            self.i += 2
            return _COAST_WORDS[tok]
        return ""

    def _coast_word(self) -> str:
        tok = self.peek()
        if tok in _COAST_WORDS:
            self.i += 1
            self.take({"coast"})
            return _COAST_WORDS[tok]
        return ""

    def via_convoy(self) -> bool:
        """``via convoy`` (``by convoy``, in brackets or not), or a ``VIA``
        that ends the line, as MILA's engine and DAIDE's notation write a
        move by convoy (``A LON - NWY VIA``)."""
        save = self.i
        paren = bool(self.take({"("}))
        if self.take(_VIA) and self.take(_CONVOY):
            if paren and not self.take({")"}):
                raise self.invalid("unclosed '('")
            return True
        self.i = save
        if self.peek() == "via" and self.i == len(self.toks) - 1:
            self.i += 1
            return True
        return False

    def _misspelt_phrase(self) -> bool:
        """Whether the words from here, two or more, are close to a name of
        several words (``"Gulf of Botnia"``): then they are that name
        misspelt, not the start of a name (``"Gulf"``) and more."""
        words: list[str] = []
        for tok in self.toks[self.i : self.i + _MAX_NAME_TOKENS]:
            if not tok[0].isalnum():
                break
            words.append(tok)
            if len(words) > 1 and self.dm.similar("".join(words)):
                return True
        return False

    def end(self) -> None:
        if not self.done():
            rest = " ".join(self.toks[self.i :])
            message = f"did not understand {rest!r} at the end"
            if self.peek()[0].isalnum():
                raise UnknownName(message, line=self.line, tokens=self.toks, index=self.i)
            raise self.invalid(message)


def read_order(
    dm: DipMap, line: str, phase_kind: str, rules: VariantRules | None = None
) -> Draft:
    """Read one order line for a phase of kind ``phase_kind`` (M, R or A),
    under a variant's ``rules`` (``None``: the standard rules).

    Raises ``InvalidLine`` or ``AmbiguousLine`` quoting ``line``. The result
    still has to be checked against the board. A line read once is not
    parsed again (``DipMap.drafts``; lines that fail are not kept).
    """
    key = (line, phase_kind, rules is None)
    known: Draft | None = dm.drafts.get(key)
    if known is not None:
        return known
    draft = _read_order(dm, line, phase_kind, rules)
    if len(dm.drafts) >= _MAX_DRAFTS:
        dm.drafts.clear()
    dm.drafts[key] = draft
    return draft


_MAX_DRAFTS = 100_000
"""The most order lines kept read per map (then the store starts afresh)."""


def _read_order(dm: DipMap, line: str, phase_kind: str, rules: VariantRules | None) -> Draft:
    bad = _STRAY.search(line)
    if bad:
        raise InvalidLine(f"unexpected character {bad.group(0)!r}", line=line)
    if rules is not None and rules.read_order is not None:
        special = rules.read_order(dm, line, phase_kind)
        if special is not None:
            return special
    if phase_kind == MOVEMENT:
        quick = _quick_movement(dm, line)
        if quick is not None:
            return quick
    r = Reader(dm, line)
    if r.done():
        raise r.invalid("empty order")
    if phase_kind == ADJUSTMENTS:
        return _read_adjustment(r)
    if phase_kind == RETREATS:
        return _read_retreat(r)
    return _read_movement(r)


# The forms tools and the judge itself write ("A PAR - BUR", "F NTH C A LON -
# NWY", "A MUN S A PAR - BUR", "F STP/SC H") are read by one regular
# expression; anything else, or any name it does not know, goes to the
# general reader, which gives the same draft for these forms.
_QUICK = re.compile(
    r"([af]) ([a-z]+)(?:/([nse]c))?"
    r"(?: (h)| - ([a-z]+)(?:/([nse]c))?| ([sc]) ([af]) ([a-z]+)(?: - ([a-z]+)(?:/([nse]c))?)?)?"
)


def _quick_movement(dm: DipMap, line: str) -> Draft | None:
    m = _QUICK.fullmatch(line.strip().lower())
    if m is None:
        return None
    unit, where, wcoast, _hold, dest, dcoast, verb, tunit, tgt, tdest, tcoast = m.groups()
    names = dm.names

    def ref(name: str | None, coast: str | None) -> Ref | None:
        hit = names.get(name) if name else None
        if hit is None or len(hit) != 1:
            raise KeyError(name)
        return Ref(hit[0], coast or "")

    try:
        here = ref(where, wcoast)
        if dest:
            return Draft(MOVE, unit.upper(), here, ref(dest, dcoast))
        if verb == "s":
            return Draft(
                SUPPORT,
                unit.upper(),
                here,
                ref(tdest, tcoast) if tdest else None,
                tunit.upper(),
                ref(tgt, None),
            )
        if verb == "c":
            if not tdest or tcoast:
                return None
            return Draft(
                CONVOY, unit.upper(), here, ref(tdest, None), tunit.upper(), ref(tgt, None)
            )
        return Draft(HOLD, unit.upper(), here)
    except KeyError:
        return None


def _read_adjustment(r: Reader) -> Draft:
    if r.take(_WAIVE):
        r.take(_BUILD)
        count = 1
        tok = r.peek()
        if tok.isdigit():
            r.i += 1
            count = int(tok)
            r.take(_BUILD)
        if count < 1:
            raise r.invalid("waive at least one build")
        r.end()
        return Draft(WAIVE, "", None, waives=count)
    if r.take(_BUILD):
        r.power_word()
        unit = r.unit_type()
        where = r.place()
        r.end()
        return Draft(BUILD, unit, where)
    if r.take(_REMOVE | _DISBAND | _RETREAT):
        r.power_word()
        unit = r.unit_type()
        where = r.place()
        r.end()
        return Draft(REMOVE, unit, where)
    r.power_word()
    unit = r.unit_type()
    where = r.place()
    if r.take(_BUILD):
        r.end()
        return Draft(BUILD, unit, where)
    if r.take(_REMOVE | _DISBAND | _RETREAT):
        r.end()
        return Draft(REMOVE, unit, where)
    raise r.invalid("an adjustment order is Build, Remove or Waive")


def _read_retreat(r: Reader) -> Draft:
    if r.take(_DISBAND | _REMOVE):
        r.power_word()
        unit = r.unit_type()
        where = r.place()
        r.end()
        return Draft(DISBAND, unit, where)
    r.power_word()
    unit = r.unit_type()
    where = r.place()
    if r.take(_DISBAND | _REMOVE):
        r.end()
        return Draft(DISBAND, unit, where)
    if r.take(_RETREAT | _MOVE):
        r.take({"to"})
        dest = r.place("where to retreat")
        r.end()
        return Draft(RETREAT, unit, where, dest)
    if r.peek() in _SUPPORT | _CONVOY | _HOLD:
        raise r.invalid("in a retreat phase a dislodged unit may only retreat (R) or disband (D)")
    raise r.invalid("a retreat order is '<unit> R <province>' or '<unit> D'")


def _read_movement(r: Reader) -> Draft:
    first = r.peek()
    if first in ("build", "builds", "remove", "removes", "waive", "waives"):
        raise r.invalid("builds and removals are ordered in the winter adjustments, not now")
    if first in ("disband", "disbands", "retreat", "retreats"):
        raise r.invalid("retreats and disbands are ordered in a retreat phase, not now")
    r.power_word()
    unit = r.unit_type()
    where = r.place()
    if r.done() or r.take(_HOLD):
        r.end()
        return Draft(HOLD, unit, where)
    if r.take(_MOVE):
        r.take({"to"})
        dest = r.place("a destination")
        # A path "A Yor - Nth - Nwy" names the convoy route: ignored (DATC 4.A.6).
        path: list[Ref] = []
        while r.peek() in _MOVE and r.peek():
            r.i += 1
            path.append(dest)
            dest = r.place("a destination")
        via = r.via_convoy()
        r.end()
        return Draft(MOVE, unit, where, dest, via=via, path=tuple(path))
    if r.take(_SUPPORT):
        r.power_word()
        tunit = r.unit_type()
        target = r.place("the supported unit")
        if r.done() or r.take(_HOLD):
            r.end()
            return Draft(SUPPORT, unit, where, None, tunit, target)
        if not r.take(_MOVE):
            raise r.invalid("a support is 'S <unit>' or 'S <unit> - <province>'")
        dest = r.place("where the supported unit moves")
        r.via_convoy()  # "S A Lon - Nwy via convoy": the support is the same
        r.end()
        return Draft(SUPPORT, unit, where, dest, tunit, target)
    if r.take(_CONVOY):
        r.power_word()
        tunit = r.unit_type()
        target = r.place("the convoyed army")
        if not r.take(_MOVE):
            raise r.invalid("a convoy is 'C A <province> - <province>'")
        dest = r.place("where the army goes")
        r.end()
        return Draft(CONVOY, unit, where, dest, tunit, target)
    if r.peek() in _RETREAT | _DISBAND:
        raise r.invalid("retreats and disbands are ordered in a retreat phase, not now")
    if r.peek() in _BUILD | _REMOVE:
        raise r.invalid("builds and removals are ordered in the winter adjustments, not now")
    raise r.invalid("expected H, -, S or C after the unit")

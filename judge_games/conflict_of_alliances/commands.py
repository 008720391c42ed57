"""The mail grammar of Conflict of Alliances, as syntax only.

:func:`syntax` turns one line into a plain dict without looking at the game
state, so that everything it refuses is :class:`InvalidLine` (not understood)
and a well-formed line that does not fit the moment is left for the rules to
refuse as :class:`IllegalLine` (the judge queues such lines). :func:`text`
writes the canonical line of a (validated) command; ``syntax(text(c))``
gives ``c`` back.

Words are case-insensitive; names are the ids of the data files, written with
or without hyphens (``xiao-han``, ``XiaoHan``). The commands::

    PASS
    PLAY <card> FACEDOWN MILITARY <op>
    PLAY <card> FACEDOWN REINFORCE <force> <area>
    PLAY <card> FACEDOWN DIPLOMACY <force> LEFT|RIGHT|LOCK
    PLAY <card> FACEDOWN WEATHER [MOVE|LOCK]
    PLAY <card> FACEUP [A|B] [<card arguments>]
    MILITARY <op>            REINFORCE <force> <area>          SKIP
    RESPOND <card> [FROM <area>]
    DEFEND [<n> READY] [<n> TIRED] [<general> ...] [LEAD <general>]
    LOSE [<n> MOVED|STAYED|READY|TIRED ...] [<general> ...]
    ATTACK <force>           RETREAT     STAY     ADVANCE
    TAKE <card>              DISCARD <card>       BID <number>

    <op> = <area> [<force>] [<n>] [<general> ...] [LEAD <general>]
           [TO <area> ...] [JOIN [<n>] [<general> ...]] [ATTACK <force>]
           [CONTROL <force>]
"""

from __future__ import annotations

from typing import Any

from judge.game.engine import InvalidLine
from judge_games.conflict_of_alliances.data import DATA, SIDES

Cmd = dict[str, Any]

VERBS = (
    "PASS", "PLAY", "MILITARY", "REINFORCE", "SKIP", "RESPOND", "DEFEND", "LOSE",
    "ATTACK", "RETREAT", "STAY", "ADVANCE", "TAKE", "DISCARD", "BID",
)
OP_KEYWORDS = ("LEAD", "TO", "JOIN", "ATTACK", "CONTROL")
LOSS_KINDS = ("moved", "stayed", "ready", "tired")
CARD_EFFECTS: dict[str, dict[str, str]] = {}
"""slug -> option key -> effect (the same in both decks for a shared slug)."""
for _deck in DATA.cards.values():
    for _card in _deck.values():
        CARD_EFFECTS.setdefault(_card.id, {}).update({o.key: o.effect for o in _card.options})


def _bad(message: str, line: str, hint: str = "") -> InvalidLine:
    return InvalidLine(message, line=line, hint=hint)


class _Words:
    """A cursor over the words of a line."""

    def __init__(self, line: str) -> None:
        self.line = line
        self.words = line.split()
        self.i = 0

    def more(self) -> bool:
        return self.i < len(self.words)

    def peek(self) -> str:
        return self.words[self.i] if self.more() else ""

    def upper(self) -> str:
        return self.peek().upper()

    def take(self, what: str) -> str:
        if not self.more():
            raise _bad(f"{what} missing at the end", self.line)
        word = self.words[self.i]
        self.i += 1
        return word

    def done(self) -> None:
        if self.more():
            raise _bad(f"not understood: {' '.join(self.words[self.i:])!r}", self.line)

    def area(self) -> str:
        word = self.take("an area")
        found = DATA.area(word)
        if found is None:
            raise _bad(f"no area called {word!r}", self.line,
                       "areas: " + ", ".join(DATA.areas))
        return found

    def force(self) -> str:
        word = self.take("a force")
        found = DATA.force(word)
        if found is None:
            raise _bad(f"no force called {word!r}", self.line,
                       "forces: " + ", ".join(DATA.forces))
        return found

    def general(self) -> str:
        word = self.take("a general")
        found = DATA.general(word)
        if found is None:
            raise _bad(f"no general called {word!r}", self.line)
        return found

    def card(self) -> str:
        word = self.take("a card")
        for side in SIDES:
            found = DATA.card(side, word)
            if found is not None:
                return found
        raise _bad(f"no card called {word!r}", self.line,
                   "write the card's name with hyphens, e.g. emissary-to-zhao")

    def number(self, what: str) -> int:
        word = self.take(what)
        if not word.isdigit() or len(word) > 3:
            raise _bad(f"{what} must be a number, not {word!r}", self.line)
        return int(word)

    def is_number(self) -> bool:
        w = self.peek()
        return w.isdigit() and len(w) <= 3

    def is_general(self) -> bool:
        return self.more() and DATA.general(self.peek()) is not None

    def _named(self) -> bool:
        return self.more() and self.upper() not in OP_KEYWORDS

    def is_force(self) -> bool:
        return self._named() and DATA.force(self.peek()) is not None

    def is_area(self) -> bool:
        return self._named() and DATA.area(self.peek()) is not None


# --------------------------------------------------------------------------- pieces


def _counters(w: _Words) -> tuple[int | None, list[str]]:
    """``[<n>] [<general> ...]``."""
    n: int | None = None
    if w.is_number():
        n = w.number("a number of armies")
    gens: list[str] = []
    while w.is_general():
        gens.append(w.general())
    return n, gens


def _op(w: _Words) -> Cmd:
    op: Cmd = {"area": w.area(), "force": None, "armies": None, "generals": [], "lead": None,
               "path": [], "join": None, "target": None, "control": None}
    if w.is_force() and not w.is_number():
        op["force"] = w.force()
    op["armies"], op["generals"] = _counters(w)
    seen: set[str] = set()
    while w.more():
        word = w.upper()
        if word not in OP_KEYWORDS:
            raise _bad(f"not understood in a military operation: {w.peek()!r}", w.line,
                       "after the counters: LEAD, TO, JOIN, ATTACK, CONTROL")
        if word in seen:
            raise _bad(f"{word} given twice", w.line)
        seen.add(word)
        w.take(word)
        if word == "LEAD":
            op["lead"] = w.general()
        elif word == "TO":
            while w.is_area():
                op["path"].append(w.area())
            if not op["path"]:
                raise _bad("TO needs the areas of the move", w.line, "TO xiao-han han")
        elif word == "JOIN":
            n, gens = _counters(w)
            if n is None and not gens:
                raise _bad("JOIN needs a number of armies or generals", w.line)
            op["join"] = {"armies": n or 0, "generals": gens}
        elif word == "ATTACK":
            op["target"] = w.force()
        else:
            op["control"] = w.force()
    return op


def _faceup_args(w: _Words, effect: str, cmd: Cmd) -> None:
    """The arguments a face-up card needs, by its effect (README, card table)."""
    if effect in ("sway", "emissary", "mao-sui"):
        if w.more():
            cmd["force"] = w.force()
    elif effect == "draw":
        if w.upper() == "DISCARD":
            w.take("DISCARD")
            cmd["discard"] = w.card()
    elif effect == "general":
        cmd["place"] = []
        while w.more():
            word = w.upper()
            if word == "GENERAL":
                w.take(word)
                g = w.general()
                cmd["place"].append([g, w.area()])
            elif word == "DISCARD":
                w.take(word)
                cmd["discard"] = w.card()
            else:
                raise _bad(f"not understood: {w.peek()!r}", w.line,
                           "GENERAL <general> <area> [DISCARD <card>]")
    elif effect == "fan-ju":
        cmd["general"] = w.general()
    elif effect == "national":
        cmd["areas"] = []
        while w.more():
            cmd["areas"].append(w.area())
    elif effect == "bolster":
        cmd["bolster"] = w.area()
        if w.more():
            cmd["force"] = w.force()
    w.done()


def syntax(line: str) -> Cmd:
    """Parse ``line`` without the state. Raises InvalidLine."""
    w = _Words(line)
    if not w.more():
        raise _bad("empty line", line)
    verb = w.take("a command").upper()
    cmd: Cmd = {"verb": verb}
    if verb in ("PASS", "SKIP", "RETREAT", "STAY", "ADVANCE"):
        w.done()
    elif verb == "PLAY":
        cmd["card"] = w.card()
        mode = w.take("FACEUP or FACEDOWN").upper()
        if mode in ("FACEDOWN", "DOWN"):
            cmd["mode"] = "down"
            use = w.take("MILITARY, REINFORCE, DIPLOMACY or WEATHER").upper()
            cmd["use"] = use
            if use == "MILITARY":
                cmd["op"] = _op(w)
            elif use == "REINFORCE":
                cmd["force"] = w.force()
                cmd["area"] = w.area()
            elif use == "DIPLOMACY":
                cmd["force"] = w.force()
                way = w.take("LEFT, RIGHT or LOCK").upper()
                if way not in ("LEFT", "RIGHT", "LOCK"):
                    raise _bad(f"a diplomatic action goes LEFT, RIGHT or LOCK, not {way!r}", line)
                cmd["way"] = way
            elif use == "WEATHER":
                way = w.take("").upper() if w.more() else ""
                if way not in ("", "MOVE", "LOCK"):
                    raise _bad(f"a weather action is MOVE or LOCK, not {way!r}", line)
                cmd["way"] = way or None
            else:
                raise _bad(f"a face-down card is used for MILITARY, REINFORCE, DIPLOMACY or "
                           f"WEATHER, not {use!r}", line)
            w.done()
        elif mode in ("FACEUP", "UP"):
            cmd["mode"] = "up"
            effects = CARD_EFFECTS[cmd["card"]]
            option = None
            if w.upper() in ("A", "B"):
                option = w.take("A or B").lower()
                if option not in effects:
                    raise _bad(f"{cmd['card']} has no option {option.upper()}", line)
            elif len(effects) > 1:
                raise _bad(f"{cmd['card']} has two options: say A or B", line,
                           f"PLAY {cmd['card']} FACEUP A ...")
            else:
                option = next(iter(effects))
            cmd["option"] = option
            _faceup_args(w, effects[option], cmd)
        else:
            raise _bad(f"play a card FACEUP or FACEDOWN, not {mode!r}", line)
    elif verb == "MILITARY":
        cmd["op"] = _op(w)
        w.done()
    elif verb == "REINFORCE":
        cmd["force"] = w.force()
        cmd["area"] = w.area()
        w.done()
    elif verb == "RESPOND":
        cmd["card"] = w.card()
        if w.upper() in ("A", "B"):
            cmd["option"] = w.take("A or B").lower()
        if w.upper() == "FROM":
            w.take("FROM")
            cmd["from"] = w.area()
        w.done()
    elif verb == "DEFEND":
        cmd["ready"] = None
        cmd["tired"] = None
        cmd["generals"] = []
        cmd["lead"] = None
        while w.more():
            if w.is_number():
                n = w.number("a number")
                kind = w.take("READY or TIRED").lower()
                if kind not in ("ready", "tired") or cmd[kind] is not None:
                    raise _bad("DEFEND counts armies as <n> READY and <n> TIRED", line)
                cmd[kind] = n
            elif w.upper() == "LEAD":
                w.take("LEAD")
                cmd["lead"] = w.general()
            else:
                cmd["generals"].append(w.general())
        cmd["ready"] = cmd["ready"] or 0
        cmd["tired"] = cmd["tired"] or 0
    elif verb == "LOSE":
        cmd["armies"] = {}
        cmd["generals"] = []
        while w.more():
            if w.is_number():
                n = w.number("a number")
                kind = w.take("MOVED, STAYED, READY or TIRED").lower()
                if kind not in LOSS_KINDS or kind in cmd["armies"]:
                    raise _bad("LOSE counts armies as <n> MOVED|STAYED|READY|TIRED", line)
                cmd["armies"][kind] = n
            else:
                cmd["generals"].append(w.general())
    elif verb == "ATTACK":
        cmd["target"] = w.force()
        w.done()
    elif verb in ("TAKE", "DISCARD"):
        cmd["card"] = w.card()
        w.done()
    elif verb == "BID":
        cmd["bid"] = w.number("a bid")
        w.done()
    else:
        raise _bad("not understood", line,
                   "commands: PASS, PLAY, MILITARY, REINFORCE, SKIP, RESPOND, DEFEND, LOSE, "
                   "ATTACK, RETREAT, STAY, ADVANCE, TAKE, DISCARD, BID")
    return cmd


# --------------------------------------------------------------------------- canonical text


def op_text(op: Cmd) -> str:
    parts = [op["area"], op["force"]]
    if op["armies"]:
        parts.append(str(op["armies"]))
    parts += op["generals"]
    if op["lead"]:
        parts += ["LEAD", op["lead"]]
    if op["path"]:
        parts += ["TO", *op["path"]]
    if op["join"]:
        parts.append("JOIN")
        if op["join"]["armies"]:
            parts.append(str(op["join"]["armies"]))
        parts += op["join"]["generals"]
    if op["target"]:
        parts += ["ATTACK", op["target"]]
    if op["control"]:
        parts += ["CONTROL", op["control"]]
    return " ".join(parts)


def text(cmd: Cmd) -> str:
    """The canonical line of a validated command."""
    verb = cmd["verb"]
    if verb == "PLAY":
        card = cmd["card"]
        if cmd["mode"] == "down":
            use = cmd["use"]
            head = f"PLAY {card} FACEDOWN {use}"
            if use == "MILITARY":
                return f"{head} {op_text(cmd['op'])}"
            if use == "REINFORCE":
                return f"{head} {cmd['force']} {cmd['area']}"
            if use == "DIPLOMACY":
                return f"{head} {cmd['force']} {cmd['way']}"
            return f"{head} {cmd['way']}" if cmd.get("way") else head
        parts = [f"PLAY {card} FACEUP"]
        if len(CARD_EFFECTS[card]) > 1:
            parts.append(cmd["option"].upper())
        if cmd.get("force") and "bolster" not in cmd:
            parts.append(cmd["force"])
        if cmd.get("general"):
            parts.append(cmd["general"])
        for g, a in cmd.get("place", []):
            parts += ["GENERAL", g, a]
        parts += cmd.get("areas", [])
        if cmd.get("bolster"):
            parts.append(cmd["bolster"])
            if cmd.get("force"):
                parts.append(cmd["force"])
        if cmd.get("discard"):
            parts += ["DISCARD", cmd["discard"]]
        return " ".join(parts)
    if verb == "MILITARY":
        return f"MILITARY {op_text(cmd['op'])}"
    if verb == "REINFORCE":
        return f"REINFORCE {cmd['force']} {cmd['area']}"
    if verb == "RESPOND":
        parts = [f"RESPOND {cmd['card']}"]
        if cmd.get("from"):
            parts += ["FROM", cmd["from"]]
        return " ".join(parts)
    if verb == "DEFEND":
        parts = ["DEFEND"]
        if cmd["ready"]:
            parts += [str(cmd["ready"]), "READY"]
        if cmd["tired"]:
            parts += [str(cmd["tired"]), "TIRED"]
        parts += cmd["generals"]
        if cmd["lead"]:
            parts += ["LEAD", cmd["lead"]]
        return " ".join(parts)
    if verb == "LOSE":
        parts = ["LOSE"]
        for kind in LOSS_KINDS:
            n = cmd["armies"].get(kind, 0)
            if n:
                parts += [str(n), kind.upper()]
        parts += cmd["generals"]
        return " ".join(parts)
    if verb == "ATTACK":
        return f"ATTACK {cmd['target']}"
    if verb in ("TAKE", "DISCARD"):
        return f"{verb} {cmd['card']}"
    if verb == "BID":
        return f"BID {cmd['bid']}"
    return str(verb)

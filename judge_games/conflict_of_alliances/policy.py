"""Response windows as data, for standing answers (``POLICY``) and HELP.

Two kinds of window (rulebook, Responses; README "Windows"):

* ``before-combat``: before every battle, after the target is chosen and the
  attacked force's diplomacy counter has moved, to the passive player, who
  commands the defenders (Combat Procedure). Answers: RESPOND with a
  Break-marked card (Emergency Mobilization B, Elite Crossbowmen B, Lord
  Xinling B), DEFEND (which counters take part), PASS.
* ``character-card``: whenever the active player plays a character card face
  up, to the passive player (Li Si, Jing Ke: "Play if enemy plays character
  card"). Answers: RESPOND, PASS.

:func:`context` gives the public facts of the open window: they go into the
Decision (``Decision.context``) and into the view (``view["window"]``), so a
standing answer can be tested on what its seat sees and nothing else.

Context keys. Both windows: ``window`` (the kind) and ``responder`` (the side
that may answer). ``before-combat``: ``area``, ``attacker`` and ``defender``
(forces), ``attacker_side``, ``city`` (the defenders hold the city),
``battle`` (its number in the operation), ``card`` (the slug of the face-up
card directing the operation, or None for a face-down play),
``attackers`` (``{"armies": n, "generals": [...]}`` taking part).
``character-card``: ``card`` (slug), ``card_name``, ``option`` (``a``/``b``),
``played_by`` (side), ``force`` (the force the card acts on, or None) and
``general`` (Fan Ju's target, or None).

Condition words (``POLICY <window> <answer> WHEN <word> <names>``):

* ``AREA <area>...``      before-combat: the battle is in one of these areas;
* ``FORCE <force>...``    before-combat: the attacked force is one of these;
                          character-card: the card acts on one of these forces;
* ``ATTACKER <force>...`` before-combat: the attacking force is one of these;
* ``CARD <card>...``      character-card: the card played is one of these;
                          before-combat: the face-up card directing the attack;
* ``HOLDING <card>``      both: I hold that card in my hand.

Names are matched as in commands (``data.key``: case, spaces, hyphens and
underscores folded); a name of several words may be written with spaces
(``AREA Han Dan``). The canonical text is the upper-case word and the ids
(``AREA han-dan``). Conditions joined by ``AND`` must all hold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from judge.game.engine import (
    JSON,
    Decision,
    IllegalLine,
    PolicyCondition,
    State,
    WindowSpec,
    conjuncts,
)
from judge_games.conflict_of_alliances.cards import BEFORE_COMBAT, CHARACTER
from judge_games.conflict_of_alliances.data import DATA, SIDES, card_of, other, slug

_AREA = PolicyCondition("AREA", "<area>...", "the battle is in one of these areas")
_DEFENDER = PolicyCondition("FORCE", "<force>...", "the attacked (defending) force is one of these")
_ATTACKER = PolicyCondition("ATTACKER", "<force>...", "the attacking force is one of these")
_OP_CARD = PolicyCondition("CARD", "<card>...",
                           "the card played face up to direct the attack is one of these")
_HOLDING = PolicyCondition("HOLDING", "<card>", "you hold that card in your hand (chooses an "
                           "answer only)", private=True)
_PLAYED = PolicyCondition("CARD", "<card>...", "the character card played is one of these")
_TARGET = PolicyCondition("FORCE", "<force>...",
                          "the character card acts on one of these forces")

WINDOWS: tuple[WindowSpec, ...] = (
    WindowSpec(
        BEFORE_COMBAT,
        "before every battle, to the passive player, who commands the defenders: "
        "respond with a Break-marked card (Emergency Mobilization B, Elite Crossbowmen B, "
        "Lord Xinling B) or choose the defending counters",
        answers=("RESPOND <card> [FROM <area>]",
                 "DEFEND [<n> READY] [<n> TIRED] [<general>...] [LEAD <general>]"),
        conditions=(_AREA, _DEFENDER, _ATTACKER, _OP_CARD, _HOLDING),
    ),
    WindowSpec(
        CHARACTER,
        "when the active player plays a character card face up, to the passive player: "
        "Li Si or Jing Ke may cancel it",
        answers=("RESPOND <card>",),
        conditions=(_PLAYED, _TARGET, _HOLDING),
    ),
)
"""The response windows, in the form of judge.game.engine.WindowSpec."""

KINDS: tuple[str, ...] = tuple(w.kind for w in WINDOWS)


def spec(window: str) -> WindowSpec | None:
    return next((w for w in WINDOWS if w.kind == window), None)


# --------------------------------------------------------------------------- context


def _card_slug(side: str, name: str) -> str | None:
    """The slug of the card of ``side`` whose name is ``name`` (an operation's
    label is the name of the face-up card that directs it, or empty)."""
    if not name:
        return None
    return next((c.id for c in DATA.cards[side].values() if c.name == name), None)


def context(state: State) -> dict[str, JSON]:
    """The public facts of the open response window (empty when none is open).
    Everything here is on the board or was announced in public events."""
    w = state.get("window")
    if w is None:
        return {}
    kind = w["kind"]
    out: dict[str, JSON] = {"window": kind, "responder": w["side"]}
    if kind == BEFORE_COMBAT:
        op, bt = state["op"], state["battle"]
        out.update({
            "area": bt["area"],
            "attacker": op["force"],
            "defender": bt["target"],
            "attacker_side": op["side"],
            "city": bool(bt["city"]),
            "battle": int(op["battles"]),
            "card": _card_slug(op["side"], str(op["label"])),
            "attackers": {
                "armies": int(op["group"]["armies"]) + int(op["stay"]["armies"]),
                "generals": list(op["group"]["generals"]) + list(op["stay"]["generals"]),
            },
        })
        return out
    played_by = other(w["side"])
    card = card_of(played_by, w["card"])
    item = next((t for t in reversed(state["todo"]) if t.get("t") == "effect"), None)
    cmd: dict[str, Any] = dict(item["cmd"]) if item is not None else {}
    option = card.option(str(cmd.get("option", "a")))
    params: dict[str, Any] = option.params if option is not None else {}
    general = cmd.get("general")
    force = cmd.get("force") or params.get("force")
    if force is None and general is not None:
        force = DATA.generals[general].force
    if force is None and option is not None and option.effect == "mi-yue":
        force = "yiqu"
    out.update({
        "card": slug(w["card"]),
        "card_name": card.name,
        "option": option.key if option is not None else "a",
        "played_by": played_by,
        "force": force,
        "general": general,
    })
    return out


# --------------------------------------------------------------------------- conditions


def _names(words: Sequence[str], lookup: Callable[[str], str | None]) -> list[str] | None:
    """Resolve ``words`` to ids, joining neighbouring words into one name
    where that is what resolves (``Han Dan``, ``emergency mobilization``):
    the longest run of words that names something wins. None if any word is
    left over."""
    out: list[str] = []
    i = 0
    while i < len(words):
        for j in range(len(words), i, -1):
            found = lookup("".join(words[i:j]))
            if found is not None:
                if found not in out:
                    out.append(found)
                i = j
                break
        else:
            return None
    return out


def _any_card(word: str) -> str | None:
    for side in SIDES:
        found = DATA.card(side, word)
        if found is not None:
            return found
    return None


def _character_card(word: str) -> str | None:
    found = _any_card(word)
    if found is None:
        return None
    if any(c.character for deck in DATA.cards.values() for c in deck.values() if c.id == found):
        return found
    return None


def _all_cards() -> list[str]:
    return sorted({c for deck in DATA.cards.values() for c in deck})


def _character_cards() -> list[str]:
    return sorted({c.id for deck in DATA.cards.values() for c in deck.values() if c.character})


_LOOKUPS: dict[str, tuple[Callable[[str], str | None], Callable[[], list[str]], str]] = {
    "area": (DATA.area, lambda: list(DATA.areas), "areas"),
    "force": (DATA.force, lambda: list(DATA.forces), "forces"),
    "card": (_any_card, _all_cards, "cards"),
    "character": (_character_card, _character_cards, "character cards"),
}


def _kind_of(window: str, word: str) -> str:
    """What the names after ``word`` must be, in ``window``."""
    if word == "AREA":
        return "area"
    if word in ("FORCE", "ATTACKER"):
        return "force"
    if word == "CARD" and window == CHARACTER:
        return "character"
    return "card"


def condition(window: str, words: Sequence[str]) -> str:
    """The canonical text of a standing answer's condition, or IllegalLine
    whose hint lists what would be right. Several conditions may be joined
    by AND (all must hold): ``AREA han-dan AND HOLDING lord-xinling``."""
    return " AND ".join(_clause(window, c) for c in conjuncts(words))


def _clause(window: str, words: Sequence[str]) -> str:
    """One condition: a word and its names."""
    ws = spec(window)
    if ws is None:
        raise IllegalLine(f"no response window called {window!r}",
                          hint="windows: " + ", ".join(KINDS))
    known = ", ".join(f"{c.word} {c.args}" for c in ws.conditions)
    if not words:
        raise IllegalLine(f"a condition of {window} windows is missing",
                          hint=f"conditions: {known}")
    word = words[0].upper()
    if word not in {c.word for c in ws.conditions}:
        raise IllegalLine(f"{words[0]!r} is not a condition of {window} windows",
                          hint=f"conditions: {known}")
    kind = _kind_of(window, word)
    lookup, choices, plural = _LOOKUPS[kind]
    args = list(words[1:])
    if not args:
        raise IllegalLine(f"{word} needs {'a card' if word == 'HOLDING' else plural}",
                          hint=f"{plural}: " + ", ".join(choices()))
    names = _names(args, lookup)
    if names is None:
        bad = next(w for w in args if lookup(w) is None)
        what = "character card" if kind == "character" else kind
        raise IllegalLine(f"no {what} called {bad!r}", hint=f"{plural}: " + ", ".join(choices()))
    if word == "HOLDING" and len(names) != 1:
        raise IllegalLine("HOLDING names one card", hint="e.g. HOLDING emergency-mobilization")
    return " ".join([word, *names])


def holds(view: Mapping[str, JSON], decision: Decision, text: str) -> bool:
    """Whether the canonical condition ``text`` holds for the reader of
    ``view`` (its own view) in ``decision``: tested on ``decision.context``
    and, for HOLDING, the reader's own hand; every clause joined by AND must
    hold. A condition of another kind of window, or a malformed one, does
    not hold."""
    clauses = text.split(" AND ")
    return all(_holds(view, decision, c) for c in clauses)


def _holds(view: Mapping[str, JSON], decision: Decision, text: str) -> bool:
    words = text.split()
    if not words:
        return False
    ctx = decision.context
    word, names = words[0].upper(), words[1:]
    window = decision.window
    ws = spec(window)
    if ws is None or word not in {c.word for c in ws.conditions}:
        return False
    if word == "HOLDING":
        hand = view.get("hand")
        return isinstance(hand, list) and any(c in hand for c in names)
    field = {
        "AREA": "area",
        "ATTACKER": "attacker",
        "FORCE": "defender" if window == BEFORE_COMBAT else "force",
        "CARD": "card",
    }[word]
    return ctx.get(field) in names


def describe(ctx: Mapping[str, JSON]) -> str:
    """One line for the prompt and the report: what the window is about."""
    if not ctx:
        return ""
    if ctx.get("window") == BEFORE_COMBAT:
        att, dfn = str(ctx["attacker"]), str(ctx["defender"])
        where = "city" if ctx.get("city") else "field"
        card = f" ({DATA.cards[str(ctx['attacker_side'])][str(ctx['card'])].name})" \
            if ctx.get("card") else ""
        return (f"{DATA.forces[att].name} attack {DATA.forces[dfn].name} in "
                f"{DATA.areas[str(ctx['area'])].name} ({where}){card}")
    target = f" on {DATA.forces[str(ctx['force'])].name}" if ctx.get("force") else ""
    return f"{ctx['played_by']} plays {ctx['card_name']} face up{target}"

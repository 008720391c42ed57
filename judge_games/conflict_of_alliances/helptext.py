"""Texts for ``HELP <topic>`` and for a seat's first report: the cards of both
decks (Player Aid texts, with the printed card art's variants that option
``card_text=printed`` selects), the generals, the response windows, the areas
and the forces. Everything here comes from the data files and from
:mod:`policy`; nothing reads a game state except :func:`introduction`, which
only needs the options that change a deck.
"""

from __future__ import annotations

from judge_games.conflict_of_alliances import policy
from judge_games.conflict_of_alliances.data import DATA, SIDES, Card, Option, key

ICONS = {
    "sword": "Sword: +1 to its own combat roll",
    "shield": "Shield: -1 to the enemy's combat roll",
    "horse": "Horse: movement allowance 3, for the counters moving with it",
}
"""General counters' icons (Counters, General Counters)."""

PRINTED: dict[str, str] = {
    "elite-crossbowmen": (
        "a) Perform a military operation directing a Revenge Qin or Anti-Qin force; the "
        "attacker fires first, with no modifier. b) The defender fires first; a defending "
        "Han army gets +1 to its die."),
    "emergency-mobilization": (
        "a) Perform a reinforcement operation, then a military operation directing a "
        "Revenge Qin or Anti-Qin force. b) When defending, before combat begins: a "
        "reinforcement operation in the space."),
}
"""The Alliance's two cards as the printed card art reads (rulebook, the
translator's notes on the appendix), in our words; used with
``card_text=printed``."""

_ARGS = {
    "sway": "<force>",
    "mao-sui": "<force>",
    "emissary": "<force>",
    "draw": "DISCARD <card>",
    "bolster": "<area> [<force>]",
    "fan-ju": "<general>",
    "national": "<area> <area>",
}
_THEN = {
    "court": "then TAKE <card> from your deck when the force is friendly",
    "chunshen": "then DISCARD <card>: the one of the three drawn you do not keep",
    "mao-sui": "then a MILITARY operation",
    "mounted": "then a MILITARY operation, +1 to the attacker's die; ADVANCE after a won "
               "battle while movement points remain",
    "double": "then two MILITARY operations",
    "crossbow-attack": "then a MILITARY operation in which the attacker fires first",
    "mobilize": "then REINFORCE, then a MILITARY operation",
    "recruit": "then REINFORCE twice, for two different forces",
    "bolster": "then a MILITARY operation from that area",
    "emissary": "then REINFORCE, then a MILITARY operation with that kingdom",
    "search": "then TAKE <card> from your deck",
}
_RESPONSES = {
    "xinling": "RESPOND {card} [FROM <area>] in the before-combat window",
    "cancel": "RESPOND {card} in the character-card window",
    "crossbow-defence": "RESPOND {card} in the before-combat window",
    "mobilize-defence": "RESPOND {card} in the before-combat window",
}


def _usage(card: Card, option: Option) -> str:
    """How a player writes one option, and the steps it asks for after."""
    if option.effect in _RESPONSES:
        return _RESPONSES[option.effect].format(card=card.id) + " (a response only)"
    head = f"PLAY {card.id} FACEUP"
    if len(card.options) > 1:
        head += f" {option.key.upper()}"
    args = _ARGS.get(option.effect, "")
    forces = option.params.get("forces") or []
    if option.effect in ("sway", "emissary") and len(forces) == 1:
        args = ""
    if option.effect == "draw" and not option.params.get("discard"):
        args = ""
    if option.effect == "general":
        args = "GENERAL <general> <area>"
        if option.params.get("count") == 2:
            args += " GENERAL <general> <area> DISCARD <card>"
    line = f"{head} {args}".rstrip()
    then = _THEN.get(option.effect)
    if option.effect == "emissary" and option.params.get("with-qin"):
        then = "then REINFORCE twice (Qin and Yiqu), then a MILITARY operation with either"
    return f"{line}; {then}" if then else line


def card_text(side: str, card_id: str, *, copies: int | None = None,
              printed: bool | None = None) -> str:
    """One card of ``side``'s deck: name, copies, marks, text and how to play
    each option. ``printed``: None notes the printed art's variant (HELP),
    True gives it as the card's text (a game with card_text=printed), False
    leaves it out."""
    c = DATA.cards[side][card_id]
    n = c.copies if copies is None else copies
    marks = [f"{n} cop{'y' if n == 1 else 'ies'}"]
    if c.character:
        marks.append("character card")
    if c.response:
        marks.append(f"Break mark (破): option {c.response.upper()} may respond")
    zh = f" ({c.zh})" if c.zh else ""
    lines = [f"{c.name}{zh} [{card_id}], {side} deck: {', '.join(marks)}."]
    variant = PRINTED.get(card_id) if side == SIDES[1] else None
    if variant is not None and printed:
        lines.append(f"  Text (printed card art, card_text=printed): {variant}")
    else:
        lines.append(f"  Text (Player Aid): {c.text}")
        if variant is not None and printed is None:
            lines.append(f"  With card_text=printed: {variant}")
    if c.linked:
        names = [DATA.forces[f].name for f in c.linked]
        gone = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"
        lines.append(f"  Once {gone} {'is' if len(names) == 1 else 'are all'} eliminated, it "
                     "may only be played face down.")
    for option in c.options:
        lines.append(f"  {option.key.upper()}: {_usage(c, option)}")
    lines.append(f"  Face down: PLAY {card_id} FACEDOWN MILITARY|REINFORCE|DIPLOMACY|WEATHER ...")
    return "\n".join(lines)


def general_text(general: str) -> str:
    g = DATA.generals[general]
    icons = "; ".join(ICONS[i] for i in g.icons) or "no icon"
    return (f"{g.name} [{general}], a general of {DATA.forces[g.force].name}: {icons}. "
            "A general counts as a full army.")


def window_text(kind: str) -> str:
    ws = policy.spec(kind)
    assert ws is not None
    lines = [f"Response window {kind}: {ws.summary}.",
             "  Answers: " + "; ".join((*ws.answers, "PASS")) + ".",
             "  A standing answer (ASK, PASS or one of these) may be given conditions:"]
    lines += [f"    {c.word} {c.args}: {c.summary}." for c in ws.conditions]
    return "\n".join(lines)


def area_text(area: str) -> str:
    a = DATA.areas[area]
    kinds = {"normal": "normal", "mountain": "mountain", "waterway": "mountain with a waterway"}
    borders = []
    for n in DATA.neighbours[area]:
        b = DATA.border(area, n)
        assert b is not None
        note = kinds[b.kind]
        if b.kind == "waterway":
            note += f", downstream into {DATA.areas[str(b.downstream)].name}"
        borders.append(f"{DATA.areas[n].name} ({note}, {b.cost(n)} MP)")
    return (f"{a.name} ({a.zh}) [{area}]: {a.rp} RP. Borders: " + "; ".join(borders) + ".")


def force_text(force: str) -> str:
    f = DATA.forces[force]
    gens = [g.name for g in DATA.generals.values() if g.force == force]
    kind = "a major force" if f.major else "a minor force, always Neutral"
    if force == "qin":
        kind = "a major force, always Lianheng"
    return (f"{f.name} ({f.zh}) [{force}]: {kind}; generals: {', '.join(gens) or 'none'}.")


_PREFIXES = ("card", "general", "window", "area", "force")


def topic(text: str) -> str | None:
    """The help text of ``text``: a card (slug or name; both decks' versions),
    a general, a window kind, an area or a force; a leading ``card``,
    ``general``, ``window``, ``area`` or ``force`` narrows the search. None
    when nothing is called that."""
    words = text.split()
    only = None
    if len(words) > 1 and words[0].lower() in _PREFIXES:
        only = words[0].lower()
        words = words[1:]
    k = key("".join(words))
    if not k:
        return None
    parts: list[str] = []
    if only in (None, "card"):
        for side in SIDES:
            found = DATA.card(side, k)
            if found is not None:
                parts.append(card_text(side, found))
    if only in (None, "general") and (g := DATA.general(k)) is not None:
        parts.append(general_text(g))
    if only in (None, "window"):
        parts += [window_text(w) for w in policy.KINDS if key(w) == k]
    if only in (None, "area") and (a := DATA.area(k)) is not None:
        parts.append(area_text(a))
    if only in (None, "force") and (f := DATA.force(k)) is not None:
        parts.append(force_text(f))
    return "\n\n".join(parts) if parts else None


def deck_copies(side: str, card_id: str, aid24: bool) -> int:
    c = DATA.cards[side][card_id]
    return c.copies + (c.extra_copies if aid24 and side == SIDES[0] else 0)


def introduction(sides: tuple[str, ...], *, aid24: bool, printed: bool) -> str:
    """Every card of each of ``sides``' decks, as this game's options deal them."""
    blocks = []
    for side in sides:
        total = sum(deck_copies(side, c, aid24) for c in DATA.cards[side])
        head = (f"The {side} deck: {total} cards. A card with the Break mark (破) may also be "
                "played face up in your opponent's action phase (RESPOND); any card may be "
                "played face down for a military operation, a reinforcement, a diplomatic "
                "action or a weather action.")
        cards = [card_text(side, c, copies=deck_copies(side, c, aid24), printed=printed)
                 for c in DATA.cards[side]]
        blocks.append("\n\n".join([head, *cards]))
    return "\n\n\n".join(blocks)

"""HELP for Kingdom Wars: the verbs, and ``HELP <card|skill|general|rule>``
from the data files (their texts are short summaries in our words; the
rulebook is the authority)."""

from __future__ import annotations

from typing import Any

from judge.game.engine import VerbSpec
from judge_games.kingdom_wars.data import DATA, key
from judge_games.kingdom_wars.flow import MOMENT_TEXT
from judge_games.kingdom_wars.policy import MOMENTS

VERBS: tuple[VerbSpec, ...] = (
    VerbSpec("GENERALS <main> AND <supporting>",
             "at the start: your two generals, of one kingdom, from those dealt to you",
             "GENERALS Cao Cao AND Xu Chu"),
    VerbSpec("REVEAL MAIN|DEPUTY|BOTH",
             "expose generals: written in your Play Phase, one with a passive skill at once, "
             "any other at the start of your next Preparation Phase; written with GENERALS, "
             "in your first Preparation Phase", "REVEAL BOTH"),
    VerbSpec("USE <card> [ON <seat>...]", "use a card in your Play Phase (one Attack per "
             "phase unless a card or skill says otherwise)", "USE Attack S7 ON C"),
    VerbSpec("USE ... THEN <answer> [THEN <answer>...]",
             "the answers to the questions the card will ask you on the way, in order (one "
             "that does not fit is dropped and you are asked)",
             "USE Stealing Sheep ON C THEN TAKE HAND"),
    VerbSpec("USE <kind> BY <skill|weapon> WITH <card>... [ON <seat>...]",
             "use cards as another card (Saint of War, Serpent Spear, Feathered Fan...)",
             "USE Attack BY Saint of War WITH Dodge D10 ON C"),
    VerbSpec("USE <skill> [WITH <card>...] [ON <seat>...]",
             "use an active skill in your Play Phase, or answer a trigger window with a skill",
             "USE Balance of Power WITH Attack S7 Dodge H2"),
    VerbSpec("RECAST <card>", "Iron Chains or Know your Enemy: discard it and draw a card",
             "RECAST Iron Chains CQ"),
    VerbSpec("MARKER Yin-Yang|Perfect Pair | MARKER Pioneer ON <seat> MAIN|DEPUTY",
             "discard a marker for its effect in your Play Phase", "MARKER Pioneer ON D MAIN"),
    VerbSpec("DODGE [<card>] [BY <skill|armor> [WITH <card>]]",
             "answer an Attack or Raining Arrows (Eight Trigrams: DODGE BY Eight Trigrams "
             "Formation)", "DODGE Dodge H2"),
    VerbSpec("ATTACK [<card>] [BY <skill|weapon> WITH <card>...]",
             "answer a Duel or Barbarian Invasion with an Attack", "ATTACK Attack S7"),
    VerbSpec("NEGATE [FORCE] [<card>] [BY <skill> WITH <card>]",
             "cancel a spell on one player (FORCE: on the whole force, with a Negation "
             "(force)), or a Negation", "NEGATE"),
    VerbSpec("PEACH [<card>] [BY <skill|Perfect Pair> [WITH <card>]] | WINE [<card>]",
             "rescue a dying player (WINE: yourself only)", "PEACH"),
    VerbSpec("DISCARD|GIVE|SHOW <card>...", "the cards a rule or skill asks you for; "
             "DISCARD in your Play Phase: what your Discard Phase gives up first",
             "DISCARD Attack S7 Dodge H2"),
    VerbSpec("STANDING discard KEEP <card>...|ASK|AUTO",
             "your keep-order for the Discard Phase, discards a card asks of you and Bumper "
             "Harvest (the cards named first, then Peach, Dodge, Negation, Wine, ...); ASK: be "
             "asked by hand", "STANDING discard KEEP Peach Dodge Attack"),
    VerbSpec("STANDING reveal ASK|PASS | STANDING forced ASK|PASS",
             "be asked in each Preparation Phase whether to expose (PASS: not asked, the "
             "default); be asked even a question that has one answer",
             "STANDING reveal ASK"),
    VerbSpec("TAKE ... | CHOOSE ...", "one of the choices offered (the request lists them)",
             "TAKE HAND"),
    VerbSpec("PASS", "let a window go by, keep generals hidden, end your Play Phase", "PASS"),
)

RULES: dict[str, str] = {
    "distance": "Distance: the shorter way round the living players; a +1 mount adds 1 to "
                "others' distance to you, a -1 mount takes 1 from yours to them; at least 1.",
    "death-match": "Death Match: with 4 or fewer players left (3 or fewer in a game that began "
                   "with 7 or fewer) and no two of one kingdom, a Peach can only be used or "
                   "played as an Attack or a Dodge. It is never cancelled.",
    "ambitionist": "Ambitionist: a player whose first exposure would make more than half of "
                   "the starting players of one kingdom becomes an Ambitionist, a force of "
                   "its own that wins only as the last survivor.",
    "markers": "Markers: Yin-Yang (Play Phase: draw 1; Discard Phase: hand limit +2), "
               "Pioneer (Play Phase: draw up to 4 hand cards, then view a hidden general of "
               "another player), Perfect Pair (Play Phase: draw 2, or use it as a Peach).",
}


def moments() -> str:
    """``HELP moments``: each moment word of ``POLICY trigger ... WHEN MOMENT``."""
    lines = ["Moments a trigger window opens at (POLICY trigger USE <skill> WHEN MOMENT "
             "<moment>), in the order of a turn:"]
    lines += [f"  {m}: " + MOMENT_TEXT[m].format(seat="a player") for m in MOMENTS]
    return "\n".join(lines)


def topic(word: str) -> str | None:
    """The text of a card, skill, general or rule, if ``word`` names one."""
    if key(word) in ("moment", "moments"):
        return moments()
    c = DATA.card(word)
    if c is not None:
        kind = c.type + (f" ({c.subtype})" if c.subtype else "")
        extra = f", attack range {c.range}" if c.range else ""
        extra += f", {c.distance:+d} mount" if c.distance else ""
        return f"{c.name}: {kind}{extra}. {c.text}"
    sk = DATA.skill(word)
    if sk is not None:
        holders = ", ".join(DATA.generals[h].name for h in sk.holders)
        return f"{sk.name} ({', '.join(sk.kinds)}; {holders}): {sk.text}"
    gen = DATA.general(word)
    if gen is not None:
        skills = "; ".join(f"{DATA.skills[s].name}: {DATA.skills[s].text}" for s in gen.skills)
        pairs = ", ".join(DATA.generals[p].name for p in gen.partners) or "none"
        return (f"{gen.name}, {gen.title} ({gen.kingdom}, {gen.half_circles} half-circles, "
                f"{gen.gender}). Perfect Pair with: {pairs}. {skills}")
    return {key(k): v for k, v in RULES.items()}.get(key(word))


def introduction(state: dict[str, Any], role: str) -> str:
    """A seat's generals and their skills, for its first report."""
    if state["stage"] == "generals":
        dealt = state["dealt"].get(role, [])
        return ("The generals dealt to you, in full (HELP <name> for any card, skill "
                "or general):\n") + "\n".join(
            f"  {topic(g)}" for g in dealt)
    p = state["p"].get(role)
    if p is None:
        return ""
    lines = ["Your generals (HELP <name> for any card, skill or general):"]
    for slot in ("main", "deputy"):
        lines.append(f"  {slot}: {topic(p[slot])}")
    return "\n".join(lines)

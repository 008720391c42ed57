"""HELP for Conquest Tactics: the verbs, and ``HELP <card>`` from the card
pool (each card's text is a short reminder in our words)."""

from __future__ import annotations

from typing import Any

from judge.game.engine import VerbSpec
from judge_games.conquest_tactics.cards import POOL, Card

VERBS: tuple[VerbSpec, ...] = (
    VerbSpec("DECK <name> ... END", "before the game (option decks=submitted): your deck "
             "list, one '<count> <card>' a line", "DECK Iron Wall"),
    VerbSpec("STARTER [<faction>]", "before the game (option decks=submitted): play a starter "
             "deck instead of a list (your own side's by default)", "STARTER humans"),
    VerbSpec("BASE <space>", "set-up: your Base's space, in your two nearest rows", "BASE C1"),
    VerbSpec("TAKE <card>", "set-up: a starting troop (level 0-1) or level 1 spell or skill; "
             "up to 20 TP, three spells or skills", "TAKE Footsoldiers"),
    VerbSpec("DEPLOY <troop> <space> [DISCARD <cards>]",
             "place a troop in your deployment zone (set-up, Mobilize)", "DEPLOY archers A1"),
    VerbSpec("MOVE <from> <to>", "Up the Field: one space ahead, free; Play: 1 TP, up to the "
             "troop's movement, then it may act", "MOVE B2 B3"),
    VerbSpec("ATTACK <from> <target>", "melee (adjacent, with Counterattack) or ranged (in "
             "range, line of sight, no Counterattack)", "ATTACK B3 C3"),
    VerbSpec("CAST <spell> [<target>] FROM <caster>", "cast a spell from your Knowledge Pool "
             "or hand (instants answer an enemy action)", "CAST fireball C4 FROM B2"),
    VerbSpec("USE <skill> [<target>] FROM <troop>", "use a skill (instants answer an enemy "
             "action)", "USE shield-wall FROM B2"),
    VerbSpec("PLAY <circumstance> [ON <space>] [DISCARD <cards>]",
             "a Mobilization (Mobilize), Control (Play, with control) or Instant (a window) "
             "circumstance", "PLAY forced-march DISCARD 2"),
    VerbSpec("EQUIP <equipment> <space> [DISCARD <cards>]", "Mobilize: attach equipment",
             "EQUIP short-bow A1"),
    VerbSpec("LEARN <spell or skill> [DISCARD <cards>]", "Mobilize: into your Knowledge Pool",
             "LEARN fireball"),
    VerbSpec("UPGRADE <space> <troop> [DISCARD <cards>]", "Mobilize: 1 TP, one level up the "
             "classification tree, half the damage removed", "UPGRADE B2 human-defensive-"
             "infantry"),
    VerbSpec("REDEEM|RECYCLE <trophy> [ON <space>]", "Play: use a trophy", "REDEEM war-banner"),
    VerbSpec("DEFEND", "an instant window: answer with the cheapest instant that fits (one of "
             "your Knowledge Pool first, then a card without discards, fewer points first); "
             "the default answer to a lethal blow or one of 3 or more damage", "DEFEND"),
    VerbSpec("PASS [ALL] | DONE | STOP", "PASS: Up the Field, Play (control to the opponent "
             "for one action), a window; PASS ALL: pass now and at each of your later turns of "
             "this Up the Field or Play phase; DONE: end your Mobilize, or in Up the Field as "
             "PASS ALL (a Mobilize line written then does the same and waits for the "
             "Mobilize); STOP: the moved troop does not act",
             "PASS"),
)

RULES: dict[str, str] = {
    "frame": "Spaces: columns A-E from your left, rows 1-5 from your own edge; your "
             "deployment zone is rows 1 and 2. Your opponent reads the board from the other "
             "side.",
    "triumph": "Each turn: Tactical Points (5, 7, 9, ...), Resupply (draw to five, or one), "
               "Initiative (passes, not in turn 1), Up the Field, Mobilize, Play, Halt.",
    "line-of-sight": "Ranged attacks, spells and skills need a shortest count of spaces from "
                     "the attacker to the target that crosses no enemy troop; one clear "
                     "count is enough. Friendly troops never block.",
    "combat": "Combat: the attacker declares and pays; the defender may answer with one "
              "instant; the damage (less the target's defense) is marked; if the defender "
              "survived a melee attack, the attacker may answer with one instant, then the "
              "Counterattack is marked.",
}


def describe(c: Card) -> str:
    head = f"{c.name} ({c.faction} {c.type}"
    if c.type in ("troop", "spell", "skill"):
        head += f", level {c.level}"
    head += ")"
    parts = [head]
    if c.type == "troop":
        rng = f"{c.range_min}" if c.range_min == c.range_max else f"{c.range_min}-{c.range_max}"
        parts.append(f"cost {c.cost}, health {c.health}, defense {c.defense}, attack "
                     f"{c.attack} for {c.attack_cost} TP, counter {c.counter}, range {rng}, "
                     f"movement {c.movement}, {c.classification}")
        if c.icons:
            parts.append("knows " + ", ".join(f"{k} magic/skill to level {v}"
                                             for k, v in c.icons.items()))
    elif c.type in ("spell", "skill"):
        parts.append(f"{c.school}, {c.kind}, cost {c.printed_cost or c.cost}"
                     + (f", damage {'+' if c.damage_is_bonus else ''}{c.damage}"
                        if c.damage else ""))
    elif c.type == "equipment":
        parts.append(f"{c.slot}, cost {c.cost}")
    elif c.type == "circumstance":
        parts.append(f"{c.kind}, cost {c.cost}, discard {c.discard}")
    elif c.type == "base":
        parts.append(f"health {c.health}, defense {c.defense}")
    if c.text:
        parts.append(c.text)
    return ". ".join(parts) + "."


def topic(word: str) -> str | None:
    k = word.strip().lower().replace(" ", "-")
    if k in RULES:
        return RULES[k]
    found = POOL.lookup(word)
    if not found:
        return None
    return "\n".join(describe(c) for c in found)


def introduction(state: dict[str, Any], role: str) -> str:
    p = state["p"].get(role) or {}
    lines = [f"You play {role}. " + RULES["frame"]]
    if p.get("deck"):
        lines.append(f"Your deck: {p['deck']} ({p.get('faction', '')}).")
    lines.append(RULES["triumph"])
    if state["stage"] == "forces":
        lines.append("First send BASE <space> and TAKE <card> lines (in one ORDERS ... END "
                     "block or one a line); HELP <card> tells what a card does.")
    return "\n".join(lines)

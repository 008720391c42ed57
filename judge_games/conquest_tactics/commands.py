"""The lines of Conquest Tactics: what a line says (``syntax``) and its
canonical text (``canonical``). Whether the rules allow it now is rules.py's
business.

Spaces are written in the writer's own frame (see field.py). Cards are named
by their name or id, any case; ``DISCARD`` takes cards of the hand by name or
by their number in the hand as the last report listed it, separated by
commas or spaces (a name of several words needs the commas).
"""

from __future__ import annotations

import re
from typing import Any

from judge.game.engine import InvalidLine

VERBS = ("DECK", "STARTER", "BASE", "TAKE", "DEPLOY", "MOVE", "PASS", "DONE", "STOP", "ATTACK",
         "CAST", "USE", "PLAY", "EQUIP", "LEARN", "UPGRADE", "REDEEM", "RECYCLE", "DEFEND")
KEYWORDS = frozenset({"FROM", "ON", "DISCARD", "AT", "TO"})
_SPACE = re.compile(r"^[A-Ea-e][1-5]$")

SYNTAX: dict[str, str] = {
    "DECK": "DECK <name>: <count> <card>; <count> <card>; ... (or a DECK <name> ... END block)",
    "STARTER": "STARTER [<faction>]",
    "BASE": "BASE <space>",
    "TAKE": "TAKE <troop, spell or skill>",
    "DEPLOY": "DEPLOY <troop> <space> [DISCARD <cards>]",
    "MOVE": "MOVE <from> <to>",
    "PASS": "PASS [ALL]",
    "DONE": "DONE",
    "STOP": "STOP",
    "DEFEND": "DEFEND",
    "ATTACK": "ATTACK <from> <target>",
    "CAST": "CAST <spell> [<target>] FROM <caster>",
    "USE": "USE <skill> [<target>] FROM <troop>",
    "PLAY": "PLAY <circumstance> [ON <space>] [DISCARD <cards>]",
    "EQUIP": "EQUIP <equipment> <space> [DISCARD <cards>]",
    "LEARN": "LEARN <spell or skill> [DISCARD <cards>]",
    "UPGRADE": "UPGRADE <space> <troop> [DISCARD <cards>]",
    "REDEEM": "REDEEM <trophy> [ON <space>]",
    "RECYCLE": "RECYCLE <trophy> [ON <space>]",
}


def is_space(word: str) -> bool:
    return bool(_SPACE.match(word))


def syntax(line: str) -> dict[str, Any]:
    """Split a line into its verb, card name, spaces and keyword parts.
    InvalidLine when it is not a Conquest Tactics line at all."""
    text = " ".join(line.split())
    if not text:
        raise InvalidLine("an empty line", line=line)
    first, _, rest = text.partition(" ")
    verb = first.upper().rstrip(":")
    if verb not in VERBS:
        raise InvalidLine(f"{first!r} is not a Conquest Tactics command",
                          hint="one of " + ", ".join(VERBS) + "; HELP conquest_tactics lists them",
                          line=line)
    if verb == "STARTER":  # a starter deck instead of a list (the game's option's by default)
        more = rest.split()
        if len(more) > 1:
            raise InvalidLine("STARTER takes at most a faction", hint=SYNTAX["STARTER"],
                              line=line)
        return {"verb": verb, "starter": more[0].lower() if more else ""}
    if verb == "DECK":
        deck_name, sep, body = rest.partition(":")
        if not deck_name.strip() or not sep:
            raise InvalidLine("a deck list needs a name and its cards",
                              hint=SYNTAX["DECK"], line=line)
        return {"verb": verb, "deck": deck_name.strip(), "body": body.strip()}
    words = rest.replace(",", " , ").split()
    cmd: dict[str, Any] = {"verb": verb, "name": "", "spaces": [], "from": None, "on": None,
                           "discard": []}
    name: list[str] = []
    mode = ""
    discard_words: list[str] = []
    for w in words:
        up = w.upper()
        if up in KEYWORDS and mode != "DISCARD":
            mode = "FROM" if up in ("FROM",) else "ON" if up in ("ON", "AT", "TO") else up
            if mode == "DISCARD":
                continue
            continue
        if mode == "DISCARD":
            discard_words.append(w)
            continue
        if is_space(w):
            if mode == "FROM":
                cmd["from"] = w.upper()
            elif mode == "ON":
                cmd["on"] = w.upper()
            else:
                cmd["spaces"].append(w.upper())
            mode = ""
            continue
        if w == ",":
            continue
        if mode:
            raise InvalidLine(f"{mode} needs a space such as B3, not {w!r}",
                              hint=SYNTAX[verb], line=line)
        name.append(w)
    cmd["name"] = " ".join(name)
    cmd["discard"] = _refs(discard_words)
    if mode in ("FROM", "ON"):
        raise InvalidLine(f"{mode} needs a space such as B3", hint=SYNTAX[verb], line=line)
    return cmd


def _refs(words: list[str]) -> list[str]:
    """DISCARD's cards: numbers stand alone, names run to the next comma."""
    out: list[str] = []
    cur: list[str] = []
    for w in words:
        if w == ",":
            if cur:
                out.append(" ".join(cur))
            cur = []
        elif w.isdigit() or (w.startswith("#") and w[1:].isdigit()):
            if cur:
                out.append(" ".join(cur))
                cur = []
            out.append(w.lstrip("#"))
        else:
            cur.append(w)
    if cur:
        out.append(" ".join(cur))
    return out


def canonical(cmd: dict[str, Any]) -> str:
    """The text of a checked command (card ids, spaces in the writer's frame),
    which :func:`syntax` and the checks read back to the same command."""
    verb = cmd["verb"]
    if verb == "DECK":
        if cmd.get("starter"):
            return f"STARTER {cmd['starter']}"
        return str(cmd["canonical"])
    parts = [verb]
    if verb == "PASS" and cmd.get("all"):
        return "PASS ALL"
    if verb == "UPGRADE":
        parts += [cmd["spaces"][0], cmd["card"]]
    elif verb in ("BASE", "MOVE", "ATTACK"):
        parts += cmd["spaces"]
    elif verb not in ("PASS", "DONE", "STOP"):
        parts.append(cmd["card"])
        parts += cmd["spaces"]
    if cmd.get("on"):
        parts += ["ON", cmd["on"]]
    if cmd.get("from"):
        parts += ["FROM", cmd["from"]]
    if cmd.get("discard"):
        parts += ["DISCARD", ", ".join(cmd["discard"])]
    return " ".join(parts)

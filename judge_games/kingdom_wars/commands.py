"""The words of Kingdom Wars lines, read into commands and written back.

A command is a dict with a ``verb`` and its parts; :func:`canonical` writes
it back, and reading the canonical text gives the same command (the
round-trip every line keeps). Cards are named as reports name them:
``Attack S7`` (the name, then the suit letter and number), or by the name
alone or the code alone where that picks one card of the writer's.

Lines (see README.md for the whole grammar)::

    GENERALS <main> AND <supporting>           choose your two generals
    REVEAL MAIN|DEPUTY|BOTH                    expose generals
    USE <card> [ON <seat>...]                  use a card in your Play Phase
    USE <kind> BY <skill|equipment> WITH <card>... [ON <seat>...]
    USE <skill> [WITH <card>...] [ON <seat>...] [<word>...]
    RECAST <card>                              Iron Chains, Know your Enemy
    MARKER <marker> [ON <seat>] [<word>...]    Yin-Yang, Pioneer, Perfect Pair
    DODGE|ATTACK|NEGATE|PEACH|WINE [FORCE] [<card>] [BY <skill> [WITH <card>...]]
    DISCARD|GIVE|SHOW|KEEP <card>...           when asked for cards
    TAKE|CHOOSE <word>...                      when asked to choose
    PASS | END                                 let a window go by, end your Play Phase
    USE ... THEN <answer> [THEN <answer>...]   answers to the questions the card asks you
    STANDING discard KEEP <card>...|ASK|AUTO   your keep-order; or be asked to discard
    STANDING reveal ASK|PASS                   be asked to expose each Preparation Phase
    STANDING forced ASK|PASS                   be asked even a question with one answer
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from judge.game.engine import InvalidLine
from judge_games.kingdom_wars.data import DATA, key
from judge_games.kingdom_wars.table import (
    LETTER_SUIT,
    RANK_WORD,
    SEAT_NAMES,
    SUIT_LETTER,
    card,
    code,
)

Cmd = dict[str, Any]

RESPONSE_VERBS = ("DODGE", "ATTACK", "NEGATE", "PEACH", "WINE")
CARD_VERBS = ("DISCARD", "GIVE", "SHOW", "KEEP", "PUT")
WORD_VERBS = ("TAKE", "CHOOSE")
VERBS = ("GENERALS", "REVEAL", "USE", "RECAST", "MARKER", "PASS", "END", "STANDING",
         *RESPONSE_VERBS, *CARD_VERBS, *WORD_VERBS)
ANSWER_VERBS = ("PASS", "USE", *CARD_VERBS, *WORD_VERBS)
"""What may follow THEN: the answers to the questions a card asks on the way."""
STANDING_WORDS = {"discard": ("KEEP", "ASK", "AUTO"), "reveal": ("ASK", "PASS"),
                  "forced": ("ASK", "PASS")}
KEYWORDS = ("BY", "WITH", "ON", "AND", "FORCE")
MARKERS = {"yin-yang": "Yin-Yang", "pioneer": "Pioneer", "perfect-pair": "Perfect Pair"}
RESPONSE_KIND = {"DODGE": "dodge", "ATTACK": "attack", "NEGATE": "negation", "PEACH": "peach",
                 "WINE": "wine"}

_ATTACK_BY_FIRE = re.compile(r"\battack\s+by\s+fire\b", re.IGNORECASE)
_CODE = re.compile(r"([SHCD])(A|K|Q|J|10|[2-9])", re.IGNORECASE)
_RANK_NUM = {"A": 1, "J": 11, "Q": 12, "K": 13}


def parse_code(word: str) -> tuple[str, int] | None:
    """``S7`` -> ("spades", 7); ``hq`` -> ("hearts", 12)."""
    m = _CODE.fullmatch(word)
    if m is None:
        return None
    rank = m.group(2).upper()
    return LETTER_SUIT[m.group(1).upper()], _RANK_NUM.get(rank) or int(rank)


def code_text(suit: str, rank: int) -> str:
    return SUIT_LETTER[suit] + RANK_WORD.get(rank, str(rank))


def _longest(words: Sequence[str], i: int, lookup: Any) -> tuple[Any, int]:
    """The longest run of words from ``i`` that ``lookup`` knows, and its end.

    The key of a run is its words' keys joined (:func:`key` keeps letters and
    digits only), so the run grows a word at a time and stops once its key is
    longer than any name's: the cost is bounded per word, not per pair of
    words (a line of thousands of words stays linear)."""
    found: Any = None
    end = i
    joined = ""
    for j in range(i, len(words)):
        joined += key(words[j])
        if len(joined) > DATA.longest_key:
            break
        hit = lookup(joined) if joined else None
        if hit is not None:
            found, end = hit, j + 1
    return found, end


def read_cards(words: Sequence[str], line: str) -> list[dict[str, Any]]:
    """Card references: ``Attack S7``, ``Attack``, ``S7``, one after another.
    Each is ``{"kind": card id or None, "suit": ..., "rank": ...}``."""
    refs: list[dict[str, Any]] = []
    i = 0
    while i < len(words):
        found, j = _longest(words, i, DATA.card)
        ref: dict[str, Any] = {"kind": found.id if found else None, "suit": None, "rank": None}
        if found is None:
            got = parse_code(words[i])
            if got is None:
                raise InvalidLine(f"{words[i]!r} is not a card",
                                  line=line, hint="name a card like Attack S7, Attack or S7")
            ref["suit"], ref["rank"] = got
            j = i + 1
        elif j < len(words) and parse_code(words[j]) is not None:
            got = parse_code(words[j])
            assert got is not None
            ref["suit"], ref["rank"] = got
            j += 1
        refs.append(ref)
        i = j
    return refs


def ref_text(ref: dict[str, Any]) -> str:
    parts = []
    if ref.get("kind"):
        parts.append(DATA.cards[ref["kind"]].name)
    if ref.get("suit"):
        parts.append(code_text(ref["suit"], int(ref["rank"])))
    return " ".join(parts)


def cards_text(cids: Sequence[str]) -> str:
    return " ".join(f"{card(c).name} {code(c)}" for c in cids)


def _seat(word: str, line: str) -> str:
    up = word.upper()
    if up.startswith("SEAT-"):
        up = up[5:]
    if up in SEAT_NAMES:
        return up
    raise InvalidLine(f"{word!r} is not a seat", line=line, hint="seats are A to L")


def _split(words: list[str], stops: Sequence[str]) -> dict[str, list[str]]:
    """Words by the keyword they follow (``""`` for those before any)."""
    out: dict[str, list[str]] = {"": []}
    current = ""
    for w in words:
        up = w.upper()
        if up in stops and up not in out:
            current = up
            out[current] = []
        else:
            out[current].append(w)
    return out


def _what(words: Sequence[str]) -> tuple[str, str] | None:
    """A skill, a card kind or an equipment named by ``words``: (sort, id)."""
    text = " ".join(words)
    sk = DATA.skill(text)
    if sk is not None:
        return "skill", sk.id
    c = DATA.card(text)
    if c is not None:
        return "card", c.id
    if key(text) in {key(v) for v in MARKERS.values()} | set(MARKERS):
        found = next(k for k, v in MARKERS.items() if key(v) == key(text) or k == key(text))
        return "marker", found
    if key(text) in ("death-match",):
        return "rule", "death-match"
    return None


def syntax(line: str) -> Cmd:
    """Read one line into a command, without looking at the game (InvalidLine
    when the words do not make a Kingdom Wars command)."""
    # "Attack by Fire" holds the keyword BY: read it as one word first.
    words = _ATTACK_BY_FIRE.sub("attack-by-fire", line.replace(",", " ")).split()
    if not words:
        raise InvalidLine("empty line", line=line)
    verb = words[0].upper()
    rest = words[1:]
    if verb == "USE" and any(w.upper() == "THEN" for w in rest):
        return _with_answers(words, line)
    if verb == "STANDING":
        return _standing(rest, line)
    if verb not in VERBS:
        raise InvalidLine("not a Kingdom Wars command", line=line,
                          hint="USE, DODGE, NEGATE, PEACH, PASS, REVEAL, ... (HELP lists them)")
    if verb in ("PASS", "END"):
        if rest:
            raise InvalidLine(f"{verb} takes nothing after it", line=line, hint=verb)
        return {"verb": "PASS"}
    if verb == "GENERALS":
        parts = _split(rest, ("AND",))
        a = DATA.general(" ".join(parts[""]))
        b = DATA.general(" ".join(parts.get("AND", [])))
        if a is None or b is None:
            raise InvalidLine("GENERALS names your main general and your supporting general",
                              line=line, hint="for example GENERALS Cao Cao AND Xu Chu")
        return {"verb": "GENERALS", "main": a.id, "deputy": b.id}
    if verb == "REVEAL":
        what = [w.upper() for w in rest]
        if what not in (["MAIN"], ["DEPUTY"], ["BOTH"], ["SUPPORTING"]):
            raise InvalidLine("REVEAL MAIN, REVEAL DEPUTY or REVEAL BOTH", line=line)
        slot = {"MAIN": ["main"], "DEPUTY": ["deputy"], "SUPPORTING": ["deputy"],
                "BOTH": ["main", "deputy"]}[what[0]]
        return {"verb": "REVEAL", "slots": slot}
    if verb in CARD_VERBS:
        return {"verb": verb, "refs": read_cards(rest, line) if rest else []}
    if verb in WORD_VERBS:
        if not rest:
            raise InvalidLine(f"{verb} needs what you choose", line=line)
        return {"verb": verb, "words": [w.upper() for w in rest]}
    if verb == "RECAST":
        refs = read_cards(rest, line)
        if len(refs) != 1:
            raise InvalidLine("RECAST names one card", line=line, hint="RECAST Iron Chains CQ")
        return {"verb": "RECAST", "refs": refs}
    parts = _split(rest, ("BY", "WITH", "ON"))
    if verb == "MARKER":
        got = _what(parts[""])
        if got is None or got[0] != "marker":
            raise InvalidLine("MARKER Yin-Yang, MARKER Pioneer ON <seat> MAIN|DEPUTY or "
                              "MARKER Perfect Pair", line=line)
        after = parts.get("ON", [])
        return {"verb": "MARKER", "marker": got[1], "on": [_seat(w, line) for w in after[:1]],
                "words": [w.upper() for w in after[1:]]}
    on = [_seat(w, line) for w in parts.get("ON", [])]
    with_refs = read_cards(parts["WITH"], line) if parts.get("WITH") else []
    by = None
    if "BY" in parts:
        got = _what(parts["BY"])
        if got is None:
            raise InvalidLine(f"{' '.join(parts['BY'])!r} is not a skill or card", line=line)
        by = got[1]
    if verb in RESPONSE_VERBS:
        head = parts[""]
        force = bool(head) and head[0].upper() == "FORCE"
        if force:
            head = head[1:]
        if force and verb != "NEGATE":
            raise InvalidLine("FORCE goes with NEGATE", line=line)
        refs = read_cards(head, line) if head else []
        return {"verb": verb, "force": force, "refs": refs, "by": by, "with": with_refs,
                "on": on}
    # USE
    head = parts[""]
    if not head:
        raise InvalidLine("USE what?", line=line, hint="USE Attack ON C")
    sk, j = _longest(head, 0, DATA.skill)
    if sk is not None and j == len(head):
        return {"verb": "USE", "skill": sk.id, "refs": with_refs, "on": on, "by": None,
                "words": []}
    if sk is not None:
        return {"verb": "USE", "skill": sk.id, "refs": with_refs, "on": on, "by": None,
                "words": [w.upper() for w in head[j:]]}
    refs = read_cards(head, line)
    if by is not None:
        if len(refs) != 1 or refs[0]["suit"] is not None or refs[0]["kind"] is None:
            raise InvalidLine("with BY, name the kind of card it becomes, then WITH the cards",
                              line=line, hint="USE Attack BY Saint of War WITH Dodge D10 ON C")
        return {"verb": "USE", "kind": refs[0]["kind"], "by": by, "refs": with_refs, "on": on}
    if len(refs) != 1:
        raise InvalidLine("USE one card at a time", line=line, hint="USE Attack S7 ON C")
    return {"verb": "USE", "kind": None, "by": None, "refs": refs, "on": on}


def _with_answers(words: list[str], line: str) -> Cmd:
    """``USE <card> ... THEN <answer> [THEN <answer>...]``: the line, and the
    answers written ahead to the questions the card will ask its user."""
    chunks: list[list[str]] = [[]]
    for w in words:
        if w.upper() == "THEN":
            chunks.append([])
        else:
            chunks[-1].append(w)
    cmd = syntax(" ".join(chunks[0]))
    answers = []
    for chunk in chunks[1:]:
        if not chunk or chunk[0].upper() not in ANSWER_VERBS:
            raise InvalidLine("THEN is followed by the answer to a question the card asks you",
                              line=line, hint="USE Stealing Sheep ON C THEN TAKE HAND")
        answers.append(canonical(syntax(" ".join(chunk))))
    cmd["then"] = answers
    return cmd


def _standing(rest: list[str], line: str) -> Cmd:
    hint = "STANDING discard KEEP Peach Dodge, STANDING discard ASK, STANDING reveal ASK"
    what = rest[0].lower() if rest else ""
    if what not in STANDING_WORDS or len(rest) < 2:
        raise InvalidLine("STANDING discard ..., STANDING reveal ... or STANDING forced ...",
                          line=line, hint=hint)
    word = rest[1].upper()
    if word not in STANDING_WORDS[what]:
        raise InvalidLine(f"STANDING {what} takes {', '.join(STANDING_WORDS[what])}",
                          line=line, hint=hint)
    keep: list[str] = []
    if word == "KEEP":
        refs = read_cards(rest[2:], line)
        if not refs or any(r["kind"] is None or r["suit"] is not None for r in refs):
            raise InvalidLine("STANDING discard KEEP names cards, most wanted first, by name",
                              line=line, hint="STANDING discard KEEP Peach Dodge Negation")
        keep = list(dict.fromkeys(r["kind"] for r in refs))
    elif len(rest) > 2:
        raise InvalidLine(f"STANDING {what} {word} takes nothing after it", line=line,
                          hint=f"STANDING {what} {word}")
    return {"verb": "STANDING", "what": what, "word": word, "keep": keep}


def canonical(cmd: Cmd) -> str:
    """The command's canonical line (upper-case verbs, names as the rulebook
    spells them, cards as ``Name S7``)."""
    verb = cmd["verb"]
    if verb == "PASS":
        return "PASS"
    if verb == "GENERALS":
        return f"GENERALS {DATA.generals[cmd['main']].name} AND {DATA.generals[cmd['deputy']].name}"
    if verb == "REVEAL":
        slots = cmd["slots"]
        return "REVEAL " + ("BOTH" if len(slots) == 2 else slots[0].upper())
    if verb == "STANDING":
        keep = "".join(f" {DATA.cards[k].name}" for k in cmd["keep"])
        return f"STANDING {cmd['what']} {cmd['word']}{keep}"
    cards = cmd.get("cards")
    ctext = cards_text(cards) if cards is not None else " ".join(
        ref_text(r) for r in cmd.get("refs", []))
    on = " ".join(cmd.get("on", []))
    if verb in CARD_VERBS or verb == "RECAST":
        return f"{verb} {ctext}".strip()
    if verb in WORD_VERBS:
        return f"{verb} {' '.join(cmd['words'])}"
    if verb == "MARKER":
        out = f"MARKER {MARKERS[cmd['marker']]}"
        return out + (f" ON {on}" if on else "") + (
            " " + " ".join(cmd["words"]) if cmd.get("words") else "")
    by = cmd.get("by")
    by_text = ""
    if by:
        by_text = _by_name(by)
    if verb in RESPONSE_VERBS:
        out = verb + (" FORCE" if cmd.get("force") else "")
        wcards = cmd.get("with_cards")
        wtext = cards_text(wcards) if wcards is not None else " ".join(
            ref_text(r) for r in cmd.get("with", []))
        if ctext:
            out += f" {ctext}"
        if by_text:
            out += f" BY {by_text}"
        if wtext:
            out += f" WITH {wtext}"
        if on:
            out += f" ON {on}"
        return str(out)
    return _use_text(cmd, ctext, by_text, on)


def _use_text(cmd: Cmd, ctext: str, by_text: str, on: str) -> str:
    if cmd.get("skill"):
        out = f"USE {DATA.skills[cmd['skill']].name}"
        if cmd.get("words"):
            out += " " + " ".join(cmd["words"])
        if ctext:
            out += f" WITH {ctext}"
    elif cmd.get("by"):
        out = f"USE {DATA.cards[cmd['kind']].name} BY {by_text}" + (
            f" WITH {ctext}" if ctext else "")
    else:
        out = f"USE {ctext}"
    out += f" ON {on}" if on else ""
    return str(out + "".join(f" THEN {a}" for a in cmd.get("then") or []))


def _by_name(by: str) -> str:
    if by in DATA.skills:
        return DATA.skills[by].name
    if by in DATA.cards:
        return DATA.cards[by].name
    if by in MARKERS:
        return MARKERS[by]
    return "Death Match" if by == "death-match" else by

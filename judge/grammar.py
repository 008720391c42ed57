"""Mail body -> numbered command lines, and the judge's common commands.

The grammar is line-oriented and case-insensitive; one mail may carry many
commands. A line is one of:

* a common command from :data:`COMMANDS` (``SIGNON``, ``STATUS``, ``EXTEND`` ...);
* the start of a block: ``ORDERS`` ... ``END`` (game lines: a complete order set
  that replaces what was held) or ``PRESS TO <roles>|ALL`` ... ``ENDPRESS``;
* ``DECK <name>`` ... ``END``: a deck list for a deck-building game, one
  card a line; it reaches the game as one game line, ``DECK <name>: <line>;
  <line>; ...``, on the DECK line's number;
* ``END`` outside a block: the rest of the mail is ignored;
* anything else: a game line (an order, ``PLAY ...``), handed to the game.

``HELP`` is printed from :data:`COMMANDS`, the same table this parser reads,
so the two cannot drift. Errors are collected per line; a bad line never stops
the lines after it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from judge.mail.bounds import MAX_ECHO_CHARS, echo
from judge.mail.redact import fold, mask_secrets
from judge.mail.typography import plain_marks

Audience = Literal["anyone", "player", "gm"]

#: Game names: ASCII letters and digits, - and _ (no look-alike letters).
GAME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


@dataclass(frozen=True)
class CommandSpec:
    """One common command: its words, its arguments, who may use it, HELP text.

    ``args`` is a small pattern language: ``<x>`` one word, ``[<x>]`` an optional
    word, ``<x...>`` the rest of the line, ``[<x...>]`` the rest, optional.
    """

    name: str
    args: str
    audience: Audience
    summary: str
    example: str

    @property
    def syntax(self) -> str:
        return f"{self.name} {self.args}".strip()


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("SIGNON", "<game> <role> <token>", "anyone",
                "Sign on to your seat; the commands after it act for that seat. "
                "It may also stand in the Subject.", "SIGNON league42 France k7mq2x9adf3p"),
    CommandSpec("JOIN", "<game> [<role>]", "anyone",
                "Ask for a seat in a game that is forming; your token comes back by mail "
                "to this address.", "JOIN league42 England"),
    CommandSpec("LIST", "", "anyone", "List the games on this judge and their state.", "LIST"),
    CommandSpec("OBSERVE", "<game> [<off>]", "anyone",
                "Follow a game: its public report each turn comes to this address (nothing "
                "any seat alone may see), once you send back the line with the code the "
                "answer gives you. OBSERVE <game> OFF stops it.", "OBSERVE league42"),
    CommandSpec("HELP", "[<topic...>]", "anyone",
                "This text; HELP <game kind> lists that game's own commands; signed on, "
                "HELP <name> gives the text of a card, rule or the like of your game "
                "(a name may have several words).", "HELP classic"),
    CommandSpec("ORDERS", "[<phase...>]", "player",
                "Start a complete set of orders (one per line), replacing the orders you sent "
                "before for this phase; close it with END. Naming the phase (ORDERS F1901M) "
                "binds the block to it: once that phase is over the block is refused whole. "
                "A block whose every line is refused replaces nothing. Order lines outside a "
                "block add to or replace (unit by unit) what you sent.", "ORDERS F1901M"),
    CommandSpec("END", "", "anyone",
                "Closes an ORDERS block; outside a block, ends the mail (a signature below "
                "it is ignored).", "END"),
    CommandSpec("PRESS TO", "<roles...>", "player",
                "Send a message to the named seats (comma separated) or ALL; PUBLIC: to all, "
                "and shown on the game's public page; the text follows on the next lines, "
                "closed by ENDPRESS. Signed on as GM: a message from the GM (the game's "
                "press setting binds only the players).", "PRESS TO England, Germany"),
    CommandSpec("ENDPRESS", "", "player", "Closes a PRESS message.", "ENDPRESS"),
    CommandSpec("WAIT", "", "player",
                "Do not process this phase early, before its deadline.", "WAIT"),
    CommandSpec("NOWAIT", "", "player", "Withdraw WAIT.", "NOWAIT"),
    CommandSpec("DRAW", "", "player",
                "Vote for a draw shared by all survivors; it happens when all vote.", "DRAW"),
    CommandSpec("NODRAW", "", "player", "Withdraw your draw vote.", "NODRAW"),
    CommandSpec("CONCEDE", "[<role>]", "player",
                "Concede the game to another survivor; it ends in that one's victory when "
                "every other survivor concedes to it. CONCEDE NONE withdraws it.",
                "CONCEDE England"),
    CommandSpec("STATUS", "", "player",
                "Your view of the game now, with the orders you have sent this phase (for "
                "the GM: every seat, who is waited for, the clock).", "STATUS"),
    CommandSpec("HISTORY", "[<count>]", "player",
                "What happened in the last phases (default 3).", "HISTORY 5"),
    CommandSpec("POLICY", "[<window>] [<answer...>]", "player",
                "A standing answer for a kind of response window: ASK (you are asked "
                "each time, whatever you hold; ASK alone clears the others), PASS, or an "
                "answer line, each optionally WHEN <condition> (tried before the "
                "unconditional one). Whether you are asked may depend only on what every "
                "player sees: ASK WHEN a condition on your own hand (CAN, HOLDING) is "
                "refused; such conditions choose an answer. A window that asks nobody "
                "closes at once. POLICY alone lists yours. HELP <game kind> lists each "
                "window's answers and conditions.", "POLICY before-combat PASS"),
    CommandSpec("QUEUE", "", "player",
                "List your queued lines (lines sent while you had nothing to decide, "
                "each waiting for your next turn) with their numbers.", "QUEUE"),
    CommandSpec("CANCEL", "<which>", "player",
                "Remove a queued line by its number (as QUEUE lists them), or ALL.",
                "CANCEL 2"),
    CommandSpec("SET MAIL", "<mode>", "player",
                "Which mail you get: EACH (a report after every move you may see), "
                "DECISIONS (a mail when you must decide, and a digest at the end of each "
                "game turn; the default) or DIGEST (the digest, and a mail only for your own "
                "turn: response windows are left to your standing answers).",
                "SET MAIL decisions"),
    CommandSpec("SET ACK", "<mode>", "player",
                "ALL: every mail of yours is acknowledged at once (the default); ERRORS: an "
                "acknowledgement that refused nothing waits for your next mail from the "
                "judge instead of coming alone.", "SET ACK errors"),
    CommandSpec("RESIGN", "", "player",
                "Leave the game; your seat falls into civil disorder until the GM replaces you.",
                "RESIGN"),
    CommandSpec("SET ABSENCE", "<dates...>", "player",
                "Announce an absence, first and last day (in your time zone): a deadline of a "
                "decision you owe that falls inside it moves to its end (by at most "
                "max_extend_hours). At most max_absence_days in a game; SET ABSENCE NONE "
                "clears yours.", "SET ABSENCE 2026-12-24 2026-12-28"),
    CommandSpec("SET TIMEZONE", "<zone>", "player",
                "Show times in this IANA time zone (signed on as GM: in the GM's STATUS "
                "and notices).", "SET TIMEZONE Europe/Paris"),
    CommandSpec("CREATE", "<game> <kind> [<options...>]", "anyone",
                "Create a game and become its GM; options are name=value pairs.",
                "CREATE league42 classic max_year=1910"),
    CommandSpec("CREATE LEAGUE", "<league> [<scoring>] [<code>]", "anyone",
                "Create a league and become its GM (only an address the judge's operator "
                "lists in judge.creators, which shows it is theirs: a code mailed to it is "
                "sent back on the line, or the mail is signed on with a token of that "
                "address); scoring draw-size (the default), sum-of-squares or wdl. Put a "
                "game in it with LEAGUE <league> before its START.",
                "CREATE LEAGUE autumn draw-size"),
    CommandSpec("STANDINGS", "<league>", "anyone",
                "A league's standings under its scoring system, its players' ratings "
                "(openskill) and their reliability, from its finished games.",
                "STANDINGS autumn"),
    CommandSpec("STANDBY", "<league> [<off>]", "anyone",
                "Join a league's standby list (the reply gives your place): when a seat of "
                "one of its games is left, its GM is offered the first player waiting. "
                "STANDBY <league> OFF leaves the list.", "STANDBY autumn"),
    CommandSpec("START", "", "gm", "Start the game: seats without a chosen role get one "
                "by lot from the game's seed.", "START"),
    CommandSpec("LEAGUE", "<league>", "gm",
                "Before START: make this game one of a league's (a league you are the GM "
                "of); its result then counts in the league's standings.", "LEAGUE autumn"),
    CommandSpec("ADMIT", "<who>", "gm",
                "Give a seat to an address that asked to JOIN (with SET joins approval); "
                "its token goes there.", "ADMIT anna@example.org"),
    CommandSpec("REMOVE", "<who>", "gm",
                "Before START: remove a seat (or a request for one), by address or role; "
                "the address is told.", "REMOVE anna@example.org"),
    CommandSpec("SET DEADLINE", "<when...>", "gm",
                "Set this phase's deadline (ISO date and time, UTC unless a zone follows).",
                "SET DEADLINE 2026-12-01 18:00 Europe/Paris"),
    CommandSpec("SET", "<setting> <value>", "gm",
                "Change a game setting (orders_hours, action_hours, window_hours, "
                "window_min_minutes, grace_hours, reminder_hours, max_extend_hours, press "
                "white|grey|named|none, joins open|approval, abandon_after, gm_copies no|yes, "
                "draw_votes secret|public, orders_in gm|all, max_absence_days, picture "
                "png|svg|none); before START also an option of the game, as CREATE takes "
                "them (SET max_year 1910).", "SET grace_hours 12"),
    CommandSpec("EXTEND", "<hours>", "gm",
                "Move this phase's deadline later (capped by max_extend_hours).", "EXTEND 24"),
    CommandSpec("PAUSE", "", "gm", "Stop the clock.", "PAUSE"),
    CommandSpec("RESUME", "", "gm", "Restart the clock with a fresh deadline.", "RESUME"),
    CommandSpec("PROCESS", "", "gm", "Process the phase now, with defaults for missing orders.",
                "PROCESS"),
    CommandSpec("REPLACE", "<role> <address>", "gm",
                "Give a seat to a new player; a new token goes to the new address.",
                "REPLACE Italy anna@example.org"),
    CommandSpec("EJECT", "<role>", "gm",
                "Remove a player; the seat falls into civil disorder.", "EJECT Italy"),
    CommandSpec("END DRAW", "<roles...>", "gm",
                "End the game now in a draw shared by the named seats (comma separated; "
                "ALL: every seat still in the game). Its league counts the result.",
                "END DRAW France, England, Russia"),
    CommandSpec("END WIN", "<role>", "gm",
                "End the game now: the named seat wins. Its league counts the result.",
                "END WIN France"),
    CommandSpec("CANCEL GAME", "", "gm",
                "End the game now with no result: it counts for nobody in its league. "
                "Before START: the game is cancelled, and who joined is told.",
                "CANCEL GAME"),
    CommandSpec("ROLLBACK", "", "gm",
                "Undo the last processed phase, restoring the position and orders before it.",
                "ROLLBACK"),
)

#: Longest names first, so ``SET DEADLINE`` wins over ``SET``.
_BY_WORDS = sorted(COMMANDS, key=lambda c: -len(c.name.split()))
SPEC = {c.name: c for c in COMMANDS}

#: Words the parser itself consumes (they close blocks or the mail): no handler.
STRUCTURAL = frozenset({"END", "ENDPRESS"})


@dataclass(frozen=True)
class Line:
    number: int
    text: str


@dataclass
class Command:
    """A parsed common command, a block, or a game line (``name == "GAME"``)."""

    name: str
    line: Line
    args: dict[str, str] = field(default_factory=dict)
    body: list[Line] = field(default_factory=list)
    closed: bool = True
    """False for a block that ran to the end of the mail without its END."""


@dataclass(frozen=True)
class LineError:
    line: Line
    message: str
    hint: str = ""

    def __str__(self) -> str:
        text = f'line {self.line.number}: "{self.line.text}": {self.message}'
        return text + (f" ({self.hint})" if self.hint else "")


@dataclass
class Parsed:
    commands: list[Command]
    errors: list[LineError]
    ended_at: int | None = None  # line number of a closing END, if any
    judge_text: list[Line] = field(default_factory=list)
    """Lines shaped like the judge's own headings and labels (:func:`judge_line`):
    never read as commands or orders, listed as not read."""


#: Words that start a sentence, never a phase: ``Orders are due from: ...``
#: and ``Orders held for France, S1901M:`` begin with a command word, and
#: are the judge's own text.
_PROSE = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "been", "by", "due", "for", "from", "had",
    "has", "have", "held", "in", "is", "no", "not", "of", "on", "or", "our", "received",
    "sent", "still", "that", "the", "these", "this", "those", "to", "was", "we", "were",
    "will", "with", "would", "you", "your"})

#: Lines of the judge's own mails that a quote stripper may leave behind: an
#: acknowledgement's echo (``   3  A Par - Bur``), its results (``-> ok: ...``),
#: its refusals (``line 4: "..."``), and its summaries.
_JUDGE_LINE = re.compile(
    r"^(->\s|\d+\s{2,}\S|line \d+: \"|your mail\b.*\bwas read as follows:$|"
    r"every line was accepted\.$|\d+ line\(s\) were not accepted|\(no commands\)$|"
    r"you have no orders held for\b)",
    re.IGNORECASE,
)


def phase_shaped(text: str) -> bool:
    """Whether ``text`` can name a phase (``S1901M``, ``Great Turn 2, campaign
    1``): not a sentence or a label (no colon, no closing punctuation, not
    opening with a word such as "are", "held" or "for")."""
    text = text.strip()
    if not text:
        return True
    if ":" in text or text[-1] in ".,;!?":
        return False
    return text.split()[0].lower() not in _PROSE


def judge_line(text: str) -> bool:
    """Whether a line is shaped like the judge's own text rather than a
    command: an acknowledgement's echo, result or refusal line, or a heading
    or label that opens with a command word (``Orders are due from: ...``,
    ``Orders held for France, S1901M:``, ``Draw votes: none``). Commands
    never hold ``": "`` or end with ``":"`` (a time such as ``18:00`` is not
    a label)."""
    if _JUDGE_LINE.match(text):
        return True
    found = _command_of(text)
    if found is None or found[0].name == "SIGNON":
        return False
    rest = found[1]
    return text.endswith((":", "\uff1a")) or ": " in rest


_TOKEN = re.compile(r"(\[?)<([a-z]+)(\.\.\.)?>(\]?)")


def _match_args(spec: CommandSpec, rest: str) -> dict[str, str] | str:
    """Fill ``spec.args`` from ``rest``; a str result is the error message."""
    words = rest.split()
    out: dict[str, str] = {}
    parts = spec.args.split()
    for i, part in enumerate(parts):
        m = _TOKEN.fullmatch(part)
        if m is None:  # pragma: no cover - the table is fixed
            raise AssertionError(part)
        optional, name, many = bool(m.group(1)), m.group(2), bool(m.group(3))
        if many:
            text = " ".join(words[i:])
            if not text and not optional:
                return f"{spec.name} needs <{name}>"
            out[name] = text
            return out
        if i >= len(words):
            if optional:
                continue
            return f"{spec.name} needs <{name}>"
        out[name] = words[i]
    if len(words) > len([p for p in parts]):
        return f"{spec.name} takes {len(parts) or 'no'} argument(s), not {len(words)}"
    return out


def _command_of(text: str) -> tuple[CommandSpec, str] | None:
    upper = text.upper().split()
    for spec in _BY_WORDS:
        n = len(spec.name.split())
        if upper[:n] == spec.name.split():
            rest = text.split(None, n)
            return spec, rest[n] if len(rest) > n else ""
    return None


def parse_subject(subject: str) -> list[Command]:
    """A SIGNON in the Subject (``Re:`` prefixes allowed) counts as line 0."""
    text = _REPLY_PREFIX.sub("", fold(subject))
    found = _command_of(text.strip()) if text.strip() else None
    if found is None or found[0].name != "SIGNON":
        return []
    args = _match_args(found[0], found[1])
    if isinstance(args, str):
        return []
    return [Command("SIGNON", Line(0, text.strip()), args)]


def parse_body(lines: Sequence[str]) -> Parsed:
    """Split a cleaned mail body into commands, collecting errors per line."""
    commands: list[Command] = []
    errors: list[LineError] = []
    block: Command | None = None
    deck: tuple[Line, list[str]] | None = None
    judge_text: list[Line] = []
    for number, raw in enumerate(lines, 1):
        raw = fold(raw)
        text = plain_marks(raw).strip()
        line = Line(number, text)
        if deck is not None:
            if text.upper() == "END":
                commands.append(_deck_line(*deck))
                deck = None
            elif text and not text.startswith("#"):
                deck[1].append(text.replace(";", ","))
            continue
        if block is None and _DECK.match(text):
            deck = (line, [])
            continue
        if block is not None:
            closing = "ENDPRESS" if block.name == "PRESS TO" else "END"
            if text.upper() == closing:
                block = None
                continue
            if block.name == "ORDERS" and text.upper() == "ENDPRESS":
                errors.append(LineError(line, "ENDPRESS outside a PRESS message",
                                        "close an ORDERS block with END"))
                continue
            if block.name == "ORDERS" and not text:
                continue
            if block.name == "ORDERS" and judge_line(text):
                judge_text.append(line)
                continue
            block.body.append(line if block.name == "ORDERS" else Line(number, raw.rstrip()))
            continue
        if not text:
            continue
        if judge_line(text):
            judge_text.append(line)
            continue
        found = _command_of(text)
        if found is None:
            commands.append(Command("GAME", line))
            continue
        spec, rest = found
        if spec.name == "END":
            return Parsed(commands, errors, ended_at=number, judge_text=judge_text)
        if spec.name == "ENDPRESS":
            errors.append(LineError(line, "ENDPRESS without PRESS TO", "start with PRESS TO"))
            continue
        args = _match_args(spec, rest)
        if isinstance(args, str):
            errors.append(LineError(line, args, f"write it as: {spec.syntax}"))
            continue
        if spec.name == "ORDERS" and not phase_shaped(rest):
            errors.append(LineError(line, "ORDERS takes a phase or nothing, not a sentence",
                                    "write ORDERS alone (or ORDERS S1901M) on its line; the "
                                    "lines after it were read one by one"))
            continue
        cmd = Command(spec.name, line, args)
        commands.append(cmd)
        if spec.name in ("ORDERS", "PRESS TO"):
            block = cmd
    if deck is not None:
        commands.append(_deck_line(*deck))
        errors.append(LineError(deck[0], "DECK is not closed",
                                "end the list with END; it was taken to run to the end of "
                                "the mail"))
    if block is not None:
        block.closed = False
        closing = "ENDPRESS" if block.name == "PRESS TO" else "END"
        errors.append(
            LineError(block.line, f"{block.name} is not closed",
                      f"end it with {closing}; it was taken to run to the end of the mail")
        )
    return Parsed(commands, errors, judge_text=judge_text)


_DECK = re.compile(r"^DECK\s+[^:]+$", re.IGNORECASE)
"""A line opening a deck list block (``DECK <name>``, no colon: with one the
whole list stands on the line)."""


def _deck_line(head: Line, body: Sequence[str]) -> Command:
    name = head.text.split(None, 1)[1].strip()
    return Command("GAME", Line(head.number, f"DECK {name}: " + "; ".join(body)))


def split_roles(text: str) -> list[str]:
    """``England, Germany`` / ``England Germany`` / ``ALL`` -> names."""
    return [w for w in re.split(r"[\s,;]+", text) if w]


def help_text(game_verbs: Iterable[tuple[str, str, str]] = ()) -> str:
    """HELP, generated from the table that parses (plus a game's verbs)."""
    out = ["Commands (case does not matter; one per line):", ""]
    titles = {"anyone": "For everyone", "player": "For players (after SIGNON)",
              "gm": "For the game master (SIGNON <game> GM <token>)"}
    for audience, title in titles.items():
        out.append(title + ":")
        for spec in COMMANDS:
            if spec.audience == audience:
                out.append(f"  {spec.syntax}")
                out.append(f"      {spec.summary}")
                out.append(f"      e.g. {spec.example}")
        out.append("")
    verbs = list(game_verbs)
    if verbs:
        out.append("Orders and actions of this game:")
        for syntax, summary, example in verbs:
            out.append(f"  {syntax}")
            out.append(f"      {summary}")
            out.append(f"      e.g. {example}")
        out.append("")
    return "\n".join(out)


#: Reply and forward prefixes of the common clients and locales (Outlook's
#: "RE:", German "AW:", Scandinavian "SV:"/"VS:", Dutch "Antw:", Polish
#: "Odp:", Italian "R:"/"Rif:", Portuguese "Res:", Turkish "YNT:", Chinese
#: "回复:"/"答复:", Japanese "返信:", Korean "회신:", forwards), with ASCII or
#: fullwidth colons.
_REPLY_PREFIX = re.compile(
    r"^\s*((re|fwd?|fw|aw|wg|sv|vs|antw|odp|r|rif|res|enc|tr|ynt|ilt|回复|答复|回覆|轉寄|"
    r"转发|返信|転送|회신|전달)\s*(\[\d+\])?\s*[:：]\s*)+", re.IGNORECASE)


def reply_subject(subject: str, limit: int = MAX_ECHO_CHARS) -> str:
    """``Re:`` once before the subject, with a SIGNON token in it masked and
    at most ``limit`` of its characters (then ``...``)."""
    text = echo(mask_secrets(_REPLY_PREFIX.sub("", subject).strip()), limit)
    return f"Re: {text}".strip()

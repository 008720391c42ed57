"""Which trailing lines are a sign-off, not a malformed order.

A player's orders are often followed by lines no command was meant by: a
sign-off ("Kind regards,"), a signature without the ``-- `` separator
("Move Coordinator | Hold Fast Logistics"), a corporate disclaimer, a
mobile footer ("Download Outlook for Android"), often added by a mail
system the player does not control. After the last line the judge read,
such a line is listed as *not read*; it is not refused, does not make the
seat not ready and does not ask for the mail again. A line that reads as a
malformed order is still refused with its correction.

The rule, per game, from the game's own parser and its HELP table (so it
follows the game's grammar without a list of its own): a line is a
sign-off when the game does not understand it (``parse`` raises
:class:`~judge.game.engine.InvalidLine`, not an illegal or ambiguous line) and
none of these holds:

* its first word is a judge command word or one of the game's verb words:
  the literal words that open the syntaxes of its HELP table and their
  alternatives (``PLAY``, ``USE``, ``MOVE``, ``Build``, ``WAR``,
  ``DISCARD``, ...), unless the line ends as a sentence or a greeting does
  (``,``, ``!``, ``.``, ``?``: "Take care!", "Pass my regards on.");
* the game's orders open with a unit or a piece (a syntax led by
  ``<unit>``, ``<piece>``, ...), and the line opens like its examples do: a
  piece with its number (``A8``, ``M7``: the letters of an example's first
  word followed by digits), or a unit letter or word (``A``, ``F``,
  ``Army``, ``Fleet``) followed by a short word (a province's
  abbreviation: ``A Mos Ukr``; "A pleasure doing business" is not);
* the line is written as commands are, in capitals, a few words
  (``FROBNICATE``, ``MOVE B2``);
* the line is a bare move between two short words (``Mso - Ukr``,
  ``Mos->Ukr``) in a game whose syntax moves with ``-`` or ``->``.

A line holding what no order holds and signatures do (a ``|`` between
titles, an ``@`` address, a link, a trade mark sign) is a sign-off
whatever its first word.

What the rule reads from each game's HELP table today:

======================= ============================================ =================
game                    verb words                                   unit or piece
======================= ============================================ =================
classic, warring_states Build, Remove, Waive                         A, F + a short word
three_kingdoms          CAPITAL, MILITIA, NAME, WAR, NEUTRAL,        A8, L8, M7 (a
                        ALLIANCE, CIVIL, CLAIM, CONCEDE, BUILD,      letter and a
                        REMOVE, WAIVE                                number)
conflict_of_alliances   PASS, PLAY, MILITARY, REINFORCE, SKIP,       none
                        RESPOND, DEFEND, LOSE, ATTACK, RETREAT,
                        STAY, ADVANCE, TAKE, DISCARD, BID
kingdom_wars            GENERALS, REVEAL, USE, RECAST, MARKER,       none
                        DODGE, ATTACK, NEGATE, PEACH, WINE, DISCARD,
                        GIVE, SHOW, TAKE, CHOOSE, PASS
conquest_tactics        DECK, BASE, TAKE, DEPLOY, MOVE, ATTACK,      none
                        CAST, USE, PLAY, EQUIP, LEARN, UPGRADE,
                        REDEEM, RECYCLE, PASS, DONE, STOP
======================= ============================================ =================

A Diplomacy order written from its province (``Mos - Ukr``) is read by the
game itself. A pair of short words without the hyphen (``Mos Ukr``) in a
game whose syntax moves with ``-`` is a malformed move, not a sign-off,
when the game reads the pair with the hyphen put back as a move, legal or
not (both words are places of its map): it is refused with its correction
("did you mean "A Mos - Ukr"?"); a pair that is no two places ("Ian Fox")
stays a sign-off. Every test is on the line's first words, plus at most
one more reading of a two-word line: linear in the line.
"""

from __future__ import annotations

import re

from judge.game.engine import InvalidLine, Role, RuleError, State
from judge.game.spec import Game
from judge.grammar import COMMANDS

__all__ = ["is_sign_off", "reads_as_order"]

_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")
_PIECE = re.compile(r"^([a-z]+)(\d+)")
_BARE_MOVE = re.compile(r"^([^\W_]{1,4})(?:/\w{1,3})?\s*(?:-|->)\s*([^\W_]{1,4})(?:/\w{1,3})?$")
_UNIT_WORDS = frozenset({"army", "fleet"})
_COMMAND_WORDS = frozenset(c.name.split()[0].lower() for c in COMMANDS)
_SENTENCE_END = (",", "!", ".", "?", "...", ":")
#: What no order of any game holds, and signatures do: a pipe between
#: titles, an address, a link, a trade mark.
_NEVER = re.compile(r"[|@\u00a9\u00ae\u2122]|https?:|www\.", re.IGNORECASE)


_Shapes = tuple[frozenset[str], frozenset[str], frozenset[str], bool]
_SHAPES: dict[tuple[str, int], _Shapes] = {}


def _shapes(game: Game) -> _Shapes:
    """(verb words, piece letters of numbered pieces, unit letters, moves with
    a hyphen or arrow) of ``game``, from its HELP table (kept per game)."""
    key = (game.id, id(game.verbs))
    if key not in _SHAPES:
        _SHAPES[key] = _read_shapes(game)
    return _SHAPES[key]


def _read_shapes(game: Game) -> _Shapes:
    verbs: set[str] = set()
    pieces: set[str] = set()
    letters: set[str] = set()
    moves = False
    for spec in game.verbs:
        syntax = spec.syntax
        moves = moves or " - " in syntax or "->" in syntax
        for alternative in syntax.split(" | "):
            first = alternative.split()[0] if alternative.split() else ""
            if first.startswith(("<", "[")):
                words = _WORD.findall(spec.example)
                head = words[0].lower() if words else ""
                match = _PIECE.match(head)
                if match:
                    pieces.add(match.group(1))
                elif head:
                    letters.add(head)
                continue
            for word in first.split("|"):
                word = word.strip().lower()
                if len(word) >= 2 and word.isalpha():
                    verbs.add(word)
    return frozenset(verbs), frozenset(pieces), frozenset(letters), moves


def reads_as_order(game: Game, line: str) -> bool:
    """Whether a line the game does not understand still reads as a
    malformed order or command of ``game`` (the module docstring's rule)."""
    text = line.strip()
    words = _WORD.findall(text.lower())
    if not words or _NEVER.search(text):
        return False
    verbs, pieces, letters, moves = _shapes(game)
    first = words[0]
    if first in _COMMAND_WORDS or first in verbs:
        return not text.endswith(_SENTENCE_END)
    if (text.isupper() and len(words) <= 4 and len(first) >= 3
            and not text.endswith(_SENTENCE_END)):
        return True  # written as a command is: in capitals, a few words
    match = _PIECE.match(first)
    if match and match.group(1) in pieces:
        return True
    if (first in letters or first in _UNIT_WORDS) and (letters or pieces) and len(words) > 1:
        second = words[1]
        if len(second) <= 4 or second.isdigit():
            return True
    return moves and _BARE_MOVE.match(text) is not None


def is_sign_off(game: Game, state: State, role: Role, line: str) -> bool:
    """Whether ``line`` is a sign-off for ``role`` now: the game does not
    understand it at all and it does not read as a malformed order. The
    cheap test on its first words comes first: a line that reads as an order
    is not parsed a second time here (the game reads it once, as a line)."""
    if reads_as_order(game, line):
        return False
    try:
        game.parse(state, role, line)
    except InvalidLine:
        return not _place_pair(game, state, role, line)
    except RuleError:
        return False
    return False


_PAIR = re.compile(r"^([^\W_]{1,4}(?:/\w{1,3})?)\s+([^\W_]{1,4}(?:/\w{1,3})?)$")


def _place_pair(game: Game, state: State, role: Role, line: str) -> bool:
    """Whether ``line`` is two short words the game reads, with the move's
    hyphen between them, as a move (legal or not): two places of its map."""
    match = _PAIR.match(line.strip())
    if match is None or not _shapes(game)[3]:
        return False
    try:
        game.parse(state, role, f"{match.group(1)} - {match.group(2)}")
    except InvalidLine:
        return False
    except RuleError:
        return True
    return True

"""Who is asked a response window by hand, and when a window may close:
the timing of a window tells nothing a seat may not see.

DESIGN.md, "Privacy": the moment a window closes depends on no fact a seat
may not see, however slowly anyone answers. The rule here:

* **Who is asked is fixed when the window opens**, from facts every seat may
  see and each seat's own standing-answer *setting*, never from its hand or
  its hidden general. A seat is asked by hand only if its standing answers
  for that kind of window reach ``ASK`` through conditions that every seat
  could test (:func:`asked_by_hand`), and the game allows asking it
  (``Game.may_ask``: not a window offered for a hidden general's skills,
  not one whose only possible answer is, publicly, a pass). A seat set to
  ``ASK`` is asked whatever it holds.
* Conditions on what only the seat sees (``CAN``, ``HOLDING``; the
  game marks them ``PolicyCondition.private``) may choose the *answer*, never
  whether to ask: ``ASK`` under such a condition is refused
  (:func:`check_policy`).
* Every seat not asked by hand gets its answer from its standing answers at
  once (:func:`standing`; the game's default, a pass, when none fits). So a
  window nobody is asked in is complete as it opens and closes at once; one
  with seats asked by hand closes when each of them has answered or at its
  deadline (:func:`may_close`); no window waits for a seat it did not ask.
* A seat asked by hand that lets the deadline pass gets what its other
  standing answers give (``POLICY dodge ASK`` with ``POLICY dodge DODGE``:
  asked, and a Dodge at the deadline if it holds one).

Pure functions over the adjudicator's table; no clock but the one passed in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from judge.game.engine import Action, Decision, IllegalLine, Role, RuleError, State, WindowSpec
from judge.game.spec import Game

if TYPE_CHECKING:
    from judge.game.scheduler import Clock


class Table(Protocol):
    """What the timing rules read of a game's table
    (:class:`judge.game.adjudicator.Table`, which imports this module):
    the state, and each seat's standing answers per window kind."""

    @property
    def state(self) -> State: ...

    @property
    def policies(self) -> Mapping[Role, Mapping[str, list[dict[str, str]]]]: ...

ASK = "ASK"
PASS = "PASS"


def _clauses(condition: str) -> list[tuple[str, str]]:
    """``WORD arg`` pairs of a canonical condition (``NOT`` taken off)."""
    out: list[tuple[str, str]] = []
    for clause in condition.split(" AND ") if condition else []:
        words = clause.split()
        while words and words[0].upper() == "NOT" and len(words) > 1:
            words = words[1:]
        if words:
            out.append((words[0].upper(), " ".join(words[1:]).upper()))
    return out


def private_clauses(spec: WindowSpec | None, condition: str) -> list[str]:
    """The clauses of ``condition`` that test what only the seat may see."""
    words = {c.word.upper(): c for c in spec.conditions} if spec is not None else {}
    found: list[str] = []
    for word, arg in _clauses(condition):
        c = words.get(word)
        if c is None:
            continue
        if c.private or (arg and arg.split()[0] in {a.upper() for a in c.private_args}):
            found.append(f"{word} {arg}".strip())
    return found


def is_public(game: Game, window: str, condition: str) -> bool:
    """Whether every clause of ``condition`` tests only what every seat sees."""
    return not private_clauses(game.window(window), condition)


def check_policy(game: Game, window: str, answer_text: str, condition: str) -> None:
    """Refuse ``ASK`` under a condition on what only the seat may see: being
    asked (and so a window waiting for the seat) would tell the others that
    the condition held. IllegalLine saying why and what would do."""
    if answer_text.upper() != ASK or not condition:
        return
    hidden = private_clauses(game.window(window), condition)
    if not hidden:
        return
    raise IllegalLine(
        f"whether you are asked may depend only on what every player can see, and "
        f"{' and '.join(hidden)} tests what only you can see: a window that waited for you "
        "would tell the others it held",
        hint=f"let it choose your answer instead (POLICY {window} <answer> WHEN {condition}), "
        f"or be asked whatever you hold (POLICY {window} ASK, or ASK WHEN a condition "
        "everyone can see)")


def _entries(table: Table, role: Role, window: str) -> list[dict[str, str]]:
    entries: list[dict[str, str]] = table.policies.get(role, {}).get(window, [])
    return [e for e in entries if e["when"]] + [e for e in entries if not e["when"]]


def wants_asking(game: Game, table: Table, role: Role, w: Decision) -> bool:
    """Whether ``role``'s standing answers ask for window ``w`` by hand, read
    on public facts alone: entries are tried in order (conditional ones
    first), an entry with a private clause is passed over (it may only choose
    an answer), and the first public entry whose condition holds decides:
    ``ASK`` asks, anything else does not. None holds (or there is none):
    asked, as a seat without standing answers answers every window itself."""
    entries = _entries(table, role, w.window)
    if not entries:
        return True
    view = game.view(table.state, role)
    for entry in entries:
        when = entry["when"]
        if when and not is_public(game, w.window, when):
            continue
        if when and not game.policy_holds(view, w, when):
            continue
        return entry["answer"].upper() == ASK
    return True


def asked_by_hand(game: Game, table: Table, w: Decision) -> list[Role]:
    """The roles of window ``w`` asked by hand, in the window's order: those
    whose settings ask on public facts and that the game allows asking."""
    return [r for r in w.roles
            if game.may_ask(table.state, w, r) and wants_asking(game, table, r, w)]


def standing(game: Game, table: Table, role: Role, w: Decision) -> list[Action]:
    """``role``'s answer to ``w`` from its standing answers, ``ASK`` entries
    passed over (it is not asked, or let the deadline pass): the first entry
    whose condition holds on its own view and whose answer fits now; else
    the game's default (a pass). Never None: every seat has an answer."""
    view = game.view(table.state, role)
    for entry in _entries(table, role, w.window):
        word = entry["answer"].upper()
        if word == ASK:
            continue
        if entry["when"] and not game.policy_holds(view, w, entry["when"]):
            continue
        if word == PASS:
            break
        try:
            return [game.parse(table.state, role, entry["answer"])]
        except RuleError:
            continue  # does not fit this window (no such card held): the next entry
    default = game.default(table.state, w, role)
    return [default] if default is not None else []


def by_hand(record: Mapping[str, Any], roles: Sequence[Role]) -> list[Role]:
    """The roles an open window's record asks by hand (every role until its
    standing answers have been tried; older records: those left unanswered
    then)."""
    if not record.get("asked"):
        return list(roles)
    hand = record.get("by_hand")
    if hand is None:
        return [r for r in roles if r not in record.get("answers", {})]
    return [r for r in roles if r in hand]


def may_close(clock: Clock | None, now: datetime, asks_anyone: bool) -> bool:
    """A complete window closes now: at once when it asks nobody by hand,
    else once the game's ``window_min_minutes`` (0 by default) are over."""
    if not asks_anyone or clock is None or clock.min_close is None:
        return True
    return now >= clock.min_close

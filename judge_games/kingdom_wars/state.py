"""The shape of a Kingdom Wars state: the whole game as one JSON document
(:class:`KWState`) and each player's corner of the table (:class:`Seat`).

The judge stores and passes a state as :data:`judge.game.engine.State` (a plain
dict); these records say what the game keeps in it, so that the places that
make a state or a seat record, and the typed reads of it, are checked.
(No postponed annotations here: the records' required and optional keys
are read at run time, by the tests.)
"""

from typing import Any, NotRequired, TypedDict

Frame = dict[str, Any]


class Seat(TypedDict):
    """One player once its generals are chosen (Preparation): the two
    generals and which of them are exposed, health, the hand, judgement and
    equipment zones, markers, and what the player has used up."""

    main: str
    deputy: str
    shown: list[bool]
    hp: int
    max_hp: int
    alive: bool
    hand: list[str]
    judge: list[dict[str, Any]]
    equip: dict[str, str | None]
    chained: bool
    stacked: bool
    kingdom: str | None
    ambitionist: bool
    markers: dict[str, int]
    owed: dict[str, bool]
    both_shown_once: bool
    seen_by: dict[str, list[str]]
    limited_used: list[str]
    lost_skills: list[str]
    piles: dict[str, list[str]]
    dying: NotRequired[bool]
    """Set while the player is in the state of Dying (Dying and Death)."""


class Judging(TypedDict):
    """A judgement card being judged (Judgement): for whom, which, and why."""

    seat: str
    card: str
    why: str


class KWState(TypedDict):
    """The whole game. ``stage`` is ``generals`` (choosing generals),
    ``play`` or ``over``; ``todo``, ``asks`` and ``serial`` are the decision
    kernel's (:mod:`judge.game.flow`)."""

    n: int
    seats: list[str]
    variation: bool
    stage: str
    dealt: dict[str, list[str]]
    pile: list[str]
    p: dict[str, Seat]
    deck: list[str]
    discard: list[str]
    proc: list[str]
    start: str
    current: str | None
    lap: str | None
    round: int
    turns: int
    phase: str
    turn_flags: dict[str, Any]
    todo: list[Frame]
    asks: list[dict[str, Any]]
    serial: int
    uses: dict[str, dict[str, Any]]
    judging: list[Judging]
    damage_stack: list[Any]
    dead: list[str]
    death_match: bool
    pioneer_given: bool
    reshuffles: int
    winners: list[str]
    end: str
    standing: NotRequired[dict[str, dict[str, Any]]]
    """Each seat's standing orders (standing.py)."""
    ahead: NotRequired[dict[str, list[str]]]
    """Each seat's answers given ahead with THEN (standing.py)."""
    held_reveal: NotRequired[dict[str, list[str]]]
    """The generals a seat has named to expose at the start of its next
    Preparation Phase (standing.py)."""
    held_discard: NotRequired[dict[str, list[str]]]
    """The cards a seat has named to go first in its Discard Phase
    (standing.py)."""


def general_of(p: Seat, slot: str) -> str:
    """The general in ``slot`` (``main`` or ``deputy``) of a player."""
    if slot == "main":
        return p["main"]
    if slot == "deputy":
        return p["deputy"]
    raise KeyError(slot)

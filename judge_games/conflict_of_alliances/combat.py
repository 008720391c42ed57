"""The Battle Result Table and combat die modifiers (Combat).

The table is the Player Aid's: rows are the (modified) die, 1-6; columns the
combat strength, 1-4. Each cell is a number of enemy counters eliminated and
whether a general icon ("+") adds one more when the side's own general takes
part. Read row by row::

    1: -  -  +  1
    2: -  +  1  1+
    3: -  1  1  1+
    4: +  1  1+ 1+
    5: 1  1  1+ 2
    6: 1  1+ 2  2+

The rulebook's worked example fixes this reading: strength 4 rolling 2 with a
general eliminates 2 ("one soldier icon and one general icon"), strength 3
rolling 4 without a general eliminates 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge_games.conflict_of_alliances.data import DATA

TABLE: dict[int, tuple[tuple[int, bool], ...]] = {
    1: ((0, False), (0, False), (0, True), (1, False)),
    2: ((0, False), (0, True), (1, False), (1, True)),
    3: ((0, False), (1, False), (1, False), (1, True)),
    4: ((0, True), (1, False), (1, True), (1, True)),
    5: ((1, False), (1, False), (1, True), (2, False)),
    6: ((1, False), (1, True), (2, False), (2, True)),
}

MAX_STRENGTH = 4
"""No more than 4 counters take part on a side; the column stops at 4."""


def clamp_die(value: int) -> int:
    """However many modifiers apply, the result stays within 1-6 (Combat Die
    Modifiers)."""
    return max(1, min(6, value))


def strength(counters: int, city: bool) -> int:
    """A side's column: its counters taking part, +1 for a city defender, at
    most 4 (Combat, Columns)."""
    return max(0, min(MAX_STRENGTH, counters + (1 if city else 0)))


def hits(die: int, column: int, general: bool) -> int:
    """Enemy counters eliminated: the cell's soldiers, plus one for its general
    icon when the side's own general takes part (Combat, Result cell)."""
    if column <= 0:
        return 0
    base, plus = TABLE[clamp_die(die)][column - 1]
    return base + (1 if plus and general else 0)


@dataclass(frozen=True)
class SideRoll:
    """One side's roll: the die, its total modifier and the final result."""

    die: int
    modifier: int

    @property
    def result(self) -> int:
        return clamp_die(self.die + self.modifier)


def modifier(own_leads: list[str], enemy_leads: list[str], card_drm: int) -> int:
    """Total modifier of one side: +1 per sword of its active generals, -1 per
    shield of the enemy's active generals, plus card modifiers (Combat Die
    Modifiers: "First calculate the total modifier for each side")."""
    own = sum(DATA.generals[g].sword for g in own_leads)
    against = sum(DATA.generals[g].shield for g in enemy_leads)
    return own - against + card_drm

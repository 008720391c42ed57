"""War of the Three Kingdoms: Kingdom Wars, the hidden-role card game for 4 to
12 players. See README.md for where its data came from and the rulings.

Not playable yet: this package holds only the game's data (:mod:`.data`,
loaded and checked when the package is imported). It exports no ``GAME``, so
the judge's registry does not offer the game and the contract suite leaves it
out; ``GAME`` is added here once the rules module exists.
"""

from __future__ import annotations

from games.kingdom_wars.data import DATA, Data, DataError

__all__ = ["DATA", "Data", "DataError"]

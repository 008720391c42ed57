"""One scrambler for every game, built only on the hidden zones a game declares
(the record's ``zones``, :class:`judge.game.spec.GameSpec`, DESIGN.md "Privacy").

``scramble(game, state, reader, rng)`` returns another state that differs
from ``state`` only in what ``reader`` may not see:

* per pool, the items of the zones whose ``seen_by`` does not include
  ``reader`` (every zone, for the observer ``None``) are dealt out again at
  random among those zones, each zone keeping its size: a card of one pool
  may stand in any zone of that pool (a hand and the deck it is drawn from);
* then every zone whose ``order_hidden`` is set is shuffled in place: nobody
  knows the order of a shuffled deck, not even a seat that may look through
  it.

Nothing else is touched. A zone's ``path`` leads (through dict keys and list
indices) either to a list, whose elements are the zone's items, or to any
other value, which is the zone's one item (a face-down card in a row of
face-up ones).

If the game's view, reports, prompts or legal lines for ``reader`` change
under the scrambler, ``reader`` can learn what the game says it may not
know. Randomness is test-side (:class:`random.Random`, seeded by the
caller), never the game's.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Sequence
from typing import Protocol

from judge.game.engine import JSON, Role, State, Zone


class Zoned(Protocol):
    """What scrambling needs of a game: its zones (a :class:`judge.game.spec.Game`
    has them, and so has a bare game record)."""

    def zones(self, state: State) -> list[Zone]: ...


class ZoneError(AssertionError):
    """A declared zone does not fit the state (its path leads nowhere)."""


def _parent(state: State, path: Sequence[str | int], zone: Zone) -> tuple[JSON, str | int]:
    """The container holding the zone's value, and the key or index of it."""
    if not path:
        raise ZoneError(f"zone of pool {zone.pool!r} has an empty path")
    node: JSON = state
    for step in path[:-1]:
        node = _child(node, step, zone)
    _child(node, path[-1], zone)  # the last step must lead somewhere too
    return node, path[-1]


def _child(node: JSON, step: str | int, zone: Zone) -> JSON:
    try:
        if isinstance(node, dict) and isinstance(step, str):
            return node[step]
        if isinstance(node, list) and isinstance(step, int) and not isinstance(step, bool):
            return node[step]
    except (KeyError, IndexError):
        pass
    raise ZoneError(f"zone path {zone.path!r} (pool {zone.pool!r}) does not lead into the state")


def zone_items(state: State, zone: Zone) -> list[JSON]:
    """The items of ``zone`` in ``state``, in order."""
    parent, key = _parent(state, zone.path, zone)
    value = parent[key]
    return list(value) if isinstance(value, list) else [value]


def _put(state: State, zone: Zone, items: list[JSON]) -> None:
    parent, key = _parent(state, zone.path, zone)
    if isinstance(parent[key], list):
        parent[key] = items
    else:
        (parent[key],) = items


def hidden_from(zones: Sequence[Zone], reader: Role | None) -> list[Zone]:
    """The zones ``reader`` may not see (all of them for the observer)."""
    return [z for z in zones if reader is None or reader not in z.seen_by]


def scramble(game: Zoned, state: State, reader: Role | None, rng: random.Random) -> State:
    """Another state that differs from ``state`` only in what ``reader`` may
    not see, by ``game.zones(state)`` (see the module docstring). ``state``
    itself is left as it is."""
    zones = game.zones(state)
    new: State = json.loads(json.dumps(state))  # a state is plain JSON: the quick deep copy
    pools: dict[str, list[Zone]] = {}
    for zone in hidden_from(zones, reader):
        pools.setdefault(zone.pool, []).append(zone)
    for pool in sorted(pools):
        members = pools[pool]
        contents = [zone_items(new, z) for z in members]
        items = [copy.deepcopy(x) for got in contents for x in got]
        rng.shuffle(items)
        start = 0
        for zone, got in zip(members, contents, strict=True):
            _put(new, zone, items[start:start + len(got)])
            start += len(got)
    for zone in zones:
        if zone.order_hidden:
            items = zone_items(new, zone)
            rng.shuffle(items)
            _put(new, zone, items)
    return new

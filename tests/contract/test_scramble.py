"""The generic scrambler (tests/support/scramble.py) does what the privacy
checks rely on, for every contract game: it changes only the zones the
reader may not see (and the order of zones whose order nobody knows), keeps
every zone's size and every pool's items, and is deterministic."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from judge.game.engine import JSON, Role, State, Zone
from judge.game.rng import Rng
from judge.game.spec import Game
from tests.games.sealed_bids import GAME as SEALED_BIDS
from tests.games.sealed_bids import SealedBids
from tests.support.driver import cached_play
from tests.support.scramble import ZoneError, hidden_from, scramble, zone_items

PLACEHOLDER = "\u2022zone\u2022"


def _blank(state: State, zones: list[Zone]) -> State:
    """``state`` with every zone's value replaced by a placeholder."""
    out = copy.deepcopy(state)
    for zone in zones:
        node: JSON = out
        for step in zone.path[:-1]:
            node = node[step]
        node[zone.path[-1]] = PLACEHOLDER
    return out


def _key(item: JSON) -> str:
    return json.dumps(item, sort_keys=True)


def _states(game: Game) -> list[State]:
    p = cached_play(game, 1)
    step = max(1, len(p.steps) // 12)
    return [s.state for s in p.steps[::step]] + [p.final]


def _problems(game: Game, state: State, reader: Role | None, seed: int) -> list[str]:
    zones = game.zones(state)
    other = scramble(game, state, reader, random.Random(seed))
    again = scramble(game, state, reader, random.Random(seed))
    problems: list[str] = []
    if other != again:
        problems.append("not deterministic for one seed")
    if _blank(other, zones) != _blank(state, zones):
        problems.append("changed something outside the declared zones")
    hidden = hidden_from(zones, reader)
    pools: dict[str, tuple[Counter[str], Counter[str]]] = {}
    for zone in zones:
        mine, theirs = zone_items(state, zone), zone_items(other, zone)
        if len(mine) != len(theirs):
            problems.append(f"zone {zone.path!r} changed size")
        if zone not in hidden:
            if zone.order_hidden and Counter(map(_key, mine)) != Counter(map(_key, theirs)):
                problems.append(f"zone {zone.path!r}, seen by {reader}, changed its items")
            if not zone.order_hidden and mine != theirs:
                problems.append(f"zone {zone.path!r}, seen by {reader}, changed")
            continue
        before, after = pools.setdefault(zone.pool, (Counter(), Counter()))
        before.update(map(_key, mine))
        after.update(map(_key, theirs))
    for pool, (before, after) in pools.items():
        if before != after:
            problems.append(f"pool {pool!r}: the items hidden from {reader} are not the same")
    return problems


def test_scrambler_keeps_to_the_zones(game: Game) -> None:
    """Over states of a playthrough, for every reader: only zones hidden from
    the reader change (and order-hidden ones only in order), sizes and pools
    are kept, the same seed gives the same state."""
    problems: list[str] = []
    for i, state in enumerate(_states(game)):
        if not game.zones(state):
            continue
        for reader in [*game.roles(state), None]:
            problems += [f"state {i}, reader {reader}: {x}"
                         for x in _problems(game, state, reader, i)]
    assert not problems, "\n".join(problems[:10])


def test_scrambler_exchanges_items_between_zones() -> None:
    """For Sealed Bids at the start, North's scrambled state holds North's
    hand as it was; the other hands and the pile share out their cards
    anew, so some card changes zone over a few seeds."""
    state = SEALED_BIDS.setup({"players": 3}, Rng(bytes(32), 0))
    moved = False
    for seed in range(5):
        other = scramble(SEALED_BIDS, state, "North", random.Random(seed))
        assert other["hands"]["North"] == state["hands"]["North"]
        assert SEALED_BIDS.view(other, "North") == SEALED_BIDS.view(state, "North")
        moved |= set(other["hands"]["East"]) != set(state["hands"]["East"])
    assert moved
    assert state == SEALED_BIDS.setup({"players": 3}, Rng(bytes(32), 0))  # left as it was


class _Misplaced(SealedBids):
    def zones(self, state: State) -> list[Zone]:
        return [Zone(("hands", "Nobody"), frozenset(), "cards")]


def test_a_zone_that_leads_nowhere_is_an_error() -> None:
    game = _Misplaced()
    state = game.setup({"players": 2}, Rng(bytes(32), 0))
    with pytest.raises(ZoneError, match="does not lead into the state"):
        scramble(game, state, None, random.Random(0))

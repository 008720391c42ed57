"""Setting up a game by mail, for the core tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bench.support.post import CLASSIC_POWERS as CLASSIC_POWERS
from bench.support.post import GM_ADDR as GM_ADDR
from bench.support.post import Post
from bench.support.post import token_in as token_in
from judge.game import adjudicator as adj
from judge.store import Store


def stored_game(store: Store, name: str) -> dict[str, Any]:
    """The stored row of the game ``name``, for a test that expects one."""
    row = store.game(name)
    assert row is not None, f"no game {name!r} is stored"
    return row


@dataclass
class Seats:
    gm_token: str
    tokens: dict[str, str]
    addresses: dict[str, str]

    def signon(self, role: str, game: str = "g1") -> str:
        return f"SIGNON {game} {role} {self.tokens[role]}"

    def gm(self, game: str = "g1") -> str:
        return f"SIGNON {game} GM {self.gm_token}"


def start_sealed(post: Post, players: int = 3, rounds: int = 3, game: str = "g1") -> Seats:
    """CREATE, three JOINs with chosen roles, START; all by mail."""
    post.send(GM_ADDR, f"CREATE {game} sealed_bids rounds={rounds}\n")
    gm_token = token_in(post, GM_ADDR)
    roles = ["North", "East", "South", "West"][:players]
    tokens: dict[str, str] = {}
    addresses: dict[str, str] = {}
    for role in roles:
        addr = f"{role.lower()}@players.example"
        post.send(addr, f"JOIN {game} {role}\n")
        tokens[role] = token_in(post, addr)
        addresses[role] = addr
    post.send(GM_ADDR, f"SIGNON {game} GM {gm_token}\nSTART\n")
    return Seats(gm_token, tokens, addresses)


def hand(post: Post, role: str, game: str = "g1") -> list[str]:
    g = post.judge.game_of(game)[1]
    view = g.view(post.judge.table(game).state, role)
    return list(view["hand"])


def owing(post: Post, game: str = "g1") -> set[str]:
    _row, g = post.judge.game_of(game)
    return adj.waiting_on(g, post.judge.table(game))




def start_classic(post: Post, game: str = "dip") -> dict[str, str]:
    """CREATE a classic game, seven JOINs (power@players.example), START; all
    by mail. Returns each power's token."""
    post.send(GM_ADDR, f"CREATE {game} classic\n")
    gm = token_in(post, GM_ADDR)
    tokens = {}
    for power in CLASSIC_POWERS:
        address = f"{power.lower()}@players.example"
        post.send(address, f"JOIN {game} {power}\n")
        tokens[power] = token_in(post, address)
    post.send(GM_ADDR, f"SIGNON {game} GM {gm}\nSTART\n")
    return tokens

"""A seat's hostile game line, through the real Maildir pipeline: beyond
limits.max_line_chars it never reaches the game's reader; within it, the
reader's work grows with the line, not with its square (counted by what the
reader's inner functions are given, never timed). The mail behind it is
handled in the same cycle."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import judge_games.conquest_tactics.decks as ct_decks
import judge_games.kingdom_wars.commands as kw_commands
import judge_games.kingdom_wars.data as kw_data
import judge_games.three_kingdoms.orders as tk_orders
from tests.core.conftest import Post
from tests.hostile.support import Table, mails_to, one_cycle, raw_mail, size, start_game


def _spy(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[Any]:
    seen: list[Any] = []
    real: Callable[..., Any] = getattr(owner, name)

    def spy(*args: Any, **kw: Any) -> Any:
        seen.append(args[0] if args else None)
        return real(*args, **kw)

    monkeypatch.setattr(owner, name, spy)
    return seen


def _answers(post: Post, table: Table, role: str) -> list[str]:
    return [post.text(m) for m in mails_to(post.new(), table.addresses[role])]


def test_a_three_kingdoms_line_of_60000_spaces_never_reaches_the_reader(
        post: Post, monkeypatch: pytest.MonkeyPatch) -> None:
    """It cost 91 s through a real mail: the arrow pattern matched the spaces
    around it, trying every start in the run to its end."""
    table = start_game(post, "three_kingdoms", "tk", "players=3")
    first, second = table.roles[:2]
    tokens = _spy(monkeypatch, tk_orders, "_tokens")
    hostile = raw_mail(table.addresses[first], f"{table.signon(first)}\nA8" + " " * 60_000 + "H\n")
    behind = raw_mail(table.addresses[second], f"{table.signon(second)}\nSTATUS\n")
    lines = one_cycle(post, hostile, behind)
    assert "refused: line 2 has 60,003 characters" in lines[0]
    assert "processed" in lines[1]
    assert tokens == []
    mails = post.new()
    refusal = post.text(mails_to(mails, table.addresses[first])[0])
    assert "limits.max_line_chars" in refusal
    assert len(mails_to(mails, table.addresses[second])) == 1
    # Within the bound the line is read, and answered in a short reply.
    one_cycle(post, raw_mail(table.addresses[first],
                             f"{table.signon(first)}\nA8" + " " * 9_000 + "H\n"))
    assert [len(t) for t in tokens] == [9_003]
    [answer] = mails_to(post.new(), table.addresses[first])
    assert size(answer) < 8_000


def test_a_kingdom_wars_discard_line_costs_its_length(
        post: Post, monkeypatch: pytest.MonkeyPatch) -> None:
    """DISCARD lines grew with the cube of their words (5.3 s at 16,000
    characters): every run of words was joined and looked up as a card name.
    Counted: the characters the card-name keys are built from."""
    table = start_game(post, "kingdom_wars", "kw", "seats=4")
    first, second = table.roles[:2]
    keyed = _spy(monkeypatch, kw_data, "key")
    keyed_here = _spy(monkeypatch, kw_commands, "key")
    line = "DISCARD " + "Attack S7 " * 900
    hostile = raw_mail(table.addresses[first], f"{table.signon(first)}\n{line}\n")
    behind = raw_mail(table.addresses[second], f"{table.signon(second)}\nSTATUS\n")
    lines = one_cycle(post, hostile, behind)
    assert "processed" in lines[0] and "processed" in lines[1]
    work = sum(len(str(w)) for w in keyed + keyed_here)
    assert 0 < work <= 20 * len(line)
    mails = post.new()
    assert len(mails_to(mails, table.addresses[first])) == 1
    assert size(mails_to(mails, table.addresses[first])[0]) < 8_000
    assert len(mails_to(mails, table.addresses[second])) == 1
    # 16,000 characters: beyond max_line_chars, never read.
    keyed.clear()
    keyed_here.clear()
    long_line = "DISCARD " + "Attack S7 " * 1_600
    one_cycle(post, raw_mail(table.addresses[first], f"{table.signon(first)}\n{long_line}\n"))
    assert keyed == [] and keyed_here == []
    assert "limits.max_line_chars" in _answers(post, table, first)[0]


def test_a_conquest_tactics_deck_list_reads_at_most_its_bound(
        post: Post, monkeypatch: pytest.MonkeyPatch) -> None:
    """Deck lists of 16,000 characters cost 19.3 s: every entry was looked up
    and, unknown, searched for close names. On one line it is beyond
    max_line_chars; as a DECK block of 900 short lines (within max_lines) at
    most 2x68 entries are read (a deck list names each card once, with its
    count) and close names are searched for the first ten."""
    table = start_game(post, "conquest_tactics", "ct", "decks=submitted")
    south, north = table.roles[:2]
    resolved = _spy(monkeypatch, ct_decks, "resolve")
    suggested = _spy(monkeypatch, ct_decks, "_suggest")
    one_line = "DECK mine: " + "2 Spear; " * 1_800
    assert len(one_line) > 16_000
    hostile = raw_mail(table.addresses[south], f"{table.signon(south)}\n{one_line}\n")
    behind = raw_mail(table.addresses[north], f"{table.signon(north)}\nSTATUS\n")
    lines = one_cycle(post, hostile, behind)
    assert "limits.max_line_chars" in lines[0] and "processed" in lines[1]
    assert resolved == []
    post.new()
    block = f"{table.signon(south)}\nDECK mine\n" + "2 Spear\n" * 900 + "END\n"
    behind = raw_mail(table.addresses[north], f"{table.signon(north)}\nSTATUS\n")
    lines = one_cycle(post, raw_mail(table.addresses[south], block), behind)
    assert "processed" in lines[0] and "processed" in lines[1]
    assert 0 < len(resolved) <= ct_decks.MAX_ENTRIES
    assert len(suggested) <= ct_decks.MAX_SUGGESTIONS
    mails = post.new()
    [answer] = mails_to(mails, table.addresses[south])
    assert f"a deck list has at most {ct_decks.MAX_ENTRIES} entries" in post.text(answer)
    assert len(mails_to(mails, table.addresses[north])) == 1

"""The public pages show nothing the observer may not see (DESIGN.md,
"Privacy"): games with hidden hands are played by mail, published, and

* every written file is searched for each private fact: the seats' tokens
  and token hashes, their addresses, the seed of a running game, private
  press, and (Conflict of Alliances) the names of cards only one side's deck
  holds that its owner never showed;
* the pages of a game whose every turn's state was scrambled by the generic
  scrambler (tests/support/scramble.py: hands and deck dealt again, the
  deck's order shuffled) are byte for byte those of the game itself, maps
  included (the test's map drawer writes out the view it is given).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Mapping
from pathlib import Path

import pytest

from judge.game.engine import JSON
from judge.site import publish
from judge_games.conflict_of_alliances.data import DATA, slug
from tests.core.conftest import Post
from tests.core.helpers import GM_ADDR
from tests.games.counterspell import GAME as COUNTERSPELL
from tests.publish.conftest import address_of, play, site_text, start
from tests.support.scramble import scramble

SPELLERS = ["Amber", "Beryl", "Coral"]
PRIVATE = "meet me at the old mill, bring two counters"
PUBLIC = "Amber <b>declares</b> war & \"peace\""


def view_dump(kind: str, view: Mapping[str, JSON], fmt: str) -> bytes:
    """A map drawer for tests: the view itself, so a map shows all it was given."""
    return json.dumps([kind, fmt, view], sort_keys=True).encode()


def _secrets(post: Post, tokens: dict[str, str], game: str = "g1") -> list[str]:
    row = post.judge.store.game(game)
    assert row is not None and row["status"] != "finished"
    out = [row["seed"], row["gm_token_hash"], GM_ADDR, *tokens.values()]  # GM's too
    for seat in post.judge.store.seats(game):
        out += [seat.address, seat.token_hash]
    return [s for s in out if s]


def test_counterspell_pages_hold_no_token_address_seed_or_private_press(
        post: Post, tmp_path: Path) -> None:
    tokens = start(post, "counterspell", SPELLERS, "players=3 rounds=2")
    sign = f"SIGNON g1 Amber {tokens['Amber']}"
    post.send(address_of("Amber"), f"{sign}\nPRESS TO Beryl\n{PRIVATE}\nENDPRESS\n")
    post.send(address_of("Amber"), f"{sign}\nPRESS TO PUBLIC\n{PUBLIC}\nENDPRESS\n")
    play(post, tokens, 12)
    out = tmp_path / "site"
    publish.publish(post.judge, out, draw=view_dump)
    files = site_text(out)
    assert "games/g1/index.html" in files and "games/g1/1.html" in files
    text = b"\n".join(files.values()).decode()
    found = [s for s in [*_secrets(post, tokens), PRIVATE] if s in text]
    assert found == []
    # The public press is there, escaped; so are the maps and the public events.
    page = files["games/g1/index.html"].decode()
    assert "Amber &lt;b&gt;declares&lt;/b&gt; war &amp; &#34;peace&#34;" in page
    assert "<b>declares" not in page
    assert any(p.endswith(".svg") for p in files)


def test_scrambled_hands_and_deck_give_the_same_pages(post: Post) -> None:
    tokens = start(post, "counterspell", SPELLERS, "players=3 rounds=2")
    play(post, tokens, 40, seed=3)
    record = publish.game_record(post.judge, "g1")
    assert len(record.turns) >= 3
    rng = random.Random(11)
    mixed = tuple(dataclasses.replace(t, state=scramble(COUNTERSPELL, t.state, None, rng))
                  for t in record.turns)
    assert any(a.state["hands"] != b.state["hands"] for a, b in zip(record.turns, mixed,
                                                                     strict=True))
    other = dataclasses.replace(record, turns=mixed)
    mine, _ = publish.game_pages(record, draw=view_dump)
    theirs, _ = publish.game_pages(other, draw=view_dump)
    assert mine.keys() == theirs.keys()
    assert [p for p in mine if mine[p] != theirs[p]] == []


L, A = "Lianheng", "Alliance"
ONLY = {side: {c for c in DATA.cards[side] if c not in DATA.cards[A if side == L else L]}
        for side in (L, A)}
"""Card names found in one deck only: seeing one tells which card it is."""


@pytest.mark.slow
def test_conflict_of_alliances_pages_name_no_unshown_card(post: Post, tmp_path: Path) -> None:
    tokens = start(post, "conflict_of_alliances", [L, A])
    shown: set[str] = set()
    for seed in range(60):  # a turn or so, cards played face up and face down
        # one step at a time: a card shown face up is seen before a reshuffle
        # takes it back into the deck
        play(post, tokens, 1, seed=seed)
        state = post.judge.table("g1").state
        for side in (L, A):
            z = state["cards"][side]
            shown |= {slug(c) for c, up in z["discard"] if up} | {slug(c) for c in z["removed"]}
    out = tmp_path / "site"
    publish.publish(post.judge, out, draw=view_dump)
    files = site_text(out)
    text = b"\n".join(files.values()).decode()
    state = post.judge.table("g1").state
    hidden = {slug(c) for side in (L, A) for c in state["cards"][side]["hand"]
              + state["cards"][side]["deck"]} - shown
    names = [n for side in (L, A) for c in ONLY[side] & hidden
             for n in (c, DATA.cards[side][c].name)]
    assert len(names) > 10, "too few hidden cards: the test proves little"
    assert [n for n in names if n in text] == []
    assert [s for s in _secrets(post, tokens) if s in text] == []
    assert "Diplomacy track" in text  # the public board is there

"""The Diplomacy family as one game class over one record per game: classic,
Warring States and Three Kingdoms are each a ``DiplomacyGame`` holding its
``DiplomacyVariant``, whose states table says what every state of the game
asks and how it is played."""

from __future__ import annotations

import hashlib
import io
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from bench.support.three_kingdoms import position, results, where
from judge.game.engine import Action, DecisionKind
from judge.game.offline import adjudicate_stream
from judge.game.rng import Rng
from judge_games.classic import RULES as CLASSIC
from judge_games.diplomacy import DiplomacyGame
from judge_games.diplomacy.variant import DiplomacyVariant
from judge_games.three_kingdoms import RULES as THREE_KINGDOMS
from judge_games.three_kingdoms import rules, three_kingdoms
from judge_games.warring_states import RULES as WARRING_STATES
from tests.support.bench import load_bench

FAMILY = (CLASSIC, WARRING_STATES, THREE_KINGDOMS)


def test_every_game_of_the_family_is_one_class_over_its_record() -> None:
    for game in FAMILY:
        assert type(game) is DiplomacyGame
        assert isinstance(game.variant, DiplomacyVariant)
        assert game.id == game.variant.id and game.map is game.variant.map
    assert THREE_KINGDOMS.variant.stacking is rules.may_stack
    assert CLASSIC.variant.stacking is None and CLASSIC.variant.rules is None
    assert WARRING_STATES.variant.rules is not None


@pytest.mark.parametrize("game", FAMILY, ids=lambda g: g.id)
def test_the_states_table_answers_for_every_state_a_game_reaches(
    game: DiplomacyGame[Any],
) -> None:
    """A seeded random game visits its states; in each, the pending decision
    is the one its table's phase describes (kind, deciders, prompt)."""
    rnd = random.Random(7)
    rng = Rng(hashlib.sha256(game.id.encode()).digest())
    state = game.setup(dict(game.playthrough_options), rng)
    seen: set[str] = set()
    for _ in range(60):
        name = game.variant.stage(state)
        seen.add(name)
        phase = game.variant.phases[name]
        pending = game.pending(state)
        if phase.kind is None:
            assert pending == []
            break
        (decision,) = pending
        assert decision.kind is phase.kind
        assert decision.roles == tuple(phase.deciders(state))
        assert decision.prompt == phase.prompt(state)
        if decision.kind is DecisionKind.ACTION:
            role = decision.roles[0]
            action = game.parse(state, role, rnd.choice(game.legal(state, role)))
            state, _ = game.act(state, role, action, rng)
            continue
        orders: dict[str, list[Action]] = {}
        for role in decision.roles:
            lines = game.legal(state, role)
            orders[role] = [game.parse(state, role, line) for line in rnd.sample(lines, 1)]
        state, _ = game.resolve(state, orders, rng)
    assert seen <= set(game.variant.phases)
    assert len(seen) >= 3


def _one_piece_a_province(state: Mapping[str, Any], pieces: Sequence[Mapping[str, Any]]) -> bool:
    return len(pieces) <= 1


def test_a_campaign_is_resolved_with_the_records_stacking_rule() -> None:
    """Three Kingdoms' rulebook: a leader "may only be in a province with one
    of his own pieces" (``rules.may_stack``, the record's ``stacking``): a
    leader moving onto its own army joins it. The same game described with
    another stacking rule (one piece a province, as in the standard game)
    resolves the same orders otherwise: the move fails."""
    other = DiplomacyGame(three_kingdoms(stacking=_one_piece_a_province))
    assert other.variant.stacking is _one_piece_a_province
    s = position({"Player1": "Wei", "Player2": "Wei", "Player3": "Shu", "Player4": "Wu"},
                 {"Player1": "A8 L9 M10", "Player2": "A6"})
    line = "L9->8"
    joined, _ = THREE_KINGDOMS.resolve(
        s, {"Player1": [THREE_KINGDOMS.parse(s, "Player1", line)]}, Rng(b"x" * 32)
    )
    assert where(joined)["Player1"] == "L8 A8 M10"
    kept_out, _ = other.resolve(s, {"Player1": [other.parse(s, "Player1", line)]}, Rng(b"x" * 32))
    assert where(kept_out)["Player1"] == "A8 L9 M10"
    assert results(kept_out)[line] == ["bounced"]


def test_the_family_digest_is_a_function_of_the_seed() -> None:
    """bench/family_digest.py compares the adjudications of two versions of
    the code: its record of a seeded game must depend on nothing else, and
    must hold the game's decisions, states and events."""
    bench = load_bench("family_digest")
    for gid, options in bench.GAMES[::2]:
        first = bench.play(gid, options, 1, 8)
        assert bench.digest(first) == bench.digest(bench.play(gid, options, 1, 8))
        kinds = {record[0] for record in first}
        assert {"pending", "view", "legal", "events", "state"} <= kinds
        assert bench.digest(first) != bench.digest(bench.play(gid, options, 2, 8))


def test_judge_adjudicate_takes_the_standard_form_only() -> None:
    """``judge adjudicate`` reads the standard map form's documents; the
    Three Kingdoms record offers none (``offline`` is ``None``), and a
    document for it gets its error line, the others still adjudicated."""
    assert THREE_KINGDOMS.variant.offline is None
    out = io.StringIO()
    status = adjudicate_stream(
        ['{"game": "three_kingdoms"}', '{"game": "classic", "phase": "S1901M", "orders": {}}'],
        out,
    )
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert status == 1
    assert first == {"error": "line 1: three_kingdoms has no offline adjudication"}
    assert "error" not in second

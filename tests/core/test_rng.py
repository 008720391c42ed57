"""Committed-seed randomness (DESIGN: Randomness you can audit)."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from judge.game.rng import Draw, Rng, VerifyError, commitment, new_seed, recompute

SEED = bytes(range(32))


def test_draw_is_hmac_of_purpose_and_counter() -> None:
    # Computed here independently of judge.game.rng: HMAC-SHA256(seed, "die|0") mod 6.
    block = int.from_bytes(hmac.new(SEED, b"die|0", hashlib.sha256).digest(), "big")
    rng = Rng(SEED)
    assert rng.below(6, "die") == block % 6
    assert rng.draws == [Draw("die", 0, 6, block % 6)]
    assert rng.counter == 1


def test_commitment_is_sha256_and_seeds_are_fresh() -> None:
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()
    a, b = new_seed(), new_seed()
    assert len(a) == 32 and a != b


def test_rejection_sampling_skips_blocks_and_recompute_follows() -> None:
    bound = 2**255 + 1  # about half of all blocks fall above the last full multiple
    rng = Rng(SEED)
    values = [rng.below(bound, "big") for _ in range(20)]
    assert rng.counter > 20  # some blocks were rejected
    assert all(0 <= v < bound for v in values)
    recompute(SEED, rng.draws)


def test_uniform_enough_and_deterministic() -> None:
    rng = Rng(SEED)
    counts = Counter(rng.die() for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < c < 1150 for c in counts.values()), counts
    again = Rng(SEED)
    assert [again.die() for _ in range(6000)] == [d.value + 1 for d in rng.draws]


def test_fisher_yates_shuffle_is_a_permutation_and_logged() -> None:
    rng = Rng(SEED)
    deck = list(range(40))
    rng.shuffle(deck, "shuffle:deck")
    assert sorted(deck) == list(range(40)) and deck != list(range(40))
    assert [d.bound for d in rng.draws] == list(range(40, 1, -1))


def test_recompute_catches_a_forged_draw_or_wrong_seed() -> None:
    rng = Rng(SEED)
    for _ in range(5):
        rng.die()
    forged = list(rng.draws)
    forged[2] = Draw("die", forged[2].counter, 6, (forged[2].value + 1) % 6)
    with pytest.raises(VerifyError, match="draw 2"):
        recompute(SEED, forged)
    with pytest.raises(VerifyError):
        recompute(bytes(32), rng.draws)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        Rng(b"short")
    with pytest.raises(ValueError):
        Rng(SEED).below(0, "x")
    with pytest.raises(ValueError):
        Rng(SEED).below(3, "a|b")

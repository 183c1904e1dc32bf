"""The duplicate-deal arena: seats rotated over the same deals, a paired interval, ratings."""

import math

import numpy as np
import pytest

import majiang
from majiang import arena, baselines


def test_duel_finds_the_stronger_bot_with_an_interval():
    result = arena.duel("normal", "random", "hongkong", deals=30, seed=1)
    assert result.deals == 30 and result.wins + result.losses + result.draws == 30
    assert result.mean - result.half_width > 0, str(result)
    assert result.a_mean > result.b_mean
    assert "duplicate deals" in str(result)


def test_duel_is_antisymmetric_and_reproducible():
    """The same deals from the other side give the opposite scores, exactly (bots are seeded
    by deal and chair, so every hand replays)."""
    ab = arena.duel("easy", "normal", "yangzhou", deals=12, seed=9)
    ba = arena.duel("normal", "easy", "yangzhou", deals=12, seed=9)
    assert np.array_equal(ab.scores, -ba.scores)
    assert np.array_equal(arena.duel("easy", "normal", "yangzhou", deals=12, seed=9).scores, ab.scores)


def test_every_seat_is_played_on_the_same_deal():
    """A deal's 2n hands share the wall: the same seat choice and deal in every log."""
    seen = []
    original = arena.play_deal

    def spy(rules, options, deal_seed, chairs, rng):
        seen.append((deal_seed, tuple(chairs)))
        return original(rules, options, deal_seed, chairs, rng)

    arena.play_deal = spy
    try:
        arena.duel("easy", "random", "classic", {"players": 3}, deals=2, seed=4)
    finally:
        arena.play_deal = original
    assert len(seen) == 2 * 2 * 3
    first = seen[:6]
    assert len({s for s, _ in first}) == 1
    assert sorted(c for _, c in first) == sorted(
        [tuple("easy" if k == r else "random" for k in range(3)) for r in range(3)]
        + [tuple("random" if k == r else "easy" for k in range(3)) for r in range(3)]
    )


def test_policies_take_part():
    """A policy plays its chairs (through the seat's planes and mask) against a bot level."""
    calls = []

    def greedy_discard(obs, mask, rng):
        calls.append(mask.sum())
        return int(np.flatnonzero(mask)[-1])

    result = arena.duel(greedy_discard, "easy", "hangzhou", deals=3, seed=2)
    assert result.a == "greedy_discard" and len(calls) > 30 and all(c > 0 for c in calls)
    random_vs_normal = arena.duel(baselines.random_policy, "normal", "classic", deals=10, seed=3)
    assert random_vs_normal.mean < 0


def test_ratings_table_orders_the_bots():
    table = arena.ratings(["random", "normal", "easy"], "hongkong", deals=15, seed=5)
    ratings = dict(table.rows())
    assert ratings["normal"] > ratings["random"]
    assert math.isclose(np.mean(table.ratings), 1500, abs_tol=1e-6)
    assert len(table.duels) == 3 and "rating" in str(table)


def test_elo_fit_matches_the_odds():
    """75 % of 400 games won: 400·log10(3) ≈ 191 points apart (the weak prior pulls a little)."""
    r = arena.fit_elo(["a", "b"], [(0, 1, 300.0, 400.0)])
    assert 180 < r[0] - r[1] < 192
    # Everything won: finite, a long way apart.
    r = arena.fit_elo(["a", "b"], [(0, 1, 50.0, 50.0)])
    assert 400 < r[0] - r[1] < 2000


def test_bad_contestants_and_counts():
    with pytest.raises(ValueError, match="unknown bot"):
        arena.duel("grandmaster", "easy")
    with pytest.raises(TypeError, match="policy"):
        arena.duel(3, "easy")
    with pytest.raises(ValueError, match="deals"):
        arena.duel("easy", "normal", deals=0)
    with pytest.raises(ValueError, match="at least two"):
        arena.ratings(["easy"])
    assert majiang.arena is arena

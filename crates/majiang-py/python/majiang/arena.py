"""Duplicate-deal arenas: two contestants (policies or the project's bots) compared on the same
deals with every seat rotated, a paired interval, and an Elo-style rating table for several.

A **contestant** is a bot level or name (``"easy"``, ``"normal"``, ``"hard"``, ``"random"``,
... from ``majiang.BOT_NAMES``; played in Rust) or a policy: a callable ``policy(obs, mask,
rng) -> action number`` (``obs`` the seat's uint8 planes, ``mask`` its bool legal actions),
as :mod:`majiang.baselines` policies are.

**The duplicate scheme** (:func:`duel`): every deal (a one-hand match dealt from its own seed)
is played ``2 n`` times at an ``n``-seat table: for each chair ``r``, once with A alone in
chair ``r`` and B in every other chair, once with B alone in chair ``r`` and A elsewhere.
Both contestants thus meet the same walls from every seat, alone against the other; the
deal's score is A's mean chips alone minus B's mean chips alone. The mean over deals with a
95 % interval (1.96 standard errors of the per-deal scores) says which is stronger; the
deals are independent, so the interval is honest for any number of them.

:func:`ratings` plays every pair of several contestants that way and fits Elo-style ratings
(a Bradley–Terry fit of per-deal wins, draws counting half; 400 points = 10:1 odds) anchored
at 1500 for the first contestant's mean.

The command line has the same arena for bots: ``majiang sim --arena A,B``.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ._checks import house_rules, seed_or_entropy
from ._core import BOT_NAMES, TILE_KINDS, Table

#: A policy: ``policy(obs, mask, rng) -> action number``.
Policy = Callable[[np.ndarray, np.ndarray, np.random.Generator], int]
#: A contestant: a bot level or name, or a policy.
Contestant = Union[str, Policy]


def _name(contestant: Contestant) -> str:
    if isinstance(contestant, str):
        return contestant
    return getattr(contestant, "__name__", None) or type(contestant).__name__


def _check(contestant: Contestant, what: str) -> None:
    if isinstance(contestant, str):
        if contestant.split(":")[0] not in BOT_NAMES:
            raise ValueError(f"{what}: unknown bot {contestant!r} (known bots: {', '.join(BOT_NAMES)})")
    elif not callable(contestant):
        raise TypeError(f"{what}: a bot name or a policy callable, got {type(contestant).__name__}")


def _deal_seed(seed: int, deal: int) -> int:
    """The seed of deal ``deal`` of an arena seeded ``seed`` (SplitMix64, 64-bit)."""
    z = (seed + 0x9E3779B97F4A7C15 * (deal + 1)) % 2**64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
    return z ^ (z >> 31)


def play_deal(
    rules: str,
    options: Optional[Mapping[str, Any]],
    deal_seed: int,
    chairs: Sequence[Contestant],
    rng: np.random.Generator,
) -> List[int]:
    """Plays the one-hand match of ``deal_seed`` with ``chairs[c]`` in chair ``c``; the chips
    each chair won. Bots are seeded from the deal and their chair, so a bot in a chair plays
    the same way whoever sits elsewhere, until the others' choices differ."""
    table = Table(rules, house_rules(options), deal_seed, 1)
    n = table.players
    if len(chairs) != n:
        raise ValueError(f"chairs: {len(chairs)} contestants for a table of {n}")
    policies: Dict[int, Policy] = {}
    for chair, who in enumerate(chairs):
        if isinstance(who, str):
            table.set_bot(chair, who, _deal_seed(deal_seed, 1000 + chair))
        else:
            policies[chair] = who
    planes = np.zeros((table.planes, TILE_KINDS), dtype=np.uint8)
    mask = np.zeros(table.action_space, dtype=np.bool_)
    paid: Optional[List[int]] = None
    while paid is None and not table.is_over():
        paid = table.play_bots()
        if paid is not None:
            break
        actors = [c for c in table.actors() if c in policies]
        if not actors:
            break
        chair = actors[0]
        table.observe(chair, planes, mask.view(np.uint8))
        action = int(policies[chair](planes, mask, rng))
        paid = table.act(chair, action)
    return list(table.ledger())


@dataclass
class Duel:
    """The result of :func:`duel`: A against B over duplicate deals."""

    a: str
    b: str
    #: Per deal: A's mean chips alone in a chair minus B's (see the module docs).
    scores: np.ndarray
    #: A's and B's mean chips a hand alone against the other.
    a_mean: float
    b_mean: float
    #: Deals where A's score beat B's, lost to it, or tied.
    wins: int
    losses: int
    draws: int

    @property
    def deals(self) -> int:
        return len(self.scores)

    @property
    def mean(self) -> float:
        """Mean per-deal score (A − B, chips a hand)."""
        return float(self.scores.mean())

    @property
    def half_width(self) -> float:
        """Half-width of the 95 % interval of :attr:`mean` (1.96 standard errors)."""
        if len(self.scores) < 2:
            return math.inf
        return 1.96 * float(self.scores.std(ddof=1)) / math.sqrt(len(self.scores))

    def __str__(self) -> str:
        return (
            f"{self.a} vs {self.b}: {self.mean:+.2f} ± {self.half_width:.2f} chips a hand over "
            f"{self.deals} duplicate deals ({self.wins} won, {self.losses} lost, {self.draws} tied)"
        )


def duel(
    a: Contestant,
    b: Contestant,
    rules: str = "hongkong",
    options: Optional[Mapping[str, Any]] = None,
    deals: int = 100,
    seed: Optional[int] = None,
) -> Duel:
    """Compares contestants ``a`` and ``b`` over ``deals`` duplicate deals, every seat rotated
    (``2 n`` hands a deal; see the module docs). ``seed`` fixes the deals (``None``: random)."""
    _check(a, "a")
    _check(b, "b")
    if isinstance(deals, bool) or not isinstance(deals, (int, np.integer)) or deals < 1:
        raise ValueError(f"deals: {deals!r} is not a positive number of deals")
    base = seed_or_entropy(seed)
    n = Table(rules, house_rules(options), 0, 1).players
    rng = np.random.default_rng(base)
    scores = np.zeros(int(deals))
    alone_a, alone_b = [], []
    for d in range(int(deals)):
        deal_seed = _deal_seed(base, d)
        xs, ys = [], []
        for r in range(n):
            seats: List[Contestant] = [b] * n
            seats[r] = a
            xs.append(play_deal(rules, options, deal_seed, seats, rng)[r])
            seats = [a] * n
            seats[r] = b
            ys.append(play_deal(rules, options, deal_seed, seats, rng)[r])
        alone_a.extend(xs)
        alone_b.extend(ys)
        scores[d] = float(np.mean(xs) - np.mean(ys))
    return Duel(
        a=_name(a),
        b=_name(b),
        scores=scores,
        a_mean=float(np.mean(alone_a)),
        b_mean=float(np.mean(alone_b)),
        wins=int((scores > 0).sum()),
        losses=int((scores < 0).sum()),
        draws=int((scores == 0).sum()),
    )


@dataclass
class RatingTable:
    """Elo-style ratings from pairwise duplicate duels (see :func:`ratings`)."""

    names: List[str]
    ratings: List[float]
    duels: List[Duel] = field(default_factory=list)

    def rows(self) -> List[Tuple[str, float]]:
        """(name, rating), strongest first."""
        return sorted(zip(self.names, self.ratings), key=lambda r: -r[1])

    def __str__(self) -> str:
        lines = ["rating  contestant"]
        lines += [f"{rating:6.0f}  {name}" for name, rating in self.rows()]
        lines += ["", "duels (chips a hand, 95 % interval):"]
        lines += [f"  {d}" for d in self.duels]
        return "\n".join(lines)


def fit_elo(names: Sequence[str], results: Sequence[Tuple[int, int, float, float]], iterations: int = 2000) -> List[float]:
    """Elo-style ratings (Bradley–Terry, 400-point logistic scale) from ``results``: ``(i, j,
    score of i, games)`` with a score of wins plus half the draws. Ratings are anchored at
    1500 for their mean; a contestant that won or lost everything is kept within 800 points
    of the others by a weak prior (one drawn game against a 1500 player)."""
    n = len(names)
    r = np.zeros(n)
    for _ in range(iterations):
        grad = np.zeros(n)
        hess = np.full(n, 1e-9)
        for i, j, s, games in results:
            p = 1.0 / (1.0 + 10 ** ((r[j] - r[i]) / 400.0))
            grad[i] += s - games * p
            grad[j] -= s - games * p
            w = games * p * (1 - p) * math.log(10) / 400.0
            hess[i] += w
            hess[j] += w
        # The prior: one draw against the mean.
        p0 = 1.0 / (1.0 + 10 ** (-r / 400.0))
        grad += 0.5 - p0
        hess += p0 * (1 - p0) * math.log(10) / 400.0
        step = grad / hess
        r += np.clip(step, -100, 100)
        r -= r.mean()
        if np.abs(step).max() < 1e-6:
            break
    return [float(1500 + x) for x in r]


def ratings(
    contestants: Sequence[Contestant],
    rules: str = "hongkong",
    options: Optional[Mapping[str, Any]] = None,
    deals: int = 50,
    seed: Optional[int] = None,
) -> RatingTable:
    """Every pair of ``contestants`` in a :func:`duel` over the same ``deals`` deals, and
    Elo-style ratings fitted to the per-deal wins (draws half)."""
    if len(contestants) < 2:
        raise ValueError("contestants: at least two to rate")
    for k, c in enumerate(contestants):
        _check(c, f"contestants[{k}]")
    base = seed_or_entropy(seed)
    names = [_name(c) for c in contestants]
    duels, results = [], []
    for i, j in itertools.combinations(range(len(contestants)), 2):
        d = duel(contestants[i], contestants[j], rules, options, deals, base)
        duels.append(d)
        results.append((i, j, d.wins + 0.5 * d.draws, float(d.deals)))
    return RatingTable(names, fit_elo(names, results), duels)


__all__ = ["Contestant", "Duel", "Policy", "RatingTable", "duel", "fit_elo", "play_deal", "ratings"]

"""Baselines that show the environments can be learned: bot self-play recorded as datasets, a
behaviour-cloning policy (a small masked MLP in numpy, no deep-learning framework needed), and a
paired evaluation against the random policy.

>>> import majiang.baselines as bl
>>> data = bl.record("hongkong", bot="normal", hands=200, seed=0)  # efficient-bot self-play
>>> policy = bl.BehaviourCloning.fit(data, epochs=3, seed=0)
>>> result = bl.compare(policy, bl.random_policy, "hongkong", matches=300, seed=10**6)
>>> result.mean, result.half_width  # chips per match, paired 95 % interval  # doctest: +SKIP
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

import numpy as np

from ._checks import house_rules
from ._core import TILE_KINDS, record_selfplay

#: A policy: (observation planes, bool legal mask, numpy generator) -> action number.
Policy = Callable[[np.ndarray, np.ndarray, np.random.Generator], int]


def record(
    rules: str,
    bot: str = "normal",
    hands: int = 100,
    seed: Optional[int] = None,
    options: Optional[Mapping[str, Any]] = None,
) -> Dict[str, np.ndarray]:
    """Self-play of bot ``bot`` (a level ``easy``/``normal``/``hard`` or a bot's name, e.g.
    ``efficient`` or ``expert``) in every chair for ``hands`` one-hand matches, every decision
    recorded: ``obs`` uint8 ``(D, planes, 42)``, ``mask`` bool ``(D, action_space)``,
    ``action`` int64 ``(D,)``, ``chair``, ``hand`` and ``reward`` (the hand's payment to the
    deciding chair) int64 ``(D,)``. Played in Rust through the library's seat driver."""
    raw = record_selfplay(rules, bot, hands, seed, house_rules(options))
    planes, actions = int(raw["planes"]), int(raw["action_space"])
    obs = np.frombuffer(raw["obs"], dtype=np.uint8).reshape(-1, planes, TILE_KINDS)
    mask = np.frombuffer(raw["mask"], dtype=np.uint8).reshape(-1, actions).astype(np.bool_)
    return {
        "obs": obs.copy(),
        "mask": mask,
        "action": np.asarray(raw["action"], dtype=np.int64),
        "chair": np.asarray(raw["chair"], dtype=np.int64),
        "hand": np.asarray(raw["hand"], dtype=np.int64),
        "reward": np.asarray(raw["reward"], dtype=np.int64),
    }


def features(obs: np.ndarray) -> np.ndarray:
    """The network's input: planes flattened, ``log1p`` of each count (float32)."""
    flat = obs.reshape(obs.shape[0], -1) if obs.ndim == 3 else obs.reshape(1, -1)
    return np.log1p(flat.astype(np.float32))


class BehaviourCloning:
    """A masked two-layer perceptron ``planes -> hidden (ReLU) -> action logits``; illegal
    actions get no probability. Trained by :meth:`fit` with Adam on the cross-entropy of the
    recorded actions."""

    def __init__(self, inputs: int, actions: int, hidden: int = 256, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.w1 = (rng.standard_normal((inputs, hidden)) * math.sqrt(2.0 / inputs)).astype(np.float32)
        self.b1 = np.zeros(hidden, dtype=np.float32)
        self.w2 = (rng.standard_normal((hidden, actions)) * math.sqrt(1.0 / hidden)).astype(np.float32)
        self.b2 = np.zeros(actions, dtype=np.float32)

    def _forward(self, x: np.ndarray) -> "tuple[np.ndarray, np.ndarray]":
        h = np.maximum(x @ self.w1 + self.b1, 0.0)
        return h @ self.w2 + self.b2, h

    def logits(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Masked logits (illegal actions at -1e9) for a batch or one observation."""
        out, _ = self._forward(features(obs))
        return np.where(mask.reshape(out.shape), out, np.float32(-1e9))

    def __call__(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        """The most likely legal action (a :data:`Policy`)."""
        return int(np.argmax(self.logits(obs, mask)[0]))

    def accuracy(self, data: Mapping[str, np.ndarray]) -> float:
        """The share of ``data``'s decisions where the policy picks the recorded action."""
        hits = 0
        for start in range(0, len(data["action"]), 4096):
            part = slice(start, start + 4096)
            chosen = np.argmax(self.logits(data["obs"][part], data["mask"][part]), axis=1)
            hits += int((chosen == data["action"][part]).sum())
        return hits / max(1, len(data["action"]))

    def parameters(self) -> List[np.ndarray]:
        """The trainable arrays ``[w1, b1, w2, b2]`` (updated in place by :class:`Adam`)."""
        return [self.w1, self.b1, self.w2, self.b2]

    def gradients(self, x: np.ndarray, h: np.ndarray, g_out: np.ndarray) -> List[np.ndarray]:
        """Back-propagation: the gradients of :meth:`parameters` given the inputs ``x``, the
        hidden layer ``h`` (both from :meth:`_forward`) and the gradient ``g_out`` of the loss
        with respect to the (unmasked) outputs."""
        g_h = (g_out @ self.w2.T) * (h > 0)
        return [x.T @ g_h, g_h.sum(axis=0), h.T @ g_out, g_out.sum(axis=0)]

    @classmethod
    def fit(
        cls,
        data: Mapping[str, np.ndarray],
        epochs: int = 3,
        hidden: int = 256,
        batch: int = 256,
        lr: float = 1e-3,
        seed: int = 0,
    ) -> "BehaviourCloning":
        """Trains a policy on ``data`` (from :func:`record`). Data without a single decision
        (or with arrays of different lengths) raises ``ValueError``: there is nothing to fit."""
        obs, mask, action = data["obs"], data["mask"], data["action"]
        if len(action) == 0:
            raise ValueError("data: no decisions to learn from (record at least one hand)")
        if not len(obs) == len(mask) == len(action):
            raise ValueError(
                f"data: obs, mask and action differ in length ({len(obs)}, {len(mask)}, {len(action)})"
            )
        inputs = obs.shape[1] * obs.shape[2]
        model = cls(inputs, mask.shape[1], hidden, seed)
        adam = Adam(model.parameters(), lr)
        rng = np.random.default_rng(seed)
        for _ in range(epochs):
            order = rng.permutation(len(action))
            for start in range(0, len(order), batch):
                idx = order[start : start + batch]
                x = features(obs[idx])
                out, h = model._forward(x)
                out = np.where(mask[idx], out, np.float32(-1e9))
                out -= out.max(axis=1, keepdims=True)
                p = np.exp(out)
                p /= p.sum(axis=1, keepdims=True)
                p[np.arange(len(idx)), action[idx]] -= 1.0
                adam.step(model.gradients(x, h, p / len(idx)))
        return model


class Adam:
    """Adam (Kingma & Ba) over a list of float32 arrays, updated in place by :meth:`step`."""

    def __init__(
        self, params: Sequence[np.ndarray], lr: float = 1e-3, betas: "tuple[float, float]" = (0.9, 0.999), eps: float = 1e-8
    ) -> None:
        self.params = list(params)
        self.lr = lr
        self.betas = betas
        self.eps = eps
        self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in self.params]
        self.steps = 0

    def step(self, grads: Sequence[np.ndarray]) -> None:
        """One update of every parameter with its gradient (same order as the parameters)."""
        b1, b2 = self.betas
        self.steps += 1
        for param, grad, (m, v) in zip(self.params, grads, self.moments):
            m *= b1
            m += (1 - b1) * grad
            v *= b2
            v += (1 - b2) * grad * grad
            m_hat = m / (1 - b1**self.steps)
            v_hat = v / (1 - b2**self.steps)
            param -= (self.lr * m_hat / (np.sqrt(v_hat) + self.eps)).astype(np.float32)


def random_policy(obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action."""
    return int(rng.choice(np.flatnonzero(mask)))


@dataclass
class Comparison:
    """The paired difference of two policies' results over the same deals."""

    #: Mean of (policy − baseline) chips per match.
    mean: float
    #: Half-width of the 95 % interval of the mean (1.96 standard errors).
    half_width: float
    #: Matches played by each policy.
    matches: int
    #: Mean chips per match of the policy and of the baseline.
    policy_mean: float
    baseline_mean: float

    @property
    def significant(self) -> bool:
        """True when the whole interval is above zero."""
        return self.mean - self.half_width > 0


def play_match(policy: Policy, env: Any, seed: int, rng: np.random.Generator) -> float:
    """The total reward of ``policy`` over one episode of ``env`` (a dict-observation
    :func:`majiang.gym_env`) reset with ``seed``."""
    obs, _ = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        action = policy(obs["observation"], obs["action_mask"], rng)
        obs, reward, done, _, _ = env.step(action)
        total += reward
    return total


def compare(
    policy: Policy,
    baseline: Policy,
    rules: str,
    options: Optional[Mapping[str, Any]] = None,
    matches: int = 300,
    seed: int = 1_000_000,
    opponents: str = "normal",
    seat: Optional[int] = None,
) -> Comparison:
    """Plays ``matches`` one-hand matches with ``policy`` and the same matches (same deal, same
    chair, same opponents' seeds: ``reset(seed=seed + i)``) with ``baseline``, against bots
    ``opponents``; the paired difference of the agent's chips. Match ``i`` seats the agent in
    chair ``i mod n`` (``seat=None``, the default: every chair equally often, so in Hong Kong,
    where chair 0 always deals the first hand, the agent deals a quarter of the matches), or
    always in chair ``seat``."""
    from . import gym_env

    def at(chair: int) -> Any:
        return gym_env(rules=rules, options=options, opponents=opponents, seat=chair, illegal_action="raise")

    envs = [at(0 if seat is None else seat)]
    if seat is None:
        envs += [at(chair) for chair in range(1, envs[0].table.players)]
    rng = np.random.default_rng(seed)
    diffs, ours, theirs = [], [], []
    for i in range(matches):
        env = envs[i % len(envs)]
        a = play_match(policy, env, seed + i, rng)
        b = play_match(baseline, env, seed + i, rng)
        ours.append(a)
        theirs.append(b)
        diffs.append(a - b)
    d = np.asarray(diffs)
    half = 1.96 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else float("inf")
    return Comparison(float(d.mean()), half, matches, float(np.mean(ours)), float(np.mean(theirs)))

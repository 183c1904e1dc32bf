"""Masked PPO in numpy: an actor-critic trained against the project's bots, no deep-learning
framework needed.

The actor is :class:`~majiang.baselines.BehaviourCloning`'s masked perceptron (illegal actions
get logit −inf, so no probability), the critic a second perceptron of the same kind with one
output; both are trained with :class:`~majiang.baselines.Adam` on PPO's clipped surrogate
objective with an entropy bonus and generalised advantage estimation. Experience comes from
:func:`majiang.gym_vector_env` (every table and every opponent stepped in Rust). The actor can
start from a behaviour-cloning policy (:meth:`MaskedPPO.from_behaviour_cloning`).

>>> import majiang.ppo as ppo
>>> agent, log = ppo.train("hangzhou", updates=2, num_envs=16, rollout=32, seed=0)
>>> import majiang.baselines as bl
>>> bl.compare(agent, bl.random_policy, "hangzhou", matches=100)  # doctest: +SKIP
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from .baselines import Adam, BehaviourCloning, features
from .vector import VectorEnv

#: What :func:`train` reports after each update (see :meth:`MaskedPPO.update` for the losses).
Stats = Dict[str, float]


def _clip_norm(grads: List[np.ndarray], limit: Optional[float]) -> List[np.ndarray]:
    if limit is None:
        return grads
    norm = math.sqrt(sum(float((g.astype(np.float64) ** 2).sum()) for g in grads))
    if norm > limit:
        return [g * np.float32(limit / norm) for g in grads]
    return grads


class MaskedPPO:
    """A masked actor-critic: :attr:`policy` (``inputs -> hidden -> actions``, illegal actions
    masked to −inf before the softmax) and :attr:`value` (``inputs -> value_hidden -> 1``), each
    with its own Adam. Calling the agent (a :data:`~majiang.baselines.Policy`) plays the most
    likely legal action; :meth:`act` samples. All randomness comes from ``seed``."""

    def __init__(
        self,
        inputs: int,
        actions: int,
        hidden: int = 256,
        value_hidden: int = 128,
        seed: int = 0,
        lr: float = 3e-4,
        value_lr: float = 1e-3,
        clip: float = 0.2,
        entropy_coef: float = 0.01,
        gamma: float = 1.0,
        lam: float = 0.95,
        epochs: int = 4,
        minibatch: int = 512,
        max_grad_norm: Optional[float] = 0.5,
        target_kl: Optional[float] = 0.03,
        policy: Optional[BehaviourCloning] = None,
    ) -> None:
        self.policy = BehaviourCloning(inputs, actions, hidden, seed) if policy is None else policy
        self.value = BehaviourCloning(inputs, 1, value_hidden, seed + 1)
        self.value.w2 *= np.float32(0.1)
        self.policy_adam = Adam(self.policy.parameters(), lr)
        self.value_adam = Adam(self.value.parameters(), value_lr)
        self.clip = clip
        self.entropy_coef = entropy_coef
        self.gamma = gamma
        self.lam = lam
        self.epochs = epochs
        self.minibatch = minibatch
        self.max_grad_norm = max_grad_norm
        self.target_kl = target_kl
        self.rng = np.random.default_rng(seed)

    @classmethod
    def from_behaviour_cloning(cls, start: BehaviourCloning, seed: int = 0, **hyper: Any) -> "MaskedPPO":
        """An agent whose actor is a copy of ``start`` (the critic starts afresh); ``hyper`` as
        in the constructor."""
        policy = BehaviourCloning(start.w1.shape[0], start.w2.shape[1], start.w1.shape[1], seed)
        for mine, theirs in zip(policy.parameters(), start.parameters()):
            mine[...] = theirs
        return cls(start.w1.shape[0], start.w2.shape[1], start.w1.shape[1], seed=seed, policy=policy, **hyper)

    # -- the distribution --------------------------------------------------------------------

    def log_probs(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Log-probabilities of every action, ``(B, actions)`` float32: −inf where illegal."""
        return self._log_probs(self.policy._forward(features(obs))[0], mask)

    @staticmethod
    def _log_probs(out: np.ndarray, mask: np.ndarray) -> np.ndarray:
        z = np.where(mask.reshape(out.shape), out, np.float32(-np.inf))
        z = z - z.max(axis=1, keepdims=True)
        with np.errstate(divide="ignore"):
            result: np.ndarray = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        return result

    def values(self, obs: np.ndarray) -> np.ndarray:
        """The critic's estimate of the (scaled) return from each state, ``(B,)``."""
        out: np.ndarray = self.value._forward(features(obs))[0][:, 0]
        return out

    def act(self, obs: np.ndarray, mask: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Samples one legal action per row with the agent's generator: ``(actions, their
        log-probabilities, values)``."""
        logp = self.log_probs(obs, mask)
        p = np.exp(logp.astype(np.float64))
        cum = p.cumsum(axis=1)
        u = self.rng.random(len(p)) * cum[:, -1]
        chosen = (cum < u[:, None]).sum(axis=1)
        last_legal = mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)
        chosen = np.minimum(chosen, last_legal)
        rows = np.arange(len(p))
        return chosen.astype(np.int64), logp[rows, chosen], self.values(obs)

    def __call__(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        """The most likely legal action (a :data:`~majiang.baselines.Policy`)."""
        return self.policy(obs, mask, rng)

    # -- learning ----------------------------------------------------------------------------

    def advantages(
        self, rewards: np.ndarray, values: np.ndarray, dones: np.ndarray, last_values: np.ndarray
    ) -> Tuple[np.ndarray, np.ndarray]:
        """Generalised advantage estimation over a rollout ``(T, N)`` (``dones[t]``: the
        episode ended with step ``t``; ``last_values``: the critic at the states after the
        rollout). Returns ``(advantages, returns)``."""
        steps = rewards.shape[0]
        adv = np.zeros_like(values, dtype=np.float64)
        running = np.zeros(values.shape[1])
        for t in reversed(range(steps)):
            going = 1.0 - dones[t]
            following = last_values if t + 1 == steps else values[t + 1]
            delta = rewards[t] + self.gamma * following * going - values[t]
            running = delta + self.gamma * self.lam * going * running
            adv[t] = running
        return adv, adv + values

    def update(self, batch: Mapping[str, np.ndarray], policy: bool = True) -> Stats:
        """``epochs`` passes of minibatch Adam over ``batch`` (``obs``, bool ``mask``,
        ``action``, ``logp`` (the log-probability when it was taken), ``advantage`` and
        ``returns``, one row per decision). The actor minimises the clipped surrogate
        ``−min(r·A, clip(r, 1±clip)·A) − entropy_coef·H`` with advantages normalised over the
        batch, the critic ``½(V − returns)²``; an epoch stops early when the approximate KL
        divergence from the old policy passes ``1.5 · target_kl``. With ``policy=False`` only
        the critic learns. Returns the last epoch's mean losses, entropy, KL and clipped
        fraction."""
        obs, mask, action = batch["obs"], batch["mask"], batch["action"]
        old_logp = batch["logp"].astype(np.float64)
        adv = batch["advantage"].astype(np.float64)
        if len(adv) > 1:
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        returns = batch["returns"].astype(np.float64)
        x_all = features(obs)
        n = len(action)
        stats: Stats = {}
        for _ in range(self.epochs):
            order = self.rng.permutation(n)
            sums = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "approx_kl": 0.0, "clip_fraction": 0.0}
            for start in range(0, n, self.minibatch):
                idx = order[start : start + self.minibatch]
                b = len(idx)
                x = x_all[idx]
                # The critic.
                v_out, v_h = self.value._forward(x)
                err = v_out[:, 0].astype(np.float64) - returns[idx]
                g_v = (err / b).astype(np.float32)[:, None]
                self.value_adam.step(_clip_norm(self.value.gradients(x, v_h, g_v), self.max_grad_norm))
                sums["value_loss"] += 0.5 * float((err**2).sum())
                # The actor.
                out, h = self.policy._forward(x)
                m = mask[idx]
                logp = self._log_probs(out, m).astype(np.float64)
                p = np.exp(logp)
                rows = np.arange(b)
                new = logp[rows, action[idx]]
                ratio = np.exp(new - old_logp[idx])
                a = adv[idx]
                clipped = np.clip(ratio, 1 - self.clip, 1 + self.clip)
                surrogate = np.minimum(ratio * a, clipped * a)
                active = ratio * a <= clipped * a
                safe = np.where(m, logp, 0.0)
                entropy = -(p * safe).sum(axis=1)
                if policy:
                    coef = np.where(active, -ratio * a, 0.0)
                    g = -p * coef[:, None]
                    g[rows, action[idx]] += coef
                    g += self.entropy_coef * p * (safe + entropy[:, None])
                    g_out = (g / b).astype(np.float32)
                    self.policy_adam.step(_clip_norm(self.policy.gradients(x, h, g_out), self.max_grad_norm))
                sums["policy_loss"] -= float(surrogate.sum())
                sums["entropy"] += float(entropy.sum())
                log_ratio = new - old_logp[idx]
                sums["approx_kl"] += float(((ratio - 1) - log_ratio).sum())
                sums["clip_fraction"] += float((np.abs(ratio - 1) > self.clip).sum())
            stats = {k: v / n for k, v in sums.items()}
            if policy and self.target_kl is not None and stats["approx_kl"] > 1.5 * self.target_kl:
                break
        return stats


def estimate_reward_scale(
    rules: str,
    options: Optional[Mapping[str, Any]] = None,
    opponents: str = "normal",
    seed: int = 0,
    hands: int = 400,
) -> float:
    """``1 / std`` of the agent's chips per hand when it plays random legal actions against
    ``opponents`` (about ``hands`` hands, in Rust): a reward scale that gives returns of unit
    size in every rule set."""
    tables = VectorEnv(rules, 64, options, seed, opponents)
    rng = np.random.default_rng(seed)
    tables.reset()
    paid: List[np.ndarray] = []
    count = 0
    while count < hands:
        tables.step(tables.random_actions(rng))
        done = tables.done.astype(np.bool_)
        paid.append(tables.reward[done, 0].astype(np.float64))
        count += int(done.sum())
    std = float(np.concatenate(paid).std())
    return 1.0 / std if std > 0 else 1.0


def train(
    rules: str,
    updates: int = 100,
    num_envs: int = 64,
    rollout: int = 64,
    opponents: str = "normal",
    seed: int = 0,
    options: Optional[Mapping[str, Any]] = None,
    reward_scale: Optional[float] = None,
    warm_start: Optional[BehaviourCloning] = None,
    value_warmup: int = 0,
    log: Optional[Callable[[Stats], None]] = None,
    **hyper: Any,
) -> Tuple[MaskedPPO, List[Stats]]:
    """Trains a :class:`MaskedPPO` agent in chair 0 against bots ``opponents`` for ``updates``
    updates of ``num_envs × rollout`` decisions each, collected from
    :func:`majiang.gym_vector_env` (one hand per episode) with its ``reward_scale`` (default:
    :func:`estimate_reward_scale`). With ``warm_start`` the actor starts as a copy of that
    behaviour-cloning policy, and the first ``value_warmup`` updates train only the critic.
    ``hyper`` goes to :class:`MaskedPPO`. Deterministic for a seed. Returns the agent and the
    statistics of every update (also passed to ``log``): ``steps`` so far, ``episodes``
    finished in the update, ``chips`` (their mean, unscaled), and the losses."""
    from . import gym_vector_env

    scale = estimate_reward_scale(rules, options, opponents, seed + 7919) if reward_scale is None else reward_scale
    env = gym_vector_env(rules, num_envs, options, seed, opponents, reward_scale=scale, illegal_action="raise")
    obs_dict, _ = env.reset(seed=seed)
    assert isinstance(obs_dict, dict)
    planes = env.single_observation_space["observation"].shape  # type: ignore[index]
    inputs, actions = int(planes[0] * planes[1]), int(env.single_action_space.n)  # type: ignore[attr-defined]
    if warm_start is not None:
        agent = MaskedPPO.from_behaviour_cloning(warm_start, seed=seed, **hyper)
    else:
        agent = MaskedPPO(inputs, actions, seed=seed, **hyper)
    history: List[Stats] = []
    steps = 0
    obs, mask = obs_dict["observation"], obs_dict["action_mask"]
    running = np.zeros(num_envs)  # each table's chips in its hand so far
    for update in range(updates):
        t_obs = np.zeros((rollout, num_envs, *planes), dtype=np.uint8)
        t_mask = np.zeros((rollout, num_envs, actions), dtype=np.bool_)
        t_act = np.zeros((rollout, num_envs), dtype=np.int64)
        t_logp = np.zeros((rollout, num_envs))
        t_val = np.zeros((rollout, num_envs))
        t_rew = np.zeros((rollout, num_envs))
        t_done = np.zeros((rollout, num_envs))
        finished: List[float] = []
        for t in range(rollout):
            chosen, logp, value = agent.act(obs, mask)
            t_obs[t], t_mask[t], t_act[t], t_logp[t], t_val[t] = obs, mask, chosen, logp, value
            nxt, reward, terminated, _, _ = env.step(chosen)
            assert isinstance(nxt, dict)
            t_rew[t], t_done[t] = reward, terminated
            running += reward / scale
            for i in np.flatnonzero(terminated):
                finished.append(float(running[i]))
                running[i] = 0.0
            obs, mask = nxt["observation"], nxt["action_mask"]
        steps += rollout * num_envs
        adv, returns = agent.advantages(t_rew, t_val, t_done, agent.values(obs).astype(np.float64))
        batch = {
            "obs": t_obs.reshape(-1, *planes),
            "mask": t_mask.reshape(-1, actions),
            "action": t_act.reshape(-1),
            "logp": t_logp.reshape(-1),
            "advantage": adv.reshape(-1),
            "returns": returns.reshape(-1),
        }
        stats = agent.update(batch, policy=update >= value_warmup)
        stats.update(
            update=float(update + 1),
            steps=float(steps),
            episodes=float(len(finished)),
            chips=float(np.mean(finished)) if finished else float("nan"),
            reward_scale=scale,
        )
        history.append(stats)
        if log is not None:
            log(stats)
    return agent, history


__all__: Sequence[str] = ["MaskedPPO", "Stats", "estimate_reward_scale", "train"]

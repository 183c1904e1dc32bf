"""The numpy masked PPO: finite losses, masks respected, deterministic for a seed, and an update
moves probability towards an advantaged action."""

import numpy as np

import majiang
import majiang.baselines as bl
import majiang.ppo as ppo

TINY = {"hidden": 32, "value_hidden": 16, "minibatch": 64}


def _parameters(agent):
    return [p.copy() for p in agent.policy.parameters() + agent.value.parameters()]


def test_training_is_finite_and_deterministic():
    agent, log = ppo.train("hangzhou", updates=3, num_envs=8, rollout=16, seed=3, **TINY)
    assert len(log) == 3 and log[-1]["steps"] == 3 * 8 * 16
    for stats in log:
        for key in ("policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction", "reward_scale"):
            assert np.isfinite(stats[key]), (key, stats)
        assert stats["entropy"] > 0
    assert sum(s["episodes"] for s in log) > 0
    again, log_again = ppo.train("hangzhou", updates=3, num_envs=8, rollout=16, seed=3, **TINY)
    assert log_again == log
    for mine, theirs in zip(_parameters(agent), _parameters(again)):
        assert np.array_equal(mine, theirs)
    other, _ = ppo.train("hangzhou", updates=3, num_envs=8, rollout=16, seed=4, **TINY)
    assert not all(np.array_equal(a, b) for a, b in zip(_parameters(agent), _parameters(other)))
    # What the agent learned is a Policy the paired evaluation accepts.
    result = bl.compare(agent, bl.random_policy, "hangzhou", matches=5)
    assert np.isfinite(result.mean)


def test_never_picks_a_masked_action():
    env = majiang.gym_vector_env("hongkong", num_envs=32, opponents="easy", illegal_action="raise", seed=5)
    obs, _ = env.reset(seed=5)
    space = env.single_observation_space["observation"].shape
    agent = ppo.MaskedPPO(space[0] * space[1], env.single_action_space.n, seed=1, **TINY)
    rng = np.random.default_rng(0)
    rows = np.arange(32)
    seen = 0
    for _ in range(60):
        mask = obs["action_mask"]
        chosen, logp, values = agent.act(obs["observation"], mask)
        assert mask[rows, chosen].all()
        assert np.isfinite(logp).all() and (logp <= 0).all() and np.isfinite(values).all()
        all_logp = agent.log_probs(obs["observation"], mask)
        assert np.isneginf(all_logp[~mask]).all() and np.isfinite(all_logp[mask]).all()
        assert np.allclose(np.exp(all_logp).sum(axis=1), 1.0, atol=1e-4)
        for i in range(0, 32, 8):
            assert mask[i, agent(obs["observation"][i], mask[i], rng)]
        seen += int((mask.sum(axis=1) > 1).sum())
        obs, _, _, _, _ = env.step(chosen)  # strict env: an illegal action would raise
    assert seen > 500


def test_update_moves_probability_towards_the_advantaged_action():
    """A constructed batch: in each state, one legal action with advantage +1 and another
    with −1. After one update the first is more likely and the second less: in one state
    alone always, over many states on the whole and in most of them."""
    data = bl.record("hongkong", bot="normal", hands=4, seed=1)
    keep = data["mask"].sum(axis=1) >= 3
    obs, mask = data["obs"][keep][:64], data["mask"][keep][:64]
    n = len(obs)
    legal = [np.flatnonzero(m) for m in mask]
    good = np.array([lg[0] for lg in legal])
    bad = np.array([lg[1] for lg in legal])
    for i in range(5):
        one = ppo.MaskedPPO(obs.shape[1] * obs.shape[2], mask.shape[1], seed=i, lr=1e-3, epochs=2, **TINY)
        lp = one.log_probs(obs[i : i + 1], mask[i : i + 1])[0]
        one.update(
            {
                "obs": obs[[i, i]],
                "mask": mask[[i, i]],
                "action": np.array([good[i], bad[i]]),
                "logp": np.array([lp[good[i]], lp[bad[i]]]),
                "advantage": np.array([1.0, -1.0]),
                "returns": np.zeros(2),
            }
        )
        moved = one.log_probs(obs[i : i + 1], mask[i : i + 1])[0]
        assert moved[good[i]] > lp[good[i]] and moved[bad[i]] < lp[bad[i]]
    agent = ppo.MaskedPPO(obs.shape[1] * obs.shape[2], mask.shape[1], seed=2, lr=1e-3, epochs=1, **TINY)
    before = agent.log_probs(obs, mask)
    rows = np.arange(n)
    batch = {
        "obs": np.concatenate([obs, obs]),
        "mask": np.concatenate([mask, mask]),
        "action": np.concatenate([good, bad]),
        "logp": np.concatenate([before[rows, good], before[rows, bad]]),
        "advantage": np.concatenate([np.ones(n), -np.ones(n)]),
        "returns": np.zeros(2 * n),
    }
    stats = agent.update(batch)
    assert all(np.isfinite(v) for v in stats.values())
    after = agent.log_probs(obs, mask)
    assert (after[rows, good] > before[rows, good]).mean() > 0.7
    assert (after[rows, bad] < before[rows, bad]).mean() > 0.7
    assert after[rows, good].sum() > before[rows, good].sum()
    assert after[rows, bad].sum() < before[rows, bad].sum()
    # The critic only: the actor does not move.
    frozen = agent.log_probs(obs, mask)
    agent.update(batch, policy=False)
    assert np.array_equal(agent.log_probs(obs, mask), frozen)


def test_warm_start_copies_the_clone():
    data = bl.record("hangzhou", bot="normal", hands=3, seed=2)
    clone = bl.BehaviourCloning.fit(data, epochs=1, hidden=32, seed=0)
    agent = ppo.MaskedPPO.from_behaviour_cloning(clone, seed=0)
    rng = np.random.default_rng(0)
    for o, m in zip(data["obs"][:50], data["mask"][:50]):
        assert agent(o, m, rng) == clone(o, m, rng)
    agent.policy.w2 += 1.0
    assert not np.array_equal(agent.policy.w2, clone.w2)


def test_reward_scale_is_positive():
    scale = ppo.estimate_reward_scale("hongkong", opponents="easy", hands=50)
    assert np.isfinite(scale) and scale > 0

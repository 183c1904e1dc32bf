"""RLlib's multi-agent API: the environment's contract checked without Ray, and RLlib's own
checks plus a short PPO run on a local Ray cluster with several env-runner processes where Ray
is installed (skipped loudly elsewhere: the test script does not install Ray, hundreds of MB)."""

import numpy as np
import pytest

from majiang.rllib import MultiAgentMajiang


def play(env, seed):
    """One match with the first legal action of every deciding agent; what RLlib would see."""
    obs, infos = env.reset(seed=seed)
    steps, asked_together, totals = 0, 0, {}
    while True:
        assert obs and set(obs) == set(infos)
        for o in obs.values():
            assert env.observation_space.contains(o) and o["action_mask"].any()
        asked_together = max(asked_together, len(obs))
        actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
        obs, rewards, terms, truncs, infos = env.step(actions)
        # RLlib's episode refuses an agent that acted and is observed again without a reward.
        assert set(actions) & set(obs) <= set(rewards)
        for a, r in rewards.items():
            totals[a] = totals.get(a, 0.0) + r
        steps += 1
        if terms["__all__"]:
            assert set(obs) == set(env.possible_agents) and all(terms[a] for a in obs)
            assert all(not o["action_mask"].any() for o in obs.values())
            return steps, asked_together, totals


@pytest.mark.parametrize("rules", ["hongkong", "hangzhou", "yangzhou", "classic"])
def test_multi_agent_contract_without_ray(rules):
    env = MultiAgentMajiang({"rules": rules, "seed": 3, "reward_scale": 0.5})
    together = 0
    for seed in range(20):
        steps, asked, totals = play(env, seed)
        together = max(together, asked)
        assert steps > 10
        assert abs(sum(totals.values())) < 1e-9  # payments are zero-sum
    if rules != "yangzhou":  # no chows there: two claimers of one discard are rare
        assert together >= 2  # claims asked together
    again = MultiAgentMajiang({"rules": rules, "seed": 3, "reward_scale": 0.5})
    assert play(again, 0) == play(MultiAgentMajiang({"rules": rules, "reward_scale": 0.5}), 0)


def test_illegal_actions_are_substituted_or_refused():
    """RLlib's env check (and every env runner's) steps with actions sampled from the whole
    space: by default an illegal one plays the agent's first legal action, with the penalty;
    strict mode refuses it and changes nothing; malformed actions always raise."""
    env = MultiAgentMajiang({"rules": "hangzhou", "seed": 5, "illegal_penalty": -0.25})
    strict = MultiAgentMajiang({"rules": "hangzhou", "seed": 5, "illegal_action": "raise"})
    obs, _ = env.reset(seed=2)
    strict_obs, _ = strict.reset(seed=2)
    (agent,) = obs  # a turn: one agent decides
    mask = obs[agent]["action_mask"]
    bad, first = int(np.flatnonzero(mask == 0)[0]), int(np.flatnonzero(mask)[0])
    with pytest.raises(ValueError, match="not legal"):
        strict.step({agent: bad})
    assert np.array_equal(strict.game.state(), env.game.state())  # nothing moved
    twin = MultiAgentMajiang({"rules": "hangzhou", "seed": 5})
    twin.reset(seed=2)
    after_bad = env.step({agent: bad})
    after_first = twin.step({agent: first})
    assert np.array_equal(env.game.state(), twin.game.state())  # the first legal action was played
    assert after_bad[1] == {**after_first[1], agent: after_first[1].get(agent, 0.0) - 0.25}
    assert env.illegal_actions == 1 and twin.illegal_actions == 0
    with pytest.raises((TypeError, ValueError), match="action"):
        env.step({a: 10_000 for a in after_bad[0]})
    with pytest.raises(ValueError, match="illegal_action"):
        MultiAgentMajiang({"illegal_action": "ignore"})
    with pytest.raises(ValueError, match="illegal_penalty"):
        MultiAgentMajiang({"illegal_penalty": float("nan")})
    # Random unmasked actions (what RLlib's check sends) play whole matches.
    sampler = MultiAgentMajiang({"rules": "classic", "seed": 1})
    obs, _ = sampler.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(2000):
        obs, rewards, terms, truncs, infos = sampler.step({a: int(rng.integers(sampler.game.actions)) for a in obs})
        if terms["__all__"]:
            obs, _ = sampler.reset()
    assert sampler.illegal_actions > 100


def test_rllib_checks_and_ppo_on_a_local_cluster():
    ray = pytest.importorskip("ray", reason="Ray is not installed: RLlib's checks and the PPO run are SKIPPED")
    pytest.importorskip("torch", reason="torch is not installed: the RLlib PPO run is SKIPPED")
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    check_multiagent_environments(MultiAgentMajiang({"rules": "hongkong", "seed": 1}))
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).parents[1] / "examples" / "rllib_selfplay.py"
    spec = importlib.util.spec_from_file_location("rllib_selfplay", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    ray.init(num_cpus=3, include_dashboard=False)
    try:
        algo = example.build(
            example.config("hongkong", env_runners=2, seed=0).training(
                train_batch_size_per_learner=400, minibatch_size=100, num_epochs=1
            )
        )
        result = algo.train()
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 400
        algo.stop()
    finally:
        ray.shutdown()

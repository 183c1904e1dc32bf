"""The ecosystem's own vectorisation over the environments: Gymnasium's `make_vec` (sync and
async), SB3 (`make_vec_env`, and the adapter over the Rust vector env, with MaskablePPO),
PettingZoo's parallel API, threads stepping while the GIL is released, and `action_masks()`
through `gym.make`'s wrappers."""

import threading
import time

import gymnasium as gym
import numpy as np
import pytest

import majiang
from majiang.sb3 import SB3Core


def first_legal(masks):
    """The first legal action of every row (0 where a row has none: an autoreset step)."""
    return np.array([(np.flatnonzero(m)[:1].tolist() or [0])[0] for m in masks], dtype=np.int64)


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("gym_id", sorted(majiang.GYM_IDS.values()))
def test_gymnasium_make_vec(mode, gym_id):
    """Gymnasium's own vector wrappers batch every observation and info (no 64-bit unsigned
    values) through many automatic resets."""
    envs = gym.make_vec(gym_id, num_envs=3, vectorization_mode=mode)
    try:
        obs, info = envs.reset(seed=0)
        assert obs["observation"].shape[0] == 3 and info["seat"].dtype == np.int64
        episodes = 0
        for _ in range(400):
            obs, reward, terminated, truncated, info = envs.step(first_legal(obs["action_mask"]))
            episodes += int(terminated.sum())
            assert reward.dtype == np.float64
        assert episodes >= 6
    finally:
        envs.close()


def test_make_vec_seeds_one_thousand_resets():
    """527 of 1,000 seeds once overflowed the batched info: every one passes now."""
    envs = gym.make_vec("majiang/HongKong-v0", num_envs=2, vectorization_mode="sync", opponents="random")
    for seed in range(0, 1000, 7):
        envs.reset(seed=seed)


def test_action_masks_through_gym_make_wrappers():
    env = gym.make("majiang/Yangzhou-v0")
    obs, _ = env.reset(seed=4)
    masks = env.get_wrapper_attr("action_masks")()
    assert masks.dtype == np.bool_ and np.array_equal(masks, obs["action_mask"])


def test_sb3_core_protocol_without_sb3():
    """The adapter's stepping (what SB3 calls) checked where SB3 is absent too."""
    core = SB3Core(majiang.gym_vector_env("hongkong", num_envs=4, seed=1, opponents="random"))
    core.seed(9)
    obs = core.reset()
    again = SB3Core(majiang.gym_vector_env("hongkong", num_envs=4, seed=5, opponents="random"))
    again.seed(9)
    assert np.array_equal(again.reset()["observation"], obs["observation"])
    finished = 0
    for _ in range(300):
        masks = np.stack(core.env_method("action_masks"))
        assert np.array_equal(masks, core.action_masks())
        obs, rewards, dones, infos = core.step(first_legal(masks))
        assert rewards.dtype == np.float32 and dones.dtype == np.bool_ and len(infos) == 4
        for i in np.flatnonzero(dones):
            finished += 1
            terminal = infos[i]["terminal_observation"]
            assert terminal["observation"].shape == obs["observation"].shape[1:]
            assert infos[i]["TimeLimit.truncated"] is False
    assert finished >= 10
    assert core.get_attr("num_envs") == [4] * 4 and core.env_is_wrapped(object) == [False] * 4


def test_sb3_vec_env_and_make_vec_env_run_maskable_ppo():
    """MaskablePPO learns a few hundred steps on the adapter over the Rust vector env and on
    SB3's make_vec_env over gym.make (skips, saying so, without sb3-contrib and torch)."""
    pytest.importorskip("torch", reason="torch is not installed: the SB3 adapter's MaskablePPO run is SKIPPED")
    contrib = pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed: MaskablePPO run SKIPPED")
    from stable_baselines3.common.env_util import make_vec_env

    venv = majiang.sb3.vec_env("hongkong", num_envs=8, seed=1, opponents="random")
    model = contrib.MaskablePPO("MultiInputPolicy", venv, n_steps=32, batch_size=64, seed=0)
    model.learn(256)
    assert model.num_timesteps >= 256
    made = make_vec_env("majiang/Hangzhou-v0", n_envs=2, seed=0)
    model = contrib.MaskablePPO("MultiInputPolicy", made, n_steps=32, batch_size=32, seed=0)
    model.learn(64)
    assert model.num_timesteps >= 64


def test_vector_env_step_releases_the_gil():
    """Another Python thread runs while VectorEnv.step works in Rust. The other thread counts,
    sleeping a millisecond between counts: with the GIL held through a step it could count at
    most once or twice a step (when the step hands the GIL back), with the GIL released it
    counts all through the step (20–100 times a 100 ms step here)."""
    env = majiang.VectorEnv("hongkong", 2048, seed=1, opponents="normal")
    env.reset()
    rng = np.random.default_rng(0)
    stop = threading.Event()
    count = [0]

    def tick():
        while not stop.is_set():
            count[0] += 1
            time.sleep(0.001)

    thread = threading.Thread(target=tick)
    thread.start()
    during = []
    try:
        for _ in range(8):
            actions = env.random_actions(rng)
            before = count[0]
            env.step(actions)
            during.append(count[0] - before)
    finally:
        stop.set()
        thread.join()
    assert sum(during) >= 5 * len(during), f"the other thread counted {during} during the steps"


def test_parallel_api_and_state():
    from pettingzoo.test import parallel_api_test

    for rules in majiang.RULES:
        parallel_api_test(majiang.parallel_env(rules, seed=3), num_cycles=3000)
    env = majiang.parallel_env("hongkong", seed=1)
    obs, infos = env.reset()
    state = env.state()
    assert env.state_space.contains(state)
    planes = env.planes
    # The state holds every chair's own view: each agent's observation is its chair's block.
    for agent in env.agents:
        chair = env.chair_of(agent)
        assert np.array_equal(state[chair * planes : (chair + 1) * planes], obs[agent]["observation"])
    # Claims are asked together: some step has several agents deciding at once.
    together = 0
    for _ in range(400):
        if not env.agents:
            obs, infos = env.reset()
            continue
        deciding = [a for a in env.agents if infos[a]["deciding"]]
        together = max(together, len(deciding))
        actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[-1]) for a in deciding}
        obs, rewards, terms, truncs, infos = env.step(actions)
    assert together >= 2
    # A refused action changes nothing.
    env.reset(seed=2)
    deciding = [a for a in env.agents if env._observe(a)["action_mask"].any()]
    before = env.state()
    bad = int(np.flatnonzero(env._observe(deciding[0])["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step({deciding[0]: bad})
    assert np.array_equal(env.state(), before)


def test_aec_state_for_centralised_critics():
    env = majiang.env("classic", {"players": 5}, seed=2)
    env.reset()
    inner = env.unwrapped
    state = inner.state()
    assert inner.state_space.contains(state)
    planes = majiang.observation_planes(5)
    for agent in inner.possible_agents:
        chair = inner.chair_of(agent)
        assert np.array_equal(state[chair * planes : (chair + 1) * planes], inner.observe(agent)["observation"])

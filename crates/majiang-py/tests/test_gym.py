"""The Gymnasium side: check_env on every rule set and table size, dense action numbers, the
illegal-action convention, resets where the agent acts, Gymnasium seeding, masks, reward
scaling, flat observations, registration, the vector environment against bots, and bad input
named in the error."""

import json
import random

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import majiang
from conftest import TABLES, table_id


@pytest.mark.parametrize("case", TABLES, ids=table_id)
def test_gymnasium_check_env(case):
    rules, options = case
    check_env(majiang.gym_env(rules=rules, options=options, opponents="easy", seed=1), skip_render_check=True)
    flat = majiang.gym_env(rules=rules, options=options, opponents="random", observation="flat")
    check_env(flat, skip_render_check=True)


def test_sb3_check_env():
    sb3 = pytest.importorskip("stable_baselines3.common.env_checker", reason="stable-baselines3 is not installed")
    for rules, options in TABLES:
        sb3.check_env(majiang.gym_env(rules=rules, options=options, opponents="easy", observation="flat"))


def test_sb3_maskable_ppo():
    """sb3-contrib's MaskablePPO learns a few updates on every rule set through the env's
    action_masks(), and its masked choices are always legal (skips without sb3-contrib)."""
    contrib = pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed")
    for rules in ["hongkong", "hangzhou", "yangzhou", "classic"]:
        env = majiang.gym_env(rules=rules, opponents="easy", observation="flat", reward_scale=0.1)
        model = contrib.MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, seed=0)
        model.learn(512)
        obs, _ = env.reset(seed=3)
        for _ in range(100):
            mask = env.action_masks()
            action, _ = model.predict(obs, action_masks=mask, deterministic=True)
            assert mask[int(action)]
            obs, _, terminated, truncated, _ = env.step(int(action))
            if terminated or truncated:
                obs, _ = env.reset()


@pytest.mark.parametrize("case", TABLES, ids=table_id)
def test_action_numbers_are_dense(case):
    """Every number in the space decodes to a distinct action; the sections tile the space; the
    sections present follow the table (no chows or kongs at six players, extra-wind discards
    only at five and six); over random play every legal action has a number and the numbers
    seen reach every section."""
    rules, options = case
    table = majiang.Table(rules, options, 1, None)
    n = table.action_space
    assert n == majiang.action_space(rules, options)
    decoded = [table.decode_action(i) for i in range(n)]
    assert len(set(decoded)) == n
    layout = table.action_layout()
    assert layout == majiang.action_layout(rules, options)
    assert layout[0][1] == 0 and sum(count for _, _, count in layout) == n
    for (_, first, count), (_, nxt, _) in zip(layout, layout[1:]):
        assert first + count == nxt
    sections = {name: count for name, _, count in layout}
    players = table.players
    assert sections["discard"] == 34 + {5: 4, 6: 8}.get(players, 0)
    if players == 6:
        assert "chow" not in sections and "kong" not in sections and "concealed_kong" not in sections
    with pytest.raises(ValueError, match=f"action: {n} is not an action number"):
        table.decode_action(n)
    seen = set()
    rng = random.Random(4)
    for _ in range(2500):
        if table.is_over():
            break
        if table.awaiting_deal():
            table.deal_next()
            continue
        for chair in table.actors():
            legal = table.legal(chair)
            assert len(legal) == len(table.legal_json(chair))
            seen.update(legal)
        chair = table.to_act()
        legal = table.legal(chair)
        # Prefer claims and kongs so that every section shows up.
        special = [a for a in legal if a >= sections["discard"]]
        table.act(chair, rng.choice(special) if special and rng.random() < 0.7 else rng.choice(legal))
    for name, first, count in layout:
        if name in ("discard", "pung", "pass", "chow"):
            assert any(first <= a < first + count for a in seen), name


def test_illegal_action_convention():
    env = majiang.gym_env(rules="hongkong", opponents="easy", seed=5, illegal_penalty=-0.5)
    obs, info = env.reset()
    mask = env.action_masks()
    assert mask.dtype == np.bool_ and (mask == obs["action_mask"]).all() and (mask == info["action_mask"]).all()
    illegal = int(np.flatnonzero(~mask)[0])
    twin = majiang.gym_env(rules="hongkong", opponents="easy", seed=5)
    twin.reset()
    first_legal = int(np.flatnonzero(mask)[0])
    obs2, reward2, *_ = twin.step(first_legal)
    obs1, reward1, _, _, info1 = env.step(illegal)
    # Substituted by the first legal action, with the penalty added.
    assert info1["illegal_action"] is True
    assert (obs1["observation"] == obs2["observation"]).all()
    assert reward1 == pytest.approx(reward2 - 0.5)
    strict = majiang.gym_env(rules="hongkong", opponents="easy", seed=5, illegal_action="raise")
    obs, _ = strict.reset()
    with pytest.raises(ValueError, match=f"action: {illegal} .* is not legal"):
        strict.step(illegal)
    # Nothing changed: the legal action still plays as in the twin.
    obs3, *_ = strict.step(first_legal)
    assert (obs3["observation"] == obs2["observation"]).all()
    with pytest.raises(TypeError, match="action"):
        strict.step(3.7)
    with pytest.raises(TypeError, match="action"):
        strict.step("0")
    with pytest.raises(ValueError, match="action: -1"):
        strict.step(-1)
    with pytest.raises(ValueError, match="illegal_action"):
        majiang.gym_env(illegal_action="ignore")


def test_unmasked_random_policy_runs():
    """A plain learner's samples never crash the environment."""
    env = majiang.gym_env(rules="hangzhou", opponents="random", seed=2)
    env.reset()
    substituted = 0
    for _ in range(300):
        _, _, done, _, info = env.step(env.action_space.sample())
        substituted += info["illegal_action"]
        if done:
            env.reset()
    assert substituted > 0


@pytest.mark.parametrize("rules", majiang.RULES)
def test_reset_always_lets_the_agent_act_and_every_reward_arrives(rules):
    """Every reset's mask has a legal action; over multi-hand matches the rewards summed over
    the steps equal the agent's ledger, hands it did not act in (before its first decision or
    between decisions) included."""
    env = majiang.gym_env(rules=rules, opponents="easy", hands=3, seed=11, seat=1)
    rng = np.random.default_rng(0)
    for _ in range(4):
        obs, info = env.reset()
        assert obs["action_mask"].any()
        total, done = 0.0, False
        while not done:
            obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            total += reward
        assert total == info["ledger"][1]
    one = majiang.gym_env(rules=rules, opponents="easy", seed=3)
    for _ in range(200):
        obs, info = one.reset()
        assert obs["action_mask"].any() and not one.table.is_over()


def deal_of(env):
    """The match in play's first log line (its header: rules and deal seed)."""
    return env.unwrapped.table.log_jsonl().splitlines()[0]


def test_seeding_follows_gymnasium():
    """8 envs seeded 0..7 (as make_vec_env does), 100 episodes each: 800 distinct deals; the
    same seed replays; any 64-bit seed works."""
    deals = set()
    for i in range(8):
        env = majiang.gym_env(rules="hongkong", opponents="random")
        env.reset(seed=i)
        deals.add(deal_of(env))
        deals_before = len(deals)
        for _ in range(99):
            env.reset()
            deals.add(deal_of(env))
        assert len(deals) == deals_before + 99
    assert len(deals) == 800
    # The deals themselves differ, not just the numbers: the agent's first views.
    views = set()
    for i in range(8):
        env = majiang.gym_env(rules="hongkong", opponents="random", seed=i)
        for _ in range(100):
            obs, _ = env.reset()
            views.add(env.table.log_jsonl().splitlines()[0] + obs["observation"][0].tobytes().hex())
    assert len(views) == 800
    a, b = majiang.gym_env(seed=7), majiang.gym_env()
    a.reset()
    b.reset(seed=7)
    assert deal_of(a) == deal_of(b)
    for seed in (2**62, 2**64 - 1):
        obs, _ = majiang.gym_env(opponents="easy").reset(seed=seed)
        assert obs["action_mask"].any()
    with pytest.raises(ValueError, match="seed"):
        majiang.gym_env().reset(seed=2**64)
    with pytest.raises(TypeError, match="seed"):
        majiang.gym_env().reset(seed=1.5)


def test_reward_scale_and_flat_observation():
    raw = majiang.gym_env(rules="hongkong", opponents="easy", seed=9)
    scaled = majiang.gym_env(rules="hongkong", opponents="easy", seed=9, reward_scale=0.01, observation="flat")
    o1, _ = raw.reset()
    o2, _ = scaled.reset()
    assert o2.shape == (raw.table.planes * majiang.TILE_KINDS,) and (o2 == o1["observation"].reshape(-1)).all()
    done = False
    while not done:
        a = int(np.flatnonzero(raw.action_masks())[0])
        assert (scaled.action_masks() == raw.action_masks()).all()
        o1, r1, done, _, _ = raw.step(a)
        o2, r2, done2, _, info = scaled.step(a)
        assert done == done2 and r2 == pytest.approx(r1 * 0.01)
        assert scaled.observation_space.contains(o2)
        assert (info["action_mask"] == o1["action_mask"]).all()


def test_gymnasium_make_and_make_vec():
    for rules, gym_id in majiang.GYM_IDS.items():
        env = gymnasium.make(gym_id, opponents="easy")
        obs, _ = env.reset(seed=1)
        assert env.unwrapped.rules == rules and env.observation_space.contains(obs)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    venv = gymnasium.make_vec("majiang/Hangzhou-v0", num_envs=3, vectorization_mode="vector_entry_point", opponents="easy")
    obs, _ = venv.reset(seed=0)
    assert obs["observation"].shape[0] == 3


@pytest.mark.parametrize("case", TABLES, ids=table_id)
def test_vector_env_against_bots(case):
    """Every decision is the agent's chair; hands end with payments; final views are kept;
    the tables replay from a seed; illegal actions follow the convention."""
    rules, options = case
    env = majiang.gym_vector_env(rules, num_envs=6, options=options, opponents="easy", seat=1, seed=3)
    obs, _ = env.reset()
    rng = np.random.default_rng(1)
    finished = 0
    rewards = []
    # 150 steps at least, then on until a hand pays (Yangzhou's 15-fan minimum leaves many
    # hands of easy bots and a random agent drawn), at most 1 500.
    for step in range(1500):
        if step >= 150 and any(r != 0 for r in rewards):
            break
        masks = env.action_masks()
        assert masks.any(axis=1).all() and (masks == obs["action_mask"]).all()
        assert (env.tables.actor == 1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, reward, term, trunc, info = env.step(actions)
        assert not trunc.any() and not info["illegal_action"].any()
        rewards.extend(reward[term].tolist())
        reward_outside = reward[~term]
        assert (reward_outside == 0).all()
        if term.any():
            finished += int(term.sum())
            for i in np.flatnonzero(term):
                assert info["final_obs"][i]["observation"].any()
    assert finished > 0 and any(r != 0 for r in rewards)
    again = majiang.gym_vector_env(rules, num_envs=6, options=options, opponents="easy", seat=1, seed=3)
    first, _ = again.reset()
    replay, _ = env.reset(seed=3)
    assert (first["observation"] == replay["observation"]).all()
    # Unmasked samples are substituted; strict mode raises naming the table.
    _, _, _, _, info = again.step(again.action_space.sample())
    strict = majiang.gym_vector_env(rules, num_envs=2, options=options, opponents="easy", illegal_action="raise")
    o, _ = strict.reset(seed=0)
    bad = np.array([int(np.flatnonzero(~m)[0]) for m in o["action_mask"]])
    with pytest.raises(ValueError, match="actions: table 0"):
        strict.step(bad)


def test_vector_env_bots_play_as_the_table_does():
    """The Rust-side opponents are the same bots: self-play vector tables and the vector env
    against bots both finish hands whose payments balance (Hong Kong: zero-sum)."""
    env = majiang.VectorEnv("hongkong", 16, seed=4, opponents="normal")
    env.reset()
    rng = np.random.default_rng(2)
    for _ in range(200):
        assert (env.actor == 0).all()
        env.step(env.random_actions(rng))
        for t in np.flatnonzero(env.done):
            assert env.reward[t].sum() == 0
    assert env.hands_finished > 0
    assert env.tables.refused_bot_actions == 0


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="num_tables"):
        majiang.VectorEnv("hongkong", 10**9)
    with pytest.raises(ValueError, match="num_tables"):
        majiang.VectorEnv("hongkong", 0)
    with pytest.raises((ValueError, OverflowError), match="num_tables"):
        majiang.VectorEnv("hongkong", 2**70)
    with pytest.raises(ValueError, match="seat"):
        majiang.VectorEnv("hongkong", 2, opponents="easy", seat=4)
    with pytest.raises(ValueError, match="opponents"):
        majiang.VectorEnv("hongkong", 2, opponents="grandmaster")
    with pytest.raises(ValueError, match="seat"):
        majiang.gym_env(seat=9)


def test_aec_env_enforces_call_order_and_checks_actions():
    env = majiang.env(rules="hongkong", seed=1)
    with pytest.raises(Exception, match="reset"):
        env.step(0)
    raw = majiang.raw_env(rules="hongkong")
    with pytest.raises(RuntimeError, match="reset"):
        raw.step(0)
    for e in (env, raw):
        e.reset(seed=2**62)
        with pytest.raises(TypeError, match="action"):
            e.step(3.7)
        with pytest.raises(TypeError, match="action"):
            e.step("0")
        with pytest.raises(ValueError, match="action"):
            e.step(10**30)
        mask = e.unwrapped.action_masks()
        with pytest.raises(ValueError, match="not legal"):
            e.step(int(np.flatnonzero(~mask)[0]))
    raw.reset(seed=2**64 - 1)
    rng = random.Random(0)
    for agent in raw.agent_iter(5000):
        obs, _, term, trunc, _ = raw.last()
        raw.step(None if term or trunc else int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
    with pytest.raises(RuntimeError, match="done"):
        raw.step(0)

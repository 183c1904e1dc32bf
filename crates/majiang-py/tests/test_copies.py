"""Copies of a game in play (for search: MCTS, expectimax): `Table`, the environments and the
vector environments copy with `clone()`, `copy.deepcopy` and (but the vector ones) `pickle` to
the identical state: playing on from the copy and from the original gives the same game."""

import copy
import pickle

import numpy as np
import pytest

import majiang


def play(table, steps, rng):
    """Plays `steps` decisions at a table whose chair 0 is the caller's and the others bots;
    returns what happened (actions chosen, payments, hands dealt)."""
    trace = []
    for _ in range(steps):
        if table.is_over():
            break
        if table.awaiting_deal():
            table.deal_next()
            trace.append("deal")
            continue
        paid = table.play_bots()
        if paid is not None:
            trace.append(tuple(paid))
            continue
        if 0 in table.actors():
            legal = table.legal(0)
            action = legal[int(rng.integers(len(legal)))]
            trace.append(action)
            table.act(0, action)
    return trace


@pytest.mark.parametrize("rules", majiang.RULES)
def test_table_copies_play_on_identically(rules):
    """A table with bots (random generators mid-stream) at a point inside its second hand:
    clone, copy.copy, copy.deepcopy and pickle each play on exactly as the original does, and
    the original's later moves do not reach the copies."""
    table = majiang.Table(rules, None, 11, hands=8)
    for chair in range(1, table.players):
        table.set_bot(chair, "easy" if chair % 2 else "normal", chair)
    play(table, 60, np.random.default_rng(0))
    assert table.hand_number >= 1 and not table.is_over()
    copies = [table.clone(), copy.copy(table), copy.deepcopy(table), pickle.loads(pickle.dumps(table))]
    before = table.log_jsonl()
    for c in copies:
        assert c.log_jsonl() == before
    traces = [play(t, 400, np.random.default_rng(5)) for t in [table, *copies]]
    assert len(traces[0]) > 10
    for t in traces[1:]:
        assert t == traces[0]
    for c in copies:
        assert c.log_jsonl() == table.log_jsonl()
        assert c.ledger() == table.ledger()
    # Independent: moving a fresh copy does not move the original.
    twin = table.clone()
    if not twin.is_over():
        play(twin, 5, np.random.default_rng(1))
        assert twin.log_jsonl() != table.log_jsonl() or table.is_over()


def test_pickled_table_keeps_rules_options_and_bots():
    table = majiang.Table("classic", {"players": 5}, 2**64 - 3, hands=2)
    table.set_bot(1, "hard:8", 9)
    table.play_bots()
    back = pickle.loads(pickle.dumps(table))
    assert back.players == 5 and back.rules == "classic"
    assert back.log_jsonl() == table.log_jsonl()
    assert back.observation_json(1) == table.observation_json(1)
    with pytest.raises(RuntimeError, match="__setstate__"):
        table.__setstate__({"calls": []})


def rollout(env, actions):
    """Steps a Gymnasium env with the first legal action shifted by `actions`' choices."""
    out = []
    for k in actions:
        legal = np.flatnonzero(env.action_masks())
        obs, reward, terminated, truncated, info = env.step(int(legal[k % len(legal)]))
        out.append((obs["observation"].tobytes(), reward, terminated, info["ledger"]))
        if terminated:
            env.reset()
    return out


def test_gym_env_copies_play_on_identically():
    env = majiang.gym_env("hangzhou", opponents=["easy", "random", "normal"], seed=4, hands=2)
    env.reset()
    rollout(env, range(7))
    copies = [env.clone(), copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    choices = list(np.random.default_rng(3).integers(0, 50, size=120))
    expected = rollout(env, choices)
    for c in copies:
        assert rollout(c, choices) == expected


def test_aec_env_copies_play_on_identically():
    env = majiang.env("hongkong", seed=8, hands=2, copy_observations=False)
    env.reset()
    for _ in range(10):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))

    def run(e, n=150):
        trace = []
        for _ in range(n):
            obs, reward, term, trunc, _ = e.last()
            if term:
                break
            legal = np.flatnonzero(obs["action_mask"])
            trace.append((e.agent_selection, obs["observation"].tobytes(), reward))
            e.step(int(legal[len(trace) % len(legal)]))
        return trace

    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env)), env.unwrapped.clone()]
    expected = run(env)
    assert len(expected) > 20
    for c in copies[:2]:
        assert run(c) == expected
    # The raw environment's copy, stepped without the wrapper.
    raw = copies[2]
    trace = []
    for _ in range(len(expected)):
        agent = raw.agent_selection
        if raw.terminations[agent]:
            break
        obs = raw.observe(agent)
        trace.append((agent, obs["observation"].tobytes(), raw._cumulative_rewards[agent]))
        legal = np.flatnonzero(obs["action_mask"])
        raw.step(int(legal[len(trace) % len(legal)]))
    assert trace == expected


def test_parallel_env_copies():
    env = majiang.parallel_env("yangzhou", seed=2)
    obs, _ = env.reset()

    def run(e, n=80):
        o = {a: e._observe(a) for a in e.agents}
        out = []
        for _ in range(n):
            if not e.agents:
                break
            actions = {a: int(np.flatnonzero(v["action_mask"])[-1]) for a, v in o.items() if v["action_mask"].any()}
            o, r, term, trunc, info = e.step(actions)
            out.append((sorted(actions.items()), sorted(r.items())))
        return out

    run(env, 5)
    twin, pickled = env.clone(), pickle.loads(pickle.dumps(env))
    expected = run(env)
    assert run(twin) == expected and run(pickled) == expected


@pytest.mark.parametrize("opponents", [None, "easy"])
def test_vector_env_copies_step_identically(opponents):
    env = majiang.VectorEnv("hongkong", 16, seed=3, opponents=opponents)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(30):
        env.step(env.random_actions(rng))
    copies = [env.clone(), copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    for c in copies:
        assert np.array_equal(c.obs, env.obs) and np.array_equal(c.mask, env.mask)
    for _ in range(200):
        actions = env.random_actions(rng)
        env.step(actions)
        for c in copies:
            c.step(actions)
            for name in ("obs", "mask", "legal", "actor", "reward", "done", "final_obs"):
                assert np.array_equal(getattr(c, name), getattr(env, name)), name
    assert env.hands_finished > 10
    for c in copies:
        assert c.hands_finished == env.hands_finished and c.hands_skipped == env.hands_skipped


def test_gym_vector_env_clone_and_pickle():
    env = majiang.gym_vector_env("classic", num_envs=4, seed=5, opponents="hard:4")
    env.reset()
    for _ in range(7):
        env.step(np.array([int(np.flatnonzero(m)[-1]) for m in env.action_masks()]))
    twins = [env.clone(), pickle.loads(pickle.dumps(env))]
    for _ in range(50):
        actions = np.array([int(np.flatnonzero(m)[0]) for m in env.action_masks()])
        a = env.step(actions)
        for twin in twins:
            b = twin.step(actions)
            assert np.array_equal(a[0]["observation"], b[0]["observation"])
            assert np.array_equal(a[1], b[1]) and np.array_equal(a[2], b[2])


def test_unpickling_refuses_a_used_vector_table():
    env = majiang.VectorEnv("hongkong", 2, seed=1)
    env.reset()
    with pytest.raises(RuntimeError, match="__setstate__"):
        env.tables.__setstate__({})

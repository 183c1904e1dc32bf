"""What a researcher must be able to trust: nothing in `info` rebuilds the hidden game, the
agent plays every seat, a refused action changes nothing, bad numbers and bad nesting are
clear errors (never a crash), and one seeding rule holds everywhere."""

import threading

import numpy as np
import pytest

import majiang
from majiang import baselines
from majiang._core import record_selfplay


def integers_in(value, found):
    """Every integer inside `value` (dicts, lists, tuples, numpy arrays), into `found`."""
    if isinstance(value, dict):
        for v in value.values():
            integers_in(v, found)
    elif isinstance(value, (list, tuple)):
        for v in value:
            integers_in(v, found)
    elif isinstance(value, np.ndarray):
        if value.dtype == object:
            for v in value.ravel():
                integers_in(v, found)
        elif np.issubdtype(value.dtype, np.integer) and value.size <= 64:
            found.update(int(v) for v in value.ravel())
    elif isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        found.add(int(value))
    return found


def deal_events(table, count=40):
    """The first events of a match's log (seat choice, the deal): the header, which names the
    seed, left out."""
    return table.log_jsonl().splitlines()[1:count]


def rebuilds(rules, seed, table):
    """True when a new table dealt from `seed` has the deal of `table` (its seat choice and
    every hand dealt, as far as the new table's log goes)."""
    fresh = majiang.Table(rules, None, seed, 1).log_jsonl().splitlines()[1:]
    return table.log_jsonl().splitlines()[1 : 1 + len(fresh)] == fresh


@pytest.mark.parametrize("rules", majiang.RULES)
def test_info_rebuilds_no_hidden_tiles(rules):
    """Every integer an agent gets in `info` (reset and steps, 30 matches) is tried as a deal
    seed: none rebuilds the match in play (the wall and every opponent's hand)."""
    env = majiang.gym_env(rules, opponents="random", seed=12)
    tried = 0
    for _ in range(30):
        _, info = env.reset()
        found = integers_in(info, set())
        table = env.unwrapped.table
        for _ in range(3):
            legal = env.unwrapped.legal_actions()
            _, _, terminated, _, step_info = env.step(legal[0])
            integers_in(step_info, found)
            if terminated:
                break
        for candidate in found:
            if 0 <= candidate < 2**64:
                tried += 1
                assert not rebuilds(rules, candidate, table)
        # The test itself can catch a leak: the true seed does rebuild the deal.
        assert rebuilds(rules, table.seed, table)
    assert tried > 30


@pytest.mark.parametrize("rules", majiang.RULES)
def test_agent_seat_is_drawn_uniformly(rules):
    """Over 240 matches the Gymnasium agent sits in every chair and deals about a quarter of
    first hands (at four players; in Hong Kong too, where chair 0 always deals first)."""
    env = majiang.gym_env(rules, opponents="random", seed=3)
    n = env.unwrapped.table.players
    row = majiang.observation_planes(n) - 1
    seats, dealer = [], 0
    for _ in range(240):
        obs, info = env.reset()
        seats.append(info["seat"])
        # Scalars row: column 3 the own seat, column 4 the dealer counted from the viewer.
        dealer += obs["observation"][row, 4] == 0 and env.unwrapped.table.hand_number == 1
    counts = np.bincount(seats, minlength=n)
    assert counts.min() >= 240 / n / 2, counts
    assert 240 / n / 2 <= dealer <= 240 / n * 1.6, dealer
    fixed = majiang.gym_env(rules, opponents="random", seed=3, seat=1)
    assert {fixed.reset()[1]["seat"] for _ in range(20)} == {1}


def test_aec_agents_take_every_seat_in_hong_kong():
    """player_0 is the first entrant: the wind-tile ceremony seats them anywhere."""
    env = majiang.env("hongkong", seed=5)
    chairs = []
    for _ in range(120):
        env.reset()
        chairs.append(env.unwrapped.chair_of("player_0"))
    assert np.bincount(chairs, minlength=4).min() >= 15
    # And the agents' observations follow their chairs: player_0 sees chair_of(player_0)'s hand.
    inner = env.unwrapped
    seat_col = inner.observe("player_0")["observation"][majiang.observation_planes(4) - 1, 3]
    assert seat_col == inner.chair_of("player_0")


def test_refused_action_leaves_every_table_untouched():
    env = majiang.VectorEnv("hangzhou", 8, seed=2, opponents="easy")
    env.reset()
    rng = np.random.default_rng(1)
    for _ in range(10):
        env.step(env.random_actions(rng))
    twin = env.clone()
    before = {name: getattr(env, name).copy() for name in ("obs", "mask", "legal", "actor")}
    views = [env.tables.observation_json(t) for t in range(8)]
    actions = env.random_actions(rng)
    illegal = int(np.flatnonzero(~env.mask[5])[0])
    bad = actions.copy()
    bad[5] = illegal
    with pytest.raises(ValueError, match="table 5"):
        env.step(bad)
    assert views == [env.tables.observation_json(t) for t in range(8)]
    for name, array in before.items():
        assert np.array_equal(getattr(env, name), array), name
    env.step(actions)
    twin.step(actions)
    assert np.array_equal(env.obs, twin.obs) and np.array_equal(env.reward, twin.reward)


def test_step_before_reset_raises():
    with pytest.raises(RuntimeError, match="reset"):
        majiang.VectorEnv("hongkong", 4, seed=1).step(np.zeros(4, dtype=np.int64))
    with pytest.raises(RuntimeError, match="reset"):
        majiang.gym_vector_env("hongkong", num_envs=2, seed=1).step(np.zeros(2, dtype=np.int64))
    with pytest.raises(RuntimeError, match="reset"):
        majiang.parallel_env().step({})


def first_views(make):
    """What two environments made the same way show first."""
    return [make() for _ in range(2)]


def test_one_seeding_rule_unseeded_is_random_seeded_replays():
    """Gymnasium's convention at every entry point: no seed, a different game each time; the
    same seed, the same game."""

    def vector(seed):
        env = majiang.VectorEnv("hongkong", 4, seed=seed)
        env.reset()
        return env.obs.tobytes()

    def gym_vector(seed):
        return majiang.gym_vector_env("hongkong", num_envs=4, seed=seed).reset()[0]["observation"].tobytes()

    def gym_single(seed):
        env = majiang.gym_env("hongkong", seed=seed)
        env.reset()
        return deal_events(env.unwrapped.table)

    def aec(seed):
        env = majiang.env("hongkong", seed=seed)
        env.reset()
        return deal_events(env.unwrapped.table)

    def parallel(seed):
        env = majiang.parallel_env("hongkong", seed=seed)
        env.reset()
        return deal_events(env.table)

    def table(seed):
        return deal_events(majiang.Table("hongkong", None, seed))

    def recorded(seed):
        return baselines.record("hongkong", bot="random", hands=2, seed=seed)["obs"].tobytes()

    for make in (vector, gym_vector, gym_single, aec, parallel, table, recorded):
        assert make(None) != make(None), make.__name__
        assert make(77) == make(77), make.__name__


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_scales_are_refused(bad):
    for name in ("reward_scale", "illegal_penalty"):
        with pytest.raises(ValueError, match=name):
            majiang.gym_env(**{name: bad})
        with pytest.raises(ValueError, match=name):
            majiang.gym_vector_env(num_envs=2, **{name: bad})
    with pytest.raises(TypeError, match="reward_scale"):
        majiang.gym_env(reward_scale="1")


def test_behaviour_cloning_needs_data():
    data = baselines.record("hongkong", bot="random", hands=1, seed=1)
    empty = {k: v[:0] for k, v in data.items()}
    with pytest.raises(ValueError, match="no decisions"):
        baselines.BehaviourCloning.fit(empty)
    uneven = dict(data, action=data["action"][:-1])
    with pytest.raises(ValueError, match="differ in length"):
        baselines.BehaviourCloning.fit(uneven)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda v: majiang.Table("hongkong", None, v), "seed"),
        (lambda v: majiang.Table("hongkong", hands=v), "hands"),
        (lambda v: majiang.Table("hongkong", None, 1).restart(v), "seed"),
        (lambda v: majiang.Table("hongkong", None, 1).set_bot(1, "easy", v), "seed"),
        (lambda v: majiang.Table("hongkong", None, 1).action_name(v), "action"),
        (lambda v: majiang.Table("hongkong", None, 1).decode_action(v), "action"),
        (lambda v: majiang.Table("hongkong", None, 1).legal(v), "player"),
        (lambda v: majiang.decode_action(v, "hongkong"), "action"),
        (lambda v: majiang.action_name(v, "hongkong"), "action"),
        (lambda v: majiang.tile_name(v), "index"),
        (lambda v: record_selfplay("hongkong", "random", v), "hands"),
        (lambda v: record_selfplay("hongkong", "random", 1, v), "seed"),
        (lambda v: majiang.VectorTables("hongkong", v), "num_tables"),
        (lambda v: majiang.VectorTables("hongkong", 2, None, v), "seed"),
        (lambda v: majiang.VectorTables("hongkong", 2, None, 1, "easy", v), "seat"),
        (lambda v: majiang.VectorEnv("hongkong", 2, seed=1).reset(seed=v), "seed"),
    ],
)
@pytest.mark.parametrize("value", [-1, 2**64, 2**80])
def test_out_of_range_integers_name_the_argument(call, name, value):
    with pytest.raises((ValueError, TypeError)) as caught:
        call(value)
    assert not isinstance(caught.value, OverflowError)
    assert name in str(caught.value)


def nested(depth, leaf):
    value = leaf
    for _ in range(depth):
        value = {"a": value}
    return value


def nested_list(depth):
    value = []
    for _ in range(depth):
        value = [value]
    return value


DEEP_CALLS = [
    lambda v: majiang.score(v),
    lambda v: majiang.score({"rules": "hongkong", "options": v}),
    lambda v: majiang.score({"rules": "hongkong", "concealed": "11z", "melds": [v]}),
    lambda v: majiang.Table("hongkong", v),
    lambda v: majiang.VectorEnv("hongkong", 2, options=v, seed=1),
    lambda v: majiang.action_space("hongkong", v),
]


@pytest.mark.parametrize("call", DEEP_CALLS)
def test_deep_nesting_is_a_clear_error(call):
    """15 000 levels once overflowed the stack (the interpreter died)."""
    for deep in (nested(15_000, 1), nested_list(15_000)):
        with pytest.raises(ValueError, match="nest more than 64 levels"):
            call(deep)
    # 64 levels are read (and then refused or accepted for what they say).
    try:
        call(nested(60, 1))
    except ValueError as e:
        assert "nest" not in str(e)


def test_deep_nesting_in_a_thread_with_a_small_stack():
    """≈600 levels once crashed a thread with a small stack."""
    errors = []

    def work():
        for call in DEEP_CALLS:
            try:
                call(nested(2_000, 1))
            except ValueError as e:
                errors.append(str(e))

    old = threading.stack_size(256 * 1024)
    try:
        thread = threading.Thread(target=work)
        thread.start()
        thread.join(timeout=120)
    finally:
        threading.stack_size(old)
    assert not thread.is_alive()
    assert len(errors) == len(DEEP_CALLS) and all("nest more than" in e for e in errors)

"""The environments: PettingZoo's api_test, masks equal to the engine's legal actions,
determinism, observations built from the seat's own Observation, every rule set at every table
size, the Gymnasium wrapper and the vector environment."""

import json
import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

import majiang
from conftest import TABLES, table_id


def legal_set(table, chair):
    return {json.dumps(json.loads(a), sort_keys=True) for a in table.legal_json(chair)}


def masked_set(table, mask):
    return {json.dumps(json.loads(table.decode_action(int(i))), sort_keys=True) for i in np.flatnonzero(mask)}


# The two warnings api_test gives any env whose observation is a dict of the planes and the
# action mask, the convention of PettingZoo's own board and card games: it keeps a list of
# those games by name (chess_v6, go_v5, connect_four_v3, ...) and stays silent for them only.
DICT_OBSERVATION_WARNINGS = {
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    "Observation is not a NumPy array",
}


@pytest.mark.parametrize("case", TABLES, ids=table_id)
def test_api_test(case):
    rules, options = case
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(majiang.env(rules=rules, options=options, seed=3), num_cycles=300)
        api_test(majiang.raw_env(rules=rules, options=options, seed=3), num_cycles=100)
    # Any other warning (a space, a reward, a termination api_test doubts) fails the test.
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_WARNINGS


@pytest.mark.parametrize("case", TABLES, ids=table_id)
def test_mask_is_legal_actions_and_obs_is_the_seats_observation(case):
    """Over random steps of whole hands: for every chair, the mask decodes to exactly the engine's
    legal actions, and the planes equal those encoded from that seat's Observation alone."""
    rules, options = case
    rng = random.Random(11)
    steps = 0
    for seed in range(3):
        table = majiang.Table(rules, options, seed, 2)
        obs = np.zeros((table.planes, majiang.TILE_KINDS), dtype=np.uint8)
        mask = np.zeros(table.action_space, dtype=np.uint8)
        while not table.is_over():
            if table.awaiting_deal():
                table.deal_next()
                continue
            for chair in range(table.players):
                table.observe(chair, obs, mask)
                assert masked_set(table, mask) == legal_set(table, chair)
                assert (chair in table.actors()) == bool(mask.any())
                view = table.observation_json(chair)
                planes, mask2 = majiang.encode_observation_json(view, rules, options)
                assert bytes(obs.tobytes()) == bytes(planes) and bytes(mask.tobytes()) == bytes(mask2)
            chair = table.to_act()
            table.act(chair, rng.choice(table.legal(chair)))
            steps += 1
    assert steps > 100


def hidden_info_free(view, chair):
    """An engine Observation shows the viewer's concealed tiles only."""
    for hand in view["table"]:
        assert set(hand) == {"player", "seat", "melds", "flowers", "discards", "concealed_count", "gambit_run"}
    assert view["player"] == chair


@pytest.mark.parametrize("case", TABLES, ids=table_id)
def test_no_hidden_information(case):
    """Each seat's planes: own concealed row matches its own count; no other row holds more of a
    kind than could be visible; the engine view carries no other seat's concealed tiles (the
    planes are built from that view alone: test_mask_is_legal_actions_and_obs_is_the_seats_observation)."""
    rules, options = case
    table = majiang.Table(rules, options, 5, 1)
    obs = np.zeros((table.planes, majiang.TILE_KINDS), dtype=np.uint8)
    mask = np.zeros(table.action_space, dtype=np.uint8)
    n = table.players
    rng = random.Random(2)
    for _ in range(60):
        if table.to_act() is None:
            break
        for chair in range(n):
            view = json.loads(table.observation_json(chair))
            hidden_info_free(view, chair)
            table.observe(chair, obs, mask)
            own = int(obs[0].sum())
            assert own == view["table"][chair]["concealed_count"]
            scalars = obs[6 + 4 * n]
            assert scalars[10] == own
            # Everything visible plus the own hand never exceeds four copies of a playing kind.
            visible = obs[0].astype(int) + sum(obs[2 + 4 * k].astype(int) + obs[3 + 4 * k] for k in range(n))
            assert (visible[:34] <= 4).all()
        chair = table.to_act()
        table.act(chair, rng.choice(table.legal(chair)))


def play(env_fn, seed, steps=400):
    env = env_fn()
    env.reset(seed=seed)
    trace = []
    rng = random.Random(seed)
    for agent in env.agent_iter(steps):
        obs, reward, term, trunc, _ = env.last()
        trace.append((agent, obs["observation"].tobytes(), reward))
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(list(legal))))
    return trace


@pytest.mark.parametrize("rules", majiang.RULES)
def test_seed_reproduces_exactly(rules):
    first = play(lambda: majiang.env(rules=rules, hands=2), 9)
    again = play(lambda: majiang.env(rules=rules, hands=2), 9)
    other = play(lambda: majiang.env(rules=rules, hands=2), 10)
    assert first == again
    assert first != other
    # Constructor seed and reset seed agree.
    e1, e2 = majiang.env(rules=rules, seed=4), majiang.env(rules=rules)
    e1.reset()
    e2.reset(seed=4)
    assert (e1.observe(e1.agent_selection)["observation"] == e2.observe(e2.agent_selection)["observation"]).all()


@pytest.mark.parametrize("case", TABLES, ids=table_id)
def test_rewards_are_the_hands_payments(case):
    rules, options = case
    env = majiang.env(rules=rules, options=options, seed=21, hands=None)
    env.reset()
    totals = {a: 0 for a in env.possible_agents}
    rng = random.Random(0)
    for agent in env.agent_iter(3000):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
    table = env.unwrapped.table
    if table.is_over():
        # Summed rewards = the match's ledger (chips won and lost hand by hand).
        assert [totals[a] for a in env.possible_agents] == table.ledger()
    settlement = table.last_settlement()
    if settlement is not None:
        assert sum(settlement["payments"]) == -settlement["uncollected"]


def test_env_log_replays():
    env = majiang.env(rules="hangzhou", seed=2, hands=2)
    env.reset()
    rng = random.Random(1)
    for agent in env.agent_iter(5000):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
    report = majiang.replay(env.unwrapped.table.log_jsonl())
    assert report["complete"] and len(report["hands"]) == 2


def test_bad_env_input():
    with pytest.raises(ValueError, match="not a rule set"):
        majiang.env(rules="riichi")
    with pytest.raises(ValueError):
        majiang.env(rules="classic", options={"players": 9})
    t = majiang.Table("hongkong")
    with pytest.raises(ValueError, match="action: 131 is not an action number"):
        t.act(t.to_act(), t.action_space + 4)
    win, pung = 125, 123
    with pytest.raises(ValueError, match="cannot"):
        t.act(t.to_act(), win if win not in t.legal(t.to_act()) else pung)
    with pytest.raises(ValueError, match="player: there is no player 7"):
        t.legal(7)


@pytest.mark.parametrize("opponents", ["random", "easy", "normal", "hard", "aggressive"])
def test_gym_wrapper(opponents):
    env = majiang.gym_env(rules="hongkong", opponents=opponents, seed=1)
    obs, _ = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    again, _ = env.reset(seed=3)
    assert (again["observation"] == obs["observation"]).all()
    rng = np.random.default_rng(0)
    done, total = False, 0.0
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, done, _, info = env.step(int(rng.choice(legal)))
        assert env.observation_space.contains(obs)
        total += reward
    assert total == info["ledger"][0]
    with pytest.raises(ValueError, match="opponents: unknown bot"):
        majiang.gym_env(opponents="grandmaster")


@pytest.mark.parametrize("case", TABLES, ids=table_id)
def test_vector_env(case):
    rules, options = case
    venv = majiang.VectorEnv(rules, 8, options, seed=5)
    venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(400):
        # The compact legal lists are the mask.
        for t in range(venv.num_tables):
            listed = set(venv.legal[t, : venv.legal_count[t]].tolist())
            assert listed == set(np.flatnonzero(venv.mask[t]).tolist())
        venv.step(venv.random_actions(rng))
        for t in np.flatnonzero(venv.done):
            assert venv.reward[t].sum() <= 0 or rules == "hangzhou" or venv.reward[t].sum() == 0
    assert venv.hands_finished > 0
    # Same seed, same play.
    a, b = majiang.VectorEnv(rules, 4, options, seed=1), majiang.VectorEnv(rules, 4, options, seed=1)
    a.reset(), b.reset()
    ra, rb = np.random.default_rng(7), np.random.default_rng(7)
    for _ in range(200):
        a.step(a.random_actions(ra))
        b.step(b.random_actions(rb))
        assert (a.obs == b.obs).all() and (a.reward == b.reward).all()


@pytest.mark.parametrize("case", TABLES, ids=table_id)
@pytest.mark.parametrize("opponents", [None, "random"])
def test_vector_env_writes_what_a_fresh_observation_encodes(case, opponents):
    """Every step's planes and mask, written in place straight from the game, equal those
    encoded from the actor's engine Observation, table by table, over a few hundred random
    steps (self-play and against bots)."""
    rules, options = case
    venv = majiang.VectorEnv(rules, 6, options, seed=13, opponents=opponents)
    venv.reset()
    rng = np.random.default_rng(13)
    for _ in range(300):
        for t in range(venv.num_tables):
            view = venv.tables.observation_json(t)
            assert json.loads(view)["player"] == venv.actor[t]
            planes, mask = majiang.encode_observation_json(view, rules, options)
            assert venv.obs[t].tobytes() == bytes(planes)
            assert venv.mask[t].view(np.uint8).tobytes() == bytes(mask)
        venv.step(venv.random_actions(rng))
    assert venv.hands_finished > 0


def test_vector_env_refuses_illegal_actions():
    venv = majiang.VectorEnv("hongkong", 2)
    venv.reset()
    with pytest.raises(ValueError, match="table 0"):
        venv.step(np.array([venv.action_space + 3, 0]))
    with pytest.raises(ValueError, match="actions: expected shape"):
        venv.step(np.array([0, 0, 0]))
    with pytest.raises(TypeError, match="actions"):
        venv.step(np.array([0.5, 1.0]))


def test_vector_tables_check_the_output_arrays():
    venv = majiang.VectorEnv("hongkong", 2)
    arrays = dict(venv._arrays)
    arrays["done"] = venv.obs.reshape(-1)[:2]  # shares memory with obs
    with pytest.raises(ValueError, match="share memory"):
        venv.tables.reset(arrays)
    arrays = dict(venv._arrays, actor=np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="actor"):
        venv.tables.reset(arrays)
    frozen = venv.obs.copy()
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="obs"):
        venv.tables.reset(dict(venv._arrays, obs=frozen))


@pytest.mark.parametrize("case", TABLES, ids=table_id)
def test_table_bots_play_through_the_seat_driver(case):
    """Bots in every chair: play_bots plays each hand to its end (the seat driver decides for
    every chair), the payments are the settlement's, the log replays, no bot action is refused;
    a chair given back to the caller stops the bots there."""
    rules, options = case
    table = majiang.Table(rules, options, 8, 2)
    for chair in range(table.players):
        table.set_bot(chair, ["easy", "normal", "random"][chair % 3], seed=chair)
    hands = 0
    while not table.is_over():
        if table.awaiting_deal():
            table.deal_next()
            continue
        payments = table.play_bots()
        assert payments is not None and payments == table.last_settlement()["payments"]
        hands += 1
    assert hands == 2 and table.refused_bot_actions == 0
    assert majiang.replay(table.log_jsonl())["complete"]
    mixed = majiang.Table(rules, options, 8, 1)
    for chair in range(1, mixed.players):
        mixed.set_bot(chair, "normal")
    while mixed.play_bots() is None and not mixed.awaiting_deal():
        assert mixed.actors() == [0]
        mixed.act(0, mixed.legal(0)[0])


@pytest.mark.parametrize("players", [5, 6])
def test_extra_winds_stay_in_their_own_columns(players):
    """At five and six players each extra wind is one physical tile: in every row of every
    seat's planes its bonus column holds at most 1 (melds of extra winds spread over their own
    columns), and the own hand plus exposed melds never show one tile twice."""
    options = {"players": players}
    rng = random.Random(players)
    melded = 0
    for seed in range(6):
        table = majiang.Table("classic", options, seed, 1)
        n = table.players
        obs = np.zeros((table.planes, majiang.TILE_KINDS), dtype=np.uint8)
        mask = np.zeros(table.action_space, dtype=np.uint8)
        while table.to_act() is not None:
            for chair in range(n):
                table.observe(chair, obs, mask)
                assert (obs[: 2 + 4 * n, 34:] <= 1).all()
                shown = obs[0, 34:].astype(int) + sum(obs[2 + 4 * k, 34:].astype(int) + obs[3 + 4 * k, 34:] for k in range(n))
                assert (shown <= 1).all()
                melded += int(sum(obs[2 + 4 * k, 34:].sum() for k in range(n)))
            chair = table.to_act()
            legal = table.legal(chair)
            claims = [a for a in legal if table.action_name(a).startswith(("pung", "kong"))]
            table.act(chair, rng.choice(claims) if claims else rng.choice(legal))
    if players == 6:  # eight extra winds: pungs of them happen (at five, rarely)
        assert melded > 0


def test_table_arguments_are_named():
    """Out-of-range or mistyped integers name the argument (not a bare OverflowError)."""
    t = majiang.Table("hongkong", seed=2**64 - 1)
    with pytest.raises(ValueError, match="seed"):
        majiang.Table("hongkong", seed=2**64)
    with pytest.raises(ValueError, match="seed"):
        majiang.Table("hongkong", seed=-1)
    with pytest.raises(TypeError, match="seed"):
        majiang.Table("hongkong", seed=1.5)
    p = t.to_act()
    with pytest.raises(ValueError, match="action"):
        t.act(p, 10**30)
    with pytest.raises(ValueError, match="action"):
        t.act(p, -1)
    with pytest.raises(TypeError, match="action"):
        t.act(p, 3.7)
    with pytest.raises(TypeError, match="player"):
        t.legal("0")
    with pytest.raises(ValueError, match="player"):
        t.legal(2**80)
    with pytest.raises(ValueError, match="seed"):
        t.set_bot(1, "easy", seed=-5)
    t.act(p, np.int64(t.legal(p)[0]))  # numpy integers are integers


@pytest.mark.parametrize("case", TABLES, ids=table_id)
def test_aec_observations_are_written_in_place(case):
    """With copy_observations=False, observe() refills each agent's preallocated arrays and
    returns the same dict; the contents equal the Table's own observe() and the default's fresh copies, over whole
    hands; the wrapper is PettingZoo's OrderEnforcingWrapper (a subclass)."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    rules, options = case
    env = majiang.env(rules=rules, options=options, seed=5, copy_observations=False)
    copying = majiang.env(rules=rules, options=options, seed=5)
    assert isinstance(env, OrderEnforcingWrapper)
    env.reset()
    copying.reset()
    inner = env.unwrapped
    obs = np.zeros((inner.table.planes, majiang.TILE_KINDS), dtype=np.uint8)
    mask = np.zeros(inner.actions, dtype=np.uint8)
    rng = random.Random(5)
    steps = 0
    for agent in env.agent_iter():
        first, _, terminated, truncated, _ = env.last()
        again = env.observe(agent)
        assert again is first and again["observation"] is first["observation"]
        assert again["action_mask"].dtype == np.int8
        copied = copying.observe(agent)
        assert copied["observation"] is not copying.observe(agent)["observation"]
        assert (copied["observation"] == first["observation"]).all()
        assert (copied["action_mask"] == first["action_mask"]).all()
        if terminated or truncated:
            env.step(None)
            copying.step(None)
            continue
        inner.table.observe(inner.agent_name_mapping[agent], obs, mask)
        assert (obs == first["observation"]).all() and (mask == first["action_mask"].view(np.uint8)).all()
        action = rng.choice(list(np.flatnonzero(first["action_mask"])))
        env.step(action)
        copying.step(action)
        steps += 1
    assert steps > 20


def test_table_bound_observation_arrays():
    """bind_observation + observe_bound write what observe() writes; bad arrays and an unbound
    chair raise ValueError naming the argument."""
    table = majiang.Table("hongkong", None, 9, 1)
    obs = np.zeros((table.planes, majiang.TILE_KINDS), dtype=np.uint8)
    flags = np.zeros(table.action_space, dtype=np.bool_)
    mask = flags.view(np.uint8)
    fresh_obs, fresh_mask = obs.copy(), np.zeros(table.action_space, dtype=np.uint8)
    with pytest.raises(ValueError, match="player: no arrays bound"):
        table.observe_bound(0)
    with pytest.raises(ValueError, match="obs:"):
        table.bind_observation(0, np.zeros(5, dtype=np.uint8), mask)
    with pytest.raises(ValueError, match="mask:"):
        table.bind_observation(0, obs, np.zeros(table.action_space + 1, dtype=np.uint8))
    with pytest.raises(ValueError, match="player:"):
        table.bind_observation(9, obs, mask)
    rng = random.Random(9)
    for _ in range(40):
        chair = table.to_act()
        if chair is None:
            break
        table.bind_observation(chair, obs, mask)
        table.observe_bound(chair)
        table.observe(chair, fresh_obs, fresh_mask)
        assert (obs == fresh_obs).all() and (mask == fresh_mask).all() and flags.any()
        table.act(chair, rng.choice(table.legal(chair)))


def _reference_matches(rules, options, seed, matches, hands, choose):
    """The AEC env's decisions computed the plain way, for comparison with the fast path:
    PettingZoo's own OrderEnforcingWrapper (generic forwarding, its class-based iterator)
    around the raw env with fresh observation copies, and, beside it, a fresh ``Table`` per
    match (observe into new arrays, ``act``, ``to_act``). One record per ``last()``."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    env = OrderEnforcingWrapper(majiang.raw_env(rules=rules, options=options, seed=seed, hands=hands))
    records = []
    for match in range(matches):
        env.reset()
        inner = env.unwrapped
        table = majiang.Table(rules, options, inner.match_seed, hands)
        obs = np.zeros((table.planes, majiang.TILE_KINDS), dtype=np.uint8)
        mask = np.zeros(table.action_space, dtype=np.uint8)
        agents = env.possible_agents
        # PettingZoo's bookkeeping from the Table's payments: rewards are the last step's
        # payments (zeros otherwise), an agent's cumulative reward what it was paid since it
        # last acted.
        cumulative = {a: 0 for a in agents}
        rewards = {a: 0 for a in agents}
        for agent in env.agent_iter():
            o, reward, term, trunc, info = env.last()
            chair = inner.agent_name_mapping[agent]
            # (PettingZoo drops an agent's entries once it has taken its dead step.)
            assert reward == cumulative[agent] and env.rewards == {a: rewards[a] for a in env.rewards}
            assert term == table.is_over() and not trunc and info == {}
            if not (term or trunc):
                # The plain Table agrees with the env: the same chair to act, the same planes.
                assert table.to_act() == chair
                table.observe(chair, obs, mask)
                assert (obs == o["observation"]).all() and (mask == o["action_mask"].view(np.uint8)).all()
            records.append(
                (match, agent, o["observation"].tobytes(), o["action_mask"].tobytes(), o["action_mask"].dtype,
                 reward, term, trunc, info, dict(env.rewards), dict(env.terminations), dict(env.truncations))
            )
            if term or trunc:
                env.step(None)
                rewards = {a: 0 for a in agents}  # PettingZoo's dead step clears them
                continue
            action = choose(o["action_mask"])
            env.step(action)
            payments = table.act(chair, action)
            cumulative[agent] = 0
            rewards = {a: 0 if payments is None else payments[i] for i, a in enumerate(agents)}
            for a in agents:
                cumulative[a] += rewards[a]
            if payments is not None and not table.is_over():
                table.deal_next()
        assert table.is_over() and table.to_act() is None
        records.append((match, "over", list(env.agents), table.log_jsonl() == inner.table.log_jsonl()))
    return records


@pytest.mark.parametrize("case", TABLES, ids=table_id)
@pytest.mark.parametrize("copy_observations", [False, True])
def test_aec_fast_path_matches_the_plain_path(case, copy_observations):
    _compare_fast_path_with_plain_path(case, copy_observations)


def test_aec_fast_path_matches_the_plain_path_when_hands_pay():
    """The same comparison where hands pay (random play mostly ends in draws that pay no
    one): rewards and cumulative rewards other than zero, carried into the next hand."""
    # Five whole matches: random play pays in few hands (seed 12 alone paid none once the last
    # discard could be claimed only to win), and each match is compared whether it pays or not.
    paid = []
    for seed in range(12, 17):
        expected = _compare_fast_path_with_plain_path(("classic", {"players": 4}), False, matches=1, hands=None, seed=seed)
        paid += [(seed, i) for i, r in enumerate(expected) if r[1] != "over" and r[5] != 0 and not r[6]]
    assert paid, "no hand paid before a match's end in five matches"



def _compare_fast_path_with_plain_path(case, copy_observations, matches=3, hands=2, seed=11):
    """majiang.env's per-step calls (its wrapper's last/step, the generator agent_iter, the
    raw env's step through Table.act_next, reset restarting one Table) give exactly what the
    plain path gives: PettingZoo's generic OrderEnforcingWrapper over the raw env and a fresh
    Table per match. Same agent order, observations, masks (int8), rewards, cumulative
    rewards, terminations, truncations, infos, over several matches of two hands in one env."""
    rules, options = case

    win = next(first for name, first, _ in majiang.action_layout(rules, options) if name == "win")

    def chooser():
        # Random, but a win whenever one is legal, so that hands pay (random play mostly draws).
        rng = random.Random(7)
        return lambda mask: win if mask[win] else int(rng.choice(list(np.flatnonzero(mask))))

    expected = _reference_matches(rules, options, seed, matches, hands, chooser())
    env = majiang.env(rules=rules, options=options, seed=seed, hands=hands, copy_observations=copy_observations)
    choose = chooser()
    got = []
    for match in range(matches):
        env.reset()
        for agent in env.agent_iter():
            o, reward, term, trunc, info = env.last()
            got.append(
                (match, agent, o["observation"].tobytes(), o["action_mask"].tobytes(), o["action_mask"].dtype,
                 reward, term, trunc, info, dict(env.rewards), dict(env.terminations), dict(env.truncations))
            )
            env.step(None if term or trunc else choose(o["action_mask"]))
        got.append((match, "over", list(env.agents), True))
    assert len(got) == len(expected) > 100
    for g, e in zip(got, expected):
        assert g == e
    return expected


def test_aec_wrapper_keeps_the_order_checks():
    """The wrapper's flags live on a plain object, the iterator is a generator: PettingZoo's
    errors and warnings come as before."""
    env = majiang.env(seed=3)
    with pytest.raises(AttributeError, match="before reset"):
        env.last()
    with pytest.raises(AttributeError, match="before reset"):
        env.agent_selection
    with pytest.raises(Exception, match="reset"):
        env.step(0)
    with pytest.raises(Exception, match="reset"):
        env.agent_iter()
    assert env._has_reset is False and env._has_updated is False
    env.reset()
    assert env._has_reset is True and env._has_updated is True
    it = iter(env.agent_iter(2))
    assert next(it) == env.agent_selection and env._has_updated is False
    with pytest.raises(AssertionError, match="need to call step"):
        next(it)
    # max_iter counts the agents handed out.
    env.reset()
    assert len([env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0])) for _ in env.agent_iter(5)]) == 5
    # Stepping once every agent is done (PettingZoo logs a warning) changes nothing.
    env.reset()
    for _ in env.agent_iter():
        o, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(o["action_mask"])[0]))
    assert env.agents == []
    env._has_updated = False
    env.step(None)
    assert env.agents == [] and env._has_updated is True


@pytest.mark.parametrize("case", TABLES, ids=table_id)
def test_table_restart_is_a_new_table(case):
    """Table.restart(seed) plays exactly as Table(rules, options, seed, hands): the same
    observations, legal actions, payments and log, bots removed, bound arrays kept; act_next
    answers act's payments or else to_act()."""
    rules, options = case
    table = majiang.Table(rules, options, 1, 2)
    obs = np.zeros((table.planes, majiang.TILE_KINDS), dtype=np.uint8)
    mask = np.zeros(table.action_space, dtype=np.uint8)
    for chair in range(table.players):
        table.bind_observation(chair, obs, mask)
    table.set_bot(0, "random", seed=3)
    table.play_bots()
    for seed in (5, 6):
        table.restart(seed)
        fresh = majiang.Table(rules, options, seed, 2)
        fresh_obs, fresh_mask = obs.copy(), mask.copy()
        rng = random.Random(seed)
        while fresh.to_act() is not None:
            chair = fresh.to_act()
            assert table.to_act() == chair and table.legal(chair) == fresh.legal(chair)
            table.observe_bound(chair)
            fresh.observe(chair, fresh_obs, fresh_mask)
            assert (obs == fresh_obs).all() and (mask == fresh_mask).all()
            action = rng.choice(fresh.legal(chair))
            payments = fresh.act(chair, action)
            answer = table.act_next(chair, action)
            assert answer == (payments if payments is not None else fresh.to_act())
            if payments is not None and not fresh.is_over():
                fresh.deal_next()
                table.deal_next()
        assert table.is_over() and table.log_jsonl() == fresh.log_jsonl()
        assert table.ledger() == fresh.ledger() and table.refused_bot_actions == 0
    with pytest.raises(ValueError, match="seed"):
        table.restart(-1)


def test_table_bound_arrays_that_overlap():
    """observe_bound writes straight into bound arrays that share no memory; arrays that do
    overlap get the planes, then the mask, copied in (as before), never a mix."""
    table = majiang.Table("hangzhou", None, 4, 1)
    size, actions = table.planes * majiang.TILE_KINDS, table.action_space
    shared = np.zeros(size + 10, dtype=np.uint8)
    obs, mask = shared[:size].reshape(table.planes, majiang.TILE_KINDS), shared[10 : 10 + actions]
    fresh_obs, fresh_mask = np.zeros_like(obs), np.zeros(actions, dtype=np.uint8)
    rng = random.Random(4)
    for _ in range(30):
        chair = table.to_act()
        if chair is None:
            break
        table.bind_observation(chair, obs, mask)
        shared[:] = 7
        table.observe_bound(chair)
        table.observe(chair, fresh_obs, fresh_mask)
        expected = np.full(size + 10, 7, dtype=np.uint8)
        expected[:size] = fresh_obs.ravel()
        expected[10 : 10 + actions] = fresh_mask
        assert (shared == expected).all()
        table.act(chair, rng.choice(table.legal(chair)))


def test_aec_reset_keeps_its_table_until_the_match_changes():
    """reset() restarts the same Table while rules, options and hands are unchanged and makes
    a new one (bound to the agents' arrays) when they changed; either way the match is the
    one Table(rules, options, match_seed, hands) plays."""
    env = majiang.env(rules="classic", options={"players": 4}, seed=2, copy_observations=False)
    env.reset()
    inner = env.unwrapped
    table = inner.table
    env.reset()
    assert inner.table is table
    for change in ("hands", "rules"):
        if change == "hands":
            inner.hands = 2
        else:
            inner.rules, inner.options = "hongkong", None
        env.reset()
        assert inner.table is not table
        table = inner.table
        fresh = majiang.Table(inner.rules, inner.options, inner.match_seed, inner.hands)
        assert table.log_jsonl() == fresh.log_jsonl()
        obs = np.zeros((fresh.planes, majiang.TILE_KINDS), dtype=np.uint8)
        mask = np.zeros(fresh.action_space, dtype=np.uint8)
        fresh.observe(fresh.to_act(), obs, mask)
        first = env.last()[0]
        assert (first["observation"] == obs).all() and (first["action_mask"].view(np.uint8) == mask).all()
        env.reset()
        assert inner.table is table

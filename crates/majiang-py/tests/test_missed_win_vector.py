"""Hong Kong's missed win and the engine's refusals through the vector environments, as the
single-table environments report them (``test_missed_win.py``): ``missed_wins`` in every
``gym_vector_env`` and SB3 adapter info (``VectorEnv.missed_wins`` by column), and a refused
action's error or ``illegal_reason`` carrying the engine's reason.

The missed win is met as in ``test_missed_win.py``: Hong Kong tables without flowers or a
minimum (wins are offered often) against the ``efficient`` bot, the agent passing every win
offered on a discard or a robbed kong. Its other choices: pass every other claim (so its hand
stays concealed and every turn of its starts with a live-wall draw), on its turn discard the
tile that leaves the fewest tiles to go (``majiang.analyze``'s shanten), the drawn tile when
it could win on it.
"""

from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Optional, Set, Tuple

import numpy as np
import pytest

import majiang
from conftest import TABLES, table_id
from majiang.gym_vector import MajiangVectorEnv
from majiang.sb3 import SB3Core

OPTIONS = {"flowers": False, "min_fan": 0}
MISSED = "you passed this tile's win: wait for your next draw"
TABLE_COUNT = 8
# Steps of all the tables: a cap so a bug cannot loop for ever (seed 1 meets the bar in about
# 1,500).
MAX_STEPS = 20_000
ACT = {name: start for name, start, _ in majiang.action_layout("hongkong", OPTIONS)}


def observation(env: MajiangVectorEnv, t: int) -> Dict[str, Any]:
    """The engine's observation of table ``t``'s agent now (``missed_wins`` left out when
    empty)."""
    result: Dict[str, Any] = json.loads(env.tables.tables.observation_json(t))
    return result


def fewest_to_go(concealed: str, legal: np.ndarray) -> int:
    """The legal discard leaving the concealed hand fewest tiles from ready (the first such)."""
    hand = majiang.parse_tiles(concealed)
    best: Optional[Tuple[int, int]] = None
    for action in legal:
        if action >= ACT["concealed_kong"]:
            continue
        rest = list(hand)
        rest.remove(majiang.tile_name(int(action)))
        shanten = majiang.analyze("".join(rest))["shanten"]
        if best is None or shanten < best[0]:
            best = (shanten, int(action))
    assert best is not None, "no discard among the legal actions"
    return best[1]


def choose(obs: Dict[str, Any], legal: np.ndarray, passed: Set[str]) -> int:
    """The agent's choice (see the module's docs); a passed win's tile goes into ``passed``."""
    if ACT["pass"] in legal:
        if ACT["win"] in legal:
            passed.add(obs["on_offer"][1])
        return ACT["pass"]
    drawn = obs["drawn"]
    if ACT["win"] in legal and drawn is not None:
        return majiang.tile_index(drawn)
    return fewest_to_go(obs["concealed"], legal)


Found = Tuple[MajiangVectorEnv, int, str, np.ndarray, Dict[str, Any]]


def find_barred_offer() -> Found:
    """Plays a strict ``gym_vector_env`` until a table's agent is asked about a discard of a
    kind its missed win bars. Checks every info on the way: ``missed_wins`` is the engine's
    (``observation_json``), names only tiles the agent passed a win on in the hand, and is
    empty on the agent's turn (after its live-wall draw). Returns the env, the table, the
    tile, the other tables' actions for the next step and the last info."""
    env = majiang.gym_vector_env(
        "hongkong", num_envs=TABLE_COUNT, options=OPTIONS, opponents="efficient", seed=1, illegal_action="raise"
    )
    _, info = env.reset()
    passed: List[Set[str]] = [set() for _ in range(TABLE_COUNT)]
    for _ in range(MAX_STEPS):
        actions = np.zeros(TABLE_COUNT, dtype=np.int64)
        found: Optional[Tuple[int, str]] = None
        for t in range(TABLE_COUNT):
            obs = observation(env, t)
            missed = info["missed_wins"][t]
            assert missed == obs.get("missed_wins", []), (t, missed, obs)
            assert set(missed) <= passed[t], (t, missed, passed[t])
            if obs["on_offer"] is None:
                assert missed == [], "the agent's live-wall draw lifts the bar"
            if found is None and obs["on_offer"] is not None and obs["on_offer"][1] in missed:
                found = (t, obs["on_offer"][1])
            actions[t] = choose(obs, np.flatnonzero(env.tables.mask[t]), passed[t])
        if found is not None:
            return env, found[0], found[1], actions, info
        _, _, terminated, _, info = env.step(actions)
        for t in np.flatnonzero(terminated):
            passed[t] = set()
    raise AssertionError(f"no table met a barred discard within {MAX_STEPS} steps")


def test_gym_vector_env_info_names_the_missed_win_and_the_refusal() -> None:
    """The agent passed a win on a kind and is asked about another tile of it: its info's
    ``missed_wins`` names the tile, the mask has no win, the strict mode's error and the
    substituting mode's ``illegal_reason`` give the engine's reason, and nothing moves when
    the strict mode refuses."""
    env, t, tile, actions, info = find_barred_offer()
    assert tile in info["missed_wins"][t] and info["_missed_wins"].all()
    assert not env.action_masks()[t, ACT["win"]]
    lenient = env.clone()
    lenient.illegal_action = "substitute"
    actions[t] = ACT["win"]
    before = [env.tables.tables.observation_json(i) for i in range(TABLE_COUNT)]
    with pytest.raises(ValueError, match=rf"actions: table {t}: \d+ is not legal now: player 0 cannot .*{MISSED}"):
        env.step(actions)
    assert [env.tables.tables.observation_json(i) for i in range(TABLE_COUNT)] == before
    *_, info = lenient.step(actions)
    assert info["illegal_action"][t] and MISSED in info["illegal_reason"][t]
    assert info["_illegal_reason"].tolist() == info["illegal_action"].tolist()
    # The agent's win was substituted by its first legal action: the other tables' choices
    # were legal and carry no reason.
    assert [i for i in range(TABLE_COUNT) if info["illegal_reason"][i] is not None] == [t]


def test_vector_env_and_sb3_adapter_report_the_missed_win() -> None:
    """The same moment through the layers under the Gymnasium env: ``VectorEnv``'s
    ``missed_wins`` array (by column) and ``missed_win_tiles``, its ``refusal`` and its step's
    error; the SB3 adapter's per-table infos."""
    env, t, tile, actions, _ = find_barred_offer()
    vector = env.tables
    column = majiang.tile_index(tile)
    assert vector.missed_wins[t, column] and vector.missed_win_tiles()[t] == observation(env, t)["missed_wins"]
    assert [bool(row.any()) for row in vector.missed_wins] == [bool(m) for m in vector.missed_win_tiles()]
    reason = vector.refusal(t, ACT["win"])
    assert reason is not None and reason.startswith("player 0 cannot ") and MISSED in reason
    assert vector.refusal(t, ACT["pass"]) is None
    actions[t] = ACT["win"]
    with pytest.raises(ValueError, match=re.escape(f"actions: table {t}: {reason}")):
        vector.step(actions.copy())
    core = SB3Core(env.clone())
    core.venv.illegal_action = "substitute"
    *_, infos = core.step(actions)
    assert infos[t]["illegal_action"] is True and infos[t]["illegal_reason"] == reason
    for i, row in enumerate(infos):
        assert row["missed_wins"] == core.venv.tables.missed_win_tiles()[i]
        assert ("illegal_reason" in row) == (i == t)


@pytest.mark.parametrize("case", TABLES, ids=table_id)
def test_vector_envs_give_the_engines_reason(case: Any) -> None:
    """An illegal action in every rule set and table size: the engine's reason (what
    ``refusal`` says, asked before the step) is in ``VectorEnv.step``'s error, the strict
    Gymnasium vector env's error, the substituting one's ``illegal_reason`` and the SB3
    adapter's infos; the reset infos carry ``missed_wins``."""
    rules, options = case
    vector = majiang.VectorEnv(rules, 3, options=options, seed=2, opponents="easy", seat=1)
    vector.reset()
    bad = np.array([int(np.flatnonzero(~m)[0]) for m in vector.mask])
    reasons = [vector.refusal(t, int(bad[t])) for t in range(3)]
    assert all(r is not None and r.startswith("player 1 cannot ") for r in reasons), reasons
    with pytest.raises(ValueError, match=re.escape(f"actions: table 0: {reasons[0]}")):
        vector.step(bad)

    def made(mode: str) -> MajiangVectorEnv:
        return majiang.gym_vector_env(
            rules, num_envs=3, options=options, seed=2, opponents="easy", seat=1, illegal_action=mode
        )

    strict, lenient = made("raise"), made("substitute")
    _, info = strict.reset()
    lenient.reset()
    assert info["missed_wins"].tolist() == [[], [], []] and info["_missed_wins"].all()
    assert np.array_equal(strict.tables.obs, vector.obs)
    with pytest.raises(ValueError, match=re.escape(f"actions: table 0: {bad[0]} is not legal now: {reasons[0]}")):
        strict.step(bad)
    core = SB3Core(made("substitute"))
    core.reset()
    assert [row["missed_wins"] for row in core.reset_infos] == [[], [], []]
    *_, info = lenient.step(bad)
    assert info["illegal_action"].all() and info["illegal_reason"].tolist() == reasons
    *_, infos = core.step(bad)
    assert [row["illegal_reason"] for row in infos] == reasons
    # A legal step has no reasons.
    legal = np.array([int(np.flatnonzero(m)[0]) for m in lenient.action_masks()])
    *_, info = lenient.step(legal)
    assert "illegal_reason" not in info and not info["illegal_action"].any()
    assert len(info["missed_wins"]) == 3


def test_vector_refusal_refuses_bad_input() -> None:
    vector = majiang.VectorEnv("hongkong", 2, seed=1)
    with pytest.raises(RuntimeError, match="reset"):
        vector.refusal(0, 0)
    vector.reset()
    with pytest.raises(ValueError, match="t: there is no table 2"):
        vector.refusal(2, 0)
    with pytest.raises(ValueError, match="action"):
        vector.refusal(0, 10_000)
    with pytest.raises(ValueError, match="action"):
        vector.refusal(0, -1)

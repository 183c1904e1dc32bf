"""Hong Kong's missed win and the last discard (RULES.md §1 and §4), as the Python side meets
them: the mask leaves the barred win (or the claim) out, ``Table.missed_wins`` and the
observation's ``missed_wins`` say which tiles are barred, and a refused action carries the
engine's reason through ``Table`` and through the environments.

The situations are found as the Rust test kit finds them (``majiang_testkit::scenario``): seeded
Hong Kong matches (no flowers, no minimum, so wins are offered often) where every chair plays
the ``efficient`` bot except that every win offered on a discard or a robbed kong is passed.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import pytest

import majiang

OPTIONS = {"flowers": False, "min_fan": 0}
HANDS = 4
MISSED = "you passed this tile's win: wait for your next draw"
LAST = "the last discard may be claimed only to win"
# Enough decisions for any four-hand match: a cap so a bug cannot loop for ever.
MAX_DECISIONS = 5000


def numbers(table: majiang.Table) -> Dict[str, int]:
    """The first action number of each section of the table's layout (win, pass, pung…)."""
    return {name: start for name, start, _ in table.action_layout()}


def observation(table: majiang.Table, chair: int) -> Dict[str, Any]:
    result: Dict[str, Any] = json.loads(table.observation_json(chair))
    return result


Found = Tuple[int, str]


def play_passing(
    table: majiang.Table, met: Callable[[majiang.Table], Optional[Found]]
) -> Tuple[Optional[Found], List[Found]]:
    """Plays ``table``'s match, each decision the ``efficient`` bot's except that every win
    offered on a discard or a robbed kong is passed, until ``met`` names a chair and a tile
    before a decision. Returns what ``met`` found (``None`` if the match ended first) and the
    wins passed, as (chair, tile on offer)."""
    act = numbers(table)
    passed: List[Found] = []
    for _ in range(MAX_DECISIONS):
        if table.is_over():
            return None, passed
        if table.awaiting_deal():
            table.deal_next()
            continue
        found = met(table)
        if found is not None:
            return found, passed
        chair = table.to_act()
        assert chair is not None
        legal = table.legal(chair)
        if act["win"] in legal and act["pass"] in legal:
            on_offer = observation(table, chair)["on_offer"]
            passed.append((chair, on_offer[1]))
            table.act(chair, act["pass"])
        else:
            # The bot plays this chair's decision (and its own next ones, if it decides again
            # before anyone else: after a claim or a kong), then the chair is the caller's again.
            table.set_bot(chair, "efficient", 0)
            table.play_bots()
            table.set_bot(chair, None)
    raise AssertionError(f"the match did not end within {MAX_DECISIONS} decisions")


def barred_on_offer(table: majiang.Table) -> Optional[Found]:
    """A chair whose missed win bars the tile on offer now (someone else's discard)."""
    for chair in range(table.players):
        obs = observation(table, chair)
        offer = obs["on_offer"]
        if offer is not None and offer[0] != chair and offer[1] in table.missed_wins(chair):
            return chair, offer[1]
    return None


def last_discard_win(table: majiang.Table) -> Optional[Found]:
    """A chair offered the last discard (the live wall empty) as a win."""
    win = numbers(table)["win"]
    for chair in table.actors():
        obs = observation(table, chair)
        if obs["on_offer"] is not None and obs["live_wall"] == 0 and win in table.legal(chair):
            return chair, obs["on_offer"][1]
    return None


def search(met: Callable[[majiang.Table], Optional[Found]]) -> Tuple[majiang.Table, Found, List[Found]]:
    for seed in range(40):
        table = majiang.Table("hongkong", OPTIONS, seed, HANDS)
        found, passed = play_passing(table, met)
        if found is not None:
            return table, found, passed
    raise AssertionError("no match among 40 seeds meets the situation")


def test_missed_win_through_table() -> None:
    table, (chair, tile), passed = search(barred_on_offer)
    act = numbers(table)
    # The bar comes from a win this chair passed on that tile kind.
    assert (chair, tile) in passed
    # The observation carries it, and the mask and the legal list leave the win out.
    obs = observation(table, chair)
    assert tile in obs["missed_wins"] and obs["missed_wins"] == table.missed_wins(chair)
    assert "win" not in [a if isinstance(a, str) else next(iter(a)) for a in obs["legal_actions"]]
    assert act["win"] not in table.legal(chair)
    planes = np.zeros((table.planes, majiang.TILE_KINDS), dtype=np.uint8)
    mask = np.zeros(table.action_space, dtype=np.uint8)
    table.observe(chair, planes, mask)
    assert mask[act["win"]] == 0
    # Asked anyway, the engine says why, and nothing changes.
    assert MISSED in (table.refusal(chair, act["win"]) or "")
    before = table.log_jsonl()
    with pytest.raises(ValueError, match=MISSED):
        table.act(chair, act["win"])
    assert table.log_jsonl() == before


def test_missed_win_is_a_house_rule() -> None:
    """With ``missed_win`` off, the seeds that meet the bar above play through with none: a
    win passed leaves nothing barred."""
    table, _, _ = search(barred_on_offer)
    off = majiang.Table("hongkong", {**OPTIONS, "missed_win": False}, table.seed, HANDS)
    found, passed = play_passing(off, lambda t: next(((c, "") for c in range(t.players) if t.missed_wins(c)), None))
    assert found is None and passed, "wins were passed and none was barred"


def test_last_discard_is_offered_only_as_a_win() -> None:
    table, (chair, tile), _ = search(last_discard_win)
    act = numbers(table)
    obs = observation(table, chair)
    discarder = obs["on_offer"][0]
    assert obs["live_wall"] == 0 and obs["on_offer"][1] == tile
    # Every chair asked may only win or pass.
    for c in table.actors():
        assert set(table.legal(c)) <= {act["win"], act["pass"]}, table.legal_json(c)
    assert act["win"] in table.legal(chair)
    # A pung of it is refused with the rule's reason, for every other chair.
    before = table.log_jsonl()
    for c in range(table.players):
        if c == discarder:
            continue
        assert LAST in (table.refusal(c, act["pung"]) or "")
        with pytest.raises(ValueError, match=LAST):
            table.act(c, act["pung"])
    assert table.log_jsonl() == before


def drive_env(raw: Any, met: Callable[[majiang.Table], Optional[Found]]) -> Optional[Found]:
    """:func:`play_passing` through a PettingZoo environment: passes are the env's steps, the
    bot's decisions are played on ``raw.table`` (the env has no bot chairs) and the env then
    picks up who decides next."""
    table = raw.table
    act = numbers(table)
    for _ in range(MAX_DECISIONS):
        if table.is_over() or not raw.agents:
            return None
        if table.awaiting_deal():
            table.deal_next()
            raw._select()
            continue
        found = met(table)
        if found is not None:
            return found
        agent = raw.agent_selection
        mask = raw.observe(agent)["action_mask"]
        if mask[act["win"]] and mask[act["pass"]]:
            raw.step(act["pass"])
        else:
            chair = raw.chair_of(agent)
            table.set_bot(chair, "efficient", 0)
            table.play_bots()
            table.set_bot(chair, None)
            raw._select()
    raise AssertionError(f"the match did not end within {MAX_DECISIONS} decisions")


def env_search(met: Callable[[majiang.Table], Optional[Found]]) -> Tuple[Any, Found]:
    raw = majiang.raw_env(rules="hongkong", options=OPTIONS, hands=HANDS)
    for seed in range(40):
        raw.reset(seed=seed)
        found = drive_env(raw, met)
        if found is not None:
            return raw, found
    raise AssertionError("no match among 40 seeds meets the situation")


def test_aec_env_tells_the_missed_win() -> None:
    """The barred agent's mask has no win and ``missed_wins(agent)`` names the tile."""
    raw, (chair, tile) = env_search(barred_on_offer)
    agent = next(a for a in raw.possible_agents if raw.chair_of(a) == chair)
    win = numbers(raw.table)["win"]
    assert tile in raw.missed_wins(agent)
    assert raw.missed_wins(agent) == observation(raw.table, chair)["missed_wins"]
    assert raw.observe(agent)["action_mask"][win] == 0


def test_aec_env_refuses_a_pung_of_the_last_discard_with_the_reason() -> None:
    """The agent offered the last discard may only win or pass; its pung is refused with the
    engine's reason in the env's error, and nothing changes."""
    raw, _ = env_search(last_discard_win)
    agent = raw.agent_selection
    act = numbers(raw.table)
    mask = raw.observe(agent)["action_mask"]
    assert np.flatnonzero(mask).tolist() == [act["win"], act["pass"]]
    before = raw.table.log_jsonl()
    with pytest.raises(ValueError, match=f"is not legal for {agent} .*{LAST}"):
        raw.step(act["pung"])
    assert raw.table.log_jsonl() == before and raw.agent_selection == agent


def test_gym_env_gives_the_engines_reason() -> None:
    """The Gymnasium environment's strict mode raises with the engine's reason, the
    substituting mode puts it in ``info["illegal_reason"]``, and every info has the agent's
    ``missed_wins`` (the engine's, for its chair)."""
    strict = majiang.gym_env(rules="hongkong", options=OPTIONS, opponents="easy", seed=3, illegal_action="raise")
    lenient = majiang.gym_env(rules="hongkong", options=OPTIONS, opponents="easy", seed=3)
    _, info = strict.reset()
    lenient.reset()
    assert info["missed_wins"] == strict.table.missed_wins(strict.seat) == []
    illegal = int(np.flatnonzero(~strict.action_masks())[0])
    reason = strict.table.refusal(strict.seat, illegal)
    assert reason is not None and reason.startswith(f"player {strict.seat} cannot ")
    before = strict.table.log_jsonl()
    with pytest.raises(ValueError, match=re.escape(f"is not legal now: {reason}; legal: ")):
        strict.step(illegal)
    assert strict.table.log_jsonl() == before
    *_, info = lenient.step(illegal)
    assert info["illegal_action"] is True and info["illegal_reason"] == reason
    assert info["missed_wins"] == lenient.table.missed_wins(lenient.seat)
    legal = int(np.flatnonzero(lenient.action_masks())[0])
    *_, info = lenient.step(legal)
    assert info["illegal_action"] is False and "illegal_reason" not in info


def test_parallel_env_gives_the_engines_reason() -> None:
    env = majiang.parallel_env(rules="hongkong", options=OPTIONS)
    obs, _ = env.reset(seed=1)
    agent = next(a for a in env.agents if obs[a]["action_mask"].any())
    illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=rf"is not legal for {agent} now: player \d cannot "):
        env.step({agent: illegal})


def bot_choice(table: majiang.Table, chair: int) -> int:
    """The action number the ``efficient`` bot would play for ``chair`` now, read from the log
    of a copy where it plays (the table itself is unchanged)."""
    probe = table.clone()
    start = len(probe.log_jsonl().splitlines())
    probe.set_bot(chair, "efficient", 0)
    probe.play_bots()
    line = json.loads(probe.log_jsonl().splitlines()[start])
    assert line["kind"] == "action" and line["player"] == chair, line

    def key(v: Any) -> str:
        return json.dumps(v, sort_keys=True)

    choices = {key(json.loads(j)): a for a, j in zip(table.legal(chair), table.legal_json(chair))}
    return choices[key(line["action"])]


def test_gym_env_info_names_the_missed_win() -> None:
    """The Gymnasium agent (chair 0, the ``efficient`` bot's play but passing every win; the
    opponents ``efficient``) meets a discard its missed win bars: ``info["missed_wins"]`` names
    it, the mask has no win, and the strict mode's error (the substituting mode's
    ``info["illegal_reason"]``) gives the engine's reason."""
    env = majiang.gym_env(
        rules="hongkong", options=OPTIONS, opponents="efficient", hands=HANDS, seat=0, illegal_action="raise"
    )
    for seed in range(60):
        _, info = env.reset(seed=seed)
        act = numbers(env.table)
        done = False
        while not done:
            offer = observation(env.table, 0)["on_offer"]
            if offer is not None and offer[0] != 0 and offer[1] in info["missed_wins"]:
                assert info["missed_wins"] == env.table.missed_wins(0)
                assert not env.action_masks()[act["win"]] and not info["action_mask"][act["win"]]
                lenient = env.clone()
                lenient.illegal_action = "substitute"
                with pytest.raises(ValueError, match=MISSED):
                    env.step(act["win"])
                *_, info = lenient.step(act["win"])
                assert info["illegal_action"] is True and MISSED in info["illegal_reason"]
                return
            mask = env.action_masks()
            passing = mask[act["win"]] and mask[act["pass"]]
            action = act["pass"] if passing else bot_choice(env.table, 0)
            _, _, done, _, info = env.step(action)
    raise AssertionError("no match among 60 seeds meets the missed win")

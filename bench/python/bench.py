"""majiang from Python against its peers, measured in the same run, with the ratios.

Times are CPU time of this process (time.process_time: one core, not the wall clock of a
shared machine). Each measurement runs in ``--rounds`` rounds of ``--seconds``, the peers
interleaved round by round (riichienv, then each rule set, then again), and the report gives
the median and the best (min time, max rate) of the rounds, so a burst of load on a shared
machine moves both sides alike.

1. Four random agents, the same loop for both: every step, every player who must decide gets
   its encoded observation and legal-action mask, and picks a random legal action. riichienv
   (riichi, ``RiichiEnv``: ``Observation.encode()`` and ``.mask()``, all deciders per step)
   against ``majiang.Table`` (``observe()`` into numpy planes and mask, one decider per step).
2. The vector environment: N tables stepped in Rust per call, random legal actions chosen in
   numpy, observations and masks written every step: hands per second on one core.
3. ``majiang.score`` against pymahjonggb's ``MahjongFanCalculator`` (Chinese Official rules) on
   the same hand, a valid win on both sides (``111m333m555m777m9m`` + ``9m`` by discard: Hong
   Kong 10 fan, Chinese Official 89), the answers checked before timing.

A peer that cannot be imported is skipped with a message (``pip install riichienv
pymahjonggb``, in a venv of their own). Usage: ``python bench/python/bench.py [--seconds S]
[--rounds R] [--tables N]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

import numpy as np

import majiang


def rounds_of(run, seconds):
    """One round: calls ``run()`` (which returns units of work done) for ``seconds`` of CPU
    time; units per second."""
    done, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        done += run()
    return done / (time.process_time() - start)


def riichienv_hand_fn():
    try:
        import riichienv
    except ImportError:
        print("riichienv: skipped (not installed: pip install riichienv)")
        return None
    env = riichienv.RiichiEnv(seed=1)
    rng = random.Random(1)
    stats = {"hands": 0, "steps": 0, "decisions": 0}

    def hand():
        obs = env.reset(seed=rng.randrange(1 << 30))
        while not env.done():
            actions = {}
            for pid, o in obs.items():
                o.encode()
                o.mask()
                actions[pid] = rng.choice(o.legal_actions())
                stats["decisions"] += 1
            obs = env.step(actions)
            stats["steps"] += 1
        stats["hands"] += 1
        return 1

    return hand, stats


def majiang_hand_fn(rules, options=None):
    rng = random.Random(1)
    probe = majiang.Table(rules, options, 0, 1)
    obs = np.zeros((probe.planes, majiang.TILE_KINDS), dtype=np.uint8)
    mask = np.zeros(probe.action_space, dtype=np.uint8)
    stats = {"hands": 0, "steps": 0, "decisions": 0}

    def hand():
        t = majiang.Table(rules, options, rng.randrange(1 << 62), 1)
        while True:
            p = t.to_act()
            if p is None:
                break
            t.observe(p, obs, mask)
            legal = np.flatnonzero(mask)
            t.act(p, int(legal[rng.randrange(len(legal))]))
            stats["steps"] += 1
            stats["decisions"] += 1
        stats["hands"] += 1
        return 1

    return hand, stats


def summary(rates):
    """(median, best) of per-round rates."""
    return statistics.median(rates), max(rates)


def hands_comparison(seconds, rounds):
    runners = {}
    peer = riichienv_hand_fn()
    if peer:
        runners["riichienv"] = peer
    for r in majiang.RULES:
        runners[r] = majiang_hand_fn(r)
    rates = {name: [] for name in runners}
    for _ in range(rounds):
        for name, (run, _) in runners.items():
            rates[name].append(rounds_of(run, seconds))
    result = {}
    for name, (_, stats) in runners.items():
        med, best = summary(rates[name])
        result[name] = (med, best)
        label = "riichienv (riichi)" if name == "riichienv" else f"majiang.Table {name}"
        print(f"{label:26}: median {med:7.0f} hands/s, best {best:7.0f}  "
              f"({stats['steps'] / stats['hands']:.0f} steps, {stats['decisions'] / stats['hands']:.0f} decisions a hand)")
    if "riichienv" in result:
        pm, pb = result["riichienv"]
        for r in majiang.RULES:
            m, b = result[r]
            print(f"   ratio majiang {r} / riichienv: median {m / pm:.1f}x, best {b / pb:.1f}x")
    return result


def vector_hands(rules, tables, seconds):
    venv = majiang.VectorEnv(rules, tables, seed=1)
    venv.reset()
    rng = np.random.default_rng(1)
    for _ in range(50):  # warm up
        venv.step(venv.random_actions(rng))
    start_hands, start = venv.hands_finished, time.process_time()
    steps = 0
    while time.process_time() - start < seconds:
        venv.step(venv.random_actions(rng))
        steps += 1
    dt = time.process_time() - start
    rate = (venv.hands_finished - start_hands) / dt
    print(f"majiang.VectorEnv {rules:9} ({tables} tables): {rate:8.0f} hands/s, "
          f"{steps * tables / dt / 1e6:.2f} M table-steps/s")
    return rate


SCORE_REQUEST = {
    "rules": "hongkong",
    "concealed": "111m333m555m777m9m",
    "melds": [],
    "winning_tile": "9m",
    "win": "discard",
    "discarder": "south",
    "seat": "west",
    "dealer": "east",
    "prevailing_wind": "east",
    "flowers": [],
    "situation": [],
}
GB_HAND = ("W1", "W1", "W1", "W3", "W3", "W3", "W5", "W5", "W5", "W7", "W7", "W7", "W9")


def per_call_us(fn, seconds):
    n, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(1000):
            fn()
        n += 1000
    return (time.process_time() - start) / n * 1e6


def score_timing(seconds, rounds):
    answer = majiang.score(SCORE_REQUEST)
    assert answer["valid"] and answer["total"] >= 3, answer
    ours_call = lambda: majiang.score(SCORE_REQUEST)  # noqa: E731
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        print("pymahjonggb: skipped (not installed: pip install pymahjonggb)")
        MahjongFanCalculator = None

    def theirs_call():
        return MahjongFanCalculator(
            pack=(), hand=GB_HAND, winTile="W9", flowerCount=0, isSelfDrawn=False,
            is4thTile=False, isAboutKong=False, isWallLast=False, seatWind=2, prevalentWind=0,
        )

    if MahjongFanCalculator is not None:
        fans = theirs_call()
        assert sum(f for f, _ in fans) >= 8, fans
    ours, theirs = [], []
    for _ in range(rounds):
        ours.append(per_call_us(ours_call, seconds))
        if MahjongFanCalculator is not None:
            theirs.append(per_call_us(theirs_call, seconds))
    om, ob = statistics.median(ours), min(ours)
    print(f"majiang.score (hongkong, {answer['total']} fan): median {om:6.2f} µs, best {ob:6.2f} µs a call")
    if not theirs:
        return om, None
    tm, tb = statistics.median(theirs), min(theirs)
    print(f"pymahjonggb MahjongFanCalculator ({sum(f for f, _ in fans)} fan): median {tm:6.2f} µs, best {tb:6.2f} µs a call")
    return om, tm


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per round")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds per measurement")
    ap.add_argument("--tables", type=int, default=512, help="tables in the vector environment")
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, load {os.getloadavg()[0]:.1f}")
    print("\n1. four random agents, observation + mask + random legal action for every decider")
    hands_comparison(args.seconds, args.rounds)
    print("\n2. vector environment, random masked actions chosen in numpy, one core")
    for r in majiang.RULES:
        vector_hands(r, args.tables, args.seconds)
    print("\n3. score, a valid win on both sides")
    mine, theirs = score_timing(min(args.seconds, 1.0), args.rounds)
    if theirs:
        print(f"   ratio pymahjonggb time / majiang time (medians): {theirs / mine:.2f}x")


if __name__ == "__main__":
    main()

"""majiang from Python against its peers, measured in the same run, with the ratios.

Times are CPU time of this process (time.process_time: one core, not the wall clock of a
shared machine).

1. Four random agents, one step per Python call (the loop shape of riichienv's own example):
   riichienv (riichi, its ``RiichiEnv``) against ``majiang.Table`` (Hong Kong and the others),
   whole hands, the acting seat's observation and legal actions fetched every step.
2. The vector environment: N tables stepped in Rust per call, random legal actions chosen in
   numpy, observations and masks written every step: hands per second on one core.
3. ``majiang.score`` against pymahjonggb's ``MahjongFanCalculator`` (Chinese Official rules) on
   a winning hand, microseconds per call.

A peer that cannot be imported is skipped with a message (``pip install riichienv
pymahjonggb``). Usage: ``python bench/python/bench.py [--seconds S] [--tables N]``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

import numpy as np

import majiang


def timed(run, seconds):
    """Calls ``run()`` (which returns units of work done) until ``seconds`` pass; units/s."""
    done, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        done += run()
    return done / (time.process_time() - start)


def riichienv_hands(seconds):
    try:
        import riichienv
    except ImportError:
        print("riichienv: skipped (not installed: pip install riichienv)")
        return None
    env = riichienv.RiichiEnv(seed=1)
    rng = random.Random(1)
    stats = {"hands": 0, "steps": 0}

    def hand():
        obs = env.reset(seed=rng.randrange(1 << 30))
        while not env.done():
            actions = {pid: rng.choice(o.legal_actions()) for pid, o in obs.items()}
            obs = env.step(actions)
            stats["steps"] += 1
        stats["hands"] += 1
        return 1

    rate = timed(hand, seconds)
    print(f"riichienv {riichienv.__name__}: {rate:8.0f} hands/s  ({stats['steps'] / stats['hands']:.0f} steps a hand)")
    return rate


def majiang_hands(rules, seconds, options=None):
    rng = random.Random(1)
    probe = majiang.Table(rules, options, 0, 1)
    obs = np.zeros((probe.planes, majiang.TILE_KINDS), dtype=np.uint8)
    mask = np.zeros(majiang.ACTION_SPACE, dtype=np.uint8)
    stats = {"hands": 0, "steps": 0}

    def hand():
        t = majiang.Table(rules, options, rng.randrange(1 << 62), 1)
        while True:
            p = t.to_act()
            if p is None:
                break
            t.observe(p, obs, mask)
            t.act(p, rng.choice(t.legal(p)))
            stats["steps"] += 1
        stats["hands"] += 1
        return 1

    rate = timed(hand, seconds)
    print(f"majiang.Table {rules:9}: {rate:8.0f} hands/s  ({stats['steps'] / stats['hands']:.0f} steps a hand)")
    return rate


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
    "concealed": "123m456p789s234s9m",
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


def per_call_us(fn, seconds):
    n, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(1000):
            fn()
        n += 1000
    return (time.process_time() - start) / n * 1e6


def score_timing(seconds):
    ours = per_call_us(lambda: majiang.score(SCORE_REQUEST), seconds)
    print(f"majiang.score (hongkong, chow hand by discard): {ours:6.2f} µs a call")
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        print("pymahjonggb: skipped (not installed: pip install pymahjonggb)")
        return ours, None
    hand = ("W1", "W2", "W3", "B4", "B5", "B6", "T7", "T8", "T9", "T2", "T3", "T4", "W9")

    def theirs_call():
        MahjongFanCalculator(
            pack=(), hand=hand, winTile="W9", flowerCount=0, isSelfDrawn=False,
            is4thTile=False, isAboutKong=False, isWallLast=False, seatWind=2, prevalentWind=0,
        )

    theirs = per_call_us(theirs_call, seconds)
    print(f"pymahjonggb MahjongFanCalculator (same hand): {theirs:6.2f} µs a call")
    return ours, theirs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    ap.add_argument("--tables", type=int, default=512, help="tables in the vector environment")
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, load {os.getloadavg()[0]:.1f}")
    print("\n1. four random agents, one step per Python call")
    peer = riichienv_hands(args.seconds)
    ours = {r: majiang_hands(r, args.seconds) for r in majiang.RULES}
    if peer:
        for r, rate in ours.items():
            print(f"   ratio majiang {r} / riichienv: {rate / peer:.1f}x (target >= 5x)")
    print("\n2. vector environment, random masked actions chosen in numpy, one core")
    for r in majiang.RULES:
        vector_hands(r, args.tables, args.seconds)
    print("   target >= 20 000 hands/s")
    print("\n3. score")
    mine, theirs = score_timing(min(args.seconds, 2.0))
    if theirs:
        print(f"   ratio pymahjonggb time / majiang time: {theirs / mine:.1f}x (target > 1x)")


if __name__ == "__main__":
    main()

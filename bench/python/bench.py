"""majiang from Python against its peers, measured in the same run, interleaved, with the ratios.

Times are CPU time of this process (time.process_time: one core, not the wall clock of a
shared machine). Every measurement runs in ``--rounds`` rounds of ``--seconds``; within a
round the contenders take turns (the peer, then each of ours, then the next round), so a burst
of load moves both sides alike. The report gives the median and the best round of each (the
best is the min time, the max rate) and the machine's load average before and after.

1. ``majiang.score`` against pymahjonggb's ``MahjongFanCalculator`` (Chinese Official rules) on
   the same hands, each a valid win on both sides (answers checked before timing), printed side
   by side with the ratio pymahjonggb time / majiang time.
2. The PettingZoo AEC loop with four random legal agents against riichienv's ``RiichiEnv``
   (riichi) in the same loop, each in its fastest realistic setting (riichienv: one hand a game,
   ``game_mode=0``, and ``skip_mjai_logging=True``; majiang: ``copy_observations=False``): every
   decision gets its encoded observation and legal-action mask
   (riichienv: ``Observation.encode()`` and ``.mask()`` for every decider; majiang:
   ``env.last()``, whose observation holds the planes and the mask) and a random legal action
   (riichienv: from its legal list; majiang: from the mask's nonzero entries; both with
   Python's ``random.Random``). For reference,
   the same loop on ``majiang.Table`` directly (``observe`` into numpy arrays, a random action
   from the legal list), without PettingZoo.
3. ``majiang.VectorEnv`` (self-play, ``--tables`` tables, one core), actions chosen in numpy
   from the mask: a masked argmax policy (fixed positive logits per table, as a network's
   output would be given, times the mask, argmax over each row) and a masked random policy
   (fresh random scores in [1, 2) every step, times the mask, argmax); for reference, random
   actions from the compact legal lists (``random_actions``). The numpy policy's own cost a
   table is printed too.

At the end the run prints its figures again as Markdown tables to paste into
docs/contributors/python-speed.md (``--markdown FILE`` writes them to a file too): the
settings, the load average before and after, each contender's median and best round, and two
ratios to the peer — of the medians, and the median (with the range) of the per-round ratios,
each round's contenders having run back to back, which a changing load moves least.

A peer that cannot be imported is skipped with a message. The peers go in a venv of the bench's
own: ``python3 -m venv bench/python/.venv; bench/python/.venv/bin/pip install riichienv
pymahjonggb numpy pettingzoo gymnasium`` and majiang's wheel (``bash scripts/release-python.sh``,
then ``pip install target/wheels/majiang-*.whl``). Usage: ``python bench/python/bench.py
[--seconds S] [--rounds R] [--tables N] [--only score,aec,vector] [--baseline MODULE]
[--markdown FILE]``. ``--baseline`` names an older build of majiang importable under another name (a wheel unpacked with its ``majiang`` folder renamed, e.g.
``majiang_before``, on ``PYTHONPATH``): its rows join every section's interleaved rounds, so a
change is measured against what it replaced in one run. ``count.py`` beside this file counts
the instructions a ``score`` call takes on both sides (valgrind), which the load does not move.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import random
import statistics
import sys
import time
from typing import Callable, Dict, List, Tuple

import numpy as np

import majiang


def rate_of(run: Callable[[], int], seconds: float) -> float:
    """Calls ``run()`` (which returns units of work done) for ``seconds`` of CPU time; units per
    CPU second."""
    done, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        done += run()
    return done / (time.process_time() - start)


def interleaved(runners: Dict[str, Callable[[], int]], seconds: float, rounds: int) -> Dict[str, List[float]]:
    """Rates of every runner, ``rounds`` rounds, the runners taking turns within each round."""
    rates: Dict[str, List[float]] = {name: [] for name in runners}
    for _ in range(rounds):
        for name, run in runners.items():
            rates[name].append(rate_of(run, seconds))
    return rates


def load() -> str:
    return "load average {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


#: The Markdown summary, filled by the sections and printed at the end.
MARKDOWN: List[str] = []


def round_ratios(ours: List[float], theirs: List[float]) -> List[float]:
    """Per-round ratios of two contenders' rates (ours / theirs), the rounds being paired: in
    each round both ran back to back, so a load that changes between rounds cancels."""
    return [a / b for a, b in zip(ours, theirs)]


def ratio_cell(ratios: List[float]) -> str:
    """``median (min–max)`` of per-round ratios."""
    return f"{statistics.median(ratios):.2f}× ({min(ratios):.2f}–{max(ratios):.2f})"


# --- 1. score ------------------------------------------------------------------------------

#: The hands: (name, majiang's request fields, pymahjonggb's arguments). Seat west, east
#: dealer and prevailing wind, won on south's discard, no flowers, on both sides.
SCORE_HANDS = [
    (
        "pure straight, full flush",
        {"concealed": "123456789m234m9m", "winning_tile": "9m"},
        {"hand": ("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "W2", "W3", "W4", "W9"), "winTile": "W9"},
    ),
    (
        "all pungs, one suit",
        {"concealed": "111m333m555m777m9m", "winning_tile": "9m"},
        {"hand": ("W1", "W1", "W1", "W3", "W3", "W3", "W5", "W5", "W5", "W7", "W7", "W7", "W9"), "winTile": "W9"},
    ),
    (
        "seven pairs",
        {"concealed": "1122m3344p5566s5z", "winning_tile": "5z"},
        {"hand": ("W1", "W1", "W2", "W2", "B3", "B3", "B4", "B4", "T5", "T5", "T6", "T6", "J1"), "winTile": "J1"},
    ),
    (
        "thirteen orphans",
        {"concealed": "19m19p19s1234567z", "winning_tile": "1m"},
        {"hand": ("W1", "W9", "B1", "B9", "T1", "T9", "F1", "F2", "F3", "F4", "J1", "J2", "J3"), "winTile": "W1"},
    ),
    (
        "half flush, dragon pung melded",
        {
            "concealed": "123456789m1z",
            "winning_tile": "1z",
            "melds": [{"kind": "pung", "tiles": "555z", "from": "north"}],
        },
        {"pack": (("PENG", "J1", 1),), "hand": ("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "F1"), "winTile": "F1"},
    ),
]


def score_request(fields: dict) -> dict:
    request = {
        "rules": "hongkong",
        "melds": [],
        "win": "discard",
        "discarder": "south",
        "seat": "west",
        "dealer": "east",
        "prevailing_wind": "east",
        "flowers": [],
        "situation": [],
    }
    request.update(fields)
    return request


def gb_arguments(fields: dict) -> dict:
    args = {
        "pack": (),
        "flowerCount": 0,
        "isSelfDrawn": False,
        "is4thTile": False,
        "isAboutKong": False,
        "isWallLast": False,
        "seatWind": 2,
        "prevalentWind": 0,
    }
    args.update(fields)
    return args


def score_section(seconds: float, rounds: int, baseline=None) -> None:
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        MahjongFanCalculator = None
        print("pymahjonggb: skipped (not installed: pip install pymahjonggb)")
    calls = 200
    runners: Dict[str, Callable[[], int]] = {}
    totals = {}
    for name, ours, theirs in SCORE_HANDS:
        request = score_request(ours)
        answer = majiang.score(request)
        assert answer["valid"], (name, answer)
        totals[name] = [f"{answer['total']} fan"]

        def ours_run(request=request) -> int:
            score = majiang.score
            for _ in range(calls):
                score(request)
            return calls

        runners[f"majiang {name}"] = ours_run
        if baseline is not None:

            def before_run(request=request, score=baseline.score) -> int:
                for _ in range(calls):
                    score(request)
                return calls

            runners[f"baseline {name}"] = before_run
        if MahjongFanCalculator is not None:
            args = gb_arguments(theirs)
            fans = MahjongFanCalculator(**args)
            total = sum(f for f, _ in fans)
            assert total >= 8, (name, fans)
            totals[name].append(f"{total} fan")

            def theirs_run(args=args) -> int:
                for _ in range(calls):
                    MahjongFanCalculator(**args)
                return calls

            runners[f"pymahjonggb {name}"] = theirs_run
    rates = interleaved(runners, seconds, rounds)
    us = {k: (1e6 / statistics.median(v), 1e6 / max(v)) for k, v in rates.items()}
    MARKDOWN.extend(
        [
            "",
            "`score` against pymahjonggb, µs a call (median / min of the rounds):",
            "",
            "| hand | majiang | pymahjonggb | pymahjonggb time / ours: medians | per round, median (range) |",
            "|---|---:|---:|---:|---:|",
        ]
    )
    for name, _, _ in SCORE_HANDS:
        om, ob = us[f"majiang {name}"]
        row = f"| {name} | {om:.2f} / {ob:.2f} |"
        if f"pymahjonggb {name}" in us:
            tm, tb = us[f"pymahjonggb {name}"]
            per_round = round_ratios(rates[f"majiang {name}"], rates[f"pymahjonggb {name}"])
            row += f" {tm:.2f} / {tb:.2f} | {tm / om:.2f}× | {ratio_cell(per_round)} |"
        else:
            row += " — | — | — |"
        MARKDOWN.append(row)
    print(f"{'hand':32} {'majiang µs (median/best)':>26} {'pymahjonggb µs':>18} {'ratio theirs/ours':>19}  totals (HK, GB)")
    for name, _, _ in SCORE_HANDS:
        om, ob = us[f"majiang {name}"]
        line = f"{name:32} {om:13.2f} / {ob:5.2f}"
        if f"pymahjonggb {name}" in us:
            tm, tb = us[f"pymahjonggb {name}"]
            line += f" {tm:9.2f} / {tb:5.2f} {tm / om:10.2f}x / {tb / ob:4.2f}x"
        print(f"{line}  {', '.join(totals[name])}")
        if f"baseline {name}" in us:
            bm, bb = us[f"baseline {name}"]
            print(f"{'  baseline (before)':32} {bm:13.2f} / {bb:5.2f}   before/now {bm / om:.2f}x / {bb / ob:.2f}x")


# --- 2. AEC loop ---------------------------------------------------------------------------


def riichienv_hand() -> Tuple[Callable[[], int], dict] | None:
    try:
        import riichienv
    except ImportError:
        print("riichienv: skipped (not installed: pip install riichienv)")
        return None
    # Its fastest realistic setting: one hand a game (YON_IKKYOKU, as majiang's one-hand
    # matches; also its default) and no mjai log kept (skip_mjai_logging: ~19 % more hands/s
    # in a 3-second trial here; the log is for replays, not for training), every decider's
    # observation still encoded and masked.
    env = riichienv.RiichiEnv(seed=1, game_mode=0, skip_mjai_logging=True)
    print(
        f"riichienv {importlib.metadata.version('riichienv')}: RiichiEnv(game_mode=0 (YON_IKKYOKU), "
        "skip_mjai_logging=True), Observation.encode() + .mask() for every decider"
    )
    rng = random.Random(1)
    stats = {"hands": 0, "decisions": 0}

    def hand() -> int:
        obs = env.reset(seed=rng.randrange(1 << 30))
        while not env.done():
            actions = {}
            for pid, o in obs.items():
                o.encode()
                o.mask()
                actions[pid] = rng.choice(o.legal_actions())
                stats["decisions"] += 1
            obs = env.step(actions)
        stats["hands"] += 1
        return 1

    return hand, stats


def aec_hand(rules: str, mod=majiang) -> Tuple[Callable[[], int], dict]:
    """One-hand matches of the PettingZoo env (``majiang.env``, wrapped as users get it, with
    observations refilled in place: ``copy_observations=False``)."""
    env = mod.env(rules=rules, seed=1, copy_observations=False)
    rng = random.Random(1)
    stats = {"hands": 0, "decisions": 0}

    def hand() -> int:
        env.reset()
        decisions = 0
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            decisions += 1
        stats["decisions"] += decisions
        stats["hands"] += 1
        return 1

    return hand, stats


def table_hand(rules: str) -> Tuple[Callable[[], int], dict]:
    """The same loop on ``majiang.Table`` without PettingZoo: observe into numpy arrays, a
    random action from the legal list."""
    rng = random.Random(1)
    probe = majiang.Table(rules, None, 0, 1)
    obs = np.zeros((probe.planes, majiang.TILE_KINDS), dtype=np.uint8)
    mask = np.zeros(probe.action_space, dtype=np.uint8)
    stats = {"hands": 0, "decisions": 0}

    def hand() -> int:
        t = majiang.Table(rules, None, rng.randrange(1 << 62), 1)
        while True:
            p = t.to_act()
            if p is None:
                break
            t.observe(p, obs, mask)
            t.act(p, rng.choice(t.legal(p)))
            stats["decisions"] += 1
        stats["hands"] += 1
        return 1

    return hand, stats


def aec_section(seconds: float, rounds: int, baseline=None) -> None:
    contenders = {}
    peer = riichienv_hand()
    if peer:
        contenders["riichienv RiichiEnv (riichi)"] = peer
    for r in majiang.RULES:
        contenders[f"majiang.env {r}"] = aec_hand(r)
        if baseline is not None:
            contenders[f"baseline.env {r}"] = aec_hand(r, baseline)
    contenders["majiang.Table hongkong (no PettingZoo)"] = table_hand("hongkong")
    rates = interleaved({k: v[0] for k, v in contenders.items()}, seconds, rounds)
    peer_rates = rates.get("riichienv RiichiEnv (riichi)")
    MARKDOWN.extend(
        [
            "",
            "Four random agents, an observation and mask every decision, hands/s (median / best round):",
            "",
            "| loop | hands/s | decisions a hand | ratio to riichienv: medians / bests | per round, median (range) |",
            "|---|---:|---:|---:|---:|",
        ]
    )
    for name, (_, stats) in contenders.items():
        med, best = statistics.median(rates[name]), max(rates[name])
        row = f"| {name} | {med:,.0f} / {best:,.0f} | {stats['decisions'] / max(stats['hands'], 1):.0f} |"
        if peer_rates and not name.startswith("riichienv"):
            row += f" {med / statistics.median(peer_rates):.2f}× / {best / max(peer_rates):.2f}× |"
            row += f" {ratio_cell(round_ratios(rates[name], peer_rates))} |"
        else:
            row += " — | — |"
        MARKDOWN.append(row.replace(",", " "))
    for name, (_, stats) in contenders.items():
        med, best = statistics.median(rates[name]), max(rates[name])
        line = f"{name:40}: median {med:7.0f} hands/s, best {best:7.0f}"
        line += f"  ({stats['decisions'] / max(stats['hands'], 1):.0f} decisions a hand)"
        if peer_rates and not name.startswith("riichienv"):
            line += f"  ratio {med / statistics.median(peer_rates):.1f}x / {best / max(peer_rates):.1f}x"
        print(line)


# --- 3. VectorEnv --------------------------------------------------------------------------


def vector_run(rules: str, tables: int, policy: str, mod=majiang) -> Callable[[], int]:
    venv = mod.VectorEnv(rules, tables, seed=1)
    venv.reset()
    rng = np.random.default_rng(1)
    scores = np.empty((tables, venv.action_space), dtype=np.float32)
    logits = rng.random((tables, venv.action_space), dtype=np.float32) + 1.0

    def masked_argmax() -> np.ndarray:
        np.multiply(logits, venv.mask, out=scores)
        return scores.argmax(axis=1)

    def masked_random() -> np.ndarray:
        # Scores in [1, 2): an illegal action (0 after the mask) never wins the argmax.
        rng.random(dtype=np.float32, out=scores)
        np.add(scores, 1.0, out=scores)
        np.multiply(scores, venv.mask, out=scores)
        return scores.argmax(axis=1)

    choose = {
        "argmax": masked_argmax,
        "random": masked_random,
        "legal": lambda: venv.random_actions(rng),
    }[policy]
    for _ in range(50):  # past the first hands' start
        venv.step(choose())

    def run() -> int:
        before = venv.hands_finished
        for _ in range(20):
            venv.step(choose())
        return venv.hands_finished - before

    return run


def vector_section(seconds: float, rounds: int, tables: int, baseline=None) -> None:
    policies = {
        "argmax": "masked argmax of policy logits",
        "random": "masked random scores, argmax",
        "legal": "random from the legal lists",
    }
    runners = {}
    for policy in policies:
        for r in majiang.RULES:
            runners[f"{r} {policy}"] = vector_run(r, tables, policy)
            if baseline is not None:
                runners[f"{r} {policy} baseline"] = vector_run(r, tables, policy, baseline)
    rates = interleaved(runners, seconds, rounds)
    MARKDOWN.extend(
        [
            "",
            f"`VectorEnv`, {tables} tables in self-play, hands/s (median / best round):",
            "",
            "| policy | " + " | ".join(majiang.RULES) + " |",
            "|---|" + "---:|" * len(majiang.RULES),
        ]
    )
    for policy, label in policies.items():
        cells = []
        for r in majiang.RULES:
            v = rates[f"{r} {policy}"]
            cells.append(f"{statistics.median(v):,.0f} / {max(v):,.0f}".replace(",", " "))
        MARKDOWN.append(f"| {label} | " + " | ".join(cells) + " |")
    for name, v in rates.items():
        rules, policy, *before = name.split()
        who = "baseline" if before else "majiang"
        print(f"{who + '.VectorEnv':17} {rules:9} ({tables} tables), {policies[policy]:31}: median "
              f"{statistics.median(v):7.0f} hands/s, best {max(v):7.0f}")
    # What the numpy policies cost alone (no step), a table.
    venv = majiang.VectorEnv("hongkong", tables, seed=1)
    venv.reset()
    rng = np.random.default_rng(2)
    scores = np.empty((tables, venv.action_space), dtype=np.float32)
    logits = rng.random((tables, venv.action_space), dtype=np.float32) + 1.0

    def argmax_only() -> int:
        np.multiply(logits, venv.mask, out=scores)
        scores.argmax(axis=1)
        return tables

    def random_only() -> int:
        rng.random(dtype=np.float32, out=scores)
        np.add(scores, 1.0, out=scores)
        np.multiply(scores, venv.mask, out=scores)
        scores.argmax(axis=1)
        return tables

    alone = interleaved({"argmax": argmax_only, "random": random_only}, seconds / 4, rounds)
    for policy, v in alone.items():
        print(f"   numpy policy alone, {policies[policy]:31}: median {1e6 / statistics.median(v):5.2f} µs a table")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per round and contender")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds per measurement")
    ap.add_argument("--tables", type=int, default=512, help="tables in the vector environment")
    ap.add_argument("--only", default="score,aec,vector", help="sections to run (comma-separated)")
    ap.add_argument("--baseline", help="an older majiang build's module name, measured beside this one")
    ap.add_argument("--markdown", help="also write the Markdown summary to this file")
    args = ap.parse_args()
    baseline = None
    if args.baseline:
        baseline = importlib.import_module(args.baseline)
    only = set(args.only.split(","))
    before = load()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, {before}")
    if "score" in only:
        print("\n1. score: the same valid wins, majiang (Hong Kong) against pymahjonggb (Chinese Official)")
        score_section(args.seconds, args.rounds, baseline)
    if "aec" in only:
        print("\n2. four random agents, observation + mask + a random legal action every decision")
        aec_section(args.seconds, args.rounds, baseline)
    if "vector" in only:
        print("\n3. vector environment, self-play, actions chosen in numpy, one core")
        vector_section(args.seconds, args.rounds, args.tables, baseline)
    after = load()
    print(f"\n{after}")
    versions = [f"majiang {importlib.metadata.version('majiang')}", f"python {sys.version.split()[0]}", f"numpy {np.__version__}"]
    for peer in ("riichienv", "pymahjonggb"):
        try:
            versions.append(f"{peer} {importlib.metadata.version(peer)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{peer} not installed")
    header = [
        f"`python bench/python/bench.py {' '.join(sys.argv[1:])}`".replace(" `", "`"),
        f"({started}; {', '.join(versions)}; {os.cpu_count()} CPUs; CPU time of one core,",
        f"{args.rounds} interleaved rounds of {args.seconds:g} s per contender; {before} before,",
        f"{after} after; riichienv with `game_mode=0`, `skip_mjai_logging=True`, majiang's AEC env",
        "with `copy_observations=False`)",
    ]
    text = "\n".join(header + MARKDOWN)
    print("\n== Markdown summary (paste into docs/contributors/python-speed.md) ==\n")
    print(text)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as out:
            out.write(text + "\n")


if __name__ == "__main__":
    main()

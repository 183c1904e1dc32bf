"""Behaviour cloning from bot self-play, evaluated against the random policy.

For each rule set: record the `normal` (efficient) bot playing every chair, fit a small masked
MLP to its decisions (numpy only), then play the same matches (same deals, chairs and
opponents' seeds) with the clone and with the random policy against `normal` bots, seated in
every chair in turn, and print the paired difference of chips per match with its 95 % interval.

    python crates/majiang-py/examples/behaviour_cloning.py                # every rule set
    python crates/majiang-py/examples/behaviour_cloning.py --rules hangzhou --hands 400

The defaults (800 hands, 4 epochs, 1,000 paired matches) are the figures of
docs/research/baselines.md: 0.6 to 1.5 CPU-minutes a rule set.
"""

from __future__ import annotations

import argparse
import time

import majiang
import majiang.baselines as bl


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="*", default=list(majiang.RULES))
    parser.add_argument("--bot", default="normal", help="the bot to imitate (a level or name)")
    parser.add_argument("--hands", type=int, default=800, help="self-play hands recorded")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--matches", type=int, default=1000, help="paired evaluation matches")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for rules in args.rules:
        start = time.process_time()
        data = bl.record(rules, bot=args.bot, hands=args.hands, seed=args.seed)
        recorded = time.process_time()
        policy = bl.BehaviourCloning.fit(data, epochs=args.epochs, seed=args.seed)
        trained = time.process_time()
        result = bl.compare(policy, bl.random_policy, rules, matches=args.matches, seed=10**6 + args.seed)
        done = time.process_time()
        verdict = "beats random" if result.significant else "not significant"
        print(
            f"{rules:9} decisions {len(data['action']):6}  accuracy {policy.accuracy(data):.3f}  "
            f"clone {result.policy_mean:+8.2f}  random {result.baseline_mean:+8.2f}  "
            f"difference {result.mean:+.2f} ± {result.half_width:.2f} ({verdict})  "
            f"CPU s: record {recorded - start:.0f}, fit {trained - recorded:.0f}, evaluate {done - trained:.0f}"
        )


if __name__ == "__main__":
    main()

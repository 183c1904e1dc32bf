"""Masked PPO (numpy only) against the project's bots, evaluated against the random policy.

For each rule set: optionally fit the behaviour-cloning policy (`--warm-start bc`, the default:
800 hands of the `normal` bot's self-play, 4 epochs, as examples/behaviour_cloning.py), then
train a masked actor-critic with PPO in chair 0 against `--opponents` bots through the Gymnasium
vector env (tables and bots stepped in Rust; the deal rotates hand by hand), then play the same
matches (same deals, chairs and opponents' seeds) with the agent and with the random policy
against `normal` bots, seated in every chair in turn, and print the paired difference of chips per match with its 95 % interval. With a warm start it also
compares the agent with its behaviour-cloning start the same way (what PPO adds).

    python crates/majiang-py/examples/masked_ppo.py                      # every rule set
    python crates/majiang-py/examples/masked_ppo.py --rules hangzhou --updates 20
    python crates/majiang-py/examples/masked_ppo.py --warm-start none     # PPO from scratch
    python crates/majiang-py/examples/masked_ppo.py --seeds 0 1 2 3 4     # five runs a rule set

With several ``--seeds`` every rule set is trained and evaluated once per seed (the seed sets
the behaviour-cloning data and fit, the PPO run and the evaluation's deals) and a table
follows: each column's mean over the seeds, its standard deviation across them, and how many
seeds' own 95 % interval is above zero. The evaluation seats the agent in every chair in turn
(:func:`majiang.baselines.compare`).

The figures of docs/research/baselines.md: the defaults with ``--seeds 0 1 2 3 4`` (BC warm
start, 50 updates: about 0.7 CPU-minutes a run), and from scratch (one run) `--warm-start none --lr 3e-4 --entropy 0.01 --updates 120` (Yangzhou
`--updates 300`): 2 to 5 CPU-minutes a rule set, with OPENBLAS_NUM_THREADS=1.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Dict, List, Optional

import majiang
import majiang.baselines as bl
import majiang.ppo as ppo


def run(rules: str, seed: int, args: argparse.Namespace) -> Dict[str, float]:
    """One training and evaluation of ``rules`` with ``seed``; its figures."""
    start = time.process_time()
    start_policy: Optional[bl.BehaviourCloning] = None
    if args.warm_start == "bc":
        data = bl.record(rules, bot="normal", hands=args.bc_hands, seed=seed)
        start_policy = bl.BehaviourCloning.fit(data, epochs=args.bc_epochs, seed=seed)
    fitted = time.process_time()

    def progress(stats: ppo.Stats) -> None:
        if int(stats["update"]) % args.every == 0 or int(stats["update"]) == args.updates:
            print(
                f"  {rules} seed {seed} update {int(stats['update']):4}  steps {int(stats['steps']):8}  "
                f"chips/hand {stats['chips']:+7.2f}  entropy {stats['entropy']:.3f}  "
                f"kl {stats['approx_kl']:.4f}  clipped {stats['clip_fraction']:.3f}  "
                f"value loss {stats['value_loss']:.3f}  CPU s {time.process_time() - start:.0f}",
                flush=True,
            )

    agent, history = ppo.train(
        rules,
        updates=args.updates,
        num_envs=args.num_envs,
        rollout=args.rollout,
        opponents=args.opponents,
        seed=seed,
        warm_start=start_policy,
        value_warmup=args.value_warmup if start_policy is not None else 0,
        log=progress,
        lr=args.lr,
        entropy_coef=args.entropy,
    )
    trained = time.process_time()
    result = bl.compare(agent, bl.random_policy, rules, matches=args.matches, seed=10**6 + seed)
    evaluated = time.process_time()
    verdict = "beats random" if result.significant else "not significant"
    print(
        f"{rules:9} seed {seed} steps {int(history[-1]['steps']):8}  PPO {result.policy_mean:+8.2f}  "
        f"random {result.baseline_mean:+8.2f}  difference {result.mean:+.2f} ± {result.half_width:.2f} "
        f"({verdict})  CPU s: BC {fitted - start:.0f}, PPO {trained - fitted:.0f}, "
        f"evaluate {evaluated - trained:.0f}, total {evaluated - start:.0f}",
        flush=True,
    )
    figures = {
        "steps": float(history[-1]["steps"]),
        "ppo": result.policy_mean,
        "random": result.baseline_mean,
        "diff": result.mean,
        "diff_half": result.half_width,
    }
    if start_policy is not None:
        added = bl.compare(agent, start_policy, rules, matches=args.matches, seed=10**6 + seed)
        print(
            f"{rules:9} seed {seed} PPO vs its BC start: PPO {added.policy_mean:+8.2f}  BC {added.baseline_mean:+8.2f}  "
            f"difference {added.mean:+.2f} ± {added.half_width:.2f}  "
            f"CPU s {time.process_time() - evaluated:.0f}",
            flush=True,
        )
        figures.update({"bc": added.baseline_mean, "added": added.mean, "added_half": added.half_width})
    figures["cpu_min"] = (time.process_time() - start) / 60
    return figures


def spread(values: List[float]) -> str:
    """``mean ± standard deviation`` across seeds (just the value for one seed)."""
    if len(values) == 1:
        return f"{values[0]:+.2f}"
    return f"{statistics.mean(values):+.2f} ± {statistics.stdev(values):.2f}"


def summary(results: Dict[str, List[Dict[str, float]]]) -> None:
    """The table over seeds: means, standard deviations across seeds, seeds significant."""
    warm = all("added" in r for runs in results.values() for r in runs)
    print("\n| rule set | seeds | PPO (chips/match) | random | PPO − random | seeds above 0 |"
          + (" PPO − its BC start | seeds above 0 |" if warm else "") + " CPU min a run |")
    print("|---|---:|---:|---:|---:|---:|" + ("---:|---:|" if warm else "") + "---:|")
    for rules, runs in results.items():
        above = sum(r["diff"] - r["diff_half"] > 0 for r in runs)
        row = (
            f"| {rules} | {len(runs)} | {spread([r['ppo'] for r in runs])} | {spread([r['random'] for r in runs])} "
            f"| {spread([r['diff'] for r in runs])} | {above} of {len(runs)} |"
        )
        if warm:
            added_above = sum(r["added"] - r["added_half"] > 0 for r in runs)
            added_below = sum(r["added"] + r["added_half"] < 0 for r in runs)
            row += f" {spread([r['added'] for r in runs])} | {added_above} of {len(runs)} ({added_below} below) |"
        row += f" {statistics.mean(r['cpu_min'] for r in runs):.1f} |"
        print(row)
    print("(mean ± standard deviation across seeds; 'seeds above 0': runs whose own 95 % interval of the paired difference is above zero)")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", nargs="*", default=list(majiang.RULES))
    parser.add_argument("--updates", type=int, default=50, help="PPO updates")
    parser.add_argument("--num-envs", type=int, default=64, help="tables stepped together")
    parser.add_argument("--rollout", type=int, default=64, help="decisions per table per update")
    parser.add_argument("--opponents", default="normal", help="the bots trained against (easy, normal, hard)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of a single run")
    parser.add_argument("--seeds", type=int, nargs="*", help="several runs a rule set, one per seed, and a table over them")
    parser.add_argument("--lr", type=float, default=1e-4, help="the actor's Adam step")
    parser.add_argument("--entropy", type=float, default=0.003, help="entropy bonus")
    parser.add_argument("--warm-start", choices=["bc", "none"], default="bc")
    parser.add_argument("--value-warmup", type=int, default=3, help="first updates training only the critic")
    parser.add_argument("--bc-hands", type=int, default=800)
    parser.add_argument("--bc-epochs", type=int, default=4)
    parser.add_argument("--matches", type=int, default=1000, help="paired evaluation matches")
    parser.add_argument("--every", type=int, default=5, help="print progress every so many updates")
    args = parser.parse_args()
    seeds: List[int] = args.seeds or [args.seed]
    results: Dict[str, List[Dict[str, float]]] = {}
    for rules in args.rules:
        results[rules] = [run(rules, seed, args) for seed in seeds]
    if len(seeds) > 1:
        summary(results)


if __name__ == "__main__":
    main()

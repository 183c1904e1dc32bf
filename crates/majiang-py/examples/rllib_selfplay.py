"""Self-play PPO with Ray RLlib: one shared masked policy for every seat, env runners in
several processes of a Ray cluster (a local one by default).

    pip install "ray[rllib]" torch          # beside the majiang wheel
    python examples/rllib_selfplay.py --env-runners 4 --iterations 5
    python examples/rllib_selfplay.py --address auto ...   # on a running cluster's head node

The environment is :class:`majiang.rllib.MultiAgentMajiang` (RLlib's multi-agent API: only the
deciding agents observed; claims on a discard asked together); the policy is RLlib's
action-masking module (``ActionMaskingTorchRLModule``: illegal actions' logits at -inf). Every
agent maps to one shared policy, so this is self-play. docs/python.md says how to start a
real cluster.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env

from majiang.rllib import MultiAgentMajiang


def build(config: PPOConfig) -> Any:
    """The algorithm: ``build_algo`` where Ray has it (``build`` is deprecated there), else ``build``."""
    return config.build_algo() if hasattr(config, "build_algo") else config.build()


def config(rules: str, env_runners: int, seed: int) -> PPOConfig:
    """PPO over ``rules`` with ``env_runners`` env-runner processes, one shared policy."""
    register_env("majiang", lambda cfg: MultiAgentMajiang(cfg))
    return (
        PPOConfig()
        .environment("majiang", env_config={"rules": rules, "seed": seed, "reward_scale": 0.05})
        .env_runners(num_env_runners=env_runners, num_envs_per_env_runner=1)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, *args, **kwargs: "shared")
        .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config={"head_fcnet_hiddens": [256]}))
        .training(train_batch_size_per_learner=2000, minibatch_size=250, num_epochs=2, lr=3e-4)
        .debugging(seed=seed)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="hongkong")
    parser.add_argument("--env-runners", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--address", default=None, help="a running Ray cluster (auto, or HEAD:6379); default: start a local one")
    parser.add_argument(
        "--num-cpus",
        type=int,
        default=None,
        help="CPUs a local cluster offers (default: one per env runner and one for the learner, "
        "whatever the machine has: Ray waits for a CPU per env runner)",
    )
    args = parser.parse_args()
    if args.address is None:
        ray.init(num_cpus=args.num_cpus or args.env_runners + 1, include_dashboard=False)
    else:
        ray.init(address=args.address)
    algo = build(config(args.rules, args.env_runners, args.seed))
    started = time.time()
    for i in range(args.iterations):
        result = algo.train()
        runners = result.get("env_runners", {})
        learner = result.get("learners", {}).get("shared", {})
        returns = runners.get("agent_episode_returns_mean", {})
        print(
            f"iteration {i + 1}: {runners.get('num_env_steps_sampled_lifetime', '?')} env steps, "
            f"{runners.get('num_episodes_lifetime', '?')} matches, "
            f"mean return by agent {', '.join(f'{a} {r:+.3f}' for a, r in sorted(returns.items()))} "
            f"(zero-sum: the shared policy plays every seat), "
            f"entropy {learner.get('entropy', float('nan')):.3f}, "
            f"policy loss {learner.get('policy_loss', float('nan')):+.4f}, "
            f"{time.time() - started:.0f} s",
            flush=True,
        )
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()

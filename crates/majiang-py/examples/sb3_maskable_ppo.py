"""sb3-contrib's MaskablePPO on the Gymnasium env: the env's `action_masks()` is what it reads.

Needs `pip install sb3-contrib` (it pulls in PyPI's torch with its CUDA libraries, about 5 GB;
the project's test venv does not install it, so `tests/test_gym.py::test_sb3_maskable_ppo`
skips there). The numpy PPO in `majiang.ppo` (examples/masked_ppo.py) is the baseline whose
figures docs/research/baselines.md gives; this script shows the env in the tool most researchers already use.

    python crates/majiang-py/examples/sb3_maskable_ppo.py --rules hongkong --steps 20000
"""

from __future__ import annotations

import argparse

import majiang


def main() -> None:
    parser = argparse.ArgumentParser(description="sb3-contrib's MaskablePPO on the majiang Gymnasium env")
    parser.add_argument("--rules", default="hongkong")
    parser.add_argument("--opponents", default="easy", help="easy, normal or hard bots")
    parser.add_argument("--steps", type=int, default=20_000, help="environment steps to learn")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--episodes", type=int, default=200, help="evaluation episodes")
    args = parser.parse_args()

    from sb3_contrib import MaskablePPO  # imported here: the package is optional

    env = majiang.gym_env(
        rules=args.rules, opponents=args.opponents, observation="flat", reward_scale=0.1
    )
    model = MaskablePPO("MlpPolicy", env, n_steps=1024, batch_size=256, seed=args.seed, verbose=1)
    model.learn(args.steps)

    total = 0.0
    obs, _ = env.reset(seed=args.seed + 10**6)
    for _ in range(args.episodes):
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            total += float(reward)
            done = terminated or truncated
        obs, _ = env.reset()
    print(f"{args.rules}: mean scaled reward per episode {total / args.episodes:+.3f}")


if __name__ == "__main__":
    main()

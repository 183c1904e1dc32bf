"""A short typed script: `mypy --strict` checks it against the package's stubs (the test suite
runs it when mypy is installed)."""

from __future__ import annotations

import numpy as np

import majiang
from majiang.gymnasium_env import MajiangGymEnv


def first_legal(env: MajiangGymEnv) -> int:
    mask: np.ndarray = env.action_masks()
    return int(np.flatnonzero(mask)[0])


def main() -> float:
    env = majiang.gym_env(rules="hongkong", opponents="easy", seed=1)
    obs, info = env.reset()
    total = 0.0
    done = False
    while not done:
        obs, reward, done, truncated, info = env.step(first_legal(env))
        total += reward
    table: majiang.Table = env.table
    names: list[str] = [table.action_name(a) for a in range(3)]
    request = {"rules": "hongkong", "concealed": "111m333m555m777m9m", "winning_tile": "9m", "win": "self_draw"}
    result: dict[str, object] = majiang.score(request) if names else {}
    size: int = majiang.action_space("hongkong")
    aec = majiang.env(rules="hangzhou")
    aec.reset(seed=3)
    venv = majiang.gym_vector_env("hongkong", num_envs=2, opponents="easy")
    venv.reset(seed=0)
    masks: np.ndarray = venv.action_masks()
    return total + size + len(result) + int(masks.sum())


if __name__ == "__main__":
    print(main())

"""Stable-Baselines3 over the Rust vector environment: an SB3 ``VecEnv`` whose tables and bots
are all stepped in Rust (no per-table Python environment, no subprocesses).

>>> from sb3_contrib import MaskablePPO                                # doctest: +SKIP
>>> venv = majiang.sb3.vec_env("hongkong", num_envs=64, seed=1)        # doctest: +SKIP
>>> MaskablePPO("MultiInputPolicy", venv).learn(10_000)                # doctest: +SKIP

:func:`vec_env` needs ``stable-baselines3`` (which needs ``torch``); the stepping itself,
:class:`SB3Core`, does not, so its behaviour is tested everywhere. SB3's own
``make_vec_env("majiang/HongKong-v0", n_envs=…)`` works too (one Python environment per
table, through ``gym.make``); this adapter is the fast path.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from .gym_vector import MajiangVectorEnv

Indices = Union[None, int, Iterable[int]]


class SB3Core:
    """SB3's ``VecEnv`` protocol over :class:`~majiang.gym_vector.MajiangVectorEnv`, without
    importing SB3: ``reset() -> obs``, ``step_async``/``step_wait -> (obs, rewards float32,
    dones bool, infos list)``, each finished table's last view in
    ``infos[i]["terminal_observation"]`` (SB3's auto-reset convention), the agent's
    ``infos[i]["missed_wins"]`` and, for a substituted illegal action,
    ``infos[i]["illegal_reason"]`` (as the Gymnasium environments give them; ``reset_infos``
    carry ``missed_wins`` too), ``action_masks()`` and
    ``env_method("action_masks")`` for sb3-contrib's ``MaskablePPO``, ``seed``,
    ``get_attr``/``set_attr``/``env_method`` over the one vector environment."""

    def __init__(self, venv: MajiangVectorEnv) -> None:
        self.venv = venv
        self.num_envs = venv.num_envs
        self.observation_space = venv.single_observation_space
        self.action_space = venv.single_action_space
        self.render_mode = None
        self.reset_infos: List[Dict[str, Any]] = [{} for _ in range(self.num_envs)]
        self._next_seed: Optional[int] = None
        self._actions: Optional[np.ndarray] = None

    def _indices(self, indices: Indices) -> List[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, (int, np.integer)):
            return [int(indices)]
        return [int(i) for i in indices]

    def seed(self, seed: Optional[int] = None) -> Sequence[Optional[int]]:
        """The next ``reset`` restarts every table's stream from ``seed`` (one stream per
        table, as in the vector environment)."""
        self._next_seed = None if seed is None else int(seed)
        return [None if seed is None else int(seed) + i for i in range(self.num_envs)]

    def reset(self) -> Any:
        seed = self._next_seed
        # SB3 2.x keeps the seeds given to its own VecEnv.seed in _seeds.
        seeds = getattr(self, "_seeds", None)
        if seed is None and seeds and seeds[0] is not None:
            seed = int(seeds[0])
        self._next_seed = None
        if seeds is not None:
            self._seeds = [None] * self.num_envs
        obs, info = self.venv.reset(seed=seed)
        self.reset_infos = [{"missed_wins": info["missed_wins"][i]} for i in range(self.num_envs)]
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> Tuple[Any, np.ndarray, np.ndarray, List[Dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_wait: call step_async first")
        actions, self._actions = self._actions, None
        obs, rewards, terminated, truncated, info = self.venv.step(actions)
        dones = terminated | truncated
        infos: List[Dict[str, Any]] = [{} for _ in range(self.num_envs)]
        illegal = info.get("illegal_action")
        reasons = info.get("illegal_reason")
        final = info.get("final_obs")
        missed = info["missed_wins"]
        for i in range(self.num_envs):
            infos[i]["missed_wins"] = missed[i]
            if illegal is not None:
                infos[i]["illegal_action"] = bool(illegal[i])
                if reasons is not None and illegal[i]:
                    infos[i]["illegal_reason"] = reasons[i]
            if dones[i]:
                infos[i]["terminal_observation"] = final[i] if final is not None else None
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs, rewards.astype(np.float32), dones, infos

    def step(self, actions: np.ndarray) -> Tuple[Any, np.ndarray, np.ndarray, List[Dict[str, Any]]]:
        self.step_async(actions)
        return self.step_wait()

    def action_masks(self) -> np.ndarray:
        """Every table's legal actions, ``(num_envs, n)`` bool."""
        return self.venv.action_masks()

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: Indices = None) -> List[Any]:
        value = getattr(self.venv, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Indices = None) -> None:
        if self._indices(indices) != list(range(self.num_envs)):
            raise ValueError(f"set_attr: {attr_name} is shared by all tables; set it for all of them")
        setattr(self.venv, attr_name, value)

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or hasattr(self.venv, attr_name)

    def env_method(self, method_name: str, *method_args: Any, indices: Indices = None, **method_kwargs: Any) -> List[Any]:
        """``env_method("action_masks")`` gives each table's mask (what sb3-contrib asks for);
        another method is called once on the vector environment and its answer repeated."""
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.venv.action_masks()
            return [masks[i] for i in rows]
        answer = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        return [answer for _ in rows]

    def env_is_wrapped(self, wrapper_class: Any, indices: Indices = None) -> List[bool]:
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[np.ndarray]:
        return []


def vec_env(
    rules: str = "hongkong",
    num_envs: int = 8,
    options: Optional[Dict[str, Any]] = None,
    seed: Optional[int] = None,
    opponents: str = "normal",
    seat: int = 0,
    illegal_action: str = "substitute",
    illegal_penalty: float = 0.0,
    reward_scale: float = 1.0,
) -> Any:
    """An SB3 ``VecEnv`` of ``num_envs`` tables, the agent in chair ``seat`` against
    ``opponents`` at every one, stepped in Rust (see :func:`majiang.gym_vector_env` for the
    arguments). Dict observations (``MultiInputPolicy``), masks for ``MaskablePPO``."""
    from stable_baselines3.common.vec_env import VecEnv

    class MajiangSB3VecEnv(SB3Core, VecEnv):  # type: ignore[misc, valid-type]
        """SB3's ``VecEnv`` over the Rust vector environment (see :class:`SB3Core`)."""

        def __init__(self, venv: MajiangVectorEnv) -> None:
            SB3Core.__init__(self, venv)
            VecEnv.__init__(self, venv.num_envs, venv.single_observation_space, venv.single_action_space)

        # VecEnv.__init__ resets these; SB3Core's versions are the ones used.
        reset = SB3Core.reset
        seed = SB3Core.seed
        step = SB3Core.step

    venv = MajiangVectorEnv(
        rules=rules,
        num_envs=num_envs,
        options=options,
        seed=seed,
        opponents=opponents,
        seat=seat,
        illegal_action=illegal_action,
        illegal_penalty=illegal_penalty,
        reward_scale=reward_scale,
        observation="dict",
    )
    return MajiangSB3VecEnv(venv)

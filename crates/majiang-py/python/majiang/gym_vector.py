"""A Gymnasium vector environment: one chair per table against the project's bots, every
table and every bot stepped in Rust."""

from __future__ import annotations

import copy
from typing import Any, Dict, Mapping, Optional, Tuple, Union

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as GymnasiumVectorEnv
from gymnasium.vector.utils import batch_space

from ._checks import check_finite, check_seed, seed_or_entropy
from ._core import TILE_KINDS
from .gymnasium_env import ILLEGAL_ACTIONS, OBSERVATION_FORMATS
from .vector import VectorEnv

Observations = Union[Dict[str, np.ndarray], np.ndarray]


class MajiangVectorEnv(GymnasiumVectorEnv):  # type: ignore[type-arg]
    """``num_envs`` tables under one rule set; at each, the agent plays chair ``seat`` and the
    bot ``opponents`` (a level: ``easy``, ``normal``, ``hard``, or a bot's name) the other
    chairs. Each episode is one hand: one in which the agent never decides is skipped.

    Observations, actions, illegal actions (``illegal_action``, ``illegal_penalty``) and
    ``reward_scale`` are as in :class:`majiang.gymnasium_env.MajiangGymEnv`, batched: the strict
    mode's ``ValueError`` names the table and gives the engine's reason, the substituting mode
    puts that reason in ``infos["illegal_reason"]`` (where ``infos["_illegal_reason"]``, the
    tables whose action was illegal; the key is there only when one was). Every ``reset`` and
    ``step`` info has ``infos["missed_wins"]``: per table, the tiles the agent may not win on
    now (Hong Kong's missed win, as the single environment's ``info["missed_wins"]``). Finished
    hands are replaced at once (``autoreset_mode`` ``SAME_STEP``): the returned observation of
    a finished table is its next hand's first, and ``infos["final_obs"]`` holds the last view
    of the finished one (where ``infos["_final_obs"]``). ``action_masks()`` gives the legal
    actions of every table, ``(num_envs, n)`` bool.

    ``reset(seed=s)`` restarts every table's stream of deals from ``s`` (an int; table ``t``
    has its own stream); without a seed ever given, the constructor's ``seed``; without that
    either (``None``, the default), a random one (every run differs, as Gymnasium's
    convention has it). The agent's chair ``seat`` is fixed; the deal rotates hand by hand
    (table ``t``'s ``k``-th hand is dealt by chair ``k mod n``), so every seat's share of
    deals is the same. Stepping runs in Rust without the GIL. :meth:`clone` (and
    ``copy.deepcopy``) copies the tables in their exact state.
    """

    metadata: Dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        rules: str = "hongkong",
        num_envs: int = 8,
        options: Optional[Mapping[str, Any]] = None,
        seed: Optional[int] = None,
        opponents: str = "normal",
        seat: int = 0,
        illegal_action: str = "substitute",
        illegal_penalty: float = 0.0,
        reward_scale: float = 1.0,
        observation: str = "dict",
    ) -> None:
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action: {illegal_action!r} is not one of {', '.join(ILLEGAL_ACTIONS)}")
        if observation not in OBSERVATION_FORMATS:
            raise ValueError(f"observation: {observation!r} is not one of {', '.join(OBSERVATION_FORMATS)}")
        if not isinstance(opponents, str):
            raise TypeError("opponents: one bot level or name for every other chair")
        reward_scale = check_finite(reward_scale, "reward_scale")
        illegal_penalty = check_finite(illegal_penalty, "illegal_penalty")
        self.tables = VectorEnv(rules, num_envs, options, seed_or_entropy(seed), opponents, seat)
        self.num_envs = num_envs
        self.seat = seat
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.reward_scale = float(reward_scale)
        self.observation_format = observation
        n = self.tables.action_space
        planes = self.tables.obs.shape[1:]
        single: spaces.Space[Any]
        if observation == "flat":
            single = spaces.Box(0, 255, (planes[0] * planes[1],), dtype=np.uint8)
        else:
            single = spaces.Dict(
                {
                    "observation": spaces.Box(0, 255, planes, dtype=np.uint8),
                    "action_mask": spaces.Box(0, 1, (n,), dtype=np.bool_),
                }
            )
        self.single_observation_space = single
        self.single_action_space = spaces.Discrete(n)
        self.observation_space = batch_space(single, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rows = np.arange(num_envs)
        assert TILE_KINDS == planes[1]

    def _observations(self) -> Observations:
        t = self.tables
        if self.observation_format == "flat":
            return t.obs.reshape(self.num_envs, -1).copy()
        return {"observation": t.obs.copy(), "action_mask": t.mask.copy()}

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Observations, Dict[str, Any]]:
        """Deals every table a hand in which the agent decides."""
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise TypeError("seed: one integer for all tables (each table has its own stream)")
        self.tables.reset(None if seed is None else check_seed(seed))
        return self._observations(), self._missed_wins({})

    def _missed_wins(self, infos: Dict[str, Any]) -> Dict[str, Any]:
        """``infos`` with every table's ``missed_wins`` (tile names, as the single env's)."""
        tiles = np.empty(self.num_envs, dtype=object)
        for i, names in enumerate(self.tables.missed_win_tiles()):
            tiles[i] = names
        infos["missed_wins"] = tiles
        infos["_missed_wins"] = np.ones(self.num_envs, dtype=np.bool_)
        return infos

    def clone(self) -> "MajiangVectorEnv":
        """An independent copy in the exact state: stepped with the same actions, both give
        the same results."""
        return copy.deepcopy(self)

    def action_masks(self) -> np.ndarray:
        """The legal actions of every table now, ``(num_envs, n)`` bool."""
        return self.tables.mask.copy()

    def step(self, actions: Any) -> Tuple[Observations, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        t = self.tables
        chosen = np.asarray(actions)
        if not np.issubdtype(chosen.dtype, np.integer):
            raise TypeError(f"actions: expected integer action numbers, got dtype {chosen.dtype}")
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"actions: expected shape ({self.num_envs},), got {chosen.shape}")
        if ((chosen < 0) | (chosen >= t.action_space)).any():
            raise ValueError(f"actions: action numbers are 0..{t.action_space - 1}")
        chosen = chosen.astype(np.int64)
        illegal = ~t.mask[self._rows, chosen]
        reasons: Optional[np.ndarray] = None
        if illegal.any():
            # The engine's own reasons (e.g. Hong Kong's missed win), asked before any table moves.
            reasons = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(illegal):
                reasons[i] = t.refusal(int(i), int(chosen[i]))
            if self.illegal_action == "raise":
                bad = int(np.flatnonzero(illegal)[0])
                raise ValueError(f"actions: table {bad}: {int(chosen[bad])} is not legal now: {reasons[bad]}")
            chosen = np.where(illegal, t.legal[:, 0].astype(np.int64), chosen)
        t.step(chosen)
        rewards = t.reward[:, self.seat] * self.reward_scale + np.where(illegal, self.illegal_penalty, 0.0)
        terminations = t.done.astype(np.bool_)
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        infos: Dict[str, Any] = {"illegal_action": illegal, "_illegal_action": np.ones(self.num_envs, dtype=np.bool_)}
        if reasons is not None:
            infos["illegal_reason"] = reasons
            infos["_illegal_reason"] = illegal.copy()
        self._missed_wins(infos)
        if terminations.any():
            final = np.empty(self.num_envs, dtype=object)
            for i in np.flatnonzero(terminations):
                final[i] = t.final_obs[i].reshape(-1).copy() if self.observation_format == "flat" else {
                    "observation": t.final_obs[i].copy(),
                    "action_mask": np.zeros(t.action_space, dtype=np.bool_),
                }
            infos["final_obs"] = final
            infos["_final_obs"] = terminations.copy()
        return self._observations(), rewards.astype(np.float64), terminations, truncations, infos

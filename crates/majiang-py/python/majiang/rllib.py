"""Ray RLlib's multi-agent environment API over a match (self-play on a Ray cluster).

:class:`MultiAgentMajiang` follows RLlib's ``MultiAgentEnv`` contract: agents ``player_i``
(the match's entrants, as in :func:`majiang.parallel_env`), each step's observations only for
the agents who must decide now (one on a turn, every possible claimer of a discard together),
observations ``{"observations": float32 planes flattened, "action_mask": float32 0/1}`` as
RLlib's action-masking modules read them, rewards the hand's payments times ``reward_scale``
when it ends, ``terminateds["__all__"]`` when the match ends (every agent then gets its last
observation, mask all zero). Without Ray installed the class is a plain object with the same
methods (what the package's tests drive); with Ray it subclasses
``ray.rllib.env.multi_agent_env.MultiAgentEnv``.

``examples/rllib_selfplay.py`` trains PPO with it on several env-runner processes; docs/python.md
says how to point it at a real cluster.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np
from gymnasium import spaces

from ._checks import check_finite
from .parallel import MajiangParallelEnv

try:  # RLlib is optional: the environment works (and is tested) without it.
    from ray.rllib.env.multi_agent_env import MultiAgentEnv as _Base
except ImportError:  # pragma: no cover - depends on the machine
    _Base = object

Obs = Dict[str, np.ndarray]


class MultiAgentMajiang(_Base):  # type: ignore[misc, valid-type]
    """A match under ``config["rules"]`` (``options``, ``hands``, ``seed``, ``reward_scale``
    from ``config`` too) for RLlib; see the module docs."""

    def __init__(self, config: Optional[Dict[str, Any]] = None) -> None:
        if _Base is not object:
            super().__init__()
        config = dict(config or {})
        self.reward_scale = check_finite(config.get("reward_scale", 1.0), "reward_scale")
        self.game = MajiangParallelEnv(
            rules=config.get("rules", "hongkong"),
            options=config.get("options"),
            seed=config.get("seed"),
            hands=config.get("hands", 1),
        )
        self.possible_agents = list(self.game.possible_agents)
        self.agents = list(self.possible_agents)
        size = self.game.planes * self.game._obs_space["observation"].shape[1]
        self._size = size
        space = spaces.Dict(
            {
                "observations": spaces.Box(0.0, 255.0, (size,), dtype=np.float32),
                "action_mask": spaces.Box(0.0, 1.0, (self.game.actions,), dtype=np.float32),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.game.actions) for a in self.possible_agents}
        # RLlib's older API reads the single spaces.
        self.observation_space = space
        self.action_space = spaces.Discrete(self.game.actions)

    def _convert(self, obs: Obs) -> Obs:
        return {
            "observations": obs["observation"].reshape(-1).astype(np.float32),
            "action_mask": obs["action_mask"].astype(np.float32),
        }

    def _deciding(self, obs: Dict[str, Obs], infos: Dict[str, Dict[str, Any]]) -> Tuple[Dict[str, Obs], Dict[str, Any]]:
        ask = [a for a in obs if infos[a]["deciding"]]
        return {a: self._convert(obs[a]) for a in ask}, {a: {} for a in ask}

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Dict[str, Obs], Dict[str, Any]]:
        obs, infos = self.game.reset(seed=seed)
        self.agents = list(self.game.agents)
        return self._deciding(obs, infos)

    def step(self, action_dict: Dict[str, Any]) -> Tuple[Dict[str, Obs], Dict[str, float], Dict[str, bool], Dict[str, bool], Dict[str, Any]]:
        obs, rewards, terms, truncs, infos = self.game.step(action_dict)
        scaled = {a: float(r) * self.reward_scale for a, r in rewards.items() if r != 0}
        over = all(terms.values())
        if over:
            # The match is over: every agent's last view (nothing to decide) and its reward.
            out = {a: self._convert(o) for a, o in obs.items()}
            scaled = {a: float(rewards[a]) * self.reward_scale for a in obs}
            terminateds = {a: True for a in obs}
            terminateds["__all__"] = True
            truncateds = {a: False for a in obs}
            truncateds["__all__"] = False
            self.agents = []
            return out, scaled, terminateds, truncateds, {a: {} for a in obs}
        out, out_infos = self._deciding(obs, infos)
        return out, scaled, {"__all__": False}, {"__all__": False}, out_infos

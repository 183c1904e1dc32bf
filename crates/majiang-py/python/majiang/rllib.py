"""Ray RLlib's multi-agent environment API over a match (self-play on a Ray cluster).

:class:`MultiAgentMajiang` follows RLlib's ``MultiAgentEnv`` contract: agents ``player_i``
(the match's entrants, as in :func:`majiang.parallel_env`), each step's observations only for
the agents who must decide now (one on a turn, every possible claimer of a discard together),
observations ``{"observations": float32 planes flattened, "action_mask": float32 0/1}`` as
RLlib's action-masking modules read them, a reward for every live agent each step (0 but when
a hand ends: its payments times ``reward_scale``; RLlib refuses an agent observed again after
acting without a reward), ``terminateds["__all__"]`` when the match ends (every agent then
gets its last observation, mask all zero).

**Illegal actions** (``config["illegal_action"]``) as in :func:`majiang.gym_env`:
``"substitute"`` (default) plays the agent's first legal action instead and adds
``config["illegal_penalty"]`` (default 0) to its reward — RLlib's own environment check
(``check_multiagent_environments``, run by every env runner) steps with actions sampled from
the whole action space, and the masking module never picks an illegal one in training;
``"raise"`` raises ``ValueError`` and changes nothing. Malformed actions (not an integer,
outside the space) always raise; :attr:`illegal_actions` counts the substitutions.

Without Ray installed the class is a plain object with the same methods (what the package's
tests drive); with Ray it subclasses ``ray.rllib.env.multi_agent_env.MultiAgentEnv``.

``examples/rllib_selfplay.py`` trains PPO with it on several env-runner processes; docs/python.md
says how to point it at a real cluster.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np
from gymnasium import spaces

from ._checks import action_number, check_finite
from .gymnasium_env import ILLEGAL_ACTIONS
from .parallel import MajiangParallelEnv

try:  # RLlib is optional: the environment works (and is tested) without it.
    from ray.rllib.env.multi_agent_env import MultiAgentEnv as _Base
except ImportError:  # pragma: no cover - depends on the machine
    _Base = object

Obs = Dict[str, np.ndarray]


class MultiAgentMajiang(_Base):  # type: ignore[misc, valid-type]
    """A match under ``config["rules"]`` (``options``, ``hands``, ``seed``, ``reward_scale``,
    ``illegal_action``, ``illegal_penalty`` from ``config`` too) for RLlib; see the module
    docs."""

    def __init__(self, config: Optional[Dict[str, Any]] = None) -> None:
        if _Base is not object:
            super().__init__()
        config = dict(config or {})
        self.reward_scale = check_finite(config.get("reward_scale", 1.0), "reward_scale")
        self.illegal_action = config.get("illegal_action", "substitute")
        if self.illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action: {self.illegal_action!r} is not one of {', '.join(ILLEGAL_ACTIONS)}")
        self.illegal_penalty = check_finite(config.get("illegal_penalty", 0.0), "illegal_penalty")
        #: Illegal actions replaced by a legal one so far (``illegal_action="substitute"``).
        self.illegal_actions = 0
        # The masks of the agents asked to decide now.
        self._masks: Dict[str, np.ndarray] = {}
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
        self._masks = {a: obs[a]["action_mask"] for a in ask}
        return {a: self._convert(obs[a]) for a in ask}, {a: {} for a in ask}

    def _legal_actions(self, action_dict: Dict[str, Any]) -> Tuple[Dict[str, int], Dict[str, float]]:
        """The deciding agents' actions, each illegal one replaced by the agent's first legal
        action (or refused, ``illegal_action="raise"``), and the penalties incurred."""
        actions: Dict[str, int] = {}
        penalties: Dict[str, float] = {}
        for agent, mask in self._masks.items():
            if agent not in action_dict or action_dict[agent] is None:
                continue  # the parallel env names who must decide
            number = action_number(action_dict[agent], self.game.actions)
            if not mask[number]:
                if self.illegal_action == "raise":
                    name = self.game.table.action_name(number)
                    raise ValueError(f"actions: {number} ({name}) is not legal for {agent} now")
                number = int(np.flatnonzero(mask)[0])
                penalties[agent] = self.illegal_penalty
            actions[agent] = number
        return actions, penalties

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Dict[str, Obs], Dict[str, Any]]:
        obs, infos = self.game.reset(seed=seed)
        self.agents = list(self.game.agents)
        return self._deciding(obs, infos)

    def step(self, action_dict: Dict[str, Any]) -> Tuple[Dict[str, Obs], Dict[str, float], Dict[str, bool], Dict[str, bool], Dict[str, Any]]:
        actions, penalties = self._legal_actions(action_dict)
        obs, rewards, terms, truncs, infos = self.game.step(actions)
        self.illegal_actions += len(penalties)
        # Every live agent's reward, zeros included: RLlib's episode refuses a step where an
        # agent that acted is observed again without a reward.
        scaled = {a: float(r) * self.reward_scale + penalties.get(a, 0.0) for a, r in rewards.items()}
        over = all(terms.values())
        if over:
            # The match is over: every agent's last view (nothing to decide) and its reward.
            out = {a: self._convert(o) for a, o in obs.items()}
            terminateds = {a: True for a in obs}
            terminateds["__all__"] = True
            truncateds = {a: False for a in obs}
            truncateds["__all__"] = False
            self.agents = []
            return out, scaled, terminateds, truncateds, {a: {} for a in obs}
        out, out_infos = self._deciding(obs, infos)
        return out, scaled, {"__all__": False}, {"__all__": False}, out_infos

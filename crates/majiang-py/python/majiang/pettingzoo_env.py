"""The PettingZoo AEC environment over one match of the engine."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ._core import ACTION_SPACE, TILE_KINDS, Table, action_name


class MajiangAECEnv(AECEnv):
    """A match of mahjong under one rule set, one agent per chair (``player_0`` …).

    ``agent_selection`` is the first chair that must decide; when several may answer a discard
    they answer one after another, lowest chair first (the engine resolves the claims once all
    have answered). Observations are ``{"observation": uint8 planes, "action_mask": int8}``,
    built only from that seat's engine ``Observation``; the mask is the engine's legal actions.
    Rewards are the rule set's payments by chair at the end of each hand. The episode ends when
    the match does (``hands`` hands; default one).
    """

    metadata = {"name": "majiang_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        rules: str = "hongkong",
        options: Optional[Mapping[str, Any]] = None,
        seed: Optional[int] = None,
        hands: Optional[int] = 1,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        self.rules = rules
        self.options = dict(options) if options else None
        self.hands = hands
        self.render_mode = render_mode
        self._seed = 0 if seed is None else int(seed)
        self._resets = 0
        self.table = Table(rules, self.options, self._seed, hands)
        n = self.table.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 255, (self.table.planes, TILE_KINDS), dtype=np.uint8),
                "action_mask": spaces.Box(0, 1, (ACTION_SPACE,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(ACTION_SPACE) for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Starts a new match: from ``seed`` if given, else the next seed after the last one."""
        if seed is not None:
            self._seed = int(seed)
            self._resets = 0
        match_seed = self._seed + self._resets
        self._resets += 1
        self.table = Table(self.rules, self.options, match_seed, self.hands)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        chair = self.table.to_act()
        self.agent_selection = self.possible_agents[chair if chair is not None else 0]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        obs = np.zeros((self.table.planes, TILE_KINDS), dtype=np.uint8)
        mask = np.zeros(ACTION_SPACE, dtype=np.int8)
        self.table.observe(self.agent_name_mapping[agent], obs, mask.view(np.uint8))
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        payments = self.table.act(self.agent_name_mapping[agent], int(action))
        if payments is not None:
            for a in self.agents:
                self.rewards[a] = payments[self.agent_name_mapping[a]]
            if self.table.is_over():
                self.terminations = {a: True for a in self.agents}
            else:
                self.table.deal_next()
        self._accumulate_rewards()
        if self.table.is_over():
            self.agent_selection = self.agents[0]
        else:
            self._select()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        """The hand number, the ledger and the decision due, as text."""
        chair = self.table.to_act()
        due = "match over" if chair is None else f"player_{chair} decides: " + ", ".join(
            action_name(a) for a in self.table.legal(chair)
        )
        text = f"{self.rules} hand {self.table.hand_number}, ledger {self.table.ledger()}; {due}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

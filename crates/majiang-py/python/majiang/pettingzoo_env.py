"""The PettingZoo AEC environment over one match of the engine."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ._checks import action_number, check_seed, draw_seed
from ._core import TILE_KINDS, Table


class MajiangAECEnv(AECEnv):  # type: ignore[type-arg]
    """A match of mahjong under one rule set, one agent per chair (``player_0`` …).

    ``agent_selection`` is the first chair that must decide; when several may answer a discard
    they answer one after another, lowest chair first (the engine resolves the claims once all
    have answered). Observations are ``{"observation": uint8 planes, "action_mask": int8}``
    (int8 as PettingZoo's classic environments and ``Discrete.sample(mask=...)`` want it;
    :meth:`action_masks` gives it as bool),
    built only from that seat's engine ``Observation``; the mask is the engine's legal actions
    over the table's dense action numbers (``majiang.action_layout``). Rewards are the rule
    set's payments by chair at the end of each hand. The episode ends when the match does
    (``hands`` hands; default one).

    Seeding follows Gymnasium: ``reset(seed=s)`` (or the constructor's ``seed`` at the first
    reset) seeds ``np_random``; every match draws its deal seed from it. ``step`` takes an
    integer action number: anything else raises ``TypeError``, a number outside the space or
    not legal now ``ValueError``; ``step`` before ``reset`` raises ``RuntimeError``.
    ``majiang.env()`` wraps this class in PettingZoo's ``OrderEnforcingWrapper``.
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
        self._pending_seed: Optional[int] = None if seed is None else check_seed(seed)
        self.np_random, _ = seeding.np_random(None)
        self._started = False
        self.table = Table(rules, self.options, 0, hands)
        self.actions = self.table.action_space
        n = self.table.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 255, (self.table.planes, TILE_KINDS), dtype=np.uint8),
                "action_mask": spaces.Box(0, 1, (self.actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.actions) for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Starts a new match, its deal seed drawn from ``np_random`` (seeded by ``seed``)."""
        if seed is None and self._pending_seed is not None:
            seed = self._pending_seed
        self._pending_seed = None
        if seed is not None:
            self.np_random, _ = seeding.np_random(check_seed(seed))
        self.match_seed = draw_seed(self.np_random)
        self.table = Table(self.rules, self.options, self.match_seed, self.hands)
        self._started = True
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
        if not self._started:
            raise RuntimeError("observe: call reset() first")
        if agent not in self.agent_name_mapping:
            raise ValueError(f"agent: no agent {agent!r} (agents: {', '.join(self.possible_agents)})")
        obs = np.zeros((self.table.planes, TILE_KINDS), dtype=np.uint8)
        mask = np.zeros(self.actions, dtype=np.int8)
        self.table.observe(self.agent_name_mapping[agent], obs, mask.view(np.uint8))
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        if not self._started:
            raise RuntimeError("step: call reset() first")
        if not self.agents:
            raise RuntimeError("step: every agent is done; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"action: {agent} is done; step(None) is its only action")
            self._was_dead_step(action)
            return
        number = action_number(action, self.actions)
        chair = self.agent_name_mapping[agent]
        if number not in self.table.legal(chair):
            raise ValueError(f"action: {number} ({self.table.action_name(number)}) is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        payments = self.table.act(chair, number)
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

    def action_masks(self) -> np.ndarray:
        """The legal actions of ``agent_selection`` now, as a bool array."""
        result: np.ndarray = self.observe(self.agent_selection)["action_mask"].astype(np.bool_)
        return result

    def render(self) -> Optional[str]:
        """The hand number, the ledger and the decision due, as text."""
        chair = self.table.to_act()
        due = "match over" if chair is None else f"player_{chair} decides: " + ", ".join(
            self.table.action_name(a) for a in self.table.legal(chair)
        )
        text = f"{self.rules} hand {self.table.hand_number}, ledger {self.table.ledger()}; {due}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

"""The PettingZoo parallel environment: every agent that must decide is asked at once."""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Mapping, Optional, Tuple

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import ParallelEnv

from ._checks import action_number, check_seed, draw_seed, house_rules
from ._core import TILE_KINDS, Table

Obs = Dict[str, np.ndarray]


class MajiangParallelEnv(ParallelEnv):  # type: ignore[type-arg]
    """A match under one rule set as a PettingZoo ``ParallelEnv``: each ``step`` takes the
    actions of every agent that must decide now, together. On a turn that is one agent; when a
    discard is on offer, every agent who may claim it (胡, 碰, 杠, 吃 or pass) answers in the
    same step, and the engine resolves the claims by priority.

    Every live agent gets an observation each step (``{"observation": uint8 planes,
    "action_mask": int8}``, as :class:`~majiang.pettingzoo_env.MajiangAECEnv`); an agent with
    nothing to decide has an all-zero mask and its action, if any, is ignored
    (``infos[agent]["deciding"]`` says who decides). All actions are checked before any is
    played: an illegal one raises ``ValueError`` and changes nothing. Rewards are the payments
    of a hand when it ends. Agents are the match's entrants, seated by the rule set's seat
    choice (:meth:`chair_of`). Seeding is Gymnasium's (unseeded: random).

    :meth:`state` is the full-information state for centralised critics (every chair's
    planes, hidden tiles included; ``state_space``). :meth:`clone` (and ``copy.deepcopy``,
    ``pickle``) copies the environment in its exact state.
    """

    metadata = {"name": "majiang_parallel_v0", "render_modes": [], "is_parallelizable": True}

    def __init__(
        self,
        rules: str = "hongkong",
        options: Optional[Mapping[str, Any]] = None,
        seed: Optional[int] = None,
        hands: Optional[int] = 1,
    ) -> None:
        self.rules = rules
        self.options = house_rules(options)
        self.hands = hands
        self._pending_seed: Optional[int] = None if seed is None else check_seed(seed)
        self.np_random, _ = seeding.np_random(None)
        self.table = Table(rules, self.options, 0, hands)
        n = self.table.players
        self.actions = self.table.action_space
        self.planes = self.table.planes
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents: List[str] = []
        self._chair: Dict[str, int] = {a: i for i, a in enumerate(self.possible_agents)}
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 255, (self.planes, TILE_KINDS), dtype=np.uint8),
                "action_mask": spaces.Box(0, 1, (self.actions,), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(self.actions)
        self.state_space = spaces.Box(0, 255, (n * self.planes, TILE_KINDS), dtype=np.uint8)
        self._started = False

    def observation_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self._action_space

    def chair_of(self, agent: str) -> int:
        """The chair ``agent`` sits in during this match."""
        return self._chair[agent]

    def _observe(self, agent: str) -> Obs:
        planes = np.zeros((self.planes, TILE_KINDS), dtype=np.uint8)
        mask = np.zeros(self.actions, dtype=np.uint8)
        self.table.observe(self._chair[agent], planes, mask)
        return {"observation": planes, "action_mask": mask.view(np.int8)}

    def _deciding(self) -> List[str]:
        agent_at = {c: a for a, c in self._chair.items()}
        return [agent_at[c] for c in self.table.actors()]

    def _outputs(self) -> Tuple[Dict[str, Obs], Dict[str, Dict[str, Any]]]:
        deciding = set(self._deciding())
        obs = {a: self._observe(a) for a in self.agents}
        infos = {a: {"deciding": a in deciding} for a in self.agents}
        return obs, infos

    def reset(
        self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, Obs], Dict[str, Dict[str, Any]]]:
        """Starts a new match, its deal seed drawn from ``np_random`` (seeded by ``seed``)."""
        if seed is None and self._pending_seed is not None:
            seed = self._pending_seed
        self._pending_seed = None
        if seed is not None:
            self.np_random, _ = seeding.np_random(check_seed(seed))
        self.table.restart(draw_seed(self.np_random))
        chairs = self.table.chairs()
        self._chair = {a: chairs[i] for i, a in enumerate(self.possible_agents)}
        self.agents = self.possible_agents[:]
        self._started = True
        return self._outputs()

    def step(
        self, actions: Mapping[str, Any]
    ) -> Tuple[Dict[str, Obs], Dict[str, float], Dict[str, bool], Dict[str, bool], Dict[str, Dict[str, Any]]]:
        """Plays the actions of every agent deciding now (all checked first)."""
        if not self._started:
            raise RuntimeError("step: call reset() first")
        if not self.agents:
            raise RuntimeError("step: the match is over; call reset()")
        deciding = self._deciding()
        chosen = []
        for agent in deciding:
            if agent not in actions or actions[agent] is None:
                raise ValueError(f"actions: {agent} must decide now (deciding: {', '.join(deciding)})")
            number = action_number(actions[agent], self.actions)
            chair = self._chair[agent]
            if number not in self.table.legal(chair):
                raise ValueError(
                    f"actions: {number} ({self.table.action_name(number)}) is not legal for {agent} now: "
                    f"{self.table.refusal(chair, number)}"
                )
            chosen.append((chair, number))
        payments = None
        for chair, number in chosen:
            paid = self.table.act(chair, number)
            if paid is not None:
                payments = paid
        rewards = {a: 0.0 for a in self.agents}
        if payments is not None:
            rewards = {a: float(payments[self._chair[a]]) for a in self.agents}
            if not self.table.is_over():
                self.table.deal_next()
        over = self.table.is_over()
        terminations = {a: over for a in self.agents}
        truncations = {a: False for a in self.agents}
        obs, infos = self._outputs()
        if over:
            self.agents = []
        return obs, rewards, terminations, truncations, infos

    def state(self) -> np.ndarray:
        """The full-information state for centralised critics: every chair's observation
        planes stacked in chair order, ``(n * planes, 42)`` uint8 (every concealed hand in
        it). Never give it to an acting policy."""
        if not self._started:
            raise RuntimeError("state: call reset() first")
        out = np.zeros((len(self.possible_agents) * self.planes, TILE_KINDS), dtype=np.uint8)
        mask = np.zeros(self.actions, dtype=np.uint8)
        for chair in range(len(self.possible_agents)):
            self.table.observe(chair, out[chair * self.planes : (chair + 1) * self.planes], mask)
        return out

    def clone(self) -> "MajiangParallelEnv":
        """An independent copy in the exact state."""
        return copy.deepcopy(self)

    def close(self) -> None:
        pass

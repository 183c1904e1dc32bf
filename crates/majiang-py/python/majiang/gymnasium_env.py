"""A Gymnasium single-agent environment: one chair against the project's bots."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ._core import ACTION_SPACE, BOT_NAMES, TILE_KINDS, Table


class MajiangGymEnv(gym.Env):
    """The agent plays chair ``seat``; the other chairs are the project's bots (``opponents``:
    one name from ``BOT_NAMES`` — the levels ``easy``, ``normal`` (``efficient``) and ``hard``
    (``expert``, the search bot), or ``random`` and ``aggressive`` — or one per other chair, in
    chair order). An episode is one match of ``hands`` hands (default one). The reward
    of a step is the agent's payment for every hand that ended during it. Observations are as in
    the AEC environment: ``{"observation": planes, "action_mask": int8}``.
    """

    metadata = {"render_modes": []}

    def __init__(
        self,
        rules: str = "hongkong",
        options: Optional[Mapping[str, Any]] = None,
        seed: Optional[int] = None,
        opponents: Union[str, Sequence[str]] = "efficient",
        seat: int = 0,
        hands: Optional[int] = 1,
    ) -> None:
        self.rules = rules
        self.options = dict(options) if options else None
        self.hands = hands
        self._seed = 0 if seed is None else int(seed)
        self._resets = 0
        self.table = Table(rules, self.options, self._seed, hands)
        n = self.table.players
        if not 0 <= seat < n:
            raise ValueError(f"seat: there is no player {seat} at a table of {n}")
        self.seat = seat
        others = [c for c in range(n) if c != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise ValueError(f"opponents: {len(names)} bots given for {len(others)} other chairs")
        for name in names:
            if name not in BOT_NAMES:
                raise ValueError(f"unknown bot {name!r} (known bots: {', '.join(BOT_NAMES)})")
        self.opponents = dict(zip(others, names))
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 255, (self.table.planes, TILE_KINDS), dtype=np.uint8),
                "action_mask": spaces.Box(0, 1, (ACTION_SPACE,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(ACTION_SPACE)

    def _observe(self) -> Dict[str, np.ndarray]:
        obs = np.zeros((self.table.planes, TILE_KINDS), dtype=np.uint8)
        mask = np.zeros(ACTION_SPACE, dtype=np.int8)
        self.table.observe(self.seat, obs, mask.view(np.uint8))
        return {"observation": obs, "action_mask": mask}

    def _advance(self) -> int:
        """Lets the bots play until the agent must decide or the match ends; the agent's
        payments from hands that ended meanwhile."""
        reward = 0
        while not self.table.is_over():
            if self.table.awaiting_deal():
                self.table.deal_next()
            elif self.table.to_act() == self.seat:
                break
            else:
                payments = self.table.play_bots()
                if payments is not None:
                    reward += payments[self.seat]
        return reward

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seed = int(seed)
            self._resets = 0
        match_seed = self._seed + self._resets
        self._resets += 1
        self.table = Table(self.rules, self.options, match_seed, self.hands)
        for chair, name in self.opponents.items():
            self.table.set_bot(chair, name, match_seed * 7 + chair)
        reward = self._advance()
        return self._observe(), {"reward_before_first_decision": reward}

    def step(self, action: int) -> Tuple[Dict[str, np.ndarray], float, bool, bool, Dict[str, Any]]:
        reward = 0
        payments = self.table.act(self.seat, int(action))
        if payments is not None:
            reward += payments[self.seat]
        reward += self._advance()
        terminated = self.table.is_over()
        return self._observe(), float(reward), terminated, False, {"ledger": self.table.ledger()}

"""The vector environment: many tables stepped inside Rust per call."""

from __future__ import annotations

from typing import Any, Mapping, Optional

import numpy as np

from ._core import ACTION_SPACE, MAX_LEGAL, TILE_KINDS, VectorTables


class VectorEnv:
    """``num_tables`` independent tables under one rule set, stepped together in Rust.

    Each call writes, for every table ``t``, the decision now due into preallocated numpy arrays
    (attributes, overwritten in place by each call; copy what you keep):

    - ``obs`` uint8 ``(N, planes, 42)``: the actor's observation (see
      ``majiang.OBSERVATION_LAYOUT``);
    - ``mask`` int8 ``(N, ACTION_SPACE)``: the actor's legal actions;
    - ``legal`` int16 ``(N, MAX_LEGAL)`` and ``legal_count`` int64 ``(N,)``: the same legal
      actions as a list (-1 padded), for choosing among them cheaply;
    - ``actor`` int64 ``(N,)``: the chair that must decide;
    - ``reward`` int64 ``(N, players)`` and ``done`` uint8 ``(N,)``: set for the tables whose hand
      the last step ended (payments by chair); such a table has already been dealt its next hand.

    Hands are independent (no match): table ``t``'s ``k``-th hand is dealt by chair ``k mod n``
    from a seed fixed by ``seed``, ``t`` and ``k``.
    """

    def __init__(
        self,
        rules: str = "hongkong",
        num_tables: int = 256,
        options: Optional[Mapping[str, Any]] = None,
        seed: int = 0,
    ) -> None:
        self.tables = VectorTables(rules, num_tables, dict(options) if options else None, seed)
        n = num_tables
        self.num_tables = n
        self.players = self.tables.players
        self.obs = np.zeros((n, self.tables.planes, TILE_KINDS), dtype=np.uint8)
        self.mask = np.zeros((n, ACTION_SPACE), dtype=np.int8)
        self.legal = np.full((n, MAX_LEGAL), -1, dtype=np.int16)
        self.legal_count = np.zeros(n, dtype=np.int64)
        self.actor = np.zeros(n, dtype=np.int64)
        self.reward = np.zeros((n, self.players), dtype=np.int64)
        self.done = np.zeros(n, dtype=np.uint8)
        self._arrays = {
            "obs": self.obs,
            "mask": self.mask.view(np.uint8),
            "legal": self.legal,
            "legal_count": self.legal_count,
            "actor": self.actor,
            "reward": self.reward,
            "done": self.done,
        }
        self._rows = np.arange(n)

    @property
    def hands_finished(self) -> int:
        """Hands finished since the environment was made."""
        return self.tables.hands_finished

    def reset(self) -> np.ndarray:
        """Deals every table a fresh hand; returns ``obs`` (the other arrays are filled too)."""
        self.tables.reset(self._arrays)
        return self.obs

    def step(self, actions: np.ndarray) -> np.ndarray:
        """Plays ``actions[t]`` (action numbers) for each table's actor; returns ``obs``.

        An illegal action raises ``ValueError`` naming the table.
        """
        self.tables.step(np.ascontiguousarray(actions, dtype=np.int64), self._arrays)
        return self.obs

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal action for every table, chosen in numpy."""
        pick = rng.integers(0, self.legal_count)
        return self.legal[self._rows, pick].astype(np.int64)

"""The vector environment: many tables stepped inside Rust per call."""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Mapping, Optional

import numpy as np

from ._checks import check_seed, house_rules, seed_or_entropy
from ._core import MAX_LEGAL, MAX_TABLES, TILE_KINDS, VectorTables, tile_name


class VectorEnv:
    """``num_tables`` independent tables under one rule set, stepped together in Rust.

    Two modes. **Self-play** (``opponents=None``): every decision of every chair is yours; the
    actor of each table is in ``actor``. **Against bots** (``opponents`` a bot level or name,
    e.g. ``"normal"``): chair ``seat`` is yours at every table and the other chairs are that
    bot, played in Rust between your steps; a hand that ends before your first decision in it
    is skipped (counted in ``hands_skipped``), so every decision is yours.

    Each call writes, for every table ``t``, the decision now due into preallocated numpy arrays
    (attributes, overwritten in place by each call; copy what you keep):

    - ``obs`` uint8 ``(N, planes, 42)``: the actor's observation (see
      ``majiang.OBSERVATION_LAYOUT``);
    - ``mask`` bool ``(N, action_space)``: the actor's legal actions;
    - ``legal`` int16 ``(N, MAX_LEGAL)`` and ``legal_count`` int64 ``(N,)``: the same legal
      actions as a list (-1 padded), for choosing among them cheaply;
    - ``actor`` int64 ``(N,)``: the chair that must decide;
    - ``reward`` int64 ``(N, players)`` and ``done`` uint8 ``(N,)``: set for the tables whose hand
      the last step ended (payments by chair); such a table has already been dealt its next hand;
    - ``final_obs`` uint8 ``(N, planes, 42)``: against bots, your last view of a hand that ended
      (rows where ``done``);
    - ``missed_wins`` bool ``(N, 42)``: the tile kinds the actor may not win on now, by column
      (``tile_index``): Hong Kong's missed win (house rule ``missed_win``), a win passed on that
      kind since the actor's last draw from the live wall. The mask already leaves those wins
      out; :meth:`missed_win_tiles` gives them by name, as the single-table environments'
      ``missed_wins`` do.

    Hands are independent (no match): table ``t``'s ``k``-th hand is dealt by chair ``k mod n``
    from a seed fixed by ``seed``, ``t`` and ``k``; without a seed (``None``, the default)
    the streams start from a random seed (every run differs: the package's seeding rule).
    ``num_tables`` is at most ``majiang.MAX_TABLES``.

    ``step`` before ``reset`` raises ``RuntimeError``. Every action of a step is checked before
    any is played: an illegal one raises ``ValueError`` naming its table, with the engine's
    reason, and no table moves; :meth:`refusal` asks for that reason without acting.
    The stepping runs in Rust without the GIL, so other Python threads run meanwhile (each
    thread its own ``VectorEnv``). :meth:`clone` (and ``copy.deepcopy``) copies every table
    in its exact state, bots included; ``pickle`` too (each table's hand in play is rebuilt
    from its deal and your actions in it: the opponents' bots are made afresh for every hand,
    seeded from it).
    """

    def __init__(
        self,
        rules: str = "hongkong",
        num_tables: int = 256,
        options: Optional[Mapping[str, Any]] = None,
        seed: Optional[int] = None,
        opponents: Optional[str] = None,
        seat: int = 0,
    ) -> None:
        if isinstance(num_tables, bool) or not isinstance(num_tables, (int, np.integer)):
            raise TypeError(f"num_tables: expected an integer, got {type(num_tables).__name__}")
        if not 1 <= num_tables <= MAX_TABLES:
            raise ValueError(f"num_tables: {num_tables} is not between 1 and {MAX_TABLES}")
        num_tables = int(num_tables)
        self.tables = VectorTables(
            rules, num_tables, house_rules(options), seed_or_entropy(seed), opponents, seat
        )
        self._make_arrays()

    def _make_arrays(self) -> None:
        """The output arrays, zeroed, and the dict of them ``VectorTables`` writes into."""
        n = self.num_tables = self.tables.num_tables
        self.players = self.tables.players
        self.action_space = self.tables.action_space
        planes = (self.tables.planes, TILE_KINDS)
        self.obs = np.zeros((n, *planes), dtype=np.uint8)
        self.mask = np.zeros((n, self.action_space), dtype=np.bool_)
        self.legal = np.full((n, MAX_LEGAL), -1, dtype=np.int16)
        self.legal_count = np.zeros(n, dtype=np.int64)
        self.actor = np.zeros(n, dtype=np.int64)
        self.reward = np.zeros((n, self.players), dtype=np.int64)
        self.done = np.zeros(n, dtype=np.uint8)
        self.final_obs = np.zeros((n, *planes), dtype=np.uint8)
        self.missed_wins = np.zeros((n, TILE_KINDS), dtype=np.bool_)
        self._arrays: Dict[str, np.ndarray] = {
            "obs": self.obs,
            "mask": self.mask.view(np.uint8),
            "legal": self.legal,
            "legal_count": self.legal_count,
            "actor": self.actor,
            "reward": self.reward,
            "done": self.done,
            "final_obs": self.final_obs,
            "missed_wins": self.missed_wins.view(np.uint8),
        }
        self._rows = np.arange(n)

    @property
    def hands_finished(self) -> int:
        """Hands finished (and reported in ``done``) since the environment was made."""
        return self.tables.hands_finished

    @property
    def hands_skipped(self) -> int:
        """Against bots: hands that ended before your first decision in them."""
        return self.tables.hands_skipped

    def clone(self) -> "VectorEnv":
        """An independent copy: every table in its exact state (bots and their random
        generators included) and the arrays as they are."""
        twin = object.__new__(type(self))
        twin.tables = self.tables.clone()
        twin._make_arrays()
        for name, array in self._arrays.items():
            twin._arrays[name][...] = array
        return twin

    def __deepcopy__(self, memo: Dict[int, Any]) -> "VectorEnv":
        twin = self.clone()
        memo[id(self)] = twin
        for name, value in self.__dict__.items():
            if name not in twin.__dict__:
                twin.__dict__[name] = copy.deepcopy(value, memo)
        return twin

    def __getstate__(self) -> Dict[str, Any]:
        state = {k: v for k, v in self.__dict__.items() if k not in self._arrays and k != "_arrays"}
        state["_values"] = {name: array.copy() for name, array in self._arrays.items()}
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        values = state.pop("_values")
        self.__dict__.update(state)
        self._make_arrays()
        for name, array in values.items():
            self._arrays[name][...] = array

    def reset(self, seed: Optional[int] = None) -> np.ndarray:
        """Deals every table a fresh hand (with ``seed``: the tables' streams start again from
        it); returns ``obs`` (the other arrays are filled too)."""
        self.tables.reset(self._arrays, None if seed is None else check_seed(seed))
        return self.obs

    def step(self, actions: Any) -> np.ndarray:
        """Plays ``actions[t]`` (action numbers) for each table's actor; returns ``obs``.

        An illegal action raises ``ValueError`` naming the table.
        """
        array = np.asarray(actions)
        if not np.issubdtype(array.dtype, np.integer):
            raise TypeError(f"actions: expected integer action numbers, got dtype {array.dtype}")
        if array.shape != (self.num_tables,):
            raise ValueError(f"actions: expected shape ({self.num_tables},), got {array.shape}")
        self.tables.step(np.ascontiguousarray(array, dtype=np.int64), self._arrays)
        return self.obs

    def refusal(self, t: int, action: int) -> Optional[str]:
        """Why the engine would refuse action number ``action`` for table ``t``'s actor now
        (its reason, as ``step`` raises it), or ``None`` if it is legal. Changes nothing."""
        return self.tables.refusal(t, action)

    def missed_win_tiles(self) -> List[List[str]]:
        """Per table, the tiles its actor may not win on now (``missed_wins`` by name, e.g.
        ``["4p"]``; empty when nothing bars them)."""
        tiles: List[List[str]] = [[] for _ in range(self.num_tables)]
        for t in np.flatnonzero(self.missed_wins.any(axis=1)):
            tiles[t] = [tile_name(int(k)) for k in np.flatnonzero(self.missed_wins[t])]
        return tiles

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal action for every table, chosen in numpy."""
        pick = rng.integers(0, self.legal_count)
        actions: np.ndarray = self.legal[self._rows, pick].astype(np.int64)
        return actions

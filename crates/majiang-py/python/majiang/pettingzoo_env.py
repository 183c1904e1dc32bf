"""The PettingZoo AEC environment over one match of the engine."""

from __future__ import annotations

import copy
from typing import Any, Dict, Iterator, List, Mapping, Optional, Tuple

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, OrderEnforcingWrapper

from ._checks import action_number, check_seed, draw_seed, house_rules
from ._core import TILE_KINDS, Table


class MajiangAECEnv(AECEnv):  # type: ignore[type-arg]
    """A match of mahjong under one rule set, one agent per entrant (``player_0`` …).

    **Seats**: agent ``player_i`` is the match's entrant ``i`` and sits where the rule set's
    seat choice puts them (``chair_of(agent)``; ``Table.chairs()``): in Hong Kong the
    wind-tile ceremony seats the entrants (chair 0 is East and deals first), elsewhere
    entrant ``i`` takes chair ``i`` and the dice choose the first dealer. So in every rule set
    each agent is dealer and sits at each wind equally often over matches.

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
    reset) seeds ``np_random``; every match draws its deal seed from it; never seeded, it
    starts from the operating system's randomness. ``reset`` restarts
    ``self.table`` (``Table.restart``: what a new ``Table`` of that seed would be) while
    ``rules``, ``options`` and ``hands`` are unchanged, so the table is one object across
    resets; it makes a new one when they changed. ``step`` takes an
    integer action number: anything else raises ``TypeError``, a number outside the space or
    not legal now ``ValueError`` (with the engine's reason for a refused action, e.g. Hong
    Kong's missed win; :meth:`missed_wins` names the tiles an agent may not win on now);
    ``step`` before ``reset`` raises ``RuntimeError``.
    ``majiang.env()`` wraps this class in PettingZoo's ``OrderEnforcingWrapper``.

    Each agent has its own preallocated planes and mask (the mask an ``int8`` view of the
    array the engine writes), refilled by ``observe(agent)``. By default the answer is a fresh
    copy of them; with ``copy_observations=False`` it is the same dict every time, so a step
    allocates no arrays, and an observation is valid only until that agent is observed again
    (the fast path for a loop that uses each observation at once).

    :meth:`state` is the full-information state for centralised critics (every seat's view,
    hidden tiles included). :meth:`clone` (and ``copy.deepcopy``, ``pickle``) copies the
    environment in its exact state.
    """

    metadata = {"name": "majiang_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        rules: str = "hongkong",
        options: Optional[Mapping[str, Any]] = None,
        seed: Optional[int] = None,
        hands: Optional[int] = 1,
        render_mode: Optional[str] = None,
        copy_observations: bool = True,
    ) -> None:
        super().__init__()
        self.copy_observations = bool(copy_observations)
        self.rules = rules
        self.options = house_rules(options)
        self.hands = hands
        self.render_mode = render_mode
        self._pending_seed: Optional[int] = None if seed is None else check_seed(seed)
        self.np_random, _ = seeding.np_random(None)
        self._started = False
        self.table = Table(rules, self.options, 0, hands)
        self.actions = self.table.action_space
        n = self.table.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        # Agent -> chair and chair -> agent, set from the seat choice at every reset.
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._agent_at = self.possible_agents[:]
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 255, (self.table.planes, TILE_KINDS), dtype=np.uint8),
                "action_mask": spaces.Box(0, 1, (self.actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.actions) for a in self.possible_agents}
        # Per chair: the planes and the mask (uint8 for the engine, int8 view for the caller),
        # written in place by observe().
        planes = (self.table.planes, TILE_KINDS)
        self._obs_buffers = [
            (np.zeros(planes, dtype=np.uint8), np.zeros(self.actions, dtype=np.uint8)) for _ in range(n)
        ]
        self._observations: Dict[str, Dict[str, np.ndarray]] = {}
        self._map_observations()
        self.state_space = spaces.Box(0, 255, (n * self.table.planes, TILE_KINDS), dtype=np.uint8)
        self._rewarded = False
        self._bind()

    def _map_observations(self) -> None:
        """Each agent's observation dict over its chair's arrays."""
        self._observations = {
            agent: {"observation": obs, "action_mask": mask.view(np.int8)}
            for agent, (obs, mask) in ((a, self._obs_buffers[c]) for a, c in self.agent_name_mapping.items())
        }

    def _seat_agents(self) -> None:
        """Maps the agents to their chairs in the match just dealt (``Table.chairs()``)."""
        chairs = self.table.chairs()
        self.agent_name_mapping = {a: chairs[i] for i, a in enumerate(self.possible_agents)}
        self._agent_at = [""] * len(chairs)
        for agent, chair in self.agent_name_mapping.items():
            self._agent_at[chair] = agent
        self._map_observations()

    def chair_of(self, agent: str) -> int:
        """The chair ``agent`` sits in during this match (0 is the rule set's first seat:
        East)."""
        return self.agent_name_mapping[agent]

    def state(self) -> np.ndarray:
        """The full-information state (for centralised critics; never for an acting
        policy): every chair's observation planes stacked in chair order, ``(n * planes, 42)``
        uint8, so every concealed hand is in it (``state_space``)."""
        if not self._started:
            raise RuntimeError("state: call reset() first")
        planes = self.table.planes
        out = np.zeros((len(self._obs_buffers) * planes, TILE_KINDS), dtype=np.uint8)
        mask = np.zeros(self.actions, dtype=np.uint8)
        for chair in range(len(self._obs_buffers)):
            self.table.observe(chair, out[chair * planes : (chair + 1) * planes], mask)
        return out

    def clone(self) -> "MajiangAECEnv":
        """An independent copy in the exact state (table, bots, ``np_random``, rewards): both
        play on identically from the same actions."""
        return copy.deepcopy(self)

    def __getstate__(self) -> Dict[str, Any]:
        state = self.__dict__.copy()
        # Views and bindings are rebuilt by __setstate__ on the copied arrays.
        state.pop("_observations", None)
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._map_observations()
        self._bind()

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
        if self._table_made_for == (self.rules, self.options or None, self.hands):
            # What Table(rules, options, match_seed, hands) would be, the rule set kept and
            # the arrays still bound.
            self.table.restart(self.match_seed)
        else:
            self.table = Table(self.rules, self.options, self.match_seed, self.hands)
            self._bind()
        self._started = True
        self._seat_agents()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._rewarded = False
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _bind(self) -> None:
        """Binds every chair's arrays to ``self.table``, noting what it was made for."""
        for chair, (obs, mask) in enumerate(self._obs_buffers):
            self.table.bind_observation(chair, obs, mask)
        self._table_made_for = (self.rules, dict(self.options) if self.options else None, self.hands)

    def _select(self) -> None:
        chair = self.table.to_act()
        self.agent_selection = self._agent_at[chair if chair is not None else 0]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        if not self._started:
            raise RuntimeError("observe: call reset() first")
        chair = self.agent_name_mapping.get(agent)
        if chair is None:
            raise ValueError(f"agent: no agent {agent!r} (agents: {', '.join(self.possible_agents)})")
        self.table.observe_bound(chair)
        if self.copy_observations:
            obs, mask = self._obs_buffers[chair]
            return {"observation": obs.copy(), "action_mask": mask.view(np.int8).copy()}
        return self._observations[agent]

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
        # action_number(), its common case inlined: a plain int in range.
        number = action if type(action) is int and 0 <= action < self.actions else action_number(action, self.actions)
        table = self.table
        # The engine refuses an illegal action and changes nothing (no legal list built here);
        # otherwise it answers who decides next or, when the hand ended, its payments.
        try:
            after = table.act_next(self.agent_name_mapping[agent], number)
        except ValueError as refused:
            raise self._illegal(agent, number, refused) from None
        self._cumulative_rewards[agent] = 0
        if self._rewarded:
            self._zero_rewards()
        if isinstance(after, int):
            # _select(), done by act_next: this is every step's path.
            self.agent_selection = self._agent_at[after]
        else:
            self._hand_over(after)
        if self.render_mode == "human":
            self.render()

    # The parts of step() that the wrapper's step (which inlines the rest) shares.

    def _illegal(self, agent: str, number: int, refused: ValueError) -> ValueError:
        """The error for an action the engine refused, with the engine's reason (which names
        the chair, ``chair_of(agent)``): e.g. Hong Kong's missed win, "you passed this tile's
        win: wait for your next draw"."""
        chair = self.agent_name_mapping[agent]
        return ValueError(
            f"action: {number} ({self.table.action_name(number)}) is not legal for {agent} (chair {chair}) now: "
            f"{refused}"
        )

    def missed_wins(self, agent: str) -> List[str]:
        """The tiles ``agent`` may not win on now (Hong Kong's missed win, house rule
        ``missed_win``: it passed a win on that kind and has not drawn from the live wall
        since), in notation (``["4p"]``); empty when nothing bars it. Its mask already leaves
        those wins out; this says why."""
        chair = self.agent_name_mapping.get(agent)
        if chair is None:
            raise ValueError(f"agent: no agent {agent!r} (agents: {', '.join(self.possible_agents)})")
        return self.table.missed_wins(chair)

    def _zero_rewards(self) -> None:
        """The last step's rewards back to zero (they were a hand's payments)."""
        rewards = self.rewards
        for a in rewards:
            rewards[a] = 0
        self._rewarded = False

    def _hand_over(self, payments: Optional[List[int]]) -> None:
        """After an action that ended the hand (``payments`` by chair; ``None``: no one to act,
        not expected): rewards, and the next hand dealt or the match over."""
        if payments is None:
            self.agent_selection = self._agent_at[0]
            return
        rewards = self.rewards
        for a in self.agents:
            rewards[a] = payments[self.agent_name_mapping[a]]
        self._rewarded = True
        self._accumulate_rewards()
        table = self.table
        if table.is_over():
            self.terminations = {a: True for a in self.agents}
            self.agent_selection = self.agents[0]
        else:
            table.deal_next()
            self._select()

    def action_masks(self) -> np.ndarray:
        """The legal actions of ``agent_selection`` now, as a bool array."""
        result: np.ndarray = self.observe(self.agent_selection)["action_mask"].astype(np.bool_)
        return result

    def render(self) -> Optional[str]:
        """The hand number, the ledger and the decision due, as text."""
        chair = self.table.to_act()
        due = "match over" if chair is None else f"{self._agent_at[chair]} (chair {chair}) decides: " + ", ".join(
            self.table.action_name(a) for a in self.table.legal(chair)
        )
        text = f"{self.rules} hand {self.table.hand_number}, ledger {self.table.ledger()}; {due}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class _OrderState:
    """The order-enforcing wrapper's two flags and the environment it wraps, on a plain object:
    the wrapper's own attributes are read through PettingZoo's ``__getattr__`` hook, which
    keeps Python from caching their lookup (a few hundred instructions each, about ten a
    decision before), so the per-step calls read these instead."""

    __slots__ = ("env", "has_reset", "has_updated")

    def __init__(self, env: MajiangAECEnv) -> None:
        self.env = env
        self.has_reset = False
        self.has_updated = False


class MajiangOrderEnforcingWrapper(OrderEnforcingWrapper):  # type: ignore[type-arg]
    """PettingZoo's ``OrderEnforcingWrapper`` with the same checks and errors, its per-step
    calls (``last``, ``step``, ``agent_iter``) made on the wrapped environment directly:
    PettingZoo's generic forwarding reads every attribute through two ``__getattr__`` levels,
    about eight a step, which cost more than the engine's step itself. Its flags
    (``_has_reset``, ``_has_updated``) live on an :class:`_OrderState` that the per-step calls
    reach with one attribute read."""

    def __init__(self, env: MajiangAECEnv) -> None:
        # Before PettingZoo's __init__, which sets the flags (properties here).
        self._order = _OrderState(env)
        super().__init__(env)

    @property
    def _has_reset(self) -> bool:
        return self._order.has_reset

    @_has_reset.setter
    def _has_reset(self, value: bool) -> None:
        self._order.has_reset = value

    @property
    def _has_updated(self) -> bool:
        return self._order.has_updated

    @_has_updated.setter
    def _has_updated(self, value: bool) -> None:
        self._order.has_updated = value

    def last(self, observe: bool = True) -> Tuple[Any, float, bool, bool, Dict[str, Any]]:
        order = self._order
        if not order.has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        inner = order.env
        agent = inner.agent_selection
        if not observe:
            obs = None
        elif inner.copy_observations:
            obs = inner.observe(agent)
        else:
            # observe(), inlined for the in-place observations (agent_selection is an agent).
            inner.table.observe_bound(inner.agent_name_mapping[agent])
            obs = inner._observations[agent]
        return (
            obs,
            inner._cumulative_rewards[agent],
            inner.terminations[agent],
            inner.truncations[agent],
            inner.infos[agent],
        )

    def step(self, action: Any) -> None:
        order = self._order
        inner = order.env
        if not order.has_reset:
            EnvLogger.error_step_before_reset()
        elif not inner.agents:
            order.has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            order.has_updated = True
            agent = inner.agent_selection
            if (
                type(action) is not int
                or not 0 <= action < inner.actions
                or inner.terminations[agent]
                or inner.truncations[agent]
                or inner.render_mode == "human"
            ):
                # Dead steps, other action types, numbers out of range, rendering.
                inner.step(action)
                return
            # MajiangAECEnv.step for a live agent's int action, inlined: one Python call a
            # step fewer (tests compare it with the env's own step under PettingZoo's wrapper).
            try:
                after = inner.table.act_next(inner.agent_name_mapping[agent], action)
            except ValueError as refused:
                raise inner._illegal(agent, action, refused) from None
            inner._cumulative_rewards[agent] = 0
            if inner._rewarded:
                inner._zero_rewards()
            if isinstance(after, int):
                inner.agent_selection = inner._agent_at[after]
            else:
                inner._hand_over(after)

    def agent_iter(self, max_iter: int = 2**63) -> "_AgentIterable":
        if not self._order.has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)


class _AgentIterable(AECOrderEnforcingIterable):  # type: ignore[type-arg]
    def __iter__(self) -> Iterator[str]:
        return _agents(self.env._order, self.max_iter)


def _agents(order: _OrderState, max_iter: int) -> Iterator[str]:
    """PettingZoo's order-enforcing iterator (``AECOrderEnforcingIterator``: the same checks,
    the same order) as a generator reading the wrapper's flags directly: resuming a generator
    costs less than calling a ``__next__`` written in Python."""
    inner = order.env
    while inner.agents and max_iter > 0:
        max_iter -= 1
        assert order.has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        order.has_updated = False
        yield inner.agent_selection

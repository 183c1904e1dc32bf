"""A Gymnasium single-agent environment: one chair against the project's bots."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import copy

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ._checks import action_number, bot_seed, check_finite, check_seed, draw_seed, house_rules
from ._core import BOT_NAMES, TILE_KINDS, Table

#: What ``step`` does with an action the state does not allow (see :class:`MajiangGymEnv`).
ILLEGAL_ACTIONS = ("substitute", "raise")
#: Observation formats: a dict of planes and mask, or the planes flattened.
OBSERVATION_FORMATS = ("dict", "flat")

Observation = Union[Dict[str, np.ndarray], np.ndarray]


class MajiangGymEnv(gym.Env):  # type: ignore[type-arg]
    """The agent plays one chair; the other chairs are the project's bots (``opponents``:
    one name from ``BOT_NAMES`` — the levels ``easy``, ``normal`` and ``hard``, or a bot's own
    name ``random``, ``efficient``, ``expert``, ``aggressive`` — or one per other chair, in
    chair order). An episode is one match of ``hands`` hands (default one).

    **The agent's chair** (``seat``): ``None`` (default) draws it uniformly from ``np_random``
    for every match, so the agent plays every seat and deals a fair share of hands in every
    rule set (in Hong Kong chair 0 is East and deals first); an int fixes it. The chair of
    the match in play is ``self.seat`` and ``info["seat"]``; the observation says it too
    (scalars row, column 3).

    **Observations** (``observation``): ``"dict"`` (default) gives ``{"observation": uint8
    planes (see majiang.OBSERVATION_LAYOUT), "action_mask": bool (action_space.n,)}``;
    ``"flat"`` gives the planes flattened to one ``uint8`` vector (the mask is then in
    ``info["action_mask"]`` and :meth:`action_masks`).

    **Actions** are the table's dense action numbers (``majiang.action_layout``): every number
    in ``action_space`` is an action in some state. :meth:`action_masks` gives the legal ones
    now (as sb3-contrib's ``MaskablePPO`` asks for them).

    **Illegal actions** (``illegal_action``): ``"substitute"`` (default, so that unmasked
    learners and ``check_env`` run) plays the first legal action instead — the seat driver's
    policy for a refused bot action — adds ``illegal_penalty`` to the reward and sets
    ``info["illegal_action"] = True`` and ``info["illegal_reason"]`` (the engine's reason);
    ``"raise"`` (strict) raises ``ValueError`` with the engine's reason and changes nothing. Malformed actions (not an integer, outside the space) always raise.

    **Rewards**: the agent's payments (chips) for every hand that ended since its last decision,
    times ``reward_scale``. A hand that ends before the agent's first decision of the match is
    paid in the reward of that first decision; a match in which the agent never decides (a
    one-hand match won before its first turn) is no episode: ``reset`` deals the next one and
    counts it in ``info["skipped_matches"]``. So ``reset`` always returns a state where the
    agent acts.

    **Seeding** follows Gymnasium: ``reset(seed=s)`` (or the constructor's ``seed`` at the first
    reset) seeds ``np_random``, and every match — the first and each later one — draws its
    64-bit deal seed from it; the bots' seeds follow from the match's. Seeds are integers from
    0 to 2**64 - 1. Without any seed, the first reset seeds from the operating system (every
    run differs). ``info`` holds nothing hidden: no deal seed (it would rebuild the wall and
    every hand), only the mask, the ledger, the agent's chair, counters and
    ``info["missed_wins"]``: the tiles the agent may not win on now (Hong Kong's missed win;
    the mask already leaves those wins out).

    **Copies**: :meth:`clone` (and ``copy.deepcopy``, ``pickle``) copies the environment in its
    exact state, bots and random generators included: both play on identically.
    """

    metadata: Dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        rules: str = "hongkong",
        options: Optional[Mapping[str, Any]] = None,
        seed: Optional[int] = None,
        opponents: Union[str, Sequence[str]] = "normal",
        seat: Optional[int] = None,
        hands: Optional[int] = 1,
        illegal_action: str = "substitute",
        illegal_penalty: float = 0.0,
        reward_scale: float = 1.0,
        observation: str = "dict",
    ) -> None:
        self.rules = rules
        self.options = house_rules(options)
        self.hands = hands
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action: {illegal_action!r} is not one of {', '.join(ILLEGAL_ACTIONS)}")
        if observation not in OBSERVATION_FORMATS:
            raise ValueError(f"observation: {observation!r} is not one of {', '.join(OBSERVATION_FORMATS)}")
        self.illegal_action = illegal_action
        self.illegal_penalty = check_finite(illegal_penalty, "illegal_penalty")
        self.reward_scale = check_finite(reward_scale, "reward_scale")
        self.observation_format = observation
        self._pending_seed: Optional[int] = None if seed is None else check_seed(seed)
        self.table = Table(rules, self.options, 0, hands)
        n = self.table.players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"seat: there is no player {seat!r} at a table of {n} (None: drawn each match)")
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"opponents: {len(names)} bots given for {n - 1} other chairs")
        for name in names:
            if name not in BOT_NAMES:
                raise ValueError(f"opponents: unknown bot {name!r} (known bots: {', '.join(BOT_NAMES)})")
        self._opponent_names = names
        self.opponents = self._seat_opponents()
        self.actions = self.table.action_space
        planes = (self.table.planes, TILE_KINDS)
        if observation == "flat":
            self.observation_space = spaces.Box(0, 255, (planes[0] * planes[1],), dtype=np.uint8)
        else:
            self.observation_space = spaces.Dict(
                {
                    "observation": spaces.Box(0, 255, planes, dtype=np.uint8),
                    "action_mask": spaces.Box(0, 1, (self.actions,), dtype=np.bool_),
                }
            )
        self.action_space = spaces.Discrete(self.actions)
        self._started = False
        self._pending_reward = 0
        self._planes = np.zeros(planes, dtype=np.uint8)
        self._mask = np.zeros(self.actions, dtype=np.bool_)

    # -- the table ---------------------------------------------------------------------------

    def _seat_opponents(self) -> Dict[int, str]:
        """The bots by chair around the agent's chair ``self.seat``, in chair order."""
        others = [c for c in range(self.table.players) if c != self.seat]
        return dict(zip(others, self._opponent_names))

    def _new_match(self) -> None:
        # The deal seed stays inside: anyone holding it could rebuild every hand.
        match_seed = draw_seed(self.np_random)
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(0, self.table.players))
            self.opponents = self._seat_opponents()
        self.table = Table(self.rules, self.options, match_seed, self.hands)
        for chair, name in self.opponents.items():
            self.table.set_bot(chair, name, bot_seed(match_seed, chair))

    def _advance(self) -> int:
        """Lets the bots play until the agent must decide or the match ends; the agent's
        payments from hands that ended meanwhile."""
        reward = 0
        table = self.table
        while not table.is_over():
            if table.awaiting_deal():
                table.deal_next()
                continue
            # The seat driver plays every bot decision due (bots answering the same discard as
            # the agent answer first) and stops when only the agent is left to decide.
            payments = table.play_bots()
            if payments is not None:
                reward += payments[self.seat]
            elif self.seat in table.actors():
                break
            elif not table.awaiting_deal():
                raise RuntimeError(f"the bots stopped with chairs {table.actors()} to decide")
        return reward

    def _refresh(self) -> None:
        self.table.observe(self.seat, self._planes, self._mask.view(np.uint8))

    def _observation(self) -> Observation:
        if self.observation_format == "flat":
            return self._planes.reshape(-1).copy()
        return {"observation": self._planes.copy(), "action_mask": self._mask.copy()}

    def _info(self, **extra: Any) -> Dict[str, Any]:
        info: Dict[str, Any] = {
            "action_mask": self._mask.copy(),
            "ledger": self.table.ledger(),
            "seat": self.seat,
            "missed_wins": self.table.missed_wins(self.seat),
        }
        info.update(extra)
        return info

    # -- the Gymnasium API -------------------------------------------------------------------

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Observation, Dict[str, Any]]:
        """Starts a match in which the agent decides (see the class docs for seeding)."""
        if seed is None and self._pending_seed is not None:
            seed = self._pending_seed
        self._pending_seed = None
        super().reset(seed=None if seed is None else check_seed(seed))
        skipped = 0
        while True:
            self._new_match()
            reward = self._advance()
            if not self.table.is_over():
                break
            skipped += 1
        self._pending_reward = reward
        self._started = True
        self._refresh()
        return self._observation(), self._info(skipped_matches=skipped)

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as a bool array over the action space."""
        return self._mask.copy()

    def step(self, action: Any) -> Tuple[Observation, float, bool, bool, Dict[str, Any]]:
        """Plays ``action`` for the agent, then the bots until the agent decides again or the
        match ends."""
        if not self._started:
            raise RuntimeError("step: call reset() first")
        if self.table.is_over():
            raise RuntimeError("step: the match is over; call reset()")
        number = action_number(action, self.actions)
        illegal = not self._mask[number]
        reward = self._pending_reward
        self._pending_reward = 0
        reason: Optional[str] = None
        if illegal:
            # The engine's own reason (e.g. Hong Kong's missed win), asked without acting.
            reason = self.table.refusal(self.seat, number)
            if self.illegal_action == "raise":
                legal = np.flatnonzero(self._mask).tolist()
                raise ValueError(
                    f"action: {number} ({self.table.action_name(number)}) is not legal now: {reason}; legal: {legal}"
                )
            number = int(np.flatnonzero(self._mask)[0])
        payments = self.table.act(self.seat, number)
        if payments is not None:
            reward += payments[self.seat]
        reward += self._advance()
        terminated = self.table.is_over()
        self._refresh()
        value = reward * self.reward_scale + (self.illegal_penalty if illegal else 0.0)
        info = self._info(illegal_action=illegal)
        if illegal:
            info["illegal_reason"] = reason
        return self._observation(), float(value), terminated, False, info

    def legal_actions(self) -> List[int]:
        """The legal action numbers now."""
        return np.flatnonzero(self._mask).tolist()

    def clone(self) -> "MajiangGymEnv":
        """An independent copy in the exact state (table, bots, ``np_random``): stepped with
        the same actions, both give the same observations, rewards and infos."""
        return copy.deepcopy(self)

"""Argument checks shared by the environments: action numbers, seeds, bot seeds."""

from __future__ import annotations

import math
import numbers
import secrets
from typing import Any, Mapping

import numpy as np

#: Seeds are unsigned 64-bit integers.
SEED_LIMIT = 2**64


def action_number(action: Any, actions: int) -> int:
    """``action`` as an action number in ``range(actions)``; ``TypeError`` or ``ValueError``
    naming the argument otherwise. Python and numpy integers (and 0-d integer arrays) pass;
    floats, strings and bools do not."""
    if type(action) is int and 0 <= action < actions:
        return action
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        action = action.item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, numbers.Integral):
        raise TypeError(f"action: expected an integer action number, got {type(action).__name__} {action!r}")
    value = int(action)
    if not 0 <= value < actions:
        raise ValueError(f"action: {value} is not an action number (0..{actions - 1})")
    return value


def check_seed(seed: Any, name: str = "seed") -> int:
    """``seed`` as an int in ``0 .. 2**64 - 1``, or an error naming ``name``."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"{name}: expected an integer, got {type(seed).__name__} {seed!r}")
    value = int(seed)
    if not 0 <= value < SEED_LIMIT:
        raise ValueError(f"{name}: {value} is not between 0 and 2**64 - 1")
    return value


def draw_seed(rng: np.random.Generator) -> int:
    """A match seed drawn from ``rng`` (the environment's ``np_random``)."""
    return int(rng.integers(0, SEED_LIMIT, dtype=np.uint64))


def bot_seed(match_seed: int, chair: int) -> int:
    """The seed of the bot in ``chair`` for the match of ``match_seed`` (64-bit, well mixed)."""
    z = (match_seed + 0x9E3779B97F4A7C15 * (chair + 1)) % SEED_LIMIT
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % SEED_LIMIT
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % SEED_LIMIT
    return z ^ (z >> 31)


def check_finite(value: Any, name: str) -> float:
    """``value`` as a finite float, or an error naming ``name`` (NaN and infinities would
    poison every return a learner computes)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a number, got {type(value).__name__} {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name}: {number} is not a finite number")
    return number


def seed_or_entropy(seed: Any, name: str = "seed") -> int:
    """``seed`` checked, or, for ``None``, a fresh 64-bit seed from the operating system: the
    package's one seeding rule (Gymnasium's): unseeded means random, every run different."""
    if seed is None:
        return secrets.randbits(64)
    return check_seed(seed, name)


def house_rules(options: Any) -> Any:
    """``options`` as the engine takes it: a mapping copied into a dict, ``None`` or an empty
    mapping as ``None``; anything else passed on for the engine to refuse with its message."""
    if options is None:
        return None
    if isinstance(options, Mapping):
        return dict(options) or None
    return options

"""majiang: regional Chinese mahjong (Hong Kong, Hangzhou, Yangzhou, classic) for Python.

The Rust engine of the majiang project, compiled with PyO3:

- tiles and notation: :func:`parse_tiles`, :func:`tile_index`, :func:`tile_name`, :func:`glyphs`;
- hand analysis: :func:`analyze` (win, waits, shanten with wildcards and declared melds);
- scoring: :func:`score` (the JSON contract of ``majiang score --json``), :func:`rule_sets`;
- match logs: :class:`Table` writes them (``log_jsonl``), :func:`replay` checks them;
- reinforcement learning: :func:`env` (a PettingZoo AEC environment), :func:`parallel_env`
  (PettingZoo's parallel API, claims asked together), :func:`gym_env` (a
  Gymnasium single-agent environment against the project's bots, also registered as
  ``gymnasium.make("majiang/HongKong-v0")``, ``Hangzhou``, ``Yangzhou``, ``Classic``),
  :func:`gym_vector_env` (a Gymnasium vector environment, bots played in Rust) and
  :class:`VectorEnv` (many tables stepped inside Rust per call, results in numpy arrays);
- datasets and baselines: :mod:`majiang.baselines` (bot self-play recorded as arrays, a
  behaviour-cloning policy in numpy) and :mod:`majiang.ppo` (masked PPO in numpy, trained
  against the bots on the vector environment);
- other frameworks: :mod:`majiang.sb3` (an SB3 ``VecEnv`` over the Rust vector environment),
  :mod:`majiang.rllib` (Ray RLlib's multi-agent API);
- comparing policies: :mod:`majiang.arena` (duplicate deals with every seat rotated, paired
  intervals, Elo-style ratings).

Seeding is Gymnasium's everywhere: no seed means a random one (every run differs), a seed
replays everything. ``Table`` and the environments copy (``clone()``, ``copy.deepcopy``,
``pickle``). The guide is docs/python.md.

Actions are dense numbers per kind of table: ``range(action_space(rules, options))``, every
one an action some state offers; :func:`action_layout` lists the sections, :func:`action_name`
reads one. Observations are ``uint8`` planes of 42 tile-kind columns;
:data:`OBSERVATION_LAYOUT` describes them row by row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence, Union

from ._core import (
    BOT_NAMES,
    MAX_LEGAL,
    MAX_TABLES,
    TILE_KINDS,
    Table,
    VectorTables,
    action_layout,
    action_name,
    action_space,
    analyze,
    decode_action,
    encode_observation_json,
    glyphs,
    parse_tiles,
    replay,
    rule_sets,
    score,
    tile_index,
    tile_name,
)
from .vector import VectorEnv

if TYPE_CHECKING:
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    from .parallel import MajiangParallelEnv
    from .pettingzoo_env import MajiangAECEnv
    from .gym_vector import MajiangVectorEnv
    from .gymnasium_env import MajiangGymEnv

__all__ = [
    "BOT_NAMES",
    "GYM_IDS",
    "MAX_LEGAL",
    "MAX_TABLES",
    "OBSERVATION_LAYOUT",
    "RULES",
    "TILE_KINDS",
    "Table",
    "VectorEnv",
    "VectorTables",
    "action_layout",
    "action_name",
    "action_space",
    "analyze",
    "decode_action",
    "encode_observation_json",
    "env",
    "glyphs",
    "gym_env",
    "gym_vector_env",
    "observation_planes",
    "parallel_env",
    "parse_tiles",
    "raw_env",
    "replay",
    "rule_sets",
    "score",
    "table_sizes",
    "tile_index",
    "tile_name",
]

#: The rule sets' names.
RULES = tuple(r["name"] for r in rule_sets())

OBSERVATION_LAYOUT = """\
Observation planes: uint8, shape (7 + 4*n, 42) for n players; column = tile kind
(tile_index: 0-8 1m-9m, 9-17 1p-9p, 18-26 1s-9s, 27-33 1z-7z, 34-41 1f-8f).
A tile is always counted in its own column in every row: at five and six players the extra
winds (1f-4f, 1f-8f) in their bonus columns, melds of extra winds included (pung 356f: one in
each of 3f, 5f, 6f). At other tables columns 34-41 hold only flowers and seasons laid out.
Seats are counted from the viewer in turn order: k = 0 the viewer, 1 the next to play, ...
  row 0            own concealed tiles (counts), the tile just drawn included
  row 1            the tile just drawn (one-hot; empty unless on turn after a draw): it is in
                   row 0 as well
  row 2+4k         seat k: exposed meld tiles (chow, pung, exposed/added kong; counts)
  row 3+4k         seat k: concealed kong tiles (counts)
  row 4+4k         seat k: discards ever made, claimed ones too (counts)
  row 5+4k         seat k: flowers and seasons laid out (one-hot)
  row 2+4n         the wild kind (one-hot)
  row 3+4n         the wildcard indicator (one-hot)
  row 4+4n         the tile on offer: a discard or an added kong's tile (one-hot)
  row 5+4n         the latest discard (one-hot)
  row 6+4n         scalars by column: 0 live wall left, 1 dealer's lao, 2 prevailing wind
                   (0-3 = E S W N), 3 own seat (index in the rule set's seat order), 4 dealer,
                   5 player on turn (n: none), 6 the offer's discarder (n: none), 7 Fortune
                   Gambit round open, 8 a wildcard discard now is a gambit, 9 latest discard's
                   discarder (n: none), 10+k concealed tile count of seat k (extra winds
                   included), 10+n+k Fortune Gambit run of seat k (seats in columns 4-9
                   relative to the viewer too); other columns 0
Action numbers: dense per kind of table, see action_layout(rules, options). In order, each
section only where the table has it: discard (34 playing kinds, then one per extra wind),
concealed_kong (34 kinds, then one for the four extra winds at five players), added_kong (34
kinds, then one per extra wind), chow (21: lowest tile 1-7 of m, p, s), pung, kong, win, pass.
Four-player tables with chows and kongs: 0-33 discard, 34-67 concealed kong, 68-101 added kong,
102-122 chow, 123 pung, 124 kong, 125 win, 126 pass (127 actions).
"""

#: ``gymnasium.make`` ids registered when gymnasium is installed, by rule set.
GYM_IDS = {"hongkong": "majiang/HongKong-v0", "hangzhou": "majiang/Hangzhou-v0",
           "yangzhou": "majiang/Yangzhou-v0", "classic": "majiang/Classic-v0"}


def observation_planes(players: int) -> int:
    """Rows of an observation at a table of ``players`` (``7 + 4 * players``)."""
    return 7 + 4 * players


def table_sizes(rules: str) -> range:
    """The table sizes rule set ``rules`` allows (classic: 3 to 6 via ``options["players"]``)."""
    for r in rule_sets():
        if r["name"] == rules:
            return range(min(r["seat_counts"]), max(r["seat_counts"]) + 1)
    raise ValueError(f"rules: {rules!r} is not a rule set ({', '.join(RULES)})")


def raw_env(
    rules: str = "hongkong",
    options: Optional[Mapping[str, Any]] = None,
    seed: Optional[int] = None,
    hands: Optional[int] = 1,
    render_mode: Optional[str] = None,
    copy_observations: bool = True,
) -> "MajiangAECEnv":
    """The PettingZoo AEC environment without PettingZoo's wrappers (see :func:`env`)."""
    from .parallel import MajiangParallelEnv
    from .pettingzoo_env import MajiangAECEnv

    return MajiangAECEnv(
        rules=rules,
        options=options,
        seed=seed,
        hands=hands,
        render_mode=render_mode,
        copy_observations=copy_observations,
    )


def env(
    rules: str = "hongkong",
    options: Optional[Mapping[str, Any]] = None,
    seed: Optional[int] = None,
    hands: Optional[int] = 1,
    render_mode: Optional[str] = None,
    copy_observations: bool = True,
) -> "OrderEnforcingWrapper":
    """A PettingZoo AEC environment: one match (``hands`` hands; ``None`` plays the whole match)
    under ``rules`` with house rules ``options``, reproducible from ``seed``, wrapped in
    PettingZoo's ``OrderEnforcingWrapper`` (``env.unwrapped`` is the
    :class:`~majiang.pettingzoo_env.MajiangAECEnv`).

    Agents are ``player_0`` … ``player_{n-1}`` (chairs). Observations are dicts with
    ``observation`` (the planes of :data:`OBSERVATION_LAYOUT`) and ``action_mask`` (int8, as
    PettingZoo's samplers want it: the engine's legal actions); rewards are the rule set's payments when a hand ends.
    Each ``observe``/``last`` returns fresh arrays; ``copy_observations=False`` is the fast
    path for loops that use an observation before the next step: each agent's arrays are then
    preallocated and refilled in place by every ``observe``/``last`` of that agent (the same
    dict comes back, valid until that agent is observed again).
    The wrapper is a ``OrderEnforcingWrapper`` subclass with the same checks, forwarding the
    per-step calls directly. Needs ``pettingzoo`` (the wheel's ``[rl]`` extra
    installs it: ``pip install "majiang-0.1.0-….whl[rl]"``, see docs/python.md).
    """
    from .pettingzoo_env import MajiangOrderEnforcingWrapper

    return MajiangOrderEnforcingWrapper(raw_env(rules, options, seed, hands, render_mode, copy_observations))


def parallel_env(
    rules: str = "hongkong",
    options: Optional[Mapping[str, Any]] = None,
    seed: Optional[int] = None,
    hands: Optional[int] = 1,
) -> "MajiangParallelEnv":
    """A PettingZoo parallel environment: every agent that must decide is asked in the same
    step (claims on a discard together), with a full-information ``state()`` for centralised
    critics. See :class:`~majiang.parallel.MajiangParallelEnv`. Needs ``pettingzoo``."""
    from .parallel import MajiangParallelEnv

    return MajiangParallelEnv(rules=rules, options=options, seed=seed, hands=hands)


def gym_env(
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
) -> "MajiangGymEnv":
    """A Gymnasium environment: the agent plays chair ``seat`` (``None``: drawn uniformly for
    every match), the project's bots the others
    (``opponents``: a level ``easy``/``normal``/``hard`` or bot name from :data:`BOT_NAMES`, or
    one per other chair). ``illegal_action`` is ``"substitute"`` (play the first legal action,
    add ``illegal_penalty``) or ``"raise"`` (strict); rewards are chips times
    ``reward_scale``; ``observation`` is ``"dict"`` or ``"flat"``. See
    :class:`~majiang.gymnasium_env.MajiangGymEnv`. Needs ``gymnasium`` (the wheel's ``[rl]``
    extra installs it, see docs/python.md).
    """
    from .gymnasium_env import MajiangGymEnv

    return MajiangGymEnv(
        rules=rules,
        options=options,
        seed=seed,
        opponents=opponents,
        seat=seat,
        hands=hands,
        illegal_action=illegal_action,
        illegal_penalty=illegal_penalty,
        reward_scale=reward_scale,
        observation=observation,
    )


def gym_vector_env(
    rules: str = "hongkong",
    num_envs: int = 8,
    options: Optional[Mapping[str, Any]] = None,
    seed: Optional[int] = None,
    opponents: str = "normal",
    seat: int = 0,
    illegal_action: str = "substitute",
    illegal_penalty: float = 0.0,
    reward_scale: float = 1.0,
    observation: str = "dict",
) -> "MajiangVectorEnv":
    """A Gymnasium vector environment of ``num_envs`` tables, one hand per episode, the
    opponents (one bot level for all other chairs) played in Rust. See
    :class:`~majiang.gym_vector.MajiangVectorEnv`."""
    from .gym_vector import MajiangVectorEnv

    return MajiangVectorEnv(
        rules=rules,
        num_envs=num_envs,
        options=options,
        seed=seed,
        opponents=opponents,
        seat=seat,
        illegal_action=illegal_action,
        illegal_penalty=illegal_penalty,
        reward_scale=reward_scale,
        observation=observation,
    )


def _register() -> None:
    """Registers :data:`GYM_IDS` with gymnasium (when it is installed)."""
    try:
        import gymnasium
    except ImportError:
        return
    for rules, gym_id in GYM_IDS.items():
        if gym_id not in gymnasium.registry:
            gymnasium.register(
                id=gym_id,
                entry_point="majiang.gymnasium_env:MajiangGymEnv",
                kwargs={"rules": rules},
                vector_entry_point="majiang.gym_vector:MajiangVectorEnv",
            )


_register()

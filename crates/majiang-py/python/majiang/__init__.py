"""majiang: regional Chinese mahjong (Hong Kong, Hangzhou, Yangzhou, classic) for Python.

The Rust engine of the majiang project, compiled with PyO3:

- tiles and notation: :func:`parse_tiles`, :func:`tile_index`, :func:`tile_name`, :func:`glyphs`;
- hand analysis: :func:`analyze` (win, waits, shanten with wildcards and declared melds);
- scoring: :func:`score` (the JSON contract of ``majiang score --json``), :func:`rule_sets`;
- match logs: :class:`Table` writes them (``log_jsonl``), :func:`replay` checks them;
- reinforcement learning: :func:`env` (a PettingZoo AEC environment), :func:`gym_env` (a
  Gymnasium single-agent environment against the project's bots) and :class:`VectorEnv` (many
  tables stepped inside Rust per call, results in numpy arrays).

Actions are numbers in ``range(ACTION_SPACE)``; :func:`action_name` reads one. Observations are
``uint8`` planes of 42 tile-kind columns; :data:`OBSERVATION_LAYOUT` describes them row by row.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from ._core import (
    ACTION_SPACE,
    BOT_NAMES,
    MAX_LEGAL,
    TILE_KINDS,
    Table,
    VectorTables,
    action_name,
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

__all__ = [
    "ACTION_SPACE",
    "BOT_NAMES",
    "MAX_LEGAL",
    "OBSERVATION_LAYOUT",
    "RULES",
    "TILE_KINDS",
    "Table",
    "VectorEnv",
    "VectorTables",
    "action_name",
    "analyze",
    "decode_action",
    "encode_observation_json",
    "env",
    "glyphs",
    "gym_env",
    "observation_planes",
    "parse_tiles",
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
Seats are counted from the viewer in turn order: k = 0 the viewer, 1 the next to play, ...
  row 0            own concealed tiles (counts; extra winds at their bonus column)
  row 1            the tile just drawn (one-hot; empty unless on turn after a draw)
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
                   discarder (n: none), 10+k concealed tile count of seat k, 10+n+k Fortune
                   Gambit run of seat k (seats in columns 4-9 relative to the viewer too)
Action numbers: 0-41 discard kind, 42-83 concealed kong of kind, 84-125 added kong of kind,
126-152 chow by its lowest tile's kind, 153 pung, 154 kong, 155 win, 156 pass.
"""


def observation_planes(players: int) -> int:
    """Rows of an observation at a table of ``players`` (``7 + 4 * players``)."""
    return 7 + 4 * players


def table_sizes(rules: str) -> range:
    """The table sizes rule set ``rules`` allows (classic: 3 to 6 via ``options["players"]``)."""
    for r in rule_sets():
        if r["name"] == rules:
            return range(min(r["seat_counts"]), max(r["seat_counts"]) + 1)
    raise ValueError(f"rules: {rules!r} is not a rule set ({', '.join(RULES)})")


def env(
    rules: str = "hongkong",
    options: Optional[Mapping[str, Any]] = None,
    seed: Optional[int] = None,
    hands: Optional[int] = 1,
    render_mode: Optional[str] = None,
):
    """A PettingZoo AEC environment: one match (``hands`` hands; ``None`` plays the whole match)
    under ``rules`` with house rules ``options``, reproducible from ``seed``.

    Agents are ``player_0`` … ``player_{n-1}`` (chairs). Observations are dicts with
    ``observation`` (the planes of :data:`OBSERVATION_LAYOUT`) and ``action_mask`` (int8, the
    engine's legal actions); rewards are the rule set's payments when a hand ends.
    Needs ``pettingzoo`` (``pip install majiang[rl]``).
    """
    from .pettingzoo_env import MajiangAECEnv

    return MajiangAECEnv(rules=rules, options=options, seed=seed, hands=hands, render_mode=render_mode)


def gym_env(
    rules: str = "hongkong",
    options: Optional[Mapping[str, Any]] = None,
    seed: Optional[int] = None,
    opponents: Any = "efficient",
    seat: int = 0,
    hands: Optional[int] = 1,
):
    """A Gymnasium environment: the agent plays chair ``seat``, the project's bots the others
    (``opponents``: a bot name from :data:`BOT_NAMES` or one per other chair).
    Needs ``gymnasium`` (``pip install majiang[rl]``).
    """
    from .gymnasium_env import MajiangGymEnv

    return MajiangGymEnv(rules=rules, options=options, seed=seed, opponents=opponents, seat=seat, hands=hands)

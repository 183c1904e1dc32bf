"""Type stubs of majiang's compiled core (import the names from ``majiang``)."""

from typing import Any, Dict, List, Mapping, Optional, Tuple

import numpy as np

ACTION_SPACE: int
TILE_KINDS: int
MAX_LEGAL: int
BOT_NAMES: List[str]

def parse_tiles(text: str) -> List[str]:
    """The tiles of ``text`` (``"123m55z"``, glyphs too) in notation; ValueError names the bad position."""

def tile_index(tile: str) -> int:
    """Kind index of a tile (0..34 playing kinds, 34..42 bonus tiles): its observation column."""

def tile_name(index: int) -> str:
    """Notation of kind ``index`` (0..42)."""

def glyphs(text: str) -> str:
    """The tiles of ``text`` as Unicode mahjong glyphs."""

def analyze(
    hand: str,
    wildcard: Optional[str] = None,
    wild_not_own_kind: bool = False,
    seven_pairs: bool = True,
    thirteen_orphans: bool = True,
    four_as_two_pairs: bool = False,
) -> Dict[str, Any]:
    """Win, shanten by form, waits and decompositions: the dict of ``majiang analyze --json``."""

def score(request: Any) -> Dict[str, Any]:
    """Scores a RULES.md §6 request (dict or JSON text): the dict of ``majiang score --json``."""

def rule_sets() -> List[Dict[str, Any]]:
    """Every rule set: names, seat counts, unit, options, patterns."""

def replay(log: str) -> Dict[str, Any]:
    """Checks a match log (JSON lines) by re-driving the match; ValueError if it does not replay."""

def encode_observation_json(
    observation: str, rules: str, options: Optional[Mapping[str, Any]] = None
) -> Tuple[List[int], List[int]]:
    """Planes and mask encoded from an engine Observation given as JSON."""

def decode_action(action: int) -> Optional[str]:
    """The engine action of an action number, as JSON text."""

def action_name(action: int) -> str:
    """A readable name of an action number (``"discard 5m"``)."""

class Table:
    """One match through the engine's Session; bots may play any chairs."""

    players: int
    rules: str
    planes: int
    hand_number: int
    def __init__(
        self,
        rules: str,
        options: Optional[Mapping[str, Any]] = None,
        seed: int = 0,
        hands: Optional[int] = None,
    ) -> None: ...
    def to_act(self) -> Optional[int]: ...
    def actors(self) -> List[int]: ...
    def is_over(self) -> bool: ...
    def awaiting_deal(self) -> bool: ...
    def deal_next(self) -> None: ...
    def ledger(self) -> List[int]: ...
    def legal(self, player: int) -> List[int]: ...
    def legal_json(self, player: int) -> List[str]: ...
    def observe(self, player: int, obs: np.ndarray, mask: np.ndarray) -> None:
        """Writes the seat's planes (uint8, planes × 42) and legal mask (uint8, ACTION_SPACE)."""
    def observation_json(self, player: int) -> str: ...
    def act(self, player: int, action: int) -> Optional[List[int]]:
        """Plays an action number; the hand's payments by chair if it ended the hand."""
    def set_bot(self, player: int, name: Optional[str], seed: int = 0) -> None: ...
    def play_bots(self) -> Optional[List[int]]: ...
    def log_jsonl(self) -> str: ...
    def last_settlement(self) -> Optional[Dict[str, Any]]: ...

class VectorTables:
    """Many hands stepped in Rust per call; results written into numpy arrays."""

    num_tables: int
    players: int
    planes: int
    hands_finished: int
    def __init__(
        self,
        rules: str,
        num_tables: int,
        options: Optional[Mapping[str, Any]] = None,
        seed: int = 0,
    ) -> None: ...
    def reset(self, arrays: Dict[str, np.ndarray]) -> None: ...
    def step(self, actions: np.ndarray, arrays: Dict[str, np.ndarray]) -> None: ...

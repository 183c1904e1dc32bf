"""Type stubs of majiang's compiled core (import the names from ``majiang``)."""

from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

import numpy as np

TILE_KINDS: int
MAX_LEGAL: int
MAX_TABLES: int
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

def score(request: Union[Mapping[str, Any], str]) -> Dict[str, Any]:
    """Scores a win, as ``majiang score --json`` does.

    ``request`` (a dict, read directly without JSON text in between, or its JSON text)::

        {"rules": "hongkong" | "hangzhou" | "yangzhou" | "classic",
         "options": {"min_fan": 3, ...},            # house rules, all optional
         "concealed": "123m456p789s1z",             # concealed tiles, winning tile not included
         "melds": [{"kind": "pung" | "chow" | "kong" | "concealed_kong", "tiles": "555z",
                    "from": "west"}],               # from: whose discard (not for concealed_kong)
         "winning_tile": "1z",
         "win": "self_draw" | "discard" | "robbing_kong",
         "discarder": "south",                      # for discard and robbing_kong
         "seat": "east", "dealer": "east", "prevailing_wind": "east",
         "flowers": ["1f", "5f"],
         "situation": ["last_wall_tile", "last_discard", "kong_replacement", "heavenly", "earthly"],
         "kong_chain": 0, "gambits": 0, "lao": 1,   # Hangzhou
         "wildcard": "5z",                          # Hangzhou: the wild kind
         "balances": {"east": 50, ...},             # Hangzhou: for the zero floor
         "others": {"south": {"concealed": "...", "melds": [...], "flowers": [...]}, ...}}

    Answer: ``{"valid": True, "patterns": [{"id", "name", "value", "unit"}, ...], "total": N,
    "payments": {"east": N, ...}}`` (net chips by seat), or ``{"valid": False, "reason": ...,
    "why": {"key", "args"}}`` for a hand that is not a win or is below the minimum (``why``: the
    reason as a catalogue key and its values). Unreadable input raises ValueError.
    """

def rule_sets() -> List[Dict[str, Any]]:
    """Every rule set: names, seat counts, unit, options, patterns."""

def replay(log: str) -> Dict[str, Any]:
    """Checks a match log (JSON lines) by re-driving the match; ValueError if it does not replay."""

def encode_observation_json(
    observation: str, rules: str, options: Optional[Mapping[str, Any]] = None
) -> Tuple[List[int], List[int]]:
    """Planes and mask encoded from an engine Observation given as JSON."""

def decode_action(action: int, rules: str, options: Optional[Mapping[str, Any]] = None) -> str:
    """The engine action of an action number at tables under ``rules``, as JSON text."""

def action_name(action: int, rules: str, options: Optional[Mapping[str, Any]] = None) -> str:
    """A readable name of an action number at tables under ``rules`` (``"discard 5m"``)."""

def action_space(rules: str, options: Optional[Mapping[str, Any]] = None) -> int:
    """The number of actions at tables under ``rules`` (dense: every number is an action)."""

def action_layout(rules: str, options: Optional[Mapping[str, Any]] = None) -> List[Tuple[str, int, int]]:
    """The action numbers' sections: ``(name, first number, count)`` in order."""

def record_selfplay(
    rules: str,
    bot: str = "normal",
    hands: int = 100,
    seed: Optional[int] = None,
    options: Optional[Mapping[str, Any]] = None,
) -> Dict[str, Any]:
    """Bot ``bot`` in every chair for ``hands`` one-hand matches (1 to 100,000), every decision
    recorded: ``obs`` and ``mask`` as bytes, ``action``, ``chair``, ``hand`` and ``reward`` as
    lists, ``planes`` and ``action_space`` (``majiang.baselines.record`` turns them into arrays)."""

class Table:
    """One match through the library's seat driver; bots may play any chairs."""

    players: int
    rules: str
    planes: int
    hand_number: int
    action_space: int
    refused_bot_actions: int
    def __init__(
        self,
        rules: str,
        options: Optional[Mapping[str, Any]] = None,
        seed: Optional[int] = None,
        hands: Optional[int] = None,
    ) -> None: ...
    seed: int
    def clone(self) -> "Table":
        """An independent copy in the exact state (bots and their generators included)."""
    def __copy__(self) -> "Table": ...
    def __deepcopy__(self, memo: Any) -> "Table": ...
    def chairs(self) -> List[int]:
        """The chair of each entrant after the seat choice."""
    def to_act(self) -> Optional[int]: ...
    def actors(self) -> List[int]: ...
    def is_over(self) -> bool: ...
    def awaiting_deal(self) -> bool: ...
    def deal_next(self) -> None: ...
    def ledger(self) -> List[int]: ...
    def legal(self, player: int) -> List[int]: ...
    def legal_json(self, player: int) -> List[str]: ...
    def observe(self, player: int, obs: np.ndarray, mask: np.ndarray) -> None:
        """Writes the seat's planes (uint8, planes × 42) and legal mask (uint8, action_space)."""
    def bind_observation(self, player: int, obs: np.ndarray, mask: np.ndarray) -> None:
        """Binds the seat's arrays (as ``observe`` takes them) for ``observe_bound`` to refill."""
    def observe_bound(self, player: int) -> None:
        """Writes the seat's planes and mask into the arrays bound with ``bind_observation``."""
    def observation_json(self, player: int) -> str: ...
    def missed_wins(self, player: int) -> List[str]:
        """The tiles ``player`` may not win on now (Hong Kong's missed win: a win passed on
        that kind since their last live-wall draw), in notation; empty when nothing bars them."""
    def refusal(self, player: int, action: int) -> Optional[str]:
        """Why the engine would refuse action number ``action`` for ``player`` now (what
        ``act`` would raise), or ``None`` if it is legal. Changes nothing."""
    def action_layout(self) -> List[Tuple[str, int, int]]: ...
    def action_name(self, action: int) -> str: ...
    def decode_action(self, action: int) -> str: ...
    def act(self, player: int, action: int) -> Optional[List[int]]:
        """Plays an action number; the hand's payments by chair if it ended the hand."""
    def act_next(self, player: int, action: int) -> Union[int, List[int], None]:
        """Plays an action number as ``act`` does; then the next chair to decide (``to_act()``)
        while the hand goes on, or the hand's payments by chair (a list) if it ended it."""
    def restart(self, seed: int) -> None:
        """A new match under the same rules, options and hand limit, dealt from ``seed``: what
        ``Table(rules, options, seed, hands)`` would be (bots removed), arrays still bound."""
    def set_bot(self, player: int, name: Optional[str], seed: int = 0) -> None: ...
    def play_bots(self) -> Optional[List[int]]: ...
    def log_jsonl(self) -> str: ...
    def last_settlement(self) -> Optional[Dict[str, Any]]: ...

class VectorTables:
    """Many hands stepped in Rust per call; results written into numpy arrays."""

    num_tables: int
    players: int
    planes: int
    action_space: int
    seat: Optional[int]
    hands_finished: int
    hands_skipped: int
    refused_bot_actions: int
    def __init__(
        self,
        rules: str,
        num_tables: int,
        options: Optional[Mapping[str, Any]] = None,
        seed: Optional[int] = None,
        opponents: Optional[str] = None,
        seat: int = 0,
    ) -> None: ...
    def reset(self, arrays: Dict[str, np.ndarray], seed: Optional[int] = None) -> None: ...
    def step(self, actions: np.ndarray, arrays: Dict[str, np.ndarray]) -> None: ...
    def observation_json(self, t: int) -> str: ...
    def refusal(self, t: int, action: int) -> Optional[str]:
        """Why the engine would refuse action number ``action`` for table ``t``'s actor now
        (what ``step`` raises), or ``None`` if it is legal."""
    def clone(self) -> "VectorTables":
        """An independent copy of every table in its exact state."""
    def __copy__(self) -> "VectorTables": ...
    def __deepcopy__(self, memo: Any) -> "VectorTables": ...

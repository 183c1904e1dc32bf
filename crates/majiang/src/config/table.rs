//! The table facts a rule set fixes: how many play, the tiles, the wall, the dead wall, what may
//! be claimed. Data, not code: the engine reads these instead of matching on the rule set.

use crate::analysis::HandRules;
use crate::tile::Tile;
use serde::{Deserialize, Serialize};

/// How the far end of the wall is kept back for replacement tiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "tiles")]
pub enum DeadWall {
    /// No dead wall: replacements come from the far end, and every tile may be drawn.
    None,
    /// The last `n` tiles are kept for replacements and never drawn otherwise; the hand is drawn
    /// when only they remain (Hangzhou: 20). Not replenished: replacements use them up (and,
    /// once they are gone, come from the tail of the live wall).
    Fixed(u8),
    /// A dead wall of `n` tiles, replenished from the tail of the live wall after each
    /// replacement, so that it always holds `n` while the live wall lasts (Hong Kong: 14).
    Replenishing(u8),
}

impl DeadWall {
    /// The number of tiles kept back when the wall is broken.
    pub const fn size(self) -> usize {
        match self {
            DeadWall::None => 0,
            DeadWall::Fixed(n) | DeadWall::Replenishing(n) => n as usize,
        }
    }
}

/// Which tiles are wild.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "tile")]
pub enum WildcardRule {
    /// No wildcards.
    None,
    /// Every copy of this kind is wild (Hangzhou `wildcard = "white"`: the White dragons).
    Fixed(Tile),
    /// After the deal a die-chosen tile at the back of the wall is turned face up and taken out
    /// of play; the other copies of its kind are wild (Hangzhou `wildcard = "indicator"`).
    Indicator,
}

/// How the seats are chosen at the start of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatChoiceRule {
    /// Everyone rolls two dice; the highest (re-rolling ties) becomes the first dealer
    /// (Yangzhou, classic).
    HighestRoll,
    /// One roll of two dice, counted round the table from the first player, picks the dealer
    /// (Hangzhou; a double or 12 may start the dealer at 3 lao).
    CountedRoll,
    /// The Hong Kong ceremony: everyone rolls for temporary East, who rolls again; the player
    /// counted to takes a wind tile from the odd or even end of a face-down row, the others
    /// follow in turn, and everyone sits at the wind drawn.
    WindTiles,
}

/// The physical and play facts of a table under one rule set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TableConfig {
    /// Players at the table (3 to 6).
    pub players: u8,
    /// Tiles in a non-dealer's dealt hand (13; 10 at a six-player classic table).
    pub hand_size: u8,
    /// Flowers and seasons are in the wall (144 tiles rather than 136).
    pub flowers: bool,
    /// The dead wall.
    pub dead_wall: DeadWall,
    /// Dice thrown to break the wall (2; Hong Kong 3, as seed 004 says).
    pub break_dice: u8,
    /// Sides of the wall (always 4: the table is square, whoever sits at it).
    pub wall_sides: u8,
    /// Chows may be claimed (from the left neighbour only).
    pub chow_allowed: bool,
    /// Kongs may be declared or claimed.
    pub kongs_allowed: bool,
    /// The wildcards.
    pub wildcard: WildcardRule,
    /// The winning shapes (seven pairs, thirteen orphans) before the wildcard is known.
    pub hand_rules: HandRules,
    /// How seats are chosen at the start of a match.
    pub seat_choice: SeatChoiceRule,
    /// Wildcard discards open a Fortune Gambit round (Hangzhou).
    pub fortune_gambit: bool,
}

impl TableConfig {
    /// Tiles in the set: 34 kinds × 4, plus the 8 bonus tiles when flowers are in play, or the
    /// extra winds at a five- or six-player table (140, 144).
    pub const fn tile_count(&self) -> usize {
        136 + if self.flowers {
            8
        } else {
            self.extra_winds() as usize
        }
    }

    /// Bonus tiles played as extra winds rather than flowers: 4 (`1f`–`4f`) at a five-player
    /// table, all 8 at six, none otherwise (only classic seats five or six). See
    /// [`crate::table::extra_wind_play`].
    #[inline]
    pub const fn extra_winds(&self) -> u8 {
        TableConfig::extra_winds_at(self.players)
    }

    /// True when only pungs and a pair win: classic at six players, its extra winds in play
    /// (a chow could never be part of a win, so none is offered).
    pub const fn wins_by_pungs_only(&self) -> bool {
        self.players == 6 && self.extra_winds() > 0
    }

    /// Bonus tiles played as extra winds at a table of `players`: 4 at five, 8 at six, none
    /// otherwise.
    #[inline]
    pub const fn extra_winds_at(players: u8) -> u8 {
        match players {
            5 => 4,
            6 => 8,
            _ => 0,
        }
    }

    /// True if `t` is a flower or season laid out and replaced (a bonus tile at a table
    /// without extra winds).
    #[inline]
    pub const fn is_flower(&self, t: Tile) -> bool {
        t.is_bonus() && self.extra_winds() == 0
    }

    /// A tile's name at this table: a bonus tile played as an extra wind is a "North-east
    /// wind" at five players and an "Extra wind" at six (seed 003), not a flower or season;
    /// every other tile has its usual [`Tile::name`].
    ///
    /// ```
    /// use majiang::table::TableRules;
    /// let six = serde_json::json!({"players": 6});
    /// let r = TableRules::from_name("classic", six.as_object().unwrap()).unwrap();
    /// let f = |s: &str| s.parse::<majiang::Tile>().unwrap();
    /// assert_eq!(r.config().tile_name(f("5f")), "Extra wind (5f)");
    /// assert_eq!(r.config().tile_name(f("5m")), "5 of characters");
    /// let four = TableRules::from_name("classic", &serde_json::Map::new()).unwrap();
    /// assert_eq!(four.config().tile_name(f("5f")), "Spring");
    /// ```
    pub fn tile_name(&self, t: Tile) -> String {
        if !t.is_bonus() || self.extra_winds() == 0 {
            return t.name();
        }
        let kind = if self.players == 5 {
            "North-east wind"
        } else {
            "Extra wind"
        };
        format!("{kind} ({t})")
    }

    /// Stacks (two tiles high) on each side of the wall.
    pub const fn stacks_per_side(&self) -> usize {
        self.tile_count() / 2 / self.wall_sides as usize
    }
}

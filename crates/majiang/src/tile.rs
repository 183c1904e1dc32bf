//! Tiles: the 34 playing kinds and the 8 bonus tiles.
//!
//! A [`Tile`] is a one-byte kind index. Indices `0..34` are the playing kinds in the usual order
//! (`1m`–`9m`, `1p`–`9p`, `1s`–`9s`, `1z`–`7z` = East, South, West, North, White, Green, Red);
//! indices `34..42` are the bonus tiles `1f`–`8f` (four flowers, then four seasons). Copies of a
//! kind are not distinguished: a wall or a hand holds kinds, and counts say how many.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Number of playing kinds (suits and honors), the length of a [`crate::TileCounts`] array.
pub const KINDS: usize = 34;
/// Number of bonus tiles (flowers and seasons), one copy of each.
pub const BONUS_KINDS: usize = 8;

/// The suit of a tile; honors and bonus tiles are suits of their own here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Suit {
    /// Characters (wan), suffix `m`.
    Characters,
    /// Dots (tong), suffix `p`.
    Dots,
    /// Bamboo (tiao), suffix `s`.
    Bamboo,
    /// Winds and dragons, suffix `z`.
    Honors,
    /// Flowers and seasons, suffix `f`.
    Bonus,
}

impl Suit {
    /// The notation suffix letter.
    pub const fn letter(self) -> char {
        match self {
            Suit::Characters => 'm',
            Suit::Dots => 'p',
            Suit::Bamboo => 's',
            Suit::Honors => 'z',
            Suit::Bonus => 'f',
        }
    }

    /// The suit for a notation suffix letter.
    pub const fn from_letter(c: char) -> Option<Suit> {
        match c {
            'm' => Some(Suit::Characters),
            'p' => Some(Suit::Dots),
            's' => Some(Suit::Bamboo),
            'z' => Some(Suit::Honors),
            'f' => Some(Suit::Bonus),
            _ => None,
        }
    }

    /// Highest rank in this suit (9 for the three number suits, 7 honors, 8 bonus tiles).
    pub const fn max_rank(self) -> u8 {
        match self {
            Suit::Characters | Suit::Dots | Suit::Bamboo => 9,
            Suit::Honors => 7,
            Suit::Bonus => 8,
        }
    }

    const fn base(self) -> u8 {
        match self {
            Suit::Characters => 0,
            Suit::Dots => 9,
            Suit::Bamboo => 18,
            Suit::Honors => 27,
            Suit::Bonus => 34,
        }
    }

    /// True for characters, dots and bamboo.
    pub const fn is_numbered(self) -> bool {
        matches!(self, Suit::Characters | Suit::Dots | Suit::Bamboo)
    }

    /// The three number suits in index order.
    pub const NUMBERED: [Suit; 3] = [Suit::Characters, Suit::Dots, Suit::Bamboo];
}

/// The four winds, used for seat winds, the prevailing wind and the wind tiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Wind {
    /// East (`1z`).
    East,
    /// South (`2z`).
    South,
    /// West (`3z`).
    West,
    /// North (`4z`).
    North,
}

impl Wind {
    /// All four winds in turn order.
    pub const ALL: [Wind; 4] = [Wind::East, Wind::South, Wind::West, Wind::North];

    /// The wind tile of this wind.
    pub const fn tile(self) -> Tile {
        Tile(27 + self as u8)
    }

    /// The wind after this one in turn order (North wraps to East).
    pub const fn next(self) -> Wind {
        Wind::ALL[(self as usize + 1) % 4]
    }

    /// Lower-case English name, as used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Wind::East => "east",
            Wind::South => "south",
            Wind::West => "west",
            Wind::North => "north",
        }
    }

    /// Index 0..4 in turn order.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// One tile kind: a playing tile (`0..34`) or a bonus tile (`34..42`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(u8);

impl Tile {
    /// East wind, `1z`.
    pub const EAST: Tile = Tile(27);
    /// South wind, `2z`.
    pub const SOUTH: Tile = Tile(28);
    /// West wind, `3z`.
    pub const WEST: Tile = Tile(29);
    /// North wind, `4z`.
    pub const NORTH: Tile = Tile(30);
    /// White dragon, `5z`.
    pub const WHITE: Tile = Tile(31);
    /// Green dragon, `6z`.
    pub const GREEN: Tile = Tile(32);
    /// Red dragon, `7z`.
    pub const RED: Tile = Tile(33);

    /// The tile with this kind index, if it is below 42.
    pub const fn from_index(index: usize) -> Option<Tile> {
        if index < KINDS + BONUS_KINDS {
            Some(Tile(index as u8))
        } else {
            None
        }
    }

    /// The tile of `suit` and `rank` (1-based), if the rank exists in that suit.
    pub const fn new(suit: Suit, rank: u8) -> Option<Tile> {
        if rank >= 1 && rank <= suit.max_rank() {
            Some(Tile(suit.base() + rank - 1))
        } else {
            None
        }
    }

    /// Kind index: `0..34` for playing tiles, `34..42` for bonus tiles.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The suit.
    pub const fn suit(self) -> Suit {
        match self.0 {
            0..=8 => Suit::Characters,
            9..=17 => Suit::Dots,
            18..=26 => Suit::Bamboo,
            27..=33 => Suit::Honors,
            _ => Suit::Bonus,
        }
    }

    /// Rank within the suit, 1-based (1–9, honors 1–7, bonus 1–8).
    pub const fn rank(self) -> u8 {
        self.0 - self.suit().base() + 1
    }

    /// True for a flower or season.
    pub const fn is_bonus(self) -> bool {
        self.0 >= KINDS as u8
    }

    /// True for a flower (`1f`–`4f`).
    pub const fn is_flower(self) -> bool {
        self.0 >= 34 && self.0 < 38
    }

    /// True for a season (`5f`–`8f`).
    pub const fn is_season(self) -> bool {
        self.0 >= 38
    }

    /// True for a wind or dragon.
    pub const fn is_honor(self) -> bool {
        self.0 >= 27 && self.0 < 34
    }

    /// True for a wind tile.
    pub const fn is_wind(self) -> bool {
        self.0 >= 27 && self.0 < 31
    }

    /// True for a dragon tile.
    pub const fn is_dragon(self) -> bool {
        self.0 >= 31 && self.0 < 34
    }

    /// True for a 1 or 9 of a number suit.
    pub const fn is_terminal(self) -> bool {
        self.suit().is_numbered() && (self.rank() == 1 || self.rank() == 9)
    }

    /// True for a terminal or an honor (the thirteen-orphans kinds).
    pub const fn is_terminal_or_honor(self) -> bool {
        self.is_terminal() || self.is_honor()
    }

    /// True for a 1–9 of characters, dots or bamboo.
    pub const fn is_numbered(self) -> bool {
        self.0 < 27
    }

    /// The wind of a wind tile.
    pub const fn wind(self) -> Option<Wind> {
        match self.0 {
            27 => Some(Wind::East),
            28 => Some(Wind::South),
            29 => Some(Wind::West),
            30 => Some(Wind::North),
            _ => None,
        }
    }

    /// For a bonus tile, the seat wind it belongs to: flower or season `n` belongs to wind
    /// `(n-1) mod 4`, East first.
    pub const fn bonus_wind(self) -> Option<Wind> {
        if self.is_bonus() {
            Some(Wind::ALL[(self.rank() as usize - 1) % 4])
        } else {
            None
        }
    }

    /// The next tile in a number suit (`9` has none; honors and bonus tiles have none).
    pub const fn succ(self) -> Option<Tile> {
        if self.suit().is_numbered() && self.rank() < 9 {
            Some(Tile(self.0 + 1))
        } else {
            None
        }
    }

    /// All 34 playing kinds in index order.
    pub fn all() -> impl Iterator<Item = Tile> {
        (0..KINDS as u8).map(Tile)
    }

    /// All 8 bonus tiles.
    pub fn bonus_tiles() -> impl Iterator<Item = Tile> {
        (KINDS as u8..(KINDS + BONUS_KINDS) as u8).map(Tile)
    }

    /// The thirteen terminal and honor kinds of Thirteen Orphans.
    pub const ORPHANS: [Tile; 13] = [
        Tile(0),
        Tile(8),
        Tile(9),
        Tile(17),
        Tile(18),
        Tile(26),
        Tile(27),
        Tile(28),
        Tile(29),
        Tile(30),
        Tile(31),
        Tile(32),
        Tile(33),
    ];

    /// The Unicode mahjong glyph (U+1F000 block).
    pub fn glyph(self) -> char {
        let code = match self.suit() {
            Suit::Characters => 0x1F007 + u32::from(self.rank()) - 1,
            Suit::Bamboo => 0x1F010 + u32::from(self.rank()) - 1,
            Suit::Dots => 0x1F019 + u32::from(self.rank()) - 1,
            Suit::Honors => match self.rank() {
                1..=4 => 0x1F000 + u32::from(self.rank()) - 1,
                5 => 0x1F006, // white
                6 => 0x1F005, // green
                _ => 0x1F004, // red
            },
            // Unicode orders the flowers plum, orchid, bamboo, chrysanthemum.
            Suit::Bonus => match self.rank() {
                1 => 0x1F022,
                2 => 0x1F023,
                3 => 0x1F025,
                4 => 0x1F024,
                r => 0x1F026 + u32::from(r) - 5,
            },
        };
        char::from_u32(code).unwrap_or('?')
    }

    /// The tile for a Unicode mahjong glyph, if it is one of ours.
    pub fn from_glyph(c: char) -> Option<Tile> {
        let code = c as u32;
        let (suit, rank) = match code {
            0x1F000..=0x1F003 => (Suit::Honors, code - 0x1F000 + 1),
            0x1F004 => (Suit::Honors, 7),
            0x1F005 => (Suit::Honors, 6),
            0x1F006 => (Suit::Honors, 5),
            0x1F007..=0x1F00F => (Suit::Characters, code - 0x1F007 + 1),
            0x1F010..=0x1F018 => (Suit::Bamboo, code - 0x1F010 + 1),
            0x1F019..=0x1F021 => (Suit::Dots, code - 0x1F019 + 1),
            0x1F022 => (Suit::Bonus, 1),
            0x1F023 => (Suit::Bonus, 2),
            0x1F024 => (Suit::Bonus, 4),
            0x1F025 => (Suit::Bonus, 3),
            0x1F026..=0x1F029 => (Suit::Bonus, code - 0x1F026 + 5),
            _ => return None,
        };
        Tile::new(suit, rank as u8)
    }

    /// English name, e.g. "3 of dots", "East wind", "Red dragon", "Plum (flower 1)".
    pub fn name(self) -> String {
        const HONORS: [&str; 7] = [
            "East wind",
            "South wind",
            "West wind",
            "North wind",
            "White dragon",
            "Green dragon",
            "Red dragon",
        ];
        const BONUS: [&str; 8] = [
            "Plum",
            "Orchid",
            "Chrysanthemum",
            "Bamboo",
            "Spring",
            "Summer",
            "Autumn",
            "Winter",
        ];
        match self.suit() {
            Suit::Characters => format!("{} of characters", self.rank()),
            Suit::Dots => format!("{} of dots", self.rank()),
            Suit::Bamboo => format!("{} of bamboo", self.rank()),
            Suit::Honors => HONORS[self.rank() as usize - 1].to_string(),
            Suit::Bonus => BONUS[self.rank() as usize - 1].to_string(),
        }
    }
}

impl fmt::Display for Tile {
    /// Prints the notation form, e.g. `5m`, `7z`, `3f`; with `{:#}` the Unicode glyph.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            write!(f, "{}", self.glyph())
        } else {
            write!(f, "{}{}", self.rank(), self.suit().letter())
        }
    }
}

impl fmt::Debug for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank(), self.suit().letter())
    }
}

impl Serialize for Tile {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Tile {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Tile, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_suits_and_ranks_agree() {
        for i in 0..42 {
            let t = Tile::from_index(i).unwrap();
            assert_eq!(Tile::new(t.suit(), t.rank()), Some(t));
        }
        assert_eq!(Tile::from_index(42), None);
        assert_eq!(Tile::new(Suit::Honors, 8), None);
        assert_eq!(Tile::new(Suit::Dots, 0), None);
    }

    #[test]
    fn classification() {
        let t = |s: &str| s.parse::<Tile>().unwrap();
        assert!(t("1m").is_terminal() && t("9s").is_terminal() && !t("5p").is_terminal());
        assert!(t("1z").is_wind() && !t("5z").is_wind() && t("5z").is_dragon());
        assert_eq!(t("3z").wind(), Some(Wind::West));
        assert!(t("2f").is_flower() && t("6f").is_season());
        assert_eq!(t("6f").bonus_wind(), Some(Wind::South));
        assert_eq!(t("4f").bonus_wind(), Some(Wind::North));
        assert_eq!(t("8m").succ(), Some(t("9m")));
        assert_eq!(t("9m").succ(), None);
        assert_eq!(t("1z").succ(), None);
    }

    #[test]
    fn glyphs_round_trip() {
        for i in 0..42 {
            let t = Tile::from_index(i).unwrap();
            assert_eq!(Tile::from_glyph(t.glyph()), Some(t), "{t:?}");
        }
        assert_eq!(Tile::RED.glyph(), '🀄');
        assert_eq!(Tile::EAST.glyph(), '🀀');
        assert_eq!(format!("{:#}", Tile::WHITE), "🀆");
    }

    #[test]
    fn names() {
        assert_eq!(Tile::RED.name(), "Red dragon");
        assert_eq!("3f".parse::<Tile>().unwrap().name(), "Chrysanthemum");
        assert_eq!("7p".parse::<Tile>().unwrap().name(), "7 of dots");
    }
}

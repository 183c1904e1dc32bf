//! Seats at the table, named by their seat wind, and the players ([`Player`]: chairs, fixed
//! for a match) who sit in them.
//!
//! Four-player tables use East, South, West, North. The classic rules also seat three players
//! (no West), five (North-East between North and East) or six (South-West between South and West
//! too). [`Seat::order`] gives the turn order for each size.

use crate::tile::{Tile, Wind};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A player: a chair at the table, `0..n`, fixed for a match (their seat wind changes with
/// the dealer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Player(pub u8);

impl Player {
    /// The chair number as an index.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A seat, named by its seat wind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    /// East.
    East,
    /// South.
    South,
    /// West.
    West,
    /// North.
    North,
    /// North-East (classic five- and six-player games).
    NorthEast,
    /// South-West (classic six-player game).
    SouthWest,
}

impl Seat {
    /// The four seats of an ordinary table, in turn order.
    pub const FOUR: [Seat; 4] = [Seat::East, Seat::South, Seat::West, Seat::North];

    /// Turn order for a table of `players` (3 to 6); `None` for other sizes.
    pub const fn order(players: usize) -> Option<&'static [Seat]> {
        match players {
            3 => Some(&[Seat::East, Seat::South, Seat::North]),
            4 => Some(&Seat::FOUR),
            5 => Some(&[
                Seat::East,
                Seat::South,
                Seat::West,
                Seat::North,
                Seat::NorthEast,
            ]),
            6 => Some(&[
                Seat::East,
                Seat::South,
                Seat::SouthWest,
                Seat::West,
                Seat::North,
                Seat::NorthEast,
            ]),
            _ => None,
        }
    }

    /// The seat's wind, for the four wind seats.
    pub const fn wind(self) -> Option<Wind> {
        match self {
            Seat::East => Some(Wind::East),
            Seat::South => Some(Wind::South),
            Seat::West => Some(Wind::West),
            Seat::North => Some(Wind::North),
            _ => None,
        }
    }

    /// The wind tile of this seat, for the four wind seats.
    pub fn wind_tile(self) -> Option<Tile> {
        self.wind().map(Wind::tile)
    }

    /// The seat of a wind.
    pub const fn from_wind(w: Wind) -> Seat {
        match w {
            Wind::East => Seat::East,
            Wind::South => Seat::South,
            Wind::West => Seat::West,
            Wind::North => Seat::North,
        }
    }

    /// Lower-case snake_case name, as used in JSON (`"north_east"`).
    pub const fn name(self) -> &'static str {
        match self {
            Seat::East => "east",
            Seat::South => "south",
            Seat::West => "west",
            Seat::North => "north",
            Seat::NorthEast => "north_east",
            Seat::SouthWest => "south_west",
        }
    }

    /// The name for people: `East`, ..., `North-east`, `South-west` (the terminal and the
    /// browser both show this).
    ///
    /// ```
    /// use majiang::seat::Seat;
    /// assert_eq!(Seat::NorthEast.title(), "North-east");
    /// assert_eq!(Seat::West.title(), "West");
    /// ```
    pub const fn title(self) -> &'static str {
        match self {
            Seat::East => "East",
            Seat::South => "South",
            Seat::West => "West",
            Seat::North => "North",
            Seat::NorthEast => "North-east",
            Seat::SouthWest => "South-west",
        }
    }

    /// Parses a JSON/command-line seat name (case-insensitive; `-` or `_` in compound names).
    pub fn parse(s: &str) -> Option<Seat> {
        // The names as JSON writes them, without allocating (a scoring request has several).
        let exact = match s {
            "east" => Some(Seat::East),
            "south" => Some(Seat::South),
            "west" => Some(Seat::West),
            "north" => Some(Seat::North),
            "north_east" => Some(Seat::NorthEast),
            "south_west" => Some(Seat::SouthWest),
            _ => None,
        };
        if exact.is_some() {
            return exact;
        }
        match s.to_ascii_lowercase().replace('-', "_").as_str() {
            "east" | "e" => Some(Seat::East),
            "south" | "s" => Some(Seat::South),
            "west" | "w" => Some(Seat::West),
            "north" | "n" => Some(Seat::North),
            "north_east" | "northeast" | "ne" => Some(Seat::NorthEast),
            "south_west" | "southwest" | "sw" => Some(Seat::SouthWest),
            _ => None,
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders() {
        assert_eq!(Seat::order(3).unwrap().len(), 3);
        assert!(!Seat::order(3).unwrap().contains(&Seat::West));
        assert_eq!(Seat::order(6).unwrap()[2], Seat::SouthWest);
        assert!(Seat::order(7).is_none());
    }

    #[test]
    fn names_round_trip() {
        for s in Seat::order(6).unwrap() {
            assert_eq!(Seat::parse(s.name()), Some(*s));
        }
        assert_eq!(Seat::parse("North-East"), Some(Seat::NorthEast));
        assert_eq!(
            serde_json::to_string(&Seat::SouthWest).unwrap(),
            "\"south_west\""
        );
    }
}

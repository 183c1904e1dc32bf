//! Tile notation: `123m456p789s1234567z`, bonus tiles `1f`–`8f`, and the Unicode glyphs.
//!
//! Digits are followed by their suit letter (`m` characters, `p` dots, `s` bamboo, `z` honors,
//! `f` flowers and seasons); a run of digits shares the letter after it. Glyphs from the Unicode
//! mahjong block may stand anywhere a tile may. ASCII white space between tiles is ignored.
//!
//! ```
//! use majiang::notation::{format_tiles, parse_tiles};
//! let tiles = parse_tiles("123m🀄55z").unwrap();
//! assert_eq!(format_tiles(&tiles), "123m557z");
//! let err = parse_tiles("12x3m").unwrap_err();
//! assert_eq!(err.to_string(), "\"12x3m\": unexpected 'x' at 3");
//! ```

use crate::tile::{Suit, Tile};
use std::fmt;

/// What was wrong with a piece of notation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotationErrorKind {
    /// A character that is neither a digit, a suit letter, a glyph nor white space.
    UnexpectedChar(char),
    /// A suit letter with no digits before it.
    SuitWithoutDigits(char),
    /// Digits at the end (or before a glyph) with no suit letter after them.
    MissingSuit,
    /// A digit that is not a rank of the suit that follows (e.g. `8z`, `0m`, `9f`).
    NoSuchTile {
        /// The digit written.
        rank: u8,
        /// The suit letter after it.
        suit: char,
    },
    /// Nothing where a tile was expected.
    Empty,
    /// More than one tile where exactly one was expected.
    NotOneTile(usize),
    /// More copies of a kind than a set holds (four of each playing tile, one of each bonus tile).
    TooManyCopies {
        /// The kind.
        tile: Tile,
        /// How many copies were given.
        count: usize,
    },
    /// A meld whose tiles do not form that kind of meld, or an unknown meld keyword.
    BadMeld(String),
}

/// An error in tile notation, naming the input, the 1-based character position and the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotationError {
    /// The text that was being read.
    pub input: String,
    /// 1-based character position of the problem (input length + 1 for "at the end").
    pub position: usize,
    /// What was wrong.
    pub kind: NotationErrorKind,
}

impl NotationError {
    pub(crate) fn new(input: &str, position: usize, kind: NotationErrorKind) -> Self {
        NotationError {
            input: input.to_string(),
            position,
            kind,
        }
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use NotationErrorKind::*;
        write!(f, "{:?}: ", self.input)?;
        match &self.kind {
            UnexpectedChar(c) => write!(f, "unexpected {c:?} at {}", self.position),
            SuitWithoutDigits(c) => {
                write!(
                    f,
                    "suit letter {c:?} without digits before it at {}",
                    self.position
                )
            }
            MissingSuit => write!(
                f,
                "digits without a suit letter (m, p, s, z or f) at {}",
                self.position
            ),
            NoSuchTile { rank, suit } => {
                write!(f, "there is no tile {rank}{suit} (at {})", self.position)
            }
            Empty => write!(f, "no tiles given"),
            NotOneTile(n) => write!(f, "expected exactly one tile, found {n}"),
            TooManyCopies { tile, count } => {
                let limit = if tile.is_bonus() { 1 } else { 4 };
                write!(
                    f,
                    "{count} copies of {tile} but a set has only {limit} (impossible hand)"
                )
            }
            BadMeld(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for NotationError {}

/// Parses a run of tiles in notation (and/or glyphs), in the order written.
///
/// Does not check copy counts: see [`crate::TileCounts::from_tiles`] for that.
pub fn parse_tiles(input: &str) -> Result<Vec<Tile>, NotationError> {
    let mut tiles = Vec::with_capacity(14);
    // Pending digits: (rank, 1-based position).
    let mut pending: Vec<(u8, usize)> = Vec::with_capacity(14);
    for (i, c) in input.chars().enumerate() {
        let pos = i + 1;
        if let Some(d) = c.to_digit(10) {
            pending.push((d as u8, pos));
        } else if let Some(suit) = Suit::from_letter(c) {
            if pending.is_empty() {
                return Err(NotationError::new(
                    input,
                    pos,
                    NotationErrorKind::SuitWithoutDigits(c),
                ));
            }
            for &(rank, at) in &pending {
                let tile = Tile::new(suit, rank).ok_or_else(|| {
                    NotationError::new(input, at, NotationErrorKind::NoSuchTile { rank, suit: c })
                })?;
                tiles.push(tile);
            }
            pending.clear();
        } else if let Some(tile) = Tile::from_glyph(c) {
            if let Some(&(_, at)) = pending.first() {
                return Err(NotationError::new(
                    input,
                    at,
                    NotationErrorKind::MissingSuit,
                ));
            }
            tiles.push(tile);
        } else if c.is_ascii_whitespace() {
            if let Some(&(_, at)) = pending.first() {
                return Err(NotationError::new(
                    input,
                    at,
                    NotationErrorKind::MissingSuit,
                ));
            }
        } else {
            return Err(NotationError::new(
                input,
                pos,
                NotationErrorKind::UnexpectedChar(c),
            ));
        }
    }
    if let Some(&(_, at)) = pending.first() {
        return Err(NotationError::new(
            input,
            at,
            NotationErrorKind::MissingSuit,
        ));
    }
    Ok(tiles)
}

/// Parses exactly one tile.
pub fn parse_tile(input: &str) -> Result<Tile, NotationError> {
    let tiles = parse_tiles(input)?;
    match tiles.as_slice() {
        [t] => Ok(*t),
        [] => Err(NotationError::new(input, 1, NotationErrorKind::Empty)),
        more => Err(NotationError::new(
            input,
            1,
            NotationErrorKind::NotOneTile(more.len()),
        )),
    }
}

/// Formats tiles in compact notation, sorted, runs sharing a suit letter: `123m55z`.
pub fn format_tiles(tiles: &[Tile]) -> String {
    let mut sorted = tiles.to_vec();
    sorted.sort();
    format_in_order(&sorted)
}

/// Formats tiles in the order given, merging adjacent tiles of one suit: `[5m,1m,2p]` → `51m2p`.
pub fn format_in_order(tiles: &[Tile]) -> String {
    let mut out = String::with_capacity(tiles.len() * 2);
    for (i, t) in tiles.iter().enumerate() {
        out.push(char::from(b'0' + t.rank()));
        let next_same = tiles.get(i + 1).is_some_and(|n| n.suit() == t.suit());
        if !next_same {
            out.push(t.suit().letter());
        }
    }
    out
}

/// Formats tiles as Unicode glyphs, sorted.
pub fn format_glyphs(tiles: &[Tile]) -> String {
    let mut sorted = tiles.to_vec();
    sorted.sort();
    sorted.iter().map(|t| t.glyph()).collect()
}

impl std::str::FromStr for Tile {
    type Err = NotationError;

    /// Parses exactly one tile, e.g. `5m`, `7z`, `1f` or a glyph.
    fn from_str(s: &str) -> Result<Tile, Self::Err> {
        parse_tile(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Tile {
        parse_tile(s).unwrap()
    }

    #[test]
    fn parses_runs_and_honors() {
        let tiles = parse_tiles("123m456p789s1234567z").unwrap();
        assert_eq!(tiles.len(), 16);
        assert_eq!(tiles[0], t("1m"));
        assert_eq!(tiles[15], Tile::RED);
        assert_eq!(format_tiles(&tiles), "123m456p789s1234567z");
    }

    #[test]
    fn parses_bonus_and_glyphs() {
        let tiles = parse_tiles("1f8f🀄🀇").unwrap();
        assert_eq!(format_in_order(&tiles), "18f7z1m");
        assert_eq!(format_glyphs(&parse_tiles("5z6z7z").unwrap()), "🀆🀅🀄");
    }

    #[test]
    fn sorting_and_white_space() {
        let tiles = parse_tiles("55z 321m").unwrap();
        assert_eq!(format_tiles(&tiles), "123m55z");
    }

    #[test]
    fn error_positions_and_messages() {
        let e = parse_tiles("12x3m").unwrap_err();
        assert_eq!(e.position, 3);
        assert_eq!(e.to_string(), "\"12x3m\": unexpected 'x' at 3");
        let e = parse_tiles("123").unwrap_err();
        assert_eq!(e.kind, NotationErrorKind::MissingSuit);
        assert_eq!(e.position, 1);
        let e = parse_tiles("11m8z").unwrap_err();
        assert_eq!(e.kind, NotationErrorKind::NoSuchTile { rank: 8, suit: 'z' });
        assert_eq!(e.position, 4);
        let e = parse_tiles("m1").unwrap_err();
        assert_eq!(e.kind, NotationErrorKind::SuitWithoutDigits('m'));
        assert!(parse_tiles("0m").is_err());
        assert!(parse_tiles("9f").is_err());
        assert!(parse_tiles("12🀄").is_err());
        assert!(parse_tile("").is_err());
        assert!(parse_tile("12m").is_err());
    }

    #[test]
    fn empty_input_is_no_tiles() {
        assert_eq!(parse_tiles("").unwrap(), vec![]);
        assert_eq!(parse_tiles("   ").unwrap(), vec![]);
    }
}

//! Tile notation as requests usually write it (`123m55z`: digits, then a suit letter), read
//! without the general parser's bookkeeping. Anything else (glyphs, spaces, a bad rank, a
//! missing suit) goes to [`notation`](crate::notation), so the answers and messages are its own.

use crate::notation::{NotationError, parse_tile, parse_tiles};
use crate::tile::{Suit, Tile};

/// The tiles written in `s`: [`parse_tiles`]'s answer.
pub(super) fn tiles(s: &str) -> Result<Vec<Tile>, NotationError> {
    plain(s).map_or_else(|| parse_tiles(s), Ok)
}

/// The one tile written in `s`: [`parse_tile`]'s answer.
pub(super) fn tile(s: &str) -> Result<Tile, NotationError> {
    match s.as_bytes() {
        &[d, letter] => one(d, letter).map_or_else(|| parse_tile(s), Ok),
        _ => parse_tile(s),
    }
}

/// The tile of digit `d` in the suit `letter`, if both are plain and the tile exists.
fn one(d: u8, letter: u8) -> Option<Tile> {
    in_suit(d, Suit::from_letter(char::from(letter))?)
}

/// The tile of digit `d` in `suit`, if `d` is a digit and the tile exists.
fn in_suit(d: u8, suit: Suit) -> Option<Tile> {
    Tile::new(suit, d.checked_sub(b'0').filter(|&r| r <= 9)?)
}

/// `s` read as runs of digits each closed by a suit letter, or `None` for anything else.
fn plain(s: &str) -> Option<Vec<Tile>> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b.is_ascii_digit() {
            continue;
        }
        if i == run {
            return None;
        }
        let suit = Suit::from_letter(char::from(b))?;
        for &d in &bytes[run..i] {
            out.push(in_suit(d, suit)?);
        }
        run = i + 1;
    }
    (run == bytes.len()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_general_parser_s_answers_and_messages() {
        for s in [
            "123m55z",
            "19m19p19s1234567z",
            "1m",
            "9m",
            "5z",
            "8z",
            "0m",
            "1f",
            "9f",
            "m",
            "12",
            "1m 2m",
            "🀄",
            "",
            "1x",
            "11",
            "123m4",
            "1M",
            "123456789m234m",
            "１m",
        ] {
            assert_eq!(tiles(s), parse_tiles(s), "{s:?}");
            assert_eq!(tile(s), parse_tile(s), "{s:?}");
        }
    }
}

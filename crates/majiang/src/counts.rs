//! Count arrays: how many of each of the 34 playing kinds a group of tiles holds.
//!
//! All hand analysis works on [`TileCounts`]; it is `Copy`, 34 bytes, and allocates nothing.

use crate::notation::{NotationError, NotationErrorKind, format_tiles, parse_tiles};
use crate::tile::{KINDS, Tile};
use std::fmt;
use std::ops::{Index, IndexMut};

/// How many of each playing kind (`0..34`), e.g. a concealed hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileCounts(pub [u8; KINDS]);

impl TileCounts {
    /// No tiles.
    pub const EMPTY: TileCounts = TileCounts([0; KINDS]);

    /// Counts of the given playing tiles, refusing bonus tiles and a fifth copy of any kind.
    pub fn from_tiles(tiles: &[Tile]) -> Result<TileCounts, TooManyCopies> {
        let mut c = TileCounts::EMPTY;
        for &t in tiles {
            if t.is_bonus() {
                return Err(TooManyCopies::Bonus(t));
            }
            c.0[t.index()] += 1;
            if c.0[t.index()] > 4 {
                return Err(TooManyCopies::Kind(t));
            }
        }
        Ok(c)
    }

    /// Parses notation into counts: playing tiles only, at most four of each.
    pub fn parse(input: &str) -> Result<TileCounts, NotationError> {
        let tiles = parse_tiles(input)?;
        TileCounts::from_tiles(&tiles).map_err(|e| match e {
            TooManyCopies::Kind(tile) => NotationError::new(
                input,
                1,
                NotationErrorKind::TooManyCopies {
                    tile,
                    count: tiles.iter().filter(|&&t| t == tile).count(),
                },
            ),
            TooManyCopies::Bonus(tile) => NotationError::new(
                input,
                1,
                NotationErrorKind::BadMeld(format!(
                    "{tile} is a bonus tile; it cannot be part of a hand"
                )),
            ),
        })
    }

    /// Total number of tiles.
    pub fn len(&self) -> usize {
        // Eight counts a word: the bytes added in pairs (no carry out of 16 bits), the four
        // pair sums gathered by one multiply into the top 16 bits.
        const EVEN: u64 = 0x00FF_00FF_00FF_00FF;
        let mut total = usize::from(self.0[32]) + usize::from(self.0[33]);
        for chunk in self.0[..32].chunks_exact(8) {
            let mut b = [0u8; 8];
            b.copy_from_slice(chunk);
            let w = u64::from_le_bytes(b);
            let pairs = (w & EVEN) + (w >> 8 & EVEN);
            total += (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as usize;
        }
        total
    }

    /// True when there are no tiles.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// How many of `tile` (0 for bonus tiles).
    pub fn get(&self, tile: Tile) -> u8 {
        if tile.is_bonus() {
            0
        } else {
            self.0[tile.index()]
        }
    }

    /// Adds one tile (no bound check beyond `u8`).
    pub fn add(&mut self, tile: Tile) {
        self.0[tile.index()] += 1;
    }

    /// Removes one tile; false (and nothing changed) if there is none (always for a bonus
    /// tile, which the counts do not hold).
    pub fn remove(&mut self, tile: Tile) -> bool {
        if tile.is_bonus() {
            return false;
        }
        let n = &mut self.0[tile.index()];
        if *n == 0 {
            false
        } else {
            *n -= 1;
            true
        }
    }

    /// The tiles, sorted, one entry per copy.
    pub fn tiles(&self) -> Vec<Tile> {
        let mut v = Vec::with_capacity(self.len());
        for (i, &n) in self.0.iter().enumerate() {
            for _ in 0..n {
                v.push(Tile::from_index(i).expect("index below 34"));
            }
        }
        v
    }

    /// The kinds present, with their counts.
    pub fn iter(&self) -> impl Iterator<Item = (Tile, u8)> + '_ {
        self.0
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(i, &n)| (Tile::from_index(i).expect("index below 34"), n))
    }
}

impl Default for TileCounts {
    fn default() -> Self {
        TileCounts::EMPTY
    }
}

impl Index<Tile> for TileCounts {
    type Output = u8;
    fn index(&self, t: Tile) -> &u8 {
        &self.0[t.index()]
    }
}

impl IndexMut<Tile> for TileCounts {
    fn index_mut(&mut self, t: Tile) -> &mut u8 {
        &mut self.0[t.index()]
    }
}

impl fmt::Display for TileCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_tiles(&self.tiles()))
    }
}

impl fmt::Debug for TileCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TileCounts({self})")
    }
}

/// Why tiles could not be counted as a hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TooManyCopies {
    /// A fifth copy of this playing kind.
    Kind(Tile),
    /// A bonus tile, which is never part of a hand's count array.
    Bonus(Tile),
}

impl fmt::Display for TooManyCopies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TooManyCopies::Kind(t) => write!(f, "more than four copies of {t} (impossible hand)"),
            TooManyCopies::Bonus(t) => write!(f, "{t} is a bonus tile, not part of a hand"),
        }
    }
}

impl std::error::Error for TooManyCopies {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn len_adds_every_count() {
        let mut c = TileCounts::EMPTY;
        for i in 0..KINDS {
            c.0[i] = (i * 37 % 256) as u8;
            let want: usize = c.0.iter().map(|&n| usize::from(n)).sum();
            assert_eq!(c.len(), want);
        }
        assert_eq!(TileCounts([255; KINDS]).len(), 255 * KINDS);
    }

    #[test]
    fn counts_and_prints() {
        let c = TileCounts::parse("5z123m5z").unwrap();
        assert_eq!(c.len(), 5);
        assert_eq!(c[Tile::WHITE], 2);
        assert_eq!(c.to_string(), "123m55z");
    }

    #[test]
    fn fifth_copy_is_an_error() {
        let e = TileCounts::parse("11111m").unwrap_err();
        assert!(e.to_string().contains("5 copies of 1m"), "{e}");
        assert!(TileCounts::parse("1111m").is_ok());
        assert!(TileCounts::parse("1m1f").is_err());
    }

    #[test]
    fn a_bonus_tile_is_never_held() {
        let mut c = TileCounts::parse("1m").unwrap();
        let flower: Tile = "3f".parse().unwrap();
        assert_eq!(c.get(flower), 0);
        assert!(!c.remove(flower));
        assert_eq!(c.to_string(), "1m");
    }
}

//! [`DealtTiles`]: the tiles of one deal event, held inline (no allocation per dealt block).

use crate::tile::Tile;
use serde::de::{Error as _, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::ops::Deref;

/// Up to four tiles dealt to one player at once: a deal gives blocks of four, then one or two.
/// Reads as a slice (`Deref<Target = [Tile]>`); serialises and prints exactly as a `Vec<Tile>`
/// would, so logs and their JSON do not change.
///
/// ```
/// use majiang::table::DealtTiles;
/// use majiang::tile::Tile;
///
/// let tiles: DealtTiles = [Tile::EAST, Tile::SOUTH].into_iter().collect();
/// assert_eq!(tiles.len(), 2);
/// assert_eq!(serde_json::to_string(&tiles).unwrap(), serde_json::to_string(&tiles.to_vec()).unwrap());
/// ```
#[derive(Clone, Copy)]
pub struct DealtTiles {
    tiles: [Tile; DealtTiles::CAPACITY],
    len: u8,
}

impl DealtTiles {
    /// The most tiles one deal event holds.
    pub const CAPACITY: usize = 4;

    /// No tiles.
    pub const fn new() -> DealtTiles {
        DealtTiles {
            tiles: [Tile::EAST; DealtTiles::CAPACITY],
            len: 0,
        }
    }

    /// Adds `tile`; false (and nothing added) if there are already [`Self::CAPACITY`].
    pub fn push(&mut self, tile: Tile) -> bool {
        let Some(slot) = self.tiles.get_mut(usize::from(self.len)) else {
            return false;
        };
        *slot = tile;
        self.len += 1;
        true
    }
}

impl Default for DealtTiles {
    fn default() -> Self {
        DealtTiles::new()
    }
}

impl Deref for DealtTiles {
    type Target = [Tile];
    fn deref(&self) -> &[Tile] {
        &self.tiles[..usize::from(self.len)]
    }
}

impl PartialEq for DealtTiles {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for DealtTiles {}

impl fmt::Debug for DealtTiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Takes the first [`DealtTiles::CAPACITY`] tiles.
impl FromIterator<Tile> for DealtTiles {
    fn from_iter<I: IntoIterator<Item = Tile>>(iter: I) -> Self {
        let mut d = DealtTiles::new();
        for t in iter.into_iter().take(DealtTiles::CAPACITY) {
            d.push(t);
        }
        d
    }
}

impl Serialize for DealtTiles {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for DealtTiles {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<DealtTiles, D::Error> {
        struct Tiles;
        impl<'de> Visitor<'de> for Tiles {
            type Value = DealtTiles;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a list of at most {} tiles", DealtTiles::CAPACITY)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<DealtTiles, A::Error> {
                let mut d = DealtTiles::new();
                while let Some(t) = seq.next_element::<Tile>()? {
                    if !d.push(t) {
                        return Err(A::Error::invalid_length(DealtTiles::CAPACITY + 1, &self));
                    }
                }
                Ok(d)
            }
        }
        d.deserialize_seq(Tiles)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_and_debug_match_a_vec() {
        let v = vec![Tile::EAST, Tile::RED, Tile::EAST];
        let d: DealtTiles = v.iter().copied().collect();
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(serde_json::to_string(&d).unwrap(), json);
        assert_eq!(format!("{d:?}"), format!("{v:?}"));
        let back: DealtTiles = serde_json::from_str(&json).unwrap();
        assert_eq!(back, d);
        assert_eq!(&*back, &v[..]);
    }

    #[test]
    fn five_tiles_are_refused() {
        let v = vec![Tile::EAST; 5];
        let json = serde_json::to_string(&v).unwrap();
        assert!(serde_json::from_str::<DealtTiles>(&json).is_err());
        let mut d = DealtTiles::new();
        assert!((0..4).all(|_| d.push(Tile::EAST)));
        assert!(!d.push(Tile::EAST));
        assert_eq!(d.len(), 4);
    }
}

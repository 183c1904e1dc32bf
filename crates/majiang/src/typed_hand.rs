//! A hand as a person types it: concealed tiles followed by declared melds.
//!
//! `"123m456p11z pung 555z chow 234s"`: plain tile groups are the concealed tiles; a meld keyword
//! (`chow`, `pung`, `kong`, `concealed_kong`) takes the tiles after it as a declared meld. The
//! command line's `analyze` and `score` and the Python package read hands this way.
//!
//! ```
//! use majiang::typed_hand::TypedHand;
//! let hand = TypedHand::parse("123m456p11z pung 555z").unwrap();
//! assert_eq!(hand.concealed.len(), 8);
//! assert_eq!(hand.melds.len(), 1);
//! assert!(hand.counts().is_ok());
//! assert!(TypedHand::parse("11112m pung 111m").unwrap().counts().is_err()); // a fifth 1m
//! assert!(TypedHand::parse("123m pung").is_err());
//! ```

use crate::counts::TileCounts;
use crate::meld::{Meld, MeldKind};
use crate::notation::parse_tiles;
use crate::tile::Tile;
use std::fmt;

/// A hand as typed: concealed tiles and declared melds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypedHand {
    /// The concealed tiles, in the order typed.
    pub concealed: Vec<Tile>,
    /// Declared melds.
    pub melds: Vec<Meld>,
}

/// Why a typed hand cannot be read: a message for a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypedHandError(pub String);

impl fmt::Display for TypedHandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TypedHandError {}

impl TypedHand {
    /// Reads `concealed [kind tiles]...`.
    pub fn parse(input: &str) -> Result<TypedHand, TypedHandError> {
        let mut concealed = Vec::new();
        let mut melds = Vec::new();
        let mut words = input.split_whitespace();
        while let Some(word) = words.next() {
            if MeldKind::from_keyword(&word.to_ascii_lowercase()).is_some() {
                let tiles = words.next().ok_or_else(|| {
                    TypedHandError(format!(
                        "{input:?}: {word} needs its tiles after it, e.g. \"{word} 555z\""
                    ))
                })?;
                let meld = Meld::parse(&format!("{word} {tiles}"))
                    .map_err(|e| TypedHandError(e.to_string()))?;
                melds.push(meld);
            } else {
                concealed.extend(parse_tiles(word).map_err(|e| TypedHandError(e.to_string()))?);
            }
        }
        Ok(TypedHand { concealed, melds })
    }

    /// The concealed counts, after checking that no kind appears more than four times across
    /// the concealed tiles, the melds and `extra` (e.g. a winning tile typed apart).
    pub fn counts_with(&self, extra: &[Tile]) -> Result<TileCounts, TypedHandError> {
        let mut all = self.concealed.clone();
        all.extend_from_slice(extra);
        for m in &self.melds {
            all.extend(m.tiles());
        }
        TileCounts::from_tiles(&all).map_err(|e| TypedHandError(e.to_string()))?;
        TileCounts::from_tiles(&self.concealed).map_err(|e| TypedHandError(e.to_string()))
    }

    /// [`TypedHand::counts_with`] and nothing typed apart.
    pub fn counts(&self) -> Result<TileCounts, TypedHandError> {
        self.counts_with(&[])
    }
}

//! Declared melds: chows, pungs, exposed kongs and concealed kongs.
//!
//! At five- and six-player classic tables the extra-wind tiles (`1f`–`8f`) are one kind for
//! play, so a meld of them holds different tiles: it keeps them in [`Meld::extra_winds`]
//! (`pung 356f`), and [`Meld::tiles`] answers those, not three copies of the lowest.
//!
//! Notation: the kind, a space, the tiles: `pung 555z`, `chow 234s`, `kong 1111m`,
//! `concealed_kong 9999p`.
//!
//! ```
//! use majiang::Meld;
//! let m: Meld = "chow 243s".parse().unwrap();
//! assert_eq!(m.to_string(), "chow 234s");
//! assert!("pung 556z".parse::<Meld>().is_err());
//! ```

use crate::extra_winds::ExtraWinds;
use crate::notation::{NotationError, NotationErrorKind, format_in_order, parse_tiles};
use crate::seat::Seat;
use crate::tile::Tile;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The kind of a declared meld.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeldKind {
    /// Three consecutive tiles of one number suit.
    Chow,
    /// Three identical tiles.
    Pung,
    /// Four identical tiles, exposed: claimed from a discard or added to an exposed pung.
    Kong,
    /// Four identical tiles declared from the concealed hand.
    ConcealedKong,
}

impl MeldKind {
    /// The notation keyword.
    pub const fn keyword(self) -> &'static str {
        match self {
            MeldKind::Chow => "chow",
            MeldKind::Pung => "pung",
            MeldKind::Kong => "kong",
            MeldKind::ConcealedKong => "concealed_kong",
        }
    }

    /// The kind for a notation keyword.
    pub fn from_keyword(s: &str) -> Option<MeldKind> {
        match s {
            "chow" => Some(MeldKind::Chow),
            "pung" => Some(MeldKind::Pung),
            "kong" => Some(MeldKind::Kong),
            "concealed_kong" => Some(MeldKind::ConcealedKong),
            _ => None,
        }
    }

    /// Number of tiles in the meld.
    pub const fn size(self) -> usize {
        match self {
            MeldKind::Chow | MeldKind::Pung => 3,
            MeldKind::Kong | MeldKind::ConcealedKong => 4,
        }
    }

    /// True for both kinds of kong.
    pub const fn is_kong(self) -> bool {
        matches!(self, MeldKind::Kong | MeldKind::ConcealedKong)
    }
}

/// A declared meld.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Meld {
    /// What kind of meld.
    pub kind: MeldKind,
    /// The lowest tile (for pungs and kongs, the tile).
    pub tile: Tile,
    /// Whose discard made it, for claimed melds; `None` for concealed kongs (and when unknown).
    pub from: Option<Seat>,
    /// Which tile was claimed from the discard (matters for a chow), when known.
    pub claimed: Option<Tile>,
    /// Five- and six-player classic: the extra-wind tiles of a meld of them (`tile` is the
    /// lowest); empty for every other meld. Written as a list of tiles, left out when empty.
    #[serde(
        default,
        skip_serializing_if = "no_extra_winds",
        serialize_with = "write_extra_winds",
        deserialize_with = "read_extra_winds"
    )]
    pub extra_winds: ExtraWinds,
}

/// True when a meld holds no extra winds (the field is not written).
fn no_extra_winds(w: &ExtraWinds) -> bool {
    w.is_empty()
}

/// Extra winds written as their tiles, lowest first: `["3f", "5f", "6f"]`.
fn write_extra_winds<S: Serializer>(w: &ExtraWinds, out: S) -> Result<S::Ok, S::Error> {
    out.collect_seq(w.tiles())
}

/// Extra winds read from a list of bonus tiles; another tile is an error.
fn read_extra_winds<'de, D: Deserializer<'de>>(input: D) -> Result<ExtraWinds, D::Error> {
    let tiles = Vec::<Tile>::deserialize(input)?;
    let mut w = ExtraWinds::EMPTY;
    for t in tiles {
        if !t.is_bonus() {
            return Err(serde::de::Error::custom(format!(
                "{t} is not an extra wind (1f–8f)"
            )));
        }
        w.insert(t);
    }
    Ok(w)
}

impl Meld {
    /// A meld of `kind` starting at `tile`, checking that it exists (a chow needs a number tile
    /// of rank 7 or less; no meld of bonus tiles).
    pub fn new(kind: MeldKind, tile: Tile) -> Option<Meld> {
        let ok = match kind {
            MeldKind::Chow => tile.is_numbered() && tile.rank() <= 7,
            _ => !tile.is_bonus(),
        };
        ok.then_some(Meld {
            kind,
            tile,
            from: None,
            claimed: None,
            extra_winds: ExtraWinds::EMPTY,
        })
    }

    /// The same meld, recording whose discard it was made from.
    pub fn from_seat(mut self, seat: Seat) -> Meld {
        self.from = Some(seat);
        self
    }

    /// A meld of `kind` made of these extra-wind tiles (five- and six-player classic), if they
    /// are extra winds, as many as the kind holds, and not a chow.
    ///
    /// ```
    /// use majiang::{Meld, MeldKind, Tile, extra_winds::ExtraWinds};
    /// let mut w = ExtraWinds::EMPTY;
    /// for t in ["6f", "3f", "5f"] {
    ///     w.insert(t.parse().unwrap());
    /// }
    /// let m = Meld::of_extra_winds(MeldKind::Pung, w).unwrap();
    /// assert_eq!(m.to_string(), "pung 356f");
    /// assert_eq!(m.tile, "3f".parse::<Tile>().unwrap());
    /// assert!(Meld::of_extra_winds(MeldKind::Kong, w).is_none());
    /// ```
    pub fn of_extra_winds(kind: MeldKind, winds: ExtraWinds) -> Option<Meld> {
        if kind == MeldKind::Chow || usize::from(winds.len()) != kind.size() {
            return None;
        }
        Some(Meld {
            kind,
            tile: winds.lowest()?,
            from: None,
            claimed: None,
            extra_winds: winds,
        })
    }

    /// The tiles of the meld, in order (an extra-wind meld's own tiles).
    pub fn tiles(&self) -> Vec<Tile> {
        if !self.extra_winds.is_empty() {
            return self.extra_winds.tiles().collect();
        }
        let i = self.tile.index();
        match self.kind {
            MeldKind::Chow => (i..i + 3).filter_map(Tile::from_index).collect(),
            k => vec![self.tile; k.size()],
        }
    }

    /// True for every meld except a concealed kong.
    pub fn is_exposed(&self) -> bool {
        self.kind != MeldKind::ConcealedKong
    }

    /// True for pungs and both kinds of kong.
    pub fn is_pung_or_kong(&self) -> bool {
        self.kind != MeldKind::Chow
    }

    /// Parses `kind tiles`, e.g. `pung 555z`.
    pub fn parse(input: &str) -> Result<Meld, NotationError> {
        let bad = |why: String| NotationError::new(input, 1, NotationErrorKind::BadMeld(why));
        let mut words = input.split_whitespace();
        let (Some(word), Some(tiles_text), None) = (words.next(), words.next(), words.next())
        else {
            return Err(bad(
                "a meld is written as its kind and its tiles, e.g. \"pung 555z\"".into(),
            ));
        };
        let kind = MeldKind::from_keyword(&word.to_ascii_lowercase()).ok_or_else(|| {
            bad(format!(
                "unknown meld kind {word:?} (expected chow, pung, kong or concealed_kong)"
            ))
        })?;
        let offset = input.find(tiles_text).unwrap_or(0);
        let mut tiles = parse_tiles(tiles_text).map_err(|mut e| {
            e.input = input.to_string();
            e.position += input[..offset].chars().count();
            e
        })?;
        tiles.sort();
        Meld::from_tiles(kind, &tiles).ok_or_else(|| {
            bad(format!(
                "{} is not a {}: {}",
                format_in_order(&tiles),
                kind.keyword(),
                match kind {
                    MeldKind::Chow => "a chow needs three consecutive tiles of one number suit",
                    MeldKind::Pung => "a pung needs three identical tiles",
                    _ => "a kong needs four identical tiles",
                }
            ))
        })
    }

    /// The meld of `kind` made of exactly these tiles (sorted), if they form one.
    pub fn from_tiles(kind: MeldKind, sorted: &[Tile]) -> Option<Meld> {
        let first = *sorted.first()?;
        if sorted.len() != kind.size() {
            return None;
        }
        let meld = Meld::new(kind, first)?;
        (meld.tiles() == sorted).then_some(meld)
    }
}

impl fmt::Display for Meld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}",
            self.kind.keyword(),
            format_in_order(&self.tiles())
        )
    }
}

impl std::str::FromStr for Meld {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Meld, NotationError> {
        Meld::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_kind() {
        for s in [
            "pung 555z",
            "chow 234s",
            "kong 1111m",
            "concealed_kong 9999p",
        ] {
            let m: Meld = s.parse().unwrap();
            assert_eq!(m.to_string(), s);
        }
        let k: Meld = "concealed_kong 9999p".parse().unwrap();
        assert!(!k.is_exposed());
        assert_eq!(k.tiles().len(), 4);
    }

    #[test]
    fn rejects_non_melds() {
        for s in [
            "pung 556z",
            "chow 123z",
            "chow 135m",
            "chow 891m",
            "kong 111m",
            "pung 1111m",
            "triplet 555z",
            "pung",
            "pung 1f1f1f",
        ] {
            assert!(s.parse::<Meld>().is_err(), "{s}");
        }
        let e = "pung 5x5z".parse::<Meld>().unwrap_err();
        assert_eq!(e.position, 7, "{e}");
    }
}

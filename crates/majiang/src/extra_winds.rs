//! The extra winds of classic's five- and six-player tables as a set: the bonus tiles `1f`–`8f`
//! played as winds, held apart from the 34-kind counts ([`TileCounts`](crate::TileCounts)). How
//! they are claimed, konged and completed at the table is the engine's
//! ([`table::extra_wind_play`](crate::table::extra_wind_play)).

use crate::tile::{KINDS, Tile};
use serde::{Deserialize, Serialize};

/// A set of bonus tiles held as extra winds (bit `i`: the bonus tile of index `34 + i`, i.e.
/// `1f` is bit 0).
///
/// ```
/// use majiang::Tile;
/// use majiang::extra_winds::ExtraWinds;
/// let f = |s: &str| s.parse::<Tile>().unwrap();
/// let mut w = ExtraWinds::EMPTY;
/// w.insert(f("3f"));
/// w.insert(f("1f"));
/// assert_eq!(w.len(), 2);
/// assert_eq!(w.lowest(), Some(f("1f")));
/// assert_eq!(w.tiles().collect::<Vec<_>>(), vec![f("1f"), f("3f")]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ExtraWinds(pub u8);

impl ExtraWinds {
    /// No tiles.
    pub const EMPTY: ExtraWinds = ExtraWinds(0);

    const fn bit(t: Tile) -> u8 {
        if t.is_bonus() {
            1 << (t.index() - KINDS)
        } else {
            0
        }
    }

    /// True if the bonus tile `t` is in the set (false for a playing tile).
    pub const fn contains(self, t: Tile) -> bool {
        self.0 & Self::bit(t) != 0
    }

    /// Adds the bonus tile `t` (a playing tile is ignored).
    pub fn insert(&mut self, t: Tile) {
        self.0 |= Self::bit(t);
    }

    /// Removes `t`; false if it was not there.
    pub fn remove(&mut self, t: Tile) -> bool {
        let had = self.contains(t);
        self.0 &= !Self::bit(t);
        had
    }

    /// How many tiles.
    pub const fn len(self) -> u8 {
        self.0.count_ones() as u8
    }

    /// True if there are none.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest tile, if any.
    pub fn lowest(self) -> Option<Tile> {
        (self.0 != 0).then(|| tile(self.0.trailing_zeros() as usize))
    }

    /// The tiles, lowest first.
    pub fn tiles(self) -> impl Iterator<Item = Tile> {
        (0..8usize)
            .filter(move |i| self.0 & (1 << i) != 0)
            .map(tile)
    }

    /// The union of two sets.
    pub const fn union(self, other: ExtraWinds) -> ExtraWinds {
        ExtraWinds(self.0 | other.0)
    }

    /// Takes `k` tiles out: `t` first if it is here, then the lowest others; returns those
    /// taken (fewer if there are not `k`).
    pub fn take(&mut self, t: Tile, k: u8) -> ExtraWinds {
        let mut taken = ExtraWinds::EMPTY;
        if k > 0 && self.remove(t) {
            taken.insert(t);
        }
        while taken.len() < k {
            let Some(x) = self.lowest() else { break };
            self.remove(x);
            taken.insert(x);
        }
        taken
    }
}

fn tile(i: usize) -> Tile {
    Tile::from_index(KINDS + i).unwrap_or(Tile::EAST)
}

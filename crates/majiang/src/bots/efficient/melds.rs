//! The bot's own declared melds, summarised for planning (suits used, a chow, sure fan),
//! and the tiles a meld holds.

use crate::meld::{Meld, MeldKind};
use crate::tile::KINDS;

/// The bot's own melds, summarised for planning.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct MeldInfo {
    /// Bit `s`: a meld of number suit `s`.
    pub(crate) suits: u8,
    /// A chow among them.
    pub(crate) chow: bool,
    /// Fan they bring for sure (value pungs and kongs).
    pub(crate) fan: i32,
}

/// The suit index of kind `i` (3 for honors).
fn suit_of(i: usize) -> usize {
    if i < 27 { i / 9 } else { 3 }
}

/// Calls `f(kind index, copies)` for the tiles of `m`.
pub(crate) fn meld_tiles(m: &Meld, mut f: impl FnMut(usize, u8)) {
    let i = m.tile.index();
    match m.kind {
        MeldKind::Chow => {
            for k in 0..3 {
                f(i + k, 1);
            }
        }
        MeldKind::Pung => f(i, 3),
        MeldKind::Kong | MeldKind::ConcealedKong => f(i, 4),
    }
}

impl MeldInfo {
    pub(crate) fn add(&mut self, m: &Meld, pung_fan: &[u8; KINDS]) {
        let i = m.tile.index();
        let s = suit_of(i);
        if s < 3 {
            self.suits |= 1 << s;
        }
        if m.kind == MeldKind::Chow {
            self.chow = true;
        } else {
            self.fan += i32::from(pung_fan[i]);
        }
    }
}

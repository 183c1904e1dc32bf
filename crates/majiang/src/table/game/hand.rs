//! One player's tiles during a hand, with the small operations the rules of play use.

use super::super::complete::Screen;
use super::DiscardRecord;
use crate::analysis::HandRules;
use crate::counts::TileCounts;
use crate::extra_winds::ExtraWinds;
use crate::meld::Meld;
use crate::tile::Tile;
use smallvec::SmallVec;

/// One player's tiles: concealed (with the running screen statistics), melds, flowers laid
/// out, discards, and their Fortune Gambit run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Hand {
    /// The concealed playing tiles (extra winds apart).
    pub(super) concealed: TileCounts,
    /// Running statistics of `concealed` for the quick completeness screen.
    pub(super) screen: Screen,
    /// Bit per kind index: the kinds held in `concealed` (the discards a turn lists).
    pub(super) held: u64,
    /// The kinds in `held` (a turn's discards, counted without a population count).
    pub(super) held_kinds: u8,
    /// The kinds that may complete `concealed` when added, worked out once per hand state.
    completing: Completing,
    /// Declared melds (four at most in a hand of 13).
    pub(super) melds: SmallVec<[Meld; 4]>,
    /// Flowers and seasons laid out (eight in a set).
    pub(super) flowers: SmallVec<[Tile; 8]>,
    /// The discard row (held inline up to 32, the most a hand usually sees; a longer row
    /// moves to the heap).
    pub(super) discards: SmallVec<[DiscardRecord; 32]>,
    /// Fortune Gambits in the player's current unbroken run.
    pub(super) gambit_run: u8,
    /// Extra winds held concealed (five- and six-player classic).
    pub(super) extra: ExtraWinds,
    /// Extra winds in the declared melds.
    pub(super) extra_melded: ExtraWinds,
}

impl Hand {
    /// A hand before the deal.
    pub(super) fn empty() -> Hand {
        Hand {
            concealed: TileCounts::EMPTY,
            screen: Screen::default(),
            held: 0,
            held_kinds: 0,
            completing: Completing::default(),
            melds: SmallVec::new(),
            flowers: SmallVec::new(),
            discards: SmallVec::new(),
            gambit_run: 0,
            extra: ExtraWinds::EMPTY,
            extra_melded: ExtraWinds::EMPTY,
        }
    }

    /// Adds a tile to the concealed hand (an extra wind to the extra winds held).
    #[inline]
    pub(super) fn add(&mut self, t: Tile) {
        if t.is_bonus() {
            self.extra.insert(t);
            return;
        }
        let before = self.concealed.get(t);
        self.concealed.add(t);
        self.screen.update(t, before, before + 1);
        self.held |= 1 << t.index();
        self.held_kinds += u8::from(before == 0);
        self.completing.fresh = false;
    }

    /// Removes `k` copies of `t` (the caller has checked that they are there; for extra winds,
    /// `t` if held and then the lowest others).
    #[inline]
    pub(super) fn take(&mut self, t: Tile, k: u8) {
        if t.is_bonus() {
            self.extra.take(t, k);
            return;
        }
        let before = self.concealed.get(t);
        let after = before.saturating_sub(k);
        self.concealed.0[t.index()] = after;
        self.screen.update(t, before, after);
        if after == 0 {
            self.held &= !(1 << t.index());
            self.held_kinds -= u8::from(before > 0);
        }
        self.completing.fresh = false;
    }

    /// False when the concealed tiles with `t` added certainly are not a winning shape under
    /// `rules` (the screen's answer, [`Screen::completing`], worked out again only after the
    /// hand changed); true when they may be.
    #[inline]
    pub(super) fn may_complete_with(&mut self, t: Tile, rules: &HandRules) -> bool {
        if t.index() >= 34 {
            return true;
        }
        if !self.completing.fresh {
            self.refresh_completing(rules);
        }
        self.completing.kinds & (1 << t.index()) != 0
    }

    /// Works out [`Hand::may_complete_with`]'s kinds again (out of line: the cached answer is
    /// the common case, and the call sites stay small).
    #[inline(never)]
    fn refresh_completing(&mut self, rules: &HandRules) {
        self.completing = Completing {
            kinds: self.screen.completing(&self.concealed, rules),
            fresh: true,
        };
    }

    /// Copies of `t`'s kind held concealed (every extra wind is one kind).
    pub(super) fn count(&self, t: Tile) -> u8 {
        if t.is_bonus() {
            self.extra.len()
        } else {
            self.concealed.get(t)
        }
    }

    /// True if the tile `t` itself is held concealed.
    pub(super) fn holds(&self, t: Tile) -> bool {
        if t.is_bonus() {
            self.extra.contains(t)
        } else {
            self.concealed.get(t) > 0
        }
    }

    /// Takes `k` tiles of `t`'s kind for a meld (`claimed`: `t` itself is a claimed discard)
    /// and returns the meld's tile (`t`, or for extra winds the lowest of the meld's tiles) and
    /// its extra winds (empty for any other kind).
    pub(super) fn take_for_meld(&mut self, t: Tile, k: u8, claimed: bool) -> (Tile, ExtraWinds) {
        if !t.is_bonus() {
            self.take(t, k);
            return (t, ExtraWinds::EMPTY);
        }
        let mut set = self.extra.take(t, k);
        if claimed {
            set.insert(t);
        }
        self.extra_melded = self.extra_melded.union(set);
        (set.lowest().unwrap_or(t), set)
    }

    /// The concealed tiles, extra winds included.
    pub(super) fn all_tiles(&self) -> Vec<Tile> {
        let mut v = self.concealed.tiles();
        v.extend(self.extra.tiles());
        v
    }

    /// The bonus tiles scoring reads as `flowers`: the flowers laid out, or the extra winds
    /// held (less `without`, the winning or robbed tile).
    pub(super) fn scoring_flowers(&self, without: Option<Tile>) -> Vec<Tile> {
        let mut v = self.flowers.to_vec();
        v.extend(self.extra.tiles().filter(|&t| Some(t) != without));
        v
    }
}

/// A cache of [`Screen::completing`] for one hand state. Equal to any other: it is worked out
/// from the hand, not part of its state.
#[derive(Debug, Clone, Copy, Default)]
struct Completing {
    kinds: u64,
    fresh: bool,
}

impl PartialEq for Completing {
    fn eq(&self, _: &Completing) -> bool {
        true
    }
}

impl Eq for Completing {}

//! Hand analysis: win detection (with 0–4 wildcards), waits, shanten, useful tiles and
//! decompositions.
//!
//! Every function takes the concealed tiles as a [`TileCounts`] (declared melds are not part of
//! it: a hand of `14 - 3m` tiles with `m` melds) and the [`HandRules`] of the rule set. Copies
//! of the wildcard kind in the counts are the wildcards.
//!
//! ```
//! use majiang::analysis::{self, HandRules};
//! use majiang::TileCounts;
//! let rules = HandRules::ALL_FORMS;
//! let hand = TileCounts::parse("123m456p789s1122z").unwrap();
//! assert_eq!(analysis::shanten(&hand, &rules), 0);
//! assert_eq!(analysis::waits(&hand, &rules).to_string(), "12z");
//! assert_eq!(analysis::useful_tiles(&hand, &rules).to_string(), "12z");
//! ```
//!
//! # Approach
//!
//! [`is_win`], [`shanten`], [`shanten_by_form`], [`waits`] and [`useful_tiles`] are
//! table-driven and allocate nothing. A hand splits into four groups (the three number suits
//! and the honours); each group's counts, read as a base-5 number, index precomputed tables
//! that are **computed at compile time** by the crate's build script and embedded in the
//! library (three sets: win/waits, shanten, wildcards; ~11 MB in all, about half a second of
//! build time), so a fresh process answers at once: nothing is built at start-up. For every key they hold, per target of `s` sets (0–4) and 0–1 pair, the most tiles of
//! the group some complete shape can use; whether the group is complete and which of its kinds
//! complete it; and the fewest wildcards that complete it. Groups are then combined by a small
//! max-plus product over how many sets each contributes and which holds the pair. Only 126
//! different per-suit arrays (55 for honours) occur, so keys map to byte ids and the products of
//! two suits, and of a suit with the honours, are tabulated too: shanten is four key
//! computations, six loads and a five-step maximum. Seven pairs and thirteen orphans are
//! computed directly on the counts, eight at a time in a `u64`. How the tables are built, and why at
//! compile time, is in the `tables` module's source; the combination in the `fast` module's.
//!
//! A wildcard that may not stand for its own number kind cuts that suit in two; the halves use
//! tables for shorter runs. Hands outside the tables (more than 14 tiles, or more than four of a
//! kind in the counts) are answered by [`reference`](mod@reference), the slow definition-by-definition
//! yardstick that the property tests (`tests/analysis_props.rs`) compare against on hundreds of
//! thousands of random and near-winning hands, and that [`decompositions`] still uses.
//!
//! # Figures
//!
//! `cargo bench -p majiang --bench analysis`, per random hand, criterion medians on a 2-core
//! machine shared with other jobs (load 2–12, so the spread is mostly the load): `is_win` of 14
//! tiles 12–23 ns; `shanten` 45–91 ns against 73–169 ns for the `xiangting` crate in the same
//! runs; `waits` of 13 tiles 46–117 ns; `is_win` with 4 wildcards 45–112 ns; `shanten` with 0–4
//! wildcards 80–115 ns; `waits` with wildcards 0.45 µs; `useful_tiles` 0.7–1.2 µs. The bench
//! also prints the fastest of 41 timed rounds, which the load barely moves: `is_win` 7–8 ns,
//! `waits` 45–48 ns, `is_win` with 4 wildcards 44–47 ns, `useful_tiles` 0.55–0.65 µs, and
//! `shanten` 41–45 ns against 59–66 ns for `xiangting` in alternating rounds (ratio 0.69).
//! With the tables embedded (one run, load ≈ 12): fastest rounds `is_win` 8.3 ns, `waits`
//! 28.5 ns, `shanten` 35.1 ns against 54.5 ns for `xiangting` (ratio 0.64); the first calls
//! of a process 20–30 µs (paging the tables in).

mod basis;
pub mod decompose;
pub mod discards;
mod fast;
pub mod reference;
pub mod rules;
mod tables;

pub use decompose::{Decomposition, Form, Group, GroupKind};
pub use rules::{HandRules, Wildcard};

use crate::counts::TileCounts;
use crate::notation::format_tiles;
use crate::tile::{KINDS, Tile};
use std::fmt;

/// A set of playing kinds as a bit mask (bit `i` = kind index `i`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TileSet(pub u64);

impl TileSet {
    /// No kinds.
    pub const EMPTY: TileSet = TileSet(0);
    /// All 34 playing kinds.
    pub const ALL: TileSet = TileSet((1 << KINDS) - 1);

    /// True if `t` is in the set.
    pub fn contains(self, t: Tile) -> bool {
        t.index() < 64 && self.0 & (1 << t.index()) != 0
    }

    /// Adds a kind.
    pub fn insert(&mut self, t: Tile) {
        self.0 |= 1 << t.index();
    }

    /// Number of kinds.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// True if empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kinds in index order.
    pub fn iter(self) -> impl Iterator<Item = Tile> {
        (0..KINDS)
            .filter(move |i| self.0 & (1 << i) != 0)
            .filter_map(Tile::from_index)
    }
}

impl fmt::Display for TileSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_tiles(&self.iter().collect::<Vec<_>>()))
    }
}

impl fmt::Debug for TileSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TileSet({self})")
    }
}

/// Shanten of each form; `None` where the form does not apply (seven pairs and thirteen
/// orphans need a 13- or 14-tile concealed hand and the rule set's permission).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShantenByForm {
    /// Sets and a pair.
    pub standard: i8,
    /// Seven pairs.
    pub seven_pairs: Option<i8>,
    /// Thirteen orphans.
    pub thirteen_orphans: Option<i8>,
}

impl ShantenByForm {
    /// The least of the forms.
    pub fn min(&self) -> i8 {
        let mut s = self.standard;
        for x in [self.seven_pairs, self.thirteen_orphans]
            .into_iter()
            .flatten()
        {
            s = s.min(x);
        }
        s
    }
}

/// True if the hand (size `3k + 2`) is a winning hand of a form the rules allow.
pub fn is_win(hand: &TileCounts, rules: &HandRules) -> bool {
    fast::is_win(&hand.0, rules)
}

/// Shanten: how many tiles from ready (0 = ready, −1 = complete). For hands of `3k + 1` or
/// `3k + 2` tiles. Without wildcards it matches the usual definition (the replacement number
/// minus one, four copies of a kind at most); with wildcards a wildcard fills any missing tile,
/// a fifth copy included.
pub fn shanten(hand: &TileCounts, rules: &HandRules) -> i8 {
    fast::shanten(&hand.0, rules)
}

/// Shanten of each form separately.
pub fn shanten_by_form(hand: &TileCounts, rules: &HandRules) -> ShantenByForm {
    let (standard, seven_pairs, thirteen_orphans) = fast::shanten_by_form(&hand.0, rules);
    ShantenByForm {
        standard,
        seven_pairs,
        thirteen_orphans,
    }
}

/// The kinds that would complete a hand of `3k + 1` tiles. A kind whose four copies are all in
/// the hand is not a wait.
pub fn waits(hand: &TileCounts, rules: &HandRules) -> TileSet {
    TileSet(fast::waits(&hand.0, rules))
}

/// The kinds that lower the shanten when drawn, for a hand of `3k + 1` tiles (a kind whose four
/// copies are all in the hand is never useful). With a wildcard kind, drawing it adds a
/// wildcard.
pub fn useful_tiles(hand: &TileCounts, rules: &HandRules) -> TileSet {
    TileSet(fast::useful_tiles(&hand.0, rules))
}

/// True when a hand of `3k + 1` tiles is complete sets plus one lone wildcard (the other
/// wildcards standing in), so that any tile pairs with that wildcard and wins. Hangzhou calls
/// this state Bao Tou (爆头): its scoring and its Fortune Gambit (财飘) both read it.
pub fn lone_wildcard_wait(before_draw: &TileCounts, rules: &HandRules) -> bool {
    let (mut real, w, forbidden) = reference::split_wild(&before_draw.0, rules);
    w >= 1
        && fast::sets_with_wilds(&real, w - 1, forbidden, false)
            .unwrap_or_else(|| reference::sets_and_pair(&mut real, w - 1, false, forbidden))
}

/// True if the hand (size `3k + 2`) is complete as sets and a pair (the rules' wildcards
/// standing in), whatever other forms the rules allow: [`is_win`] less seven pairs and thirteen
/// orphans.
pub fn is_sets_and_pair(hand: &TileCounts, rules: &HandRules) -> bool {
    let (mut real, w, forbidden) = reference::split_wild(&hand.0, rules);
    fast::sets_with_wilds(&real, w, forbidden, true)
        .unwrap_or_else(|| reference::sets_and_pair(&mut real, w, true, forbidden))
}

/// Every reading of a winning hand, sorted; empty if it does not win.
pub fn decompositions(hand: &TileCounts, rules: &HandRules) -> Vec<Decomposition> {
    decompose::decompositions(&hand.0, rules)
}

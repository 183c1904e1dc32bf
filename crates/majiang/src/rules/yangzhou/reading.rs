//! A Yangzhou reading of a winning hand: the shared [`scoring::reading`](crate::scoring::reading)
//! (four sets, the pair, where the winning tile sits) and whether the hand waited on one kind
//! only, which the wait rows (Edge Wait, Single Wait) need.

use crate::analysis::{self, HandRules};
use crate::scoring::WinSituation;
pub use crate::scoring::reading::{Set, SetKind, WinPlace};
use std::ops::Deref;

/// One reading of the winner's hand, with the wait it was won on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// The sets, the pair and the winning tile's place.
    pub hand: crate::scoring::reading::Reading,
    /// True if the hand before the winning tile waited on exactly one kind (a kind whose four
    /// copies the winner already holds in hand and melds is no wait).
    pub sole_wait: bool,
}

impl Deref for Reading {
    type Target = crate::scoring::reading::Reading;

    fn deref(&self) -> &Self::Target {
        &self.hand
    }
}

/// Every reading of the winner's hand (empty if it is not four sets and a pair). The caller
/// has checked the concealed hand's size.
pub fn readings(situation: &WinSituation) -> Vec<Reading> {
    let sole_wait = winning_kinds(situation) == 1;
    crate::scoring::reading::readings(situation, &HandRules::STANDARD_ONLY)
        .into_iter()
        .map(|hand| Reading { hand, sole_wait })
        .collect()
}

/// How many kinds would have completed the winner's hand before the winning tile (four sets
/// and a pair), leaving out a kind whose four copies are all in the winner's concealed tiles and
/// declared melds: that kind cannot come.
pub fn winning_kinds(situation: &WinSituation) -> usize {
    let mut held = situation.concealed;
    for m in &situation.melds {
        for t in m.tiles() {
            held.add(t);
        }
    }
    analysis::waits(&situation.concealed, &HandRules::STANDARD_ONLY)
        .iter()
        .filter(|&t| held.get(t) < 4)
        .count()
}

//! Steering to one suit where a rule set doubles the whole hand for it (classic: one suit with
//! honours ×2, one suit only ×8), which the efficient bot's distance does not see.
//!
//! When the hand's numbered tiles are all of one suit but for a few, one more candidate joins
//! the search: throw the loosest tile of another suit and keep doing so, in the playouts, with
//! every tile of another suit drawn later (honours are kept; the other discards are the
//! planner's). It is compared with the other candidates on the same worlds, by the rule set's
//! real settlement, so it is played only when the doubles pay for the slower hand.

use crate::bots::efficient::connectivity;
use crate::counts::TileCounts;
use crate::table::TableRules;
use crate::tile::Tile;

/// Most tiles of other suits a hand may hold for the one-suit candidate to be tried.
const MOST_OFF_SUIT: u8 = 4;

/// Whether the rule set doubles a one-suit hand whatever else it holds.
pub(crate) fn pays_for_one_suit(ruleset: &TableRules) -> bool {
    ruleset.set().aims().one_suit_doubles
}

/// The suit (0–2) of most numbered tiles in `hand` and how many numbered tiles are of others.
fn main_suit(hand: &TileCounts) -> (usize, u8) {
    let mut per = [0u8; 3];
    for (i, &c) in hand.0.iter().enumerate().take(27) {
        per[i / 9] += c;
    }
    let s = (0..3).max_by_key(|&s| (per[s], 3 - s)).unwrap_or(0);
    (s, per.iter().sum::<u8>() - per[s])
}

/// The loosest tile of `hand` outside suit `s` and honours, if any.
pub(crate) fn loosest_off_suit(hand: &TileCounts, s: usize) -> Option<Tile> {
    hand.iter()
        .map(|(t, _)| t)
        .filter(|t| t.index() < 27 && t.index() / 9 != s)
        .min_by_key(|&t| (connectivity(hand, t, None), t.index()))
}

/// The one-suit candidate for `hand` (`3k + 2` tiles): the suit and the tile to throw first,
/// when the hand is close enough to one suit.
pub(crate) fn candidate(hand: &TileCounts) -> Option<(usize, Tile)> {
    let (s, off) = main_suit(hand);
    if off == 0 || off > MOST_OFF_SUIT {
        return None;
    }
    loosest_off_suit(hand, s).map(|t| (s, t))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(s: &str) -> TileCounts {
        TileCounts::parse(s).unwrap()
    }

    #[test]
    fn a_hand_nearly_of_one_suit_throws_its_loosest_other_suit_tile() {
        // Characters but for 9p and the 3s-4s pair of neighbours: 9p is the loosest.
        let near = hand("1234567m3m9p34s11z");
        assert_eq!(candidate(&near), Some((0, Tile::from_index(17).unwrap())));
        // Already one suit with honours: nothing to throw.
        assert_eq!(candidate(&hand("12345678m99m111z")), None);
        // Far from one suit: no candidate.
        assert_eq!(candidate(&hand("123m456p789s11z234m")), None);
        assert_eq!(loosest_off_suit(&hand("123m11z"), 0), None);
    }
}

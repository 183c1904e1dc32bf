//! Slow, obviously-correct versions of the hand analysis, written straight from the definitions.
//!
//! They are the yardstick for the fast table-driven code: property tests compare the two on
//! random hands. Nothing here is on a hot path. All functions take the *real* tiles (wildcards
//! removed) as a count array that may hold any counts, plus the number of wildcards.
//!
//! Definitions used throughout:
//! - A hand of `n` tiles aims at a complete hand of `3k + 2` tiles with `k = n / 3` (rounded
//!   down): `k` sets and a pair in the standard form; seven pairs and thirteen orphans need
//!   `n` of 13 or 14.
//! - The *deficiency* `D` of the real tiles against a form is the least number of tiles missing
//!   from some complete hand `H` of that form: `min over H of sum(max(0, H[i] - real[i]))`.
//!   Without wildcards `H` holds at most four of a kind; with wildcards it may hold more (a
//!   wildcard may stand for a fifth copy).
//! - Shanten is `D - wildcards - 1`: each wildcard fills one missing tile; `-1` is a complete hand.

use super::rules::HandRules;
use crate::tile::{KINDS, Tile};

/// Real counts (any values) of the 34 kinds.
pub type Counts = [u8; KINDS];

/// Splits a hand into real counts and the number of wildcards, and the kind wildcards may not
/// stand for (their own kind, when the rules forbid it).
pub fn split_wild(hand: &Counts, rules: &HandRules) -> (Counts, u8, Option<usize>) {
    let mut real = *hand;
    match rules.wildcard {
        Some(w) => {
            let n = real[w.tile.index()];
            real[w.tile.index()] = 0;
            (real, n, (!w.as_own_kind).then_some(w.tile.index()))
        }
        None => (real, 0, None),
    }
}

fn same_suit_chow_start(start: isize) -> bool {
    // A chow starts at rank 1..=7 of a number suit.
    (0..27).contains(&start) && start % 9 <= 6
}

/// Can the real tiles plus `w` wildcards be split exactly into sets, plus one pair if
/// `need_pair`? Wildcards may not stand for `forbidden`.
pub fn sets_and_pair(real: &mut Counts, w: u8, need_pair: bool, forbidden: Option<usize>) -> bool {
    let Some(i) = real.iter().position(|&n| n > 0) else {
        // Only wildcards left: they form sets (and the pair) among themselves.
        return if need_pair {
            w >= 2 && (w - 2) % 3 == 0
        } else {
            w % 3 == 0
        };
    };
    let wild_ok = |j: usize| forbidden != Some(j);
    // Pung or pair of kind i with k real tiles.
    for (size, is_pair) in [(3u8, false), (2u8, true)] {
        if is_pair && !need_pair {
            continue;
        }
        for k in 1..=real[i].min(size) {
            let wilds = size - k;
            if wilds > w || (wilds > 0 && !wild_ok(i)) {
                continue;
            }
            real[i] -= k;
            let ok = sets_and_pair(real, w - wilds, need_pair && !is_pair, forbidden);
            real[i] += k;
            if ok {
                return true;
            }
        }
    }
    // Chows containing i, every other slot filled by a real tile or a wildcard.
    for start in [i as isize - 2, i as isize - 1, i as isize] {
        if !same_suit_chow_start(start) || !(start..start + 3).contains(&(i as isize)) {
            continue;
        }
        let start = start as usize;
        let others: Vec<usize> = (start..start + 3).filter(|&j| j != i).collect();
        // Each other slot: true = real tile, false = wildcard.
        for mask in 0..4u8 {
            let use_real = [mask & 1 != 0, mask & 2 != 0];
            let mut wilds = 0u8;
            let mut ok = true;
            for (slot, &j) in others.iter().enumerate() {
                if use_real[slot] {
                    ok &= real[j] > 0;
                } else {
                    ok &= wild_ok(j);
                    wilds += 1;
                }
            }
            if !ok || wilds > w {
                continue;
            }
            real[i] -= 1;
            for (slot, &j) in others.iter().enumerate() {
                if use_real[slot] {
                    real[j] -= 1;
                }
            }
            let found = sets_and_pair(real, w - wilds, need_pair, forbidden);
            real[i] += 1;
            for (slot, &j) in others.iter().enumerate() {
                if use_real[slot] {
                    real[j] += 1;
                }
            }
            if found {
                return true;
            }
        }
    }
    false
}

fn total(real: &Counts, w: u8) -> usize {
    real.iter().map(|&n| n as usize).sum::<usize>() + w as usize
}

/// Seven pairs with exactly 14 tiles.
pub fn seven_pairs(real: &Counts, w: u8, four_as_two: bool) -> bool {
    if total(real, w) != 14 {
        return false;
    }
    let mut singles = 0u8;
    for &n in real {
        if !four_as_two && n > 2 {
            return false;
        }
        singles += n % 2;
    }
    // Each odd tile takes a wildcard; the rest of the wildcards pair up.
    singles <= w && (w - singles) % 2 == 0
}

/// Thirteen orphans with exactly 14 tiles.
pub fn thirteen_orphans(real: &Counts, w: u8, forbidden: Option<usize>) -> bool {
    if total(real, w) != 14 {
        return false;
    }
    let mut missing = 0u8;
    let mut pairs = 0u8;
    for (i, &n) in real.iter().enumerate() {
        let orphan = Tile::ORPHANS.iter().any(|t| t.index() == i);
        if !orphan {
            if n > 0 {
                return false;
            }
            continue;
        }
        match n {
            0 if forbidden == Some(i) => return false,
            0 => missing += 1,
            1 => {}
            2 => pairs += 1,
            _ => return false,
        }
    }
    match pairs {
        0 => w == missing + 1,
        1 => w == missing,
        _ => false,
    }
}

/// Whether a hand (wildcards included in its counts) is a winning hand of any form the rules
/// allow. The hand size must be `3k + 2`.
pub fn is_win(hand: &Counts, rules: &HandRules) -> bool {
    let (mut real, w, forbidden) = split_wild(hand, rules);
    let n = total(&real, w);
    if n % 3 != 2 {
        return false;
    }
    if sets_and_pair(&mut real, w, true, forbidden) {
        return true;
    }
    (rules.seven_pairs && seven_pairs(&real, w, rules.four_as_two_pairs))
        || (rules.thirteen_orphans && thirteen_orphans(&real, w, forbidden))
}

/// The kinds that complete a hand of `3k + 1` tiles, as a bit mask over kind indices. A kind of
/// which the hand already holds all four copies is not a wait.
pub fn waits(hand: &Counts, rules: &HandRules) -> u64 {
    let mut mask = 0u64;
    for t in 0..KINDS {
        if hand[t] >= 4 {
            continue;
        }
        let mut h = *hand;
        h[t] += 1;
        if is_win(&h, rules) {
            mask |= 1 << t;
        }
    }
    mask
}

/// Most real tiles that a standard complete hand of `k` sets and a pair can use, over every such
/// hand `H` (at most `cap` of a kind in `H`; `H` never holds `forbidden`). A dynamic program over
/// the kinds, trying every number of pungs, chows started here and the pair at each kind.
pub fn standard_matched(real: &Counts, k: usize, cap: Option<u8>, forbidden: Option<usize>) -> i32 {
    // dp[c1][c2][sets][pair]: best matched count, where c1 chows started at the previous kind
    // and c2 two kinds back.
    // Flat, sized by `k`: a hand may hold any number of tiles.
    const NONE: i32 = i32::MIN;
    let at = |c1: usize, c2: usize, sets: usize, pair: usize| {
        ((c1 * 5 + c2) * (k + 1) + sets) * 2 + pair
    };
    let size = 25 * (k + 1) * 2;
    let mut dp = vec![NONE; size];
    let mut next = vec![NONE; size];
    dp[at(0, 0, 0, 0)] = 0;
    for (i, &have) in real.iter().enumerate() {
        next.fill(NONE);
        let can_start_chow = same_suit_chow_start(i as isize);
        for c1 in 0..5 {
            for c2 in 0..5 - c1 {
                for sets in 0..=k {
                    for pair in 0..2 {
                        let cur = dp[at(c1, c2, sets, pair)];
                        if cur == NONE {
                            continue;
                        }
                        let free = k - sets;
                        for pungs in 0..=free {
                            let max_chows = if can_start_chow { free - pungs } else { 0 };
                            for chows in 0..=max_chows {
                                for q in 0..=(1 - pair) {
                                    let need = (c1 + c2 + 3 * pungs + 2 * q + chows) as u32;
                                    if cap.is_some_and(|cap| need > u32::from(cap)) {
                                        continue;
                                    }
                                    if need > 0 && forbidden == Some(i) {
                                        continue;
                                    }
                                    if c1 + chows > 4 {
                                        continue;
                                    }
                                    let got = cur + need.min(u32::from(have)) as i32;
                                    let slot =
                                        &mut next[at(chows, c1, sets + pungs + chows, pair + q)];
                                    if got > *slot {
                                        *slot = got;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        std::mem::swap(&mut dp, &mut next);
    }
    dp[at(0, 0, k, 1)]
}

/// The number of sets `k` a hand of `n` tiles aims at.
pub fn target_sets(n: usize) -> usize {
    n / 3
}

/// Shanten of the standard form (four sets and a pair, or fewer sets for smaller hands).
pub fn shanten_standard(hand: &Counts, rules: &HandRules) -> i32 {
    let (real, w, forbidden) = split_wild(hand, rules);
    let n = total(&real, w);
    let k = target_sets(n);
    let cap = if rules.wildcard.is_some() {
        None
    } else {
        Some(4)
    };
    let d = (3 * k + 2) as i32 - standard_matched(&real, k, cap, forbidden);
    d - i32::from(w) - 1
}

/// Shanten of seven pairs, or `None` when the hand is not 13 or 14 tiles.
pub fn shanten_seven_pairs(hand: &Counts, rules: &HandRules) -> Option<i32> {
    let (real, w, _) = split_wild(hand, rules);
    let n = total(&real, w);
    if n != 13 && n != 14 {
        return None;
    }
    let (pairs, singles): (i32, i32) = if rules.four_as_two_pairs {
        real.iter().fold((0, 0), |(p, s), &c| {
            (p + i32::from(c / 2), s + i32::from(c % 2))
        })
    } else {
        real.iter().fold((0, 0), |(p, s), &c| match c {
            0 => (p, s),
            1 => (p, s + 1),
            _ => (p + 1, s),
        })
    };
    let p = pairs.min(7);
    let matched = 2 * p + singles.min(7 - p);
    Some(14 - matched - i32::from(w) - 1)
}

/// Shanten of thirteen orphans, or `None` when the hand is not 13 or 14 tiles or the form is
/// impossible (a wildcard that may not stand for its own orphan kind).
pub fn shanten_thirteen_orphans(hand: &Counts, rules: &HandRules) -> Option<i32> {
    let (real, w, forbidden) = split_wild(hand, rules);
    let n = total(&real, w);
    if n != 13 && n != 14 {
        return None;
    }
    if forbidden.is_some_and(|f| Tile::ORPHANS.iter().any(|t| t.index() == f)) {
        return None;
    }
    let kinds = Tile::ORPHANS.iter().filter(|t| real[t.index()] > 0).count() as i32;
    let pair = Tile::ORPHANS.iter().any(|t| real[t.index()] >= 2) as i32;
    Some(14 - kinds - pair - i32::from(w) - 1)
}

/// Shanten: the least over the forms the rules allow.
pub fn shanten(hand: &Counts, rules: &HandRules) -> i32 {
    let mut s = shanten_standard(hand, rules);
    if rules.seven_pairs {
        if let Some(x) = shanten_seven_pairs(hand, rules) {
            s = s.min(x);
        }
    }
    if rules.thirteen_orphans {
        if let Some(x) = shanten_thirteen_orphans(hand, rules) {
            s = s.min(x);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TileCounts;

    fn c(s: &str) -> Counts {
        TileCounts::parse(s).unwrap().0
    }

    #[test]
    fn wins() {
        let r = HandRules::ALL_FORMS;
        assert!(is_win(&c("123m456p789s11122z"), &r));
        assert!(is_win(&c("11223344556677z"), &r));
        assert!(is_win(&c("19m19p19s12345677z"), &r));
        assert!(!is_win(&c("123m456p789s11123z"), &r));
        assert!(!is_win(&c("11112233445566z"), &r));
        let r2 = HandRules {
            four_as_two_pairs: true,
            ..r
        };
        assert!(is_win(&c("11112233445566z"), &r2));
    }

    #[test]
    fn wildcard_wins() {
        let r = HandRules::STANDARD_ONLY.with_wildcard(Tile::WHITE);
        assert!(is_win(&c("123m456p789s1z5555z"), &r)); // 1z + wild pair, wild pung
        assert!(is_win(&c("13m456p789s11z5555z"), &r)); // wilds fill 2m and a pung
        assert!(is_win(&c("1111m5z"), &r)); // a fifth 1m stood for by a wildcard
        assert!(!is_win(&c("13m456p789s123z555z"), &r));
    }

    #[test]
    fn shanten_values() {
        let r = HandRules::ALL_FORMS;
        assert_eq!(shanten(&c("123m456p789s11122z"), &r), -1);
        assert_eq!(shanten(&c("123m456p789s1112z"), &r), 0);
        assert_eq!(shanten(&c("19m19p19s1234567z"), &r), 0);
        // 1111m waiting on a fifth 1m is not ready.
        assert_eq!(shanten_standard(&c("1111m"), &r), 1);
    }

    #[test]
    fn waits_of_a_nine_gates_hand() {
        let w = waits(&c("1112345678999m"), &HandRules::STANDARD_ONLY);
        assert_eq!(w, 0b1_1111_1111);
    }
}

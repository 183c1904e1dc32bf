//! A fast "is this hand complete?" for the engine's hot path: per-suit arithmetic on the count
//! array, no allocation. Hands holding wildcards go to the reference analysis (only Hangzhou
//! has them). Agrees with [`crate::analysis::is_win`] (checked in the tests below).

use crate::analysis::{HandRules, reference};
use crate::counts::TileCounts;
use crate::tile::Tile;

/// True if the counts (size `3k + 2`) are a winning shape under `rules`.
pub fn is_complete(hand: &TileCounts, rules: &HandRules) -> bool {
    if let Some(w) = rules.wildcard {
        if hand.get(w.tile) > 0 {
            return reference::is_win(&hand.0, rules);
        }
    }
    let c = &hand.0;
    let total: usize = c.iter().map(|&n| usize::from(n)).sum();
    if total % 3 != 2 {
        return false;
    }
    if standard(c) {
        return true;
    }
    if total == 14 {
        if rules.seven_pairs && seven_pairs(c, rules.four_as_two_pairs) {
            return true;
        }
        if rules.thirteen_orphans && thirteen_orphans(c) {
            return true;
        }
    }
    false
}

fn sets_only(s: &[u8]) -> bool {
    let mut a = [0u8; 9];
    a.copy_from_slice(s);
    for i in 0..9 {
        let r = a[i] % 3;
        if r > 0 {
            if i + 2 >= 9 || a[i + 1] < r || a[i + 2] < r {
                return false;
            }
            a[i + 1] -= r;
            a[i + 2] -= r;
        }
    }
    true
}

fn standard(c: &[u8; 34]) -> bool {
    // Cheap, branch-free screening first: honors must come in threes or one pair, each suit's
    // count must be 0 or 2 mod 3, and exactly one pair overall.
    let mut bad = false;
    let mut pairs = 0u32;
    for &n in &c[27..34] {
        bad |= n == 1 || n == 4;
        pairs += u32::from(n == 2);
    }
    let mut sums = [0u32; 3];
    for (suit, sum) in sums.iter_mut().enumerate() {
        *sum = c[suit * 9..suit * 9 + 9]
            .iter()
            .map(|&n| u32::from(n))
            .sum();
        bad |= *sum % 3 == 1;
        pairs += u32::from(*sum % 3 == 2);
    }
    if bad || pairs != 1 {
        return false;
    }
    for (suit, &sum) in sums.iter().enumerate() {
        let s = &c[suit * 9..suit * 9 + 9];
        if sum % 3 == 0 {
            if !sets_only(s) {
                return false;
            }
        } else {
            let mut t = [0u8; 9];
            let ok = (0..9).any(|i| {
                s[i] >= 2 && {
                    t.copy_from_slice(s);
                    t[i] -= 2;
                    sets_only(&t)
                }
            });
            if !ok {
                return false;
            }
        }
    }
    true
}

fn seven_pairs(c: &[u8; 34], four_as_two: bool) -> bool {
    let mut pairs = 0;
    for &n in c.iter() {
        match n {
            0 => {}
            2 => pairs += 1,
            4 if four_as_two => pairs += 2,
            _ => return false,
        }
    }
    pairs == 7
}

fn thirteen_orphans(c: &[u8; 34]) -> bool {
    let mut pair = false;
    for (i, &n) in c.iter().enumerate() {
        let orphan = Tile::from_index(i).is_some_and(Tile::is_terminal_or_honor);
        match (orphan, n) {
            (false, 0) => {}
            (false, _) => return false,
            (true, 1) => {}
            (true, 2) if !pair => pair = true,
            _ => return false,
        }
    }
    pair
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis;
    use rand::{Rng, SeedableRng};

    #[test]
    fn agrees_with_the_reference_on_random_and_near_complete_hands() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let rule_sets = [
            HandRules::STANDARD_ONLY,
            HandRules::ALL_FORMS,
            HandRules {
                four_as_two_pairs: true,
                ..HandRules::ALL_FORMS
            },
        ];
        let mut wins = 0;
        for round in 0..20_000 {
            let mut c = TileCounts::EMPTY;
            let size = [14, 11, 8, 5, 2][round % 5];
            // Bias towards few kinds so that complete hands come up often.
            let kinds: u32 = rng.random_range(4..34);
            let off: u32 = rng.random_range(0..34);
            while c.len() < size {
                let i = ((rng.random_range(0..kinds) + off) % 34) as usize;
                if c.0[i] < 4 {
                    c.0[i] += 1;
                }
            }
            for r in &rule_sets {
                let fast = is_complete(&c, r);
                assert_eq!(fast, analysis::is_win(&c, r), "{c} {r:?}");
                wins += usize::from(fast);
            }
        }
        assert!(wins > 100, "too few complete hands tried: {wins}");
    }
}

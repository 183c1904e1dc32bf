//! Waits and useful tiles from the tables: the kinds that complete a `3k + 1` hand, and those
//! that lower its shanten, without wildcards by the groups' keys and with them by trial of the
//! kinds that can matter.

use super::super::reference::{self, Counts};
use super::super::rules::HandRules;
use super::super::tables::{self, POW5};
use super::{
    ORPHAN_MASK, best_pair, bit, forbidden_suit, group_wilds, is_win, keys, shanten, total,
};
use crate::tile::{KINDS, Tile};

/// Waits of a `3k + 1` hand, as a kind bit mask.
pub fn waits(hand: &Counts, rules: &HandRules) -> u64 {
    if rules.wildcard.is_some() {
        return waits_wild(hand, rules);
    }
    let Some(k) = keys(hand) else {
        return reference::waits(hand, rules);
    };
    let n: u8 = k.len.iter().sum();
    if n % 3 != 1 {
        return 0;
    }
    let t = tables::plain();
    let complete = [
        bit(t.suit_win, k.key[0]),
        bit(t.suit_win, k.key[1]),
        bit(t.suit_win, k.key[2]),
        bit(t.honor_win, k.key[3]),
    ];
    let incomplete = complete.iter().filter(|&&c| !c).count();
    let mut mask = 0u64;
    if incomplete <= 1 {
        let pairs = k.len.iter().filter(|&&l| l % 3 == 2).count();
        for (g, &done) in complete.iter().enumerate() {
            let others_complete = incomplete == 0 || !done;
            if !others_complete {
                continue;
            }
            let own_pair = usize::from(k.len[g] % 3 == 2);
            let new_pair = usize::from((k.len[g] + 1) % 3 == 2);
            if pairs - own_pair + new_pair != 1 {
                continue;
            }
            let w = if g == 3 {
                u16::from(t.honor_waits[k.key[3]])
            } else {
                t.suit_waits.get(k.key[g])
            };
            mask |= u64::from(w) << (9 * g);
        }
    }
    if n == 13 {
        if rules.seven_pairs {
            mask |= seven_pairs_waits(hand, rules.four_as_two_pairs);
        }
        if rules.thirteen_orphans {
            mask |= orphans_waits(hand);
        }
    }
    mask
}

fn seven_pairs_waits(hand: &Counts, four_as_two: bool) -> u64 {
    let mut odd = 0u64;
    for (i, &c) in hand.iter().enumerate() {
        if !four_as_two && c > 2 {
            return 0;
        }
        if c % 2 == 1 {
            odd |= 1 << i;
        }
    }
    // 13 tiles: exactly one odd kind, below four copies.
    if odd.count_ones() == 1 && hand[odd.trailing_zeros() as usize] < 4 {
        odd
    } else {
        0
    }
}

fn orphans_waits(hand: &Counts) -> u64 {
    let mut have = 0u64;
    let mut pairs = 0;
    for (i, &c) in hand.iter().enumerate() {
        if c == 0 {
            continue;
        }
        if ORPHAN_MASK >> i & 1 == 0 || c > 2 {
            return 0;
        }
        have |= 1 << i;
        pairs += usize::from(c == 2);
    }
    match pairs {
        0 => ORPHAN_MASK,
        1 => ORPHAN_MASK & !have,
        _ => 0,
    }
}

/// Waits with wildcards: each candidate changes one group's table entry (or adds a wildcard);
/// seven pairs and thirteen orphans are updated from running counts.
fn waits_wild(hand: &Counts, rules: &HandRules) -> u64 {
    let Some(wild) = rules.wildcard else {
        return waits_by_trial(hand, rules);
    };
    let (real, w, forbidden) = reference::split_wild(hand, rules);
    let Some(k) = keys(&real).filter(|k| w <= 4 && k.len.iter().sum::<u8>() + w <= 13) else {
        return waits_by_trial(hand, rules);
    };
    let n = k.len.iter().sum::<u8>() + w;
    if n % 3 != 1 {
        return 0;
    }
    let wi = wild.tile.index();
    let t = tables::wild();
    let forb = forbidden_suit(forbidden);
    let groups = [0, 1, 2, 3].map(|g| group_wilds(t, g, k.key[g], forb));
    // Wildcards a standard win needs with these group values.
    let need = |v: &[(u8, u8); 4]| {
        let mut sum = 0i16;
        let mut extra = 2i16;
        for &(a, b) in v {
            sum += i16::from(a);
            extra = extra.min(i16::from(b) - i16::from(a));
        }
        sum + extra
    };
    let full = n == 13;
    // Running counts for seven pairs and thirteen orphans.
    let singles = real.iter().filter(|&&c| c % 2 == 1).count() as i16;
    let over_two = real.iter().filter(|&&c| c > 2).count() as i16;
    let (mut o_big, mut o_pairs, mut o_missing, mut o_others) = (0i16, 0i16, 0i16, 0i16);
    for (i, &c) in real.iter().enumerate() {
        if ORPHAN_MASK >> i & 1 != 0 {
            o_big += i16::from(c > 2);
            o_pairs += i16::from(c == 2);
            o_missing += i16::from(c == 0);
        } else {
            o_others += i16::from(c);
        }
    }
    let orphans_possible =
        rules.thirteen_orphans && forbidden.is_none_or(|f| ORPHAN_MASK >> f & 1 == 0);
    let special = |wilds: i16,
                   singles: i16,
                   over_two: i16,
                   big: i16,
                   pairs: i16,
                   missing: i16,
                   others: i16| {
        let seven =
            rules.seven_pairs && (rules.four_as_two_pairs || over_two == 0) && singles <= wilds;
        let orphans = orphans_possible
            && big == 0
            && others == 0
            && ((pairs == 0 && wilds == missing + 1) || (pairs == 1 && wilds == missing));
        full && (seven || orphans)
    };
    let mut mask = 0u64;
    // Drawing a wildcard.
    if hand[wi] < 4 {
        let wilds = i16::from(w) + 1;
        if need(&groups) <= wilds
            || special(
                wilds, singles, over_two, o_big, o_pairs, o_missing, o_others,
            )
        {
            mask |= 1 << wi;
        }
    }
    let wilds = i16::from(w);
    for g in 0..4 {
        let (base, kinds) = if g == 3 { (27, 7) } else { (9 * g, 9) };
        for (r, &step) in POW5.iter().enumerate().take(kinds) {
            let i = base + r;
            let c = real[i];
            if i == wi || c >= 4 {
                continue;
            }
            let mut v = groups;
            v[g] = group_wilds(t, g, k.key[g] + step, forb);
            if need(&v) <= wilds {
                mask |= 1 << i;
                continue;
            }
            let odd = i16::from(c % 2 == 1);
            let orphan = ORPHAN_MASK >> i & 1 != 0;
            let (big, pairs, missing, others) = if orphan {
                (
                    o_big + i16::from(c == 2),
                    o_pairs + i16::from(c == 1) - i16::from(c == 2),
                    o_missing - i16::from(c == 0),
                    o_others,
                )
            } else {
                (o_big, o_pairs, o_missing, o_others + 1)
            };
            if special(
                wilds,
                singles + 1 - 2 * odd,
                over_two + i16::from(c == 2),
                big,
                pairs,
                missing,
                others,
            ) {
                mask |= 1 << i;
            }
        }
    }
    mask
}

/// Waits by trying every kind (hands outside the tables).
fn waits_by_trial(hand: &Counts, rules: &HandRules) -> u64 {
    let mut mask = 0u64;
    let mut h = *hand;
    for t in 0..KINDS {
        if h[t] >= 4 {
            continue;
        }
        h[t] += 1;
        if is_win(&h, rules) {
            mask |= 1 << t;
        }
        h[t] -= 1;
    }
    mask
}

/// Kinds that lower the shanten when drawn, for a hand of `3k + 1` tiles.
pub fn useful_tiles(hand: &Counts, rules: &HandRules) -> u64 {
    let n = total(hand);
    if rules.wildcard.is_some() || n % 3 != 1 || n > 13 {
        return useful_by_trial(hand, rules);
    }
    let Some(k) = keys(hand) else {
        return useful_by_trial(hand, rules);
    };
    let now = shanten(hand, rules);
    let sets = n / 3;
    let t = tables::shanten();
    let id = |g: usize, key: usize| {
        usize::from(if g == 3 {
            t.honor_id[key]
        } else {
            t.suit_id[key]
        })
    };
    let ids = [
        id(0, k.key[0]),
        id(1, k.key[1]),
        id(2, k.key[2]),
        id(3, k.key[3]),
    ];
    let (ns, nh) = (t.suit_ids, t.honor_ids);
    let target = (3 * sets + 2) as i32 - 1 - i32::from(now); // matched needed to improve
    let mut mask = 0u64;
    for g in 0..4 {
        let (base, kinds) = if g == 3 { (27, 7) } else { (9 * g, 9) };
        for r in 0..kinds {
            if hand[base + r] >= 4 {
                continue;
            }
            let mut x = ids;
            x[g] = id(g, k.key[g] + POW5[r]);
            let best = best_pair(
                t.suit_suit.row(x[0] * ns + x[1]),
                t.suit_honor.row(x[2] * nh + x[3]),
                sets,
            );
            if i32::from(best) > target {
                mask |= 1 << (base + r);
            }
        }
    }
    if n == 13 {
        let s = i32::from(now);
        if rules.seven_pairs {
            mask |= seven_pairs_useful(hand, rules.four_as_two_pairs, s);
        }
        if rules.thirteen_orphans {
            let (kinds, pair) = Tile::ORPHANS.iter().fold((0, false), |(k, p), t| {
                let c = hand[t.index()];
                (k + i32::from(c > 0), p || c >= 2)
            });
            for t in Tile::ORPHANS {
                let c = hand[t.index()];
                let (k2, p2) = match c {
                    0 => (kinds + 1, pair),
                    1 => (kinds, true),
                    _ => (kinds, pair),
                };
                if 14 - k2 - i32::from(p2) - 1 < s && c < 4 {
                    mask |= 1 << t.index();
                }
            }
        }
    }
    mask
}

fn seven_pairs_useful(hand: &Counts, four_as_two: bool, now: i32) -> u64 {
    let (mut pairs, mut singles) = (0i32, 0i32);
    for &c in hand {
        if four_as_two {
            pairs += i32::from(c / 2);
            singles += i32::from(c % 2);
        } else {
            pairs += i32::from(c >= 2);
            singles += i32::from(c == 1);
        }
    }
    let sh = |p: i32, s: i32| {
        let p = p.min(7);
        14 - (2 * p + s.min(7 - p)) - 1
    };
    let mut mask = 0u64;
    for (i, &c) in hand.iter().enumerate() {
        if c >= 4 {
            continue;
        }
        let (p2, s2) = if four_as_two {
            if c % 2 == 1 {
                (pairs + 1, singles - 1)
            } else {
                (pairs, singles + 1)
            }
        } else {
            match c {
                0 => (pairs, singles + 1),
                1 => (pairs + 1, singles - 1),
                _ => (pairs, singles),
            }
        };
        if sh(p2, s2) < now {
            mask |= 1 << i;
        }
    }
    mask
}

/// Useful tiles by trying every kind.
fn useful_by_trial(hand: &Counts, rules: &HandRules) -> u64 {
    let now = shanten(hand, rules);
    let mut mask = 0u64;
    let mut h = *hand;
    for t in 0..KINDS {
        if h[t] >= 4 {
            continue;
        }
        h[t] += 1;
        if shanten(&h, rules) < now {
            mask |= 1 << t;
        }
        h[t] -= 1;
    }
    mask
}

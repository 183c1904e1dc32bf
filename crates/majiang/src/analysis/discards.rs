//! Shanten after each discard of a hand, the shanten with one more of each kind and the useful
//! tiles, each in one pass and allocating nothing.
//!
//! A player choosing a discard wants [`shanten_by_form`](super::shanten_by_form) of the hand
//! less each kind it holds. Removing one tile changes one group's table key only, so the four
//! group ids are looked up once and each discard costs one more id lookup and one small
//! max-plus product; seven pairs and thirteen orphans are updated from running counts. With
//! wildcards, and for [`shanten_with_each`] (the shanten of a hand with one more of each of
//! some kinds, wildcards or not), the hand is read once by the `basis` module (which slots of
//! the tabulated products lie on a best combination) and each kind then costs a key, an id, a
//! row load and a mask. The answers are exactly those of `shanten_by_form` and `shanten` on
//! each smaller or larger hand (the unit tests compare them on random hands, with and without
//! wildcards).
//!
//! [`useful_tiles_quick`] is [`useful_tiles`](super::useful_tiles) for hands without wildcards,
//! read through the basis too: a kind is useful when it raises the basis' best while the
//! standard form is the closest, or when it lowers seven pairs or thirteen orphans.

use super::basis::Basis;
use super::fast;
use super::reference::{Counts, split_wild};
use super::rules::HandRules;
use super::tables::{self, POW5};
use super::{ShantenByForm, TileSet};
use crate::counts::TileCounts;
use crate::tile::{KINDS, Tile};

/// Bits of the thirteen orphan kinds.
const ORPHAN_MASK: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < Tile::ORPHANS.len() {
        m |= 1 << Tile::ORPHANS[i].index();
        i += 1;
    }
    m
};

/// Bits of every kind.
const ALL_KINDS: u64 = (1 << KINDS) - 1;

/// True for the thirteen orphan kinds.
#[inline(always)]
fn is_orphan(i: usize) -> bool {
    ORPHAN_MASK >> i & 1 != 0
}

/// What seven pairs and thirteen orphans read of a hand's real tiles (counts at most four),
/// and the kinds by count.
#[derive(Clone, Copy)]
struct PairCounts {
    pairs: i32,
    singles: i32,
    o_kinds: i32,
    o_pairs: i32,
    four_as_two: bool,
    /// `at_least[x]`: the kinds held at least `x` times (`x` in `0..=4`).
    at_least: [u64; 5],
}

impl PairCounts {
    #[inline(always)]
    fn of(real: &Counts, four_as_two: bool) -> PairCounts {
        let at_least = [
            ALL_KINDS,
            fast::kinds_at_least(real, 1),
            fast::kinds_at_least(real, 2),
            fast::kinds_at_least(real, 3),
            fast::kinds_at_least(real, 4),
        ];
        let n = |m: u64| m.count_ones() as i32;
        let [_, one, two, three, four] = at_least;
        let (pairs, singles) = if four_as_two {
            (n(two) + n(four), n(one & !two) + n(three & !four))
        } else {
            (n(two), n(one & !two))
        };
        PairCounts {
            pairs,
            singles,
            o_kinds: n(one & ORPHAN_MASK),
            o_pairs: n(two & ORPHAN_MASK),
            four_as_two,
            at_least,
        }
    }

    /// The kinds held exactly `x` times (`0..=3`).
    #[inline(always)]
    fn held(&self, x: usize) -> u64 {
        self.at_least[x] & !self.at_least[x + 1]
    }

    #[inline(always)]
    fn pair_of(&self, x: i32) -> i32 {
        if self.four_as_two {
            x / 2
        } else {
            i32::from(x >= 2)
        }
    }

    #[inline(always)]
    fn single_of(&self, x: i32) -> i32 {
        if self.four_as_two {
            x % 2
        } else {
            i32::from(x == 1)
        }
    }

    /// Seven pairs shanten with one kind's count changed from `x` to `y` (`x == y`: none
    /// changed) and `w` wildcards.
    #[inline(always)]
    fn seven(&self, x: i32, y: i32, w: i32) -> i8 {
        let p = (self.pairs - self.pair_of(x) + self.pair_of(y)).min(7);
        let s = self.singles - self.single_of(x) + self.single_of(y);
        (14 - (2 * p + s.min(7 - p)) - w - 1) as i8
    }

    /// Thirteen orphans shanten with one orphan kind's count changed from `x` to `y` (`x ==
    /// y`: none changed) and `w` wildcards.
    #[inline(always)]
    fn orphans(&self, x: i32, y: i32, w: i32) -> i8 {
        let k = self.o_kinds - i32::from(x >= 1) + i32::from(y >= 1);
        let p = self.o_pairs - i32::from(x >= 2) + i32::from(y >= 2);
        (14 - k - i32::from(p > 0) - w - 1) as i8
    }
}

/// [`shanten_by_form`](super::shanten_by_form) of `hand` less one copy of each kind it holds:
/// entry `i` is `Some` exactly when the hand holds kind `i`.
///
/// With wildcards (standing for their own kind too) a discarded wildcard is one wildcard fewer.
///
/// `None` when the quick path does not apply: a wildcard that may not stand for its own kind,
/// a hand whose size is not `3k + 2`, more than 14 tiles or more than four of a kind. Callers
/// then use `shanten_by_form` on each smaller hand.
pub fn shanten_after_discards(
    hand: &TileCounts,
    rules: &HandRules,
) -> Option<[Option<ShantenByForm>; KINDS]> {
    shanten_after_discards_of(hand, rules, TileSet(ALL_KINDS))
}

/// [`shanten_after_discards`] for the discards of `kinds` alone: entry `i` is `Some` exactly
/// when the hand holds kind `i` and `kinds` has it (a caller that reads a few discards pays
/// for those).
pub fn shanten_after_discards_of(
    hand: &TileCounts,
    rules: &HandRules,
    kinds: TileSet,
) -> Option<[Option<ShantenByForm>; KINDS]> {
    let c = &hand.0;
    if rules.wildcard.is_some() {
        return wild_after_discards(hand, rules, kinds.0);
    }
    let k = fast::keys(c)?;
    let (keys, n) = (k.key, k.len.iter().map(|&l| usize::from(l)).sum::<usize>());
    if n % 3 != 2 {
        return None;
    }
    let held = fast::held_kinds(c) & kinds.0;
    let t = tables::shanten();
    let id = |g: usize, key: usize| {
        usize::from(if g == 3 {
            t.honor_id[key]
        } else {
            t.suit_id[key]
        })
    };
    let ids = [
        id(0, keys[0]),
        id(1, keys[1]),
        id(2, keys[2]),
        id(3, keys[3]),
    ];
    let m = n - 1;
    let sets = m / 3;
    let full = m == 13 || m == 14;
    let seven = rules.seven_pairs && full;
    let orphans = rules.thirteen_orphans && full;
    // Running counts of the whole hand for the special forms.
    let (mut pairs, mut singles) = (0i32, 0i32);
    let (mut o_kinds, mut o_pairs) = (0i32, 0i32);
    for (i, &x) in c.iter().enumerate().filter(|_| seven || orphans) {
        if rules.four_as_two_pairs {
            pairs += i32::from(x / 2);
            singles += i32::from(x % 2);
        } else {
            pairs += i32::from(x >= 2);
            singles += i32::from(x == 1);
        }
        if is_orphan(i) {
            o_kinds += i32::from(x >= 1);
            o_pairs += i32::from(x >= 2);
        }
    }
    let best = match sets {
        0 => best_after::<0>(held, &keys, &ids),
        1 => best_after::<1>(held, &keys, &ids),
        2 => best_after::<2>(held, &keys, &ids),
        3 => best_after::<3>(held, &keys, &ids),
        _ => best_after::<4>(held, &keys, &ids),
    };
    let mut out = [None; KINDS];
    let mut bits = held;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let x = c[i];
        let standard = (3 * sets + 2) as i8 - best[i] as i8 - 1;
        let seven_pairs = seven.then(|| {
            let (p, s) = if rules.four_as_two_pairs {
                if x % 2 == 0 {
                    (pairs - 1, singles + 1)
                } else {
                    (pairs, singles - 1)
                }
            } else {
                match x {
                    1 => (pairs, singles - 1),
                    2 => (pairs - 1, singles + 1),
                    _ => (pairs, singles),
                }
            };
            let p = p.min(7);
            (14 - (2 * p + s.min(7 - p)) - 1) as i8
        });
        let thirteen_orphans = orphans.then(|| {
            let (k, p) = if is_orphan(i) {
                (o_kinds - i32::from(x == 1), o_pairs - i32::from(x == 2))
            } else {
                (o_kinds, o_pairs)
            };
            (14 - k - i32::from(p > 0) - 1) as i8
        });
        out[i] = Some(ShantenByForm {
            standard,
            seven_pairs,
            thirteen_orphans,
        });
    }
    Some(out)
}

/// [`shanten_after_discards`] with wildcards, through the basis.
fn wild_after_discards(
    hand: &TileCounts,
    rules: &HandRules,
    kinds: u64,
) -> Option<[Option<ShantenByForm>; KINDS]> {
    let (real, w, forbidden) = split_wild(&hand.0, rules);
    if forbidden.is_some() || w > 4 {
        return None;
    }
    let k = fast::keys(&real)?;
    let n = usize::from(k.len.iter().sum::<u8>() + w);
    if n > 14 || n % 3 != 2 {
        return None;
    }
    let m = n - 1;
    let sets = m / 3;
    let full = m == 13;
    let seven = rules.seven_pairs && full;
    let orphans = rules.thirteen_orphans && full;
    let basis = Basis::new(&k.key, sets, rules.wildcard.is_some());
    let pc = PairCounts::of(&real, rules.four_as_two_pairs);
    let w = i32::from(w);
    let standard = |best: u8, w: i32| ((3 * sets + 2) as i32 - i32::from(best) - w - 1) as i8;
    // Seven pairs and thirteen orphans by the count of the kind discarded.
    let mut by_count = [(None, None, None); 5];
    for (x, e) in by_count.iter_mut().enumerate().skip(1) {
        let x = x as i32;
        *e = (
            seven.then(|| pc.seven(x, x - 1, w)),
            orphans.then(|| pc.orphans(x, x - 1, w)),
            orphans.then(|| pc.orphans(0, 0, w)),
        );
    }
    let held = pc.at_least[1] & kinds;
    let stays = basis.scan::<false>(held);
    let mut out = [None; KINDS];
    let mut bits = held;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let (seven_pairs, orphan, other) = by_count[usize::from(real[i])];
        let best = basis.best - u8::from(stays >> i & 1 == 0);
        out[i] = Some(ShantenByForm {
            standard: standard(best, w),
            seven_pairs,
            thirteen_orphans: if is_orphan(i) { orphan } else { other },
        });
    }
    if let Some(wc) = rules
        .wildcard
        .filter(|wc| w > 0 && kinds >> wc.tile.index() & 1 != 0)
    {
        out[wc.tile.index()] = Some(ShantenByForm {
            standard: standard(basis.best, w - 1),
            seven_pairs: seven.then(|| pc.seven(0, 0, w - 1)),
            thirteen_orphans: orphans.then(|| pc.orphans(0, 0, w - 1)),
        });
    }
    Some(out)
}

/// [`shanten`](super::shanten) of `hand` with one more of each kind in `kinds` (entry per kind;
/// 0 for kinds not asked).
///
/// The hand is read once and each kind costs a few operations; a kind with four copies held
/// (five with wildcards), hands outside the tables and a wildcard that may not stand for its
/// own kind are worked out one by one.
pub fn shanten_with_each(hand: &TileCounts, rules: &HandRules, kinds: TileSet) -> [i8; KINDS] {
    let mut out = [0i8; KINDS];
    let (real, w, forbidden) = split_wild(&hand.0, rules);
    let one_by_one = |out: &mut [i8; KINDS], i: usize| {
        let mut h = *hand;
        h.0[i] += 1;
        out[i] = super::shanten(&h, rules);
    };
    let base = fast::keys(&real)
        .filter(|k| forbidden.is_none() && w <= 4 && k.len.iter().sum::<u8>() + w < 14);
    let Some(k) = base else {
        let mut bits = kinds.0 & ALL_KINDS;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            one_by_one(&mut out, i);
        }
        return out;
    };
    let n = usize::from(k.len.iter().sum::<u8>() + w) + 1;
    let sets = n / 3;
    let full = n == 13 || n == 14;
    let seven = rules.seven_pairs && full;
    let orphans = rules.thirteen_orphans && full;
    let basis = Basis::new(&k.key, sets, rules.wildcard.is_some());
    let pc = PairCounts::of(&real, rules.four_as_two_pairs);
    let w = i32::from(w);
    let wild = rules.wildcard.map(|wc| wc.tile.index());
    let forms = |best: u8, x: i32, y: i32, w: i32, orphan: bool| {
        let mut s = ((3 * sets + 2) as i32 - i32::from(best) - w - 1) as i8;
        if seven {
            s = s.min(pc.seven(x, y, w));
        }
        if orphans {
            s = s.min(if orphan {
                pc.orphans(x, y, w)
            } else {
                pc.orphans(0, 0, w)
            });
        }
        s
    };
    let kinds = kinds.0 & ALL_KINDS;
    let rises = basis.scan::<true>(kinds & !pc.at_least[4] & !wild.map_or(0, |i| 1 << i));
    let mut bits = kinds;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if Some(i) == wild {
            if w >= 4 {
                one_by_one(&mut out, i);
            } else {
                out[i] = forms(basis.best, 0, 0, w + 1, false);
            }
        } else if real[i] >= 4 {
            one_by_one(&mut out, i);
        } else {
            let x = i32::from(real[i]);
            let best = basis.best + u8::from(rises >> i & 1 != 0);
            out[i] = forms(best, x, x + 1, w, is_orphan(i));
        }
    }
    out
}

/// The best `m(K, 1)` of two groups together, `K` fixed.
#[inline(always)]
fn best_pair_k<const K: usize>(a: &[u8; 10], b: &[u8; 10]) -> u8 {
    let mut best = 0u8;
    let mut x = 0;
    while x <= K {
        let y = K - x;
        best = best
            .max(a[2 * x + 1] + b[2 * y])
            .max(a[2 * x] + b[2 * y + 1]);
        x += 1;
    }
    best
}

/// Bits of each group's kinds: the three suits and the honours.
const GROUPS: [u64; 4] = [0x1FF, 0x1FF << 9, 0x1FF << 18, 0x7F << 27];

/// Bits of the number kinds of rank at least `lo` and at most `hi` (ranks `0..9`).
const fn ranks(lo: usize, hi: usize) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < 27 {
        if i % 9 >= lo && i % 9 <= hi {
            m |= 1 << i;
        }
        i += 1;
    }
    m
}

/// The kinds of `held` and the number kinds one or two ranks from a held one of their suit.
#[inline(always)]
fn near_kinds(held: u64) -> u64 {
    held | (held << 1) & ranks(1, 8)
        | (held << 2) & ranks(2, 8)
        | (held >> 1) & ranks(0, 7)
        | (held >> 2) & ranks(0, 6)
}

/// `best_pair` of the hand less one of each held kind (bits of `held`), `K` sets.
#[inline(always)]
fn best_after<const K: usize>(held: u64, keys: &[usize; 4], ids: &[usize; 4]) -> [u8; KINDS] {
    let t = tables::shanten();
    let (ns, nh) = (t.suit_ids, t.honor_ids);
    let mut out = [0u8; KINDS];
    let mut bits = held;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let mut v = *ids;
        if i < 27 {
            let g = i / 9;
            v[g] = usize::from(t.suit_id[keys[g] - POW5[i % 9]]);
        } else {
            v[3] = usize::from(t.honor_id[keys[3] - POW5[i - 27]]);
        }
        out[i] = best_pair_k::<K>(
            t.suit_suit.row(v[0] * ns + v[1]),
            t.suit_honor.row(v[2] * nh + v[3]),
        );
    }
    out
}

/// [`useful_tiles`](super::useful_tiles) of a hand of `3k + 1` tiles: the kinds that lower
/// its shanten when drawn.
///
/// `None` when the quick path does not apply: rules with wildcards, a hand whose size is not
/// `3k + 1`, more than 13 tiles or more than four of a kind. Callers then use `useful_tiles`.
pub fn useful_tiles_quick(hand: &TileCounts, rules: &HandRules) -> Option<TileSet> {
    let c = &hand.0;
    if rules.wildcard.is_some() {
        return None;
    }
    let k = fast::keys(c)?;
    let (keys, n) = (k.key, k.len.iter().map(|&l| usize::from(l)).sum::<usize>());
    if n > 13 || n % 3 != 1 {
        return None;
    }
    let sets = n / 3;
    let full = n == 13;
    let basis = Basis::new(&keys, sets, false);
    let standard = (3 * sets + 2) as i32 - i32::from(basis.best) - 1;
    let mut now = standard;
    // Seven pairs and thirteen orphans counts.
    let special = full && (rules.seven_pairs || rules.thirteen_orphans);
    let pc = special.then(|| PairCounts::of(c, rules.four_as_two_pairs));
    if let Some(pc) = pc.filter(|_| rules.seven_pairs) {
        now = now.min(i32::from(pc.seven(0, 0, 0)));
    }
    if let Some(pc) = pc.filter(|_| rules.thirteen_orphans) {
        now = now.min(i32::from(pc.orphans(0, 0, 0)));
    }
    // One more tile lowers the standard shanten by one or leaves it: below `now` only when
    // the standard form is the closest and the kind raises the basis' best.
    let mut mask = if standard == now {
        // A kind three or more ranks from every tile of its suit (or an honour not held) is
        // an isolated tile whichever it is: its group's row is the same for each, so one of
        // them stands for all.
        let held = fast::held_kinds(c);
        let near = near_kinds(held);
        let far = ALL_KINDS & !near;
        let mut stand_ins = 0u64;
        for g in GROUPS {
            let f = far & g;
            stand_ins |= f & f.wrapping_neg();
        }
        let hits = basis.scan::<true>((near & !fast::kinds_at_least(c, 4)) | stand_ins);
        let mut mask = hits & near;
        for g in GROUPS {
            if hits & stand_ins & g != 0 {
                mask |= far & g;
            }
        }
        mask
    } else {
        0
    };
    if let Some(pc) = pc {
        // By the count held: the kinds held `x` times (fewer than four) lower a form when one
        // more of them does.
        for x in 0..4 {
            let y = x as i32 + 1;
            if rules.seven_pairs && i32::from(pc.seven(y - 1, y, 0)) < now {
                mask |= pc.held(x);
            }
            if rules.thirteen_orphans && i32::from(pc.orphans(y - 1, y, 0)) < now {
                mask |= pc.held(x) & ORPHAN_MASK;
            }
        }
    }
    Some(TileSet(mask))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::shanten_by_form;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A random hand of `n` tiles from a full set (at most four of a kind).
    fn random_hand(rng: &mut ChaCha8Rng, n: usize) -> TileCounts {
        let mut h = TileCounts::EMPTY;
        let mut placed = 0;
        while placed < n {
            // Bias towards one suit and the honours now and then, as flush hands are.
            let i = if rng.random_range(0..3) == 0 {
                let s = rng.random_range(0..4usize);
                if s == 3 {
                    rng.random_range(27..KINDS)
                } else {
                    9 * s + rng.random_range(0..9)
                }
            } else {
                rng.random_range(0..KINDS)
            };
            if h.0[i] < 4 {
                h.0[i] += 1;
                placed += 1;
            }
        }
        h
    }

    #[test]
    fn matches_shanten_by_form_of_each_smaller_hand() {
        let all = HandRules::ALL_FORMS;
        let rule_sets = [
            all,
            HandRules::STANDARD_ONLY,
            HandRules {
                four_as_two_pairs: true,
                ..all
            },
            HandRules {
                thirteen_orphans: false,
                ..all
            },
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let mut checked = 0;
        for round in 0..4000 {
            let n = [14, 14, 11, 8, 5, 2][round % 6];
            let h = random_hand(&mut rng, n);
            // With wildcards too: the kind of a tile the hand holds, and one it may not hold.
            let held = Tile::from_index(h.0.iter().position(|&c| c > 0).unwrap_or(0));
            let wild = [held, Tile::from_index(round % KINDS)]
                .map(|t| all.with_wildcard(t.expect("a kind")));
            for rules in rule_sets.iter().chain(&wild) {
                let after = shanten_after_discards(&h, rules).expect("a plain 3k + 2 hand");
                let kinds: u64 = rng.random_range(0..1u64 << KINDS);
                let some = shanten_after_discards_of(&h, rules, TileSet(kinds)).expect("quick");
                for (i, got) in some.iter().enumerate() {
                    let want = if kinds >> i & 1 != 0 { after[i] } else { None };
                    assert_eq!(*got, want, "{h:?} less {i} of {kinds:#x}");
                }
                for (i, got) in after.iter().enumerate() {
                    if h.0[i] == 0 {
                        assert_eq!(*got, None);
                        continue;
                    }
                    let mut g = h;
                    g.0[i] -= 1;
                    assert_eq!(*got, Some(shanten_by_form(&g, rules)), "{h:?} less {i}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 100_000);
    }

    #[test]
    fn useful_tiles_quick_matches_useful_tiles() {
        let all = HandRules::ALL_FORMS;
        let rule_sets = [
            all,
            HandRules::STANDARD_ONLY,
            HandRules {
                four_as_two_pairs: true,
                ..all
            },
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut nonempty = 0;
        for round in 0..20_000 {
            let n = [13, 13, 10, 7, 4, 1][round % 6];
            let h = random_hand(&mut rng, n);
            for rules in &rule_sets {
                let quick = useful_tiles_quick(&h, rules).expect("a plain 3k + 1 hand");
                assert_eq!(quick, crate::analysis::useful_tiles(&h, rules), "{h:?}");
                nonempty += usize::from(!quick.is_empty());
            }
        }
        assert!(nonempty > 10_000);
        let wild = HandRules::ALL_FORMS.with_wildcard(Tile::WHITE);
        let h = TileCounts::parse("123m456p789s1122z").unwrap();
        assert!(useful_tiles_quick(&h, &wild).is_none());
        assert!(useful_tiles_quick(&TileCounts::parse("123m").unwrap(), &all).is_none());
    }

    #[test]
    fn shanten_with_each_matches_shanten_of_each_larger_hand() {
        use crate::analysis::{Wildcard, shanten};
        let all = HandRules::ALL_FORMS;
        let not_own = |t: Tile| HandRules {
            wildcard: Some(Wildcard {
                tile: t,
                as_own_kind: false,
            }),
            ..all
        };
        let five_m = Tile::from_index(4).expect("5m");
        let rule_sets = [
            all,
            HandRules::STANDARD_ONLY,
            all.with_wildcard(Tile::WHITE),
            all.with_wildcard(five_m),
            not_own(five_m),
            not_own(Tile::WHITE),
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(10);
        for round in 0..3000 {
            let n = [13, 13, 10, 7, 4, 1][round % 6];
            let mut h = random_hand(&mut rng, n);
            if round % 2 == 0 && h.0[4] < 4 {
                h.0[4] += 1;
                h.0[h.0.iter().position(|&c| c > 0 && c < 4).unwrap_or(4)] -= 1;
            }
            for rules in &rule_sets {
                let kinds: u64 = rng.random_range(0..1u64 << KINDS);
                let got = shanten_with_each(&h, rules, TileSet(kinds));
                for (i, &s) in got.iter().enumerate() {
                    if kinds & (1 << i) == 0 {
                        assert_eq!(s, 0);
                        continue;
                    }
                    let mut g = h;
                    g.0[i] += 1;
                    assert_eq!(s, shanten(&g, rules), "{h:?} plus {i} under {rules:?}");
                }
            }
        }
    }

    #[test]
    fn declines_hands_outside_the_quick_path() {
        let h = TileCounts::parse("123m456p789s11z222z").unwrap();
        assert!(shanten_after_discards(&h, &HandRules::ALL_FORMS).is_some());
        let not_own = HandRules {
            wildcard: Some(crate::analysis::Wildcard {
                tile: Tile::WHITE,
                as_own_kind: false,
            }),
            ..HandRules::ALL_FORMS
        };
        assert!(shanten_after_discards(&h, &not_own).is_none());
        let thirteen = TileCounts::parse("123m456p789s1122z").unwrap();
        assert!(shanten_after_discards(&thirteen, &HandRules::ALL_FORMS).is_none());
    }
}

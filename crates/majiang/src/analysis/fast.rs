//! The table-driven analysis: win detection, shanten, waits and useful tiles on count arrays,
//! allocating nothing.
//!
//! A hand splits into four *groups*: the three number suits and the honours. Each group's counts
//! form a key into the tables of [`super::tables`]; the groups are then combined by a small
//! max-plus product over the number of sets each contributes and which one holds the pair.
//! Hands outside the tables' range (more than 14 tiles, or more than four of a kind in the
//! counts) go to [`super::reference`], which handles any counts.

use super::reference::{self, Counts};
use super::rules::HandRules;
use super::tables::{self, POW5, merge, unpack};
use crate::tile::Tile;

mod waits;

pub use waits::{useful_tiles, waits};

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

/// Keys and tile counts of the four groups (m, p, s suits, then honours).
#[derive(Clone, Copy)]
pub(super) struct Keys {
    /// Per group (three suits, the honours): the base-5 key of its counts.
    pub(super) key: [usize; 4],
    /// Per group: its tiles.
    pub(super) len: [u8; 4],
}

#[inline(always)]
fn suit_key(c: &[u8]) -> (usize, u8) {
    let key = usize::from(c[0])
        + usize::from(c[1]) * 5
        + usize::from(c[2]) * 25
        + usize::from(c[3]) * 125
        + usize::from(c[4]) * 625
        + usize::from(c[5]) * 3125
        + usize::from(c[6]) * 15625
        + usize::from(c[7]) * 78125
        + usize::from(c[8]) * 390625;
    let len = c[0] + c[1] + c[2] + c[3] + c[4] + c[5] + c[6] + c[7] + c[8];
    (key, len)
}

#[inline(always)]
fn honor_key(c: &[u8]) -> (usize, u8) {
    let key = usize::from(c[0])
        + usize::from(c[1]) * 5
        + usize::from(c[2]) * 25
        + usize::from(c[3]) * 125
        + usize::from(c[4]) * 625
        + usize::from(c[5]) * 3125
        + usize::from(c[6]) * 15625;
    let len = c[0] + c[1] + c[2] + c[3] + c[4] + c[5] + c[6];
    (key, len)
}

/// The group keys, or `None` when a count exceeds four or the hand exceeds 14 tiles.
#[inline(always)]
pub(super) fn keys(c: &Counts) -> Option<Keys> {
    checked_or(c)?;
    let (k0, l0) = suit_key(&c[0..9]);
    let (k1, l1) = suit_key(&c[9..18]);
    let (k2, l2) = suit_key(&c[18..27]);
    let (k3, l3) = honor_key(&c[27..34]);
    let n = l0 + l1 + l2 + l3;
    (n <= 14).then_some(Keys {
        key: [k0, k1, k2, k3],
        len: [l0, l1, l2, l3],
    })
}

#[inline(always)]
fn bit(bits: &[u8], key: usize) -> bool {
    bits[key / 8] >> (key % 8) & 1 != 0
}

fn total(c: &Counts) -> usize {
    c.iter().map(|&x| usize::from(x)).sum()
}

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// Eight counts from `at` as the bytes of a word.
#[inline(always)]
fn word(c: &Counts, at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&c[at..at + 8]);
    u64::from_le_bytes(b)
}

/// Bit per kind: the kinds held (counts at most four).
#[inline(always)]
pub(super) fn held_kinds(c: &Counts) -> u64 {
    // Per word, a 1 in each byte holding a nonzero count, gathered into eight bits by one
    // multiply (no two shifted bytes land on the same bit, so nothing carries).
    let nonzero = |w: u64| ((w | w >> 1 | w >> 2) & LO).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    nonzero(word(c, 0))
        | nonzero(word(c, 8)) << 8
        | nonzero(word(c, 16)) << 16
        | nonzero(word(c, 24)) << 24
        | u64::from(c[32] != 0) << 32
        | u64::from(c[33] != 0) << 33
}

/// Bit per kind: the kinds held at least `n` times (`n` in `1..=4`, counts at most four).
#[inline(always)]
pub(super) fn kinds_at_least(c: &Counts, n: u64) -> u64 {
    // As in `held_kinds`: one bit a byte, gathered by one multiply.
    let gather = |w: u64| (at_least(w, n) >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    gather(word(c, 0))
        | gather(word(c, 8)) << 8
        | gather(word(c, 16)) << 16
        | gather(word(c, 24)) << 24
        | u64::from(u64::from(c[32]) >= n) << 32
        | u64::from(u64::from(c[33]) >= n) << 33
}

/// True if any byte of `x` exceeds four.
#[inline(always)]
fn over_four(x: u64) -> bool {
    (((x & !HI).wrapping_add(0x7B * LO)) | x) & HI != 0
}

/// Sum of the bytes of `x` (each at most four).
#[inline(always)]
fn byte_sum(x: u64) -> u8 {
    (x.wrapping_mul(LO) >> 56) as u8
}

/// The OR of all counts, byte-wise, or `None` if a count exceeds four.
#[inline(always)]
fn checked_or(c: &Counts) -> Option<u64> {
    let (a, b, d, e) = (word(c, 0), word(c, 8), word(c, 16), word(c, 24));
    let f = word(c, 26);
    let any = a | b | d | e | f;
    (!(over_four(a) || over_four(b) || over_four(d) || over_four(e) || over_four(f))).then_some(any)
}

/// Tile counts of the four groups (counts at most four).
#[inline(always)]
fn group_lens(c: &Counts) -> [u8; 4] {
    [
        byte_sum(word(c, 0)) + c[8],
        byte_sum(word(c, 9)) + c[17],
        byte_sum(word(c, 18)) + c[26],
        byte_sum(word(c, 26) >> 8),
    ]
}

/// Win detection; see [`super::is_win`].
pub fn is_win(hand: &Counts, rules: &HandRules) -> bool {
    if rules.wildcard.is_some() {
        return is_win_wild(hand, rules);
    }
    let c = hand;
    let Some(any) = checked_or(c) else {
        return reference::is_win(hand, rules);
    };
    let len = group_lens(c);
    let n = u32::from(len[0]) + u32::from(len[1]) + u32::from(len[2]) + u32::from(len[3]);
    if n > 14 {
        return reference::is_win(hand, rules);
    }
    if n % 3 != 2 {
        return false;
    }
    // Sets and a pair: no group of 3k + 1 tiles, exactly one of 3k + 2.
    let shape = len
        .iter()
        .fold(0u32, |a, &l| a + [0, 16, 1][usize::from(l % 3)]);
    if shape == 1 {
        let t = tables::plain();
        if bit(t.suit_win, suit_key(&c[0..9]).0)
            && bit(t.suit_win, suit_key(&c[9..18]).0)
            && bit(t.suit_win, suit_key(&c[18..27]).0)
            && bit(t.honor_win, honor_key(&c[27..34]).0)
        {
            return true;
        }
    }
    if n != 14 {
        return false;
    }
    // Seven pairs: every count even (or 0 or 2 when the pairs must be distinct).
    let bad = if rules.four_as_two_pairs {
        LO
    } else {
        !(2 * LO)
    };
    (rules.seven_pairs && any & bad == 0) || (rules.thirteen_orphans && orphans_win(hand))
}

/// Thirteen orphans of a 14-tile hand without wildcards.
#[inline]
fn orphans_win(c: &Counts) -> bool {
    // Each orphan once or twice and 14 orphan tiles in all: no other kind, exactly one pair.
    let mut sum = 0u8;
    for t in Tile::ORPHANS {
        let x = c[t.index()];
        if !matches!(x, 1 | 2) {
            return false;
        }
        sum += x;
    }
    sum == 14
}

/// The kind wildcards may not stand for, as (suit, rank index), when it is a number kind.
#[inline]
pub(super) fn forbidden_suit(forbidden: Option<usize>) -> Option<(usize, usize)> {
    forbidden.filter(|&f| f < 27).map(|f| (f / 9, f % 9))
}

/// Fewest wildcards completing a group, without and with the pair.
#[inline]
fn group_wilds(
    t: &tables::WildTables,
    g: usize,
    key: usize,
    forb: Option<(usize, usize)>,
) -> (u8, u8) {
    let split = |x: u8| (x & 0xF, x >> 4);
    if g == 3 {
        return split(t.honor_wilds[key]);
    }
    match forb {
        Some((s, r)) if s == g => {
            let (l0, l1) = split(t.run_wilds[r][key % POW5[r]]);
            let (r0, r1) = split(t.run_wilds[8 - r][key / POW5[r + 1]]);
            ((l0 + r0).min(15), (l1 + r0).min(l0 + r1).min(15))
        }
        _ => split(t.run_wilds[9][key]),
    }
}

fn is_win_wild(hand: &Counts, rules: &HandRules) -> bool {
    let (real, w, forbidden) = reference::split_wild(hand, rules);
    let Some(sets) = sets_with_wilds(&real, w, forbidden, true) else {
        return reference::is_win(hand, rules);
    };
    if sets {
        return true;
    }
    total(&real) + usize::from(w) == 14
        && ((rules.seven_pairs && reference::seven_pairs(&real, w, rules.four_as_two_pairs))
            || (rules.thirteen_orphans && reference::thirteen_orphans(&real, w, forbidden)))
}

/// Whether the real tiles `real` and `w` wildcards (which may not stand for `forbidden`) make
/// complete sets and, when `pair`, one pair; `reference::sets_and_pair` from the tables.
/// `None` where the tables do not reach (over four wildcards or of a kind, over 14 tiles).
pub(super) fn sets_with_wilds(
    real: &Counts,
    w: u8,
    forbidden: Option<usize>,
    pair: bool,
) -> Option<bool> {
    let k = keys(real).filter(|_| w <= 4)?;
    let n = k.len.iter().sum::<u8>() + w;
    if n > 14 {
        return None;
    }
    if n % 3 != if pair { 2 } else { 0 } {
        return Some(false);
    }
    let t = tables::wild();
    let forb = forbidden_suit(forbidden);
    // Every group completes without the pair; one of them (or two wildcards) holds the pair.
    // The wildcards left over then come in threes (the tile count above), a set each.
    let mut need = 0i16;
    let mut extra = if pair { 2i16 } else { 0 };
    for g in 0..4 {
        let (a, b) = group_wilds(t, g, k.key[g], forb);
        need += i16::from(a);
        if pair {
            extra = extra.min(i16::from(b) - i16::from(a));
        }
    }
    Some(need + extra <= i16::from(w))
}

/// The best `m(k, 1)` of two groups together.
#[inline(always)]
fn best_pair(a: &[u8; 10], b: &[u8; 10], k: usize) -> u8 {
    let mut best = 0u8;
    for x in 0..=k {
        let y = k - x;
        best = best
            .max(a[2 * x + 1] + b[2 * y])
            .max(a[2 * x] + b[2 * y + 1]);
    }
    best
}

/// The counts as five words that do not overlap: kinds 0–7, 8–15, 16–23, 24–31 and 32–33.
#[inline(always)]
fn words(c: &Counts) -> [u64; 5] {
    [
        word(c, 0),
        word(c, 8),
        word(c, 16),
        word(c, 24),
        word(c, 26) >> 48,
    ]
}

/// The orphan kinds' bytes in each of [`words`].
const ORPHAN_BYTES: [u64; 5] = {
    let mut m = [0u64; 5];
    let mut i = 0;
    while i < Tile::ORPHANS.len() {
        let k = Tile::ORPHANS[i].index();
        m[k / 8] |= 0xFF << (8 * (k % 8));
        i += 1;
    }
    m
};

/// Bytes of `x` (each at most four) that are at least `n` (1 or 2), as high bits.
#[inline(always)]
fn at_least(x: u64, n: u64) -> u64 {
    x.wrapping_add((0x80 - n) * LO) & HI
}

/// Seven pairs shanten from the real counts (at most four each) and wildcards.
#[inline]
fn seven_pairs_shanten(w: &[u64; 5], wild: u8, four_as_two: bool) -> i8 {
    let (mut pairs, mut singles) = (0u32, 0u32);
    for &x in w {
        if four_as_two {
            pairs += u32::from(byte_sum((x >> 1) & (0x7F * LO)));
            singles += (x & LO).count_ones();
        } else {
            let two = at_least(x, 2).count_ones();
            pairs += two;
            singles += at_least(x, 1).count_ones() - two;
        }
    }
    let p = pairs.min(7) as i32;
    let matched = 2 * p + (singles as i32).min(7 - p);
    (14 - matched - i32::from(wild) - 1) as i8
}

/// Thirteen orphans shanten from the real counts (at most four each) and wildcards.
#[inline]
fn orphans_shanten(w: &[u64; 5], wild: u8) -> i8 {
    let (mut kinds, mut pair) = (0i32, 0u64);
    for (&x, &m) in w.iter().zip(&ORPHAN_BYTES) {
        kinds += at_least(x & m, 1).count_ones() as i32;
        pair |= at_least(x & m, 2);
    }
    (14 - kinds - i32::from(pair != 0) - i32::from(wild) - 1) as i8
}

/// Shanten of each form: (standard, seven pairs, thirteen orphans).
pub fn shanten_by_form(hand: &Counts, rules: &HandRules) -> (i8, Option<i8>, Option<i8>) {
    let (real, w, forbidden) = reference::split_wild(hand, rules);
    let Some(k) = keys(&real).filter(|k| w <= 4 && k.len.iter().sum::<u8>() + w <= 14) else {
        return slow_by_form(hand, rules);
    };
    let n = usize::from(k.len.iter().sum::<u8>() + w);
    let sets = n / 3;
    let best = if rules.wildcard.is_none() {
        let t = tables::shanten();
        let a = usize::from(t.suit_id[k.key[0]]);
        let b = usize::from(t.suit_id[k.key[1]]);
        let c = usize::from(t.suit_id[k.key[2]]);
        let h = usize::from(t.honor_id[k.key[3]]);
        best_pair(
            t.suit_suit.row(a * t.suit_ids + b),
            t.suit_honor.row(c * t.honor_ids + h),
            sets,
        )
    } else {
        wild_standard_best(&k, forbidden, sets)
    };
    let standard = (3 * sets + 2) as i8 - best as i8 - w as i8 - 1;
    let full = n == 13 || n == 14;
    let ws = words(&real);
    let seven =
        (rules.seven_pairs && full).then(|| seven_pairs_shanten(&ws, w, rules.four_as_two_pairs));
    let orphans_allowed = !forbidden.is_some_and(|f| Tile::ORPHANS.iter().any(|t| t.index() == f));
    let orphans =
        (rules.thirteen_orphans && full && orphans_allowed).then(|| orphans_shanten(&ws, w));
    (standard, seven, orphans)
}

fn slow_by_form(hand: &Counts, rules: &HandRules) -> (i8, Option<i8>, Option<i8>) {
    (
        reference::shanten_standard(hand, rules) as i8,
        rules
            .seven_pairs
            .then(|| reference::shanten_seven_pairs(hand, rules))
            .flatten()
            .map(|s| s as i8),
        rules
            .thirteen_orphans
            .then(|| reference::shanten_thirteen_orphans(hand, rules))
            .flatten()
            .map(|s| s as i8),
    )
}

/// Most real tiles a standard shape of `sets` sets and a pair can use, with wildcards
/// (uncapped shapes), splitting a suit around a kind wildcards may not stand for.
#[inline]
fn wild_standard_best(k: &Keys, forbidden: Option<usize>, sets: usize) -> u8 {
    let t = tables::wild();
    let (ns, nh) = (t.run_vals[9].len(), t.honor_vals.len());
    let id = |g: usize| usize::from(t.run_id[9][k.key[g]]);
    let h = usize::from(t.honor_id[k.key[3]]);
    let Some((g, r)) = forbidden_suit(forbidden) else {
        return best_pair(
            t.suit_suit.row(id(0) * ns + id(1)),
            t.suit_honor.row(id(2) * nh + h),
            sets,
        );
    };
    let run = |len: usize, key: usize| unpack(t.run_vals[len].get(usize::from(t.run_id[len][key])));
    let key = k.key[g];
    let cut = merge(&run(r, key % POW5[r]), &run(8 - r, key / POW5[r + 1]), sets);
    let full = |g: usize| unpack(t.run_vals[9].get(id(g)));
    match g {
        0 => best_pair(
            &merge(&cut, &full(1), sets),
            t.suit_honor.row(id(2) * nh + h),
            sets,
        ),
        1 => best_pair(
            &merge(&full(0), &cut, sets),
            t.suit_honor.row(id(2) * nh + h),
            sets,
        ),
        _ => {
            let honors = unpack(t.honor_vals.get(h));
            best_pair(
                t.suit_suit.row(id(0) * ns + id(1)),
                &merge(&cut, &honors, sets),
                sets,
            )
        }
    }
}

/// Shanten: the least over the allowed forms.
pub fn shanten(hand: &Counts, rules: &HandRules) -> i8 {
    let (s, a, b) = shanten_by_form(hand, rules);
    s.min(a.unwrap_or(i8::MAX)).min(b.unwrap_or(i8::MAX))
}

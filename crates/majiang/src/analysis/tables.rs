//! Per-run lookup tables for the fast analysis, built on first use with [`std::sync::OnceLock`].
//!
//! A *run* is a row of `len` consecutive kinds: a number suit (9 kinds, chows allowed), the
//! honours (7 kinds, no chows), or, when a wildcard may not stand for its own number kind, the
//! part of a suit on one side of that kind. The counts of a run (each `0..=4`) are read as a
//! base-5 number, the *key*; every table has one entry per key (`5^9 = 1,953,125` for a suit).
//!
//! For each key and each target of `s` sets (`0..=4`) plus `p` pairs (`0..=1`) the tables hold
//! the most of the run's tiles that some complete group of `s` sets and `p` pairs inside the run
//! can use (`m(s, p)`, a nibble each, ten nibbles in a `u64`). It is built in two passes over
//! the keys without any search:
//!
//! 1. *Membership*: every complete group shape `H` (at most four sets plus an optional pair,
//!    enumerated directly) marks the key of `min(H, 4)`; then, in decreasing key order, each key
//!    inherits the marks of every key one tile above it. A key is then marked for `(s, p)`
//!    exactly when its counts fit inside some shape `H` of `s` sets and `p` pairs.
//! 2. *Best fit*: in increasing key order, `m(s, p)` of a marked key is its tile count, and
//!    otherwise the best of the keys one tile below it.
//!
//! The *capped* tables (shapes hold at most four of a kind) serve play without wildcards; the
//! *uncapped* ones (a wildcard may stand for a fifth copy) serve wildcards. From the capped
//! membership come the win bits (`complete`) and the waits of a run (ranks whose addition
//! completes it); from the uncapped membership the fewest wildcards that complete the run, with
//! and without the pair.

use std::sync::OnceLock;

/// Powers of five.
pub(crate) const POW5: [usize; 10] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125];

/// Bit of a `(sets, pair)` target in a membership mask, and nibble of it in a packed entry.
const fn slot(s: usize, p: usize) -> usize {
    s * 2 + p
}

/// Unpacks the ten `m(s, p)` nibbles of an entry, indexed by `s * 2 + p`.
#[inline(always)]
pub(crate) fn unpack(x: u64) -> [u8; 10] {
    let mut out = [0u8; 10];
    for (i, o) in out.iter_mut().enumerate() {
        *o = ((x >> (4 * i)) & 0xF) as u8;
    }
    out
}

fn digits(mut key: usize, len: usize) -> [u8; 9] {
    let mut d = [0u8; 9];
    for x in d.iter_mut().take(len) {
        *x = (key % 5) as u8;
        key /= 5;
    }
    d
}

/// The membership masks of a run: bit `s * 2 + p` of entry `key` is set when the counts fit in
/// some complete shape of `s` sets and `p` pairs.
fn membership(len: usize, chows: bool, capped: bool) -> Vec<u16> {
    let size = POW5[len];
    let mut mask = vec![0u16; size];
    // Set types: pungs at 0..len, then chows starting at 0..len-2.
    let n_chows = if chows && len >= 3 { len - 2 } else { 0 };
    let n_types = len + n_chows;
    let mut h = [0u8; 9];
    #[allow(clippy::too_many_arguments)]
    fn rec(
        h: &mut [u8; 9],
        from: usize,
        sets: usize,
        len: usize,
        n_types: usize,
        capped: bool,
        mask: &mut [u16],
    ) {
        let fits = |h: &[u8; 9]| !capped || h.iter().all(|&x| x <= 4);
        let key_of = |h: &[u8; 9]| {
            (0..len)
                .map(|i| usize::from(h[i].min(4)) * POW5[i])
                .sum::<usize>()
        };
        if fits(h) {
            mask[key_of(h)] |= 1 << slot(sets, 0);
        }
        for j in 0..len {
            h[j] += 2;
            if fits(h) {
                mask[key_of(h)] |= 1 << slot(sets, 1);
            }
            h[j] -= 2;
        }
        if sets == 4 {
            return;
        }
        for t in from..n_types {
            if t < len {
                h[t] += 3;
            } else {
                for x in &mut h[t - len..t - len + 3] {
                    *x += 1;
                }
            }
            if fits(h) {
                rec(h, t, sets + 1, len, n_types, capped, mask);
            }
            if t < len {
                h[t] -= 3;
            } else {
                for x in &mut h[t - len..t - len + 3] {
                    *x -= 1;
                }
            }
        }
    }
    rec(&mut h, 0, 0, len, n_types, capped, &mut mask);
    // Downward closure: a key fits if a key one tile above it fits.
    for key in (0..size).rev() {
        let d = digits(key, len);
        let mut m = mask[key];
        for (i, &di) in d.iter().enumerate().take(len) {
            if di < 4 {
                m |= mask[key + POW5[i]];
            }
        }
        mask[key] = m;
    }
    mask
}

/// The packed best-fit entries `m(s, p)` of a run, from its membership masks.
fn best_fit(len: usize, mask: &[u16]) -> Vec<u64> {
    let size = POW5[len];
    let mut best = vec![[0u8; 10]; size];
    for key in 0..size {
        let d = digits(key, len);
        let total: u8 = d.iter().sum();
        let mut b = [0u8; 10];
        for (i, &di) in d.iter().enumerate().take(len) {
            if di > 0 {
                let below = &best[key - POW5[i]];
                for (x, &y) in b.iter_mut().zip(below) {
                    *x = (*x).max(y);
                }
            }
        }
        for (sl, x) in b.iter_mut().enumerate() {
            if mask[key] & (1 << sl) != 0 {
                *x = total;
            }
        }
        best[key] = b;
    }
    best.iter()
        .map(|b| {
            b.iter()
                .enumerate()
                .fold(0u64, |acc, (i, &x)| acc | (u64::from(x) << (4 * i)))
        })
        .collect()
}

/// Tables for play without wildcards: win bits and waits of suits and honours.
pub(crate) struct PlainTables {
    /// Suit win bits, one per key (bit `key % 64` of word `key / 64`).
    pub suit_win: Vec<u64>,
    /// Suit waits: bit `r` set when adding rank `r + 1` completes the suit (`r`-th count < 4).
    pub suit_waits: Vec<u16>,
    /// Honour win bits.
    pub honor_win: Vec<u64>,
    /// Honour waits.
    pub honor_waits: Vec<u16>,
}

fn win_bits(len: usize, mask: &[u16]) -> Vec<u64> {
    let size = POW5[len];
    let mut bits = vec![0u64; size.div_ceil(64)];
    for (key, &m) in mask.iter().enumerate() {
        let t: usize = digits(key, len).iter().map(|&x| usize::from(x)).sum();
        let (s, p) = (t / 3, t % 3);
        if p != 1 && s <= 4 && m & (1 << slot(s, p / 2)) != 0 {
            bits[key / 64] |= 1 << (key % 64);
        }
    }
    bits
}

fn waits_of(len: usize, bits: &[u64]) -> Vec<u16> {
    let size = POW5[len];
    let win = |k: usize| bits[k / 64] >> (k % 64) & 1 != 0;
    (0..size)
        .map(|key| {
            let d = digits(key, len);
            (0..len)
                .filter(|&r| d[r] < 4 && win(key + POW5[r]))
                .fold(0u16, |acc, r| acc | 1 << r)
        })
        .collect()
}

/// Tables for shanten without wildcards (capped shapes).
///
/// Only 126 different `m(s, p)` arrays occur over all suit keys and 55 over honour keys, so
/// each key maps to a one-byte id, and the max-plus products of two suits and of a suit with the
/// honours are tabulated per pair of ids.
pub(crate) struct ShantenTables {
    /// Id of each suit key's array.
    pub suit_id: Vec<u8>,
    /// Id of each honour key's array.
    pub honor_id: Vec<u8>,
    /// Number of suit ids.
    pub suit_ids: usize,
    /// Number of honour ids.
    pub honor_ids: usize,
    /// `suit_suit[a * suit_ids + b]`: the product of suit arrays `a` and `b`.
    pub suit_suit: Vec<[u8; 10]>,
    /// `suit_honor[a * honor_ids + h]`: the product of suit array `a` and honour array `h`.
    pub suit_honor: Vec<[u8; 10]>,
}

/// Max-plus product of two groups' `m(s, p)` arrays (indexed `s * 2 + p`) for set counts up to
/// `k`: the best use of both groups together with `s` sets between them and at most one pair.
#[inline(always)]
pub(crate) fn merge(a: &[u8; 10], b: &[u8; 10], k: usize) -> [u8; 10] {
    let mut c = [0u8; 10];
    for s in 0..=k {
        let mut best0 = 0u8;
        let mut best1 = 0u8;
        for x in 0..=s {
            let y = s - x;
            best0 = best0.max(a[2 * x] + b[2 * y]);
            best1 = best1
                .max(a[2 * x + 1] + b[2 * y])
                .max(a[2 * x] + b[2 * y + 1]);
        }
        c[2 * s] = best0;
        c[2 * s + 1] = best1;
    }
    c
}

/// Distinct values of `table`, and each entry's id.
fn ids(table: &[u64]) -> (Vec<u8>, Vec<u64>) {
    let mut distinct: Vec<u64> = table.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(
        distinct.len() <= 256,
        "too many distinct entries for byte ids"
    );
    let id = table
        .iter()
        .map(|x| distinct.binary_search(x).expect("present") as u8)
        .collect();
    (id, distinct)
}

fn products(a: &[u64], b: &[u64]) -> Vec<[u8; 10]> {
    let mut out = Vec::with_capacity(a.len() * b.len());
    for &x in a {
        for &y in b {
            out.push(merge(&unpack(x), &unpack(y), 4));
        }
    }
    out
}

/// Tables for wildcards (uncapped shapes), for every run length `0..=9` with chows, and the
/// honours.
pub(crate) struct WildTables {
    /// `run_id[len]`: id of the `m(s, p)` array of each key of a run of `len` number kinds.
    pub run_id: Vec<Vec<u8>>,
    /// `run_vals[len]`: packed `m(s, p)` per id.
    pub run_vals: Vec<Vec<u64>>,
    /// `run_wilds[len]`: fewest wildcards completing the run without (low nibble) and with (high
    /// nibble) the pair, saturated at 15.
    pub run_wilds: Vec<Vec<u8>>,
    /// Id of each honour key's array.
    pub honor_id: Vec<u8>,
    /// Packed `m(s, p)` per honour id.
    pub honor_vals: Vec<u64>,
    /// Fewest wildcards completing the honours.
    pub honor_wilds: Vec<u8>,
    /// `suit_suit[a * run_vals[9].len() + b]`: the product of full-suit arrays `a` and `b`.
    pub suit_suit: Vec<[u8; 10]>,
    /// `suit_honor[a * honor_vals.len() + h]`: the product of suit array `a` and honour array `h`.
    pub suit_honor: Vec<[u8; 10]>,
}

fn fewest_wilds(len: usize, mask: &[u16]) -> Vec<u8> {
    mask.iter()
        .enumerate()
        .map(|(key, &m)| {
            let t: usize = digits(key, len).iter().map(|&x| usize::from(x)).sum();
            let mut out = 0u8;
            for p in 0..2 {
                let mut best = 15usize;
                for s in 0..=4 {
                    let size = 3 * s + 2 * p;
                    if m & (1 << slot(s, p)) != 0 && size >= t {
                        best = best.min(size - t);
                    }
                }
                out |= (best as u8) << (4 * p);
            }
            out
        })
        .collect()
}

/// The tables for play without wildcards, built on first use (about a tenth of a second).
pub(crate) fn plain() -> &'static PlainTables {
    static T: OnceLock<PlainTables> = OnceLock::new();
    T.get_or_init(|| {
        let sm = membership(9, true, true);
        let hm = membership(7, false, true);
        let suit_win = win_bits(9, &sm);
        let honor_win = win_bits(7, &hm);
        PlainTables {
            suit_waits: waits_of(9, &suit_win),
            honor_waits: waits_of(7, &honor_win),
            suit_win,
            honor_win,
        }
    })
}

/// The shanten tables without wildcards, built on first use.
pub(crate) fn shanten() -> &'static ShantenTables {
    static T: OnceLock<ShantenTables> = OnceLock::new();
    T.get_or_init(|| {
        let sm = membership(9, true, true);
        let hm = membership(7, false, true);
        let suit = best_fit(9, &sm);
        let honor = best_fit(7, &hm);
        let (suit_id, suit_vals) = ids(&suit);
        let (honor_id, honor_vals) = ids(&honor);
        ShantenTables {
            suit_ids: suit_vals.len(),
            honor_ids: honor_vals.len(),
            suit_suit: products(&suit_vals, &suit_vals),
            suit_honor: products(&suit_vals, &honor_vals),
            suit_id,
            honor_id,
        }
    })
}

/// The wildcard tables, built on first use.
pub(crate) fn wild() -> &'static WildTables {
    static T: OnceLock<WildTables> = OnceLock::new();
    T.get_or_init(|| {
        let mut run_id = Vec::with_capacity(10);
        let mut run_vals = Vec::with_capacity(10);
        let mut run_wilds = Vec::with_capacity(10);
        for len in 0..=9 {
            let m = membership(len, true, false);
            let (id, vals) = ids(&best_fit(len, &m));
            run_id.push(id);
            run_vals.push(vals);
            run_wilds.push(fewest_wilds(len, &m));
        }
        let hm = membership(7, false, false);
        let (honor_id, honor_vals) = ids(&best_fit(7, &hm));
        WildTables {
            suit_suit: products(&run_vals[9], &run_vals[9]),
            suit_honor: products(&run_vals[9], &honor_vals),
            run_id,
            run_vals,
            run_wilds,
            honor_id,
            honor_vals,
            honor_wilds: fewest_wilds(7, &hm),
        }
    })
}

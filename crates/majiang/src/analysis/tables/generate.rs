//! Builds the per-run lookup tables of the fast analysis. Compiled only into the crate's build
//! script (`build.rs`), which calls [`write_tables`] once per build of the crate; the library
//! embeds the files it writes (see the `tables` module).
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

use super::shape::{POW5, merge, unpack};
use std::fs;
use std::io;
use std::path::Path;

/// Bit of a `(sets, pair)` target in a membership mask, and nibble of it in a packed entry.
const fn slot(s: usize, p: usize) -> usize {
    s * 2 + p
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

/// Win bits of a run, eight keys a byte (bit `key % 8` of byte `key / 8`).
fn win_bits(len: usize, mask: &[u16]) -> Vec<u8> {
    let size = POW5[len];
    let mut bits = vec![0u8; size.div_ceil(8)];
    for (key, &m) in mask.iter().enumerate() {
        let t: usize = digits(key, len).iter().map(|&x| usize::from(x)).sum();
        let (s, p) = (t / 3, t % 3);
        if p != 1 && s <= 4 && m & (1 << slot(s, p / 2)) != 0 {
            bits[key / 8] |= 1 << (key % 8);
        }
    }
    bits
}

/// Waits of a run: bit `r` set when adding rank `r + 1` completes it (`r`-th count < 4).
fn waits_of(len: usize, bits: &[u8]) -> Vec<u16> {
    let size = POW5[len];
    let win = |k: usize| bits[k / 8] >> (k % 8) & 1 != 0;
    (0..size)
        .map(|key| {
            let d = digits(key, len);
            (0..len)
                .filter(|&r| d[r] < 4 && win(key + POW5[r]))
                .fold(0u16, |acc, r| acc | 1 << r)
        })
        .collect()
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

/// Max-plus products of every array of `a` with every array of `b`, row-major.
fn products(a: &[u64], b: &[u64]) -> Vec<[u8; 10]> {
    let mut out = Vec::with_capacity(a.len() * b.len());
    for &x in a {
        for &y in b {
            out.push(merge(&unpack(x), &unpack(y), 4));
        }
    }
    out
}

/// Fewest wildcards completing each key of a run, without (low nibble) and with (high nibble)
/// the pair, saturated at 15.
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

/// Little-endian bytes of 16-bit words.
fn words16(x: &[u16]) -> Vec<u8> {
    x.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Little-endian bytes of 64-bit words.
fn words64(x: &[u64]) -> Vec<u8> {
    x.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Writes every table into `dir`, one `.bin` file each, in the layouts the `tables` module
/// reads: win bits eight keys a byte, waits and `m(s, p)` arrays as little-endian words, ids,
/// honour waits and wildcard counts a byte each, products ten bytes a row.
pub fn write_tables(dir: &Path) -> io::Result<()> {
    let put = |name: &str, bytes: &[u8]| fs::write(dir.join(format!("{name}.bin")), bytes);

    // Without wildcards (capped shapes): win bits, waits and shanten.
    let sm = membership(9, true, true);
    let hm = membership(7, false, true);
    let suit_win = win_bits(9, &sm);
    let honor_win = win_bits(7, &hm);
    put("suit_waits", &words16(&waits_of(9, &suit_win)))?;
    let honor_waits: Vec<u8> = waits_of(7, &honor_win)
        .iter()
        .map(|&w| u8::try_from(w).expect("seven honour kinds fit a byte"))
        .collect();
    put("honor_waits", &honor_waits)?;
    put("suit_win", &suit_win)?;
    put("honor_win", &honor_win)?;
    let (suit_id, suit_vals) = ids(&best_fit(9, &sm));
    let (honor_id, honor_vals) = ids(&best_fit(7, &hm));
    put("shanten_suit_id", &suit_id)?;
    put("shanten_honor_id", &honor_id)?;
    put("shanten_suit_vals", &words64(&suit_vals))?;
    put("shanten_honor_vals", &words64(&honor_vals))?;
    put(
        "shanten_suit_suit",
        &products(&suit_vals, &suit_vals).concat(),
    )?;
    put(
        "shanten_suit_honor",
        &products(&suit_vals, &honor_vals).concat(),
    )?;

    // Wildcards (uncapped shapes): runs of every length, and the honours.
    let mut full_vals = Vec::new();
    for len in 0..=9 {
        let m = membership(len, true, false);
        let (id, vals) = ids(&best_fit(len, &m));
        put(&format!("wild_run_id_{len}"), &id)?;
        put(&format!("wild_run_vals_{len}"), &words64(&vals))?;
        put(&format!("wild_run_wilds_{len}"), &fewest_wilds(len, &m))?;
        full_vals = vals;
    }
    let hm = membership(7, false, false);
    let (honor_id, honor_vals) = ids(&best_fit(7, &hm));
    put("wild_honor_id", &honor_id)?;
    put("wild_honor_vals", &words64(&honor_vals))?;
    put("wild_honor_wilds", &fewest_wilds(7, &hm))?;
    put("wild_suit_suit", &products(&full_vals, &full_vals).concat())?;
    put(
        "wild_suit_honor",
        &products(&full_vals, &honor_vals).concat(),
    )?;
    Ok(())
}

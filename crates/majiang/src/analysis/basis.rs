//! A hand's standard shanten read once, so that the same hand with one tile more or one tile
//! less of any kind is answered in a few operations.
//!
//! The table-driven shanten combines two tabulated products, `a` (suits 0 and 1) and `b`
//! (suit 2 and the honours), each a row of ten bytes `m(s, p)` (the most tiles `s` sets and
//! `p` pairs of those groups can use), into `best = max_j a[j] + b[top - j]`: the most tiles
//! `k` sets and a pair can use (`j = 2s + p`, `top = 2k + 1`). Adding a tile to a group raises
//! each byte of its product by 0 or 1, and removing one lowers each by 0 or 1 (a best shape
//! gains or loses at most that tile). So with the slots `j` of each product that reach `best`,
//! the hand with one more tile reaches `best + 1` exactly when the new row rises at one of
//! them, and the hand with one less keeps `best` exactly when the new row stays at one of them.
//! The byte-wise difference of two rows is 0 or 1 per slot, so each kind costs a key, an id
//! and a row load, a subtraction and a mask, instead of a new product's maximum.

use super::tables::{self, POW5, Rows};

/// One product row as two little-endian words: slots 0–7 and slots 8–9.
type Row = (u64, u16);

/// The four groups of a hand (three suits, the honours) read for one count of sets.
#[derive(Clone, Copy)]
pub(super) struct Basis {
    /// Per group: the base-5 key of its counts.
    key: [usize; 4],
    /// Per group: its table id.
    id: [usize; 4],
    /// The products of suits 0 and 1, and of suit 2 and the honours.
    rows: [Row; 2],
    /// Per product: bit `8j` set when slot `j` reaches `best` with the other product.
    top: [Row; 2],
    /// The most tiles `k` sets and a pair can use.
    pub(super) best: u8,
    /// Read through the wildcard (uncapped) tables rather than the capped ones.
    wild: bool,
}

/// Bit `8j` for each slot `j` in `bits` (bit `j`), as a [`Row`].
#[inline(always)]
fn slot_bits(bits: u32) -> Row {
    let mut lo = 0u64;
    for j in 0..8 {
        lo |= u64::from(bits >> j & 1) << (8 * j);
    }
    (lo, ((bits >> 8 & 1) | (bits >> 9 & 1) << 8) as u16)
}

impl Basis {
    /// The basis of the groups with base-5 keys `key` (real tiles, each count at most four)
    /// for `k` sets (`0..=4`), through the capped tables or, with `wild`, the wildcard ones.
    #[inline(always)]
    pub(super) fn new(key: &[usize; 4], k: usize, wild: bool) -> Basis {
        let id = if wild {
            let t = tables::wild();
            [
                usize::from(t.run_id[9][key[0]]),
                usize::from(t.run_id[9][key[1]]),
                usize::from(t.run_id[9][key[2]]),
                usize::from(t.honor_id[key[3]]),
            ]
        } else {
            let t = tables::shanten();
            [
                usize::from(t.suit_id[key[0]]),
                usize::from(t.suit_id[key[1]]),
                usize::from(t.suit_id[key[2]]),
                usize::from(t.honor_id[key[3]]),
            ]
        };
        let mut basis = Basis {
            key: *key,
            id,
            rows: [(0, 0); 2],
            top: [(0, 0); 2],
            best: 0,
            wild,
        };
        let (a, b) = (basis.row(0, id[0]), basis.row(2, id[2]));
        let byte = |r: Row, j: usize| -> u8 {
            if j < 8 {
                (r.0 >> (8 * j)) as u8
            } else {
                (r.1 >> (8 * (j - 8))) as u8
            }
        };
        let top = 2 * k + 1;
        let mut sums = [0u8; 10];
        let mut best = 0u8;
        for (j, s) in sums.iter_mut().enumerate().take(top + 1) {
            *s = byte(a, j) + byte(b, top - j);
            best = best.max(*s);
        }
        let (mut ta, mut tb) = (0u32, 0u32);
        for (j, &s) in sums.iter().enumerate().take(top + 1) {
            if s == best {
                ta |= 1 << j;
                tb |= 1 << (top - j);
            }
        }
        basis.rows = [a, b];
        basis.top = [slot_bits(ta), slot_bits(tb)];
        basis.best = best;
        basis
    }

    /// The product row holding group `g`, with group `g`'s id replaced by `id`.
    #[inline(always)]
    fn row(&self, g: usize, id: usize) -> Row {
        let (_, rows, mul, add) = self.group(g);
        rows.words(id * mul + add)
    }

    /// Group `g`'s id table, its product's rows, and the row of id `x` as `x * mul + add`.
    #[inline(always)]
    fn group(&self, g: usize) -> (&'static [u8], Rows, usize, usize) {
        let x = &self.id;
        let (ids, ns, nh, ss, sh) = if self.wild {
            let t = tables::wild();
            let ids = if g == 3 { t.honor_id } else { t.run_id[9] };
            (
                ids,
                t.run_vals[9].len(),
                t.honor_vals.len(),
                t.suit_suit,
                t.suit_honor,
            )
        } else {
            let t = tables::shanten();
            let ids = if g == 3 { t.honor_id } else { t.suit_id };
            (ids, t.suit_ids, t.honor_ids, t.suit_suit, t.suit_honor)
        };
        match g {
            0 => (ids, ss, ns, x[1]),
            1 => (ids, ss, 1, x[0] * ns),
            2 => (ids, sh, nh, x[3]),
            _ => (ids, sh, 1, x[2] * nh),
        }
    }

    /// Of the kinds in `kinds` (bits), those whose addition (`MORE`; counts below four)
    /// raises `best`, or whose removal (held kinds) keeps it.
    #[inline(always)]
    pub(super) fn scan<const MORE: bool>(&self, kinds: u64) -> u64 {
        let mut out = 0u64;
        for g in 0..4 {
            let base = 9 * g;
            let mut bits = (kinds >> base) as u32 & if g == 3 { 0x7F } else { 0x1FF };
            if bits == 0 {
                continue;
            }
            let (ids, rows, mul, add) = self.group(g);
            let (old, top) = (self.rows[g / 2], self.top[g / 2]);
            let key = self.key[g];
            let mut hits = 0u64;
            while bits != 0 {
                let r = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let k = if MORE { key + POW5[r] } else { key - POW5[r] };
                let new = rows.words(usize::from(ids[k]) * mul + add);
                let hit = if MORE {
                    new.0.wrapping_sub(old.0) & top.0 != 0 || new.1.wrapping_sub(old.1) & top.1 != 0
                } else {
                    !old.0.wrapping_sub(new.0) & top.0 != 0
                        || !old.1.wrapping_sub(new.1) & top.1 != 0
                };
                hits |= u64::from(hit) << r;
            }
            out |= hits << base;
        }
        out
    }
}

//! What the table builder (`build.rs`, through `generate.rs`) and the analysis at run time
//! share: the base-5 key powers and the packed `m(s, p)` arrays with their max-plus product.
//!
//! This file is compiled twice, into the build script and into the library, so it depends on
//! nothing but `core`.

/// Powers of five.
pub(crate) const POW5: [usize; 10] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125];

/// Unpacks the ten `m(s, p)` nibbles of an entry, indexed by `s * 2 + p`.
#[inline(always)]
pub(crate) fn unpack(x: u64) -> [u8; 10] {
    let mut out = [0u8; 10];
    for (i, o) in out.iter_mut().enumerate() {
        *o = ((x >> (4 * i)) & 0xF) as u8;
    }
    out
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

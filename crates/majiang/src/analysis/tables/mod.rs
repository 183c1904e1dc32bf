//! The lookup tables of the fast analysis, **computed at compile time** and embedded in the
//! library: nothing is built when a program starts, and a fresh process answers at once.
//!
//! The crate's build script (`build.rs`) runs [`generate.rs`](generate.rs)'s `write_tables`
//! once per build of the crate (about a second at `opt-level = 3`), writing ~11 MB of `.bin`
//! files into Cargo's `OUT_DIR`; this module embeds them with `include_bytes!` and reads them
//! through small typed views. Nothing generated is kept in the repository. The operating
//! system maps the tables in with the program and pages in only what a process touches, so
//! start-up costs nothing and one hand's analysis reads a few pages.
//!
//! Why not the alternatives: building the tables on first use (as before) cost ≈ 0.2 s per
//! process, which dominated every short `majiang analyze`; shipping them compressed would
//! still cost tens of milliseconds to inflate 11 MB; making them small enough to build at once
//! would need a denser key than the base-5 number, and so a slower lookup on the hot path.
//! The price is ~11 MB of read-only data in each binary that links the library.
//!
//! How the tables are built and what they hold is in `generate.rs`; [`shape`] holds what the
//! builder and the analysis share.

mod shape;

pub(crate) use shape::{POW5, merge, unpack};

/// Embeds one table file written by the build script.
macro_rules! table {
    ($name:expr) => {
        include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".bin")).as_slice()
    };
}

/// Embeds the ten files of a per-run-length table, lengths `0..=9`.
macro_rules! runs {
    ($name:expr) => {
        [
            table!(concat!($name, "_0")),
            table!(concat!($name, "_1")),
            table!(concat!($name, "_2")),
            table!(concat!($name, "_3")),
            table!(concat!($name, "_4")),
            table!(concat!($name, "_5")),
            table!(concat!($name, "_6")),
            table!(concat!($name, "_7")),
            table!(concat!($name, "_8")),
            table!(concat!($name, "_9")),
        ]
    };
}

/// A table of 16-bit words, stored little-endian.
#[derive(Clone, Copy)]
pub(crate) struct Words16(&'static [u8]);

impl Words16 {
    /// Word `i`.
    #[inline(always)]
    pub fn get(self, i: usize) -> u16 {
        u16::from_le_bytes([self.0[2 * i], self.0[2 * i + 1]])
    }
}

/// A table of packed `m(s, p)` arrays (64-bit words), stored little-endian.
#[derive(Clone, Copy)]
pub(crate) struct Words64(&'static [u8]);

impl Words64 {
    /// Word `i`.
    #[inline(always)]
    pub fn get(self, i: usize) -> u64 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&self.0[8 * i..8 * i + 8]);
        u64::from_le_bytes(b)
    }

    /// Number of words.
    pub fn len(self) -> usize {
        self.0.len() / 8
    }
}

/// A table of max-plus products, ten bytes (an unpacked `m(s, p)` array) a row.
#[derive(Clone, Copy)]
pub(crate) struct Rows(&'static [u8]);

impl Rows {
    /// Row `i`.
    #[inline(always)]
    pub fn row(self, i: usize) -> &'static [u8; 10] {
        self.0[10 * i..10 * i + 10]
            .try_into()
            .expect("a ten-byte slice")
    }

    /// Row `i` as two little-endian words: bytes 0–7 and bytes 8–9.
    #[inline(always)]
    pub fn words(self, i: usize) -> (u64, u16) {
        let r = self.row(i);
        let mut lo = [0u8; 8];
        lo.copy_from_slice(&r[..8]);
        (u64::from_le_bytes(lo), u16::from_le_bytes([r[8], r[9]]))
    }
}

/// Tables for play without wildcards: win bits and waits of suits and honours.
pub(crate) struct PlainTables {
    /// Suit win bits, one per key (bit `key % 8` of byte `key / 8`).
    pub suit_win: &'static [u8],
    /// Suit waits: bit `r` set when adding rank `r + 1` completes the suit (`r`-th count < 4).
    pub suit_waits: Words16,
    /// Honour win bits.
    pub honor_win: &'static [u8],
    /// Honour waits (seven kinds, a byte each).
    pub honor_waits: &'static [u8],
}

/// Tables for shanten without wildcards (capped shapes).
///
/// Only 126 different `m(s, p)` arrays occur over all suit keys and 55 over honour keys, so
/// each key maps to a one-byte id, and the max-plus products of two suits and of a suit with the
/// honours are tabulated per pair of ids.
pub(crate) struct ShantenTables {
    /// Id of each suit key's array.
    pub suit_id: &'static [u8],
    /// Id of each honour key's array.
    pub honor_id: &'static [u8],
    /// Number of suit ids.
    pub suit_ids: usize,
    /// Number of honour ids.
    pub honor_ids: usize,
    /// `suit_suit.row(a * suit_ids + b)`: the product of suit arrays `a` and `b`.
    pub suit_suit: Rows,
    /// `suit_honor.row(a * honor_ids + h)`: the product of suit array `a` and honour array `h`.
    pub suit_honor: Rows,
}

/// Tables for wildcards (uncapped shapes), for every run length `0..=9` with chows, and the
/// honours.
pub(crate) struct WildTables {
    /// `run_id[len]`: id of the `m(s, p)` array of each key of a run of `len` number kinds.
    pub run_id: [&'static [u8]; 10],
    /// `run_vals[len]`: packed `m(s, p)` per id.
    pub run_vals: [Words64; 10],
    /// `run_wilds[len]`: fewest wildcards completing the run without (low nibble) and with (high
    /// nibble) the pair, saturated at 15.
    pub run_wilds: [&'static [u8]; 10],
    /// Id of each honour key's array.
    pub honor_id: &'static [u8],
    /// Packed `m(s, p)` per honour id.
    pub honor_vals: Words64,
    /// Fewest wildcards completing the honours.
    pub honor_wilds: &'static [u8],
    /// `suit_suit.row(a * run_vals[9].len() + b)`: the product of full-suit arrays `a` and `b`.
    pub suit_suit: Rows,
    /// `suit_honor.row(a * honor_vals.len() + h)`: the product of suit array `a` and honour
    /// array `h`.
    pub suit_honor: Rows,
}

static PLAIN: PlainTables = PlainTables {
    suit_win: table!("suit_win"),
    suit_waits: Words16(table!("suit_waits")),
    honor_win: table!("honor_win"),
    honor_waits: table!("honor_waits"),
};

static SHANTEN: ShantenTables = ShantenTables {
    suit_id: table!("shanten_suit_id"),
    honor_id: table!("shanten_honor_id"),
    suit_ids: table!("shanten_suit_vals").len() / 8,
    honor_ids: table!("shanten_honor_vals").len() / 8,
    suit_suit: Rows(table!("shanten_suit_suit")),
    suit_honor: Rows(table!("shanten_suit_honor")),
};

static WILD: WildTables = {
    let vals = runs!("wild_run_vals");
    WildTables {
        run_id: runs!("wild_run_id"),
        run_vals: [
            Words64(vals[0]),
            Words64(vals[1]),
            Words64(vals[2]),
            Words64(vals[3]),
            Words64(vals[4]),
            Words64(vals[5]),
            Words64(vals[6]),
            Words64(vals[7]),
            Words64(vals[8]),
            Words64(vals[9]),
        ],
        run_wilds: runs!("wild_run_wilds"),
        honor_id: table!("wild_honor_id"),
        honor_vals: Words64(table!("wild_honor_vals")),
        honor_wilds: table!("wild_honor_wilds"),
        suit_suit: Rows(table!("wild_suit_suit")),
        suit_honor: Rows(table!("wild_suit_honor")),
    }
};

/// The tables for play without wildcards.
#[inline(always)]
pub(crate) fn plain() -> &'static PlainTables {
    &PLAIN
}

/// The shanten tables without wildcards.
#[inline(always)]
pub(crate) fn shanten() -> &'static ShantenTables {
    &SHANTEN
}

/// The wildcard tables.
#[inline(always)]
pub(crate) fn wild() -> &'static WildTables {
    &WILD
}

//! # majiang
//!
//! A fast, deterministic engine for the regional Chinese mahjong rule sets: Hangzhou,
//! Yangzhou, Hong Kong and classic Chinese.
//!
//! - [`tile`], [`notation`], [`counts`], [`meld`], [`seat`], [`extra_winds`], [`config`]: the
//!   vocabulary: tiles and their notation (`123m456p789s1234567z`, `1f`–`8f`, Unicode glyphs),
//!   count arrays, declared melds, seats and players, the extra-wind tiles, and the plain facts
//!   a rule set fixes (the table's configuration and the match rules).
//! - [`analysis`]: win detection with wildcards, waits, shanten and decompositions.
//! - [`scoring`] and [`rules`]: the situation of a win, and one scoring module per rule set.
//! - [`table`]: the table engine: wall, deal, calls, turns and events, for every rule set.
//! - [`bots`]: players for the table (random, efficient) and a driver that plays a hand.
//!
//! The library does no I/O; the `majiang` command line and the server live in their own crates.
//!
//! ```
//! use majiang::{TileCounts, analysis};
//! let hand = TileCounts::parse("123m456p789s11122z").unwrap();
//! assert!(analysis::is_win(&hand, &analysis::HandRules::ALL_FORMS));
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod analysis;
pub mod bots;
pub mod config;
pub mod counts;
pub mod driver;
pub mod extra_winds;
pub mod meld;
pub mod notation;
pub mod review;
pub mod rules;
pub mod scoring;
pub mod seat;
pub mod seeds;
pub mod table;
pub mod tile;
pub mod typed_hand;
pub mod words;

pub use counts::TileCounts;
pub use meld::{Meld, MeldKind};
pub use notation::{NotationError, parse_tile, parse_tiles};
pub use seat::{Player, Seat};
pub use tile::{Suit, Tile, Wind};

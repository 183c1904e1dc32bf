//! Hangzhou mahjong scoring and settlement (seed 000; `docs/rules/hangzhou.md`).
//!
//! A hand's total is a product of multipliers ([`PATTERNS`]): the base score, seven pairs and
//! its bonuses, Bao Tou, Fortune Gambits, Kong Blossom (and their combined forms Gang Bao and Gang
//! Piao), and the dealer's multiplier by lao. [`Scored::total`] is what one ordinary payer owes
//! (before the cap and the zero floor); [`settle`] decides who pays it.
//!
//! ```
//! use majiang::rules::hangzhou::{self, Options};
//! use majiang::scoring::request::ScoreRequest;
//! // East (dealer, 2 lao) self-draws with 123m456p789s11z + a wildcard: Bao Tou.
//! let req = ScoreRequest::from_json(r#"{"rules": "hangzhou", "concealed": "123m456p789s111z5z",
//!     "winning_tile": "9m", "win": "self_draw", "seat": "east", "dealer": "east", "lao": 2}"#)
//!     .unwrap();
//! let scored = hangzhou::score(&req.situation, &Options::default()).unwrap();
//! assert_eq!(scored.total, 8); // 1 × Bao Tou 2 × dealer at 2 lao 4
//! assert_eq!(scored.payments[&majiang::Seat::East], 24);
//! ```

pub mod eligibility;
pub mod options;
pub mod patterns;
pub mod settle;
pub mod spec;

pub use options::{MatchEnd, OPTIONS, Options, WildcardMode};
pub use patterns::PATTERNS;

use crate::scoring::{Explain, Invalid, Scored, WinSituation};
use crate::tile::Tile;

fn wild_kind(situation: &WinSituation, options: &Options) -> Result<Tile, Invalid> {
    options.wild_kind(situation.wildcard).ok_or_else(|| {
        Invalid(
            "wildcard = \"indicator\": the request must name the wild kind in its \"wildcard\" \
             field"
                .into(),
        )
    })
}

/// Scores and settles a win, its payments itemised with their reasons. `Err` when the hand does
/// not win, or the rules forbid the win.
pub fn score(situation: &WinSituation, options: &Options) -> Result<Scored, Invalid> {
    score_with(situation, options, Explain::Itemise)
}

/// Scores and settles a win, itemising the payments or not as `explain` says.
pub fn score_with(
    situation: &WinSituation,
    options: &Options,
    explain: Explain,
) -> Result<Scored, Invalid> {
    let wild = wild_kind(situation, options)?;
    if options.wildcard == WildcardMode::Indicator {
        eligibility::check_indicator_copies(situation, wild)?;
    }
    eligibility::check_shape(situation, wild)?;
    eligibility::check_win(situation, wild)?;
    let patterns = patterns::multipliers(situation, options.base, wild)?;
    let total = patterns::product(&patterns);
    Ok(Scored::settled(
        patterns,
        total,
        settle::settle(situation, total, options.cap, explain),
    ))
}

#[cfg(test)]
mod tests;

//! Hong Kong scoring and settlement (seeds 002 and 004; `docs/rules/hongkong.md`).
//!
//! Only seed 004's rows score (see [`PATTERNS`]); they add up, One suit only replacing One suit
//! and honors. A special hand scores the limit: its patterns are reported with the limit as
//! value, and the ordinary rows are not listed. Fan convert to points by the seed's table
//! ([`points`]); the discarder pays double, on a self-draw everyone pays double.
//!
//! ```
//! use majiang::rules::hongkong::{Options, score};
//! use majiang::scoring::request::ScoreRequest;
//! // Seed 002's example: all pungs 3 + two dragon pungs 1 each = 5 fan (+ no flowers 1).
//! let req = ScoreRequest::from_json(r#"{"rules": "hongkong", "concealed": "111m999p555z66z22z",
//!     "winning_tile": "6z", "win": "discard", "discarder": "south", "seat": "west"}"#).unwrap();
//! let scored = score(&req.situation, &Options::default()).unwrap();
//! assert_eq!(scored.total, 6);
//! ```
//!
//! Decisions where the seeds are silent (recorded in `docs/rules/hongkong.md`):
//! - `total` is the sum of the listed rows (payments stop growing at the limit); a special
//!   hand's total is the limit.
//! - Of several readings of a hand, the one with the most fan counts (a special hand beats
//!   every ordinary reading).
//! - Circumstances must fit the win: last wall tile and supplement tile need a self-draw, last
//!   discard a discard, Heavenly the dealer's self-draw, Earthly a non-dealer's win on the
//!   dealer's discard; neither with an exposed meld. Otherwise the win is `Invalid`.

mod hand;
mod options;
mod patterns;
mod settle;
pub mod spec;

pub use options::{OPTIONS, Options};
pub use patterns::{DEFAULT_LIMIT, PATTERNS, pattern};
pub use settle::points;

use crate::scoring::{Explain, Invalid, PatternDef, PatternScore, Scored, WinKind, WinSituation};
use patterns::Context;

/// The best reading's pattern rows (each with its fan) and the fan paid for.
struct Best {
    rows: Vec<(&'static PatternDef, u32)>,
    fan: u32,
    /// A special hand (not merely an ordinary hand at the limit).
    special: bool,
}

fn score_of(def: &PatternDef, fan: u32) -> PatternScore {
    def.score(i64::from(fan))
}

/// Checks that the circumstances fit the kind of win.
fn check_situation(s: &WinSituation) -> Result<(), Invalid> {
    let c = &s.circumstances;
    let self_draw = s.win == WinKind::SelfDraw;
    let exposed = s.melds.iter().any(|m| m.is_exposed());
    if c.last_wall_tile && !self_draw {
        return Err(Invalid::from(
            &crate::scoring::invalid::LAST_TILE_SELF_DRAWN,
        ));
    }
    if c.kong_replacement && !self_draw {
        return Err(Invalid::from(
            &crate::scoring::invalid::SUPPLEMENT_SELF_DRAWN,
        ));
    }
    if c.last_discard && s.win != WinKind::Discard {
        return Err(Invalid::from(&crate::scoring::invalid::LAST_DISCARD));
    }
    if c.heavenly && (s.seat != s.dealer || !self_draw || exposed) {
        return Err(Invalid::from(&crate::scoring::invalid::HEAVENLY));
    }
    if c.earthly && (s.seat == s.dealer || s.discarder != Some(s.dealer) || exposed) {
        return Err(Invalid::from(&crate::scoring::invalid::EARTHLY));
    }
    Ok(())
}

/// Scores a win: the patterns of its best reading, its fan, and the chips each seat pays.
/// `Invalid` for a hand that does not win, a situation that cannot happen, or fewer fan than
/// `min_fan` (a hand at the limit always reaches it). The payments are itemised with their
/// reasons.
pub fn score(situation: &WinSituation, options: &Options) -> Result<Scored, Invalid> {
    score_with(situation, options, Explain::Itemise)
}

/// Scores a win as [`score`] does, itemising the payments or not as `explain` says.
pub fn score_with(
    situation: &WinSituation,
    options: &Options,
    explain: Explain,
) -> Result<Scored, Invalid> {
    let seat_wind = situation
        .seat
        .wind()
        .ok_or_else(|| Invalid::text(format!("{} is not a Hong Kong seat", situation.seat)))?;
    if situation.seats.len() != 4 {
        return Err(Invalid::from(&crate::scoring::invalid::PLAYED_BY_FOUR));
    }
    situation.check_playing_tiles()?;
    situation.check_meld_sources()?;
    situation.check_chow_sources()?;
    check_situation(situation)?;
    let ctx = Context {
        situation,
        options,
        seat_wind,
    };
    let mut best: Option<Best> = None;
    for h in hand::readings(situation, options)? {
        let limits = patterns::limits(&h, &ctx);
        let candidate = if limits.is_empty() {
            let rows = patterns::ordinary(&h, &ctx);
            let sum: u32 = rows.iter().map(|(_, f)| f).sum();
            Best {
                rows,
                fan: sum,
                special: false,
            }
        } else {
            Best {
                rows: limits.iter().map(|&d| (d, options.limit)).collect(),
                fan: options.limit,
                special: true,
            }
        };
        let better = match &best {
            None => true,
            Some(b) => {
                let paid = |x: &Best| x.fan.min(options.limit);
                (
                    paid(&candidate),
                    candidate.special,
                    candidate.fan,
                    candidate.rows.len(),
                ) > (paid(b), b.special, b.fan, b.rows.len())
            }
        };
        if better {
            best = Some(candidate);
        }
    }
    let best = best.ok_or_else(|| Invalid::from(&crate::scoring::invalid::NOT_A_WINNING_HAND))?;
    let needed = options.min_fan.min(options.limit);
    if best.fan < needed {
        return Err(Invalid(
            crate::scoring::invalid::BELOW_MINIMUM.with([best.fan.into(), options.min_fan.into()]),
        ));
    }
    let fan = best.fan.min(options.limit);
    let pts = points(fan, options.limit);
    Ok(Scored::settled(
        best.rows.iter().map(|&(d, f)| score_of(d, f)).collect(),
        i64::from(best.fan),
        // The reasons name the hand's fan (the total shown), the points capped at the limit.
        settle::settle(situation, best.fan, pts, explain),
    ))
}

#[cfg(test)]
mod tests;

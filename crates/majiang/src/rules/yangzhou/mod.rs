//! Yangzhou scoring and settlement (seed 001, `docs/rules/yangzhou.md`).
//!
//! A win is four sets and a pair (no seven pairs) worth at least `min_fan` (15) fan. Fan is
//! the sum of the seed's 27 rows ([`PATTERNS`]) that the hand meets, with the exclusions of
//! `docs/rules/yangzhou.md`, taking the reading (split into sets, and place of the winning tile) worth most.
//! Self-draw: each of the three others pays the total; discard: the discarder pays twice the
//! total; Pao Pai moves the whole payment onto the feeder of a flush or honors hand's third
//! exposed meld. See `docs/rules/yangzhou.md`.
//!
//! ```
//! use majiang::rules::yangzhou::{self, Options};
//! use majiang::scoring::request::ScoreRequest;
//! // 123m 456m 789m 567p, pair 55s won on a single wait, self-drawn by South:
//! // Pure Straight 15 + No Melds 1 + Sequence Hand 1 + Continuous Sequences 1
//! // + Elder-Younger Sequence 1 + Single Wait 1 = 20 fan; each other seat pays 20.
//! let req = ScoreRequest::from_json(r#"{"rules": "yangzhou", "concealed": "123456789m567p5s",
//!     "winning_tile": "5s", "win": "self_draw", "seat": "south"}"#).unwrap();
//! let scored = yangzhou::score(&req.situation, &Options::default()).unwrap();
//! assert!(scored.patterns.iter().any(|p| p.id == "yi_tiao_long"));
//! assert_eq!(scored.total, 20);
//! assert_eq!(scored.payments[&majiang::Seat::South], 60);
//! ```

mod options;
pub mod patterns;
pub mod reading;
pub mod settle;
pub mod spec;

pub use options::{OPTIONS, Options};
pub use patterns::PATTERNS;

use crate::meld::MeldKind;
use crate::scoring::{Explain, Invalid, PatternDef, Scored, WinKind, WinSituation};
use patterns::{fan_of, total};
use reading::{Reading, readings};

/// Scores a win under the Yangzhou rules: the best reading's rows, its fan total, and the
/// payments of every seat. Not four sets and a pair, below `min_fan`, or an impossible
/// situation (flowers, a wrong number of tiles, a meld claimed from oneself, a chow claimed from
/// anyone but the left neighbour, or any claimed chow while the `chow` option is off) is
/// [`Invalid`]. The payments are itemised with their reasons.
pub fn score(situation: &WinSituation, options: &Options) -> Result<Scored, Invalid> {
    score_with(situation, options, Explain::Itemise)
}

/// Scores a win as [`score`] does, itemising the payments or not as `explain` says.
pub fn score_with(
    situation: &WinSituation,
    options: &Options,
    explain: Explain,
) -> Result<Scored, Invalid> {
    check(situation)?;
    if !options.chow {
        if let Some(m) = situation.melds.iter().find(|m| m.kind == MeldKind::Chow) {
            return Err(Invalid(
                crate::scoring::invalid::NO_CHOWS.with([crate::scoring::invalid::meld(m)]),
            ));
        }
    }
    let best = best_reading(situation)
        .ok_or_else(|| Invalid::from(&crate::scoring::invalid::NOT_SETS_YANGZHOU))?;
    let (reading, met, fan) = best;
    if fan < i64::from(options.min_fan) {
        return Err(Invalid(
            crate::scoring::invalid::BELOW_MINIMUM.with([fan.into(), options.min_fan.into()]),
        ));
    }
    let ledger = settle::settle(situation, &reading, fan, explain)?;
    let patterns = met
        .iter()
        .map(|(p, n)| p.score(p.value * i64::from(*n)))
        .collect();
    Ok(Scored::settled(patterns, fan, ledger))
}

type Best = (Reading, Vec<(&'static PatternDef, u32)>, i64);

/// The reading worth most; on a tie, the first in the order of
/// [`analysis::decompositions`](crate::analysis::decompositions).
fn best_reading(situation: &WinSituation) -> Option<Best> {
    let mut best: Option<Best> = None;
    for r in readings(situation) {
        let met = fan_of(&r);
        let fan = total(&met);
        if best.as_ref().is_none_or(|b| fan > b.2) {
            best = Some((r, met, fan));
        }
    }
    best
}

/// What makes a situation impossible under these rules, before any reading.
fn check(s: &WinSituation) -> Result<(), Invalid> {
    if s.seats.len() != 4 {
        return Err(Invalid::from(&crate::scoring::invalid::PLAYED_BY_FOUR));
    }
    if !s.flowers.is_empty() {
        return Err(Invalid::from(&crate::scoring::invalid::FLOWERS_NOT_IN_PLAY));
    }
    if s.melds.len() > 4 {
        return Err(Invalid::from(&crate::scoring::invalid::FOUR_MELDS));
    }
    let want = 14 - 3 * s.melds.len();
    let have = s.full_concealed().len();
    if have != want {
        return Err(Invalid(crate::scoring::invalid::TILE_COUNT.with([
            s.melds.len().into(),
            want.into(),
            have.into(),
        ])));
    }
    if let Some(m) = s
        .melds
        .iter()
        .find(|m| m.kind == MeldKind::ConcealedKong && m.from.is_some())
    {
        return Err(Invalid(
            crate::scoring::invalid::CONCEALED_KONG_CLAIMED
                .with([crate::scoring::invalid::meld(m)]),
        ));
    }
    s.check_playing_tiles()?;
    s.check_meld_sources()?;
    s.check_chow_sources()?;
    if matches!(s.win, WinKind::Discard | WinKind::RobbingKong) && s.discarder.is_none() {
        return Err(Invalid::from(&crate::scoring::invalid::NEEDS_DISCARDER));
    }
    Ok(())
}

#[cfg(test)]
mod tests;

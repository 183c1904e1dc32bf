//! Who pays whom (`docs/rules/yangzhou.md`): self-draw, discard, and Pao Pai.

use super::reading::Reading;
use crate::scoring::reason::{ReasonDef, SELF_DRAW_TOTAL};
use crate::scoring::{Explain, Invalid, Ledger, WinKind, WinSituation};
use crate::seat::Seat;

/// Pao Pai (包牌): the feeder of the third exposed meld pays for everyone.
pub static PAO_PAI: ReasonDef = ReasonDef {
    key: "yangzhou.pao_pai",
    args: &["times", "total", "amount"],
    english: "Pao Pai: fed the third exposed meld, pays for all, {times} × {total} = {amount}",
};

/// A discard: the discarder pays double the total.
pub static DISCARDER_PAYS_DOUBLE: ReasonDef = ReasonDef {
    key: "yangzhou.discarder_double",
    args: &["total", "amount"],
    english: "discard: the discarder pays double, 2 × {total} = {amount}",
};

/// The rules Yangzhou pays by (a self-draw's each loser paying the total is shared).
pub static REASONS: &[&ReasonDef] = &[&PAO_PAI, &DISCARDER_PAYS_DOUBLE, &SELF_DRAW_TOTAL];

/// The seat that pays everything under Pao Pai, if any: for a hand of one number suit (Full
/// Flush, Pure All Triplets, Pure Dragon) or of honors only (All Honors), the `from` of the
/// winner's third exposed meld, counting exposed melds in the order given (the order declared).
/// Concealed kongs are not exposed. No Pao Pai when the hand has fewer than three exposed melds
/// or the third one's source is not given.
pub fn pao_pai_feeder(situation: &WinSituation, reading: &Reading) -> Option<Seat> {
    if !(reading.is_one_suit() || reading.is_all_honors()) {
        return None;
    }
    situation
        .melds
        .iter()
        .filter(|m| m.is_exposed())
        .nth(2)
        .and_then(|m| m.from)
        .filter(|&s| s != situation.seat)
}

/// The payments of a win worth `total` fan. Self-draw: each other seat pays `total`. Discard
/// (and robbing a kong, settled as a discard by the kong's owner): the discarder pays
/// `2 × total`. Pao Pai: the feeder pays everything the winner receives and the others nothing.
/// `explain` says whether the ledger itemises the payments with their reasons.
pub fn settle(
    situation: &WinSituation,
    reading: &Reading,
    total: i64,
    explain: Explain,
) -> Result<Ledger, Invalid> {
    let losers = situation.losers().count() as i64;
    let by_discard = matches!(situation.win, WinKind::Discard | WinKind::RobbingKong);
    let received = if by_discard {
        2 * total
    } else {
        total * losers
    };
    let mut ledger = Ledger::new(&situation.seats, explain);
    let check = |seat: Seat| {
        if seat == situation.seat || !situation.seats.contains(&seat) {
            return Err(Invalid::text(format!(
                "{} cannot pay the winner: not another player at the table",
                seat.name()
            )));
        }
        Ok(seat)
    };
    match pao_pai_feeder(situation, reading) {
        Some(feeder) => {
            let times = if by_discard { 2 } else { losers };
            ledger.pay(check(feeder)?, situation.seat, received, || {
                PAO_PAI.of(&[times, total, received])
            });
        }
        None if by_discard => {
            let d = situation
                .discarder
                .ok_or_else(|| Invalid::from(&crate::scoring::invalid::NEEDS_DISCARDER))?;
            ledger.pay(check(d)?, situation.seat, received, || {
                DISCARDER_PAYS_DOUBLE.of(&[total, received])
            });
        }
        None => {
            for s in situation.losers() {
                ledger.pay(check(s)?, situation.seat, total, || {
                    SELF_DRAW_TOTAL.of(&[total])
                });
            }
        }
    }
    Ok(ledger)
}

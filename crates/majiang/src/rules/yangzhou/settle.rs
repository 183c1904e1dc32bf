//! Who pays whom (`docs/rules/yangzhou.md`): self-draw, discard, and Pao Pai.

use super::reading::Reading;
use crate::scoring::{Invalid, Ledger, WinKind, WinSituation};
use crate::seat::Seat;

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
pub fn settle(situation: &WinSituation, reading: &Reading, total: i64) -> Result<Ledger, Invalid> {
    let losers: Vec<Seat> = situation.losers().collect();
    let by_discard = matches!(situation.win, WinKind::Discard | WinKind::RobbingKong);
    let received = if by_discard {
        2 * total
    } else {
        total * losers.len() as i64
    };
    let payers: Vec<(Seat, i64, String)> = match pao_pai_feeder(situation, reading) {
        Some(feeder) => {
            let how = if by_discard {
                format!("2 × {total}")
            } else {
                format!("{} × {total}", losers.len())
            };
            vec![(
                feeder,
                received,
                format!("Pao Pai: fed the third exposed meld, pays for all, {how} = {received}"),
            )]
        }
        None if by_discard => {
            let d = situation
                .discarder
                .ok_or_else(|| Invalid("a win on a discard needs the discarder".into()))?;
            vec![(
                d,
                received,
                format!("discard: the discarder pays double, 2 × {total} = {received}"),
            )]
        }
        None => losers
            .iter()
            .map(|&s| (s, total, format!("self-draw: pays the total, {total}")))
            .collect(),
    };
    let mut ledger = Ledger::new(&situation.seats);
    for (seat, amount, reason) in payers {
        if seat == situation.seat || !situation.seats.contains(&seat) {
            return Err(Invalid(format!(
                "{} cannot pay the winner: not another player at the table",
                seat.name()
            )));
        }
        ledger.pay(seat, situation.seat, amount, reason);
    }
    Ok(ledger)
}

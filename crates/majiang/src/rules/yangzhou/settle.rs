//! Who pays whom (RULES.md §3): self-draw, discard, and Pao Pai.

use super::reading::Reading;
use crate::scoring::{Invalid, WinKind, WinSituation};
use crate::seat::Seat;
use std::collections::BTreeMap;

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

/// Net chips per seat for a win worth `total` fan. Self-draw: each other seat pays `total`.
/// Discard (and robbing a kong, settled as a discard by the kong's owner): the discarder pays
/// `2 × total`. Pao Pai: the feeder pays everything the winner receives and the others nothing.
pub fn payments(
    situation: &WinSituation,
    reading: &Reading,
    total: i64,
) -> Result<BTreeMap<Seat, i64>, Invalid> {
    let mut pay: BTreeMap<Seat, i64> = situation.seats.iter().map(|&s| (s, 0)).collect();
    let losers: Vec<Seat> = situation.losers().collect();
    let by_discard = matches!(situation.win, WinKind::Discard | WinKind::RobbingKong);
    let received = if by_discard {
        2 * total
    } else {
        total * losers.len() as i64
    };
    let payers: Vec<(Seat, i64)> = match pao_pai_feeder(situation, reading) {
        Some(feeder) => vec![(feeder, received)],
        None if by_discard => {
            let d = situation
                .discarder
                .ok_or_else(|| Invalid("a win on a discard needs the discarder".into()))?;
            vec![(d, received)]
        }
        None => losers.iter().map(|&s| (s, total)).collect(),
    };
    for (seat, amount) in payers {
        if seat == situation.seat || !pay.contains_key(&seat) {
            return Err(Invalid(format!(
                "{} cannot pay the winner: not another player at the table",
                seat.name()
            )));
        }
        *pay.entry(seat).or_insert(0) -= amount;
        *pay.entry(situation.seat).or_insert(0) += amount;
    }
    Ok(pay)
}

//! Settlement: the winner collects their score from every loser; losers pay each other the
//! difference of their scores; the dealer ("East") pays and receives double in every exchange.

use crate::scoring::ledger::SEAT_KINDS;
use crate::scoring::reason::ReasonDef;
use crate::scoring::{Explain, Ledger};
use crate::seat::Seat;
use std::collections::BTreeMap;

/// A loser pays the winner's score.
pub static WINNER_SCORE: ReasonDef = ReasonDef {
    key: "classic.winner_score",
    args: &["score"],
    english: "pays the winner's score, {score}",
};

/// A loser pays the winner's score, doubled because the dealer is one of the two.
pub static WINNER_SCORE_DOUBLED: ReasonDef = ReasonDef {
    key: "classic.winner_score_doubled",
    args: &["score", "amount"],
    english: "pays the winner's score, the dealer pays and receives double, 2 × {score} = \
              {amount}",
};

/// The loser with the lower score pays the other the difference of their scores.
pub static SCORE_DIFFERENCE: ReasonDef = ReasonDef {
    key: "classic.difference",
    args: &["high", "low", "diff"],
    english: "pays the difference of the scores, {high} − {low}: {diff}",
};

/// The difference of two losers' scores, doubled because one of them is the dealer.
pub static SCORE_DIFFERENCE_DOUBLED: ReasonDef = ReasonDef {
    key: "classic.difference_doubled",
    args: &["high", "low", "diff", "amount"],
    english: "pays the difference of the scores, {high} − {low}: the dealer pays and receives \
              double, 2 × {diff} = {amount}",
};

/// The rules the classic game pays by.
pub static REASONS: &[&ReasonDef] = &[
    &WINNER_SCORE,
    &WINNER_SCORE_DOUBLED,
    &SCORE_DIFFERENCE,
    &SCORE_DIFFERENCE_DOUBLED,
];

/// The payments of a hand, given every seat's score (seats missing from `scores` score 0); its
/// [`Ledger::net`] is the net chips per seat. `explain` says whether the ledger itemises the
/// payments with their reasons.
///
/// ```
/// use majiang::Seat;
/// use majiang::rules::classic::settle;
/// use majiang::scoring::Explain;
/// use std::collections::BTreeMap;
/// // The seed's example: South wins with 24; West 6, North 36, East 16.
/// let scores = BTreeMap::from([(Seat::South, 24), (Seat::West, 6), (Seat::North, 36),
///     (Seat::East, 16)]);
/// let net = settle(&Seat::FOUR, Seat::South, Seat::East, &scores, Explain::Quiet).net();
/// assert_eq!(net[&Seat::South], 24 + 24 + 48);
/// assert_eq!(net[&Seat::West], -24 - 30 - 20);
/// assert_eq!(net[&Seat::North], -24 + 30 + 40);
/// assert_eq!(net[&Seat::East], -48 - 40 + 20);
/// ```
pub fn settle(
    seats: &[Seat],
    winner: Seat,
    dealer: Seat,
    scores: &BTreeMap<Seat, i64>,
    explain: Explain,
) -> Ledger {
    // Every seat's score by seat index: settling looks each up several times.
    let mut by_seat = [0; SEAT_KINDS];
    for (&seat, &score) in scores {
        by_seat[seat as usize] = score;
    }
    let score = |s: Seat| by_seat[s as usize];
    let doubled = |a: Seat, b: Seat| a == dealer || b == dealer;
    let mut ledger = Ledger::new(seats, explain);
    let won = score(winner);
    for l in seats.iter().copied().filter(|&s| s != winner) {
        let double = doubled(l, winner);
        let amount = if double { 2 * won } else { won };
        ledger.pay(l, winner, amount, || {
            if double {
                WINNER_SCORE_DOUBLED.of(&[won, amount])
            } else {
                WINNER_SCORE.of(&[won])
            }
        });
    }
    for (i, &a) in seats.iter().enumerate().filter(|&(_, &s)| s != winner) {
        for &b in seats[i + 1..].iter().filter(|&&s| s != winner) {
            let (high, low) = if score(a) >= score(b) { (a, b) } else { (b, a) };
            let diff = score(high) - score(low);
            let double = doubled(a, b);
            let amount = if double { 2 * diff } else { diff };
            ledger.pay(low, high, amount, || {
                let (high, low) = (score(high), score(low));
                if double {
                    SCORE_DIFFERENCE_DOUBLED.of(&[high, low, diff, amount])
                } else {
                    SCORE_DIFFERENCE.of(&[high, low, diff])
                }
            });
        }
    }
    ledger
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dealer_winner_collects_double() {
        let scores = BTreeMap::from([(Seat::East, 30), (Seat::South, 10)]);
        let net = settle(
            &Seat::FOUR,
            Seat::East,
            Seat::East,
            &scores,
            Explain::Itemise,
        )
        .net();
        // Each pays East 60; South (10) collects 10 from West and North (0).
        assert_eq!(net[&Seat::East], 180);
        assert_eq!(net[&Seat::South], -60 + 20);
        assert_eq!(net[&Seat::West], -70);
        assert_eq!(net[&Seat::North], -70);
        assert_eq!(net.values().sum::<i64>(), 0);
    }

    #[test]
    fn every_payment_says_why() {
        let scores = BTreeMap::from([(Seat::South, 24), (Seat::West, 6), (Seat::East, 16)]);
        let ledger = settle(
            &Seat::FOUR,
            Seat::South,
            Seat::East,
            &scores,
            Explain::Itemise,
        );
        let shown: Vec<String> = ledger.payments().iter().map(ToString::to_string).collect();
        assert!(shown.contains(&"west pays south 24: pays the winner's score, 24".to_string()));
        assert!(shown.contains(
            &"east pays south 48: pays the winner's score, the dealer pays and receives double, \
              2 × 24 = 48"
                .to_string()
        ));
        assert!(shown.contains(
            &"west pays east 20: pays the difference of the scores, 16 − 6: the dealer pays and \
              receives double, 2 × 10 = 20"
                .to_string()
        ));
    }

    #[test]
    fn equal_losers_exchange_nothing() {
        let scores = BTreeMap::from([(Seat::West, 10), (Seat::South, 8), (Seat::North, 8)]);
        let net = settle(
            &Seat::FOUR,
            Seat::West,
            Seat::East,
            &scores,
            Explain::Itemise,
        )
        .net();
        // South and North: 10 to West, 8 × 2 from East, nothing between them.
        assert_eq!(net[&Seat::South], -10 + 16);
        assert_eq!(net[&Seat::North], -10 + 16);
        assert_eq!(net[&Seat::East], -20 - 32);
        assert_eq!(net[&Seat::West], 40);
    }

    #[test]
    fn three_player_table() {
        let scores = BTreeMap::from([(Seat::North, 8), (Seat::South, 8), (Seat::East, 22)]);
        let seats = Seat::order(3).unwrap_or(&[]);
        let net = settle(seats, Seat::North, Seat::East, &scores, Explain::Itemise).net();
        // North wins; South pays 8, East pays 16.
        assert_eq!(net[&Seat::North], 8 + 16);
        // East 22 vs South 8: South pays East 14 × 2.
        assert_eq!(net[&Seat::South], -8 - 28);
        assert_eq!(net[&Seat::East], -16 + 28);
        assert!(!net.contains_key(&Seat::West));
    }

    #[test]
    fn dealer_need_not_be_the_east_seat() {
        let scores = BTreeMap::from([(Seat::West, 10)]);
        let net = settle(
            &Seat::FOUR,
            Seat::West,
            Seat::North,
            &scores,
            Explain::Itemise,
        )
        .net();
        assert_eq!(net[&Seat::North], -20);
        assert_eq!(net[&Seat::East], -10);
        assert_eq!(net[&Seat::West], 40);
    }
}

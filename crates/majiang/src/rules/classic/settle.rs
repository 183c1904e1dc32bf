//! Settlement: the winner collects their score from every loser; losers pay each other the
//! difference of their scores; the dealer ("East") pays and receives double in every exchange.

use crate::scoring::Ledger;
use crate::seat::Seat;
use std::collections::BTreeMap;

/// The payments of a hand, given every seat's score (seats missing from `scores` score 0); its
/// [`Ledger::net`] is the net chips per seat.
///
/// ```
/// use majiang::Seat;
/// use majiang::rules::classic::settle;
/// use std::collections::BTreeMap;
/// // The seed's example: South wins with 24; West 6, North 36, East 16.
/// let scores = BTreeMap::from([(Seat::South, 24), (Seat::West, 6), (Seat::North, 36),
///     (Seat::East, 16)]);
/// let net = settle(&Seat::FOUR, Seat::South, Seat::East, &scores).net();
/// assert_eq!(net[&Seat::South], 24 + 24 + 48);
/// assert_eq!(net[&Seat::West], -24 - 30 - 20);
/// assert_eq!(net[&Seat::North], -24 + 30 + 40);
/// assert_eq!(net[&Seat::East], -48 - 40 + 20);
/// ```
pub fn settle(seats: &[Seat], winner: Seat, dealer: Seat, scores: &BTreeMap<Seat, i64>) -> Ledger {
    let score = |s: Seat| scores.get(&s).copied().unwrap_or(0);
    let factor = |a: Seat, b: Seat| if a == dealer || b == dealer { 2 } else { 1 };
    let times = |a: Seat, b: Seat, n: i64| {
        if factor(a, b) == 2 {
            format!("the dealer pays and receives double, 2 × {n} = {}", 2 * n)
        } else {
            n.to_string()
        }
    };
    let mut ledger = Ledger::new(seats);
    let losers: Vec<Seat> = seats.iter().copied().filter(|&s| s != winner).collect();
    let won = score(winner);
    for &l in &losers {
        let reason = format!("pays the winner's score, {}", times(l, winner, won));
        ledger.pay(l, winner, won * factor(l, winner), reason);
    }
    for (i, &a) in losers.iter().enumerate() {
        for &b in &losers[i + 1..] {
            let (high, low) = if score(a) >= score(b) { (a, b) } else { (b, a) };
            let diff = score(high) - score(low);
            let reason = format!(
                "pays the difference of the scores, {} − {}: {}",
                score(high),
                score(low),
                times(high, low, diff)
            );
            ledger.pay(low, high, diff * factor(a, b), reason);
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
        let net = settle(&Seat::FOUR, Seat::East, Seat::East, &scores).net();
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
        let ledger = settle(&Seat::FOUR, Seat::South, Seat::East, &scores);
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
        let net = settle(&Seat::FOUR, Seat::West, Seat::East, &scores).net();
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
        let net = settle(seats, Seat::North, Seat::East, &scores).net();
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
        let net = settle(&Seat::FOUR, Seat::West, Seat::North, &scores).net();
        assert_eq!(net[&Seat::North], -20);
        assert_eq!(net[&Seat::East], -10);
        assert_eq!(net[&Seat::West], 40);
    }
}

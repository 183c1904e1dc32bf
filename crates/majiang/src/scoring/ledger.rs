//! A zero-sum ledger of payments: every chip one seat pays, another receives.
//!
//! Settlement writes each payment with its reason ([`Ledger::pay`]); the ledger answers the net
//! chips per seat ([`Ledger::net`]) and the payments one by one ([`Ledger::payments`]), which a
//! front end shows as "west pays south 8: San Tan Chengbao …" (the [`Reason`] in English) or in
//! its own words from the reason's key and numbers.
//!
//! A reason is written only when someone will read it: a ledger made to [`Explain::Itemise`]
//! keeps every payment with its reason, a [`Explain::Quiet`] one (the engine asking whether a
//! win scores) only the net chips, and never calls the reason closures.
//!
//! ```
//! use majiang::Seat;
//! use majiang::scoring::reason::SELF_DRAW_TOTAL;
//! use majiang::scoring::{Explain, Ledger};
//! let mut ledger = Ledger::new(&Seat::FOUR, Explain::Itemise);
//! let total = |n: i64| SELF_DRAW_TOTAL.of(&[n]);
//! ledger.pay(Seat::West, Seat::South, 8, || total(8));
//! ledger.pay(Seat::North, Seat::South, 2, || total(2));
//! let net = ledger.net();
//! assert_eq!(net[&Seat::South], 10);
//! assert_eq!(net[&Seat::East], 0);
//! assert_eq!(net.values().sum::<i64>(), 0);
//! assert_eq!(ledger.payments()[0].to_string(), "west pays south 8: self-draw: pays the total, 8");
//! ```

use super::reason::Reason;
use crate::seat::Seat;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// One payment between two seats, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Payment {
    /// Who pays.
    pub from: Seat,
    /// Who receives.
    pub to: Seat,
    /// How many chips (always positive).
    pub amount: i64,
    /// The rule and its arithmetic ("self-draw: the dealer pays double, 2 × 4" in English).
    pub reason: Reason,
}

impl fmt::Display for Payment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} pays {} {}: {}",
            self.from, self.to, self.amount, self.reason
        )
    }
}

/// Whether a scorer writes out each payment and its reason, or only the net chips.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Explain {
    /// Every payment with its reason ([`Scored::itemised`](super::Scored::itemised)), for a
    /// person to read.
    #[default]
    Itemise,
    /// The net chips only: no payment is itemised and no reason is written (the engine asking
    /// whether a win scores).
    Quiet,
}

/// How many seats there are (a seat's index, `seat as usize`, is below it).
pub(crate) const SEAT_KINDS: usize = 6;

/// Every seat, in the order of its index.
const SEATS: [Seat; SEAT_KINDS] = [
    Seat::East,
    Seat::South,
    Seat::West,
    Seat::North,
    Seat::NorthEast,
    Seat::SouthWest,
];

/// Payments between the seats of one table; zero-sum by construction.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ledger {
    explain: Explain,
    /// Net chips by seat index.
    net: [i64; SEAT_KINDS],
    /// The seats at the table, and any other seat a payment named, by seat index.
    present: [bool; SEAT_KINDS],
    /// The payments in the order recorded (none when quiet).
    payments: Vec<Payment>,
}

impl Ledger {
    /// An empty ledger for the seats at the table (each appears in [`Ledger::net`], at 0 if
    /// nobody pays them or is paid by them); `explain` says whether it keeps the payments and
    /// their reasons.
    pub fn new(seats: &[Seat], explain: Explain) -> Ledger {
        let mut present = [false; SEAT_KINDS];
        for &s in seats {
            present[s as usize] = true;
        }
        let payments = match explain {
            // Room for one payment between every two seats, the most any rule set makes.
            Explain::Itemise => Vec::with_capacity(seats.len() * seats.len().saturating_sub(1) / 2),
            Explain::Quiet => Vec::new(),
        };
        Ledger {
            explain,
            net: [0; SEAT_KINDS],
            present,
            payments,
        }
    }

    /// Records that `from` pays `to` `amount` chips, for the reason `reason` gives (called
    /// only when the ledger itemises). A payment of 0, or between a seat and itself, changes
    /// nothing and is not recorded; a negative amount is recorded as the payment the other way.
    pub fn pay(&mut self, from: Seat, to: Seat, amount: i64, reason: impl FnOnce() -> Reason) {
        if amount == 0 || from == to {
            return;
        }
        let (from, to, amount) = if amount < 0 {
            (to, from, -amount)
        } else {
            (from, to, amount)
        };
        self.net[from as usize] -= amount;
        self.net[to as usize] += amount;
        self.present[from as usize] = true;
        self.present[to as usize] = true;
        if self.explain == Explain::Itemise {
            self.payments.push(Payment {
                from,
                to,
                amount,
                reason: reason(),
            });
        }
    }

    /// The payments in the order recorded; empty for a quiet ledger.
    pub fn payments(&self) -> &[Payment] {
        &self.payments
    }

    /// Net chips per seat: what it received minus what it paid. Every seat at the table is
    /// present; the values sum to zero.
    pub fn net(&self) -> BTreeMap<Seat, i64> {
        let mut net = BTreeMap::new();
        for (i, &seat) in SEATS.iter().enumerate() {
            if self.present[i] {
                net.insert(seat, self.net[i]);
            }
        }
        net
    }

    /// The net chips per seat and the payments, consuming the ledger.
    pub fn into_parts(self) -> (BTreeMap<Seat, i64>, Vec<Payment>) {
        (self.net(), self.payments)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::reason::SELF_DRAW_TOTAL;

    fn self_draw(total: i64) -> Reason {
        SELF_DRAW_TOTAL.of(&[total])
    }

    #[test]
    fn zero_and_self_payments_are_not_recorded() {
        let mut l = Ledger::new(&Seat::FOUR, Explain::Itemise);
        l.pay(Seat::East, Seat::South, 0, || self_draw(0));
        l.pay(Seat::East, Seat::East, 5, || self_draw(5));
        assert!(l.payments().is_empty());
        assert!(l.net().values().all(|&v| v == 0));
        assert_eq!(l.net().len(), 4);
    }

    #[test]
    fn a_negative_amount_is_the_payment_the_other_way() {
        let mut l = Ledger::new(&Seat::FOUR, Explain::Itemise);
        l.pay(Seat::East, Seat::South, -3, || self_draw(3));
        assert_eq!(l.payments()[0].from, Seat::South);
        assert_eq!(l.payments()[0].amount, 3);
        let (net, payments) = l.into_parts();
        assert_eq!((net[&Seat::East], net[&Seat::South]), (3, -3));
        assert_eq!(payments.len(), 1);
    }

    #[test]
    fn net_sums_to_zero_and_follows_every_payment() {
        let mut l = Ledger::new(&Seat::FOUR, Explain::Itemise);
        l.pay(Seat::West, Seat::South, 8, || self_draw(8));
        l.pay(Seat::East, Seat::South, 4, || self_draw(4));
        l.pay(Seat::South, Seat::North, 1, || self_draw(1));
        let net = l.net();
        assert_eq!(net[&Seat::South], 11);
        assert_eq!(net[&Seat::North], 1);
        assert_eq!(net.values().sum::<i64>(), 0);
    }

    #[test]
    fn a_quiet_ledger_keeps_the_net_and_writes_no_reason() {
        let mut l = Ledger::new(&Seat::FOUR, Explain::Quiet);
        l.pay(Seat::West, Seat::South, 8, || {
            unreachable!("a quiet ledger writes no reason")
        });
        l.pay(Seat::South, Seat::NorthEast, 3, || self_draw(3));
        assert!(l.payments().is_empty());
        let net = l.net();
        assert_eq!((net[&Seat::West], net[&Seat::South]), (-8, 5));
        assert_eq!(
            net[&Seat::NorthEast],
            3,
            "a seat a payment names is in the net"
        );
        assert_eq!(net.len(), 5);
    }

    #[test]
    fn seat_indices_follow_the_seat_order() {
        for (i, &s) in SEATS.iter().enumerate() {
            assert_eq!(s as usize, i);
        }
        assert!(SEATS.windows(2).all(|w| w[0] < w[1]));
    }
}

//! A zero-sum ledger of payments: every chip one seat pays, another receives.
//!
//! Settlement writes each payment with its reason ([`Ledger::pay`]); the ledger answers the net
//! chips per seat ([`Ledger::net`]) and the payments one by one ([`Ledger::payments`]), which a
//! front end shows as "west pays south 8: San Tan Chengbao …".
//!
//! ```
//! use majiang::Seat;
//! use majiang::scoring::Ledger;
//! let mut ledger = Ledger::new(&Seat::FOUR);
//! ledger.pay(Seat::West, Seat::South, 8, "San Tan Chengbao");
//! ledger.pay(Seat::North, Seat::South, 2, "self-draw");
//! let net = ledger.net();
//! assert_eq!(net[&Seat::South], 10);
//! assert_eq!(net[&Seat::East], 0);
//! assert_eq!(net.values().sum::<i64>(), 0);
//! assert_eq!(ledger.payments()[0].to_string(), "west pays south 8: San Tan Chengbao");
//! ```

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
    /// The rule and its arithmetic, for a person, e.g. "self-draw: the dealer pays double, 2 × 4".
    pub reason: String,
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

/// Payments between the seats of one table; zero-sum by construction.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ledger {
    seats: Vec<Seat>,
    payments: Vec<Payment>,
}

impl Ledger {
    /// An empty ledger for the seats at the table (each appears in [`Ledger::net`], at 0 if
    /// nobody pays them or is paid by them).
    pub fn new(seats: &[Seat]) -> Ledger {
        Ledger {
            seats: seats.to_vec(),
            payments: Vec::new(),
        }
    }

    /// Records that `from` pays `to` `amount` chips for `reason`. A payment of 0, or between a
    /// seat and itself, changes nothing and is not recorded; a negative amount is recorded as
    /// the payment the other way.
    pub fn pay(&mut self, from: Seat, to: Seat, amount: i64, reason: impl Into<String>) {
        if amount == 0 || from == to {
            return;
        }
        let (from, to, amount) = if amount < 0 {
            (to, from, -amount)
        } else {
            (from, to, amount)
        };
        self.payments.push(Payment {
            from,
            to,
            amount,
            reason: reason.into(),
        });
    }

    /// The payments in the order recorded.
    pub fn payments(&self) -> &[Payment] {
        &self.payments
    }

    /// Net chips per seat: what it received minus what it paid. Every seat at the table is
    /// present; the values sum to zero.
    pub fn net(&self) -> BTreeMap<Seat, i64> {
        let mut net: BTreeMap<Seat, i64> = self.seats.iter().map(|&s| (s, 0)).collect();
        for p in &self.payments {
            *net.entry(p.from).or_default() -= p.amount;
            *net.entry(p.to).or_default() += p.amount;
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

    #[test]
    fn zero_and_self_payments_are_not_recorded() {
        let mut l = Ledger::new(&Seat::FOUR);
        l.pay(Seat::East, Seat::South, 0, "nothing");
        l.pay(Seat::East, Seat::East, 5, "to oneself");
        assert!(l.payments().is_empty());
        assert!(l.net().values().all(|&v| v == 0));
        assert_eq!(l.net().len(), 4);
    }

    #[test]
    fn a_negative_amount_is_the_payment_the_other_way() {
        let mut l = Ledger::new(&Seat::FOUR);
        l.pay(Seat::East, Seat::South, -3, "difference");
        assert_eq!(l.payments()[0].from, Seat::South);
        assert_eq!(l.payments()[0].amount, 3);
        let (net, payments) = l.into_parts();
        assert_eq!((net[&Seat::East], net[&Seat::South]), (3, -3));
        assert_eq!(payments.len(), 1);
    }

    #[test]
    fn net_sums_to_zero_and_follows_every_payment() {
        let mut l = Ledger::new(&Seat::FOUR);
        l.pay(Seat::West, Seat::South, 8, "a");
        l.pay(Seat::East, Seat::South, 4, "b");
        l.pay(Seat::South, Seat::North, 1, "c");
        let net = l.net();
        assert_eq!(net[&Seat::South], 11);
        assert_eq!(net[&Seat::North], 1);
        assert_eq!(net.values().sum::<i64>(), 0);
    }
}

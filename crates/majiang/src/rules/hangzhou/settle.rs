//! Who pays what (`docs/rules/hangzhou.md` *Settlement*: who pays, Zhuo Gang, San Tan
//! Chengbao, cap and zero floor).
//!
//! The order of the steps:
//! 1. **Shares.** Each loser's self-draw share is the hand's total `T`; the dealer's is `2T`
//!    when a non-dealer won (the dealer self-draw loss). `S` is the sum of the three shares.
//! 2. **Liability.** With a three-meld penalty in play (below), it decides who pays, whatever
//!    the kind of win. Otherwise: self-draw, each loser pays their share; discard, the
//!    discarder pays `T` once; robbing the kong, the kong's owner pays `S`.
//! 3. **Cap** (`cap` option): no payer pays more than the cap.
//! 4. **Zero floor** (when `balances` is given): a payer at 0 or below pays nothing, and no payer
//!    pays more than their positive balance; a seat missing from `balances` is not limited. What
//!    is not collected is the winner's loss: the winner receives only what is paid.
//!
//! **Three-meld penalty (San Tan Chengbao).** "A made three melds from B" means at least three of
//! A's declared melds (chow, pung or kong) have `from` = B. When the winner W made three melds
//! from B, B pays `2S`. For each other player A who made three melds from W's discards
//! (Reverse Chengbao), A pays `2S` too: "the share of points for the other three players is paid
//! entirely by Player A multiplied by 2" (seed 000), its own share and the dealer's double share
//! included (issue 21). The rules are applied in turn, each on the original shares, and the
//! amounts add up: in the seed's combined case (A made three melds from B, C made three from A,
//! A wins) B pays `2S` and C pays `2S`; the fourth player pays nothing. Players named by neither
//! rule pay nothing once either rule applies.
//!
//! Every amount is written to a [`Ledger`] with its reason, the rule and its arithmetic.

use crate::meld::Meld;
use crate::scoring::{Ledger, WinKind, WinSituation};
use crate::seat::Seat;
use std::collections::BTreeMap;

/// How many melds make the three-meld penalty.
pub const CHENGBAO_MELDS: usize = 3;

/// Each loser's self-draw share of a hand worth `total`.
pub fn shares(s: &WinSituation, total: i64) -> BTreeMap<Seat, i64> {
    s.losers()
        .map(|x| {
            let dealer_loss = s.seat != s.dealer && x == s.dealer;
            (x, if dealer_loss { 2 * total } else { total })
        })
        .collect()
}

fn melds_from(melds: &[Meld], source: Seat) -> usize {
    melds
        .iter()
        .filter(|m| m.is_exposed() && m.from == Some(source))
        .count()
}

/// San Tan Chengbao: the player the winner made three melds from, if any.
pub fn chengbao_payer(s: &WinSituation) -> Option<Seat> {
    s.losers()
        .find(|&b| melds_from(&s.melds, b) >= CHENGBAO_MELDS)
}

/// Reverse Chengbao: the other players who made three melds from the winner's discards.
pub fn reverse_chengbao_payers(s: &WinSituation) -> Vec<Seat> {
    s.losers()
        .filter(|a| {
            s.others
                .get(a)
                .is_some_and(|h| melds_from(&h.melds, s.seat) >= CHENGBAO_MELDS)
        })
        .collect()
}

/// One amount a loser owes the winner, before the cap and the floor, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Liability {
    /// Who owes it.
    pub payer: Seat,
    /// How much.
    pub amount: i64,
    /// The rule and its arithmetic.
    pub reason: String,
}

/// The shares written as a sum in seat order, e.g. "2 + 1 + 1".
fn sum_text(shares: &BTreeMap<Seat, i64>, s: &WinSituation) -> String {
    s.losers()
        .filter_map(|x| shares.get(&x).map(i64::to_string))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// What the losers owe before the cap and the floor, one amount per rule that applies, in the
/// order the rules apply (a player who is both B and an A of Reverse Chengbao owes two).
pub fn liabilities(s: &WinSituation, total: i64) -> Vec<Liability> {
    let shares = shares(s, total);
    let sum: i64 = shares.values().sum();
    let shares_text = sum_text(&shares, s);
    let owe = |payer, amount, reason: String| Liability {
        payer,
        amount,
        reason,
    };
    let forward = chengbao_payer(s);
    let reverse = reverse_chengbao_payers(s);
    if forward.is_some() || !reverse.is_empty() {
        let mut owed = Vec::new();
        if let Some(b) = forward {
            owed.push(owe(
                b,
                2 * sum,
                format!(
                    "San Tan Chengbao: fed the winner three melds, pays every share ×2, \
                     ({shares_text}) × 2 = {}",
                    2 * sum
                ),
            ));
        }
        for a in reverse {
            owed.push(owe(
                a,
                2 * sum,
                format!(
                    "Reverse Chengbao: made three melds from the winner's discards, pays every \
                     share ×2, its own included, ({shares_text}) × 2 = {}",
                    2 * sum
                ),
            ));
        }
        return owed;
    }
    match (s.win, s.discarder) {
        (WinKind::Discard, Some(d)) => vec![owe(
            d,
            total,
            format!("discard: the discarder pays the total once, {total}"),
        )],
        (WinKind::RobbingKong, Some(d)) => vec![owe(
            d,
            sum,
            format!(
                "Zhuo Gang: the robbed kong's owner pays every self-draw share, {shares_text} = \
                 {sum}"
            ),
        )],
        _ => shares
            .iter()
            .map(|(&x, &share)| {
                let reason = if share == total {
                    format!("self-draw: pays the total, {total}")
                } else {
                    format!("self-draw: the dealer pays double, 2 × {total} = {share}")
                };
                owe(x, share, reason)
            })
            .collect(),
    }
}

/// What limits one payer: the cap, then the zero floor.
fn limited(s: &WinSituation, payer: Seat, owed: i64, cap: Option<i64>) -> (i64, Option<String>) {
    let mut pay = owed;
    let mut why = None;
    if let Some(c) = cap.filter(|&c| owed > c) {
        pay = c;
        why = Some(format!("capped at {c}"));
    }
    if let Some(&balance) = s.balances.as_ref().and_then(|b| b.get(&payer)) {
        let floor = balance.max(0);
        if pay > floor {
            pay = floor;
            why = Some(format!(
                "balance {balance}: pays at most what it holds above 0"
            ));
        }
    }
    (pay, why)
}

/// The ledger of a hand worth `total`: liabilities, then the cap, then the zero floor. A payer
/// limited by the cap or the floor pays one amount, its reasons joined, with the limit named.
pub fn settle(s: &WinSituation, total: i64, cap: Option<i64>) -> Ledger {
    let owed = liabilities(s, total);
    let mut ledger = Ledger::new(&s.seats);
    let mut payers: Vec<Seat> = Vec::new();
    for l in &owed {
        if !payers.contains(&l.payer) {
            payers.push(l.payer);
        }
    }
    for payer in payers {
        let mine: Vec<&Liability> = owed.iter().filter(|l| l.payer == payer).collect();
        let sum: i64 = mine.iter().map(|l| l.amount).sum();
        match limited(s, payer, sum, cap) {
            (_, None) => {
                for l in mine {
                    ledger.pay(payer, s.seat, l.amount, l.reason.clone());
                }
            }
            (pay, Some(limit)) => {
                let reasons: Vec<&str> = mine.iter().map(|l| l.reason.as_str()).collect();
                let reason = format!("{}; owes {sum}, {limit}", reasons.join("; "));
                ledger.pay(payer, s.seat, pay, reason);
            }
        }
    }
    ledger
}

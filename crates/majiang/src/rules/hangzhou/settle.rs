//! Who pays what (`RULES.md` §2 *Who pays*, Zhuo Gang, San Tan Chengbao, cap and zero floor).
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
//!    is not collected is the winner's loss, so the payments then do not sum to zero.
//!
//! **Three-meld penalty (San Tan Chengbao).** "A made three melds from B" means at least three of
//! A's declared melds (chow, pung or kong) have `from` = B. When the winner W made three melds
//! from B, B pays `2S`. For each other player A who made three melds from W's discards
//! (Reverse Chengbao), A pays `2 × (S − share_A) + share_A`: the other two players' shares
//! doubled, plus its own share once. The rules are applied in turn, each on the original shares,
//! and the amounts add up: in the seed's combined case (A made three melds from B, C made three
//! from A, A wins) B pays `2S` and C pays `2(S − share_C) + share_C`; the fourth player pays
//! nothing. Players named by neither rule pay nothing once either rule applies.

use crate::meld::Meld;
use crate::scoring::{WinKind, WinSituation};
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

/// What each loser owes before the cap and the floor.
pub fn liabilities(s: &WinSituation, total: i64) -> BTreeMap<Seat, i64> {
    let shares = shares(s, total);
    let sum: i64 = shares.values().sum();
    let mut owed: BTreeMap<Seat, i64> = s.losers().map(|x| (x, 0)).collect();
    let forward = chengbao_payer(s);
    let reverse = reverse_chengbao_payers(s);
    if forward.is_some() || !reverse.is_empty() {
        if let Some(b) = forward {
            *owed.entry(b).or_default() += 2 * sum;
        }
        for a in reverse {
            let own = shares.get(&a).copied().unwrap_or(0);
            *owed.entry(a).or_default() += 2 * (sum - own) + own;
        }
        return owed;
    }
    match (s.win, s.discarder) {
        (WinKind::Discard, Some(d)) => {
            owed.insert(d, total);
        }
        (WinKind::RobbingKong, Some(d)) => {
            owed.insert(d, sum);
        }
        _ => owed = shares,
    }
    owed
}

/// Net chips for every seat: liabilities, then the cap, then the zero floor.
pub fn payments(s: &WinSituation, total: i64, cap: Option<i64>) -> BTreeMap<Seat, i64> {
    let mut out: BTreeMap<Seat, i64> = s.seats.iter().map(|&x| (x, 0)).collect();
    let mut won = 0;
    for (x, owed) in liabilities(s, total) {
        let mut pay = cap.map_or(owed, |c| owed.min(c));
        if let Some(balance) = s.balances.as_ref().and_then(|b| b.get(&x)) {
            pay = pay.min((*balance).max(0));
        }
        out.insert(x, -pay);
        won += pay;
    }
    out.insert(s.seat, won);
    out
}

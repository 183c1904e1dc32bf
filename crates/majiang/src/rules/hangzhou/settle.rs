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
use crate::scoring::reason::{Arg, Reason, ReasonDef, SELF_DRAW_TOTAL};
use crate::scoring::{Explain, Ledger, WinKind, WinSituation};
use crate::seat::Seat;

/// San Tan Chengbao (三摊承包): fed the winner three melds, pays every share twice.
pub static CHENGBAO: ReasonDef = ReasonDef {
    key: "hangzhou.chengbao",
    args: &["shares", "amount"],
    english: "San Tan Chengbao: fed the winner three melds, pays every share ×2, ({shares}) × 2 \
              = {amount}",
};

/// Reverse Chengbao (倒承包): made three melds from the winner's discards, pays every share
/// twice, its own included.
pub static REVERSE_CHENGBAO: ReasonDef = ReasonDef {
    key: "hangzhou.reverse_chengbao",
    args: &["shares", "amount"],
    english: "Reverse Chengbao: made three melds from the winner's discards, pays every share ×2, \
              its own included, ({shares}) × 2 = {amount}",
};

/// A discard: the discarder pays the total once.
pub static DISCARDER_PAYS_TOTAL: ReasonDef = ReasonDef {
    key: "hangzhou.discarder_total",
    args: &["total"],
    english: "discard: the discarder pays the total once, {total}",
};

/// Zhuo Gang (捉杠): the owner of the robbed kong pays every self-draw share.
pub static ZHUO_GANG: ReasonDef = ReasonDef {
    key: "hangzhou.zhuo_gang",
    args: &["shares", "amount"],
    english: "Zhuo Gang: the robbed kong's owner pays every self-draw share, {shares} = {amount}",
};

/// A self-draw by another player: the dealer pays double.
pub static DEALER_PAYS_DOUBLE: ReasonDef = ReasonDef {
    key: "hangzhou.dealer_double",
    args: &["total", "amount"],
    english: "self-draw: the dealer pays double, 2 × {total} = {amount}",
};

/// What a payer owes by the rules in `owed`, limited by the cap.
pub static CAPPED: ReasonDef = ReasonDef {
    key: "hangzhou.capped",
    args: &["owed", "sum", "cap"],
    english: "{owed}; owes {sum}, capped at {cap}",
};

/// What a payer owes by the rules in `owed`, limited by the zero floor (it pays at most its
/// balance above 0).
pub static FLOORED: ReasonDef = ReasonDef {
    key: "hangzhou.floored",
    args: &["owed", "sum", "balance"],
    english: "{owed}; owes {sum}, balance {balance}: pays at most what it holds above 0",
};

/// The rules Hangzhou pays by (a self-draw's each loser paying the total is shared).
pub static REASONS: &[&ReasonDef] = &[
    &SELF_DRAW_TOTAL,
    &CHENGBAO,
    &REVERSE_CHENGBAO,
    &DISCARDER_PAYS_TOTAL,
    &ZHUO_GANG,
    &DEALER_PAYS_DOUBLE,
    &CAPPED,
    &FLOORED,
];

/// How many melds make the three-meld penalty.
pub const CHENGBAO_MELDS: usize = 3;

/// A loser's self-draw share of a hand worth `total`: the total, doubled for the dealer when a
/// non-dealer won.
pub fn share(s: &WinSituation, loser: Seat, total: i64) -> i64 {
    let dealer_loss = s.seat != s.dealer && loser == s.dealer;
    if dealer_loss { 2 * total } else { total }
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
pub fn reverse_chengbao_payers(s: &WinSituation) -> impl Iterator<Item = Seat> + '_ {
    s.losers().filter(|a| {
        s.others
            .get(a)
            .is_some_and(|h| melds_from(&h.melds, s.seat) >= CHENGBAO_MELDS)
    })
}

/// The rule by which a loser owes the winner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// San Tan Chengbao: fed the winner three melds.
    Chengbao,
    /// Reverse Chengbao: made three melds from the winner's discards.
    ReverseChengbao,
    /// The discarder of the winning tile.
    Discard,
    /// Zhuo Gang: the owner of the robbed kong.
    ZhuoGang,
    /// A self-draw share.
    SelfDraw,
}

/// One amount a loser owes the winner, before the cap and the floor, and by which rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Liability {
    /// Who owes it.
    pub payer: Seat,
    /// How much.
    pub amount: i64,
    /// The rule that makes it owed.
    pub rule: Rule,
}

impl Liability {
    /// The rule and its arithmetic in a hand worth `total`.
    pub fn reason(&self, s: &WinSituation, total: i64) -> Reason {
        let shares = || Arg::Shares(s.losers().map(|x| share(s, x, total)).collect());
        let amount = Arg::Number(self.amount);
        match self.rule {
            Rule::Chengbao => CHENGBAO.with([shares(), amount]),
            Rule::ReverseChengbao => REVERSE_CHENGBAO.with([shares(), amount]),
            Rule::Discard => DISCARDER_PAYS_TOTAL.of(&[total]),
            Rule::ZhuoGang => ZHUO_GANG.with([shares(), amount]),
            Rule::SelfDraw if self.amount == total => SELF_DRAW_TOTAL.of(&[total]),
            Rule::SelfDraw => DEALER_PAYS_DOUBLE.of(&[total, self.amount]),
        }
    }
}

/// What the losers owe before the cap and the floor, one amount per rule that applies, in the
/// order the rules apply (a player who is both B and an A of Reverse Chengbao owes two).
pub fn liabilities(s: &WinSituation, total: i64) -> Vec<Liability> {
    let sum: i64 = s.losers().map(|x| share(s, x, total)).sum();
    let owe = |payer, amount, rule| Liability {
        payer,
        amount,
        rule,
    };
    let mut owed: Vec<Liability> = chengbao_payer(s)
        .map(|b| owe(b, 2 * sum, Rule::Chengbao))
        .into_iter()
        .chain(reverse_chengbao_payers(s).map(|a| owe(a, 2 * sum, Rule::ReverseChengbao)))
        .collect();
    if !owed.is_empty() {
        return owed;
    }
    match (s.win, s.discarder) {
        (WinKind::Discard, Some(d)) => owed.push(owe(d, total, Rule::Discard)),
        (WinKind::RobbingKong, Some(d)) => owed.push(owe(d, sum, Rule::ZhuoGang)),
        _ => owed.extend(
            s.losers()
                .map(|x| owe(x, share(s, x, total), Rule::SelfDraw)),
        ),
    }
    owed
}

/// What limits a payer's amount: the cap, or the zero floor (with the balance).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Limit {
    Cap(i64),
    Floor { balance: i64 },
}

/// What one payer pays of `owed`, and the limit that decided it if one did: the cap, then the
/// zero floor.
fn limited(s: &WinSituation, payer: Seat, owed: i64, cap: Option<i64>) -> (i64, Option<Limit>) {
    let mut pay = owed;
    let mut why = None;
    if let Some(c) = cap.filter(|&c| owed > c) {
        pay = c;
        why = Some(Limit::Cap(c));
    }
    if let Some(&balance) = s.balances.as_ref().and_then(|b| b.get(&payer)) {
        let floor = balance.max(0);
        if pay > floor {
            pay = floor;
            why = Some(Limit::Floor { balance });
        }
    }
    (pay, why)
}

/// The ledger of a hand worth `total`: liabilities, then the cap, then the zero floor. A payer
/// limited by the cap or the floor pays one amount, its reasons joined, with the limit named.
/// `explain` says whether the ledger itemises the payments with their reasons.
pub fn settle(s: &WinSituation, total: i64, cap: Option<i64>, explain: Explain) -> Ledger {
    let owed = liabilities(s, total);
    let mut ledger = Ledger::new(&s.seats, explain);
    for (i, first) in owed.iter().enumerate() {
        let payer = first.payer;
        if owed[..i].iter().any(|l| l.payer == payer) {
            continue;
        }
        let mine = || owed[i..].iter().filter(move |l| l.payer == payer);
        let sum: i64 = mine().map(|l| l.amount).sum();
        match limited(s, payer, sum, cap) {
            (_, None) => {
                for l in mine() {
                    ledger.pay(payer, s.seat, l.amount, || l.reason(s, total));
                }
            }
            (pay, Some(limit)) => ledger.pay(payer, s.seat, pay, || {
                let owed = Arg::Owed(mine().map(|l| l.reason(s, total)).collect());
                match limit {
                    Limit::Cap(cap) => CAPPED.with([owed, sum.into(), cap.into()]),
                    Limit::Floor { balance } => FLOORED.with([owed, sum.into(), balance.into()]),
                }
            }),
        }
    }
    ledger
}

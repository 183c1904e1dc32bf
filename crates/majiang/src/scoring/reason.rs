//! Why a payment is made: the rule and its numbers as data ([`Reason`]), written in English by
//! its `Display` (the CLI, the terminal) and sent to a front end as a key and its arguments, which
//! the front end's catalogue words in its own language (the browser's `reason.<key>` strings).
//!
//! ```
//! use majiang::scoring::Reason;
//! let why = Reason::FanDiscarder { fan: 5, points: 16 };
//! assert_eq!(why.to_string(), "5 fan → 16 points; discard: the discarder pays double, 2 × 16");
//! assert_eq!(
//!     serde_json::to_value(&why).unwrap(),
//!     serde_json::json!({"key": "hongkong.fan_discarder", "args": {"fan": 5, "points": 16}})
//! );
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;

/// The rule by which one seat pays another, with the numbers of its arithmetic. Serialised as
/// `{"key": "<rule set>.<rule>", "args": {...}}`; a list of shares is an array of numbers (written
/// "2 + 1 + 1"), the reasons a limited payment joins an array of reasons.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "key", content = "args")]
pub enum Reason {
    /// Classic: a loser pays the winner's score.
    #[serde(rename = "classic.winner_score")]
    WinnerScore {
        /// The winner's score.
        score: i64,
    },
    /// Classic: a loser pays the winner's score, doubled because the dealer is one of the two.
    #[serde(rename = "classic.winner_score_doubled")]
    WinnerScoreDoubled {
        /// The winner's score.
        score: i64,
        /// Twice the score.
        amount: i64,
    },
    /// Classic: the loser with the lower score pays the other the difference of their scores.
    #[serde(rename = "classic.difference")]
    ScoreDifference {
        /// The higher score (the receiver's own points).
        high: i64,
        /// The lower score (the payer's own points).
        low: i64,
        /// `high − low`.
        diff: i64,
    },
    /// Classic: the difference of two losers' scores, doubled because one of them is the dealer.
    #[serde(rename = "classic.difference_doubled")]
    ScoreDifferenceDoubled {
        /// The higher score (the receiver's own points).
        high: i64,
        /// The lower score (the payer's own points).
        low: i64,
        /// `high − low`.
        diff: i64,
        /// Twice the difference.
        amount: i64,
    },
    /// Hong Kong, self-draw: the hand's fan, its points, and every loser pays double.
    #[serde(rename = "hongkong.fan_self_draw")]
    FanSelfDraw {
        /// The hand's fan (at most the limit).
        fan: i64,
        /// The points the fan is worth.
        points: i64,
    },
    /// Hong Kong, a discard (or a robbed kong): the discarder pays double.
    #[serde(rename = "hongkong.fan_discarder")]
    FanDiscarder {
        /// The hand's fan (at most the limit).
        fan: i64,
        /// The points the fan is worth.
        points: i64,
    },
    /// Hong Kong, a discard: a loser who did not discard pays the points.
    #[serde(rename = "hongkong.fan_other")]
    FanOtherLoser {
        /// The hand's fan (at most the limit).
        fan: i64,
        /// The points the fan is worth.
        points: i64,
    },
    /// Yangzhou Pao Pai (包牌): the feeder of the third exposed meld pays for everyone.
    #[serde(rename = "yangzhou.pao_pai")]
    PaoPai {
        /// How many payments it covers (2 for a discard, the losers for a self-draw).
        times: i64,
        /// The hand's total.
        total: i64,
        /// `times × total`.
        amount: i64,
    },
    /// Yangzhou, a discard: the discarder pays double the total.
    #[serde(rename = "yangzhou.discarder_double")]
    DiscarderPaysDouble {
        /// The hand's total.
        total: i64,
        /// Twice the total.
        amount: i64,
    },
    /// Yangzhou and Hangzhou, a self-draw: each loser pays the total.
    #[serde(rename = "self_draw_total")]
    SelfDrawTotal {
        /// The hand's total.
        total: i64,
    },
    /// Hangzhou San Tan Chengbao (三摊承包): fed the winner three melds, pays every share twice.
    #[serde(rename = "hangzhou.chengbao")]
    Chengbao {
        /// The losers' self-draw shares, in seat order.
        shares: Vec<i64>,
        /// Twice their sum.
        amount: i64,
    },
    /// Hangzhou Reverse Chengbao (倒承包): made three melds from the winner's discards, pays every
    /// share twice, its own included.
    #[serde(rename = "hangzhou.reverse_chengbao")]
    ReverseChengbao {
        /// The losers' self-draw shares, in seat order.
        shares: Vec<i64>,
        /// Twice their sum.
        amount: i64,
    },
    /// Hangzhou, a discard: the discarder pays the total once.
    #[serde(rename = "hangzhou.discarder_total")]
    DiscarderPaysTotal {
        /// The hand's total.
        total: i64,
    },
    /// Hangzhou Zhuo Gang (捉杠): the owner of the robbed kong pays every self-draw share.
    #[serde(rename = "hangzhou.zhuo_gang")]
    ZhuoGang {
        /// The losers' self-draw shares, in seat order.
        shares: Vec<i64>,
        /// Their sum.
        amount: i64,
    },
    /// Hangzhou, a self-draw by another player: the dealer pays double.
    #[serde(rename = "hangzhou.dealer_double")]
    DealerPaysDouble {
        /// The hand's total.
        total: i64,
        /// Twice the total.
        amount: i64,
    },
    /// Hangzhou: what a payer owes by the rules in `owed`, limited by the cap.
    #[serde(rename = "hangzhou.capped")]
    Capped {
        /// Each rule the payer owes by.
        owed: Vec<Reason>,
        /// What they add up to.
        sum: i64,
        /// The cap, what is paid.
        cap: i64,
    },
    /// Hangzhou: what a payer owes by the rules in `owed`, limited by the zero floor.
    #[serde(rename = "hangzhou.floored")]
    Floored {
        /// Each rule the payer owes by.
        owed: Vec<Reason>,
        /// What they add up to.
        sum: i64,
        /// The payer's balance before the hand (it pays at most what is above 0).
        balance: i64,
    },
}

/// A list of shares written as a sum, "2 + 1 + 1".
struct Sum<'a>(&'a [i64]);

impl fmt::Display for Sum<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, x) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" + ")?;
            }
            write!(f, "{x}")?;
        }
        Ok(())
    }
}

/// The reasons of a limited payment, joined with "; ".
fn write_owed(f: &mut fmt::Formatter<'_>, owed: &[Reason]) -> fmt::Result {
    for (i, r) in owed.iter().enumerate() {
        if i > 0 {
            f.write_str("; ")?;
        }
        write!(f, "{r}")?;
    }
    Ok(())
}

impl fmt::Display for Reason {
    /// The reason in English, e.g. "pays the winner's score, 24".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const DOUBLE: &str = "the dealer pays and receives double, 2 × ";
        match self {
            Reason::WinnerScore { score } => write!(f, "pays the winner's score, {score}"),
            Reason::WinnerScoreDoubled { score, amount } => {
                write!(f, "pays the winner's score, {DOUBLE}{score} = {amount}")
            }
            Reason::ScoreDifference { high, low, diff } => {
                write!(
                    f,
                    "pays the difference of the scores, {high} − {low}: {diff}"
                )
            }
            Reason::ScoreDifferenceDoubled {
                high,
                low,
                diff,
                amount,
            } => write!(
                f,
                "pays the difference of the scores, {high} − {low}: {DOUBLE}{diff} = {amount}"
            ),
            Reason::FanSelfDraw { fan, points } => write!(
                f,
                "{fan} fan → {points} points; self-draw: everyone pays double, 2 × {points}"
            ),
            Reason::FanDiscarder { fan, points } => write!(
                f,
                "{fan} fan → {points} points; discard: the discarder pays double, 2 × {points}"
            ),
            Reason::FanOtherLoser { fan, points } => write!(
                f,
                "{fan} fan → {points} points; discard: the others pay the points, {points}"
            ),
            Reason::PaoPai {
                times,
                total,
                amount,
            } => write!(
                f,
                "Pao Pai: fed the third exposed meld, pays for all, {times} × {total} = {amount}"
            ),
            Reason::DiscarderPaysDouble { total, amount } => write!(
                f,
                "discard: the discarder pays double, 2 × {total} = {amount}"
            ),
            Reason::SelfDrawTotal { total } => write!(f, "self-draw: pays the total, {total}"),
            Reason::Chengbao { shares, amount } => write!(
                f,
                "San Tan Chengbao: fed the winner three melds, pays every share ×2, ({}) × 2 = \
                 {amount}",
                Sum(shares)
            ),
            Reason::ReverseChengbao { shares, amount } => write!(
                f,
                "Reverse Chengbao: made three melds from the winner's discards, pays every share \
                 ×2, its own included, ({}) × 2 = {amount}",
                Sum(shares)
            ),
            Reason::DiscarderPaysTotal { total } => {
                write!(f, "discard: the discarder pays the total once, {total}")
            }
            Reason::ZhuoGang { shares, amount } => write!(
                f,
                "Zhuo Gang: the robbed kong's owner pays every self-draw share, {} = {amount}",
                Sum(shares)
            ),
            Reason::DealerPaysDouble { total, amount } => write!(
                f,
                "self-draw: the dealer pays double, 2 × {total} = {amount}"
            ),
            Reason::Capped { owed, sum, cap } => {
                write_owed(f, owed)?;
                write!(f, "; owes {sum}, capped at {cap}")
            }
            Reason::Floored { owed, sum, balance } => {
                write_owed(f, owed)?;
                write!(
                    f,
                    "; owes {sum}, balance {balance}: pays at most what it holds above 0"
                )
            }
        }
    }
}

impl Reason {
    /// Every key a reason is sent with (`"classic.winner_score"` …), for a front end's
    /// catalogue to be checked against.
    pub const KEYS: &'static [&'static str] = &[
        "classic.winner_score",
        "classic.winner_score_doubled",
        "classic.difference",
        "classic.difference_doubled",
        "hongkong.fan_self_draw",
        "hongkong.fan_discarder",
        "hongkong.fan_other",
        "yangzhou.pao_pai",
        "yangzhou.discarder_double",
        "self_draw_total",
        "hangzhou.chengbao",
        "hangzhou.reverse_chengbao",
        "hangzhou.discarder_total",
        "hangzhou.zhuo_gang",
        "hangzhou.dealer_double",
        "hangzhou.capped",
        "hangzhou.floored",
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One reason of each kind.
    fn every_kind() -> Vec<Reason> {
        let owed = vec![Reason::Chengbao {
            shares: vec![2, 1, 1],
            amount: 8,
        }];
        vec![
            Reason::WinnerScore { score: 24 },
            Reason::WinnerScoreDoubled {
                score: 24,
                amount: 48,
            },
            Reason::ScoreDifference {
                high: 16,
                low: 6,
                diff: 10,
            },
            Reason::ScoreDifferenceDoubled {
                high: 16,
                low: 6,
                diff: 10,
                amount: 20,
            },
            Reason::FanSelfDraw { fan: 3, points: 8 },
            Reason::FanDiscarder { fan: 5, points: 16 },
            Reason::FanOtherLoser { fan: 5, points: 16 },
            Reason::PaoPai {
                times: 3,
                total: 4,
                amount: 12,
            },
            Reason::DiscarderPaysDouble {
                total: 4,
                amount: 8,
            },
            Reason::SelfDrawTotal { total: 4 },
            Reason::Chengbao {
                shares: vec![2, 1, 1],
                amount: 8,
            },
            Reason::ReverseChengbao {
                shares: vec![2, 1, 1],
                amount: 8,
            },
            Reason::DiscarderPaysTotal { total: 4 },
            Reason::ZhuoGang {
                shares: vec![2, 1, 1],
                amount: 4,
            },
            Reason::DealerPaysDouble {
                total: 4,
                amount: 8,
            },
            Reason::Capped {
                owed: owed.clone(),
                sum: 8,
                cap: 5,
            },
            Reason::Floored {
                owed,
                sum: 8,
                balance: 3,
            },
        ]
    }

    #[test]
    fn every_reason_is_sent_with_a_listed_key_and_reads_back() {
        let kinds = every_kind();
        assert_eq!(kinds.len(), Reason::KEYS.len());
        for (r, key) in kinds.iter().zip(Reason::KEYS) {
            let json = serde_json::to_value(r).unwrap();
            assert_eq!(json["key"], *key, "{r:?}");
            assert!(json["args"].is_object(), "{json}");
            let back: Reason = serde_json::from_value(json).unwrap();
            assert_eq!(&back, r);
        }
    }

    #[test]
    fn english_reads_the_arithmetic() {
        let shown: Vec<String> = every_kind().iter().map(ToString::to_string).collect();
        assert_eq!(
            shown[3],
            "pays the difference of the scores, 16 − 6: the dealer pays and receives double, \
             2 × 10 = 20"
        );
        assert_eq!(
            shown[15],
            "San Tan Chengbao: fed the winner three melds, pays every share ×2, (2 + 1 + 1) × 2 \
             = 8; owes 8, capped at 5"
        );
        assert!(shown[16].ends_with("owes 8, balance 3: pays at most what it holds above 0"));
    }
}

//! The match rules of a rule set as data: who deals next ([`Rotation`]), when the match ends
//! ([`EndRule`], [`EndReason`]), the starting chips, and a hand's [`Deal`] (dealer, prevailing
//! wind, lao). The step that applies them after a hand is the table's
//! ([`table::progress`](crate::table::progress)).

use crate::seat::Player;
use crate::tile::Wind;
use serde::{Deserialize, Serialize};

/// Who deals the next hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rotation {
    /// The dealer stays on a dealer win or a drawn hand; otherwise the next seat deals (Hong
    /// Kong).
    StayOnWinOrDraw,
    /// The dealer stays only on a dealer win; otherwise (a drawn hand too) the next seat deals
    /// (Yangzhou).
    StayOnWin,
    /// The next seat deals after every hand (classic).
    EveryHand,
    /// Lao: the dealer stays on a dealer win or a drawn hand at lao + 1; a winner who is not the
    /// dealer deals next at 1 lao (Hangzhou).
    WinnerDeals,
}

/// When the match ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
pub enum EndRule {
    /// After the deal has gone round every seat this many times, the prevailing wind moving on
    /// each time (Hong Kong and Yangzhou: 4, East to North; classic: 1).
    DealRounds(u8),
    /// After this many hands (Hangzhou `rounds:N`).
    Hands(u32),
    /// Everyone starts with this many points; the match ends after a hand not won by the dealer
    /// once any player is at 0 or below (Hangzhou `points:N`).
    Points(u32),
}

/// The most hands a match may be played for, whatever its end rule: a caller that lets
/// strangers choose house rules plays with a hand limit of at most this
/// ([`Session::new`](crate::table::Session::new)'s `hand_limit`), so no house rule (`points:500`,
/// a Hong Kong `min_fan` few hands reach) makes a match endless; one still going then ends
/// ([`EndReason::HandLimit`]), and an end rule that cannot finish within it
/// ([`EndRule::fewest_hands`]) is refused up front.
pub const HAND_CAP: u32 = 64;

impl EndRule {
    /// The fewest hands a match under this end rule plays at a table of `players`: `None` when
    /// that cannot be told before play (a points match ends when somebody runs out).
    pub fn fewest_hands(self, players: usize) -> Option<u32> {
        match self {
            EndRule::DealRounds(n) => Some(u32::from(n).saturating_mul(players as u32)),
            EndRule::Hands(n) => Some(n),
            EndRule::Points(_) => None,
        }
    }
}

/// Why the match ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The deal went round every seat the rule set's number of times.
    DealRounds,
    /// The agreed number of hands was played.
    Hands,
    /// A player was at 0 or below after a hand the dealer did not win.
    Points,
    /// The caller's safety limit on hands ([`Match::with_hand_limit`](crate::table::Match::with_hand_limit)) was reached: not a rule
    /// of any rule set, the match was cut short.
    HandLimit,
}

/// The match rules of a rule set: rotation, the end, the starting chips, as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatchRules {
    /// Who deals next.
    pub rotation: Rotation,
    /// When the match ends.
    pub end: EndRule,
    /// Chips each player starts with.
    pub starting_points: i64,
    /// The ledger is handed to the scorer as balances (Hangzhou's zero floor, `points:N`).
    pub floor: bool,
    /// A first dealer whose dealer-choice roll was a double or 12 starts at 3 lao (Hangzhou
    /// `dice_double_starts_lao3`).
    pub double_starts_lao3: bool,
}

/// The dealer, wind and lao of a hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Deal {
    /// The dealer.
    pub dealer: Player,
    /// The prevailing wind.
    pub prevailing_wind: Wind,
    /// The dealer's lao (1 except in Hangzhou).
    pub lao: u8,
}

//! From fan to chips: seed 004's payment ("fan-laak") table and who pays.

use crate::scoring::reason::ReasonDef;
use crate::scoring::{Explain, Ledger, WinKind, WinSituation};

/// Self-draw: every loser pays double.
pub static FAN_SELF_DRAW: ReasonDef = ReasonDef {
    key: "hongkong.fan_self_draw",
    args: &["fan", "points"],
    english: "{fan} fan → {points} points; self-draw: everyone pays double, 2 × {points}",
};

/// A discard (or a robbed kong): the discarder pays double.
pub static FAN_DISCARDER: ReasonDef = ReasonDef {
    key: "hongkong.fan_discarder",
    args: &["fan", "points"],
    english: "{fan} fan → {points} points; discard: the discarder pays double, 2 × {points}",
};

/// A discard: a loser who did not discard pays the points.
pub static FAN_OTHER_LOSER: ReasonDef = ReasonDef {
    key: "hongkong.fan_other",
    args: &["fan", "points"],
    english: "{fan} fan → {points} points; discard: the others pay the points, {points}",
};

/// The rules Hong Kong pays by.
pub static REASONS: &[&ReasonDef] = &[&FAN_SELF_DRAW, &FAN_DISCARDER, &FAN_OTHER_LOSER];

/// Points for a hand of `fan` under a limit of `limit` fan: 0→1, 1→2, 2→4, 3→8, 4–6→16,
/// 7 up to `limit − 1`→32 (7–9 under the default limit of 10), at or above the limit→64.
///
/// ```
/// use majiang::rules::hongkong::points;
/// assert_eq!(points(3, 10), 8);
/// assert_eq!(points(6, 10), 16);
/// assert_eq!(points(12, 10), 64);
/// assert_eq!(points(5, 5), 64);
/// assert_eq!(points(12, 13), 32);
/// assert_eq!(points(13, 13), 64);
/// ```
pub fn points(fan: u32, limit: u32) -> i64 {
    if fan >= limit {
        return 64;
    }
    match fan {
        0 => 1,
        1 => 2,
        2 => 4,
        3 => 8,
        4..=6 => 16,
        _ => 32,
    }
}

/// The payments of a win worth `points`. Discard win: the discarder pays 2× points, each other
/// loser 1×. Self-draw: every loser pays 2×. Robbing a kong pays as a discard win with the
/// kong's owner (`discarder`) as the discarder.
///
/// Each reason starts from the fan: "5 fan → 16 points; discard: the discarder pays double, 2 ×
/// 16" (`fan` is the hand's fan, the total shown, even above the limit: "12 fan → 64 points").
pub(crate) fn settle(s: &WinSituation, fan: u32, points: i64, explain: Explain) -> Ledger {
    let mut ledger = Ledger::new(&s.seats, explain);
    for loser in s.losers() {
        let fan = i64::from(fan);
        let (pays, why) = match s.win {
            WinKind::SelfDraw => (2 * points, &FAN_SELF_DRAW),
            WinKind::Discard | WinKind::RobbingKong if s.discarder == Some(loser) => {
                (2 * points, &FAN_DISCARDER)
            }
            WinKind::Discard | WinKind::RobbingKong => (points, &FAN_OTHER_LOSER),
        };
        ledger.pay(loser, s.seat, pays, || why.of(&[fan, points]));
    }
    ledger
}

#[cfg(test)]
mod tests {
    use super::settle;
    use crate::scoring::Explain;
    use crate::scoring::request::ScoreRequest;
    use crate::seat::Seat;

    #[test]
    fn a_discard_win_itemises_the_discarders_double() {
        let req = ScoreRequest::from_json(
            r#"{"rules": "hongkong", "concealed": "111m999p555z66z22z", "winning_tile": "6z",
            "win": "discard", "discarder": "south", "seat": "west"}"#,
        )
        .unwrap();
        let ledger = settle(&req.situation, 5, 16, Explain::Itemise);
        let net = ledger.net();
        assert_eq!(net[&Seat::West], 32 + 16 + 16);
        let south = ledger.payments().iter().find(|p| p.from == Seat::South);
        assert_eq!(
            south.map(ToString::to_string).as_deref(),
            Some(
                "south pays west 32: 5 fan → 16 points; discard: the discarder pays double, 2 × 16"
            )
        );
    }
}

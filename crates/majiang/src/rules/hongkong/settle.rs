//! From fan to chips: seed 004's payment ("fan-laak") table and who pays.

use crate::scoring::{WinKind, WinSituation};
use crate::seat::Seat;
use std::collections::BTreeMap;

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

/// Net chips per seat. Discard win: the discarder pays 2× points, each other loser 1×.
/// Self-draw: every loser pays 2×. Robbing a kong pays as a discard win with the kong's owner
/// (`discarder`) as the discarder.
pub(crate) fn payments(s: &WinSituation, points: i64) -> BTreeMap<Seat, i64> {
    let mut out: BTreeMap<Seat, i64> = s.seats.iter().map(|&seat| (seat, 0)).collect();
    let mut won = 0;
    for loser in s.losers() {
        let pays = match s.win {
            WinKind::SelfDraw => 2 * points,
            WinKind::Discard | WinKind::RobbingKong if s.discarder == Some(loser) => 2 * points,
            WinKind::Discard | WinKind::RobbingKong => points,
        };
        out.insert(loser, -pays);
        won += pays;
    }
    out.insert(s.seat, won);
    out
}

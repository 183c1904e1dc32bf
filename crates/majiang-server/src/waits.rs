//! The waits of a ready hand as its owner sees them, from the library's ready hint
//! ([`majiang::table::hint`]): each tile that would complete it, how many copies the owner has
//! not seen (not in their hand, on the table, among the flowers or as the indicator), and what
//! the win would score by self-draw and on a discard (absent when it would not reach the rule
//! set's minimum).

use majiang::Tile;
use majiang::table::{Observation, Ruleset, hint};
use serde::{Deserialize, Serialize};

/// One winning tile of a ready hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wait {
    /// The tile that completes the hand (at a five- or six-player classic table, an extra-wind
    /// wait names one extra wind: any of them wins).
    pub tile: Tile,
    /// Copies the viewer has not seen.
    pub unseen: u8,
    /// The hand's total by self-draw in the rule set's unit; `None`: it would not win so.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub self_draw: Option<i64>,
    /// The hand's total on a discard; `None`: it would not win so.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub discard: Option<i64>,
}

/// The waits of the viewer's hand in `obs` when it is ready (one tile from a win, between
/// turns), in tile order; empty otherwise, and for a spectator.
pub fn waits(obs: &Observation, rules: &Ruleset) -> Vec<Wait> {
    let held = obs.concealed.len() + obs.extra_winds.len();
    if held % 3 != 1 {
        return Vec::new();
    }
    hint::ready_hint(obs, rules, None)
        .waits
        .into_iter()
        .map(|w| Wait {
            tile: w.tile,
            unseen: w.unseen,
            self_draw: w.self_draw.ok(),
            discard: w.discard.ok(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use majiang::table::Player;
    use std::sync::Arc;

    #[test]
    fn a_ready_hand_lists_its_waits_with_the_copies_not_seen() {
        let rules = Arc::new(Ruleset::from_name("hongkong", &serde_json::Map::new()).unwrap());
        let (session, _) = majiang::table::Session::new(rules, 3, Some(1)).unwrap();
        let mut obs = session.observation(Player(0));
        // 1112233456789m, one suit (Full Flush, above Hong Kong's minimum of 3 fan): waits 1m
        // (111 23 … reads 11 + 123), 2m, 3m, 4m (123 456 789 11 23) and 7m (… 456 78 + 9).
        obs.concealed = majiang::TileCounts::parse("1234567891123m").unwrap();
        obs.extra_winds.clear();
        for h in &mut obs.table {
            h.melds.clear();
            h.discards.clear();
        }
        obs.indicator = None;
        let s1: Tile = "4m".parse().unwrap();
        obs.table[1].discards.push(majiang::table::DiscardRecord {
            tile: s1,
            claimed: false,
            gambit: false,
        });
        let rules = session.game().ruleset();
        let w = waits(&obs, rules);
        let tiles: Vec<(Tile, u8)> = w.iter().map(|w| (w.tile, w.unseen)).collect();
        // Copies held: 1m three, 2m and 3m two, 4m one (and one in a discard row), 7m one.
        let t = |s: &str| -> Tile { s.parse().unwrap() };
        assert_eq!(
            tiles,
            vec![
                (t("1m"), 1),
                (t("2m"), 2),
                (t("3m"), 2),
                (s1, 2),
                (t("7m"), 3)
            ]
        );
        // The scores are the library hint's, a win that misses the minimum left out.
        let hint = majiang::table::ready_hint(&obs, rules, None);
        for (mine, lib) in w.iter().zip(&hint.waits) {
            assert_eq!(mine.self_draw, lib.self_draw.clone().ok());
            assert_eq!(mine.discard, lib.discard.clone().ok());
        }
        assert!(w.iter().any(|w| w.self_draw.is_some()), "{w:?}");
        // Fourteen tiles (a turn after the draw): no waits are read.
        obs.concealed.add(s1);
        assert!(waits(&obs, rules).is_empty());
    }
}

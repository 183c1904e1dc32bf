//! The waits of a ready hand as its owner sees them: each tile that would complete it, and how
//! many copies the owner has not seen (not in their hand, on the table or as the indicator).

use majiang::Tile;
use majiang::analysis::{self, HandRules};
use majiang::table::Observation;
use serde::{Deserialize, Serialize};

/// One winning tile of a ready hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wait {
    /// The tile that completes the hand.
    pub tile: Tile,
    /// Copies the viewer has not seen: four less those in their hand, in melds, in the discard
    /// rows and face up as the indicator.
    pub unseen: u8,
}

/// The waits of the viewer's hand in `obs` when it is ready (one tile from a win, between
/// turns: `3k + 1` concealed tiles), lowest first; empty otherwise, and for a spectator. A
/// hand holding extra winds (five- and six-player classic) is not read: the waits of the 34
/// kinds do not cover them.
pub fn waits(obs: &Observation, rules: &HandRules) -> Vec<Wait> {
    let held = obs.concealed.len();
    if held % 3 != 1 || !obs.extra_winds.is_empty() {
        return Vec::new();
    }
    let ready = analysis::waits(&obs.concealed, rules);
    ready
        .iter()
        .map(|tile| Wait {
            tile,
            unseen: 4u8.saturating_sub(seen(obs, tile)),
        })
        .collect()
}

/// Copies of `tile` the viewer of `obs` can see.
fn seen(obs: &Observation, tile: Tile) -> u8 {
    let mut n = obs.concealed.get(tile) as usize;
    for hand in &obs.table {
        n += hand
            .melds
            .iter()
            .flat_map(|m| m.tiles())
            .filter(|&t| t == tile)
            .count();
        // A claimed discard lies in a meld now (or completed a win): counted there.
        n += hand
            .discards
            .iter()
            .filter(|d| !d.claimed && d.tile == tile)
            .count();
    }
    n += usize::from(obs.indicator == Some(tile));
    n.min(u8::MAX as usize) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use majiang::table::{Player, Ruleset};
    use std::sync::Arc;

    #[test]
    fn a_ready_hand_lists_its_waits_with_the_copies_not_seen() {
        let rules = Arc::new(Ruleset::from_name("hongkong", &serde_json::Map::new()).unwrap());
        let (session, _) = majiang::table::Session::new(rules, 3, Some(1)).unwrap();
        let mut obs = session.observation(Player(0));
        // 123m 456m 789m 11p 23s: waits 1s and 4s.
        obs.concealed = majiang::TileCounts::parse("123456789m11p23s").unwrap();
        obs.extra_winds.clear();
        for h in &mut obs.table {
            h.melds.clear();
            h.discards.clear();
        }
        obs.indicator = None;
        let s1: Tile = "1s".parse().unwrap();
        obs.table[1].discards.push(majiang::table::DiscardRecord {
            tile: s1,
            claimed: false,
            gambit: false,
        });
        let w = waits(&obs, session.game().hand_rules());
        assert_eq!(
            w,
            vec![
                Wait {
                    tile: s1,
                    unseen: 3
                },
                Wait {
                    tile: "4s".parse().unwrap(),
                    unseen: 4
                }
            ]
        );
        // Fourteen tiles (a turn after the draw): no waits are read.
        obs.concealed.add(s1);
        assert!(waits(&obs, session.game().hand_rules()).is_empty());
    }
}

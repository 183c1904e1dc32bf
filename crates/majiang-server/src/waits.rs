//! The waits of a ready hand as its owner sees them, from the library's ready hint
//! ([`majiang::table::hint`]): each tile that would complete it, how many copies the owner has
//! not seen (not in their hand, on the table, among the flowers or as the indicator), and what
//! the win would score by self-draw and on a discard (absent when it would not reach the rule
//! set's minimum).
//!
//! [`HintCache`] keeps each chair's last reading keyed by its hand (and what the score reads
//! besides: melds and flowers on the table, seat, winds, wild tile), so the hint is worked out
//! only when that hand changed; the copies unseen, which every discard changes, are counted
//! afresh each time.

use majiang::table::{Observation, Player, TableRules, hint};
use majiang::{Meld, Tile, TileCounts};
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
pub fn waits(obs: &Observation, rules: &TableRules) -> Vec<Wait> {
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

/// What the ready hint of a hand reads, but for the copies seen: the hand itself, the melds,
/// flowers and Fortune Gambit runs on the table, the seats, winds, lao and wild tile.
#[derive(Debug, Clone, PartialEq, Eq)]
struct HandKey {
    concealed: TileCounts,
    extra_winds: Vec<Tile>,
    player: Player,
    seat: majiang::Seat,
    prevailing_wind: majiang::Wind,
    lao: u8,
    wildcard: Option<Tile>,
    table: Vec<(majiang::Seat, Vec<Meld>, Vec<Tile>, u8)>,
}

impl HandKey {
    fn of(obs: &Observation) -> HandKey {
        HandKey {
            concealed: obs.concealed,
            extra_winds: obs.extra_winds.clone(),
            player: obs.player,
            seat: obs.seat,
            prevailing_wind: obs.prevailing_wind,
            lao: obs.lao,
            wildcard: obs.wildcard,
            table: obs
                .table
                .iter()
                .map(|h| (h.seat, h.melds.clone(), h.flowers.clone(), h.gambit_run))
                .collect(),
        }
    }
}

/// Each chair's last ready hint, keyed by its hand: [`HintCache::waits`] answers as [`waits`]
/// does, working the hint out only when the chair's hand (its `HandKey`) changed.
#[derive(Debug, Default)]
pub struct HintCache {
    by_chair: Vec<Option<(HandKey, Vec<Wait>)>>,
    /// Hints worked out so far (the others were read from the cache).
    pub computed: u64,
}

impl HintCache {
    /// The waits of the viewer's hand in `obs`, as [`waits`] gives them.
    pub fn waits(&mut self, obs: &Observation, rules: &TableRules) -> Vec<Wait> {
        let held = obs.concealed.len() + obs.extra_winds.len();
        // At five- or six-player classic tables the extra wind named depends on the winds
        // seen: no cache.
        if held % 3 != 1 || rules.config().extra_winds() > 0 {
            return waits(obs, rules);
        }
        let i = obs.player.index();
        if self.by_chair.len() <= i {
            self.by_chair.resize_with(i + 1, || None);
        }
        let key = HandKey::of(obs);
        match &mut self.by_chair[i] {
            Some((k, w)) if *k == key => {
                let seen = seen_kinds(obs);
                for w in w.iter_mut() {
                    w.unseen = 4u8.saturating_sub(seen[w.tile.index()]);
                }
                w.clone()
            }
            slot => {
                self.computed += 1;
                let w = waits(obs, rules);
                *slot = Some((key, w.clone()));
                w
            }
        }
    }
}

/// Copies of each kind the viewer has seen (as the library's hint counts them at a table
/// without extra winds): their concealed tiles, every discard still in a row, every meld and
/// the indicator.
fn seen_kinds(obs: &Observation) -> [u8; 34] {
    let mut seen = [0u8; 34];
    let mut add = |t: Tile| {
        if !t.is_bonus() {
            seen[t.index()] = seen[t.index()].saturating_add(1);
        }
    };
    for (t, n) in obs.concealed.iter() {
        for _ in 0..n {
            add(t);
        }
    }
    for h in &obs.table {
        for d in h.discards.iter().filter(|d| !d.claimed) {
            add(d.tile);
        }
        for m in &h.melds {
            for t in m.tiles() {
                add(t);
            }
        }
    }
    if let Some(t) = obs.indicator {
        add(t);
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A Hong Kong session and seat 0's view with the concealed hand 1112233456789m, one suit
    /// (Full Flush, above Hong Kong's minimum of 3 fan): waits 1m (111 23 … reads 11 + 123),
    /// 2m, 3m, 4m (123 456 789 11 23) and 7m (… 456 78 + 9); no melds, discards or indicator.
    fn ready_view() -> (majiang::table::Session, Observation) {
        let rules = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
        let (session, _) = majiang::table::Session::new(rules, 3, Some(1)).unwrap();
        let mut obs = session.observation(Player(0));
        obs.concealed = majiang::TileCounts::parse("1234567891123m").unwrap();
        obs.extra_winds.clear();
        for h in &mut obs.table {
            h.melds.clear();
            h.discards.clear();
        }
        obs.indicator = None;
        (session, obs)
    }

    #[test]
    fn a_ready_hand_lists_its_waits_with_the_copies_not_seen() {
        let (session, mut obs) = ready_view();
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

    #[test]
    fn the_cache_works_the_hint_out_again_only_when_the_hand_changed() {
        let (session, mut obs) = ready_view();
        let rules = session.game().ruleset();
        let mut cache = HintCache::default();
        assert_eq!(cache.waits(&obs, rules), waits(&obs, rules));
        assert_eq!(cache.computed, 1);
        // The same hand again: read from the cache.
        assert_eq!(cache.waits(&obs, rules), waits(&obs, rules));
        assert_eq!(cache.computed, 1);
        // Another player discards a wait: the hand is the same, the copies unseen are not.
        let four: Tile = "4m".parse().unwrap();
        obs.table[1].discards.push(majiang::table::DiscardRecord {
            tile: four,
            claimed: false,
            gambit: false,
        });
        let fresh = waits(&obs, rules);
        assert_eq!(cache.waits(&obs, rules), fresh);
        assert_eq!(cache.computed, 1);
        assert_eq!(fresh.iter().find(|w| w.tile == four).unwrap().unseen, 2);
        // The hand changed: worked out again.
        obs.concealed = majiang::TileCounts::parse("1234567891124m").unwrap();
        assert_eq!(cache.waits(&obs, rules), waits(&obs, rules));
        assert_eq!(cache.computed, 2);
        // Another chair has a slot of its own.
        obs.player = Player(2);
        cache.waits(&obs, rules);
        assert_eq!(cache.computed, 3);
    }

    #[test]
    fn the_cache_agrees_with_the_hint_through_whole_matches() {
        // Every rule set, every chair at every step of bot-played hands: the cached waits are
        // the uncached ones.
        for name in ["hongkong", "hangzhou", "yangzhou", "classic"] {
            let rules = Arc::new(TableRules::from_name(name, &serde_json::Map::new()).unwrap());
            let (mut session, _) =
                majiang::table::Session::new(rules.clone(), 11, Some(2)).unwrap();
            let players = rules.players();
            let mut bots: Vec<_> = (0..players)
                .map(|i| majiang::bots::by_name("efficient", &rules, i as u64).unwrap())
                .collect();
            let mut cache = HintCache::default();
            let (mut steps, mut asked) = (0, 0);
            while !session.is_over() && steps < 2000 {
                steps += 1;
                if session.awaiting_deal() {
                    session.deal_next().unwrap();
                    continue;
                }
                for p in 0..players {
                    let obs = session.observation(Player(p as u8));
                    asked += 1;
                    assert_eq!(
                        cache.waits(&obs, session.game().ruleset()),
                        waits(&obs, session.game().ruleset()),
                        "{name}"
                    );
                }
                let Some(p) = session.to_act() else {
                    break;
                };
                let obs = session.observation(p);
                let a = bots[p.index()].act(&obs, &obs.legal_actions);
                session.act(p, a).unwrap();
            }
            assert!(
                cache.computed < asked / 2,
                "{name}: {} of {asked}",
                cache.computed
            );
        }
    }
}

//! Measures how often an opponent is really ready (with a hand the rule set pays for) by their
//! exposed melds and discards, in self-play of four efficient bots: the data behind each rule
//! set's [`Readiness`](crate::rules::readiness::Readiness) table. The long run prints the
//! tables (`cargo test --release -p majiang calibrate -- --ignored --nocapture`) and fails when
//! a well-observed cell no longer matches the stored one; a short run on other seeds checks in
//! every test run that the stored tables agree with a fresh sample.

use super::playout;
use crate::analysis;
use crate::bots::efficient::Planner;
use crate::bots::{self, Bot};
use crate::table::{Action, Game, HandSetup, Player, TableRules};
use crate::tile::{KINDS, Tile};
use std::sync::Arc;

/// Observations and ready opponents by exposed melds (0–4) and discards (by fours, 0–5).
struct Sample {
    seen: [[u32; 6]; 5],
    ready: [[u32; 6]; 5],
}

impl Sample {
    fn share(&self, e: usize, b: usize) -> f64 {
        f64::from(self.ready[e][b]) / f64::from(self.seen[e][b].max(1))
    }
}

/// Plays `hands` seeded hands (seeds from `first_seed`) of four efficient bots under `rules`
/// and, at every turn's decision, counts each opponent by their melds and discards and
/// whether their concealed hand is ready with a win the rule set pays for.
fn measure(rules: &Arc<TableRules>, hands: u64, first_seed: u64) -> Sample {
    let n = rules.players();
    let mut sample = Sample {
        seen: [[0; 6]; 5],
        ready: [[0; 6]; 5],
    };
    let mut legal = Vec::new();
    let mut events = Vec::new();
    for i in 0..hands {
        let setup = HandSetup {
            dealer: Player((i % n as u64) as u8),
            hand_number: i as u32,
            ..HandSetup::new(first_seed + i)
        };
        let (mut game, _) = Game::new(rules.clone(), setup).unwrap();
        let mut players: Vec<Box<dyn Bot>> = (0..n)
            .map(|k| bots::by_name("efficient", rules, i * 8 + k as u64).unwrap())
            .collect();
        while let Some(p) = game.to_act().next() {
            game.legal_actions_into(p, &mut legal);
            let obs = game.observation(p);
            let discarding = legal.iter().any(|a| matches!(a, Action::Discard(_)));
            if game.turn() == Some(p) && discarding {
                let planner = Planner::new(rules.clone(), &obs);
                let hand_rules = rules.hand_rules(obs.wildcard);
                let table = playout::Table {
                    ruleset: rules,
                    obs: &obs,
                    rules: hand_rules,
                    planner: &planner,
                    horizon: 8,
                };
                for (q, public) in obs.table.iter().enumerate() {
                    if q == p.index() {
                        continue;
                    }
                    let exposed = public.melds.iter().filter(|m| m.from.is_some()).count();
                    let (e, b) = (exposed.min(4), (public.discards.len() / 4).min(5));
                    sample.seen[e][b] += 1;
                    let hand = *game.concealed(Player(q as u8));
                    let waits = (0..KINDS).filter_map(Tile::from_index).any(|t| {
                        let mut h = hand;
                        h.add(t);
                        analysis::is_win(&h, &hand_rules)
                    });
                    if waits && table.pays(q, &hand) {
                        sample.ready[e][b] += 1;
                    }
                }
            }
            let action = players[p.index()].act(&obs, &legal);
            events.clear();
            game.apply_into(p, action, &mut events).unwrap();
        }
    }
    sample
}

/// The table a sample gives: sparse cells (under 50 observations) take their neighbours'
/// value, then the table is made to grow with melds and discards (a later or more melded
/// opponent is never less likely ready).
fn table_of(sample: &Sample) -> [[f64; 6]; 5] {
    let mut table = [[0.0f64; 6]; 5];
    for e in 0..5 {
        for b in 0..6 {
            let left = if b > 0 { table[e][b - 1] } else { 0.0 };
            let above = if e > 0 { table[e - 1][b] } else { 0.0 };
            let measured = if sample.seen[e][b] >= 50 {
                sample.share(e, b)
            } else {
                left.max(above)
            };
            table[e][b] = measured.max(left).max(above);
        }
    }
    table
}

/// Every rule set of the registry under its default house rules, with its name.
fn every_rule_set() -> impl Iterator<Item = (&'static str, Arc<TableRules>)> {
    crate::rules::RULE_SETS.iter().map(|set| {
        let rules = TableRules::with_options(*set, &serde_json::Map::new()).unwrap();
        (set.name(), Arc::new(rules))
    })
}

#[test]
#[ignore = "long: prints the measured tables"]
fn calibrate_ready_chance() {
    for (name, rules) in every_rule_set() {
        let sample = measure(&rules, 4000, 5000);
        println!("{name}: ready share / observations by exposed melds (rows), discards by fours");
        for e in 0..5 {
            let row: Vec<String> = (0..6)
                .map(|b| format!("{:.3}/{:<6}", sample.share(e, b), sample.seen[e][b]))
                .collect();
            println!("  {e}: {}", row.join(" "));
        }
        let table = table_of(&sample);
        println!("  as a table:");
        for row in table {
            let row: Vec<String> = row.iter().map(|v| format!("{v:.3}")).collect();
            println!("    [{}],", row.join(", "));
        }
        // The stored table is this measurement: a change to the efficient bot that moves a
        // well-observed cell asks for the table to be measured again.
        for (e, row) in table.iter().enumerate() {
            for (b, &cell) in row.iter().enumerate() {
                let stored = rules.set().aims().ready.chance(e, b * 4);
                if sample.seen[e][b] >= 1000 {
                    assert!(
                        (stored - cell).abs() <= 0.02,
                        "{name}: {e} melds, {} discards: stored {stored:.3}, measured {cell:.3}; \
                         paste the table above into the rule set's spec.rs",
                        b * 4
                    );
                }
            }
        }
    }
}

#[test]
fn the_stored_readiness_tables_agree_with_a_fresh_sample() {
    for (name, rules) in every_rule_set() {
        let sample = measure(&rules, 600, 70_000);
        for e in 0..5 {
            for b in 0..6 {
                let n = f64::from(sample.seen[e][b]);
                if n < 1000.0 {
                    continue;
                }
                let stored = rules.set().aims().ready.chance(e, b * 4);
                // Each opponent is seen at about a dozen decisions while their discards stay
                // in one column, so observations come in clusters: four standard errors of a
                // share of n / 12 independent ones, and a little for the smoothing.
                let allowed = 4.0 * (12.0 * stored * (1.0 - stored) / n).sqrt() + 0.02;
                let share = sample.share(e, b);
                assert!(
                    (share - stored).abs() <= allowed,
                    "{name}: {e} melds, {} discards: stored {stored:.3}, fresh {share:.3} of {n}",
                    b * 4
                );
            }
        }
    }
}

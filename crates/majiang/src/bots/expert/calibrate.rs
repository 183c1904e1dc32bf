//! Measures how often an opponent is really ready (with a hand the rule set pays for) by their
//! exposed melds and discards, in self-play of four efficient bots: the data behind
//! each rule set's [`Readiness`](crate::rules::readiness::Readiness) table. Run with
//! `cargo test --release -p majiang calibrate -- --ignored --nocapture`; it fails when a
//! well-observed cell no longer matches the stored table.

use super::playout;
use crate::bots::efficient::Planner;
use crate::bots::{self, Bot};
use crate::table::{Action, Game, HandSetup, Player, Ruleset};
use std::sync::Arc;

/// Seeded hands per rule set.
const HANDS: u64 = 4000;

#[test]
#[ignore = "long: prints the measured table"]
fn calibrate_ready_chance() {
    for name in ["hongkong", "hangzhou", "yangzhou", "classic"] {
        let rules = Arc::new(Ruleset::from_name(name, &serde_json::Map::new()).unwrap());
        let n = rules.players();
        // [exposed 0..=4][discards bucket 0..=5 by 4]
        let mut seen = [[0u32; 6]; 5];
        let mut ready = [[0u32; 6]; 5];
        for i in 0..HANDS {
            let setup = HandSetup {
                dealer: Player((i % n as u64) as u8),
                hand_number: i as u32,
                ..HandSetup::new(5000 + i)
            };
            let (mut game, _) = Game::new(rules.clone(), setup).unwrap();
            let mut players: Vec<Box<dyn Bot>> = (0..n)
                .map(|k| bots::by_name("efficient", &rules, i * 8 + k as u64).unwrap())
                .collect();
            let mut legal = Vec::new();
            let mut events = Vec::new();
            while let Some(p) = game.to_act().next() {
                game.legal_actions_into(p, &mut legal);
                let obs = game.observation(p);
                if game.turn() == Some(p) && legal.iter().any(|a| matches!(a, Action::Discard(_))) {
                    let planner = Planner::new(rules.clone(), &obs);
                    let table = playout::Table {
                        ruleset: &rules,
                        obs: &obs,
                        rules: rules.hand_rules(obs.wildcard),
                        planner: &planner,
                        horizon: 8,
                    };
                    for (q, public) in obs.table.iter().enumerate() {
                        if q == p.index() {
                            continue;
                        }
                        let exposed = public.melds.iter().filter(|m| m.from.is_some()).count();
                        let b = (public.discards.len() / 4).min(5);
                        let e = exposed.min(4);
                        seen[e][b] += 1;
                        let hand = *game.concealed(Player(q as u8));
                        let hand_rules = rules.hand_rules(obs.wildcard);
                        let waits = (0..crate::tile::KINDS)
                            .filter_map(crate::tile::Tile::from_index)
                            .any(|t| {
                                let mut h = hand;
                                h.add(t);
                                crate::analysis::is_win(&h, &hand_rules)
                            });
                        if waits && table.pays(q, &hand) {
                            ready[e][b] += 1;
                        }
                    }
                }
                let action = players[p.index()].act(&obs, &legal);
                events.clear();
                game.apply_into(p, action, &mut events).unwrap();
            }
        }
        println!("{name}: ready share by exposed melds (rows) and discards 0-3,4-7,..,20+ (cols)");
        for e in 0..5 {
            let row: Vec<String> = (0..6)
                .map(|b| {
                    if seen[e][b] == 0 {
                        "    -    ".into()
                    } else {
                        format!(
                            "{:.3}/{:<4}",
                            f64::from(ready[e][b]) / f64::from(seen[e][b]),
                            seen[e][b]
                        )
                    }
                })
                .collect();
            println!("  {e}: {}", row.join(" "));
        }
        // Sparse cells (under 50 observations) take their neighbours' value; then the table
        // is made to grow with melds and discards (a later or more melded opponent is never
        // less likely ready).
        let mut table = [[0.0f64; 6]; 5];
        for e in 0..5 {
            for b in 0..6 {
                let left = if b > 0 { table[e][b - 1] } else { 0.0 };
                let above = if e > 0 { table[e - 1][b] } else { 0.0 };
                let measured = if seen[e][b] >= 50 {
                    f64::from(ready[e][b]) / f64::from(seen[e][b])
                } else {
                    left.max(above)
                };
                table[e][b] = measured.max(left).max(above);
            }
        }
        println!("  as a table:");
        for row in table {
            let row: Vec<String> = row.iter().map(|v| format!("{v:.3}")).collect();
            println!("    [{}],", row.join(", "));
        }
        // The stored table is this measurement: a change to the efficient bot that moves a
        // well-observed cell asks for the table to be measured again.
        for e in 0..5 {
            for b in 0..6 {
                let stored = rules.kind().aims().ready.chance(e, b * 4);
                if seen[e][b] >= 1000 {
                    assert!(
                        (stored - table[e][b]).abs() <= 0.02,
                        "{name}: {e} melds, {} discards: stored {stored:.3}, measured {:.3}; \
                         paste the table above into the rule set's spec.rs",
                        b * 4,
                        table[e][b]
                    );
                }
            }
        }
    }
}

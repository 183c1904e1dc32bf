//! Whole matches with random legal actions, for every rule set.

use majiang::table::Ruleset;
use majiang::table::matches::{GreedyPolicy, play_match_limited};
use serde_json::{Map, Value, json};
use std::sync::Arc;

fn rules(name: &str, options: Value) -> Arc<Ruleset> {
    let map: Map<String, Value> = options.as_object().cloned().unwrap_or_default();
    Arc::new(Ruleset::from_name(name, &map).unwrap())
}

#[test]
fn probe() {
    for (name, o) in [
        ("hongkong", json!({})),
        ("hangzhou", json!({})),
        ("yangzhou", json!({})),
        ("classic", json!({})),
        ("hangzhou", json!({"end":"points:10"})),
    ] {
        let t = std::time::Instant::now();
        for seed in 0..5 {
            let mut pol = GreedyPolicy::new(seed);
            let (m, log) =
                play_match_limited(rules(name, o.clone()), seed, Some(2000), |g, p, a| {
                    pol.choose(g, p, a)
                })
                .unwrap();
            let wins = m
                .settlements()
                .iter()
                .filter(|s| s.outcome.winner().is_some())
                .count();
            println!(
                "{name} seed {seed}: hands {} wins {wins} reason {:?} ledger {:?} lines {}",
                m.hands_played(),
                m.end_reason(),
                m.ledger(),
                log.records.len()
            );
        }
        println!("{name}: {:?}", t.elapsed());
    }
}

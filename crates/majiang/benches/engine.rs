//! One full hand with a random policy (deal to end), per rule set.
//!
//! `cargo bench -p majiang --bench engine`. The policy picks uniformly among the legal actions
//! of a random player who must act, from a seeded generator; the engine's own work (setup,
//! legal actions, apply, scoring of wins) dominates.

use criterion::{Criterion, criterion_group, criterion_main};
use majiang::table::{Action, Game, HandSetup, Player, TableRules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::hint::black_box;
use std::sync::Arc;

fn play(rules: &Arc<TableRules>, seed: u64, rng: &mut ChaCha8Rng, buf: &mut Vec<Action>) -> bool {
    let (mut game, _) = Game::new(rules.clone(), HandSetup::new(seed)).expect("setup");
    let mut events = Vec::with_capacity(16);
    while !game.is_over() {
        let actors = game.to_act();
        let k = rng.random_range(0..actors.len());
        let p: Player = actors.clone().nth(k).expect("an actor");
        game.legal_actions_into(p, buf);
        let a = buf[rng.random_range(0..buf.len())];
        events.clear();
        game.apply_into(p, a, &mut events).expect("legal");
    }
    game.outcome().is_some()
}

fn bench(c: &mut Criterion) {
    let variants = [
        ("hongkong", "hongkong", json!({})),
        ("hangzhou", "hangzhou", json!({})),
        (
            "hangzhou-indicator",
            "hangzhou",
            json!({"wildcard": "indicator"}),
        ),
        ("yangzhou", "yangzhou", json!({})),
        ("classic", "classic", json!({})),
        ("classic-5", "classic", json!({"players": 5})),
        ("classic-6", "classic", json!({"players": 6})),
    ];
    let mut group = c.benchmark_group("random_hand");
    for (label, name, options) in variants {
        let map = options.as_object().cloned().unwrap_or_default();
        let rules = Arc::new(TableRules::from_name(name, &map).expect("rules"));
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut buf = Vec::with_capacity(32);
        let mut seed = 0u64;
        group.bench_function(label, |b| {
            b.iter(|| {
                seed += 1;
                black_box(play(&rules, seed, &mut rng, &mut buf))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

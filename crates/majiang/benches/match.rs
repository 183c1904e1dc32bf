//! A whole match with its log, and the replay of that log.
//!
//! `cargo bench -p majiang --bench match`. The match is a Hangzhou `rounds:8` match (eight
//! hands) or a classic four-player match (four hands) played by uniformly random bots through
//! a `Session`, recorded as a `MatchLog`; the replay re-reads the JSON lines and checks every record.

use criterion::{Criterion, criterion_group, criterion_main};
use majiang::bots::{Bot, RandomBot};
use majiang::driver::play_match;
use majiang::table::{TableRules, replay};
use std::hint::black_box;
use std::sync::Arc;

/// Four uniformly random bots, seeded from `seed`.
fn random_bots(seed: u64) -> Vec<Box<dyn Bot>> {
    (0..4)
        .map(|i| Box::new(RandomBot::new(seed.wrapping_add(i))) as Box<dyn Bot>)
        .collect()
}

fn bench(c: &mut Criterion) {
    for name in ["hangzhou", "classic"] {
        let rules = Arc::new(TableRules::from_name(name, &serde_json::Map::new()).expect("rules"));
        let mut seed = 0u64;
        c.bench_function(&format!("match/{name}/play+log"), |b| {
            b.iter(|| {
                seed += 1;
                let mut players = random_bots(seed);
                let (m, log) =
                    play_match(Arc::clone(&rules), seed, None, &mut players).expect("a match");
                black_box((m.hands_played(), log.records.len()))
            })
        });
        let (_, log) =
            play_match(Arc::clone(&rules), 1, None, &mut random_bots(1)).expect("a match");
        let text = log.to_jsonl();
        c.bench_function(&format!("match/{name}/write-jsonl"), |b| {
            b.iter(|| black_box(log.to_jsonl().len()))
        });
        c.bench_function(&format!("match/{name}/replay"), |b| {
            b.iter(|| black_box(replay(&text).expect("replays").actions))
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);

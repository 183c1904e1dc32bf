//! A whole match with its log, and the replay of that log.
//!
//! `cargo bench -p majiang --bench match`. The match is a Hangzhou `rounds:8` match (eight
//! hands) or a classic four-player match (four hands) played by the uniformly random policy,
//! recorded as a [`MatchLog`]; the replay re-reads the JSON lines and checks every record.

use criterion::{Criterion, criterion_group, criterion_main};
use majiang::table::Ruleset;
use majiang::table::log::replay;
use majiang::table::matches::{RandomPolicy, play_match};
use std::hint::black_box;
use std::sync::Arc;

fn bench(c: &mut Criterion) {
    for name in ["hangzhou", "classic"] {
        let rules = Arc::new(Ruleset::from_name(name, &serde_json::Map::new()).expect("rules"));
        let mut seed = 0u64;
        c.bench_function(&format!("match/{name}/play+log"), |b| {
            b.iter(|| {
                seed += 1;
                let mut policy = RandomPolicy::new(seed);
                let (m, log) =
                    play_match(Arc::clone(&rules), seed, |g, p, a| policy.choose(g, p, a))
                        .expect("a match");
                black_box((m.hands_played(), log.records.len()))
            })
        });
        let mut policy = RandomPolicy::new(1);
        let (_, log) =
            play_match(Arc::clone(&rules), 1, |g, p, a| policy.choose(g, p, a)).expect("a match");
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

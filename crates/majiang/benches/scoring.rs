//! Scoring: every hand-worked case of each rule set's data file, parsed once, scored per
//! iteration through the public entry point (`rules::score`), so the figure covers reading the
//! hand, matching the patterns and settling the payments.
//!
//! `cargo bench -p majiang --bench scoring`.

use criterion::{Criterion, criterion_group, criterion_main};
use majiang::scoring::request::ScoreRequest;
use serde_json::Value;
use std::hint::black_box;

fn requests(file: &str) -> Vec<ScoreRequest> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("case file");
    let cases: Vec<Value> = serde_json::from_str(&text).expect("a JSON array of cases");
    cases
        .iter()
        .filter_map(|c| ScoreRequest::from_json(&c["request"].to_string()).ok())
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("score_cases");
    for set in ["hongkong", "hangzhou", "yangzhou", "classic"] {
        let reqs = requests(&format!("{set}_cases.json"));
        assert!(!reqs.is_empty(), "{set}: no cases");
        group.bench_function(format!("{set} ({} cases)", reqs.len()), |b| {
            b.iter(|| {
                for r in &reqs {
                    black_box(majiang::rules::score(black_box(r)).ok());
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

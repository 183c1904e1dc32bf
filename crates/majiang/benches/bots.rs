//! Bot benchmarks: one whole hand (deal to end) per iteration, four bots of one kind, per rule
//! set. Groups `random_hand` and `efficient_hand`; hands per second = 1 / the time per
//! iteration. Run with `cargo bench -p majiang --bench bots`.

use criterion::{Criterion, criterion_group, criterion_main};
use majiang::bots::{self, Bot};
use majiang::table::{Game, HandSetup, Player, TableRules};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

fn rule_sets() -> Vec<(&'static str, Arc<TableRules>)> {
    ["hongkong", "hangzhou", "yangzhou", "classic"]
        .into_iter()
        .map(|name| {
            (
                name,
                Arc::new(TableRules::from_name(name, &serde_json::Map::new()).unwrap()),
            )
        })
        .collect()
}

/// Plays hand `i` with four bots named `bot`; returns the number of events' worth of work
/// (the winner, to keep the result alive).
fn hand(rules: &Arc<TableRules>, bot: &str, i: u64) -> Option<Player> {
    let n = rules.players();
    let setup = HandSetup {
        dealer: Player((i % n as u64) as u8),
        hand_number: i as u32,
        ..HandSetup::new(i)
    };
    let mut game = Game::new_unrecorded(rules.clone(), setup).unwrap();
    let mut players: Vec<Box<dyn Bot>> = (0..n)
        .map(|k| bots::by_name(bot, rules, i * 8 + k as u64).unwrap())
        .collect();
    bots::play_hand(&mut game, &mut players).unwrap().winner()
}

fn bench(c: &mut Criterion) {
    let sets = rule_sets();
    // Build the analysis tables before timing.
    black_box(hand(&sets[0].1, "efficient", 0));
    for bot in ["random", "efficient"] {
        let mut group = c.benchmark_group(format!("{bot}_hand"));
        group.measurement_time(Duration::from_secs(4));
        group.warm_up_time(Duration::from_millis(500));
        for (name, rules) in &sets {
            let mut i = 0u64;
            group.bench_function(*name, |b| {
                b.iter(|| {
                    i += 1;
                    black_box(hand(rules, bot, i))
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);

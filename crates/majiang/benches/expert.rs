//! The expert bot's decision time over recorded decision points of every rule set (and of
//! classic at five and six players, `classic5`, `classic6`): the turns and the offers of a chow
//! or pung (where it searches) met by efficient bots in seeded hands. Before Criterion runs, each point is timed once for every candidate budget
//! ([`BUDGETS`]: worlds per batch, the rest of [`Budget::DEFAULT`]) and the median, 99th
//! percentile and worst printed (the target is ≤ 30 ms median, ≤ 200 ms p99 on one core);
//! Criterion then times a decision per rule set at the default budget (cycling through the
//! points). Run with `cargo bench -p majiang --bench expert` (`-- percentiles`, a filter
//! matching no benchmark, prints the percentiles alone).

use criterion::{Criterion, criterion_group, criterion_main};
use majiang::bots::{self, Bot, Budget, ExpertBot};
use majiang::table::{Action, Game, HandSetup, Observation, Player, TableRules};
use std::hint::black_box;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Decision points: an observation and the legal actions.
type Points = Vec<(Observation, Vec<Action>)>;

/// Wraps a bot and keeps the observations of its own turns.
struct Recorder(Box<dyn Bot>, Arc<Mutex<Points>>);

impl Bot for Recorder {
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn act(&mut self, obs: &Observation, legal: &[Action]) -> Action {
        let claim = legal
            .iter()
            .any(|a| matches!(a, Action::Pung | Action::Chow { .. }));
        if (obs.turn == Some(obs.player) || claim) && legal.len() > 1 {
            if let Ok(mut points) = self.1.lock() {
                points.push((obs.clone(), legal.to_vec()));
            }
        }
        self.0.act(obs, legal)
    }
}

/// Decision points of `hands` seeded hands under `rules`.
fn points(rules: &Arc<TableRules>, hands: u64) -> Points {
    let store = Arc::new(Mutex::new(Vec::new()));
    let n = rules.players();
    for i in 0..hands {
        let setup = HandSetup {
            dealer: Player((i % n as u64) as u8),
            hand_number: i as u32,
            ..HandSetup::new(1000 + i)
        };
        let (mut game, _) = Game::new(rules.clone(), setup).unwrap();
        let mut players: Vec<Box<dyn Bot>> = (0..n)
            .map(|k| {
                let bot = bots::by_name("efficient", rules, i * 8 + k as u64).unwrap();
                Box::new(Recorder(bot, store.clone())) as Box<dyn Bot>
            })
            .collect();
        bots::play_hand(&mut game, &mut players).unwrap();
    }
    store.lock().map(|p| p.clone()).unwrap_or_default()
}

/// The candidate budgets timed: worlds per batch (`expert:N`).
const BUDGETS: [u32; 4] = [64, 128, 256, 512];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("expert_decision");
    group.measurement_time(Duration::from_secs(5));
    group.warm_up_time(Duration::from_millis(500));
    let tables = [
        ("hongkong", "hongkong", 4),
        ("hangzhou", "hangzhou", 4),
        ("yangzhou", "yangzhou", 4),
        ("classic", "classic", 4),
        ("classic5", "classic", 5),
        ("classic6", "classic", 6),
    ];
    for (name, set, players) in tables {
        let options = serde_json::json!({ "players": players });
        let options = if set == "classic" {
            options.as_object().cloned().unwrap_or_default()
        } else {
            serde_json::Map::new()
        };
        let rules = Arc::new(TableRules::from_name(set, &options).unwrap());
        let points = points(&rules, 12);
        for rollouts in BUDGETS {
            let budget = Budget {
                rollouts,
                ..Budget::DEFAULT
            };
            let mut bot = ExpertBot::new(rules.clone(), 7).with_budget(budget);
            let mut times: Vec<Duration> = points
                .iter()
                .map(|(obs, legal)| {
                    let start = Instant::now();
                    black_box(bot.act(obs, legal));
                    start.elapsed()
                })
                .collect();
            times.sort();
            let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
            println!(
                "{name} expert:{rollouts}: {} decision points, median {:?}, p99 {:?}, max {:?}",
                times.len(),
                at(0.5),
                at(0.99),
                at(1.0)
            );
        }
        let mut bot = ExpertBot::new(rules.clone(), 7);
        let mut k = 0usize;
        group.bench_function(name, |b| {
            b.iter(|| {
                let (obs, legal) = &points[k % points.len()];
                k += 1;
                black_box(bot.act(obs, legal))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

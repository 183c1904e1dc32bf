//! A small fixed workload for counting instructions of the engine and scoring, before and after
//! a change: 200 seeded hands of random play per rule set, then 200 scoring requests from the
//! hand-worked case files (`tests/data/*_cases.json`), each scored through `rules::score`.
//!
//! ```text
//! cargo build -p majiang --example instruction_counts
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \
//!     target/debug/examples/instruction_counts
//! ```
//!
//! The `majiang` crate is optimised in every profile (see the workspace's Cargo.toml), so a
//! debug build measures optimised engine code. It prints what it played and scored, so that
//! two runs can be seen to do the same work. The engine's part and scoring's part are each one
//! function, for callgrind to count alone: `--toggle-collect=instruction_counts::play_hands`,
//! `--toggle-collect=instruction_counts::score_all`.
//!
//! With arguments `BOT [SET] [HANDS]` it instead plays `HANDS` (default 200) hands with four
//! bots named `BOT` under `SET` (default: each of the four sets in turn), seeded as
//! `benches/bots.rs` seeds them; `--toggle-collect=instruction_counts::bot_hands` counts
//! that part alone:
//!
//! ```text
//! cargo build --release -p majiang --example instruction_counts
//! valgrind --tool=callgrind --dump-instr=no --toggle-collect=instruction_counts::bot_hands \
//!     target/release/examples/instruction_counts efficient hongkong 100
//! ```

use majiang::bots::{self, Bot};
use majiang::scoring::request::ScoreRequest;
use majiang::table::{Action, Game, HandSetup, Player, TableRules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

const SETS: [&str; 4] = ["hongkong", "hangzhou", "yangzhou", "classic"];
const HANDS: u64 = 200;
const CASES: usize = 200;

/// Plays one hand by random choices among the legal actions; true if someone won.
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
    game.outcome()
        .is_some_and(|o| format!("{o:?}").contains("Win"))
}

/// The scoring requests of the case files, read once, repeated to `CASES`.
fn requests() -> Vec<ScoreRequest> {
    let mut all = Vec::new();
    for set in SETS {
        let path = format!("{}/tests/data/{set}_cases.json", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let cases: Vec<serde_json::Value> = serde_json::from_str(&text).expect("a case list");
        all.extend(
            cases
                .iter()
                .filter_map(|c| ScoreRequest::from_json(&c["request"].to_string()).ok()),
        );
    }
    all.iter().cycle().take(CASES).cloned().collect()
}

/// The engine's part: `HANDS` hands of random play under the rule set `set`; how many won.
#[inline(never)]
fn play_hands(set: &str) -> usize {
    let mut buf = Vec::with_capacity(32);
    let rules = Arc::new(TableRules::from_name(set, &serde_json::Map::new()).expect("a rule set"));
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    (0..HANDS)
        .filter(|&seed| play(&rules, seed, &mut rng, &mut buf))
        .count()
}

/// Scoring's part: every request scored by its rule set; the valid ones and a checksum.
#[inline(never)]
fn score_all(requests: &[ScoreRequest]) -> (usize, i64) {
    let mut valid = 0;
    let mut total = 0i64;
    for r in requests {
        if let Ok(Ok(scored)) = majiang::rules::score(r) {
            valid += 1;
            total += scored.total + scored.itemised.len() as i64;
        }
    }
    (valid, total)
}

/// Hands `1..=hands` played by four bots named `bot` under `set`, seeded as the bots bench
/// seeds them; how many were won.
#[inline(never)]
fn bot_hands(set: &str, bot: &str, hands: u64) -> usize {
    let rules = Arc::new(TableRules::from_name(set, &serde_json::Map::new()).expect("a rule set"));
    let n = rules.players();
    (1..=hands)
        .filter(|&i| {
            let setup = HandSetup {
                dealer: Player((i % n as u64) as u8),
                hand_number: i as u32,
                ..HandSetup::new(i)
            };
            let mut game = Game::new_unrecorded(rules.clone(), setup).expect("setup");
            let mut players: Vec<Box<dyn Bot>> = (0..n)
                .map(|k| bots::by_name(bot, &rules, i * 8 + k as u64).expect("a bot"))
                .collect();
            let outcome = bots::play_hand(&mut game, &mut players).expect("a hand");
            outcome.winner().is_some()
        })
        .count()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(bot) = args.first() {
        let sets: Vec<&str> = match args.get(1) {
            Some(set) => vec![set.as_str()],
            None => SETS.to_vec(),
        };
        let hands = args
            .get(2)
            .map_or(HANDS, |h| h.parse().expect("a number of hands"));
        for set in sets {
            let wins = bot_hands(set, bot, hands);
            println!("{set}: {hands} hands of {bot}, {wins} won");
        }
        return;
    }
    for set in SETS {
        let wins = play_hands(set);
        println!("{set}: {HANDS} hands, {wins} won");
    }
    let requests = requests();
    let (valid, total) = score_all(&requests);
    println!(
        "{} requests scored: {valid} valid, totals and payments {total}",
        requests.len()
    );
}

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

use majiang::scoring::request::ScoreRequest;
use majiang::table::{Action, Game, HandSetup, Player, Ruleset};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

const SETS: [&str; 4] = ["hongkong", "hangzhou", "yangzhou", "classic"];
const HANDS: u64 = 200;
const CASES: usize = 200;

/// Plays one hand by random choices among the legal actions; true if someone won.
fn play(rules: &Arc<Ruleset>, seed: u64, rng: &mut ChaCha8Rng, buf: &mut Vec<Action>) -> bool {
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
    let rules = Arc::new(Ruleset::from_name(set, &serde_json::Map::new()).expect("a rule set"));
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

fn main() {
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

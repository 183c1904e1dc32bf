//! Test support: seeded hands played by four efficient bots, with a check run on each bot's
//! internals before every decision it makes (the same seeds as the fingerprint test).

use super::EfficientBot;
use crate::bots::{Bot, play_hand};
use crate::table::{Action, Game, HandSetup, Observation, Player, TableRules};
use serde_json::{Map, Value};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A check on the bot about to decide: how many comparisons it made.
pub(crate) type Check = fn(&mut EfficientBot, &Observation, &[Action]) -> usize;

/// An efficient bot that runs a check before each decision; the check works on a copy, so
/// the bot decides as it would without it.
struct Probe {
    bot: EfficientBot,
    check: Check,
    count: Arc<AtomicUsize>,
}

impl Bot for Probe {
    fn name(&self) -> &'static str {
        self.bot.name()
    }
    fn act(&mut self, obs: &Observation, legal: &[Action]) -> Action {
        let mut copy = self.bot.clone();
        let n = (self.check)(&mut copy, obs, legal);
        self.count.fetch_add(n, Ordering::Relaxed);
        self.bot.act(obs, legal)
    }
}

/// Hand `i` of the seeded hands the fingerprint test and the checks play: the dealer by turn,
/// lao 1 to 3, seed `i * 7919 + 1`.
pub(crate) fn seeded_hand(rules: &Arc<TableRules>, i: u64) -> Game {
    let n = rules.players() as u64;
    let setup = HandSetup {
        dealer: Player((i % n) as u8),
        lao: 1 + (i % 3) as u8,
        hand_number: i as u32,
        ..HandSetup::new(i * 7919 + 1)
    };
    Game::new(rules.clone(), setup).expect("a hand").0
}

/// Plays `hands` seeded hands at the table `name` with `options`, running `check` before every
/// decision of every seat; the comparisons the checks made.
pub(crate) fn each_decision(name: &str, options: Value, hands: u64, check: Check) -> usize {
    let map: Map<String, Value> = options.as_object().cloned().unwrap_or_default();
    let rules = Arc::new(TableRules::from_name(name, &map).expect("a rule set"));
    let n = rules.players();
    let count = Arc::new(AtomicUsize::new(0));
    for i in 0..hands {
        let mut game = seeded_hand(&rules, i);
        let mut bots: Vec<Box<dyn Bot>> = (0..n)
            .map(|k| {
                Box::new(Probe {
                    bot: EfficientBot::new(rules.clone(), i * 8 + k as u64),
                    check,
                    count: count.clone(),
                }) as Box<dyn Bot>
            })
            .collect();
        play_hand(&mut game, &mut bots).expect("a hand played");
    }
    count.load(Ordering::Relaxed)
}

/// The tables the checks run on: every rule set, Hangzhou with its indicator wildcard and
/// Hong Kong without flowers.
pub(crate) fn tables() -> [(&'static str, Value); 6] {
    use serde_json::json;
    [
        ("hongkong", json!({})),
        ("hongkong", json!({"flowers": false})),
        ("yangzhou", json!({})),
        ("classic", json!({})),
        ("hangzhou", json!({})),
        ("hangzhou", json!({"wildcard": "indicator"})),
    ]
}

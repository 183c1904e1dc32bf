//! The easy bot: a deliberately weaker player for newcomers, not a random one.
//!
//! It plays like the efficient bot without defence and as if the rule set had no minimum fan
//! (so in Hong Kong and Yangzhou it often builds hands it cannot declare), and on one turn in
//! five it misreads its hand and throws a random tile (never a wildcard). It always takes a
//! legal win.

use super::{Bot, EfficientBot};
use crate::table::{Action, Observation, TableRules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// One turn in `MISREAD_ONE_IN` the easy bot discards at random.
const MISREAD_ONE_IN: u32 = 5;

/// The `easy` difficulty level: see the [module documentation](self).
#[derive(Debug, Clone)]
pub struct EasyBot {
    inner: EfficientBot,
    rng: ChaCha8Rng,
}

impl EasyBot {
    /// An easy bot for a table under `ruleset`, seeded with `seed`.
    pub fn new(ruleset: Arc<TableRules>, seed: u64) -> EasyBot {
        EasyBot {
            inner: EfficientBot::new(ruleset, seed)
                .without_defence()
                .ignoring_minimum_fan(),
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x5EED_EA5E),
        }
    }
}

impl Bot for EasyBot {
    fn clone_box(&self) -> Option<Box<dyn Bot>> {
        Some(Box::new(self.clone()))
    }

    fn name(&self) -> &'static str {
        "easy"
    }

    fn act(&mut self, obs: &Observation, legal: &[Action]) -> Action {
        let my_turn = obs.turn == Some(obs.player);
        if my_turn && !legal.contains(&Action::Win) && self.rng.random_range(0..MISREAD_ONE_IN) == 0
        {
            let discards: Vec<Action> = legal
                .iter()
                .copied()
                .filter(|a| matches!(a, Action::Discard(t) if Some(*t) != obs.wildcard))
                .collect();
            if !discards.is_empty() {
                return discards[self.rng.random_range(0..discards.len())];
            }
        }
        self.inner.act(obs, legal)
    }
}

//! The random bot: a uniformly random legal action.

use super::Bot;
use crate::table::{Action, Observation};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Picks a legal action uniformly at random (a win too, only by chance). The baseline the
/// other bots are measured against, and the fastest player for fuzzing and benchmarks.
#[derive(Debug, Clone)]
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random bot seeded with `seed`.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> &'static str {
        "random"
    }

    fn act(&mut self, _obs: &Observation, legal: &[Action]) -> Action {
        match legal.len() {
            0 => Action::Pass,
            1 => legal[0],
            n => legal[self.rng.random_range(0..n)],
        }
    }

    fn needs_observation(&self) -> bool {
        false
    }
}

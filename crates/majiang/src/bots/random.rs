//! The random bot: a uniformly random legal action.

use super::Bot;
use crate::table::{Action, LegalSet, Observation};
use rand::{RngCore, SeedableRng};
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

/// `rng.random_range(0..n)` for `0 < n <= u32::MAX`, the same draws and the same answer as
/// rand 0.9 works it out (`UniformUsize::sample_single` on a range that fits in 32 bits:
/// Canon's widening multiply, with a second draw only when the low word is near the top),
/// written out here so that it inlines into [`RandomBot::act`]: rand's own stays a call.
/// The test below holds it to rand's answer.
#[inline]
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    debug_assert!(n > 0 && u32::try_from(n).is_ok());
    let range = n as u32;
    let wide = u64::from(rng.next_u32()) * u64::from(range);
    let (mut result, lo) = ((wide >> 32) as u32, wide as u32);
    if lo > range.wrapping_neg() {
        let new_hi = ((u64::from(rng.next_u32()) * u64::from(range)) >> 32) as u32;
        result += u32::from(lo.checked_add(new_hi).is_none());
    }
    result as usize
}

impl Bot for RandomBot {
    fn clone_box(&self) -> Option<Box<dyn Bot>> {
        Some(Box::new(self.clone()))
    }

    fn name(&self) -> &'static str {
        "random"
    }

    fn act(&mut self, _obs: &Observation, legal: &[Action]) -> Action {
        match legal.len() {
            0 => Action::Pass,
            1 => legal[0],
            n => legal[below(&mut self.rng, n)],
        }
    }

    /// The same draw as [`RandomBot::act`] on the list: one below the number of actions.
    fn choose(&mut self, legal: &LegalSet) -> Option<Action> {
        match legal.len() {
            0 => Some(Action::Pass),
            1 => legal.get(0),
            n => legal.get(below(&mut self.rng, n)),
        }
    }

    fn needs_observation(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Game, HandSetup, TableRules};
    use rand::Rng;
    use std::sync::Arc;

    #[test]
    fn below_draws_as_rand_does() {
        // Small ranges as the legal actions give them, and large ones where the second draw
        // comes up often.
        let sizes = (1..40).chain([1 << 20, (1 << 31) + 12_345, u32::MAX as usize]);
        for n in sizes {
            let mut ours = ChaCha8Rng::seed_from_u64(n as u64);
            let mut theirs = ours.clone();
            for _ in 0..2_000 {
                assert_eq!(below(&mut ours, n), theirs.random_range(0..n), "n = {n}");
            }
            assert_eq!(
                ours.next_u64(),
                theirs.next_u64(),
                "n = {n}: the same draws"
            );
        }
    }

    /// `choose` on the set and `act` on the list make the same draw and the same choice at
    /// every decision of random play, so both ways of asking play the same game.
    #[test]
    fn choosing_from_the_set_is_acting_on_the_list() {
        let mut decisions = 0;
        for name in ["hongkong", "hangzhou", "yangzhou", "classic"] {
            let rules = Arc::new(TableRules::from_name(name, &serde_json::Map::new()).unwrap());
            let obs = crate::bots::empty_observation();
            for h in 0..40u64 {
                let (mut game, _) = Game::new(rules.clone(), HandSetup::new(h)).unwrap();
                let mut bot = RandomBot::new(h);
                while let Some(p) = game.to_act().next() {
                    let legal = game.legal_actions(p);
                    let mut by_list = bot.clone();
                    let chosen = bot.choose(&game.legal_set(p));
                    assert_eq!(chosen, Some(by_list.act(&obs, &legal)), "{name} hand {h}");
                    assert_eq!(bot.rng.next_u64(), by_list.rng.next_u64(), "the same draws");
                    game.apply(p, chosen.unwrap_or(Action::Pass)).unwrap();
                    decisions += 1;
                }
            }
        }
        assert!(decisions > 5_000, "{decisions}");
    }
}

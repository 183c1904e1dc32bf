//! Dice: every roll at the table comes from the hand's (or match's) seeded random stream.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Rolls `dice` six-sided dice.
pub(crate) fn roll(rng: &mut ChaCha8Rng, dice: u8) -> Vec<u8> {
    (0..dice).map(|_| rng.random_range(1..=6u8)).collect()
}

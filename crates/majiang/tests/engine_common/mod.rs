//! Helpers shared by the engine's random-play tests: an illegal action at random, and the
//! observation model ([`view`]) that rebuilds each seat's view from its events.

#![allow(dead_code)] // each test crate uses its own subset

pub mod view;

use majiang::Tile;
use majiang::table::Action;
use rand::Rng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// An action certainly not legal now (not in `legal`), chosen at random over every tile,
/// bonus tiles included, and every kind of action.
pub fn random_illegal(legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
    let all: Vec<Tile> = Tile::all().chain(Tile::bonus_tiles()).collect();
    loop {
        let t = *all.choose(rng).unwrap();
        let a = match rng.random_range(0..8) {
            0 => Action::Discard(t),
            1 => Action::Pung,
            2 => Action::Kong,
            3 => Action::ConcealedKong(t),
            4 => Action::AddedKong(t),
            5 => Action::Win,
            6 => Action::Pass,
            _ => {
                let i = t.index().min(39);
                Action::Chow {
                    tiles: [i, i + 1, i + 2].map(|k| Tile::from_index(k).unwrap()),
                }
            }
        };
        if !legal.contains(&a) {
            return a;
        }
    }
}

//! Helpers shared by the engine's tests: a rule set by name, tiles in notation, an action that
//! must be accepted, an illegal action at random (the observation model that rebuilds each
//! seat's view from its events is [`crate::observation`]).

use majiang::table::{Action, Event, Game, Player, TableRules};
use majiang::{Tile, parse_tiles};
use rand::Rng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The rule set `name` with the JSON object `options` (a test's own input: panics if refused).
pub fn ruleset(name: &str, options: serde_json::Value) -> Arc<TableRules> {
    let map = options.as_object().cloned().unwrap_or_default();
    Arc::new(TableRules::from_name(name, &map).unwrap_or_else(|e| panic!("{name} {options}: {e}")))
}

/// Tiles in notation, whitespace ignored (`"123m 4p"`); an empty string is no tiles.
pub fn tiles(s: &str) -> Vec<Tile> {
    let s: String = s.split_whitespace().collect();
    if s.is_empty() {
        Vec::new()
    } else {
        parse_tiles(&s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }
}

/// One tile in notation (`"5m"`).
pub fn tile(s: &str) -> Tile {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e:?}"))
}

/// Applies an action the test expects to be legal, then checks the game's invariants; a refusal
/// panics naming the legal actions.
pub fn act(g: &mut Game, p: Player, a: Action) -> Vec<Event> {
    let events = g
        .apply(p, a)
        .unwrap_or_else(|e| panic!("{p} {a}: {e}; legal {:?}", g.legal_actions(p)));
    g.check_invariants().unwrap();
    events
}

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

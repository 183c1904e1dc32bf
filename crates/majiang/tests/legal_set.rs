//! `Game::legal_set` against `Game::legal_actions`: random legal play under every table
//! variant (extra winds at five and six players, Fortune Gambit runs, kongs and robbing), and at
//! every step, for every player, the set holds the listed actions in the listed order and
//! answers `contains` as the list does for every action there is.

use majiang::table::{Action, Game, HandSetup, LegalSet, Player, TableRules};
use majiang::tile::Tile;
use majiang_testkit::engine::ruleset;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::sync::Arc;

fn variants() -> Vec<(&'static str, Arc<TableRules>)> {
    vec![
        ("hongkong", ruleset("hongkong", json!({}))),
        ("hangzhou", ruleset("hangzhou", json!({}))),
        (
            "hangzhou-indicator",
            ruleset("hangzhou", json!({"wildcard": "indicator"})),
        ),
        ("yangzhou-chow", ruleset("yangzhou", json!({"chow": true}))),
        ("classic-3", ruleset("classic", json!({"players": 3}))),
        ("classic-4", ruleset("classic", json!({}))),
        ("classic-5", ruleset("classic", json!({"players": 5}))),
        ("classic-6", ruleset("classic", json!({"players": 6}))),
    ]
}

/// Every action there is: each tile discarded, konged concealed or added, every chow shape of
/// every suit, and the tile-less answers.
fn every_action() -> Vec<Action> {
    let tiles: Vec<Tile> = Tile::all().chain(Tile::bonus_tiles()).collect();
    let mut all = vec![Action::Win, Action::Pass, Action::Pung, Action::Kong];
    for &t in &tiles {
        all.extend([
            Action::Discard(t),
            Action::ConcealedKong(t),
            Action::AddedKong(t),
        ]);
    }
    let playing: Vec<Tile> = Tile::all().collect();
    for w in playing.windows(3) {
        all.push(Action::Chow {
            tiles: [w[0], w[1], w[2]],
        });
    }
    all
}

/// What a set was seen to hold, so the test can say it reached the rare decisions.
#[derive(Default)]
struct Seen {
    added_kongs: usize,
    concealed_kongs: usize,
    chows: usize,
    extra_wind_discards: usize,
    steps: usize,
}

fn agree(game: &Game, p: Player, set: &LegalSet, all: &[Action], seen: &mut Seen, at: &str) {
    let listed = game.legal_actions(p);
    assert_eq!(set.len(), listed.len(), "{at}: len of {p}: {listed:?}");
    assert_eq!(set.is_empty(), listed.is_empty(), "{at}");
    for (i, &a) in listed.iter().enumerate() {
        assert_eq!(set.get(i), Some(a), "{at}: action {i} of {p}: {listed:?}");
    }
    assert_eq!(set.get(listed.len()), None, "{at}: past the end");
    assert!(set.iter().eq(listed.iter().copied()), "{at}: iter");
    for &a in all {
        assert_eq!(
            set.contains(a),
            listed.contains(&a),
            "{at}: contains({a}) for {p}: {listed:?}"
        );
    }
    for a in &listed {
        match a {
            Action::AddedKong(_) => seen.added_kongs += 1,
            Action::ConcealedKong(_) => seen.concealed_kongs += 1,
            Action::Chow { .. } => seen.chows += 1,
            Action::Discard(t) if t.is_bonus() => seen.extra_wind_discards += 1,
            _ => {}
        }
    }
}

#[test]
fn the_set_is_the_list_at_every_step_of_random_play() {
    let all = every_action();
    let mut seen = Seen::default();
    for (name, rules) in variants() {
        let n = rules.players();
        let mut rng = ChaCha8Rng::seed_from_u64(41);
        for h in 0..150u64 {
            let setup = HandSetup {
                dealer: Player((h % n as u64) as u8),
                hand_number: h as u32,
                ..HandSetup::new(h * 31 + 5)
            };
            let (mut game, _) = Game::new(rules.clone(), setup).unwrap();
            while !game.is_over() {
                seen.steps += 1;
                for q in 0..n {
                    let q = Player(q as u8);
                    let at = format!("{name} hand {h} step {}", seen.steps);
                    agree(&game, q, &game.legal_set(q), &all, &mut seen, &at);
                }
                let p = game.to_act().next().expect("someone acts");
                let legal = game.legal_actions(p);
                // Pungs and kongs more often than chance would take them, to reach added and
                // concealed kongs (and the robbing and replacement draws behind them).
                let pick = legal
                    .iter()
                    .copied()
                    .find(|a| {
                        matches!(
                            a,
                            Action::Pung
                                | Action::Kong
                                | Action::AddedKong(_)
                                | Action::ConcealedKong(_)
                        ) && rng.random_bool(0.7)
                    })
                    .unwrap_or_else(|| legal[rng.random_range(0..legal.len())]);
                game.apply(p, pick).expect("a listed action");
            }
        }
    }
    assert!(seen.steps > 10_000, "{} steps", seen.steps);
    for (what, count) in [
        ("added kongs", seen.added_kongs),
        ("concealed kongs", seen.concealed_kongs),
        ("chows", seen.chows),
        ("extra-wind discards", seen.extra_wind_discards),
    ] {
        assert!(count > 20, "random play reached too few {what}: {count}");
    }
}

#[test]
fn nobody_else_has_anything_in_the_set() {
    let rules = ruleset("hongkong", json!({}));
    let (game, _) = Game::new(rules, HandSetup::new(3)).unwrap();
    let dealer = game.dealer();
    for q in 0..4 {
        let q = Player(q);
        let set = game.legal_set(q);
        assert_eq!(set.is_empty(), q != dealer);
        assert_eq!(set.get(0).is_some(), q == dealer);
    }
    // A chair not at the table.
    let set = game.legal_set(Player(5));
    assert!(set.is_empty());
    assert_eq!(set.get(0), None);
    assert!(!set.contains(Action::Pass));
}

//! Random legal play under every rule set, checking the engine's invariants after every step:
//! tiles conserved, hand sizes, no illegal action accepted (and a refused one changes
//! nothing), every hand ends. `cargo test` plays a few thousand hands per rule set; the long
//! runs (`--ignored`) play 100 000.

use majiang::table::{Action, Game, HandOutcome, HandSetup, Player, TableRules};
use majiang_testkit::engine::{random_illegal, ruleset};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::sync::Arc;

/// Every table variant the issue names, and classic with flowers.
fn variants() -> Vec<(&'static str, Arc<TableRules>)> {
    vec![
        ("hongkong", ruleset("hongkong", json!({}))),
        (
            "hongkong-noflowers",
            ruleset("hongkong", json!({"flowers": false})),
        ),
        ("hangzhou-white", ruleset("hangzhou", json!({}))),
        (
            "hangzhou-indicator",
            ruleset("hangzhou", json!({"wildcard": "indicator"})),
        ),
        ("yangzhou", ruleset("yangzhou", json!({}))),
        ("yangzhou-chow", ruleset("yangzhou", json!({"chow": true}))),
        ("classic-4", ruleset("classic", json!({}))),
        ("classic-3", ruleset("classic", json!({"players": 3}))),
        (
            "classic-flowers",
            ruleset("classic", json!({"flowers": true})),
        ),
    ]
}

struct Stats {
    hands: usize,
    wins: usize,
    steps: usize,
}

/// Plays `hands` hands with random legal actions, checking invariants at every step.
fn fuzz(name: &str, rules: &Arc<TableRules>, hands: usize, seed: u64) -> Stats {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut stats = Stats {
        hands: 0,
        wins: 0,
        steps: 0,
    };
    let mut legal = Vec::new();
    let n = rules.players();
    for h in 0..hands {
        let setup = HandSetup {
            dealer: Player((h % n) as u8),
            lao: 1 + (h % 4) as u8,
            hand_number: h as u32,
            ..HandSetup::new(seed ^ 0x9e37_79b9)
        };
        let (mut game, _) = Game::new(rules.clone(), setup).unwrap();
        game.check_invariants()
            .unwrap_or_else(|e| panic!("{name} hand {h} after the deal: {e}"));
        let mut steps = 0;
        let mut fresh = true;
        while !game.is_over() {
            steps += 1;
            assert!(steps < 1000, "{name} hand {h} does not end");
            let actors: Vec<Player> = game.to_act().collect();
            assert!(!actors.is_empty(), "{name}: nobody to act");
            // Players not asked have nothing legal.
            for q in 0..n {
                let q = Player(q as u8);
                game.legal_actions_into(q, &mut legal);
                assert_eq!(
                    legal.is_empty(),
                    !actors.contains(&q),
                    "{name} hand {h}: legal actions of {q} disagree with to_act"
                );
            }
            // Win legality is the real scorer's answer: no win missed, none offered wrongly
            // (checked on the first hands only, as scoring every seat is slow, and only before
            // anyone has answered the tile on offer).
            if h < 1_000 && fresh {
                for q in 0..n {
                    let q = Player(q as u8);
                    let Some(situation) = game.win_situation(q) else {
                        continue;
                    };
                    let expect = rules.score(&situation).is_ok()
                        && !(game.gambit_round().is_some() && game.turn() != Some(q));
                    game.legal_actions_into(q, &mut legal);
                    assert_eq!(
                        legal.contains(&Action::Win),
                        expect,
                        "{name} hand {h}: win for {q} {:?} {} {:?} {:?}",
                        rules.score(&situation),
                        situation.concealed,
                        situation.winning_tile,
                        situation.melds
                    );
                }
            }
            let p = *actors.choose(&mut rng).unwrap();
            game.legal_actions_into(p, &mut legal);
            // Now and then try something illegal: refused, nothing changed.
            if rng.random_bool(0.1) {
                let bad = random_illegal(&legal, &mut rng);
                let before = game.clone();
                assert!(
                    game.apply(p, bad).is_err(),
                    "{name} hand {h}: illegal {bad} accepted"
                );
                assert!(game == before, "{name}: a refused action changed the game");
                let other = Player(((p.index() + 1 + rng.random_range(0..n - 1)) % n) as u8);
                if !actors.contains(&other) {
                    assert!(game.apply(other, legal[0]).is_err());
                    assert!(game == before);
                }
            }
            // Prefer winning a little, so wins show up; otherwise uniform.
            let action = if legal.contains(&Action::Win) && rng.random_bool(0.5) {
                Action::Win
            } else {
                *legal.choose(&mut rng).unwrap()
            };
            game.apply(p, action)
                .unwrap_or_else(|e| panic!("{name} hand {h}: legal {action} refused: {e}"));
            fresh = game.turn().is_some()
                || matches!(action, Action::Discard(_) | Action::AddedKong(_));
            game.check_invariants()
                .unwrap_or_else(|e| panic!("{name} hand {h} after {p} {action}: {e}"));
        }
        stats.steps += steps;
        stats.hands += 1;
        match game.outcome() {
            Some(HandOutcome::Win { scored, .. }) => {
                stats.wins += 1;
                let sum: i64 = scored.payments.iter().sum();
                assert!(sum <= 0, "{name}: payments create chips: {sum}");
            }
            Some(HandOutcome::ExhaustiveDraw) => {}
            None => panic!("{name}: over without an outcome"),
        }
    }
    stats
}

#[test]
fn random_play_keeps_the_invariants() {
    for (i, (name, rules)) in variants().iter().enumerate() {
        let s = fuzz(name, rules, 5_000, 1000 + i as u64);
        assert_eq!(s.hands, 5_000);
        assert!(s.wins > 0, "{name}: no hand was won in {} hands", s.hands);
        eprintln!(
            "{name}: {} hands, {} won, {:.1} steps a hand",
            s.hands,
            s.wins,
            s.steps as f64 / s.hands as f64
        );
    }
}

#[test]
#[ignore = "long run: 100 000 hands per rule set"]
fn random_play_keeps_the_invariants_long() {
    for (i, (name, rules)) in variants().iter().enumerate() {
        let s = fuzz(name, rules, 100_000, 5000 + i as u64);
        eprintln!("{name}: {} hands, {} won", s.hands, s.wins);
    }
}

//! The last discard (RULES.md §1): after the live wall's last tile is drawn, its discard may be
//! claimed only to win, in every rule set and at every table size it seats; so claims never
//! chain on once the wall is empty, and the hand ends when nobody wins on it.

use majiang::rules::RULE_SETS;
use majiang::table::{
    Action, ActionError, Event, Game, HandOutcome, HandSetup, IllegalReason, Player,
};
use majiang_testkit::engine::ruleset;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::json;

/// What the hands of one table met at their last discards.
#[derive(Default)]
struct Seen {
    /// Last discards made.
    last_discards: usize,
    /// Seats that held two or more of a last discard's kind (a pung the old rules offered).
    could_have_punged: usize,
}

/// Checks the table at a discard made with the live wall empty: nobody is offered anything but
/// a win or a pass, a pung is refused naming the rule, and with nobody to win the hand is over.
fn check_last_discard(g: &Game, discarder: Player, tile: majiang::Tile, seen: &mut Seen) {
    seen.last_discards += 1;
    let n = g.players();
    for q in (0..n).map(|i| Player(i as u8)).filter(|&q| q != discarder) {
        let legal = g.legal_actions(q);
        assert!(
            legal
                .iter()
                .all(|a| matches!(a, Action::Win | Action::Pass)),
            "{q} on the last discard {tile}: {legal:?}"
        );
        let held = tile.index() < majiang::tile::KINDS
            && Some(tile) != g.wildcard()
            && g.concealed(q).get(tile) >= 2;
        if held {
            seen.could_have_punged += 1;
            match g.check(q, Action::Pung) {
                Err(ActionError::Illegal {
                    reason: IllegalReason::LastDiscard,
                    ..
                }) => {}
                // Nobody could win on it: the hand ended at once.
                Err(ActionError::HandOver) => {
                    assert_eq!(g.outcome(), Some(&HandOutcome::ExhaustiveDraw));
                }
                other => panic!("{q} pung on the last discard {tile}: {other:?}"),
            }
        }
    }
    if g.on_offer().is_none() {
        assert!(g.is_over(), "nobody is asked: the hand is drawn");
    }
}

/// Plays a hand on seed `seed`: every offer passed (so the wall runs out), random discards (no
/// kongs), every discard made on an empty live wall checked.
fn play(name: &str, players: u8, seed: u64, seen: &mut Seen) {
    let r = ruleset(name, json!({"players": players}));
    let (mut g, _) = Game::new(r, HandSetup::new(seed)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut last_discards = 0;
    while !g.is_over() {
        let p = g.to_act().next().unwrap();
        let legal = g.legal_actions(p);
        let action = if legal.contains(&Action::Pass) {
            Action::Pass
        } else {
            let discards: Vec<Action> = legal
                .iter()
                .copied()
                .filter(|a| matches!(a, Action::Discard(_)))
                .collect();
            *discards
                .choose(&mut rng)
                .unwrap_or_else(|| legal.choose(&mut rng).unwrap())
        };
        // A discard's first event is the discard itself: made on the wall as it is now (a
        // draw the same action causes comes after it).
        let live = g.live_remaining();
        let events = g.apply(p, action).unwrap();
        g.check_invariants().unwrap();
        if let (0, Some(Event::Discarded { player, tile, .. })) = (live, events.first()) {
            last_discards += 1;
            check_last_discard(&g, *player, *tile, seen);
        }
    }
    // Claims never chain on: at most one discard is made on an empty wall.
    assert!(last_discards <= 1, "{name} {players}: {last_discards}");
}

#[test]
fn the_last_discard_is_offered_only_as_a_win_in_every_rule_set_and_table_size() {
    for set in RULE_SETS {
        let spec = set.spec();
        for players in spec.seat_counts() {
            let mut seen = Seen::default();
            for seed in 0..150 {
                play(spec.name, players, seed, &mut seen);
            }
            // The check can fail: the hands met last discards that the old rules let a
            // seat pung.
            eprintln!(
                "{} {players}: {} last discards, {} seats that could have punged",
                spec.name, seen.last_discards, seen.could_have_punged
            );
            assert!(seen.last_discards >= 50, "{} {players}", spec.name);
            assert!(
                seen.could_have_punged >= 1,
                "{} {players}: no last discard a seat could have punged",
                spec.name
            );
        }
    }
}

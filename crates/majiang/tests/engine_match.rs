//! Whole matches for every rule set, played by seeded bots (the efficient one, which wins
//! often, and the uniformly random one): the ledger, the dealer rotation, the prevailing wind, lao
//! counting and the end of the match are checked hand by hand against the rules, written out
//! again here independently of `matches.rs`.

use majiang::Wind;
use majiang::bots::{self, Bot};
use majiang::driver::play_match;
use majiang::scoring::WinKind;
use majiang::table::log::{LogRecord, MatchLog};
use majiang::table::matches::{Deal, EndReason, Match, MatchError, Settlement};
use majiang::table::{Action, DicePurpose, Event, HandOutcome, Observation, Player, TableRules};
use majiang_testkit::engine::ruleset;
use serde_json::json;
use std::sync::Arc;

/// One bot named `name` per chair, seeded from `seed`.
fn seated(r: &Arc<TableRules>, name: &str, seed: u64) -> Vec<Box<dyn Bot>> {
    (0..r.players() as u64)
        .map(|i| bots::by_name(name, r, seed.wrapping_add(i)).unwrap())
        .collect()
}

/// A match played by efficient bots, with its log.
fn greedy(r: &Arc<TableRules>, seed: u64) -> (Match, MatchLog) {
    let mut players = seated(r, "efficient", seed ^ 0xABCD);
    play_match(Arc::clone(r), seed, None, &mut players).unwrap()
}

fn dealer_won(s: &Settlement) -> bool {
    s.outcome.winner() == Some(s.deal.dealer)
}

fn next_chair(p: Player, n: usize) -> Player {
    Player(((p.index() + 1) % n) as u8)
}

/// Checks what every match must satisfy: the ledger is the running sum of the payments (from
/// the starting chips), payments sum to zero except for what the zero floor left uncollected,
/// `next` is the following hand's deal, and each hand was played with the deal the match said
/// (its `HandStarted` event).
fn check_common(m: &Match, log: &MatchLog, start: i64) {
    let n = m.players();
    let s = m.settlements();
    assert_eq!(s.len() as u32, m.hands_played());
    assert!(m.is_over());
    let mut ledger = vec![start; n];
    let mut uncollected = 0;
    for (i, h) in s.iter().enumerate() {
        assert_eq!(h.hand_number, i as u32 + 1);
        assert_eq!(h.payments, h.outcome.payments(n));
        let sum: i64 = h.payments.iter().sum();
        assert_eq!(h.uncollected, -sum);
        assert!(h.uncollected >= 0, "hand {}: more paid out than in", i + 1);
        match &h.outcome {
            HandOutcome::ExhaustiveDraw => assert!(h.payments.iter().all(|&p| p == 0)),
            HandOutcome::Win { winner, .. } => {
                // Classic losers settle among themselves too: only the winner's sign is fixed.
                let classic = m.ruleset().name() == "classic";
                for (c, &p) in h.payments.iter().enumerate() {
                    if c == winner.index() {
                        assert!(p >= 0);
                    } else if !classic {
                        assert!(p <= 0);
                    }
                }
            }
        }
        uncollected += h.uncollected;
        for (l, p) in ledger.iter_mut().zip(&h.payments) {
            *l += p;
        }
        assert_eq!(h.ledger, ledger, "hand {}", i + 1);
        match s.get(i + 1) {
            Some(next) => assert_eq!(h.next, Some(next.deal)),
            None => assert_eq!(h.next, None),
        }
        assert_eq!(h.ended.is_some(), i + 1 == s.len());
    }
    assert_eq!(m.ledger(), &ledger[..]);
    assert_eq!(m.uncollected(), uncollected);
    assert_eq!(
        m.ledger().iter().sum::<i64>(),
        start * n as i64 - uncollected
    );
    // Each hand started with the deal of its settlement.
    let started: Vec<Deal> = log
        .records
        .iter()
        .filter_map(|r| match r {
            LogRecord::Event {
                event:
                    Event::HandStarted {
                        dealer,
                        prevailing_wind,
                        lao,
                        ..
                    },
                ..
            } => Some(Deal {
                dealer: *dealer,
                prevailing_wind: *prevailing_wind,
                lao: *lao,
            }),
            _ => None,
        })
        .collect();
    let deals: Vec<Deal> = s.iter().map(|h| h.deal).collect();
    assert_eq!(started, deals);
    // Standings: every chair once, best first.
    let st = m.standings();
    assert_eq!(st.len(), n);
    assert!(st.windows(2).all(|w| w[0].points >= w[1].points));
    assert_eq!(st[0].rank, 1);
}

/// Hong Kong and Yangzhou: the deal passes to the next seat unless the dealer won (Hong Kong:
/// or the hand was drawn); the wind moves on each time the deal has gone round the table; the
/// match ends exactly when the deal has gone round four times.
fn check_winds(m: &Match, stay_on_draw: bool) {
    let n = m.players();
    let s = m.settlements();
    assert_eq!(s[0].deal.dealer, m.first_dealer());
    let mut passes = 0;
    for (i, h) in s.iter().enumerate() {
        assert_eq!(
            h.deal.prevailing_wind,
            Wind::ALL[passes / n],
            "hand {}",
            i + 1
        );
        assert_eq!(h.deal.lao, 1);
        let stay = dealer_won(h) || (stay_on_draw && h.outcome.winner().is_none());
        if !stay {
            passes += 1;
        }
        if let Some(next) = s.get(i + 1) {
            let want = if stay {
                h.deal.dealer
            } else {
                next_chair(h.deal.dealer, n)
            };
            assert_eq!(next.deal.dealer, want, "dealer after hand {}", i + 1);
        }
        assert_eq!(passes == 4 * n, i + 1 == s.len(), "hand {}", i + 1);
    }
    assert_eq!(m.end_reason(), Some(EndReason::DealRounds));
    // The deal came back to the first dealer at each new wind.
    for w in 1..4 {
        let first = s
            .iter()
            .find(|h| h.deal.prevailing_wind == Wind::ALL[w])
            .unwrap();
        assert_eq!(first.deal.dealer, m.first_dealer());
    }
}

/// Hangzhou: dealer win or draw keeps the dealer at lao + 1; another winner deals next at 1.
fn check_lao(m: &Match, first_lao: u8) {
    let s = m.settlements();
    assert_eq!(s[0].deal.lao, first_lao);
    assert_eq!(s[0].deal.dealer, m.first_dealer());
    for w in s.windows(2) {
        let (h, next) = (&w[0], &w[1]);
        assert_eq!(next.deal.prevailing_wind, Wind::East);
        match h.outcome.winner() {
            Some(winner) if winner != h.deal.dealer => {
                assert_eq!((next.deal.dealer, next.deal.lao), (winner, 1));
            }
            _ => assert_eq!(
                (next.deal.dealer, next.deal.lao),
                (h.deal.dealer, h.deal.lao + 1)
            ),
        }
    }
}

#[test]
fn hong_kong_four_winds() {
    for seed in 1..=6u64 {
        let options = if seed % 2 == 0 {
            json!({"flowers": false})
        } else {
            json!({})
        };
        let r = ruleset("hongkong", options);
        let (m, log) = greedy(&r, seed);
        check_common(&m, &log, 0);
        check_winds(&m, true);
        let s = m.settlements();
        assert!(s.len() >= 16);
        assert!(s.iter().any(dealer_won), "seed {seed}: some dealer win");
        assert!(s.iter().any(|h| h.outcome.winner().is_none()));
        // Zero-sum.
        assert!(s.iter().all(|h| h.uncollected == 0));
    }
}

#[test]
fn yangzhou_four_winds() {
    for seed in 3..=8u64 {
        let options = if seed % 2 == 0 {
            json!({"chow": true, "min_fan": 1})
        } else {
            json!({})
        };
        let r = ruleset("yangzhou", options);
        let (m, log) = greedy(&r, seed);
        check_common(&m, &log, 0);
        check_winds(&m, false);
        assert!(m.settlements().iter().all(|h| h.uncollected == 0));
    }
    // With a low minimum, wins (dealer's and others') happen and rotate the deal.
    let r = ruleset("yangzhou", json!({"chow": true, "min_fan": 1}));
    let (m, _) = greedy(&r, 4);
    assert!(m.settlements().iter().any(|h| h.outcome.winner().is_some()));
}

#[test]
fn classic_every_seat_deals_once() {
    for players in [3u8, 4, 5, 6] {
        for seed in 0..3 {
            let r = ruleset("classic", json!({"players": players}));
            let (m, log) = greedy(&r, seed);
            check_common(&m, &log, 0);
            let n = usize::from(players);
            let s = m.settlements();
            assert_eq!(s.len(), n);
            for (i, h) in s.iter().enumerate() {
                assert_eq!(
                    h.deal.dealer,
                    Player(((m.first_dealer().index() + i) % n) as u8)
                );
                assert_eq!(h.deal.prevailing_wind, Wind::East);
                assert_eq!(h.uncollected, 0);
            }
            assert_eq!(m.end_reason(), Some(EndReason::DealRounds));
            majiang::table::replay(&log.to_jsonl())
                .unwrap_or_else(|e| panic!("{players} players, seed {seed}: {e}"));
        }
    }
}

#[test]
fn hangzhou_rounds_is_hands() {
    for (end, hands) in [("rounds:8", 8), ("rounds:16", 16), ("rounds:3", 3)] {
        for seed in 0..3 {
            let r = ruleset("hangzhou", json!({"end": end}));
            let (m, log) = greedy(&r, seed);
            check_common(&m, &log, 0);
            check_lao(&m, 1);
            assert_eq!(m.hands_played(), hands);
            assert_eq!(m.end_reason(), Some(EndReason::Hands));
        }
    }
    // Lao climbs on dealer wins and draws (greedy play with uniform claims gives both).
    let r = ruleset(
        "hangzhou",
        json!({"end": "rounds:16", "wildcard": "indicator"}),
    );
    let mut seen_lao2 = false;
    for seed in 0..6 {
        let (m, log) = greedy(&r, seed);
        check_common(&m, &log, 0);
        check_lao(&m, 1);
        seen_lao2 |= m.settlements().iter().any(|h| h.deal.lao >= 2);
    }
    assert!(seen_lao2);
}

#[test]
fn hangzhou_points_and_the_zero_floor() {
    let mut floor_hits = 0;
    for seed in 0..40 {
        // Base 2 against 5 points: shares of 2 and 4 leave odd balances, so the floor bites.
        let r = ruleset("hangzhou", json!({"end": "points:5", "base": 2}));
        let (m, log) = greedy(&r, seed);
        check_common(&m, &log, 5);
        check_lao(&m, 1);
        let s = m.settlements();
        // The match ends after the first hand not won by the dealer with someone at 0 or below.
        for (i, h) in s.iter().enumerate() {
            let ends = !dealer_won(h) && h.ledger.iter().any(|&x| x <= 0);
            assert_eq!(ends, i + 1 == s.len(), "seed {seed} hand {}", i + 1);
        }
        assert_eq!(m.end_reason(), Some(EndReason::Points));
        // The floor: nobody pays more than they hold, and a player at 0 or below pays nothing.
        // The scorer hands the winner only what is collected, so the ledger stays whole (the
        // winner's loss is the shortfall): for plain self-drawn wins (no three-meld penalty)
        // each share is recomputed here and checked against the floor.
        let mut before = vec![5i64; 4];
        for h in s {
            for (c, &p) in h.payments.iter().enumerate() {
                if p < 0 {
                    assert!(-p <= before[c].max(0), "seed {seed}: paid below zero");
                }
                if before[c] <= 0 {
                    assert!(p >= 0, "seed {seed}: a player at zero paid");
                }
            }
            if let HandOutcome::Win {
                winner,
                win: WinKind::SelfDraw,
                scored,
                ..
            } = &h.outcome
            {
                let owed: Vec<i64> = (0..4)
                    .map(|c| match c {
                        c if c == winner.index() => 0,
                        c if c == h.deal.dealer.index() => 2 * scored.total,
                        _ => scored.total,
                    })
                    .collect();
                let plain = (0..4).all(|c| -h.payments[c] <= owed[c]);
                if plain {
                    let mut collected = 0;
                    for c in (0..4).filter(|&c| c != winner.index()) {
                        let pay = owed[c].min(before[c].max(0));
                        assert_eq!(-h.payments[c], pay, "seed {seed} hand {}", h.hand_number);
                        collected += pay;
                        if pay < owed[c] {
                            floor_hits += 1;
                        }
                    }
                    assert_eq!(h.payments[winner.index()], collected);
                }
            }
            before.clone_from(&h.ledger);
        }
    }
    assert!(floor_hits > 0, "some win ran into the zero floor");
}

#[test]
fn hangzhou_double_roll_starts_at_three_lao() {
    let r = ruleset("hangzhou", json!({"dice_double_starts_lao3": true}));
    let plain = ruleset("hangzhou", json!({}));
    let mut seen = [false; 2];
    for seed in 0..40 {
        let (m, events) = Match::new(Arc::clone(&r), seed);
        let dice = events
            .iter()
            .find_map(|e| match e {
                Event::DiceRolled {
                    dice,
                    purpose: DicePurpose::DealerChoice,
                    ..
                } => Some(dice.clone()),
                _ => None,
            })
            .unwrap();
        let double = dice[0] == dice[1] || dice[0] + dice[1] == 12;
        assert_eq!(m.deal().lao, if double { 3 } else { 1 }, "seed {seed}");
        seen[usize::from(double)] = true;
        assert_eq!(Match::new(Arc::clone(&plain), seed).0.deal().lao, 1);
    }
    assert_eq!(seen, [true, true]);
    // And a whole match from 3 lao.
    let seed = (0..40)
        .find(|&s| Match::new(Arc::clone(&r), s).0.deal().lao == 3)
        .unwrap();
    let (m, log) = greedy(&r, seed);
    check_common(&m, &log, 0);
    check_lao(&m, 3);
}

#[test]
fn random_play_matches_end_too() {
    // Uniformly random play rarely wins: mostly drawn hands. Hong Kong keeps the deal on a
    // draw, so it gets a safety limit.
    for (name, options, limit) in [
        ("classic", json!({"players": 3}), None),
        ("yangzhou", json!({}), None),
        ("hangzhou", json!({}), None),
        ("hongkong", json!({}), Some(40)),
    ] {
        let r = ruleset(name, options);
        let mut players = seated(&r, "random", 9);
        let (m, log) = play_match(Arc::clone(&r), 9, limit, &mut players).unwrap();
        check_common(&m, &log, 0);
        if name == "hongkong" {
            assert!(m.hands_played() <= 40);
            if m.hands_played() == 40 {
                assert_eq!(m.end_reason(), Some(EndReason::HandLimit));
            }
        }
    }
}

#[test]
fn same_seed_same_match() {
    let r = ruleset("hangzhou", json!({"wildcard": "indicator"}));
    let (a, la) = greedy(&r, 77);
    let (b, lb) = greedy(&r, 77);
    assert_eq!(la.to_jsonl(), lb.to_jsonl());
    assert_eq!(a.ledger(), b.ledger());
    let (_, lc) = greedy(&r, 78);
    assert_ne!(la.to_jsonl(), lc.to_jsonl());
    // Every hand has its own seed.
    let seeds: std::collections::BTreeSet<u64> = la
        .records
        .iter()
        .filter_map(|r| match r {
            LogRecord::Hand { setup } => Some(setup.seed),
            _ => None,
        })
        .collect();
    assert_eq!(seeds.len(), a.hands_played() as usize);
}

#[test]
fn match_refuses_out_of_order_calls() {
    let r = ruleset("classic", json!({}));
    let (mut m, _) = Match::new(Arc::clone(&r), 5);
    assert_eq!(
        m.finish_hand(&Match::new(Arc::clone(&r), 6).0.start_hand().unwrap().0),
        Err(MatchError::NoHand)
    );
    let (mut game, _) = m.start_hand().unwrap();
    let before = m.clone();
    assert_eq!(m.start_hand().unwrap_err(), MatchError::HandInProgress(1));
    assert_eq!(m.finish_hand(&game), Err(MatchError::HandNotOver(1)));
    // A game of another match (another seed) is not this hand.
    let (mut other, _) = Match::new(Arc::clone(&r), 6);
    let (og, _) = other.start_hand().unwrap();
    assert_eq!(m.finish_hand(&og), Err(MatchError::WrongGame(1)));
    assert_eq!(m, before);
    let mut policy = bots::RandomBot::new(1);
    while let Some(p) = game.to_act().next() {
        let legal = game.legal_actions(p);
        let a = policy.act(&game.observation(p), &legal);
        game.apply(p, a).unwrap();
    }
    let s = m.finish_hand(&game).unwrap();
    assert_eq!(s.hand_number, 1);
    assert_eq!(m.finish_hand(&game), Err(MatchError::NoHand));
    while !m.is_over() {
        let (mut g, _) = m.start_hand().unwrap();
        while let Some(p) = g.to_act().next() {
            let legal = g.legal_actions(p);
            let a = policy.act(&g.observation(p), &legal);
            g.apply(p, a).unwrap();
        }
        m.finish_hand(&g).unwrap();
    }
    assert_eq!(m.start_hand().unwrap_err(), MatchError::Over);
    assert_eq!(m.hands_played(), 4);
}

/// A bot that claims a win whatever it holds.
struct Cheat;

impl Bot for Cheat {
    fn name(&self) -> &'static str {
        "cheat"
    }

    fn act(&mut self, _: &Observation, _: &[Action]) -> Action {
        Action::Win
    }
}

/// A bot that plays the first legal action.
struct FirstLegal;

impl Bot for FirstLegal {
    fn name(&self) -> &'static str {
        "first"
    }

    fn act(&mut self, _: &Observation, legal: &[Action]) -> Action {
        legal[0]
    }
}

/// The driver's one policy: a refused choice is replaced by the first legal action, and the
/// match goes on (it does not stop, and the refused action is never applied).
#[test]
fn a_bot_that_cheats_is_refused() {
    let r = ruleset("yangzhou", json!({}));
    let mut players: Vec<Box<dyn Bot>> = (0..4).map(|_| Box::new(Cheat) as Box<dyn Bot>).collect();
    let (cheats, cheat_log) = play_match(Arc::clone(&r), 1, Some(3), &mut players).unwrap();
    let mut honest: Vec<Box<dyn Bot>> = (0..4)
        .map(|_| Box::new(FirstLegal) as Box<dyn Bot>)
        .collect();
    let (first, first_log) = play_match(Arc::clone(&r), 1, Some(3), &mut honest).unwrap();
    assert!(cheats.hands_played() >= 1);
    assert_eq!(cheat_log.to_jsonl(), first_log.to_jsonl());
    assert_eq!(cheats.ledger(), first.ledger());
    // One bot per chair.
    let err = play_match(r, 1, None, &mut players[..3]).unwrap_err();
    assert_eq!(
        err,
        MatchError::BotCount {
            bots: 3,
            players: 4
        }
    );
}

/// The long run: 300 seeded matches per rule set, each checked as above and replayed from its
/// log. `cargo test -p majiang --test integration engine_match -- --ignored`.
#[test]
#[ignore]
fn many_matches_per_rule_set() {
    use majiang::table::replay;
    let cases = [
        ("hongkong", json!({}), 0u8),
        ("hongkong", json!({"flowers": false}), 0),
        ("hangzhou", json!({}), 1),
        (
            "hangzhou",
            json!({"wildcard": "indicator", "end": "rounds:16"}),
            1,
        ),
        (
            "hangzhou",
            json!({"end": "points:20", "dice_double_starts_lao3": true}),
            2,
        ),
        ("yangzhou", json!({}), 3),
        ("yangzhou", json!({"chow": true, "min_fan": 5}), 3),
        ("classic", json!({"players": 3}), 4),
        ("classic", json!({"players": 4, "flowers": true}), 4),
    ];
    for (name, options, family) in cases {
        let r = ruleset(name, options.clone());
        let t = std::time::Instant::now();
        let mut hands = 0;
        for seed in 0..300 {
            let (m, log) = greedy(&r, seed);
            hands += m.hands_played();
            let start = match family {
                2 => 20,
                _ => 0,
            };
            check_common(&m, &log, start);
            match family {
                0 => check_winds(&m, true),
                3 => check_winds(&m, false),
                1 | 2 => {
                    let first = m.settlements()[0].deal.lao;
                    assert!(first == 1 || (family == 2 && first == 3));
                    check_lao(&m, first);
                }
                _ => assert_eq!(m.hands_played() as usize, m.players()),
            }
            let report = replay(&log.to_jsonl()).unwrap();
            assert_eq!(report.hands, m.settlements());
        }
        println!(
            "{name} {options}: 300 matches, {hands} hands, {:?}",
            t.elapsed()
        );
    }
}

//! Whole hands and matches: summaries, standings, logs, replays and pacing.

use super::*;

#[test]
fn every_rule_set_plays_a_hand_to_its_summary_and_the_next_hand() {
    for (rules, seed) in [
        ("hongkong", 1),
        ("hangzhou", 2),
        ("yangzhou", 3),
        ("classic", 4),
    ] {
        let mut a = app(rules, seed, 16);
        play_hand(&mut a);
        let s = screen(&a);
        assert!(s.contains("end of hand"), "{rules}:\n{s}");
        assert!(s.contains("Payments:"), "{rules}:\n{s}");
        let summary = a.summary().expect("a summary").clone();
        match summary.winner {
            Some(_) => {
                assert!(
                    s.contains("Patterns:") && s.contains("Total"),
                    "{rules}:\n{s}"
                );
                assert!(s.contains("Winning hand:"), "{rules}:\n{s}");
                for p in &summary.patterns {
                    assert!(s.contains(&p.name), "{rules}: {} missing:\n{s}", p.name);
                }
            }
            None => assert!(s.contains("exhaustive draw"), "{rules}:\n{s}"),
        }
        let settlement = a.settlement().expect("a settlement");
        assert_eq!(settlement.payments, summary.payments, "{rules}");
        let start = a.starting_points();
        let expected: Vec<i64> = summary.payments.iter().map(|p| start + p).collect();
        assert_eq!(a.ledger(), expected.as_slice(), "{rules}");
        assert_eq!(
            summary.payments.iter().sum::<i64>(),
            -settlement.uncollected,
            "{rules}"
        );
        assert!(s.contains("Next hand:"), "{rules}:\n{s}");
        a.on_key(Key::Enter);
        assert_eq!(a.mode(), &Mode::Playing, "{rules}");
        assert_eq!(a.hand_number(), 2, "{rules}");
        assert!(screen(&a).contains("hand 2"), "{rules}");
    }
}

#[test]
fn quitting_asks_first() {
    let mut a = app("hongkong", 5, 16);
    a.run_bots();
    a.on_key(Key::Char('q'));
    assert!(screen(&a).contains("Abandon the match?"));
    assert!(!a.should_quit());
    a.on_key(Key::Char('n'));
    assert_eq!(a.mode(), &Mode::Playing);
    assert!(!screen(&a).contains("Abandon the match?"));
    a.on_key(Key::Char('q'));
    a.on_key(Key::Char('z'));
    assert!(!a.should_quit());
    a.on_key(Key::Char('y'));
    assert!(a.should_quit());
}

#[test]
fn a_short_match_ends_with_standings() {
    let mut a = app("hongkong", 8, 2);
    for _ in 0..2 {
        play_hand(&mut a);
        a.on_key(Key::Enter);
    }
    assert_eq!(a.mode(), &Mode::MatchOver);
    let s = screen(&a);
    assert!(s.contains("Final standings"), "{s}");
    assert!(s.contains("2 hands, seed 8."), "{s}");
    for name in ["You", "Bot 1", "Bot 2", "Bot 3"] {
        assert!(s.contains(name), "{s}");
    }
    a.on_key(Key::Enter);
    assert!(a.should_quit());
    // The log of the match replays identically.
    let log = a.take_log().join("\n");
    let report = majiang::table::replay(&log).expect("the log replays");
    assert_eq!(report.hands.len(), 2);
}

#[test]
fn the_log_is_json_lines_with_a_header() {
    let mut a = app("hongkong", 9, 16);
    play_hand(&mut a);
    let lines = a.take_log();
    let first: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(first["kind"], "header");
    assert_eq!(first["rules"], "hongkong");
    assert_eq!(first["seed"], 9);
    let mut actions = 0;
    for l in &lines {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        if v["kind"] == "action" {
            actions += 1;
        }
    }
    assert!(actions > 10);
    assert!(
        lines.last().unwrap().contains("settlement"),
        "{:?}",
        lines.last()
    );
    assert!(a.take_log().is_empty());
}

#[test]
fn same_seed_same_keys_same_screens() {
    let mut a = app("hangzhou", 11, 16);
    let mut b = app("hangzhou", 11, 16);
    for _ in 0..30 {
        a.run_bots();
        b.run_bots();
        assert_eq!(screen(&a), screen(&b));
        if a.mode() != &Mode::Playing {
            break;
        }
        human_step(&mut a);
        human_step(&mut b);
    }
}

#[test]
fn a_three_player_table_has_no_one_across() {
    let mut options = Map::new();
    options.insert("players".into(), 3.into());
    let r = Arc::new(TableRules::from_name("classic", &options).unwrap());
    let mut a = App::new(r, 14, "efficient", Some(1), false).unwrap();
    play_hand(&mut a);
    let s = screen(&a);
    assert!(s.contains("end of hand"), "{s}");
    assert_eq!(a.settlement().unwrap().payments.len(), 3);
    a.on_key(Key::Enter);
    let s = screen(&a);
    assert!(s.contains("Final standings"), "{s}");
    assert!(s.contains("Bot 2") && !s.contains("Bot 3"), "{s}");
    assert!(a.take_log().is_empty(), "no log was asked for");
}

#[test]
fn five_and_six_player_tables_show_every_opponent_and_finish_a_hand() {
    for n in [5u8, 6] {
        let mut options = Map::new();
        options.insert("players".into(), n.into());
        let r = Arc::new(TableRules::from_name("classic", &options).unwrap());
        let mut a = App::new(r, 3, "efficient", Some(1), false).unwrap();
        let s = screen(&a);
        for k in 1..n {
            assert!(
                s.contains(&format!("Bot {k}")),
                "{n} players, Bot {k} missing:\n{s}"
            );
        }
        play_hand(&mut a);
        let s = screen(&a);
        assert!(s.contains("end of hand"), "{s}");
        assert_eq!(a.settlement().unwrap().payments.len(), usize::from(n));
    }
}

#[test]
fn w_wins_and_the_summary_says_so() {
    use majiang::bots::{Bot, EfficientBot};
    for seed in 0..100 {
        let mut a = app_with("hangzhou", seed, 1, "random");
        let mut me = EfficientBot::new(Arc::clone(a.ruleset()), seed);
        for _ in 0..100 {
            a.run_bots();
            if a.mode() != &Mode::Playing {
                break;
            }
            let obs = a.observation();
            if obs.legal_actions.contains(&Action::Win) {
                assert!(line_with(&screen(&a), "Keys:").contains("w win"));
                a.on_key(Key::Char('w'));
                assert_eq!(a.mode(), &Mode::HandOver);
                let s = screen(&a);
                assert!(s.contains("Hand 1: You win "), "{s}");
                let me = a.human().index();
                assert!(a.summary().unwrap().payments[me] > 0);
                assert!(a.ledger()[me] > 0);
                return;
            }
            match me.act(&obs, &obs.legal_actions) {
                Action::Discard(t) => {
                    let i = a.hand_tiles().iter().rposition(|&x| x == t).unwrap();
                    a.on_key(Key::Home);
                    for _ in 0..i {
                        a.on_key(Key::Right);
                    }
                    a.on_key(Key::Enter);
                }
                _ => human_step(&mut a),
            }
        }
    }
    panic!("the human never could win");
}

#[test]
fn whole_matches_end_with_standings_and_replayable_logs() {
    for (rules, seed) in [
        ("hongkong", 41),
        ("hangzhou", 42),
        ("yangzhou", 43),
        ("classic", 44),
    ] {
        let r = Arc::new(TableRules::from_name(rules, &Map::new()).unwrap());
        let mut a = App::new(r, seed, "efficient", None, true).unwrap();
        let mut hands = 0;
        while a.mode() != &Mode::MatchOver {
            play_hand(&mut a);
            hands += 1;
            assert!(hands < 200, "{rules}: the match does not end");
            a.on_key(Key::Enter);
        }
        let s = screen(&a);
        assert!(s.contains("Final standings"), "{rules}:\n{s}");
        let standings = a.standings();
        assert_eq!(standings.len(), 4);
        assert!(standings.windows(2).all(|w| w[0].points >= w[1].points));
        let log = a.take_log().join("\n");
        let report = majiang::table::replay(&log)
            .unwrap_or_else(|e| panic!("{rules}: the log does not replay: {e}"));
        assert_eq!(report.hands.len(), hands, "{rules}");
        assert_eq!(report.summary.ledger, a.ledger(), "{rules}");
    }
}

#[test]
fn a_match_left_in_hand_3_logs_the_finished_hands() {
    let mut a = app("hangzhou", 45, 8);
    for _ in 0..2 {
        play_hand(&mut a);
        a.on_key(Key::Enter);
    }
    assert_eq!(a.hand_number(), 3);
    // A few moves into hand 3, the player leaves.
    a.run_bots();
    human_step(&mut a);
    a.on_key(Key::Char('q'));
    a.on_key(Key::Char('y'));
    assert!(a.should_quit());
    let log = a.take_log().join("\n");
    let report = majiang::table::replay(&log).expect("a partial log replays");
    assert!(!report.complete);
    assert_eq!(report.stops_in, Some(3));
    assert_eq!(report.hands.len(), 2);
    assert_eq!(report.summary.ledger, a.ledger());
}

#[test]
fn leaving_prints_the_standings_and_the_log_path() {
    let a = app("hongkong", 3, 8);
    let text = crate::play::farewell(&a, Some("m.jsonl"));
    assert!(text.starts_with("Standings:\n  1. "), "{text}");
    for name in ["You", "Bot 1", "Bot 2", "Bot 3"] {
        assert!(text.contains(name), "{text}");
    }
    assert!(
        text.contains("1 hand of Hong Kong mahjong, seed 3."),
        "{text}"
    );
    assert!(text.contains("m.jsonl"), "{text}");
}

#[test]
fn won_hands_explain_their_payments() {
    for rules in ["hongkong", "hangzhou", "yangzhou", "classic"] {
        let mut wins = 0;
        for seed in 0..12 {
            let mut a = app(rules, seed, 2);
            play_hand(&mut a);
            let s = a.summary().unwrap().clone();
            if s.winner.is_none() {
                continue;
            }
            wins += 1;
            // Every won hand is explained, and the itemised payments add up to the hand's
            // payments, chair by chair.
            assert!(!s.itemised.is_empty(), "{rules} seed {seed}");
            let mut net = vec![0i64; s.payments.len()];
            for p in &s.itemised {
                net[p.from.index()] -= p.amount;
                net[p.to.index()] += p.amount;
            }
            assert_eq!(net, s.payments, "{rules} seed {seed}");
            let screen = screen_of(&a, 120, 60);
            assert!(screen.contains("Why:"), "{screen}");
            let reason: String = s.itemised[0].reason.to_string().chars().take(30).collect();
            assert!(screen.contains(&reason), "{screen}");
        }
        assert!(wins > 0, "{rules}: no hand was won");
    }
}

#[test]
fn the_seat_driver_paces_the_bots() {
    // With a 250 ms delay, no bot plays before its decision point is 250 ms old; at that time
    // exactly one decision is played, and the next one waits again (a claim answer at the same
    // point does not).
    let r = Arc::new(TableRules::from_name("hongkong", &Map::new()).unwrap());
    for seed in 0..8 {
        let mut a = App::paced(r.clone(), seed, "efficient", Some(1), false, 250).unwrap();
        if a.bot_to_act().is_none() {
            continue;
        }
        assert_eq!(a.step_bot(0), BotStep::WaitUntil(250), "seed {seed}");
        assert_eq!(a.step_bot(249), BotStep::WaitUntil(250), "seed {seed}");
        let before = a.game().clone();
        assert!(matches!(a.step_bot(250), BotStep::Played(_)), "seed {seed}");
        assert_ne!(a.game(), &before, "the bot's action reached the game");
        match a.step_bot(250) {
            BotStep::WaitUntil(t) => assert_eq!(t, 500, "seed {seed}"),
            // Several bots answering the same discard: the next answer is due at once.
            BotStep::Played(Action::Pass) | BotStep::Idle => {}
            other => panic!("seed {seed}: {other:?}"),
        }
        return;
    }
    panic!("no seed began with a bot to act");
}

#[test]
fn the_same_seed_plays_the_same_bots_paced_or_not() {
    // Pacing changes when the bots play, never what: the driver's decisions are the same.
    let r = Arc::new(TableRules::from_name("classic", &Map::new()).unwrap());
    let mut quick = App::paced(r.clone(), 5, "efficient", Some(1), true, 0).unwrap();
    let mut paced = App::paced(r, 5, "efficient", Some(1), true, 100).unwrap();
    let mut clock = 0;
    for _ in 0..400 {
        quick.run_bots();
        loop {
            match paced.step_bot(clock) {
                BotStep::Played(_) => {}
                BotStep::WaitUntil(t) => clock = t,
                BotStep::Idle => break,
            }
        }
        assert_eq!(quick.game(), paced.game());
        if quick.mode() != &Mode::Playing {
            break;
        }
        human_step(&mut quick);
        human_step(&mut paced);
    }
    assert_eq!(quick.take_log(), paced.take_log());
}

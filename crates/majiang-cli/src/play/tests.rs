//! The app without a terminal: keys in, the screen drawn into a ratatui test buffer.

use super::app::{App, BotStep, Key, Mode};
use super::view;
use majiang::meld::MeldKind;
use majiang::table::{Action, Ruleset};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::Map;
use std::sync::Arc;

fn app(rules: &str, seed: u64, hands: u32) -> App {
    app_with(rules, seed, hands, "efficient")
}

fn app_with(rules: &str, seed: u64, hands: u32, bots: &str) -> App {
    let r = Arc::new(Ruleset::from_name(rules, &Map::new()).unwrap());
    App::new(r, seed, bots, Some(hands), true).unwrap()
}

fn screen(app: &App) -> String {
    screen_of(app, 120, 40)
}

fn screen_of(app: &App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| view::draw(f, app)).unwrap();
    let buf = t.backend().buffer();
    let w = buf.area.width as usize;
    buf.content
        .chunks(w)
        .map(|row| row.iter().map(|c| c.symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The last line of the screen that starts (after the border) with `prefix` (the human's
/// panel is the lowest).
fn line_with<'a>(s: &'a str, prefix: &str) -> &'a str {
    s.lines()
        .rfind(|l| l.trim_start_matches('│').starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starting {prefix:?} in\n{s}"))
}

/// One decision as a simple player makes it: win when possible, pass on claims, otherwise
/// discard the tile under the cursor (the one just drawn).
fn human_step(app: &mut App) {
    let legal = app.observation().legal_actions;
    if legal.contains(&Action::Win) {
        app.on_key(Key::Char('w'));
    } else if legal.contains(&Action::Pass) {
        app.on_key(Key::Char(' '));
    } else {
        app.on_key(Key::Enter);
    }
}

/// Plays until the hand ends, checking the human is asked whenever the bots stop.
fn play_hand(app: &mut App) {
    for _ in 0..1000 {
        app.run_bots();
        if app.mode() == &Mode::HandOver {
            return;
        }
        assert!(
            app.human_to_act(),
            "the bots stopped but the human has nothing to do"
        );
        human_step(app);
        assert_eq!(app.notice(), None, "a plain move was refused");
    }
    panic!("the hand did not end");
}

#[test]
fn first_screen_shows_the_table_and_the_hand() {
    let mut a = app("hangzhou", 3, 16);
    a.run_bots();
    let s = screen(&a);
    assert!(s.contains("majiang · Hangzhou mahjong │ hand 1"), "{s}");
    for name in ["Bot 1", "Bot 2", "Bot 3", "You"] {
        assert!(s.contains(name), "{name} missing:\n{s}");
    }
    assert!(s.contains("Wall:"), "{s}");
    assert!(s.contains("Wild: 5z"), "{s}");
    assert!(s.contains("Lao: ") && s.contains("Seed: 3"), "{s}");
    // The hand line lists exactly the concealed tiles.
    let hand = line_with(&s, "hand: ");
    let shown = hand
        .trim_matches('│')
        .trim_start_matches("hand:")
        .split_whitespace()
        .count();
    assert_eq!(shown, a.observation().concealed.len());
    assert!(a.human_to_act());
    assert!(line_with(&s, "Keys:").contains("Enter discard"), "{s}");
    // The caret sits under the last tile (the one just drawn), named beside it.
    assert_eq!(a.cursor(), shown - 1);
    let drawn = a.observation().drawn.expect("the dealer's last tile");
    assert!(s.contains(&format!("^^  {}", drawn.name())), "{s}");
}

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
fn illegal_keys_explain_and_change_nothing() {
    let mut a = app("yangzhou", 6, 16);
    a.run_bots();
    while a.observation().on_offer.is_some() {
        human_step(&mut a);
        a.run_bots();
    }
    let before = a.game().clone();
    a.on_key(Key::Char('p'));
    assert!(
        a.notice().unwrap().contains("cannot pung"),
        "{:?}",
        a.notice()
    );
    let notice = a.notice().unwrap().to_string();
    assert!(screen(&a).contains(&notice), "{notice}");
    // In words, not the engine's internals.
    assert!(!notice.contains("player "), "{notice}");
    a.on_key(Key::Char(' '));
    assert!(a.notice().unwrap().contains("Nothing to pass"));
    a.on_key(Key::Char('w'));
    assert!(a.notice().unwrap().contains("cannot win"));
    a.on_key(Key::Char('7'));
    assert!(a.notice().is_some());
    assert_eq!(a.game(), &before);
    // Moving the cursor is harmless and stays on the hand.
    for _ in 0..20 {
        a.on_key(Key::Right);
    }
    assert_eq!(a.cursor(), a.hand_tiles().len() - 1);
    a.on_key(Key::Home);
    assert_eq!(a.cursor(), 0);
    a.on_key(Key::Left);
    assert_eq!(a.cursor(), 0);
    assert_eq!(a.game(), &before);
    // Enter discards the selected (first) tile.
    let first = a.hand_tiles()[0];
    a.on_key(Key::Enter);
    let me = a.human().index();
    assert_eq!(
        a.observation().table[me].discards.last().map(|d| d.tile),
        Some(first)
    );
}

#[test]
fn g_toggles_glyphs() {
    let mut a = app("classic", 7, 16);
    a.run_bots();
    let ascii = line_with(&screen(&a), "hand: ").to_string();
    assert!(ascii.chars().any(|c| c.is_ascii_digit()));
    a.on_key(Key::Char('g'));
    let glyphs = line_with(&screen(&a), "hand: ").to_string();
    let t = a.hand_tiles()[0];
    assert!(glyphs.contains(t.glyph()), "{glyphs}");
    a.on_key(Key::Char('g'));
    assert_eq!(line_with(&screen(&a), "hand: "), ascii);
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
fn several_chows_are_offered_as_a_choice() {
    // Find a moment where the human may chow in more than one way.
    for seed in 0..200 {
        let mut a = app("hangzhou", seed, 1);
        for _ in 0..200 {
            a.run_bots();
            if a.mode() != &Mode::Playing {
                break;
            }
            let legal = a.observation().legal_actions;
            let chows = legal
                .iter()
                .filter(|x| matches!(x, Action::Chow { .. }))
                .count();
            if chows >= 2 {
                a.on_key(Key::Char('c'));
                let Mode::Choose(options) = a.mode().clone() else {
                    panic!("no choice offered");
                };
                assert_eq!(options.len(), chows);
                let s = screen(&a);
                assert!(s.contains("1) chow") && s.contains("2) chow"), "{s}");
                a.on_key(Key::Esc);
                assert_eq!(a.mode(), &Mode::Playing);
                a.on_key(Key::Char('c'));
                a.on_key(Key::Char('2'));
                let me = a.human().index();
                let melds = &a.observation().table[me].melds;
                assert_eq!(melds.last().map(|m| m.kind), Some(MeldKind::Chow));
                let Action::Chow { tiles } = options[1] else {
                    unreachable!()
                };
                assert_eq!(melds.last().unwrap().tile, tiles[0]);
                // The claimed tile is shown on the left (from the left neighbour).
                let s = screen(&a);
                let claimed = melds.last().unwrap().claimed.unwrap();
                assert!(
                    line_with(&s, "melds: ").contains(&format!("[{claimed}]")),
                    "{s}"
                );
                return;
            }
            human_step(&mut a);
        }
    }
    panic!("no seed gave the human two chows");
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
fn a_small_terminal_gets_a_message_and_the_minimum_gets_the_table() {
    let mut a = app("hongkong", 12, 16);
    a.run_bots();
    let small = screen_of(&a, 80, 24);
    assert!(small.contains("at least 90×32"), "{small}");
    assert!(small.contains("this one is 80×24"), "{small}");
    let fits = screen_of(&a, 90, 32);
    assert!(fits.contains("hand: ") && fits.contains("Keys:"), "{fits}");
    assert!(fits.contains("Bot 1") && fits.contains("Bot 2") && fits.contains("Bot 3"));
    a.on_key(Key::Char('q'));
    assert!(screen_of(&a, 80, 24).contains("Abandon the match?"));
}

#[test]
fn the_caret_sits_under_the_selected_tile() {
    let mut a = app("hangzhou", 13, 16);
    a.run_bots();
    for glyphs in [false, true] {
        if glyphs {
            a.on_key(Key::Char('g'));
        }
        a.on_key(Key::Home);
        a.on_key(Key::Right);
        a.on_key(Key::Right);
        let s = screen(&a);
        let lines: Vec<&str> = s.lines().collect();
        let i = lines
            .iter()
            .rposition(|l| l.contains("hand: "))
            .expect("a hand line");
        let caret = lines[i + 1].find('^').expect("a caret");
        // The caret column is the third tile's column on the hand line.
        let hand: Vec<char> = lines[i].chars().collect();
        let caret_col = lines[i + 1][..caret].chars().count();
        let tile = a.hand_tiles()[2];
        let shown = a.style.tile(tile);
        let at: String = hand[caret_col..]
            .iter()
            .take(shown.chars().count())
            .collect();
        assert_eq!(at, shown, "glyphs {glyphs}: {}\n{}", lines[i], lines[i + 1]);
    }
}

#[test]
fn a_fortune_gambit_is_flagged_before_the_discard() {
    use majiang::bots::{Bot, EfficientBot};
    // The human plays like the efficient bot, but never wins (a hand in the Bao Tou state
    // could win on any tile), against random bots (long hands), until discarding a wildcard
    // would be a gambit.
    for seed in 0..300 {
        let mut a = app_with("hangzhou", seed, 1, "random");
        let mut me = EfficientBot::new(Arc::clone(a.ruleset()), seed);
        for _ in 0..200 {
            a.run_bots();
            if a.mode() != &Mode::Playing {
                break;
            }
            let obs = a.observation();
            if obs.wildcard_discard_is_gambit {
                let wild = obs.wildcard.unwrap();
                let i = a.hand_tiles().iter().position(|&t| t == wild).unwrap();
                a.on_key(Key::Home);
                for _ in 0..i {
                    a.on_key(Key::Right);
                }
                let s = screen(&a);
                assert!(s.contains("discarding it is a Fortune Gambit"), "{s}");
                a.on_key(Key::Enter);
                let mine = &a.observation().table[a.human().index()];
                assert!(mine.discards.last().unwrap().gambit);
                assert!(mine.gambit_run >= 1);
                let s = screen(&a);
                assert!(s.contains("a Fortune Gambit!"), "{s}");
                assert!(!s.contains("Gambit!."), "{s}");
                assert!(s.contains("Fortune Gambit round: no claims"), "{s}");
                return;
            }
            let mut legal = obs.legal_actions.clone();
            legal.retain(|x| *x != Action::Win);
            let action = me.act(&obs, &legal);
            match action {
                Action::Discard(t) => {
                    let i = a.hand_tiles().iter().rposition(|&x| x == t).unwrap();
                    a.on_key(Key::Home);
                    for _ in 0..i {
                        a.on_key(Key::Right);
                    }
                    a.on_key(Key::Enter);
                }
                Action::Pung => a.on_key(Key::Char('p')),
                _ => human_step(&mut a),
            }
            if a.notice().is_some() || matches!(a.mode(), Mode::Choose(_)) {
                // A kong or chow the keys offer as a choice: leave it, pass or discard.
                a.on_key(Key::Esc);
                a.on_key(Key::End);
                a.on_key(Key::Enter);
            }
        }
    }
    panic!("no seed brought the human to a Fortune Gambit");
}

#[test]
fn a_three_player_table_has_no_one_across() {
    let mut options = Map::new();
    options.insert("players".into(), 3.into());
    let r = Arc::new(Ruleset::from_name("classic", &options).unwrap());
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
        let r = Arc::new(Ruleset::from_name("classic", &options).unwrap());
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
fn pattern_values_carry_their_unit() {
    use majiang::scoring::Unit;
    assert_eq!(view::value_text(3, Unit::Fan).trim(), "3 fan");
    assert_eq!(view::value_text(10, Unit::Points).trim(), "10 points");
    assert_eq!(view::value_text(1, Unit::Double).trim(), "1 double");
    assert_eq!(view::value_text(2, Unit::Double).trim(), "2 doubles");
    assert_eq!(view::value_text(2, Unit::Multiplier).trim(), "×2");
}

#[test]
fn a_ready_hand_shows_waits_that_win() {
    use majiang::analysis::is_win;
    use majiang::bots::{Bot, EfficientBot};
    for seed in 0..100 {
        let mut a = app_with("yangzhou", seed, 1, "random");
        let mut me = EfficientBot::new(Arc::clone(a.ruleset()), seed);
        for _ in 0..100 {
            a.run_bots();
            if a.mode() != &Mode::Playing {
                break;
            }
            let obs = a.observation();
            let mut legal = obs.legal_actions.clone();
            legal.retain(|x| *x != Action::Win);
            let Action::Discard(t) = me.act(&obs, &legal) else {
                human_step(&mut a);
                continue;
            };
            let i = a.hand_tiles().iter().rposition(|&x| x == t).unwrap();
            a.on_key(Key::Home);
            for _ in 0..i {
                a.on_key(Key::Right);
            }
            let before = screen(&a);
            assert!(before.contains("→ "), "no readiness shown:\n{before}");
            a.on_key(Key::Enter);
            if a.mode() != &Mode::Playing {
                // The discard ended the hand: the summary covers the hand.
                break;
            }
            // Right after the discard (the bots have not moved yet) the line under the hand
            // says how far the hand is from ready.
            let s = screen(&a);
            let hand = line_with(&s, "hand: ");
            let i = s.lines().position(|l| l == hand).unwrap();
            let below = s.lines().nth(i + 1).unwrap();
            let Some(w) = below.split("ready: ").nth(1) else {
                assert!(
                    below.contains("from ready") || below.contains("reaches the minimum"),
                    "{s}"
                );
                continue;
            };
            let obs = a.observation();
            let rules = a.ruleset().hand_rules(obs.wildcard);
            // Each wait: "3s (2 unseen, self-draw 2 fan, discard 1 fan)"; the last may be cut
            // by the panel's edge.
            let waits: Vec<majiang::Tile> = w
                .trim_end_matches('│')
                .split("), ")
                .filter_map(|part| part.split_whitespace().next())
                .filter_map(|t| t.parse().ok())
                .collect();
            assert!(!waits.is_empty());
            for t in waits {
                let mut h = obs.concealed;
                h.add(t);
                assert!(
                    is_win(&h, &rules),
                    "{t} does not complete {}",
                    obs.concealed
                );
            }
            return;
        }
    }
    panic!("the human never got ready");
}

#[test]
fn random_keys_never_break_the_game() {
    const KEYS: [Key; 20] = [
        Key::Char('w'),
        Key::Char('p'),
        Key::Char('c'),
        Key::Char('k'),
        Key::Char(' '),
        Key::Char('x'),
        Key::Char('d'),
        Key::Char('g'),
        Key::Char('1'),
        Key::Char('2'),
        Key::Char('z'),
        Key::Char('n'),
        Key::Char('q'),
        Key::Enter,
        Key::Enter,
        Key::Esc,
        Key::Left,
        Key::Right,
        Key::Home,
        Key::End,
    ];
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for (rules, seed) in [
        ("hongkong", 31),
        ("hangzhou", 32),
        ("yangzhou", 33),
        ("classic", 34),
    ] {
        let mut a = app(rules, seed, 3);
        for step in 0..1500 {
            a.run_bots();
            if a.should_quit() {
                break;
            }
            let key = KEYS[(next() % KEYS.len() as u64) as usize];
            // Answer the quit question with "n", so the match goes on.
            let key = match a.mode() {
                Mode::ConfirmQuit(_) => Key::Char('n'),
                _ => key,
            };
            a.on_key(key);
            if let Some(n) = a.notice() {
                assert!(!n.is_empty());
            }
            a.game()
                .check_invariants()
                .unwrap_or_else(|e| panic!("{rules} step {step}: {e}"));
            if step % 50 == 0 {
                let (w, h) = [(120, 40), (90, 32), (60, 20), (10, 4)][step / 50 % 4];
                let _ = screen_of(&a, w, h);
            }
            assert!(
                a.cursor() < a.hand_tiles().len().max(1) || matches!(a.mode(), Mode::Choose(_))
            );
        }
    }
}

#[test]
fn k_declares_a_kong_on_your_turn() {
    for seed in 0..300 {
        let mut a = app_with("hongkong", seed, 1, "random");
        for _ in 0..100 {
            a.run_bots();
            if a.mode() != &Mode::Playing {
                break;
            }
            let obs = a.observation();
            let kongs: Vec<Action> = obs
                .legal_actions
                .iter()
                .copied()
                .filter(|x| matches!(x, Action::ConcealedKong(_) | Action::AddedKong(_)))
                .collect();
            if kongs.is_empty() {
                human_step(&mut a);
                continue;
            }
            assert!(line_with(&screen(&a), "Keys:").contains("k kong"));
            let me = a.human().index();
            let melds_before = obs.table[me].melds.len();
            a.on_key(Key::Char('k'));
            if kongs.len() > 1 {
                assert!(matches!(a.mode(), Mode::Choose(o) if *o == kongs));
                a.on_key(Key::Char('1'));
            }
            assert_eq!(a.notice(), None);
            let after = a.observation();
            let meld = after.table[me].melds.iter().find(|m| m.kind.is_kong());
            let meld = meld.expect("a kong among the melds");
            match kongs[0] {
                Action::ConcealedKong(t) => {
                    assert_eq!(after.table[me].melds.len(), melds_before + 1);
                    assert_eq!(meld.tile, t);
                    let s = screen(&a);
                    let t = t.to_string();
                    assert!(
                        line_with(&s, "melds: ").contains(&[t.as_str(); 4].join(" ")),
                        "{s}"
                    );
                }
                Action::AddedKong(t) => {
                    assert_eq!(after.table[me].melds.len(), melds_before);
                    assert_eq!(meld.tile, t);
                }
                _ => unreachable!(),
            }
            return;
        }
    }
    panic!("no seed gave the human a kong to declare");
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
        let r = Arc::new(Ruleset::from_name(rules, &Map::new()).unwrap());
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
fn the_latest_discard_stands_out() {
    use ratatui::style::Modifier;
    let mut a = app("classic", 15, 16);
    a.run_bots();
    while a.observation().on_offer.is_some() {
        human_step(&mut a);
        a.run_bots();
    }
    let me = a.human().index();
    let before = a.observation().table[me].discards.len();
    a.on_key(Key::Enter);
    assert_eq!(a.observation().table[me].discards.len(), before + 1);
    let mut t = Terminal::new(TestBackend::new(120, 40)).unwrap();
    t.draw(|f| view::draw(f, &a)).unwrap();
    let buf = t.backend().buffer().clone();
    let s = screen(&a);
    let melds_row = s
        .lines()
        .collect::<Vec<_>>()
        .iter()
        .rposition(|l| l.trim_start_matches('│').starts_with("melds: "))
        .unwrap() as u16;
    // The own discard rows start under the melds line; the newest is the last tile written.
    let row = melds_row + 1 + (before / 6) as u16;
    let col = 1 + (before % 6) as u16 * 3;
    assert!(
        buf[(col, row)].modifier.contains(Modifier::REVERSED),
        "the new discard at ({col}, {row}) is not highlighted:\n{s}"
    );
    if before > 0 {
        assert!(
            !buf[(1, melds_row + 1)]
                .modifier
                .contains(Modifier::REVERSED)
        );
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

fn classic_at(players: u8, seed: u64) -> App {
    let mut options = Map::new();
    options.insert("players".into(), players.into());
    let r = Arc::new(Ruleset::from_name("classic", &options).unwrap());
    App::new(r, seed, "efficient", Some(4), true).unwrap()
}

/// The tiles on the human's hand line.
fn shown_hand(s: &str) -> Vec<String> {
    line_with(s, "hand: ")
        .trim_matches('│')
        .trim_start_matches("hand:")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
fn extra_winds_are_in_the_hand_and_reachable_at_five_and_six() {
    for (players, seed) in [(5u8, 2u64), (6, 8), (6, 3), (5, 7)] {
        let mut a = classic_at(players, seed);
        for _ in 0..200 {
            a.run_bots();
            if a.mode() != &Mode::Playing {
                break;
            }
            let obs = a.observation();
            let s = screen(&a);
            let shown = shown_hand(&s);
            assert_eq!(
                shown.len(),
                obs.concealed.len() + obs.extra_winds.len(),
                "{players} players, seed {seed}:\n{s}"
            );
            for w in &obs.extra_winds {
                assert!(shown.contains(&w.to_string()), "{w} missing:\n{s}");
            }
            assert!(
                !s.contains("North_east") && !s.contains("South_west"),
                "{s}"
            );
            assert!(s.contains("North-east"), "{s}");
            // On the human's turn the cursor reaches the last tile, extra winds included.
            if obs.turn == Some(a.human()) && !obs.extra_winds.is_empty() {
                a.on_key(Key::End);
                let last = *a.hand_tiles().last().unwrap();
                let s = screen(&a);
                if last.is_bonus() {
                    let name = a.ruleset().config().tile_name(last);
                    assert!(!name.contains("Spring") && s.contains(&name), "{s}");
                }
                return;
            }
            human_step(&mut a);
        }
    }
    panic!("the human never held an extra wind on their turn");
}

#[test]
fn keys_do_nothing_while_the_table_is_hidden() {
    let mut a = app("hongkong", 3, 16);
    a.run_bots();
    assert!(a.human_to_act());
    let before = a.game().clone();
    a.set_fits(false);
    for key in [Key::Enter, Key::Char('d'), Key::Char(' '), Key::Char('w')] {
        a.on_key(key);
    }
    assert_eq!(a.game(), &before, "a key acted blind");
    assert!(a.notice().unwrap().contains("enlarge"), "{:?}", a.notice());
    assert_eq!(a.bot_to_act(), None, "the bots wait too");
    // Quitting still works (it asks first).
    a.on_key(Key::Char('q'));
    assert!(matches!(a.mode(), Mode::ConfirmQuit(_)));
    a.on_key(Key::Char('n'));
    a.set_fits(true);
    a.on_key(Key::Enter);
    assert_ne!(a.game(), &before, "with the table shown, Enter discards");
}

#[test]
fn the_last_hand_box_is_whole_and_agrees_with_the_key_bar() {
    let mut a = app("hongkong", 8, 1);
    play_hand(&mut a);
    let s = screen_of(&a, 90, 32);
    assert!(
        s.contains("Press Enter for the standings."),
        "the box cuts its text:\n{s}"
    );
    assert!(line_with(&s, "Keys:").contains("Enter standings"), "{s}");
    a.on_key(Key::Char('x'));
    assert_eq!(a.notice(), Some("Press Enter for the standings."));
}

#[test]
fn wording_agrees_with_who_acts() {
    let mut a = app("hongkong", 8, 1);
    let first = a.messages().next().unwrap().to_string();
    let dealer = a.observation().dealer;
    if dealer == a.human() {
        assert!(first.ends_with("You deal."), "{first}");
    } else {
        assert!(first.ends_with("deals."), "{first}");
    }
    assert!(!first.contains("You deals"), "{first}");
    assert_eq!(a.says(a.human(), "win"), "You win");
    assert_eq!(a.whose(a.human()), "your");
    play_hand(&mut a);
    let s = screen(&a);
    assert!(!s.contains("You's") && !s.contains("You deals"), "{s}");
    a.on_key(Key::Enter);
    let s = screen(&a);
    assert!(s.contains("1 hand, seed 8."), "{s}");
    for m in a.messages() {
        assert!(!m.contains(" a exposed") && !m.contains(" a added"), "{m}");
    }
}

#[test]
fn a_waiting_notice_goes_when_the_turn_comes() {
    for seed in 0..20 {
        let mut a = app("hongkong", seed, 16);
        // Let the bots act until one is to act and the human has nothing to decide.
        for _ in 0..50 {
            if a.bot_to_act().is_some() && a.observation().legal_actions.is_empty() {
                break;
            }
            if a.bot_to_act().is_some() {
                a.step_bot(0);
            } else {
                human_step(&mut a);
            }
        }
        if a.bot_to_act().is_none() {
            continue;
        }
        a.on_key(Key::Enter);
        assert!(a.notice().unwrap().contains("Not your turn"));
        a.run_bots();
        if a.human_to_act() {
            assert_eq!(a.notice(), None, "a stale notice stays");
            return;
        }
    }
    panic!("no seed gave a wait then a turn");
}

#[test]
fn bots_help_lists_every_bot() {
    for bot in majiang::bots::BOT_NAMES {
        assert!(super::bots_help().contains(bot), "{bot}");
    }
}

#[test]
fn question_mark_lists_keys_and_patterns() {
    let mut a = app("hongkong", 3, 8);
    a.run_bots();
    a.on_key(Key::Char('?'));
    assert!(matches!(a.mode(), Mode::Help(_)));
    let s = screen_of(&a, 120, 60);
    assert!(s.contains("PgUp/PgDn"), "{s}");
    for p in a.ruleset().spec().patterns.iter().take(5) {
        assert!(s.contains(p.name), "{} missing:\n{s}", p.name);
        assert!(s.contains(&p.value_text()), "{s}");
    }
    let before = a.game().clone();
    a.on_key(Key::Enter);
    assert_eq!(a.mode(), &Mode::Playing);
    assert_eq!(a.game(), &before, "leaving the help plays nothing");
    assert!(screen(&a).contains("hand 1 of 8"));
}

#[test]
fn the_log_scrolls_back() {
    let mut a = app("hongkong", 3, 8);
    for _ in 0..20 {
        a.run_bots();
        if a.mode() != &Mode::Playing {
            break;
        }
        human_step(&mut a);
    }
    let total = a.messages().count();
    assert!(total > 10, "{total}");
    let s = screen_of(&a, 120, 40);
    let newest = a.messages().last().unwrap().to_string();
    assert!(s.contains(&newest));
    a.on_key(Key::PageUp);
    assert_eq!(a.log_scroll(), 5);
    let s = screen_of(&a, 120, 40);
    assert!(s.contains("later — PgUp/PgDn"), "{s}");
    a.on_key(Key::PageDown);
    assert_eq!(a.log_scroll(), 0);
}

#[test]
fn leaving_prints_the_standings_and_the_log_path() {
    let a = app("hongkong", 3, 8);
    let text = super::farewell(&a, Some("m.jsonl"));
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

/// Whether `name` is on the screen whole: on one line, or broken at spaces onto the next lines,
/// each continuation one column further in (as the help wraps a long name).
fn shown_whole(rows: &[Vec<char>], name: &str) -> bool {
    let at = |r: usize, c: usize| -> String { rows[r].get(c..).unwrap_or(&[]).iter().collect() };
    for r in 0..rows.len() {
        for c in 0..rows[r].len() {
            let (mut rest, mut rr, mut cc) = (name, r, c);
            loop {
                let line = at(rr, cc);
                if line.starts_with(rest) {
                    return true;
                }
                // The longest part up to a space that this line shows, followed by the break.
                let Some(k) = rest
                    .rmatch_indices(' ')
                    .map(|(k, _)| k)
                    .find(|&k| line.starts_with(&rest[..k]) && line[k..].starts_with(' '))
                else {
                    break;
                };
                rest = &rest[k + 1..];
                rr += 1;
                cc += 1;
                if rr >= rows.len() {
                    break;
                }
            }
        }
    }
    false
}

/// The `?` overlay at the smallest table size (90×32): every pattern of every rule set is
/// listed with its whole name and its value, and the keys are there too.
#[test]
fn the_help_fits_every_pattern_name_at_90_by_32() {
    for rules in ["hongkong", "hangzhou", "yangzhou", "classic"] {
        let mut a = app(rules, 3, 8);
        a.run_bots();
        a.on_key(Key::Char('?'));
        let s = screen_of(&a, 90, 32);
        assert!(s.contains("PgUp/PgDn"), "{rules}:\n{s}");
        let rows: Vec<Vec<char>> = s.lines().map(|l| l.chars().collect()).collect();
        for p in a.ruleset().spec().patterns {
            assert!(
                shown_whole(&rows, p.name),
                "{rules}: {:?} ({} chars) is not shown whole:\n{s}",
                p.name,
                p.name.chars().count()
            );
        }
    }
}

#[test]
fn the_seat_driver_paces_the_bots() {
    // With a 250 ms delay, no bot plays before its decision point is 250 ms old; at that time
    // exactly one decision is played, and the next one waits again (a claim answer at the same
    // point does not).
    let r = Arc::new(Ruleset::from_name("hongkong", &Map::new()).unwrap());
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
    let r = Arc::new(Ruleset::from_name("classic", &Map::new()).unwrap());
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

fn app_of(rules: &str, options: &str, seed: u64, hands: u32) -> App {
    let options: Map<String, serde_json::Value> = serde_json::from_str(options).unwrap();
    let r = Arc::new(Ruleset::from_name(rules, &options).unwrap());
    App::new(r, seed, "efficient", Some(hands), true).unwrap()
}

/// The screen's text with box borders and runs of spaces folded into single spaces.
fn folded(s: &str) -> String {
    s.replace(['│', '┌', '┐', '└', '┘', '─'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_ready_hint_is_shown_whole_at_90_columns() {
    let mut checked = 0;
    for seed in 0..6 {
        let mut a = app("hongkong", seed, 1);
        for _ in 0..200 {
            a.run_bots();
            if a.mode() != &Mode::Playing {
                break;
            }
            let obs = a.observation();
            if obs
                .legal_actions
                .iter()
                .any(|x| matches!(x, Action::Discard(_)))
            {
                let tiles = a.hand_tiles();
                let hint = view::readiness(&a, &obs, tiles.get(a.cursor()).copied());
                let s = screen_of(&a, 90, 32);
                assert!(
                    folded(&s).contains(&folded(&hint)),
                    "seed {seed}: the hint {hint:?} is cut:\n{s}"
                );
                checked += 1;
            }
            human_step(&mut a);
        }
    }
    assert!(checked > 20, "{checked}");
}

#[test]
fn the_status_line_is_whole_at_90_columns() {
    let mut a = app_of("hangzhou", r#"{"wildcard": "indicator"}"#, 4, 2);
    let obs = a.observation();
    let s = screen_of(&a, 90, 32);
    let wild = a.style.tile(obs.wildcard.unwrap());
    assert!(s.contains(&format!("wall {}", obs.live_wall)), "{s}");
    assert!(s.contains(&format!("wild {wild}")), "{s}");
    a.run_bots();
    for rules in ["hongkong", "yangzhou", "classic"] {
        let a = app(rules, 3, 2);
        let s = screen_of(&a, 90, 32);
        let wall = format!("wall {}", a.observation().live_wall);
        assert!(s.contains(&wall), "{rules}:\n{s}");
    }
}

#[test]
fn the_newest_discard_is_always_in_view_at_three_players() {
    // Classic at three: the side boxes hold every discard the hand can reach, or the newest
    // rows with a count of the older ones; the highlighted newest discard is always drawn.
    let mut shown = 0;
    for seed in 0..4 {
        let mut a = app_of("classic", r#"{"players": 3}"#, seed, 1);
        for _ in 0..400 {
            a.run_bots();
            if a.mode() != &Mode::Playing {
                break;
            }
            let obs = a.observation();
            if let Some((p, _)) = obs.last_discard.filter(|&(p, _)| p != a.human()) {
                let mut t = Terminal::new(TestBackend::new(90, 32)).unwrap();
                t.draw(|f| view::draw(f, &a)).unwrap();
                let buf = t.backend().buffer();
                // Rows 2.. (below the status line), the opponents' boxes (above yours).
                let reversed = (2..20u16).any(|y| {
                    (0..90u16).any(|x| {
                        buf[(x, y)]
                            .modifier
                            .contains(ratatui::style::Modifier::REVERSED)
                    })
                });
                assert!(reversed, "seed {seed}: {p:?}'s newest discard is hidden");
                shown += 1;
            }
            human_step(&mut a);
        }
    }
    assert!(shown > 50, "{shown}");
}

#[test]
fn every_payment_of_a_six_player_hand_can_be_scrolled_to() {
    for seed in 0..12 {
        let mut a = app_of("classic", r#"{"players": 6}"#, seed, 1);
        play_hand(&mut a);
        let s = a.summary().unwrap().clone();
        if s.itemised.len() < 8 {
            continue;
        }
        let first = screen_of(&a, 90, 32);
        assert!(first.contains("scroll"), "{first}");
        // The status and key lines stay in view.
        assert!(first.lines().next().unwrap().contains("majiang"), "{first}");
        assert!(
            line_with(&first, "Keys:").contains("scroll the box"),
            "{first}"
        );
        for _ in 0..20 {
            a.on_key(Key::PageDown);
        }
        let last = screen_of(&a, 90, 32);
        let end = &s.itemised[s.itemised.len() - 1];
        let words = format!("{} {}", a.name(end.to), end.amount);
        assert!(folded(&last).contains(&words), "{words}:\n{last}");
        assert!(last.contains("Press Enter"), "{last}");
        assert!(!last.contains("more payments"), "{last}");
        a.on_key(Key::PageUp);
        a.on_key(Key::Up);
        assert_eq!(
            a.mode(),
            &Mode::HandOver,
            "scrolling does not leave the box"
        );
        return;
    }
    panic!("no six-player hand had eight payments");
}

#[test]
fn scrolling_back_past_a_short_log_keeps_it_full() {
    let mut a = app("hongkong", 3, 8);
    a.run_bots();
    let n = a.messages().count();
    for _ in 0..4 {
        a.on_key(Key::PageUp);
        let s = screen_of(&a, 90, 32);
        let logged = s.lines().filter(|l| l.starts_with("» ")).count();
        assert!(logged >= 2.min(n), "the log area is empty:\n{s}");
    }
    a.on_key(Key::PageDown);
    a.on_key(Key::PageDown);
    a.on_key(Key::PageDown);
    a.on_key(Key::PageDown);
    assert_eq!(a.log_scroll(), 0);
}

#[test]
fn box_titles_are_whole_at_six_players_and_90_columns() {
    // 30-column boxes: "Bot 2 · East · -284 · dealer" does not fit, its short form does.
    for seed in 0..6 {
        let mut a = app_of("classic", r#"{"players": 6}"#, seed, 1);
        a.run_bots();
        let s = screen_of(&a, 90, 32);
        let dealer = a.name(a.observation().dealer).to_string();
        assert!(
            s.contains(&format!(" {dealer} · ")) && (s.contains("· dealer") || s.contains("· D ")),
            "seed {seed}: the dealer's title is cut:\n{s}"
        );
        for line in s.lines() {
            assert!(!line.contains("deale┐") && !line.contains("deal┐"), "{s}");
        }
    }
}

#[test]
fn hints_show_the_experts_suggestion_with_its_reason() {
    let r = Arc::new(Ruleset::from_name("hongkong", &Map::new()).unwrap());
    let mut app = App::new(r.clone(), 12, "efficient", Some(1), false)
        .unwrap()
        .with_hints(true);
    let mut shown = 0;
    for _ in 0..40 {
        app.run_bots();
        if app.mode() == &Mode::HandOver {
            break;
        }
        let obs = app.observation();
        let hint = app.hint();
        if obs.legal_actions.len() < 2 {
            assert_eq!(hint, None);
        } else {
            let hint = hint.expect("a decision gets a hint");
            // The library's suggestion for the person's own view, worded with its reason.
            let s = majiang::review::suggest(
                &obs,
                &obs.legal_actions,
                &r,
                app.seed(),
                majiang::bots::expert::Budget::DEFAULT,
            )
            .unwrap();
            assert!(obs.legal_actions.contains(&s.action));
            let words = match s.action {
                Action::Discard(t) => format!("expert: discard {t} — "),
                Action::Chow { .. } => "expert: chow ".to_string(),
                other => format!("expert: {other} — "),
            };
            assert!(hint.starts_with(&words), "{hint} / {words}");
            // The distance from ready the move leaves ("2 from ready", "ready on 6 unseen
            // tiles", "ready after its discard" for a claim).
            assert!(
                hint.contains("ready") || hint.contains("complete"),
                "{hint}"
            );
            assert!(hint.contains("chips a hand"), "{hint}");
            if matches!(s.action, Action::Discard(_)) {
                assert!(hint.contains("deals in"), "{hint}");
            }
            let screen = screen(&app);
            assert!(screen.contains("expert: "), "{screen}");
            shown += 1;
        }
        human_step(&mut app);
    }
    assert!(shown >= 3, "only {shown} hints");
    // Without --hints there are none.
    let plain = app_with("hongkong", 12, 1, "efficient");
    assert_eq!(plain.hint(), None);
    assert!(!screen(&plain).contains("expert: "));
}

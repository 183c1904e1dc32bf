//! Keys: what each does, what is refused and why, scrolling, and random keys that must not
//! break the game.

use super::*;

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
                // At 80×24 the claim's keys, then the choice's, are whole on the key line.
                let keys_at_80 = |a: &App| {
                    let s = screen_of(a, 80, 24);
                    let last = s.lines().last().unwrap().trim_end().to_string();
                    assert_eq!(last, format!("Keys: {}", a.keys().join("  ")), "{s}");
                    last
                };
                assert!(keys_at_80(&a).contains("c chow"));
                a.on_key(Key::Char('c'));
                let Mode::Choose(options) = a.mode().clone() else {
                    panic!("no choice offered");
                };
                assert_eq!(options.len(), chows);
                assert!(keys_at_80(&a).contains("Enter choose  Esc back"));
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
fn bots_help_lists_every_bot() {
    for bot in majiang::bots::BOT_NAMES {
        assert!(crate::play::bots_help().contains(bot), "{bot}");
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
    // A page up shows the messages just before those shown: the newest is gone, the one just
    // before the oldest shown is there, and the marker says what is below.
    let shown = s.lines().filter(|l| l.starts_with("» ")).count();
    a.on_key(Key::PageUp);
    assert_eq!(a.log_scroll(), shown);
    let s = screen_of(&a, 120, 40);
    assert!(s.contains(&format!("{shown} later — PgUp/PgDn")), "{s}");
    assert!(
        s.contains(&a.messages().nth(total - shown - 1).unwrap().to_string()),
        "{s}"
    );
    a.on_key(Key::PageDown);
    assert_eq!(a.log_scroll(), 0);
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

//! What the screen shows: the table, the hand, waits, hints and boxes kept whole at small sizes.

use super::*;

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
fn a_small_terminal_gets_a_message_and_the_minimum_gets_the_table() {
    let mut a = app("hongkong", 12, 16);
    a.run_bots();
    let small = screen_of(&a, 79, 23);
    assert!(small.contains("at least 80×24"), "{small}");
    assert!(small.contains("this one is 79×23"), "{small}");
    for (w, h) in [(80, 24), (90, 32)] {
        let fits = screen_of(&a, w, h);
        assert!(fits.contains("hand: ") && fits.contains("Keys:"), "{fits}");
        assert!(fits.contains("Bot 1") && fits.contains("Bot 2") && fits.contains("Bot 3"));
    }
    a.on_key(Key::Char('q'));
    assert!(screen_of(&a, 79, 23).contains("Abandon the match?"));
}

/// Every box on the screen is whole: each top-left corner has its top-right corner on the
/// same row, and a bottom-left and bottom-right corner below them, with side borders between.
pub(super) fn boxes_whole(s: &str) -> Result<usize, String> {
    let rows: Vec<Vec<char>> = s.lines().map(|l| l.chars().collect()).collect();
    let mut boxes = 0;
    for (y, row) in rows.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            if c != '┌' {
                continue;
            }
            let right = (x + 1..row.len())
                .find(|&k| row[k] == '┐')
                .ok_or(format!("a box at {x},{y} has no top-right corner"))?;
            let bottom = (y + 1..rows.len())
                .find(|&k| rows[k].get(x) == Some(&'└'))
                .ok_or(format!("a box at {x},{y} has no bottom"))?;
            if rows[bottom].get(right) != Some(&'┘') {
                return Err(format!("the box at {x},{y} has no bottom-right corner"));
            }
            for r in &rows[y + 1..bottom] {
                if r.get(x) != Some(&'│') || r.get(right) != Some(&'│') {
                    return Err(format!("the box at {x},{y} has a broken side"));
                }
            }
            boxes += 1;
        }
    }
    Ok(boxes)
}

#[test]
fn every_table_size_fits_80_by_24_and_larger_terminals_whole() {
    for players in 3u8..=6 {
        let mut a = classic_at(players, 5);
        let names: Vec<String> = (0..usize::from(players))
            .map(|p| a.name(majiang::table::Player(p as u8)).to_string())
            .collect();
        let mut checked = 0;
        for step in 0..400 {
            a.run_bots();
            if a.mode() != &Mode::Playing {
                break;
            }
            // Early, middle and late in the hand (the discard rows grow).
            if step % 3 == 0 {
                let obs = a.observation();
                for (w, h) in [(80, 24), (100, 30), (160, 50)] {
                    let s = screen_of(&a, w, h);
                    let at = format!("{players} players, {w}×{h}, step {step}:\n{s}");
                    // A box per player, each whole.
                    let boxes = boxes_whole(&s).unwrap_or_else(|e| panic!("{e}: {at}"));
                    assert!(boxes >= usize::from(players), "{boxes} boxes: {at}");
                    for name in &names {
                        assert!(s.contains(name.as_str()), "{name} missing: {at}");
                    }
                    // The whole hand, extra winds included; the key bar on the last row.
                    let shown = shown_hand(&s);
                    assert_eq!(
                        shown.len(),
                        obs.concealed.len() + obs.extra_winds.len(),
                        "{at}"
                    );
                    assert!(s.lines().last().unwrap().starts_with("Keys: "), "{at}");
                    // The status line's wall count (the centre box's, in the compact layout).
                    assert!(s.contains(&format!("wall {}", obs.live_wall)), "{at}");
                    // The newest discard of every player is in view.
                    if let Some((_, t)) = obs.last_discard {
                        assert!(s.contains(&t.to_string()), "{at}");
                    }
                    // The full layout from 90×32 keeps its centre box.
                    assert_eq!(s.contains(" table "), !view::compact(w, h), "{at}");
                }
                checked += 1;
            }
            human_step(&mut a);
        }
        assert!(checked >= 3, "{players} players: {checked}");
    }
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
    let (mut a, _, _) = at_a_gambit();
    let obs = a.observation();
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
    let r = Arc::new(TableRules::from_name("hongkong", &Map::new()).unwrap());
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
                majiang::review::EXPERT_SEED,
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
            // How it compares with the next best, in words (no bare figures).
            if let Some(runner_up) = s.runner_up {
                let word = match runner_up.band {
                    majiang::review::Band::AboutEqual => "about equal to ",
                    majiang::review::Band::Better => "did better in the playouts",
                    _ => "better than ",
                };
                assert!(hint.contains(word), "{hint}");
            }
            assert!(
                !hint.contains('±') && !hint.contains("chips a hand"),
                "{hint}"
            );
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

#[test]
fn a_glyph_beside_a_border_never_takes_the_border_away() {
    // A glyph, its space, a glyph right against a pop-up's border.
    let mut buf = ratatui::buffer::Buffer::with_lines(["🀇 🀈│"]);
    view::skip_after_glyphs(&mut buf);
    assert!(
        buf[(1, 0)].skip,
        "the space after a glyph is left to the terminal"
    );
    assert_eq!(buf[(3, 0)].symbol(), "│");
    assert!(!buf[(3, 0)].skip, "the border is always written");
    assert_eq!(buf[(2, 0)].symbol(), " ", "the glyph against it gives way");
}

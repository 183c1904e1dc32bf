//! The key line at the bottom: every list of keys the game shows fits 80 columns, each key
//! whole (the longest on a second row taken from the log), the table intact above it.

use super::layout::boxes_whole;
use super::*;
use crate::play::app::Offered;
use ratatui::text::Span;

/// The screen `w`×`h` with `keys` on the key line (the view's own drawing), as a terminal
/// shows it: a wide character (财飘) covers the cell after it.
fn screen_with_keys(app: &App, keys: &[&'static str], w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    let keys = keys.to_vec();
    t.draw(|f| view::draw_with_keys(f, app, &|| keys.clone()))
        .unwrap();
    let buf = t.backend().buffer();
    buf.content
        .chunks(usize::from(w))
        .map(|row| {
            let mut text = String::new();
            let mut covered = 0;
            for cell in row {
                if covered > 0 {
                    covered -= 1;
                    continue;
                }
                text.push_str(cell.symbol());
                covered = Span::raw(cell.symbol()).width().saturating_sub(1);
            }
            text
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The keys on the screen's key rows (from the last row starting "Keys: " to the bottom, the
/// rows after it indented under its first key), a key being what stands between two gaps of
/// two spaces; and how many rows they take.
fn shown_keys(s: &str) -> (Vec<String>, usize) {
    let rows: Vec<&str> = s.lines().collect();
    let first = rows
        .iter()
        .rposition(|r| r.starts_with("Keys: "))
        .unwrap_or_else(|| panic!("no key line:\n{s}"));
    let mut keys = Vec::new();
    for (i, row) in rows[first..].iter().enumerate() {
        let text = if i == 0 {
            &row["Keys: ".len()..]
        } else {
            assert!(
                row.starts_with("      "),
                "a key row not under the first:\n{s}"
            );
            &row[6..]
        };
        keys.extend(text.trim_end().split("  ").map(str::to_string));
    }
    (keys, rows.len() - first)
}

/// Every list of keys the table can show while playing: each combination of what may be on
/// offer (more than the game ever offers at once: discarding and claiming never go together).
fn every_playing_list() -> Vec<Vec<&'static str>> {
    (0u32..1 << 7)
        .map(|bits| {
            let on = |k: u32| bits & (1 << k) != 0;
            Offered {
                discard: on(0),
                gambit: on(0) && on(1),
                win: on(2),
                chow: on(3),
                pung: on(4),
                kong: on(5),
                pass: on(6),
            }
            .keys()
        })
        .collect()
}

/// One line's width in terminal cells, as "Keys: " and the keys two spaces apart.
fn one_line_width(keys: &[&str]) -> usize {
    Span::raw(format!("Keys: {}", keys.join("  "))).width()
}

/// The tables, from the first screen of a hand, at which the key line is checked: each rule
/// set, and classic at three to six players (the compact layout's fullest screens).
fn tables() -> Vec<(String, App)> {
    let mut out = Vec::new();
    for rules in ["hongkong", "hangzhou", "yangzhou", "classic"] {
        let mut a = app(rules, 7, 4);
        a.run_bots();
        out.push((rules.to_string(), a));
    }
    for players in 3u8..=6 {
        let mut a = classic_at(players, 5);
        a.run_bots();
        out.push((format!("classic at {players}"), a));
    }
    out
}

/// The checks on one screen showing `keys`: each key whole on the key rows and in order, the
/// boxes whole, the status line, the whole hand and the log still there.
fn check(s: &str, a: &App, keys: &[&str], at: &str) -> usize {
    let (shown, rows) = shown_keys(s);
    assert_eq!(shown, keys, "the keys are not all whole: {at}\n{s}");
    let players = a.observation().table.len();
    let boxes = boxes_whole(s).unwrap_or_else(|e| panic!("{e}: {at}\n{s}"));
    assert!(boxes >= players, "{boxes} boxes: {at}\n{s}");
    assert!(
        s.lines().next().unwrap().starts_with("majiang"),
        "{at}\n{s}"
    );
    assert_eq!(
        shown_hand(s).len(),
        a.observation().concealed.len(),
        "the hand is cut: {at}\n{s}"
    );
    assert!(s.lines().any(|l| l.starts_with("» ")), "no log: {at}\n{s}");
    rows
}

#[test]
fn the_longest_key_lines_fit_80_columns_each_key_whole_at_every_table() {
    let lists = every_playing_list();
    let longest = lists.iter().map(|k| one_line_width(k)).max().unwrap();
    // Discard (with the 财飘 note), win, chow, pung, kong and pass all offered: past 80.
    assert!(longest > 100, "{longest}");
    // What the game offers at its most on your turn: the 爆头 state (a wild discard would be
    // a Fortune Gambit, and the hand wins) with a kong to declare.
    let own_turn = Offered {
        discard: true,
        gambit: true,
        win: true,
        kong: true,
        ..Offered::default()
    }
    .keys();
    assert!(one_line_width(&own_turn) > 80, "{own_turn:?}");
    for (name, a) in tables() {
        let mut most_rows = 0;
        for keys in &lists {
            let s = screen_with_keys(&a, keys, 80, 24);
            let rows = check(&s, &a, keys, &format!("{name} at 80×24, {keys:?}"));
            // One row when the keys fit one, two otherwise.
            let wanted = if one_line_width(keys) <= 80 { 1 } else { 2 };
            assert_eq!(rows, wanted, "{name}, {keys:?}:\n{s}");
            most_rows = most_rows.max(rows);
        }
        assert_eq!(most_rows, 2, "{name}");
        // Wider and taller terminals: the longest list still whole.
        for (w, h) in [(90, 32), (100, 30), (160, 50)] {
            let keys = lists.iter().max_by_key(|k| one_line_width(k)).unwrap();
            let s = screen_with_keys(&a, keys, w, h);
            check(&s, &a, keys, &format!("{name} at {w}×{h}"));
        }
    }
}

#[test]
fn the_key_line_of_every_mode_is_whole_at_80_by_24() {
    let mut a = app("hangzhou", 3, 1);
    a.run_bots();
    let mut seen = Vec::new();
    let mut look = |a: &App| {
        // The app's own drawing, then its keys (the end-of-hand box says while drawn whether
        // it scrolls).
        let s = screen_of(a, 80, 24);
        let (shown, _) = shown_keys(&s);
        assert_eq!(shown, a.keys(), "{:?}:\n{s}", a.mode());
        seen.push(match a.mode() {
            Mode::Playing => "playing",
            Mode::Help(_) => "help",
            Mode::ConfirmQuit(_) => "quit?",
            Mode::HandOver => "hand over",
            Mode::MatchOver => "match over",
            Mode::Choose(_) | Mode::Quit => "other",
        });
    };
    look(&a);
    a.on_key(Key::Char('?'));
    look(&a);
    a.on_key(Key::Esc);
    a.on_key(Key::Char('q'));
    look(&a);
    a.on_key(Key::Char('n'));
    play_hand(&mut a);
    look(&a);
    a.on_key(Key::Enter);
    look(&a);
    assert_eq!(
        seen,
        ["playing", "help", "quit?", "hand over", "match over"]
    );
}

#[test]
fn the_baotou_state_shows_its_keys_whole_at_80_by_24() {
    let (a, _, _) = at_a_gambit();
    let keys = a.keys();
    for key in ["Enter discard", "(wild discard = 财飘)", "? help", "q quit"] {
        assert!(keys.contains(&key), "{keys:?}");
    }
    for (w, h) in [(80, 24), (120, 40)] {
        let s = screen_with_keys(&a, &keys, w, h);
        check(&s, &a, &keys, &format!("{w}×{h}"));
    }
}

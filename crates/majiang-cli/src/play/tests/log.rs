//! The game log under your box: every message whole at 80×24 and larger (wrapped at spaces),
//! paged with PgUp/PgDn without skipping any, the table intact around it.

use super::layout::boxes_whole;
use super::*;

/// A dismissal as `play` tells it (the words of `BotChoice::dismissals`).
const DISMISSAL: &str = "Bot 1 (cmd:python3 misbehaving_bot.py crash 2) was dismissed in hand 1: \
     the bot stopped: it closed its output (exit status: 3); efficient plays its seat on";

/// The log's messages on the screen, oldest first: a row starting "» " begins one, the rows
/// under it indented by two continue it; the page marker is left out.
fn logged(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for row in s.lines() {
        if let Some(text) = row.strip_prefix("» ") {
            out.push(text.trim_end().to_string());
            open = true;
        } else if open && row.starts_with("  ") && !row.trim().is_empty() {
            let last = out.last_mut().unwrap();
            last.push(' ');
            last.push_str(row.trim());
        } else {
            open = false;
        }
    }
    out.into_iter()
        .map(|m| match m.find("  (log: ") {
            Some(k) => m[..k].to_string(),
            None => m.trim_end().to_string(),
        })
        .map(|m| m.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// How many times the screen starts to say `DISMISSAL` (in the notice or the log, whole or
/// cut).
fn said(s: &str) -> usize {
    s.matches("Bot 1 (cmd:python3 misbehaving_bot.py").count()
}

/// Some hands' worth of play, with `DISMISSAL` told in the middle.
fn played_with_a_dismissal() -> App {
    let mut a = app("hongkong", 3, 8);
    for step in 0..12 {
        if step == 4 {
            a.tell(DISMISSAL.to_string());
        }
        a.run_bots();
        if a.mode() != &Mode::Playing {
            break;
        }
        human_step(&mut a);
    }
    a
}

#[test]
fn a_dismissal_is_whole_in_the_log_and_the_notice_at_80_by_24_and_larger() {
    let mut a = app("hongkong", 3, 8);
    a.run_bots();
    human_step(&mut a);
    a.tell(DISMISSAL.to_string());
    a.run_bots();
    assert!(a.human_to_act());
    // Told: the notice stays though the person's turn came, whole on its rows.
    assert_eq!(a.notice(), Some(DISMISSAL));
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        let s = screen_of(&a, w, h);
        let at = format!("{w}×{h}:\n{s}");
        assert!(folded(&s).contains(DISMISSAL), "the notice is cut: {at}");
        assert!(
            boxes_whole(&s).unwrap_or_else(|e| panic!("{e}: {at}")) >= 4,
            "{at}"
        );
        assert!(s.lines().next().unwrap().starts_with("majiang"), "{at}");
        assert!(s.lines().last().unwrap().starts_with("Keys: "), "{at}");
        assert_eq!(
            shown_hand(&s).len(),
            a.observation().concealed.len(),
            "the hand is cut: {at}"
        );
        // Said once: the log leaves it out while the notice shows it whole, and shows the
        // lines before and after it.
        assert_eq!(said(&s), 1, "{at}");
        let log = logged(&s);
        assert!(!log.iter().any(|m| m == DISMISSAL), "{log:?}: {at}");
        assert!(!log.is_empty(), "{at}");
        if (w, h) != (80, 24) {
            assert!(log.len() >= 3, "{log:?}: {at}");
        }
    }
    // The next key clears the notice; the log keeps every line it shows whole.
    a.on_key(Key::Char('z'));
    a.on_key(Key::Char('z'));
    assert_ne!(a.notice(), Some(DISMISSAL));
    let s = screen_of(&a, 100, 30);
    let log = logged(&s);
    assert!(log.iter().any(|m| m == DISMISSAL), "{log:?}:\n{s}");
    let all: Vec<&str> = a.messages().collect();
    for m in &log {
        assert!(
            all.contains(&m.as_str()),
            "{m:?} is not a whole message:\n{s}"
        );
    }
}

#[test]
fn paging_the_log_at_80_by_24_shows_every_message_whole_and_skips_none() {
    let mut a = played_with_a_dismissal();
    a.on_key(Key::Char('z')); // the notice goes: the log has its rows back
    let all: Vec<String> = a.messages().map(str::to_string).collect();
    assert!(all.iter().any(|m| m == DISMISSAL));
    assert!(all.len() > 30, "{}", all.len());
    // Up to the oldest page, then down to the newest: every message seen whole both ways.
    let mut pages = 0;
    for key in [Key::PageUp, Key::PageDown] {
        let mut seen = vec![false; all.len()];
        let mut last_scroll = None;
        for _ in 0..all.len() + 2 {
            let s = screen_of(&a, 80, 24);
            assert!(boxes_whole(&s).is_ok(), "{s}");
            assert!(s.lines().last().unwrap().starts_with("Keys: "), "{s}");
            let log = logged(&s);
            assert!(!log.is_empty(), "{s}");
            // The messages shown are whole, and the run of the log that the scroll says.
            let end = all.len() - a.log_scroll();
            let start = end.checked_sub(log.len()).unwrap_or_else(|| panic!("{s}"));
            assert_eq!(log, all[start..end], "at scroll {}:\n{s}", a.log_scroll());
            seen[start..end].fill(true);
            if Some(a.log_scroll()) == last_scroll {
                break;
            }
            last_scroll = Some(a.log_scroll());
            a.on_key(key);
            pages += 1;
        }
        let missed: Vec<&String> = (0..all.len())
            .filter(|&i| !seen[i])
            .map(|i| &all[i])
            .collect();
        assert!(missed.is_empty(), "{key:?} skipped {missed:?}");
    }
    assert_eq!(a.log_scroll(), 0, "PgDn comes back to the newest");
    assert!(pages > 10, "{pages}");
}

#[test]
fn a_message_taller_than_the_log_shows_its_start_and_says_it_goes_on() {
    let mut a = app("hongkong", 3, 8);
    a.run_bots();
    let long = format!("A very long line: {}", "word ".repeat(200));
    a.tell(long.trim_end().to_string());
    a.on_key(Key::Char('z'));
    let s = screen_of(&a, 80, 24);
    assert!(boxes_whole(&s).is_ok(), "{s}");
    let rows: Vec<&str> = s.lines().collect();
    let head = rows
        .iter()
        .position(|r| r.starts_with("» A very long line: word word"))
        .unwrap_or_else(|| panic!("{s}"));
    let tail = rows[head..]
        .iter()
        .position(|r| r.trim_end().ends_with('…'))
        .unwrap_or_else(|| panic!("no … on the cut message:\n{s}"));
    assert!(tail > 0, "{s}");
    assert!(rows[rows.len() - 1].starts_with("Keys: "), "{s}");
}

#[test]
fn a_long_notice_takes_the_logs_rows_never_the_tables_at_every_table_size() {
    for players in 3u8..=6 {
        let mut a = classic_at(players, 5);
        a.run_bots();
        let before = screen_of(&a, 80, 24);
        let table_rows = |s: &str| -> Vec<String> {
            s.lines()
                .take_while(|l| !l.starts_with("» "))
                .map(str::to_string)
                .collect()
        };
        a.tell(DISMISSAL.to_string());
        for (w, h) in [(80, 24), (100, 30), (160, 50)] {
            let s = screen_of(&a, w, h);
            let at = format!("{players} players at {w}×{h}:\n{s}");
            let boxes = boxes_whole(&s).unwrap_or_else(|e| panic!("{e}: {at}"));
            assert!(boxes >= usize::from(players), "{at}");
            assert!(s.lines().last().unwrap().starts_with("Keys: "), "{at}");
            if w == 80 {
                // The boxes and the hand are as they were; the notice's rows came from the log.
                assert_eq!(table_rows(&s), table_rows(&before), "{at}");
            }
            // The sentence whole: in the notice, or in the log where the notice is cut.
            assert!(
                folded(&s).contains(DISMISSAL) || logged(&s).iter().any(|m| m == DISMISSAL),
                "{at}"
            );
        }
    }
}

#[test]
fn a_notice_shown_whole_is_not_repeated_cut_in_the_log_at_every_table_size() {
    for players in 3u8..=6 {
        let mut a = classic_at(players, 5);
        a.run_bots();
        let before = logged(&screen_of(&a, 80, 24));
        // Told last: the newest line of the log, were it not in the notice.
        a.tell(DISMISSAL.to_string());
        for (w, h) in [(80, 24), (100, 30), (160, 50)] {
            let s = screen_of(&a, w, h);
            let at = format!("{players} players at {w}×{h}:\n{s}");
            assert!(folded(&s).contains(DISMISSAL), "the notice is cut: {at}");
            assert_eq!(said(&s), 1, "{at}");
            assert!(!s.contains('…'), "{at}");
            // The log shows the lines before it, whole, the newest last.
            let log = logged(&s);
            assert!(!log.is_empty(), "{at}");
            assert_eq!(log.last(), before.last(), "{at}");
            assert!(
                boxes_whole(&s).unwrap_or_else(|e| panic!("{e}: {at}")) >= usize::from(players)
            );
        }
        // The next key clears the notice: the log has the sentence back (whole where it fits,
        // its start otherwise) and the screen still says it once.
        a.on_key(Key::Char('z'));
        a.on_key(Key::Char('z'));
        for (w, h) in [(80, 24), (100, 30)] {
            let s = screen_of(&a, w, h);
            assert_eq!(said(&s), 1, "{players} players at {w}×{h}:\n{s}");
        }
        let s = screen_of(&a, 100, 30);
        assert!(logged(&s).iter().any(|m| m == DISMISSAL), "{s}");
    }
}

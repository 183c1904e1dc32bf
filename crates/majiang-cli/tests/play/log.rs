//! The game log in a real terminal at 80×24 and larger: an outside bot's dismissal, a long
//! sentence, shown whole and once (wrapped at spaces, no row past the screen's edge) with the
//! table intact around it, and paged back to whole after newer lines pushed it out.

use super::{actionable, keys_line, play_on, whole_boxes, with_a_crashing_bot};
use std::time::{Duration, Instant};

/// The screen's text with box borders and runs of spaces folded into single spaces.
fn folded(s: &str) -> String {
    s.replace(['│', '┌', '┐', '└', '┘', '─'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The dismissal told on `screen`, from its first word to its last ("… plays its seat on"),
/// if the screen has it whole.
fn dismissal(screen: &str) -> Option<String> {
    let text = folded(screen);
    let from = text.find("Bot 1 (cmd:")?;
    let to = text[from..].find("plays its seat on")? + from + "plays its seat on".len();
    Some(text[from..to].to_string())
}

/// The log's messages on the screen: a row starting "» " begins one, the rows under it
/// indented by two continue it (the page marker stays on).
fn logged(screen: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for row in screen.lines() {
        if let Some(text) = row.strip_prefix("» ") {
            out.push(text.trim().to_string());
            open = true;
        } else if open && row.starts_with("  ") && !row.trim().is_empty() {
            let last = out.last_mut().expect("a message begun");
            last.push(' ');
            last.push_str(row.trim());
        } else {
            open = false;
        }
    }
    out
}

/// The screen is `cols`×`rows` with the table whole: no row wider than the terminal, the status
/// line first, a box per player, the hand, the key line last.
fn assert_table_intact(screen: &str, cols: u16, rows: u16) {
    let at = format!("at {cols}×{rows}:\n{screen}");
    let lines: Vec<&str> = screen.lines().collect();
    assert!(
        lines.len() <= usize::from(rows),
        "{} rows {at}",
        lines.len()
    );
    for l in &lines {
        assert!(
            l.chars().count() <= usize::from(cols),
            "a row overflows {at}"
        );
    }
    assert!(lines[0].starts_with("majiang · Hong Kong mahjong"), "{at}");
    let boxes = whole_boxes(screen).unwrap_or_else(|e| panic!("{e} {at}"));
    assert!(boxes >= 4, "{boxes} boxes {at}");
    assert!(screen.contains("│hand: "), "{at}");
    assert!(
        lines.last().is_some_and(|l| l.starts_with("Keys: ")),
        "the key line is not last {at}"
    );
}

#[test]
fn an_outside_bots_dismissal_is_whole_at_80_by_24_and_larger_and_the_log_pages_back_to_it() {
    let mut s = with_a_crashing_bot();
    // Play (win, pass or discard) until the dismissal is told and it is the person's move.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        s.pump(Duration::from_millis(100));
        let screen = s.screen();
        if screen.contains("was dismissed") && actionable(&screen) {
            break;
        }
        assert!(
            Instant::now() < deadline && !s.closed,
            "no dismissal was told; the screen:\n{screen}"
        );
        if screen.contains("was dismissed") {
            continue;
        }
        play_on(&mut s, &screen);
    }
    s.wait_for("a finished frame", Duration::from_secs(10), actionable);
    // At 80×24 the notice has the sentence whole, from its name to its end, on two rows.
    let screen = s.screen();
    assert_table_intact(&screen, 80, 24);
    let told = dismissal(&screen).unwrap_or_else(|| panic!("not whole at 80×24:\n{screen}"));
    assert!(
        told.starts_with(
            "Bot 1 (cmd:python3 misbehaving_bot.py crash 2) was dismissed in hand 1: "
        ),
        "{told}"
    );
    assert!(!told.contains('»') && !told.contains("Keys:"), "{told}");
    assert_eq!(
        screen.matches("Bot 1 (cmd:").count(),
        1,
        "said twice:\n{screen}"
    );
    // Larger terminals: the notice has it whole, said once (the log leaves it out while the
    // notice shows it), the table intact.
    for (cols, rows) in [(100u16, 30u16), (120, 40)] {
        s.resize(cols, rows);
        s.wait_for(
            &format!("the table at {cols}×{rows}"),
            Duration::from_secs(10),
            |sc| actionable(sc) && sc.lines().count() > 24,
        );
        let screen = s.screen();
        assert_table_intact(&screen, cols, rows);
        assert_eq!(
            dismissal(&screen).as_deref(),
            Some(told.as_str()),
            "{cols}×{rows}:\n{screen}"
        );
        assert_eq!(
            screen.matches("Bot 1 (cmd:").count(),
            1,
            "{cols}×{rows}: said twice:\n{screen}"
        );
        let log = logged(&screen);
        assert!(
            !log.iter().any(|m| m.contains("Bot 1 (cmd:")),
            "{cols}×{rows}: the log repeats it: {log:?}\n{screen}"
        );
    }
    // Back at 80×24, one move on: the notice goes, newer lines push the sentence out of the
    // log's four rows, and PgUp pages back to it, whole.
    s.resize(80, 24);
    s.wait_for("the table at 80×24", Duration::from_secs(10), |sc| {
        actionable(sc) && sc.lines().count() <= 24
    });
    let keys = keys_line(&s.screen()).to_string();
    s.send(if keys.contains("Space pass") {
        " "
    } else {
        "\r"
    });
    let mut found = None;
    for _ in 0..12 {
        s.wait_for("the table after a key", Duration::from_secs(30), actionable);
        let screen = s.screen();
        assert_table_intact(&screen, 80, 24);
        if logged(&screen).iter().any(|m| m.starts_with(&told)) {
            found = Some(screen);
            break;
        }
        s.send("\x1b[5~"); // PgUp
    }
    let paged = found.expect("PgUp never showed the dismissal whole in the log at 80×24");
    assert!(paged.contains("later — PgUp/PgDn"), "{paged}");
    s.send("\x03");
    assert_eq!(s.exit_code(Duration::from_secs(5)), 130);
    // The report after the game says the same sentence (the terminal wraps it at its edge).
    s.pump(Duration::from_millis(200));
    let after: String = s.screen().split_whitespace().collect();
    let said: String = told.split_whitespace().collect();
    assert!(after.contains(&said), "{told}\n{}", s.screen());
}

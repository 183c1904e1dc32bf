//! The app without a terminal: keys in, the screen drawn into a ratatui test buffer.
//!
//! The helpers live here; the tests are split by what they check.

mod flow;
mod key_line;
mod keys;
mod layout;
mod log;
mod rules;

use super::app::{App, BotStep, Key, Mode};
use super::view;
use majiang::meld::MeldKind;
use majiang::table::{Action, TableRules};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::Map;
use std::sync::Arc;

fn app(rules: &str, seed: u64, hands: u32) -> App {
    app_with(rules, seed, hands, "efficient")
}

fn app_with(rules: &str, seed: u64, hands: u32, bots: &str) -> App {
    let r = Arc::new(TableRules::from_name(rules, &Map::new()).unwrap());
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

fn classic_at(players: u8, seed: u64) -> App {
    let mut options = Map::new();
    options.insert("players".into(), players.into());
    let r = Arc::new(TableRules::from_name("classic", &options).unwrap());
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

fn app_of(rules: &str, options: &str, seed: u64, hands: u32) -> App {
    let options: Map<String, serde_json::Value> = serde_json::from_str(options).unwrap();
    let r = Arc::new(TableRules::from_name(rules, &options).unwrap());
    App::new(r, seed, "efficient", Some(hands), true).unwrap()
}

/// The screen's text with box borders and runs of spaces folded into single spaces.
fn folded(s: &str) -> String {
    s.replace(['│', '┌', '┐', '└', '┘', '─'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A Hangzhou hand where the human, on turn, would make a Fortune Gambit (财飘) by discarding
/// the wildcard (the 爆头 state), and the keys pressed to get there from the first screen (the
/// seed is the one `app_with("hangzhou", seed, 1, "random")` was given). The human plays like
/// the efficient bot but never wins (a hand in the 爆头 state could win on any tile), against
/// random bots (long hands).
fn at_a_gambit() -> (App, u64, Vec<Key>) {
    use majiang::bots::{Bot, EfficientBot};
    for seed in 0..300 {
        let mut a = app_with("hangzhou", seed, 1, "random");
        let mut me = EfficientBot::new(Arc::clone(a.ruleset()), seed);
        let mut pressed = Vec::new();
        let mut press = |a: &mut App, key: Key| {
            pressed.push(key);
            a.on_key(key);
        };
        for _ in 0..200 {
            a.run_bots();
            if a.mode() != &Mode::Playing {
                break;
            }
            let obs = a.observation();
            if obs.wildcard_discard_is_gambit {
                return (a, seed, pressed);
            }
            let mut legal = obs.legal_actions.clone();
            legal.retain(|x| *x != Action::Win);
            match me.act(&obs, &legal) {
                Action::Discard(t) => {
                    let i = a.hand_tiles().iter().rposition(|&x| x == t).unwrap();
                    press(&mut a, Key::Home);
                    for _ in 0..i {
                        press(&mut a, Key::Right);
                    }
                    press(&mut a, Key::Enter);
                }
                Action::Pung => press(&mut a, Key::Char('p')),
                // As `human_step`.
                _ if obs.legal_actions.contains(&Action::Win) => press(&mut a, Key::Char('w')),
                _ if legal.contains(&Action::Pass) => press(&mut a, Key::Char(' ')),
                _ => press(&mut a, Key::Enter),
            }
            if a.notice().is_some() || matches!(a.mode(), Mode::Choose(_)) {
                // A kong or chow the keys offer as a choice: leave it, pass or discard.
                press(&mut a, Key::Esc);
                press(&mut a, Key::End);
                press(&mut a, Key::Enter);
            }
        }
    }
    panic!("no seed brought the human to a Fortune Gambit");
}

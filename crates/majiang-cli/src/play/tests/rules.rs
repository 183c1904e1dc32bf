//! The rules of revision 2 as the player at the terminal meets them: Hong Kong's missed win
//! (no win offered on a tile whose win they passed, and the screen says why) and the last
//! discard (offered only as a win).

use super::*;
use majiang::bots::{self, Bot};
use majiang::table::{ActionError, IllegalReason};

/// Hong Kong without flowers and with no minimum, so wins are offered often.
const HK: &str = r#"{"flowers": false, "min_fan": 0}"#;

/// One decision of a player who passes every win offered on a discard (and, unless
/// `self_draw`, every self-drawn win too: the tile drawn is thrown) and otherwise plays as the
/// efficient bot would, by keys: the cursor walked to the tile to discard.
fn passing_step(app: &mut App, bot: &mut dyn Bot, self_draw: bool) {
    let obs = app.observation();
    let legal = obs.legal_actions.clone();
    if obs.on_offer.is_some() {
        app.on_key(Key::Char(' '));
        return;
    }
    match bot.act(&obs, &legal) {
        Action::Win if self_draw => app.on_key(Key::Char('w')),
        a => {
            // A discard (a kong the bot would declare is played as a discard of that tile).
            let t = match a {
                Action::Discard(t) | Action::ConcealedKong(t) | Action::AddedKong(t) => t,
                _ => obs.drawn.unwrap_or(app.hand_tiles()[0]),
            };
            let at = app.hand_tiles().iter().position(|&x| x == t).unwrap_or(0);
            app.on_key(Key::Home);
            for _ in 0..at {
                app.on_key(Key::Right);
            }
            app.on_key(Key::Enter);
        }
    }
    assert_eq!(app.notice(), None, "a plain move was refused");
}

/// Plays Hong Kong matches from seed 0 against `bots` until the human (see [`passing_step`])
/// is asked to decide where `met` holds; returns the app there.
fn play_until(bots: &str, self_draw: bool, met: impl Fn(&App) -> bool) -> App {
    let r =
        Arc::new(TableRules::from_name("hongkong", &serde_json::from_str(HK).unwrap()).unwrap());
    for seed in 0..200 {
        let mut app = App::new(r.clone(), seed, bots, Some(4), false).unwrap();
        let mut bot = bots::by_name("efficient", &r, seed).unwrap();
        for _ in 0..5000 {
            app.run_bots();
            match app.mode() {
                Mode::Playing if app.human_to_act() => {}
                Mode::HandOver => {
                    app.on_key(Key::Enter);
                    continue;
                }
                _ => break,
            }
            if met(&app) {
                return app;
            }
            passing_step(&mut app, bot.as_mut(), self_draw);
        }
    }
    panic!("no match among 200 seeds met the case");
}

#[test]
fn a_passed_win_is_not_offered_again_and_the_screen_says_why() {
    let app = play_until("efficient", true, |app| {
        let obs = app.observation();
        obs.on_offer
            .is_some_and(|(_, t)| obs.missed_wins.contains(&t))
            && matches!(
                app.game().check(app.human(), Action::Win),
                Err(ActionError::Illegal {
                    reason: IllegalReason::MissedWin,
                    ..
                })
            )
    });
    let mut app = app;
    let obs = app.observation();
    let (_, t) = obs.on_offer.unwrap();
    assert!(!obs.legal_actions.contains(&Action::Win));
    assert!(obs.legal_actions.contains(&Action::Pass));
    let shown = folded(&screen(&app));
    assert!(
        shown.contains("you passed this tile's win: wait for your next draw."),
        "{shown}"
    );
    assert!(shown.contains("claim or pass"), "{shown}");
    // W asks for the win anyway: refused, with the reason, and the tile still on offer.
    app.on_key(Key::Char('w'));
    assert_eq!(
        app.notice(),
        Some("You cannot win: you passed this tile's win: wait for your next draw.")
    );
    assert_eq!(app.observation().on_offer.map(|(_, x)| x), Some(t));
    assert!(folded(&screen(&app)).contains("You cannot win: you passed this tile's win"));
}

#[test]
fn the_last_discard_is_offered_only_as_a_win_and_the_screen_says_so() {
    // Bots that rarely win, and a player who keeps a ready hand: hands reach the wall's end.
    let mut app = play_until("random", false, |app| {
        let obs = app.observation();
        obs.on_offer.is_some() && obs.live_wall == 0
    });
    let obs = app.observation();
    assert_eq!(obs.legal_actions, vec![Action::Win, Action::Pass]);
    let shown = folded(&screen(&app));
    assert!(shown.contains("the last discard: win or pass"), "{shown}");
    // P asks for a pung anyway: refused with the rule.
    app.on_key(Key::Char('p'));
    let told = app.notice().unwrap_or_default().to_string();
    assert!(
        told.ends_with("the last discard may be claimed only to win."),
        "{told}"
    );
    app.on_key(Key::Char('w'));
    assert_eq!(app.notice(), None);
    assert!(app.game().is_over(), "the last discard won");
}

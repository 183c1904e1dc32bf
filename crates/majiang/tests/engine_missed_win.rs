//! Hong Kong's missed win (house rule `missed_win`, RULES.md §4) on stacked walls: a seat that
//! passes a win may not win on that tile's kind, from a discard or a robbed kong, until its next
//! draw from the live wall; a kong replacement draw does not restore the right. The legal
//! actions never offer the barred win, and a seat that asks for it is told why.

use majiang::table::{
    Action, ActionError, Event, Game, HandOutcome, HandSetup, IllegalReason, Player, TableRules,
    Wall,
};
use majiang::{Tile, words::Words};
use majiang_testkit::engine::{act, ruleset, tile as t, tiles};
use serde_json::json;
use std::sync::Arc;

const P0: Player = Player(0);
const P1: Player = Player(1);
const P2: Player = Player(2);
const P3: Player = Player(3);

/// Hong Kong without flowers (every draw a playing tile) and with no minimum, so that the
/// plain hands below win; `missed_win` as given.
fn hong_kong(missed_win: bool) -> Arc<TableRules> {
    ruleset(
        "hongkong",
        json!({"flowers": false, "min_fan": 0, "missed_win": missed_win}),
    )
}

/// A hand on a stacked wall: `hands` from the dealer (chair 0), then the live draws, then the
/// replacement tiles.
fn start(r: &Arc<TableRules>, hands: [&str; 4], draws: &str, repl: &str) -> Game {
    let hands: Vec<Vec<Tile>> = hands.iter().map(|h| tiles(h)).collect();
    let wall = Wall::stacked(r.config(), &hands, &tiles(draws), &tiles(repl)).unwrap();
    Game::with_wall(r.clone(), HandSetup::new(1), wall)
        .unwrap()
        .0
}

fn chow(s: &str) -> Action {
    let v = tiles(s);
    Action::Chow {
        tiles: [v[0], v[1], v[2]],
    }
}

/// The reason `p`'s `action` is refused now (panics if it is accepted).
fn refusal(g: &Game, p: Player, action: Action) -> IllegalReason {
    match g.check(p, action) {
        Err(ActionError::Illegal { reason, .. }) => reason,
        other => panic!("{p} {action}: {other:?}"),
    }
}

/// Chair 2 waits on 2p-5p (123m 678p 34p 99m 777s); chair 0 (the dealer) throws a 5p first,
/// chair 3 holds the third 5p; chair 1 holds the fourth 7s.
const WAITS: [&str; 4] = [
    "5p 1m9m 1s9s 1z2z3z4z5z6z7z 2m8m",
    "2s3s 5s6s 7s 1z2z3z 4z5z6z 7m 8m",
    "123m 678p 34p 99m 7s7s7s",
    "2s3s 5s6s 8s 1z2z3z 4z5z6z 6m 5p",
];

/// The dealer throws 5p; chair 2, offered the win, passes it.
fn pass_the_first_5p(g: &mut Game) {
    act(g, P0, Action::Discard(t("5p")));
    assert_eq!(g.to_act().collect::<Vec<_>>(), vec![P2]);
    assert_eq!(g.legal_actions(P2), vec![Action::Win, Action::Pass]);
    assert!(g.missed_wins(P2).is_empty());
    act(g, P2, Action::Pass);
    assert_eq!(g.missed_wins(P2), vec![t("5p")]);
}

#[test]
fn a_passed_win_bars_the_kind_until_the_next_live_wall_draw() {
    let r = hong_kong(true);
    let mut g = start(&r, WAITS, "5p 9p 1s", "");
    pass_the_first_5p(&mut g);
    // Chair 1 draws the next 5p and throws it: chair 2, on its left, may chow it but not win.
    assert_eq!(g.turn(), Some(P1));
    act(&mut g, P1, Action::Discard(t("5p")));
    assert_eq!(
        g.legal_actions(P2),
        vec![chow("345p"), chow("456p"), chow("567p"), Action::Pass]
    );
    assert!(!g.legal_set(P2).contains(Action::Win));
    assert!(!g.observation(P2).legal_actions.contains(&Action::Win));
    assert_eq!(refusal(&g, P2, Action::Win), IllegalReason::MissedWin);
    let e = g.apply(P2, Action::Win).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("now: you passed this tile's win: wait for your next draw"),
        "{e}"
    );
    assert_eq!(e.words().key(), "illegal.missed_win");
    // Chair 2's next draw from the live wall restores the right.
    act(&mut g, P2, Action::Pass);
    assert_eq!(g.turn(), Some(P2));
    assert!(g.missed_wins(P2).is_empty());
    act(&mut g, P2, Action::Discard(t("9p")));
    act(&mut g, P3, Action::Discard(t("5p")));
    assert_eq!(g.legal_actions(P2), vec![Action::Win, Action::Pass]);
    act(&mut g, P2, Action::Win);
    assert_eq!(g.outcome().and_then(HandOutcome::winner), Some(P2));
}

#[test]
fn without_the_house_rule_a_passed_win_is_offered_again() {
    let r = hong_kong(false);
    let mut g = start(&r, WAITS, "5p 9p 1s", "");
    act(&mut g, P0, Action::Discard(t("5p")));
    act(&mut g, P2, Action::Pass);
    assert!(g.missed_wins(P2).is_empty());
    act(&mut g, P1, Action::Discard(t("5p")));
    assert_eq!(g.legal_actions(P2)[0], Action::Win);
    act(&mut g, P2, Action::Win);
    assert_eq!(g.outcome().and_then(HandOutcome::winner), Some(P2));
    // The default is the seed's: the missed win is on.
    let default = ruleset("hongkong", json!({}));
    assert!(default.missed_win());
    assert_eq!(default.options_json()["missed_win"], json!(true));
    assert!(!ruleset("classic", json!({})).missed_win());
}

#[test]
fn a_kong_replacement_draw_does_not_restore_the_right() {
    let r = hong_kong(true);
    let mut g = start(&r, WAITS, "5p 1s", "9p");
    pass_the_first_5p(&mut g);
    // Chair 1 throws the fourth 7s: chair 2 claims the kong and draws a replacement tile.
    act(&mut g, P1, Action::Discard(t("7s")));
    assert_eq!(
        g.legal_actions(P2),
        vec![Action::Kong, Action::Pung, Action::Pass]
    );
    let events = act(&mut g, P2, Action::Kong);
    assert!(events.iter().any(
        |e| matches!(e, Event::ReplacementDrawn { player, tile: Some(x) } if *player == P2 && *x == t("9p"))
    ));
    assert_eq!(g.missed_wins(P2), vec![t("5p")]);
    act(&mut g, P2, Action::Discard(t("9p")));
    // Chair 3 throws a 5p: chair 2 still may not win on it, so nobody is asked and the dealer
    // draws.
    assert_eq!(g.turn(), Some(P3));
    let events = act(&mut g, P3, Action::Discard(t("5p")));
    assert!(matches!(events.last(), Some(Event::Drew { player, .. }) if *player == P0));
    assert_eq!(g.turn(), Some(P0));
    assert_eq!(g.missed_wins(P2), vec![t("5p")]);
}

/// Chair 3 waits on 2p-5p; chair 1 holds three 5p (a pung of the dealer's 5p, then the fourth
/// added from the hand); chair 2 draws 6p to wait on 5p as well.
const ROBBING: [&str; 4] = [
    "5p 7z7z 1m9m 1s9s 2z3z4z 2m8m 5z6z",
    "5p5p5p 9s 2s3s 5s6s 8s 1z2z3z 4z",
    "456m 789m 123s 4p 1z1z 7z",
    "123m 678p 789s 34p 99m",
];

#[test]
fn a_passed_win_bars_robbing_a_kong_of_the_kind_and_a_passed_rob_bars_too() {
    let r = hong_kong(true);
    let mut g = start(&r, ROBBING, "6p 9p", "1p");
    // The dealer throws 5p: chair 3 passes the win, chair 1 pungs.
    act(&mut g, P0, Action::Discard(t("5p")));
    assert_eq!(g.legal_actions(P3), vec![Action::Win, Action::Pass]);
    act(&mut g, P3, Action::Pass);
    act(&mut g, P1, Action::Pung);
    assert_eq!(g.missed_wins(P3), vec![t("5p")]);
    act(&mut g, P1, Action::Discard(t("9s")));
    // Chair 2 draws 6p (now waiting on 5p) and throws 7z; the dealer pungs it, so chair 3 does
    // not draw.
    assert_eq!(g.turn(), Some(P2));
    act(&mut g, P2, Action::Discard(t("7z")));
    act(&mut g, P0, Action::Pung);
    act(&mut g, P0, Action::Discard(t("5z")));
    // Chair 1 draws and adds the fourth 5p to its pung: chair 2 may rob it, chair 3 may not.
    assert_eq!(g.turn(), Some(P1));
    act(&mut g, P1, Action::AddedKong(t("5p")));
    assert_eq!(g.to_act().collect::<Vec<_>>(), vec![P2]);
    assert_eq!(g.legal_actions(P2), vec![Action::Win, Action::Pass]);
    assert!(g.legal_actions(P3).is_empty());
    assert_eq!(refusal(&g, P3, Action::Win), IllegalReason::MissedWin);
    // Chair 2 passes the rob: now it is barred on 5p too, and the kong completes.
    let events = act(&mut g, P2, Action::Pass);
    assert!(matches!(
        events[0],
        Event::ReplacementDrawn { player, .. } if player == P1
    ));
    assert_eq!(g.missed_wins(P2), vec![t("5p")]);
    assert_eq!(g.missed_wins(P3), vec![t("5p")]);
    // Chair 1 discards; chair 2's draw restores chair 2 only.
    act(&mut g, P1, Action::Discard(t("1p")));
    assert_eq!(g.turn(), Some(P2));
    assert!(g.missed_wins(P2).is_empty());
    assert_eq!(g.missed_wins(P3), vec![t("5p")]);
}

#[test]
fn the_refusal_is_worded_for_every_front_end() {
    let words: Words = IllegalReason::MissedWin.words();
    assert_eq!(words.key(), "illegal.missed_win");
    assert_eq!(
        words.to_string(),
        "you passed this tile's win: wait for your next draw"
    );
    let keys: Vec<&str> = majiang::table::messages().iter().map(|d| d.key).collect();
    assert!(keys.contains(&"illegal.missed_win"));
    assert!(keys.contains(&"illegal.last_discard"));
}

//! The claim and turn timers follow who plays the seats: a seat a bot was given at the start
//! ("start now, fill empty seats with bots") and its person took back is played, from then on,
//! with the timers of a room of people — not those of the room as it started, with one person
//! (no timers, no claim window: a person could then hold the table for ever, and the pace of
//! every discard would tell whether a person could claim it).

use super::*;
use crate::protocol::{CLAIM_WINDOW_MARGIN_MS, DEFAULT_CLAIM_TIMEOUT_MS, DEFAULT_TURN_TIMEOUT_MS};

fn open(conn: ConnId, seat: usize) -> Input {
    Input::Open {
        conn,
        seat: Some(seat),
        deltas: true,
        device: None,
    }
}

/// Ann and Bo with two bots and no timers set (in a room of two people: the defaults, a turn
/// timer, a claim timer and its window); Ann starts with a bot in Bo's seat (a room of one
/// person: no timers, no window), and Bo's link watches.
fn ann_starts_alone(take_back: &str) -> Harness {
    let mut h = Harness::new(
        json!({
            "rules": "hongkong", "hands": 2, "take_back": take_back,
            "continue_timeout_ms": 600000,
            "seats": [{"name": "Ann"}, {"name": "Bo"}, {"bot": true}, {"bot": true}]
        }),
        11,
    );
    h.input(open(1, 0));
    h.msg(1, ClientMsg::Start { fill_bots: true });
    assert_eq!(h.room.status(), RoomStatus::Playing);
    h.input(open(2, 1));
    h
}

/// The countdowns of the last `state` sent to `conn`: (the decision's, the claim's), in
/// milliseconds left when it was sent.
fn countdown(h: &Harness, conn: ConnId) -> (Option<u64>, Option<u64>) {
    match h.last_state(conn) {
        ServerMsg::State {
            deadline_ms,
            claim_deadline_ms,
            ..
        } => (*deadline_ms, *claim_deadline_ms),
        _ => unreachable!(),
    }
}

/// True when the person on `seat` is shown a decision (not held back by a claim window).
fn shown(h: &Harness, seat: usize) -> bool {
    h.room.status() == RoomStatus::Playing && h.must_act(seat) && !h.room.held(h.chair(seat))
}

/// True when no tile is on offer (a decision shown now is a turn).
fn a_turn(h: &Harness) -> bool {
    h.room
        .session()
        .is_some_and(|s| s.game().on_offer().is_none())
}

/// Runs the room while `go` holds, Ann (seat 0, connection 1) playing her first legal action
/// as soon as she is shown a decision; the clock moves to each wake-up.
fn ann_plays_while(h: &mut Harness, mut go: impl FnMut(&Harness) -> bool) {
    let mut seq = 1000;
    let mut steps = 0;
    while go(h) {
        steps += 1;
        assert!(steps < 100_000, "the room keeps going");
        if shown(h, 0) {
            seq += 1;
            let action = first_legal(h, 0);
            h.msg(1, ClientMsg::Action { seq, action });
            continue;
        }
        let at = h
            .wake
            .unwrap_or_else(|| panic!("the room waits for nothing at {}", h.now));
        h.now = h.now.max(at);
        h.input(Input::Timer);
    }
}

/// True when `chair` has an action stored from the `since`th on.
fn played_since(h: &Harness, chair: Player, since: usize) -> bool {
    h.stored[since..].iter().any(|a| a.player == chair)
}

#[test]
fn a_seat_taken_back_between_hands_plays_with_the_timers_of_a_room_of_people() {
    let mut h = ann_starts_alone("next_hand");
    // One person: Ann's decisions have no countdown.
    ann_plays_while(&mut h, |h| !shown(h, 0));
    assert_eq!(countdown(&h, 1), (None, None), "no timers with one person");
    h.msg(2, ClientMsg::TakeSeat {});
    ann_plays_while(&mut h, |h| h.room.status() == RoomStatus::Playing);
    assert_eq!(h.room.status(), RoomStatus::HandOver);
    assert!(!h.room.config.seats[1].bot, "Bo's seat again");
    let written = h.last_config_written();
    h.msg(1, ClientMsg::Continue {});
    h.msg(2, ClientMsg::Continue {});
    assert_eq!(h.room.status(), RoomStatus::Playing);
    // Bo does not answer: each of his decisions shows the room's countdown (the whole claim
    // timer for a tile on offer, which every discard waits out; the whole turn timer for a
    // turn after a discard), and the stand-in plays it when it runs out, not before.
    let bo = h.chair(1);
    let (mut claims, mut turns) = (0, 0);
    while claims == 0 || turns == 0 {
        // Until Bo is shown a decision and Ann (who answers at once) is not.
        let bo_waits = |h: &Harness| shown(h, 1) && !shown(h, 0);
        ann_plays_while(&mut h, |h| !bo_waits(h) && !over(h));
        assert!(
            !over(&h),
            "the match ended with {claims} claims and {turns} turns of Bo's seen"
        );
        let shown_at = h.now;
        let since = h.stored.len();
        let left = match countdown(&h, 2) {
            (Some(left), Some(claim)) => {
                assert_eq!(left, claim);
                assert_eq!(left, DEFAULT_CLAIM_TIMEOUT_MS, "a claim's countdown");
                assert_eq!(
                    h.room.window_end,
                    Some(shown_at + DEFAULT_CLAIM_TIMEOUT_MS + CLAIM_WINDOW_MARGIN_MS),
                    "the discard's claim window is the claim timer's"
                );
                claims += 1;
                left
            }
            (Some(left), None) => {
                assert!(a_turn(&h));
                assert!(left <= DEFAULT_TURN_TIMEOUT_MS, "{left}");
                if left == DEFAULT_TURN_TIMEOUT_MS {
                    turns += 1;
                }
                left
            }
            other => panic!("no countdown for Bo's decision: {other:?}"),
        };
        h.run_until(shown_at + left - 1, |h| !played_since(h, bo, since));
        assert!(!played_since(&h, bo, since), "not before his timer ran out");
        h.run_until(shown_at + left, |h| !played_since(h, bo, since));
        assert!(
            played_since(&h, bo, since),
            "the stand-in played at its end"
        );
        assert_eq!(h.now, shown_at + left);
    }
    assert_eq!(
        (written.claim_timeout_ms, written.turn_timeout_ms),
        (None, None),
        "the creator set no timers: the room's defaults, for the people it has"
    );
    // The room restored from what was stored plays with the same timers.
    let stored = StoredRoom {
        config: written,
        status: RoomStatus::Playing,
        ..stored_room(
            json!({"rules": "hongkong", "seats": [{"name": "Ann"}, {"name": "Bo"}, {"bot": true}, {"bot": true}]}),
            11,
        )
    };
    let restored = Room::restore(&stored, &h.stored, h.now, 0).unwrap();
    let timers = |r: &Room| r.driver.as_ref().unwrap().timers();
    assert_eq!(timers(&restored), timers(&h.room));
}

#[test]
fn a_seat_taken_back_at_once_starts_the_timers_from_then() {
    let mut h = ann_starts_alone("at_once");
    ann_plays_while(&mut h, |h| !(shown(h, 0) && a_turn(h)));
    // Ann thinks over her turn for a minute: she has no timer (one person).
    let actions = h.room.actions();
    h.now += 60_000;
    h.input(Input::Timer);
    assert_eq!(h.room.actions(), actions);
    assert_eq!(countdown(&h, 1), (None, None));
    // Bo takes his seat in the hand: the table has a room of two people's timers from now, so
    // Ann's turn has the whole turn timer from now (the minute she had without one is not
    // counted against her).
    h.msg(2, ClientMsg::TakeSeat {});
    assert!(!h.room.config.seats[1].bot, "taken back in the hand");
    let taken = h.now;
    assert_eq!(
        countdown(&h, 1),
        (Some(DEFAULT_TURN_TIMEOUT_MS), None),
        "Ann's turn timer runs from the take-back"
    );
    let ann = h.chair(0);
    let since = h.stored.len();
    h.run_until(taken + DEFAULT_TURN_TIMEOUT_MS - 1, |_| true);
    assert!(
        !played_since(&h, ann, since),
        "not before her timer ran out"
    );
    h.run_until(taken + DEFAULT_TURN_TIMEOUT_MS, |h| {
        !played_since(h, ann, since)
    });
    assert!(played_since(&h, ann, since), "the stand-in played her turn");
}

//! Who holds a seat and what a connection that opens is shown: a connection opened while a
//! tile is on offer (a reload, a spectator's link) is shown the table before the discard.

use super::*;

fn open(conn: ConnId, seat: Option<usize>, deltas: bool) -> Input {
    Input::Open {
        conn,
        seat,
        deltas,
        device: None,
    }
}

fn observation_of(msg: &ServerMsg) -> Option<&majiang::table::Observation> {
    match msg {
        ServerMsg::State { observation, .. } => observation.as_deref(),
        _ => None,
    }
}

#[test]
fn a_connection_opened_during_a_claim_window_is_shown_the_table_at_once() {
    // Ann and Bo play; a spectator watches from the start. Every discard waits out the claim
    // window (5 s): what followed it is held back from whoever is not asked about the tile.
    let mut h = ann_and_bo();
    h.input(open(10, None, false));
    h.input(open(1, Some(0), true));
    h.input(open(2, Some(1), true));
    assert_eq!(h.room.status(), RoomStatus::Playing);
    h.run_until(u64::MAX, |h| h.room.window_end.is_none());
    let end = h.room.window_end.expect("a claim window open");
    // Ann reloads and a second spectator opens the link, inside the window.
    h.input(Input::Close { conn: 1 });
    h.input(open(3, Some(0), true));
    h.input(open(4, None, true));
    assert!(h.room.held(SPECTATOR), "the spectators are held back");
    for conn in [3, 4] {
        let state = h
            .messages(conn)
            .into_iter()
            .find(|m| matches!(m, ServerMsg::State { .. }))
            .unwrap_or_else(|| panic!("connection {conn}: no state before the window ends"));
        let obs = observation_of(state).expect("the table");
        assert!(obs.legal_actions.is_empty(), "nothing to do while held");
        match state {
            ServerMsg::State {
                seats, deadline_ms, ..
            } => {
                assert_eq!(seats.len(), 4);
                assert!(seats.iter().all(|s| s.player.is_some()), "{seats:?}");
                assert_eq!(*deadline_ms, None);
            }
            _ => unreachable!(),
        }
    }
    // It is what the spectator who watched all along holds: the table before the discard.
    assert_eq!(
        observation_of(h.last_state(4)),
        observation_of(h.last_state(10))
    );
    assert!(h.now < end);
    // Once the window ends, the newcomers' states (the later ones made by deltas on the held
    // one) are everyone's.
    h.run_until(end, |h| h.room.window_end.is_some_and(|e| e == end));
    assert!(h.room.window_end != Some(end));
    assert_eq!(
        observation_of(h.last_state(4)),
        observation_of(h.last_state(10))
    );
    h.input(open(5, Some(0), false));
    assert_eq!(
        observation_of(h.last_state(3)),
        observation_of(h.last_state(5)),
        "Ann's reloaded page holds her table"
    );
}

fn open_on(conn: ConnId, seat: usize, device: Option<&str>) -> Input {
    Input::Open {
        conn,
        seat: Some(seat),
        deltas: true,
        device: device.map(str::to_string),
    }
}

fn taken_over(h: &Harness, conn: ConnId) -> bool {
    let told = h
        .seen
        .iter()
        .position(|s| matches!(s, Seen::Msg(c, ServerMsg::TakenOver {}) if *c == conn));
    let closed = h
        .seen
        .iter()
        .position(|s| matches!(s, Seen::Closed(c) if *c == conn));
    match (told, closed) {
        (Some(t), Some(c)) => t < c,
        (None, None) => false,
        other => panic!("connection {conn}: told and closed {other:?}"),
    }
}

#[test]
fn a_seat_opened_on_another_device_plays_there_and_the_first_is_told() {
    let mut h = with_a_person(json!({}));
    // The page was opened on Ann's phone (device "phone"); she opens the link on her laptop.
    h.input(open_on(2, 0, Some("phone")));
    h.input(open_on(3, 0, Some("laptop")));
    assert!(taken_over(&h, 2), "the phone is told, then closed");
    assert!(!taken_over(&h, 3));
    assert!(
        !h.room.conns.iter().any(|c| c.id == 2),
        "the room forgot it"
    );
    // The seat stayed present: the laptop's state is hers, with her decision in it.
    let state = h.last_state(3).clone();
    match &state {
        ServerMsg::State {
            seats, observation, ..
        } => {
            assert!(seats[0].connected && !seats[0].away, "{seats:?}");
            let obs = observation.as_ref().expect("her table");
            assert!(!obs.legal_actions.is_empty(), "it is her turn there");
        }
        _ => unreachable!(),
    }
    // The laptop reloads (the same device): it resumes, nobody is told.
    h.input(open_on(4, 0, Some("laptop")));
    assert!(!taken_over(&h, 3) && !taken_over(&h, 4));
    // A connection without a device id (the first, conn 1, and a new one) shares the seat
    // whatever the devices do.
    h.input(open_on(5, 0, None));
    assert!(!taken_over(&h, 5) && !taken_over(&h, 3) && !taken_over(&h, 4));
    // The phone takes it back: both of the laptop's connections are told; those without a
    // device id are not.
    h.input(open_on(6, 0, Some("phone")));
    assert!(taken_over(&h, 3) && taken_over(&h, 4));
    assert!(!taken_over(&h, 1) && !taken_over(&h, 5) && !taken_over(&h, 6));
    // And the phone plays: its action is acknowledged.
    let action = first_legal(&h, 0);
    h.msg(6, ClientMsg::Action { seq: 1, action });
    assert_eq!(h.acks(6), vec![1]);
}

/// Ann starts with bots in the empty seats; Bo's link comes late and watches, told a bot holds
/// his seat. The timers play for whoever does not answer (500 ms).
fn bo_comes_late(take_back: &str) -> Harness {
    let mut h = Harness::new(
        json!({
            "rules": "hongkong", "hands": 2, "take_back": take_back,
            "turn_timeout_ms": 500, "claim_timeout_ms": 500, "continue_timeout_ms": 60000,
            "seats": [{"name": "Ann"}, {"name": "Bo"}, {"bot": true}, {"bot": true}]
        }),
        11,
    );
    h.input(open(1, Some(0), true));
    h.msg(1, ClientMsg::Start { fill_bots: true });
    assert_eq!(h.room.status(), RoomStatus::Playing);
    h.input(open(2, Some(1), true));
    assert!(matches!(
        h.messages(2)[0],
        ServerMsg::Welcome {
            seat: None,
            bot_holds: Some(1),
            ..
        }
    ));
    h
}

fn welcomed_on(h: &Harness, conn: ConnId) -> Vec<Option<usize>> {
    h.messages(conn)
        .into_iter()
        .filter_map(|m| match m {
            ServerMsg::Welcome { seat, .. } => Some(*seat),
            _ => None,
        })
        .collect()
}

fn seat_is_bot(h: &Harness, seat: usize) -> bool {
    h.room.config.seats[seat].bot
}

#[test]
fn a_late_friend_takes_the_seat_back_at_the_next_hand_and_plays_it() {
    let mut h = bo_comes_late("next_hand");
    // A key that names no seat a bot holds has nothing to take back.
    h.msg(1, ClientMsg::TakeSeat {});
    assert_eq!(last_refusal(&h, 1), "room.no_seat_to_take_back");
    h.msg(2, ClientMsg::TakeSeat {});
    // The bot plays the hand out.
    let asked = h.room.actions();
    h.run_until(u64::MAX, |h| h.room.actions() < asked + 10);
    assert_eq!(h.room.status(), RoomStatus::Playing);
    assert!(seat_is_bot(&h, 1), "not before the hand ends");
    assert_eq!(welcomed_on(&h, 2), vec![None]);
    h.run_until(u64::MAX, |h| h.room.status() == RoomStatus::Playing);
    assert_eq!(h.room.status(), RoomStatus::HandOver);
    // Between hands the seat is Bo's again: written, and his page welcomed on it, with the
    // hand's result.
    assert!(!seat_is_bot(&h, 1));
    let config = h.last_config_written();
    assert!(!config.seats[1].bot && config.seats[1].bot_kind.is_none());
    assert_eq!(welcomed_on(&h, 2), vec![None, Some(1)]);
    assert!(
        h.messages(2)
            .iter()
            .any(|m| matches!(m, ServerMsg::HandResult { .. }))
    );
    match h.last_state(2) {
        ServerMsg::State {
            seats, continue_, ..
        } => {
            assert!(!seats[1].bot && seats[1].connected, "{seats:?}");
            let waiting = &continue_
                .as_ref()
                .expect("waiting for continue")
                .waiting_for;
            assert!(waiting.contains(&h.chair(1)), "the deal waits for Bo too");
        }
        _ => unreachable!(),
    }
    // Both continue; in the next hand Bo decides for his seat.
    h.msg(1, ClientMsg::Continue {});
    h.msg(2, ClientMsg::Continue {});
    assert_eq!(h.room.status(), RoomStatus::Playing);
    h.run_until(u64::MAX, |h| !h.must_act(1) && !over(h));
    assert!(h.must_act(1), "Bo's turn or claim comes");
    let action = first_legal(&h, 1);
    h.msg(2, ClientMsg::Action { seq: 7, action });
    assert_eq!(h.acks(2), vec![7]);
    // The room restored from what was stored plays on as this one.
    let stored = StoredRoom {
        config,
        status: RoomStatus::Playing,
        ..stored_room(
            json!({"rules": "hongkong", "seats": [{"name": "Ann"}, {"name": "Bo"}, {"bot": true}, {"bot": true}]}),
            11,
        )
    };
    let restored = Room::restore(&stored, &h.stored, h.now, 0).unwrap();
    assert_eq!(restored.actions(), h.room.actions());
    assert_eq!(
        restored.session().unwrap().game().observation(h.chair(1)),
        h.room.session().unwrap().game().observation(h.chair(1))
    );
}

#[test]
fn a_late_friend_takes_the_seat_back_at_once_when_the_host_chose_so() {
    let mut h = bo_comes_late("at_once");
    assert_eq!(h.room.config.take_back, crate::protocol::TakeBack::AtOnce);
    let hand = h.room.session().unwrap().hand_number();
    h.msg(2, ClientMsg::TakeSeat {});
    assert!(!seat_is_bot(&h, 1), "taken back in the hand");
    assert_eq!(welcomed_on(&h, 2), vec![None, Some(1)]);
    h.run_until(u64::MAX, |h| !h.must_act(1) && !over(h));
    assert_eq!(h.room.session().unwrap().hand_number(), hand);
    let action = first_legal(&h, 1);
    h.msg(2, ClientMsg::Action { seq: 1, action });
    assert_eq!(h.acks(2), vec![1]);
}

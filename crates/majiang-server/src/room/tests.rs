//! Unit tests of the room's state machine, with time as a value: a harness stands for the
//! task (it performs writes in a list that can fail or fence, and fires the timer when told).

use super::*;
use crate::protocol::{ClientMsg, RoomConfig, RoomStatus, ServerMsg};
use crate::store::{StoredAction, StoredRoom};
use majiang::table::log::LogRecord;
use majiang::table::{Action, Event, Player};
use serde_json::json;
use std::collections::VecDeque;

/// What the room did, in order.
#[derive(Debug, Clone, PartialEq)]
enum Seen {
    Msg(ConnId, ServerMsg),
    Write(Write),
    Closed(ConnId),
    /// An order for a seat's outside bot.
    Bot(usize, BotOrder),
    Dismissed(Dismissal),
}

struct Harness {
    room: Room,
    now: u64,
    seen: Vec<Seen>,
    stored: Vec<StoredAction>,
    /// Writes fail (the database is down).
    down: bool,
    /// Writes are refused as lapsed (the lease ran out; nobody took the room over).
    lapsed: bool,
    /// Writes are fenced (another process holds the room).
    fenced: bool,
    wake: Option<u64>,
    stopped: bool,
    /// The connections sent a `state_delta`, once a delta.
    deltas: Vec<ConnId>,
}

fn stored_room(config: serde_json::Value, seed: u64) -> StoredRoom {
    let mut config: RoomConfig = serde_json::from_value(config).unwrap();
    config.validate().unwrap();
    StoredRoom {
        id: "r1".into(),
        tokens: config
            .seats
            .iter()
            .map(|s| (!s.bot).then(|| "t".into()))
            .collect(),
        config,
        seed,
        status: RoomStatus::Waiting,
        created: 0,
        finished: None,
        rules_revision: Some(majiang::table::log::RULES_REVISION),
    }
}

impl Harness {
    fn new(config: serde_json::Value, seed: u64) -> Harness {
        Harness::with_bots(config, seed, &crate::external_bots::ExternalBots::none())
    }

    /// A room on a server allowing the outside bots `bots`.
    fn with_bots(
        config: serde_json::Value,
        seed: u64,
        bots: &crate::external_bots::ExternalBots,
    ) -> Harness {
        Harness {
            room: Room::restore_with(&stored_room(config, seed), &[], 0, 0, bots).unwrap(),
            now: 0,
            seen: Vec::new(),
            stored: Vec::new(),
            down: false,
            lapsed: false,
            fenced: false,
            wake: None,
            stopped: false,
            deltas: Vec::new(),
        }
    }

    /// Feeds `input` and carries out the outputs as the task does (a write's result goes back
    /// before anything else).
    fn input(&mut self, input: Input) {
        let mut inputs = VecDeque::from([input]);
        while let Some(i) = inputs.pop_front() {
            let outputs = self.room.handle(i, self.now);
            for o in outputs {
                match o {
                    Output::Send { conn, msg } => self.record(conn, msg),
                    Output::SendAll { conns, msg } => {
                        for conn in conns {
                            self.record(conn, msg.clone());
                        }
                    }
                    Output::Close { conn } => self.seen.push(Seen::Closed(conn)),
                    Output::Write(w) => {
                        self.seen.push(Seen::Write(w.clone()));
                        let result = if self.fenced {
                            Err(WriteFailure::Fenced)
                        } else if self.lapsed {
                            Err(WriteFailure::LeaseLapsed)
                        } else if self.down {
                            Err(WriteFailure::Failed("database down".into()))
                        } else {
                            if let Write::Action(a) = w {
                                assert_eq!(a.seq, self.stored.len() as u64, "no gap, no repeat");
                                self.stored.push(a);
                            }
                            Ok(())
                        };
                        inputs.push_front(Input::Stored(result));
                    }
                    Output::Hint(_) => {}
                    Output::OutsideBot { seat, order } => self.seen.push(Seen::Bot(seat, order)),
                    Output::Dismissed(d) => self.seen.push(Seen::Dismissed(*d)),
                    Output::Wake(at) => self.wake = at,
                    Output::Stop => self.stopped = true,
                }
            }
        }
    }

    /// Records a message to `conn`; a `state_delta` as the state it makes of the last one.
    fn record(&mut self, conn: ConnId, msg: ServerMsg) {
        let msg = match msg {
            ServerMsg::StateDelta(d) => {
                self.deltas.push(conn);
                let mut state = self.last_state(conn).clone();
                d.apply_to(&mut state);
                state
            }
            m => m,
        };
        self.seen.push(Seen::Msg(conn, msg));
    }

    /// The room's settings as last written to the store.
    fn last_config_written(&self) -> RoomConfig {
        self.seen
            .iter()
            .rev()
            .find_map(|s| match s {
                Seen::Write(Write::Config(c)) => Some(c.clone()),
                _ => None,
            })
            .expect("the settings written")
    }

    fn msg(&mut self, conn: ConnId, msg: ClientMsg) {
        self.input(Input::Client { conn, msg });
    }

    /// Fires the timer while it is due by `until` and `go` holds; the clock moves to each
    /// wake-up.
    fn run_until(&mut self, until: u64, mut go: impl FnMut(&Harness) -> bool) {
        let mut fired = 0;
        while go(self) {
            let Some(at) = self.wake.filter(|&t| t <= until) else {
                return;
            };
            self.now = self.now.max(at);
            self.input(Input::Timer);
            fired += 1;
            assert!(fired < 100_000, "the room keeps waking up");
        }
    }

    fn messages(&self, conn: ConnId) -> Vec<&ServerMsg> {
        self.seen
            .iter()
            .filter_map(|s| match s {
                Seen::Msg(c, m) if *c == conn => Some(m),
                _ => None,
            })
            .collect()
    }

    fn last_state(&self, conn: ConnId) -> &ServerMsg {
        self.messages(conn)
            .into_iter()
            .rev()
            .find(|m| matches!(m, ServerMsg::State { .. }))
            .expect("a state")
    }

    fn chair(&self, seat: usize) -> Player {
        self.room.session().unwrap().chairs()[seat]
    }

    /// True when the person on `seat` must decide.
    fn must_act(&self, seat: usize) -> bool {
        self.room
            .session()
            .is_some_and(|s| s.game().to_act().contains(self.chair(seat)))
    }

    fn acks(&self, conn: ConnId) -> Vec<u64> {
        self.messages(conn)
            .into_iter()
            .filter_map(|m| match m {
                ServerMsg::Ack { seq } => Some(*seq),
                _ => None,
            })
            .collect()
    }
}

fn bots_only(rules: &str, hands: u32) -> serde_json::Value {
    let n = if rules == "classic" { 3 } else { 4 };
    let options = if rules == "classic" {
        json!({"players": 3})
    } else {
        json!({})
    };
    json!({
        "rules": rules, "options": options, "hands": hands,
        "seats": (0..n).map(|_| json!({"bot": true})).collect::<Vec<_>>()
    })
}

fn over(h: &Harness) -> bool {
    h.room.status() == RoomStatus::Finished
}

#[test]
fn a_bots_only_match_plays_to_the_end_and_deals_at_once() {
    let mut h = Harness::new(bots_only("hongkong", 3), 42);
    h.input(Input::Timer);
    h.run_until(0, |h| !over(h));
    assert!(
        over(&h),
        "the whole match at time 0: no Continue countdown between hands"
    );
    let session = h.room.session().unwrap();
    assert!(session.is_over());
    assert!(
        session.matches().hands_played() >= 2,
        "several hands were dealt"
    );
    assert_eq!(h.stored.len() as u64, h.room.actions());
    assert!(
        h.seen
            .contains(&Seen::Write(Write::Status(RoomStatus::Playing)))
    );
    assert!(
        h.seen
            .iter()
            .any(|s| matches!(s, Seen::Write(Write::Finished(_))))
    );
    // The stored actions rebuild the same match.
    let mut stored = stored_room(bots_only("hongkong", 3), 42);
    stored.status = RoomStatus::Finished;
    let again = Room::restore(&stored, &h.stored, 0, 0).unwrap();
    assert_eq!(again.session().unwrap().ledger(), session.ledger());
    assert_eq!(again.session().unwrap().log(), session.log());
}

/// One person (seat 0) and three bots.
fn with_a_person(extra: serde_json::Value) -> Harness {
    let mut config = json!({"rules": "hongkong", "hands": 1, "autostart": true});
    for (k, v) in extra.as_object().unwrap() {
        config[k] = v.clone();
    }
    let mut h = Harness::new(config, 7);
    h.input(Input::Open {
        conn: 1,
        seat: Some(0),
        deltas: false,
        device: None,
    });
    h.run_until(0, |h| !h.must_act(0) && !over(h));
    assert!(h.must_act(0), "the bots played up to the person");
    h
}

fn first_legal(h: &Harness, seat: usize) -> Action {
    h.room.session().unwrap().legal_actions(h.chair(seat))[0]
}

#[test]
fn a_persons_action_is_stored_then_acknowledged() {
    let mut h = with_a_person(json!({}));
    // An illegal one is refused with its sequence number, and nothing is written.
    let legal = h.room.session().unwrap().legal_actions(h.chair(0));
    let illegal = ["1m", "9p", "5s", "1z", "7z", "2m"]
        .into_iter()
        .map(|t| Action::Discard(t.parse().unwrap()))
        .find(|a| !legal.contains(a))
        .unwrap();
    let writes = h
        .seen
        .iter()
        .filter(|s| matches!(s, Seen::Write(_)))
        .count();
    h.msg(
        1,
        ClientMsg::Action {
            seq: 8,
            action: illegal,
        },
    );
    assert!(matches!(
        h.messages(1).last(),
        Some(ServerMsg::Error { seq: Some(8), .. })
    ));
    assert_eq!(
        h.seen
            .iter()
            .filter(|s| matches!(s, Seen::Write(_)))
            .count(),
        writes
    );
    // A legal one: written, then acknowledged.
    let action = legal[0];
    let before = h.seen.len();
    let seq = h.stored.len();
    h.msg(1, ClientMsg::Action { seq: 9, action });
    let after = &h.seen[before..];
    let write = after
        .iter()
        .position(|s| matches!(s, Seen::Write(Write::Action(a)) if a.action == action))
        .expect("written");
    let ack = after
        .iter()
        .position(|s| *s == Seen::Msg(1, ServerMsg::Ack { seq: 9 }))
        .expect("acknowledged");
    assert!(write < ack, "stored before acknowledged");
    assert_eq!(h.stored[seq].player, h.chair(0));
    assert_eq!(h.stored[seq].action, action);
}

#[test]
fn a_failed_write_is_retried_with_backoff_then_acknowledged() {
    let mut h = with_a_person(json!({}));
    let action = first_legal(&h, 0);
    let stored = h.stored.len();
    h.down = true;
    h.msg(1, ClientMsg::Action { seq: 3, action });
    assert!(h.acks(1).is_empty(), "not stored: not acknowledged");
    assert_eq!(h.room.actions() as usize, stored, "not applied");
    // Retries at 100, then 200, 400, 500, 500, 500 ms after each failure.
    let mut tries = Vec::new();
    for _ in 0..6 {
        let at = h.wake.expect("a retry is due");
        tries.push(at - h.now);
        h.now = at;
        h.input(Input::Timer);
    }
    assert_eq!(tries, [100, 200, 400, 500, 500, 500]);
    assert!(h.acks(1).is_empty());
    // The store answers again, but the room's lease ran out meanwhile: the next try comes
    // soon (the backoff starts afresh), not after the longest wait.
    h.lapsed = true;
    let at = h.wake.expect("a retry is due");
    h.now = at;
    h.input(Input::Timer);
    assert!(h.acks(1).is_empty(), "refused: not acknowledged");
    assert_eq!(h.wake.map(|w| w - h.now), Some(RETRY_FIRST_MS));
    h.lapsed = false;
    // The store is back: the next try stores it, within half a second.
    h.down = false;
    let back = h.now;
    let at = h.wake.unwrap();
    assert!(at - back <= RETRY_MAX_MS);
    h.now = at;
    h.input(Input::Timer);
    assert_eq!(h.acks(1), [3]);
    assert_eq!(h.stored[stored].action, action);
    assert_eq!(h.stored[stored].player, h.chair(0));
    // Applied (and the bots after it went on).
    assert!(h.room.actions() as usize > stored);
}

#[test]
fn a_bots_write_is_retried_and_the_room_goes_on() {
    let mut h = Harness::new(bots_only("classic", 1), 3);
    h.input(Input::Timer);
    h.run_until(0, |h| h.room.actions() < 5);
    h.down = true;
    h.input(Input::Timer);
    let stuck = h.room.actions();
    h.run_until(3_000, |_| true);
    assert_eq!(
        h.room.actions(),
        stuck,
        "nothing applied while the store is down"
    );
    h.down = false;
    let back = h.now;
    h.run_until(back + RETRY_MAX_MS, |h| h.room.actions() == stuck);
    assert!(
        h.room.actions() > stuck,
        "moved again within a second of the store's return"
    );
    h.run_until(u64::MAX, |h| !over(h));
    assert!(over(&h), "and finished");
}

#[test]
fn a_fenced_write_stops_the_room_without_an_ack() {
    let mut h = with_a_person(json!({}));
    h.input(Input::Open {
        conn: 2,
        seat: None,
        deltas: false,
        device: None,
    });
    let action = first_legal(&h, 0);
    let actions = h.room.actions();
    h.fenced = true;
    h.msg(1, ClientMsg::Action { seq: 5, action });
    assert!(h.stopped, "told to stop");
    assert!(h.room.is_stopped());
    assert!(h.acks(1).is_empty(), "never acknowledged");
    assert_eq!(h.room.actions(), actions, "never applied");
    assert!(h.seen.contains(&Seen::Closed(1)) && h.seen.contains(&Seen::Closed(2)));
    // Nothing more happens.
    let n = h.seen.len();
    h.msg(1, ClientMsg::Sync {});
    h.input(Input::Timer);
    assert_eq!(h.seen.len(), n);
}

#[test]
fn the_turn_timer_lets_the_stand_in_play() {
    let mut h = with_a_person(json!({"turn_timeout_ms": 1000, "claim_timeout_ms": 800}));
    let start = h.now;
    let actions = h.room.actions();
    let deadline = match h.last_state(1) {
        ServerMsg::State { deadline_ms, .. } => deadline_ms.expect("a countdown"),
        _ => unreachable!(),
    };
    assert!(deadline == 1000 || deadline == 800);
    h.run_until(start + deadline - 1, |_| true);
    assert_eq!(h.room.actions(), actions, "not before the timer");
    h.now = start + deadline;
    h.input(Input::Timer);
    assert!(h.room.actions() > actions, "the stand-in played");
    assert_eq!(h.stored[actions as usize].player, h.chair(0));
    assert!(h.acks(1).is_empty(), "nothing to acknowledge");
    // The person is here: they are not marked as played by the stand-in.
    match h.last_state(1) {
        ServerMsg::State { seats, .. } => assert!(!seats[0].stand_in && !seats[0].away),
        _ => unreachable!(),
    }
}

#[test]
fn an_away_person_gets_the_grace_then_the_stand_in_until_they_are_back() {
    // No timers (one person): only the away grace.
    let mut h = with_a_person(json!({"away_grace_ms": 2000}));
    h.input(Input::Open {
        conn: 2,
        seat: None,
        deltas: false,
        device: None,
    });
    let actions = h.room.actions();
    h.now = 10_000;
    h.input(Input::Close { conn: 1 });
    assert_eq!(h.wake, Some(12_000), "the grace runs from leaving");
    match h.last_state(2) {
        ServerMsg::State { seats, .. } => assert!(seats[0].away && !seats[0].stand_in),
        _ => unreachable!(),
    }
    h.run_until(11_999, |_| true);
    assert_eq!(h.room.actions(), actions);
    h.run_until(12_000, |h| h.room.actions() == actions);
    assert!(
        h.room.actions() > actions,
        "the stand-in played at the grace's end"
    );
    match h.last_state(2) {
        ServerMsg::State { seats, .. } => assert!(seats[0].away && seats[0].stand_in),
        _ => unreachable!(),
    }
    // Back (once the tile it may have discarded is settled): the seat is theirs again.
    h.run_until(h.now, |h| h.room.offer_open());
    assert!(!over(&h));
    h.input(Input::Open {
        conn: 3,
        seat: Some(0),
        deltas: false,
        device: None,
    });
    match h.last_state(3) {
        ServerMsg::State { seats, .. } => assert!(!seats[0].away && !seats[0].stand_in),
        _ => unreachable!(),
    }
}

/// Two people (Ann, the creator, on seat 0; Bo on seat 1) and two bots; no autostart.
fn ann_and_bo() -> Harness {
    Harness::new(
        json!({
            "rules": "hongkong", "hands": 1,
            "seats": [{"name": "Ann"}, {"name": "Bo"}, {"bot": true}, {"bot": true}]
        }),
        11,
    )
}

/// The key of the last `error` sent to `conn`.
fn last_refusal(h: &Harness, conn: ConnId) -> &str {
    h.messages(conn)
        .into_iter()
        .rev()
        .find_map(|m| match m {
            ServerMsg::Error { key, .. } => Some(key.as_str()),
            _ => None,
        })
        .expect("a refusal")
}

#[test]
fn fill_bots_takes_the_seats_the_room_has_seen_closed_and_no_other() {
    let start = |fill_bots| ClientMsg::Start { fill_bots };
    let open = |conn, seat| Input::Open {
        conn,
        seat: Some(seat),
        deltas: false,
        device: None,
    };
    // Bo's close comes before Ann's opening: her start fills his seat with a bot, and his link
    // only watches afterwards.
    let mut h = ann_and_bo();
    h.input(open(1, 1));
    h.msg(1, start(true));
    assert_eq!(last_refusal(&h, 1), "room.only_creator_fills");
    h.input(Input::Close { conn: 1 });
    h.input(open(2, 0));
    assert_eq!(h.room.status(), RoomStatus::Waiting);
    h.msg(2, start(true));
    assert_eq!(h.room.status(), RoomStatus::Playing);
    match h.last_state(2) {
        ServerMsg::State { seats, .. } => assert!(seats[1].bot, "{seats:?}"),
        _ => unreachable!(),
    }
    h.input(open(3, 1));
    // Bo's key now watches, told that a bot holds his seat.
    assert!(matches!(
        h.messages(3)[0],
        ServerMsg::Welcome {
            seat: None,
            bot_holds: Some(1),
            ..
        }
    ));

    // Ann opens while Bo's connection is still open (his socket closed, but the room has not
    // been told: two sockets, no order between them): every person is here, so the room starts
    // by itself with Bo seated, and her start comes too late. The evening test met this order
    // under load; it must wait until the room shows Bo's seat empty before Ann connects.
    let mut h = ann_and_bo();
    h.input(open(1, 1));
    h.input(open(2, 0));
    assert_eq!(h.room.status(), RoomStatus::Playing, "all here: started");
    h.input(Input::Close { conn: 1 });
    h.msg(2, start(true));
    assert_eq!(last_refusal(&h, 2), "room.already_started");
    // What followed the dealer's first discard (Bo's seat shown empty with it) is shown when
    // its claim window ends.
    h.run_until(u64::MAX, |h| h.room.window_end.is_some());
    match h.last_state(2) {
        ServerMsg::State { seats, .. } => {
            assert!(
                !seats[1].bot && !seats[1].connected && seats[1].away,
                "{seats:?}"
            )
        }
        _ => unreachable!(),
    }
}

#[test]
fn deltas_go_only_to_connections_that_asked_and_make_the_states_sent_whole() {
    // The person never acts: the timers play for them, so countdowns run in the states.
    let config = json!({
        "rules": "hongkong", "hands": 2, "autostart": true,
        "turn_timeout_ms": 500, "claim_timeout_ms": 500, "continue_timeout_ms": 1000
    });
    let mut h = Harness::new(config, 5);
    // A seat's and a spectator's connection of each kind; the whole ones open first.
    for (conn, seat, deltas) in [(1, Some(0), false), (2, None, false)]
        .into_iter()
        .chain([(3, Some(0), true), (4, None, true)])
    {
        h.input(Input::Open {
            conn,
            seat,
            deltas,
            device: None,
        });
    }
    h.run_until(u64::MAX, |h| !over(h));
    assert!(over(&h));
    // A countdown a delta does not name runs on from when it was sent: compared as running.
    let states = |conn| -> Vec<ServerMsg> {
        h.messages(conn)
            .into_iter()
            .filter(|m| matches!(m, ServerMsg::State { .. }))
            .map(|m| {
                let mut m = m.clone();
                if let ServerMsg::State {
                    claim_deadline_ms,
                    deadline_ms,
                    continue_,
                    ..
                } = &mut m
                {
                    let deadlines = [claim_deadline_ms, deadline_ms].into_iter().flatten();
                    let continues = continue_.iter_mut().map(|c| &mut c.deadline_ms);
                    deadlines.chain(continues).for_each(|t| *t = 0);
                }
                m
            })
            .collect()
    };
    for (whole, made) in [(1, 3), (2, 4)] {
        let count = |c| h.deltas.iter().filter(|&&d| d == c).count();
        assert_eq!(count(whole), 0, "connection {whole} did not ask for deltas");
        let deltas = count(made);
        assert!(deltas > 20, "connection {made}: {deltas} deltas");
        // The same states from the latter's opening on: whole, and made by the deltas (all
        // but its first state).
        let (whole, made) = (states(whole), states(made));
        assert_eq!(made.len(), deltas + 1);
        assert!(whole.ends_with(&made), "{whole:#?}\n{made:#?}");
    }
}

#[test]
fn continue_deals_the_next_hand_or_the_countdown_does() {
    // The person never acts: the turn and claim timers play for them.
    let config = json!({
        "rules": "hongkong", "hands": 3, "autostart": true,
        "turn_timeout_ms": 500, "claim_timeout_ms": 500, "continue_timeout_ms": 30000
    });
    let mut h = Harness::new(config, 11);
    h.input(Input::Open {
        conn: 1,
        seat: Some(0),
        deltas: false,
        device: None,
    });
    h.run_until(u64::MAX, |h| {
        h.room.status() != RoomStatus::HandOver && !over(h)
    });
    assert_eq!(h.room.status(), RoomStatus::HandOver);
    let ended = h.now;
    assert_eq!(h.wake, Some(ended + 30_000), "the countdown");
    assert!(
        h.messages(1)
            .iter()
            .any(|m| matches!(m, ServerMsg::HandResult { .. }))
    );
    // Continue from the only person: dealt at once.
    h.msg(1, ClientMsg::Continue {});
    assert_eq!(h.room.status(), RoomStatus::Playing);
    assert_eq!(h.room.session().unwrap().hand_number(), 2);
    // Next hand: nobody continues, the countdown deals.
    h.run_until(u64::MAX, |h| {
        h.room.status() != RoomStatus::HandOver && !over(h)
    });
    if h.room.status() == RoomStatus::HandOver {
        let ended = h.now;
        h.run_until(ended + 29_999, |h| h.room.status() == RoomStatus::HandOver);
        assert_eq!(h.room.status(), RoomStatus::HandOver);
        h.run_until(ended + 30_000, |h| h.room.status() == RoomStatus::HandOver);
        assert_eq!(h.room.status(), RoomStatus::Playing);
        assert_eq!(h.room.session().unwrap().hand_number(), 3);
    }
    // A continue is refused while a hand is in play.
    if h.room.status() == RoomStatus::Playing {
        h.msg(1, ClientMsg::Continue {});
        assert!(matches!(
            h.messages(1).last(),
            Some(ServerMsg::Error { seq: None, .. })
        ));
    }
}

/// A piece of a viewer's stream: a batch of events, a hand's result, the match's end.
#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Events(u32, Vec<Event>),
    Result,
    Over,
}

/// The stream a viewer must get, computed from the log as they may see it alone (the public
/// log and their own part): the events between two actions, a discard (or an added kong)
/// together with what came of it — unless the viewer was asked about it (their own answer
/// follows it in their log), when the discard comes first and the outcome after.
fn public_stream(records: &[LogRecord], viewer: Player) -> (Vec<Piece>, usize) {
    let mut pieces = Vec::new();
    let mut asked = 0;
    let mut group: Vec<Event> = Vec::new();
    let mut hand = 1;
    let close = |group: &mut Vec<Event>, pieces: &mut Vec<Piece>, hand: u32| {
        if !group.is_empty() {
            pieces.push(Piece::Events(hand, std::mem::take(group)));
        }
    };
    for r in records {
        match r {
            LogRecord::Header(_) => {}
            LogRecord::Hand { setup } => {
                if setup.hand_number != 1 {
                    close(&mut group, &mut pieces, hand);
                }
                hand = setup.hand_number;
            }
            LogRecord::Event { event, .. } => group.push(event.clone()),
            LogRecord::Action { player, .. } => {
                let offered = matches!(
                    group.last(),
                    Some(Event::Discarded { .. }) | Some(Event::KongDeclared { .. })
                );
                if offered && *player == viewer {
                    asked += 1;
                }
                if !offered || *player == viewer {
                    close(&mut group, &mut pieces, hand);
                }
            }
            LogRecord::Settlement(_) => {
                close(&mut group, &mut pieces, hand);
                pieces.push(Piece::Result);
            }
            LogRecord::End(_) => pieces.push(Piece::Over),
        }
    }
    close(&mut group, &mut pieces, hand);
    (pieces, asked)
}

fn actual_stream(msgs: &[&ServerMsg]) -> Vec<Piece> {
    msgs.iter()
        .filter_map(|m| match m {
            ServerMsg::Events {
                hand_number,
                events,
            } => Some(Piece::Events(*hand_number, events.clone())),
            ServerMsg::HandResult { .. } => Some(Piece::Result),
            ServerMsg::MatchOver { .. } => Some(Piece::Over),
            _ => None,
        })
        .collect()
}

#[test]
fn a_spectators_stream_is_a_function_of_the_public_log() {
    let mut passes = Vec::new();
    for (rules, seed) in [
        ("hongkong", 1),
        ("hongkong", 2),
        ("yangzhou", 5),
        ("classic", 9),
    ] {
        let mut h = Harness::new(bots_only(rules, 2), seed);
        h.input(Input::Open {
            conn: 7,
            seat: None,
            deltas: false,
            device: None,
        });
        h.input(Input::Timer);
        h.run_until(0, |h| !over(h));
        assert!(over(&h), "{rules} {seed}");
        let log = h.room.session().unwrap().log().seen_by(SPECTATOR);
        let (expected, _) = public_stream(&log.records, SPECTATOR);
        let msgs = h.messages(7);
        assert_eq!(actual_stream(&msgs), expected, "{rules} {seed}");
        // One state at most after each batch of events, and its count of actions leaves the
        // passes out.
        let mut last_events = false;
        for m in &msgs {
            match m {
                ServerMsg::Events { .. } => last_events = true,
                ServerMsg::State { actions, .. } => {
                    assert!(last_events || *actions == 0, "a state without news: {m:?}");
                    last_events = false;
                }
                _ => {}
            }
        }
        let public = h.stored.iter().filter(|a| a.action != Action::Pass).count() as u64;
        match h.last_state(7) {
            ServerMsg::State { actions, .. } => assert_eq!(*actions, public),
            _ => unreachable!(),
        }
        passes.push(h.stored.len() as u64 - public);
    }
    // Claims were possible (and hidden) in these matches, in differing numbers.
    assert!(passes.iter().all(|&p| p > 0), "{passes:?}");
    assert!(passes.windows(2).any(|w| w[0] != w[1]), "{passes:?}");
}

#[test]
fn a_seats_stream_about_the_others_is_a_function_of_what_it_may_see() {
    let mut asked = 0;
    for seed in [4, 8, 15] {
        // The person never acts: the timers let the stand-in play for them.
        let config = json!({
            "rules": "hongkong", "hands": 1, "autostart": true,
            "turn_timeout_ms": 500, "claim_timeout_ms": 500
        });
        let mut h = Harness::new(config, seed);
        h.input(Input::Open {
            conn: 1,
            seat: Some(0),
            deltas: false,
            device: None,
        });
        h.run_until(u64::MAX, |h| !over(h));
        assert!(over(&h));
        let me = h.chair(0);
        let log = h.room.session().unwrap().log().seen_by(me);
        let (expected, was_asked) = public_stream(&log.records, me);
        let msgs = h.messages(1);
        let history: Vec<Piece> = msgs
            .iter()
            .filter_map(|m| match m {
                ServerMsg::History {
                    hand_number,
                    events,
                } if !events.is_empty() => Some(Piece::Events(*hand_number, events.clone())),
                _ => None,
            })
            .collect();
        let mut actual = history;
        actual.extend(actual_stream(&msgs));
        assert_eq!(actual, expected, "seed {seed}");
        asked += was_asked;
    }
    assert!(asked > 0, "the seat was asked about some discards");
}

mod outside_bots;
mod pacing;
mod seats;
mod timers;

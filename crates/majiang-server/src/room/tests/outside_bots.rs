//! Outside bots in a room, with no process: the harness reads the room's orders for the bot and
//! answers for it (or does not), on the room's virtual clock.

use super::*;
use crate::external_bots::ExternalBots;
use majiang::bots::protocol::ToBot;

/// A bot decision gets this long (the server's `--bot-time-ms`).
const DECISION_MS: u64 = 5000;

fn allowed() -> ExternalBots {
    let mut bots = ExternalBots::none();
    let command = majiang_external::spec::Command::parse("no-such-program --quiet").unwrap();
    bots.allow("scripted", command, DECISION_MS).unwrap();
    bots
}

/// Seat 0 is the outside bot, the others `efficient`; one hand of Hong Kong.
fn outside_room(seed: u64) -> Harness {
    let config = json!({
        "rules": "hongkong", "hands": 1,
        "seats": [
            {"bot": true, "bot_kind": "ext:scripted"}, {"bot": true}, {"bot": true}, {"bot": true}
        ]
    });
    Harness::with_bots(config, seed, &allowed())
}

/// How the scripted bot answers a decision.
enum Script {
    /// The last legal action, by id (never the first, which the room's placeholder would play).
    Last,
    /// Nothing.
    Silent,
    /// This line.
    Line(&'static str),
}

impl Harness {
    /// The orders for seat `seat`'s bot from index `from` of what the room did.
    fn bot_orders(&self, seat: usize, from: usize) -> Vec<&BotOrder> {
        self.seen[from..]
            .iter()
            .filter_map(|s| match s {
                Seen::Bot(s, o) if *s == seat => Some(o),
                _ => None,
            })
            .collect()
    }

    fn dismissals(&self) -> Vec<&Dismissal> {
        self.seen
            .iter()
            .filter_map(|s| match s {
                Seen::Dismissed(d) => Some(d),
                _ => None,
            })
            .collect()
    }

    fn heard(&mut self, seat: usize, line: &str) {
        self.input(Input::OutsideBot {
            seat,
            heard: Heard::Line(line.into()),
        });
    }

    /// Plays the match to its end (or `limit` on the clock), the bot of seat 0 answering as
    /// `script` says at once: the actions it answered, in order.
    fn play_with_bot(&mut self, script: Script, limit: u64) -> Vec<Action> {
        let mut answered = Vec::new();
        let mut read = 0;
        loop {
            let orders: Vec<BotOrder> = self.bot_orders(0, read).into_iter().cloned().collect();
            read = self.seen.len();
            for order in orders {
                let BotOrder::Say(message) = order else {
                    continue;
                };
                match (*message, &script) {
                    (ToBot::Hello(_), _) => {
                        self.heard(0, r#"{"type":"ready","protocol":1,"name":"scripted"}"#)
                    }
                    (ToBot::Decide(d), Script::Last) => {
                        let last = d.actions.last().unwrap();
                        answered.push(last.action);
                        self.heard(0, &format!(r#"{{"type":"action","id":{}}}"#, last.id));
                    }
                    (ToBot::Decide(_), Script::Line(line)) => self.heard(0, line),
                    _ => {}
                }
            }
            if self.seen.len() > read {
                continue;
            }
            if over(self) {
                return answered;
            }
            let Some(at) = self.wake.filter(|&t| t <= limit) else {
                return answered;
            };
            self.now = self.now.max(at);
            self.input(Input::Timer);
        }
    }

    fn actions_of(&self, seat: usize) -> Vec<Action> {
        let chair = self.chair(seat);
        self.room
            .session()
            .unwrap()
            .log()
            .records
            .iter()
            .filter_map(|r| match r {
                LogRecord::Action { player, action, .. } if *player == chair => Some(*action),
                _ => None,
            })
            .collect()
    }
}

#[test]
fn an_outside_bot_is_greeted_asked_and_its_answers_are_played() {
    let mut h = outside_room(7);
    h.input(Input::Timer);
    let orders = h.bot_orders(0, 0);
    assert!(
        matches!(orders[0], BotOrder::Start(c) if c.program == "no-such-program"),
        "{orders:?}"
    );
    let BotOrder::Say(hello) = orders[1] else {
        panic!("{orders:?}")
    };
    let ToBot::Hello(hello) = &**hello else {
        panic!("{hello:?}")
    };
    assert_eq!((hello.seat, hello.time_limit_ms), (h.chair(0), DECISION_MS));
    let answered = h.play_with_bot(Script::Last, u64::MAX);
    assert!(over(&h), "the match ends");
    assert!(answered.len() > 5, "{answered:?}");
    assert_eq!(
        h.actions_of(0),
        answered,
        "every move of the seat is the bot's"
    );
    assert!(h.dismissals().is_empty());
    let tail: Vec<&BotOrder> = h.bot_orders(0, 0).into_iter().rev().take(3).collect();
    assert!(
        matches!(
            tail[..],
            [BotOrder::Finish, BotOrder::Say(end), BotOrder::Say(hand)]
                if matches!(**end, ToBot::MatchEnd(_)) && matches!(**hand, ToBot::HandEnd(_))
        ),
        "told the hand's and the match's end, then its input closed: {tail:?}"
    );
    assert!(h.room.summary().dismissals.is_empty());
}

#[test]
fn a_silent_outside_bot_is_dismissed_when_its_time_is_up_and_efficient_plays_on() {
    let mut h = outside_room(7);
    h.input(Input::Timer);
    h.heard(0, r#"{"type":"ready","protocol":1}"#);
    // Play until the bot is first asked.
    h.run_until(u64::MAX, |h| {
        !h.bot_orders(0, 0)
            .iter()
            .any(|o| matches!(o, BotOrder::Say(m) if matches!(**m, ToBot::Decide(_))))
    });
    let asked_at = h.now;
    assert_eq!(
        h.wake,
        Some(asked_at + DECISION_MS),
        "woken when its time is up"
    );
    let before = h.seen.len();
    h.now = asked_at + DECISION_MS - 1;
    h.input(Input::Timer);
    assert!(h.dismissals().is_empty(), "not a millisecond early");
    assert_eq!(h.seen.len(), before, "nothing moves while the bot thinks");
    h.now = asked_at + DECISION_MS;
    h.input(Input::Timer);
    let d = h.dismissals()[0].clone();
    assert_eq!(
        (d.seat, d.bot.as_str(), d.hand, d.reason.as_str()),
        (0, "Bot 0 (ext:scripted)", 1, "timeout")
    );
    assert_eq!(d.message, "no answer within 5000 ms");
    let orders = h.bot_orders(0, before);
    assert!(
        matches!(&orders[..], [BotOrder::Say(m), BotOrder::Kill]
            if matches!(&**m, ToBot::Error(e)
                if e.message == "no answer within 5000 ms; the seat is played by efficient from now on")),
        "told why, then ended: {orders:?}"
    );
    let after = h.seen.len();
    h.play_with_bot(Script::Silent, u64::MAX);
    assert!(over(&h), "efficient played the seat to the end");
    assert!(
        h.bot_orders(0, after).is_empty(),
        "a dismissed bot hears nothing more"
    );
    assert_eq!(h.room.summary().dismissals, vec![d]);
}

#[test]
fn an_outside_bot_answering_nonsense_or_an_illegal_action_is_dismissed() {
    for (line, reason, words) in [
        ("nonsense", "malformed", "\"nonsense\""),
        (r#"{"type":"action","id":99}"#, "illegal", "illegal answer"),
        (
            r#"{"type":"ready","protocol":1}"#,
            "malformed",
            "\"ready\" where an action",
        ),
    ] {
        let mut h = outside_room(7);
        h.input(Input::Timer);
        h.play_with_bot(Script::Line(line), u64::MAX);
        assert!(over(&h), "{line}: the match ends");
        let dismissals = h.room.summary().dismissals;
        assert_eq!(dismissals.len(), 1, "{line}: {dismissals:?}");
        assert_eq!(dismissals[0].reason, reason, "{line}");
        assert!(
            dismissals[0].message.contains(words),
            "{line}: {}",
            dismissals[0].message
        );
        assert_eq!(h.dismissals().len(), 1, "reported once");
    }
}

#[test]
fn an_outside_bot_that_is_gone_or_speaks_another_protocol_is_dismissed_at_once() {
    let mut h = outside_room(7);
    h.input(Input::Timer);
    h.input(Input::OutsideBot {
        seat: 0,
        heard: Heard::Gone("it closed its output (exit status: 3)".into()),
    });
    let d = &h.room.summary().dismissals[0];
    assert_eq!(d.reason, "crashed");
    assert_eq!(
        d.message,
        "the bot stopped: it closed its output (exit status: 3)"
    );

    let mut h = outside_room(7);
    h.input(Input::Timer);
    h.heard(0, r#"{"type":"ready","protocol":9}"#);
    assert_eq!(h.room.summary().dismissals[0].reason, "version");

    let mut h = outside_room(7);
    h.input(Input::Timer);
    h.input(Input::OutsideBot {
        seat: 0,
        heard: Heard::TooLong,
    });
    assert_eq!(
        h.room.summary().dismissals[0].message,
        "a line longer than 1 MiB"
    );
}

#[test]
fn a_bot_that_never_says_ready_is_dismissed_after_the_start_limit() {
    let mut h = outside_room(7);
    h.input(Input::Timer);
    // The start limit is the decision's, at least 10 s.
    h.run_until(9_999, |_| true);
    assert!(h.dismissals().is_empty());
    h.run_until(10_000, |h| h.dismissals().is_empty());
    assert_eq!(h.now, 10_000);
    assert_eq!(
        h.room.summary().dismissals[0].message,
        "no answer within 10000 ms"
    );
}

#[test]
fn only_allowed_outside_bots_take_a_seat_and_the_refusal_names_them() {
    let mut config: RoomConfig = serde_json::from_value(json!({
        "rules": "hongkong", "hands": 1,
        "seats": [
            {"bot": true, "bot_kind": "ext:nobody"}, {"bot": true}, {"bot": true}, {"bot": true}
        ]
    }))
    .unwrap();
    let err = config
        .check_outside_bots(&allowed())
        .unwrap_err()
        .to_string();
    assert!(err.contains("no bot \"ext:nobody\""), "{err}");
    assert!(
        err.contains("ext:scripted"),
        "the allowed names are listed: {err}"
    );
    config
        .validate()
        .expect("an ext: name is the app's to allow");
    // A room restored on a server that no longer allows its bot does not start.
    let stored = StoredRoom {
        status: RoomStatus::Playing,
        ..stored_room(
            json!({"rules": "hongkong", "hands": 1, "seats": [
                {"bot": true, "bot_kind": "ext:scripted"}, {"bot": true}, {"bot": true},
                {"bot": true}
            ]}),
            7,
        )
    };
    let err = Room::restore_with(&stored, &[], 0, 0, &ExternalBots::none()).unwrap_err();
    assert!(
        err.to_string()
            .contains("no external bot \"scripted\" on this server"),
        "{err}"
    );
}

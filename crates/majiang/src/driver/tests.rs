//! The driver's timers, stand-ins, proposals and refusal policy, with time as a value.

use super::*;
use crate::table::{Session, TableRules};
use std::sync::{Arc, Mutex};

fn session(rules: &str, seed: u64) -> Session {
    let rules = Arc::new(TableRules::from_name(rules, &serde_json::Map::new()).unwrap());
    Session::new(rules, seed, None).unwrap().0
}

fn people(n: usize) -> Vec<Controller> {
    (0..n).map(|i| Controller::person(i as u64)).collect()
}

/// Counts how often it is asked, and plays the first legal action.
struct Counting(Arc<Mutex<u32>>);

impl Bot for Counting {
    fn name(&self) -> &'static str {
        "counting"
    }
    fn act(&mut self, _: &Observation, legal: &[Action]) -> Action {
        *self.0.lock().unwrap() += 1;
        legal[0]
    }
}

/// Always claims a win.
struct Cheat;

impl Bot for Cheat {
    fn name(&self) -> &'static str {
        "cheat"
    }
    fn act(&mut self, _: &Observation, _: &[Action]) -> Action {
        Action::Win
    }
}

#[test]
fn a_person_waits_for_their_turn_timer_then_the_stand_in_plays() {
    let timers = Timers {
        turn_ms: Some(1_000),
        claim_ms: Some(300),
        ..Timers::default()
    };
    let mut d = Driver::new(session("hongkong", 3), people(4), timers).unwrap();
    let p = d.session().to_act().unwrap();
    assert_eq!(d.poll(10), Poll::Wait(Some(1_010)));
    assert_eq!(d.deadline_of(p), Some(1_010));
    assert_eq!(d.poll(1_009), Poll::Wait(Some(1_010)));
    let Poll::Act(decision) = d.poll(1_010) else {
        panic!("the timer ran out")
    };
    assert_eq!(decision.player, p);
    assert_eq!(decision.by, DecidedBy::StandIn);
    assert!(decision.refused.is_none());
    assert!(d.session().legal_actions(p).contains(&decision.action));
    // Present when it ran out: not away, the next decision is theirs again.
    assert!(!d.is_away(p));
    d.act(p, decision.action, 1_010).unwrap();
    assert!(!d.automatic(p));
}

#[test]
fn an_absent_person_gets_the_grace_then_stays_played_until_back() {
    let timers = Timers {
        turn_ms: Some(30_000),
        claim_ms: Some(30_000),
        away_grace_ms: Some(5_000),
        bot_delay_ms: 0,
        claim_window_ms: 0,
    };
    let mut d = Driver::new(session("hangzhou", 5), people(4), timers).unwrap();
    let p = d.session().to_act().unwrap();
    d.set_present(p, false, 0);
    assert_eq!(d.poll(0), Poll::Wait(Some(5_000)));
    let Poll::Act(first) = d.poll(5_000) else {
        panic!("the grace ran out")
    };
    assert_eq!(first.by, DecidedBy::StandIn);
    assert!(d.is_away(p));
    assert!(d.automatic(p));
    d.act(p, first.action, 5_000).unwrap();
    // Every later decision of theirs is the stand-in's at once, until they are back.
    let mut now = 5_000;
    let mut played = 0;
    while played < 3 && !d.session().game().is_over() {
        now += 1;
        match d.poll(now) {
            Poll::Act(x) => {
                if x.player == p {
                    assert_eq!(x.by, DecidedBy::StandIn);
                    played += 1;
                }
                d.act(x.player, x.action, now).unwrap();
            }
            Poll::Wait(Some(at)) => now = at - 1,
            Poll::Wait(None) => break,
        }
    }
    assert!(played >= 1, "the away player decided again");
    d.set_present(p, true, now);
    assert!(!d.is_away(p));
    assert!(!d.automatic(p));
}

#[test]
fn a_proposed_decision_is_asked_once_until_applied() {
    let asked = Arc::new(Mutex::new(0));
    let controllers = (0..4)
        .map(|_| Controller::Bot(Box::new(Counting(asked.clone()))))
        .collect();
    let mut d = Driver::new(session("classic", 9), controllers, Timers::default()).unwrap();
    let Poll::Act(a) = d.poll(0) else { panic!() };
    let Poll::Act(b) = d.poll(50) else { panic!() };
    assert_eq!(a, b);
    assert_eq!(*asked.lock().unwrap(), 1);
    d.act(a.player, a.action, 50).unwrap();
    let Poll::Act(_) = d.poll(50) else { panic!() };
    assert_eq!(*asked.lock().unwrap(), 2);
}

#[test]
fn a_refused_bot_choice_becomes_the_first_legal_action() {
    let controllers = (0..4).map(|_| Controller::Bot(Box::new(Cheat))).collect();
    let mut d = Driver::new(session("yangzhou", 1), controllers, Timers::default()).unwrap();
    let Poll::Act(decision) = d.poll(0) else {
        panic!()
    };
    let legal = d.session().legal_actions(decision.player);
    assert_eq!(decision.action, legal[0]);
    let (chosen, _why) = decision.refused.clone().expect("a refusal is reported");
    assert_eq!(chosen, Action::Win);
    // The game is unchanged by the refused choice, and the match goes on.
    let steps = d.run(0).unwrap();
    assert!(steps.iter().any(|(x, _)| x.refused.is_some()));
    assert!(d.session().game().is_over());
}

#[test]
fn bots_wait_for_the_pacing_delay() {
    let timers = Timers {
        bot_delay_ms: 400,
        ..Timers::default()
    };
    let rules = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
    let controllers = (0..4)
        .map(|i| Controller::Bot(bots::by_name("efficient", &rules, i).unwrap()))
        .collect();
    let mut d = Driver::new(session("hongkong", 2), controllers, timers).unwrap();
    assert_eq!(d.poll(100), Poll::Wait(Some(500)));
    assert!(d.run(499).unwrap().is_empty());
    let steps = d.run(500).unwrap();
    assert_eq!(
        steps.len(),
        1,
        "one move, then the next waits its own delay"
    );
    assert!(matches!(d.poll(500), Poll::Wait(Some(900)) | Poll::Act(_)));
}

#[test]
fn controllers_must_match_the_table() {
    let err = Driver::new(session("hongkong", 1), people(3), Timers::default()).unwrap_err();
    assert_eq!(
        err,
        DriverError::ControllerCount {
            controllers: 3,
            players: 4
        }
    );
    let mut d = Driver::new(session("hongkong", 1), people(4), Timers::default()).unwrap();
    assert_eq!(
        d.set_controller(Player(7), Controller::person(0)),
        Err(DriverError::NoSuchPlayer(Player(7)))
    );
    // People without timers: nothing is ever automatic.
    assert_eq!(d.poll(1_000_000), Poll::Wait(None));
}

#[test]
fn the_same_seed_and_bots_play_the_same_match() {
    let rules = Arc::new(TableRules::from_name("hangzhou", &serde_json::Map::new()).unwrap());
    let play = || {
        let controllers = (0..4)
            .map(|i| Controller::Bot(bots::by_name("efficient", &rules, i).unwrap()))
            .collect();
        let s = Session::new(rules.clone(), 11, Some(2)).unwrap().0;
        let mut d = Driver::new(s, controllers, Timers::default()).unwrap();
        while !d.session().is_over() {
            d.run(0).unwrap();
            if d.session().awaiting_deal() {
                d.deal_next(0).unwrap();
            }
        }
        d.into_session().log().to_jsonl()
    };
    assert_eq!(play(), play());
}

/// Chair 0 a person, the others bots, played until the person must decide.
fn person_to_act(timers: Timers) -> Driver {
    let rules = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
    for seed in 0..50 {
        let (session, _) = Session::new(rules.clone(), seed, Some(1)).unwrap();
        let controllers = (0..4)
            .map(|i| match i {
                0 => Controller::person(9),
                _ => Controller::Bot(bots::by_name("efficient", &rules, i).unwrap()),
            })
            .collect();
        let mut d = Driver::new(session, controllers, timers).unwrap();
        d.run(0).unwrap();
        if d.session().game().to_act().contains(Player(0)) {
            return d;
        }
    }
    panic!("the person never had to decide");
}

#[test]
fn an_absent_persons_grace_runs_from_when_they_left() {
    let timers = Timers {
        turn_ms: Some(10_000),
        claim_ms: Some(10_000),
        away_grace_ms: Some(1_000),
        bot_delay_ms: 0,
        claim_window_ms: 0,
    };
    let mut d = person_to_act(timers);
    let me = Player(0);
    assert_eq!(d.poll(0), Poll::Wait(Some(10_000)));
    assert_eq!(d.deadline_of(me), Some(10_000));
    // Leaving after 5 s of thought: the grace counts from then, not from the point's start.
    d.set_present(me, false, 5_000);
    assert_eq!(d.poll(5_000), Poll::Wait(Some(6_000)));
    assert_eq!(d.deadline_of(me), Some(6_000));
    assert!(!d.is_away(me));
    let Poll::Act(decision) = d.poll(6_000) else {
        panic!("the stand-in is due at the grace's end");
    };
    assert_eq!(decision.player, me);
    assert_eq!(decision.by, DecidedBy::StandIn);
    assert!(d.is_away(me) && d.automatic(me));
    // Back before it was applied: the person decides again, on their own timer.
    d.set_present(me, true, 6_500);
    assert!(!d.is_away(me));
    assert_eq!(d.poll(6_500), Poll::Wait(Some(10_000)));
}

#[test]
fn an_absent_person_without_a_timer_gets_the_grace() {
    let timers = Timers {
        away_grace_ms: Some(2_000),
        ..Timers::default()
    };
    let mut d = person_to_act(timers);
    let me = Player(0);
    assert_eq!(
        d.poll(0),
        Poll::Wait(None),
        "no timer: the person has all the time"
    );
    d.set_present(me, false, 100);
    assert_eq!(d.poll(100), Poll::Wait(Some(2_100)));
    assert!(
        matches!(d.poll(2_100), Poll::Act(Decision { player, by: DecidedBy::StandIn, .. }) if player == me)
    );
}

#[test]
fn timers_set_in_a_match_run_from_then_for_the_decision_in_play() {
    let mut d = person_to_act(Timers::default());
    let me = Player(0);
    assert_eq!(d.poll(0), Poll::Wait(None), "no timer yet");
    // A minute of thought, then the table gets a turn and a claim timer: the person's runs
    // from now, not from when their decision opened (they would be played at once).
    let timers = Timers {
        turn_ms: Some(1_000),
        claim_ms: Some(500),
        ..Timers::default()
    };
    d.set_timers(timers, 60_000);
    assert_eq!(d.timers(), timers);
    let limit = if d.session().game().on_offer().is_some() {
        500
    } else {
        1_000
    };
    assert_eq!(d.poll(60_000), Poll::Wait(Some(60_000 + limit)));
    assert_eq!(d.deadline_of(me), Some(60_000 + limit));
    // The same timers again change nothing (the clock is not restarted).
    d.set_timers(timers, 60_200);
    assert_eq!(d.deadline_of(me), Some(60_000 + limit));
    assert_eq!(d.poll(60_000 + limit - 1), Poll::Wait(Some(60_000 + limit)));
    let Poll::Act(decision) = d.poll(60_000 + limit) else {
        panic!("the new timer ran out");
    };
    assert_eq!((decision.player, decision.by), (me, DecidedBy::StandIn));
    // Taken off again: no deadline.
    d.set_timers(Timers::default(), 60_000 + limit);
    assert_eq!(d.deadline_of(me), None);
}

#[test]
fn with_a_claim_window_the_next_turn_comes_at_the_same_moment_whoever_could_claim() {
    let timers = Timers {
        bot_delay_ms: 100,
        claim_window_ms: 100,
        ..Timers::default()
    };
    let rules = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
    let controllers = (0..4)
        .map(|i| Controller::Bot(bots::by_name("efficient", &rules, i).unwrap()))
        .collect();
    let (session, _) = Session::new(rules, 11, Some(4)).unwrap();
    let mut d = Driver::new(session, controllers, timers).unwrap();
    let mut now = 0;
    // For each discard or kong: when it was made and whether a tile went on offer.
    let mut open: Option<(u64, bool)> = None;
    let mut gaps = [Vec::new(), Vec::new()];
    while !d.session().is_over() {
        match d.poll(now) {
            Poll::Act(decision) => {
                let on_offer = d.session().game().on_offer().is_some();
                let answer = decision.action.is_claim_answer()
                    || (on_offer && decision.action == Action::Win);
                if !answer && let Some((at, could)) = open.take() {
                    gaps[could as usize].push(now - at);
                }
                d.act(decision.player, decision.action, now).unwrap();
                if opens_window(decision.action) {
                    open = Some((now, d.session().game().on_offer().is_some()));
                }
            }
            Poll::Wait(Some(at)) => {
                assert!(at > now, "a wait for the past");
                now = at;
            }
            Poll::Wait(None) => {
                open = None;
                d.deal_next(now).unwrap();
            }
        }
    }
    let [nobody, could] = &gaps;
    assert!(
        nobody.len() > 50 && could.len() > 10,
        "{} {}",
        nobody.len(),
        could.len()
    );
    // The window (100), then the bot pause (100): the same gap, claimable or not.
    assert!(nobody.iter().chain(could).all(|&g| g == 200), "{gaps:?}");
}

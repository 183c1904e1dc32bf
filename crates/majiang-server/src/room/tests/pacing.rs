//! The pass oracle: from a spectator's, an opponent's and the discarder's side, the moments at
//! which discards arrive and settle must not tell whether anybody could claim them. The rooms
//! play at virtual time (every moment exact); the test's client answers for the people after a
//! think time that varies, as a person's does; a classifier picks its best threshold on half of
//! the discards and is scored on the other half (balanced accuracy, 0.5 is chance). The
//! question is whether timing tells more than the public log: discards that were claimed are
//! left out (the claim shows), a player's score leaves out the discards they were asked about
//! themselves (they know), and thresholds are chosen per discarder (who discarded is public,
//! and a person's thinking over their turn takes longer than a bot's pause).

use super::*;
use majiang::table::{Session, TableRules};
use majiang_testkit::oracle::cross_validated;
use std::sync::Arc;

/// One message a connection got, and when.
struct Got {
    at: u64,
    conn: ConnId,
    msg: ServerMsg,
}

/// A think time for the `k`th decision of a person, 0 to 899 ms, spread like a hash (a fixed
/// formula rather than a random generator: the same run every time).
fn think(k: u64) -> u64 {
    (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) % 900
}

/// A person's answer: the decision it is for (hand, actions so far), when it is due, and
/// whether it was sent.
type Answer = ((u32, u64), u64, bool);

/// Plays `config` to its end with the viewers connected, answering for the person seats
/// `people` (each with its connection) after a think time from when they were shown the
/// decision. Returns every message with its time, and the room (for its stored actions).
fn play(
    config: serde_json::Value,
    seed: u64,
    viewers: &[(ConnId, Option<usize>)],
    people: &[(usize, ConnId)],
) -> (Harness, Vec<Got>) {
    let mut h = Harness::new(config, seed);
    for &(conn, seat) in viewers {
        h.input(Input::Open {
            conn,
            seat,
            deltas: false,
            device: None,
        });
    }
    h.input(Input::Timer);
    let mut got = Vec::new();
    let mut mark = 0;
    // Per person: the decision they were shown (hand, actions so far), when their answer is
    // due, and whether it was sent.
    let mut answers: Vec<Option<Answer>> = vec![None; people.len()];
    let mut decisions = 0u64;
    let mut seq = 0u64;
    loop {
        for s in &h.seen[mark..] {
            if let Seen::Msg(conn, msg) = s {
                got.push(Got {
                    at: h.now,
                    conn: *conn,
                    msg: msg.clone(),
                });
            }
        }
        mark = h.seen.len();
        if over(&h) {
            return (h, got);
        }
        // A person starts thinking when they are shown the decision (not when the engine
        // knows it: a turn after a discard is shown when its claim window ends).
        for (i, &(seat, _)) in people.iter().enumerate() {
            let shown = h.room.status() == RoomStatus::Playing
                && h.must_act(seat)
                && !h.room.held(h.chair(seat));
            let key = (h.room.session().unwrap().hand_number(), h.room.actions());
            match answers[i] {
                Some((k, _, _)) if shown && k == key => {}
                _ if shown => {
                    decisions += 1;
                    answers[i] = Some((key, h.now + think(decisions), false));
                }
                _ => answers[i] = None,
            }
        }
        let due = answers
            .iter()
            .enumerate()
            .filter_map(|(i, a)| a.filter(|a| !a.2).map(|a| (a.1, i)))
            .min();
        let next = match (due, h.wake) {
            (Some((at, _)), Some(w)) => at.min(w),
            (Some((at, _)), None) => at,
            (None, Some(w)) => w,
            (None, None) => panic!("the room waits for nothing at {}", h.now),
        };
        h.now = h.now.max(next);
        match due {
            Some((at, i)) if at <= h.now => {
                let (seat, conn) = people[i];
                let legal = h.room.session().unwrap().legal_actions(h.chair(seat));
                let action = legal[(decisions as usize) % legal.len()];
                if let Some(a) = answers[i].as_mut() {
                    a.2 = true;
                }
                seq += 1;
                h.msg(conn, ClientMsg::Action { seq, action });
            }
            _ => h.input(Input::Timer),
        }
    }
}

/// What the discards of a match were, in order, from the stored actions replayed through the
/// library (apart from the room).
struct Truth {
    /// Who was asked about each (nobody: nobody could claim it).
    asked: Vec<Vec<Player>>,
    /// It was claimed (or won on): that is public, so those are left out of the scores (the
    /// question is whether timing tells more than the public log).
    claimed: Vec<bool>,
    /// Who discarded it (public: the scores are worked out per discarder, since a person
    /// thinks longer than a bot over their turn, and who discards may go with who can claim).
    by: Vec<Player>,
}

fn asked(config: serde_json::Value, seed: u64, h: &Harness) -> Truth {
    let mut config: RoomConfig = serde_json::from_value(config).unwrap();
    let ruleset: TableRules = config.validate().unwrap();
    let (mut session, _) =
        Session::new(Arc::new(ruleset), seed, Some(config.hand_limit())).unwrap();
    let mut truth = Vec::new();
    let mut claimed = Vec::new();
    let mut by = Vec::new();
    for a in &h.stored {
        if session.awaiting_deal() {
            session.deal_next().unwrap();
        }
        if session.game().on_offer().is_some() && a.action != Action::Pass {
            *claimed.last_mut().unwrap() = true;
        }
        session.act(a.player, a.action).unwrap();
        if matches!(a.action, Action::Discard(_)) {
            let g = session.game();
            truth.push(if g.on_offer().is_some() {
                g.to_act().collect()
            } else {
                Vec::new()
            });
            claimed.push(false);
            by.push(a.player);
        }
    }
    Truth {
        asked: truth,
        claimed,
        by,
    }
}

/// For each discard `conn` was shown: when it arrived, and when it settled (the first moment
/// the viewer was shown anything after it).
fn moments(got: &[Got], conn: ConnId) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, Option<u64>)> = Vec::new();
    for g in got.iter().filter(|g| g.conn == conn) {
        let events = match &g.msg {
            ServerMsg::Events { events, .. } | ServerMsg::History { events, .. } => &events[..],
            ServerMsg::HandResult { .. } => &[],
            _ => continue,
        };
        // Anything shown settles the discards before it.
        if let Some(last) = out.last_mut()
            && last.1.is_none()
        {
            last.1 = Some(g.at);
        }
        for (i, e) in events.iter().enumerate() {
            if matches!(e, Event::Discarded { .. }) {
                let settled = (i + 1 < events.len()).then_some(g.at);
                out.push((g.at, settled));
            }
        }
    }
    out.into_iter()
        .map(|(arrived, settled)| (arrived, settled.unwrap_or(u64::MAX)))
        .collect()
}

/// The best a timing classifier does for `conn`, over three clocks: the gap before the
/// discard arrives, the wait from its arrival to its settling, and settle to settle; over the
/// discards `counted` (all, for a spectator; for a player, those they were not asked about
/// themselves: being asked, they know). Cross-validated: thresholds chosen on odd discards are
/// scored on even ones and back.
fn oracle(
    got: &[Got],
    conn: ConnId,
    truth: &[bool],
    by: &[Player],
    counted: impl Fn(usize) -> bool,
) -> (f64, usize, usize) {
    let m = moments(got, conn);
    assert_eq!(m.len(), truth.len(), "conn {conn} was shown every discard");
    let features: [Box<dyn Fn(usize) -> u64>; 3] = [
        Box::new(|k| m[k].0.saturating_sub(if k == 0 { 0 } else { m[k - 1].1 })),
        Box::new(|k| m[k].1.saturating_sub(m[k].0)),
        Box::new(|k| m[k].1.saturating_sub(if k == 0 { 0 } else { m[k - 1].1 })),
    ];
    let mut worst: f64 = 0.0;
    for f in &features {
        let data: Vec<(u64, bool, Player)> = (0..m.len())
            .filter(|&k| counted(k))
            .map(|k| (f(k), truth[k], by[k]))
            .collect();
        worst = worst.max(per_discarder(&data));
    }
    let could = (0..m.len()).filter(|&k| counted(k) && truth[k]).count();
    let nobody = (0..m.len()).filter(|&k| counted(k) && !truth[k]).count();
    (worst, could, nobody)
}

#[test]
fn in_a_bots_only_room_a_spectator_cannot_tell_from_timing_who_could_claim() {
    let config = json!({
        "rules": "hongkong", "hands": 24, "bot_delay_ms": 20,
        "seats": (0..4).map(|_| json!({"bot": true})).collect::<Vec<_>>()
    });
    let mut could = Vec::new();
    let mut got_all = Vec::new();
    for (i, seed) in [5u64, 6].into_iter().enumerate() {
        let (h, got) = play(config.clone(), seed, &[(1 + i as u64, None)], &[]);
        let t = asked(config.clone(), seed, &h);
        could.push((
            t.asked.iter().map(|a| !a.is_empty()).collect::<Vec<_>>(),
            t.claimed,
            t.by,
        ));
        got_all.push(got);
    }
    let mut total = 0;
    for (i, (got, (truth, claimed, by))) in got_all.iter().zip(&could).enumerate() {
        let (score, yes, no) = oracle(got, 1 + i as u64, truth, by, |k| !claimed[k]);
        total += yes + no;
        eprintln!("bots only, spectator, seed {i}: {yes} could be claimed, {no} not: {score:.3}");
        assert!(yes > 100 && no > 100, "both kinds of discard: {yes} {no}");
        assert!(score <= 0.55, "a spectator tells them apart: {score:.3}");
    }
    assert!(total >= 1000, "{total} discards");
}

#[test]
fn in_a_room_with_people_no_viewer_can_tell_from_timing_who_could_claim() {
    // Ann (seat 0) and Bo (seat 1) are the test's client, thinking 0 to 0.9 s over each
    // decision; the claim timer (1 s) is the claim window.
    let config = json!({
        "rules": "hongkong", "hands": 20, "bot_delay_ms": 20,
        "claim_timeout_ms": 1000, "turn_timeout_ms": 30000, "continue_timeout_ms": 0,
        "autostart": true,
        "seats": [{"name": "Ann"}, {"name": "Bo"}, {"bot": true}, {"bot": true}]
    });
    let (spectator, ann, bo) = (1, 2, 3);
    let (h, got) = play(
        config.clone(),
        9,
        &[(spectator, None), (ann, Some(0)), (bo, Some(1))],
        &[(0, ann), (1, bo)],
    );
    let Truth { asked, claimed, by } = asked(config, 9, &h);
    let truth: Vec<bool> = asked.iter().map(|a| !a.is_empty()).collect();
    let (yes, no) = (
        truth.iter().filter(|&&c| c).count(),
        truth.iter().filter(|&&c| !c).count(),
    );
    assert!(yes + no >= 1000, "{} discards", yes + no);
    assert!(yes > 100 && no > 100, "both kinds: {yes} {no}");
    // The spectator; Ann and Bo as opponents and as discarders (their own discards alone).
    let (score, ..) = oracle(&got, spectator, &truth, &by, |k| !claimed[k]);
    eprintln!("people: spectator {score:.3} ({yes} could be claimed, {no} not)");
    assert!(score <= 0.55, "a spectator tells them apart: {score:.3}");
    for (conn, seat) in [(ann, 0), (bo, 1)] {
        let me = h.chair(seat);
        let (score, could, nobody) = oracle(&got, conn, &truth, &by, |k| {
            !claimed[k] && !asked[k].contains(&me)
        });
        eprintln!(
            "people: seat {seat} over the discards it was not asked about ({could} another \
             could claim, {nobody} nobody): {score:.3}"
        );
        assert!(could > 100 && nobody > 100);
        assert!(score <= 0.55, "seat {seat} tells them apart: {score:.3}");
        let own: Vec<bool> = own_discards(&h, me);
        let m = moments(&got, conn);
        let mine: Vec<(u64, bool)> = own
            .iter()
            .zip(&m)
            .zip(&truth)
            .zip(&claimed)
            .filter(|(((own, _), _), claimed)| **own && !**claimed)
            .map(|(((_, (arrived, settled)), could), _)| (settled - arrived, *could))
            .collect();
        let score = cross_validated(&mine);
        eprintln!(
            "people: seat {seat} over its own {} discards {score:.3}",
            mine.len()
        );
        assert!(mine.len() > 100);
        assert!(
            score <= 0.55,
            "seat {seat} as discarder tells them apart: {score:.3}"
        );
    }
}

/// The cross-validated score of a threshold chosen for each discarder apart, weighted by
/// their share of the discards.
fn per_discarder(data: &[(u64, bool, Player)]) -> f64 {
    let mut total = 0.0;
    for chair in 0..4u8 {
        let mine: Vec<(u64, bool)> = data
            .iter()
            .filter(|d| d.2 == Player(chair))
            .map(|d| (d.0, d.1))
            .collect();
        total += cross_validated(&mine) * mine.len() as f64;
    }
    total / data.len().max(1) as f64
}

/// For each discard of the match: was it `me`'s?
fn own_discards(h: &Harness, me: Player) -> Vec<bool> {
    h.stored
        .iter()
        .filter(|a| matches!(a.action, Action::Discard(_)))
        .map(|a| a.player == me)
        .collect()
}

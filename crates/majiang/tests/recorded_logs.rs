//! Match logs recorded by earlier versions of the engine (`majiang selfplay`, every rule set and
//! classic table size) must keep replaying identically: the replay re-applies every logged action
//! and compares every record the engine writes with the recorded one. A change that alters the
//! engine's behaviour, the events it emits or the log format fails here.
//!
//! The logs were recorded under rules revision 1. Four of them meet a rule of revision 2 (the
//! last discard may be claimed only to win: a chow or pung on it, or claims chaining on after
//! the wall is empty): their replay stops there with [`ReplayError::EarlierRules`] naming the
//! rule, at the line of the claim the old rules allowed.

use majiang::table::replay;
use majiang::table::replay::{ChangedRule, ReplayError};

/// What replaying a recorded log gives.
enum Expected {
    /// It replays identically: (hands, actions, records) as recorded.
    Replays(usize, usize, usize),
    /// It meets the last-discard rule at this line and is refused there.
    MeetsLastDiscard(usize),
}

use Expected::{MeetsLastDiscard, Replays};

/// Each recorded log and what its replay gives.
const RECORDED: &[(&str, Expected)] = &[
    ("classic-greedy.jsonl", Replays(4, 226, 691)),
    ("classic-random.jsonl", MeetsLastDiscard(314)),
    ("classic3-greedy.jsonl", Replays(3, 153, 472)),
    ("classic5-greedy.jsonl", Replays(5, 412, 1191)),
    ("classic6-greedy.jsonl", Replays(6, 592, 1785)),
    ("hangzhou-greedy.jsonl", Replays(8, 435, 1315)),
    ("hangzhou-indicator-greedy.jsonl", Replays(8, 333, 1065)),
    ("hangzhou-random.jsonl", Replays(8, 592, 1784)),
    ("hongkong-greedy.jsonl", MeetsLastDiscard(292)),
    ("hongkong-random.jsonl", MeetsLastDiscard(1142)),
    ("yangzhou-greedy.jsonl", Replays(12, 1035, 3236)),
    ("yangzhou-random.jsonl", MeetsLastDiscard(3261)),
];

fn read(file: &str) -> String {
    let path = format!("{}/tests/data/logs/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn recorded_logs_replay_identically() {
    for (file, expected) in RECORDED {
        let result = replay(&read(file));
        match *expected {
            Replays(hands, actions, records) => {
                let report = result.unwrap_or_else(|e| panic!("{file}: {e}"));
                assert_eq!(report.hands.len(), hands, "{file}: hands");
                assert_eq!(report.actions, actions, "{file}: actions");
                assert_eq!(report.records, records, "{file}: records");
            }
            MeetsLastDiscard(line) => {
                let e = result.expect_err(file);
                assert_eq!(
                    e,
                    ReplayError::EarlierRules {
                        line,
                        revision: 1,
                        rule: ChangedRule::LastDiscard
                    },
                    "{file}"
                );
                let text = e.to_string();
                assert!(
                    text.contains("rules revision 1")
                        && text.contains("its discard may be claimed only to win"),
                    "{file}: {text}"
                );
            }
        }
    }
}

#[test]
fn the_refused_logs_meet_the_last_discard_where_they_are_refused() {
    // Each refusal is at a claim (or a pass of one) on a discard made after the live wall's
    // last tile was drawn: the log's draws before it add up to the whole live wall.
    for (file, expected) in RECORDED {
        let MeetsLastDiscard(line) = *expected else {
            continue;
        };
        let text = read(file);
        let refused: serde_json::Value =
            serde_json::from_str(text.lines().nth(line - 1).unwrap()).unwrap();
        assert_eq!(refused["kind"], "action", "{file}:{line}");
        assert_ne!(refused["action"], "win", "{file}:{line}");
        // The next draw in the log (after the claim chain) is the exhaustive draw or a draw
        // of nothing: the wall was already empty.
        let later_draw = text
            .lines()
            .skip(line)
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .find(|v| {
                matches!(
                    v["event"]["type"].as_str(),
                    Some("drew" | "exhaustive_draw" | "won")
                )
            })
            .expect("the hand ends");
        assert_ne!(
            later_draw["event"]["type"], "drew",
            "{file}:{line}: the wall was empty"
        );
    }
}

#[test]
fn a_changed_record_in_a_recorded_log_is_caught() {
    // The check above can fail: change one payment in a settlement and the replay refuses it.
    let text = read("hangzhou-greedy.jsonl");
    let line = text
        .lines()
        .position(|l| l.contains("\"settlement\"") && l.contains("\"payments\":[-"))
        .expect("a settlement with a payment");
    let changed: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == line {
                l.replacen("\"payments\":[-", "\"payments\":[-1", 1)
            } else {
                l.to_string()
            }
        })
        .collect();
    let e = replay(&(changed.join("\n") + "\n")).expect_err("a changed payment must not replay");
    assert_eq!(e.line(), line + 1);
}

/// Removes every `itemised` list from a log's JSON lines: the log as written before wins carried
/// their itemised payments.
fn without_itemised(text: &str) -> String {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.remove("itemised");
                m.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut out = String::new();
    for line in text.lines() {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        strip(&mut v);
        out.push_str(&v.to_string());
        out.push('\n');
    }
    out
}

#[test]
fn logs_from_before_itemised_wins_still_replay() {
    for (file, expected) in RECORDED {
        let Replays(hands, actions, records) = *expected else {
            continue;
        };
        let text = read(file);
        let old = without_itemised(&text);
        assert!(!old.contains("\"itemised\""), "{file}: stripped");
        let report = replay(&old).unwrap_or_else(|e| panic!("{file} without itemised: {e}"));
        assert_eq!(
            (report.hands.len(), report.actions, report.records),
            (hands, actions, records),
            "{file}"
        );
    }
}

#[test]
fn a_changed_itemised_payment_is_caught() {
    let text = read("hangzhou-greedy.jsonl");
    let line = text
        .lines()
        .position(|l| l.contains("\"type\":\"won\"") && l.contains("\"itemised\":[{"))
        .expect("a won event with itemised payments");
    let changed: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i != line {
                return l.to_string();
            }
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            let amount = &mut v["event"]["scored"]["itemised"][0]["reason"]["args"]["amount"];
            *amount = serde_json::json!(amount.as_i64().unwrap() + 1);
            v.to_string()
        })
        .collect();
    let e =
        replay(&(changed.join("\n") + "\n")).expect_err("a changed itemised list must not replay");
    assert_eq!(e.line(), line + 1);
}

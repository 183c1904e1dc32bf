//! Match logs recorded by earlier versions of the engine (`majiang selfplay`, every rule set and
//! classic table size) must keep replaying identically: the replay re-applies every logged action
//! and compares every record the engine writes with the recorded one. A change that alters the
//! engine's behaviour, the events it emits or the log format fails here.

use majiang::table::replay;

/// (file, hands, actions, records) as recorded.
const RECORDED: &[(&str, usize, usize, usize)] = &[
    ("classic-greedy.jsonl", 4, 226, 691),
    ("classic-random.jsonl", 4, 424, 1253),
    ("classic3-greedy.jsonl", 3, 153, 472),
    ("classic5-greedy.jsonl", 5, 412, 1191),
    ("classic6-greedy.jsonl", 6, 592, 1785),
    ("hangzhou-greedy.jsonl", 8, 435, 1315),
    ("hangzhou-indicator-greedy.jsonl", 8, 333, 1065),
    ("hangzhou-random.jsonl", 8, 592, 1784),
    ("hongkong-greedy.jsonl", 12, 1078, 3200),
    ("hongkong-random.jsonl", 12, 1097, 3437),
    ("yangzhou-greedy.jsonl", 12, 1035, 3236),
    ("yangzhou-random.jsonl", 12, 1159, 3568),
];

fn read(file: &str) -> String {
    let path = format!("{}/tests/data/logs/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn recorded_logs_replay_identically() {
    for &(file, hands, actions, records) in RECORDED {
        let report = replay(&read(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(report.hands.len(), hands, "{file}: hands");
        assert_eq!(report.actions, actions, "{file}: actions");
        assert_eq!(report.records, records, "{file}: records");
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
    for &(file, hands, actions, records) in RECORDED {
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

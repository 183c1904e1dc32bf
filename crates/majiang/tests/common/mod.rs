//! Shared by the scoring-case tests (and, through `#[path]`, the CLI's): hand-worked cases are
//! JSON objects `{"name", "request", "expected"}`, where `request` is a RULES.md §6 request and
//! `expected` the answer worked out by hand. This module reads such files and compares an answer
//! with the expectation, one message per difference.

#![allow(dead_code)] // each test crate uses its own subset

use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The cases of a data file: either a JSON array of cases, or an object's `section` array (the
/// review files keep `cases` and `disputed` apart).
pub fn load(text: &str, section: Option<&str>) -> Vec<Value> {
    let data: Value = serde_json::from_str(text).expect("a case file is JSON");
    let list = match section {
        Some(s) => &data[s],
        None => &data,
    };
    list.as_array()
        .unwrap_or_else(|| panic!("expected an array of cases ({section:?})"))
        .clone()
}

/// What to compare: review files compare only validity, totals and payments (their pattern ids
/// are the implementer's); the rule sets' own case files compare the patterns too.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    /// `valid`, `total`, `payments` and the set of `(id, value)` patterns.
    Everything,
    /// `valid`, `total` and `payments`.
    Totals,
}

/// The library's answer to a §6 request, in the CLI's JSON shape.
pub fn answer(request: &Value) -> Value {
    let req = majiang::scoring::request::ScoreRequest::from_json(&request.to_string())
        .unwrap_or_else(|e| panic!("malformed request {request}: {e}"));
    match majiang::rules::score(&req).unwrap_or_else(|e| panic!("malformed options {request}: {e}"))
    {
        Ok(s) => json!({
            "valid": true,
            "patterns": s.patterns,
            "total": s.total,
            "payments": s.payments.iter().map(|(k, v)| (k.name().to_string(), json!(v)))
                .collect::<serde_json::Map<_, _>>(),
        }),
        Err(why) => json!({"valid": false, "reason": why.0}),
    }
}

/// The `(id, value)` pairs of an answer's patterns, sorted.
pub fn pattern_set(answer: &Value) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = answer["patterns"]
        .as_array()
        .map(|ps| {
            ps.iter()
                .map(|p| {
                    (
                        p["id"].as_str().unwrap_or("?").to_string(),
                        p["value"].as_i64().unwrap_or(i64::MIN),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// Net payments per seat, zero entries left out (a seat that pays nothing may be listed or not).
pub fn payments(answer: &Value) -> BTreeMap<String, i64> {
    answer["payments"]
        .as_object()
        .map(|m| {
            m.iter()
                .filter_map(|(k, x)| x.as_i64().filter(|n| *n != 0).map(|n| (k.clone(), n)))
                .collect()
        })
        .unwrap_or_default()
}

/// Compares one answer with its expectation; `Err` says what differs.
pub fn check(name: &str, expected: &Value, got: &Value, compare: Compare) -> Result<(), String> {
    if expected["valid"].as_bool().is_none() {
        return Err(format!("{name}: expected.valid is missing"));
    }
    if expected["valid"] != got["valid"] {
        return Err(format!(
            "{name}: valid {} but expected {}: {got}",
            got["valid"], expected["valid"]
        ));
    }
    if got["valid"] == json!(false) {
        return match got["reason"].as_str() {
            Some(r) if !r.is_empty() => Ok(()),
            _ => Err(format!("{name}: a refusal needs a reason: {got}")),
        };
    }
    let mut diffs = Vec::new();
    if expected["total"] != got["total"] {
        diffs.push(format!("total {} != {}", got["total"], expected["total"]));
    }
    if payments(expected) != payments(got) {
        diffs.push(format!(
            "payments {:?} != {:?}",
            payments(got),
            payments(expected)
        ));
    }
    if compare == Compare::Everything && pattern_set(expected) != pattern_set(got) {
        diffs.push(format!(
            "patterns {:?} != {:?}",
            pattern_set(got),
            pattern_set(expected)
        ));
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(format!("{name}: {}", diffs.join("; ")))
    }
}

/// Checks every case with `answer_of` (the library, or the binary), panicking with every
/// difference at once.
pub fn check_all(cases: &[Value], compare: Compare, answer_of: impl Fn(&Value) -> Value) {
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let name = c["name"].as_str().unwrap_or("?");
            check(name, &c["expected"], &answer_of(&c["request"]), compare).err()
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Distinct names, so a failure points at one case.
pub fn assert_unique_names(cases: &[Value]) {
    let mut names: Vec<&str> = cases.iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(names.len(), cases.len(), "every case has a name");
    names.sort_unstable();
    for w in names.windows(2) {
        assert_ne!(w[0], w[1], "two cases are named {:?}", w[0]);
    }
}

/// Every pattern id of a rule set's table is scored by at least one expected answer.
pub fn assert_every_pattern_covered<'a>(cases: &[Value], ids: impl IntoIterator<Item = &'a str>) {
    let seen: std::collections::BTreeSet<String> = cases
        .iter()
        .flat_map(|c| pattern_set(&c["expected"]))
        .map(|(id, _)| id)
        .collect();
    let missing: Vec<&str> = ids.into_iter().filter(|id| !seen.contains(*id)).collect();
    assert!(missing.is_empty(), "no case scores {missing:?}");
}

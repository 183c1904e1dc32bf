//! The scoring case files, shared by the library's, the CLI's and the server's tests: hand-worked cases are
//! JSON objects `{"name", "request", "expected"}`, where `request` is a scoring request (the
//! JSON of `majiang score --json`, see `majiang::scoring::request`) and `expected` the answer
//! worked out by hand. This module reads such files from `tests/data/`, compares an answer with
//! the expectation (one message per difference, naming the file and the case), and runs every
//! check a case file gets ([`check_case_file`]).

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

/// The cases of a data file: either a JSON array of cases, or an object's `section` array (the
/// review files keep `cases` and `disputed` apart).
pub fn load(text: &str, section: Option<&str>) -> Vec<Value> {
    let data: Value = serde_json::from_str(text).expect("a case file is JSON");
    let list = match section {
        Some(s) => &data[s],
        None => &data,
    };
    list.as_array()
        .unwrap_or_else(|| panic!("expected an array of cases ({section:?} of the file)"))
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

/// The library's answer to a scoring request, in the CLI's JSON shape (the library's one
/// answer function, [`majiang::rules::score_json`]).
pub fn answer(request: &Value) -> Value {
    majiang::rules::score_json(&request.to_string())
        .unwrap_or_else(|e| panic!("malformed request {request}: {e}"))
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
        diffs.push(format!(
            "total {} but expected {}",
            got["total"], expected["total"]
        ));
    }
    if payments(expected) != payments(got) {
        diffs.push(format!(
            "payments {:?} but expected {:?}",
            payments(got),
            payments(expected)
        ));
    }
    if compare == Compare::Everything && pattern_set(expected) != pattern_set(got) {
        diffs.push(format!(
            "patterns {:?} but expected {:?}",
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

/// Checks every case of `file` with `answer_of` (the library, or the binary), panicking with
/// every difference at once, each naming the file and the case.
pub fn check_all(
    file: &str,
    cases: &[Value],
    compare: Compare,
    answer_of: impl Fn(&Value) -> Value,
) {
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let name = format!("{file} case {:?}", c["name"].as_str().unwrap_or("?"));
            check(&name, &c["expected"], &answer_of(&c["request"]), compare).err()
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{file}: {} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Distinct names, so a failure points at one case of `file`.
pub fn assert_unique_names(file: &str, cases: &[Value]) {
    let mut names: Vec<&str> = cases.iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(names.len(), cases.len(), "{file}: every case has a name");
    names.sort_unstable();
    for w in names.windows(2) {
        assert_ne!(w[0], w[1], "{file}: two cases are named {:?}", w[0]);
    }
}

/// Every pattern id of a rule set's table is scored by at least one expected answer of `file`.
pub fn assert_every_pattern_covered<'a>(
    file: &str,
    cases: &[Value],
    ids: impl IntoIterator<Item = &'a str>,
) {
    let seen: std::collections::BTreeSet<String> = cases
        .iter()
        .flat_map(|c| pattern_set(&c["expected"]))
        .map(|(id, _)| id)
        .collect();
    let missing: Vec<&str> = ids.into_iter().filter(|id| !seen.contains(*id)).collect();
    assert!(missing.is_empty(), "{file}: no case scores {missing:?}");
}

/// A hand-worked case file of `crates/majiang/tests/data/`, and what its runner checks.
pub struct CaseFile {
    /// The file name, e.g. `hongkong_cases.json`.
    pub file: &'static str,
    /// At least this many cases run.
    pub min_cases: usize,
    /// What the answers are compared on.
    pub compare: Compare,
    /// Every one of these pattern ids is scored by some expected answer (the rule set's
    /// table; empty for a review file, whose pattern ids are the implementer's).
    pub patterns: Vec<&'static str>,
    /// Where the cases are: `None` for a file that is one array, or the member holding them
    /// (review files keep `cases`, which run, apart from `disputed`, which do not).
    pub section: Option<&'static str>,
    /// Members every `disputed` entry must have, so a dispute is documented.
    pub disputed_keys: &'static [&'static str],
}

/// The text of `file` in the library's `tests/data/` (from either crate's tests).
pub fn read_data(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../majiang/tests/data")
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The cases of a [`CaseFile`] that run, after checking the file's shape: enough cases, every
/// name distinct (disputed ones included), at least one refusal, the expected payments of each
/// win summing to zero, every pattern of the table covered, every dispute documented.
pub fn load_case_file(spec: &CaseFile) -> Vec<Value> {
    let file = spec.file;
    let text = read_data(file);
    let cases = load(&text, spec.section);
    let disputed = match spec.section {
        Some(_) => load(&text, Some("disputed")),
        None => Vec::new(),
    };
    assert!(
        cases.len() >= spec.min_cases,
        "{file}: {} cases, fewer than {}",
        cases.len(),
        spec.min_cases
    );
    assert_unique_names(file, &[cases.clone(), disputed.clone()].concat());
    assert!(
        cases.iter().any(|c| c["expected"]["valid"] == false),
        "{file}: no case is refused"
    );
    for case in &cases {
        let name = case["name"].as_str().unwrap_or("?");
        let sum: i64 = payments(&case["expected"]).values().sum();
        assert_eq!(
            sum, 0,
            "{file} case {name:?}: expected payments do not sum to zero"
        );
    }
    for d in &disputed {
        let name = d["name"].as_str().unwrap_or("?");
        for key in spec.disputed_keys {
            assert!(!d[key].is_null(), "{file}: disputed {name:?} lacks {key}");
        }
    }
    assert_every_pattern_covered(file, &cases, spec.patterns.iter().copied());
    cases
}

/// Runs every check of a [`CaseFile`], scoring each case through the library.
pub fn check_case_file(spec: &CaseFile) {
    let cases = load_case_file(spec);
    check_all(spec.file, &cases, spec.compare, answer);
    eprintln!(
        "{}: {} cases scored as worked by hand",
        spec.file,
        cases.len()
    );
}

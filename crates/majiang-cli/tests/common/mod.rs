//! Shared by the CLI's scoring tests: run the real `majiang` binary, and check the library's
//! hand-worked case files through it with the same comparison the library's own tests use.

#![allow(dead_code)] // each test crate uses its own subset

pub mod serve;

pub use majiang_testkit::cases;

use serde_json::{Value, json};
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `majiang ARGS` with `stdin` on its standard input.
pub fn majiang(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the majiang binary runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes())
        .expect("writes standard input");
    child.wait_with_output().expect("the binary finishes")
}

/// Runs `majiang score --json` with `request` on standard input.
pub fn score_json(request: &str) -> Output {
    majiang(&["score", "--json"], request)
}

/// The binary's answer to a request; a failed run or non-JSON output becomes an answer whose
/// `valid` is an error string, so the comparison reports it by case name.
pub fn binary_answer(request: &Value) -> Value {
    let out = score_json(&request.to_string());
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return json!({"valid": format!("exit {:?}: {err}", out.status.code())});
    }
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| json!({"valid": format!("not one JSON answer: {e}")}))
}

/// Every case of the library's data file `file` (e.g. `hongkong_cases.json`) through the
/// binary: the file passes the same shape checks as in the library's tests, the answers match
/// the hand-worked ones, and every pattern is named and counted in one of `units`.
pub fn check_file_through_binary(spec: &cases::CaseFile, units: &[&str]) {
    let all = cases::load_case_file(spec);
    cases::check_all(spec.file, &all, spec.compare, |request| {
        let got = binary_answer(request);
        let well_formed = got["patterns"].as_array().is_none_or(|ps| {
            ps.iter().all(|p| {
                p["name"].as_str().is_some_and(|n| !n.is_empty())
                    && units.iter().any(|u| p["unit"] == *u)
            })
        });
        if well_formed {
            got
        } else {
            json!({"valid": format!("patterns must be named and in {units:?}: {got}")})
        }
    });
}

/// A rule set's own case file, compared on everything, with no pattern coverage asked (the
/// library's tests check that).
pub fn rule_set_file(file: &'static str, min_cases: usize) -> cases::CaseFile {
    cases::CaseFile {
        file,
        min_cases,
        compare: cases::Compare::Everything,
        patterns: Vec::new(),
        section: None,
        disputed_keys: &[],
    }
}

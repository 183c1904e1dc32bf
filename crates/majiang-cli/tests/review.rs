//! `majiang review LOG`: the expert reviews one seat of a real log made by `selfplay`, in
//! words and as JSON (docs/review-json.md); bad input is a clear error with exit 2.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_majiang");

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("majiang-review-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A log written by `selfplay`.
fn selfplay(rules: &str, seed: u64, bots: &str, hands: u32, file: &str) -> String {
    let path = temp(file);
    let p = path.to_str().unwrap().to_string();
    let out = run(&[
        "selfplay",
        "--rules",
        rules,
        "--seed",
        &seed.to_string(),
        "--bots",
        bots,
        "--hands",
        &hands.to_string(),
        "--log",
        &p,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    p
}

fn review_json(args: &[&str]) -> Value {
    let mut all = vec!["review", "--json"];
    all.extend_from_slice(args);
    let out = run(&all);
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

#[test]
fn a_selfplay_log_is_reviewed_in_words_and_in_json() {
    let log = selfplay(
        "hongkong",
        3,
        "random,efficient,efficient,efficient",
        2,
        "a.jsonl",
    );
    let out = run(&["review", &log, "--seat", "0", "--budget", "24"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let words = text(&out.stdout);
    assert!(
        words.starts_with("Review of seat 0, hongkong rules, 2 hands: expert seed 0, 24 worlds"),
        "{words}"
    );
    assert!(words.contains("Agreed with the expert on "), "{words}");
    assert!(words.contains("\nHand 1, result "), "{words}");
    assert!(words.contains("\nHand 2, result "), "{words}");

    let r = review_json(&[&log, "--seat", "0", "--budget", "24"]);
    assert_eq!(r["rules"], "hongkong");
    assert_eq!(r["unit"], "chips");
    assert_eq!(r["score_unit"], "fan");
    assert_eq!(r["rollouts"], 24);
    assert_eq!(r["complete"], true);
    let hands = r["hands"].as_array().unwrap();
    assert_eq!(hands.len(), 2);
    let mut decisions = 0;
    let mut flagged = 0;
    for h in hands {
        for d in h["decisions"].as_array().unwrap() {
            decisions += 1;
            assert_eq!(d["agreed"], d["played"] == d["expert"]);
            let alts = d["alternatives"].as_array().unwrap();
            if !alts.is_empty() {
                assert_eq!(alts[0]["action"], d["expert"]);
                for a in alts {
                    assert!(a["value"]["mean"].is_f64());
                    assert!(a["value"]["se"].as_f64().unwrap() >= 0.0);
                    assert!(a["value"]["worlds"].as_u64().unwrap() >= 1);
                }
            }
            if d["flagged"] == true {
                flagged += 1;
                let lost = &d["lost"];
                assert!(lost["mean"].as_f64().unwrap() > 2.0 * lost["se"].as_f64().unwrap());
                // Words for people name the same decision.
                let number = d["number"].as_u64().unwrap();
                assert!(words.contains(&format!("  decision {number} (")), "{words}");
                assert!(words.contains("    why: "), "{words}");
            }
        }
    }
    let s = &r["summary"];
    assert_eq!(s["decisions"], decisions);
    assert_eq!(s["flagged"], flagged);
    // A random player agrees with the expert on few decisions.
    assert!(s["agreed"].as_u64().unwrap() * 2 < decisions, "{s}");
    // The same log, seat, seed and budget: the same review.
    assert_eq!(review_json(&[&log, "--seat", "0", "--budget", "24"]), r);
}

#[test]
fn an_expert_seat_reviewed_at_its_own_seed_agrees_with_itself() {
    let seed = 7u64;
    let log = selfplay("yangzhou", seed, "expert", 1, "b.jsonl");
    // selfplay seeds entrant k's bot with seed × φ + k.
    let entrant = 1u64;
    let bot_seed = majiang::seeds::bot_seed(seed, entrant);
    let r = review_json(&[&log, "--seat", "1", "--seed", &bot_seed.to_string()]);
    let s = &r["summary"];
    assert!(s["decisions"].as_u64().unwrap() >= 5, "{s}");
    assert_eq!(s["agreed"], s["decisions"], "{s}");
    assert_eq!(s["flagged"], 0);
    // Another seed is another expert: its choices may differ, never its format.
    let other = review_json(&[&log, "--seat", "1", "--seed", "99"]);
    assert_eq!(other["summary"]["decisions"], s["decisions"]);
}

#[test]
fn bad_input_is_a_clear_error() {
    let log = selfplay("classic", 2, "random", 1, "c.jsonl");
    let out = run(&["review", &log, "--seat", "9"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("there is no seat 9: the match had 4 players"),
        "{}",
        text(&out.stderr)
    );
    // The budget is capped as the bots' `hard:N` is: a huge one never starts.
    for budget in ["0", "100000"] {
        let out = run(&["review", &log, "--budget", budget]);
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        assert!(
            err.contains("--budget") && err.contains("1..=4096"),
            "{err}"
        );
    }
    let junk = temp("junk.jsonl");
    std::fs::write(&junk, "not a log\n").unwrap();
    let out = run(&["review", junk.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("the log does not replay: line 1"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["review", "/nonexistent/log.jsonl"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("reading /nonexistent/log.jsonl"));
}

#[test]
fn words_say_how_much_worse_without_bare_figures_unless_asked() {
    let log = selfplay(
        "hongkong",
        5,
        "random,efficient,efficient,efficient",
        1,
        "w.jsonl",
    );
    let out = run(&["review", &log, "--budget", "16", "--all"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let words = text(&out.stdout);
    assert!(!words.contains('±'), "{words}");
    assert!(words.contains("★ "), "{words}");
    assert!(
        words.contains("about equal")
            || words.contains("slightly worse")
            || words.contains("clearly worse"),
        "{words}"
    );
    assert!(words.contains("\"about equal\" means within the playouts' noise"));
    let out = run(&["review", &log, "--budget", "16", "--all", "--figures"]);
    let figures = text(&out.stdout);
    assert!(
        figures.contains('±') && figures.contains("(vs ★ "),
        "{figures}"
    );
}

#[test]
fn a_byte_order_mark_is_read_and_a_cut_line_is_reported() {
    let log = selfplay("hongkong", 4, "efficient", 2, "bom.jsonl");
    let whole = std::fs::read_to_string(&log).unwrap();
    let marked = temp("marked.jsonl");
    std::fs::write(&marked, format!("\u{feff}{whole}")).unwrap();
    let a = review_json(&[marked.to_str().unwrap(), "--budget", "4"]);
    let b = review_json(&[&log, "--budget", "4"]);
    assert_eq!(a, b);
    // Cut in the middle of the last line but a few.
    let lines: Vec<&str> = whole.lines().collect();
    let at = lines.len() - 5;
    let mut cut = lines[..at].join("\n");
    cut.push('\n');
    cut.push_str(&lines[at][..lines[at].len() / 2]);
    let cut_path = temp("cut.jsonl");
    std::fs::write(&cut_path, cut).unwrap();
    let out = run(&["review", cut_path.to_str().unwrap(), "--budget", "4"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!("line {} is cut short", at + 1)) && err.contains("reviewed"),
        "{err}"
    );
    let words = text(&out.stdout);
    assert!(words.contains("(log unfinished)"), "{words}");
    let r = review_json(&[cut_path.to_str().unwrap(), "--budget", "4"]);
    assert_eq!(r["cut_at"], at + 1);
    assert_eq!(r["hands"][0], b["hands"][0]);
}

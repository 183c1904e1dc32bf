//! `majiang selfplay` writes a match log; `majiang replay` checks it: exit 0 when it replays
//! identically, 3 when it replays but stops before the match ended, 1 when a line differs, 2
//! when it is not a log.

use serde_json::{Value, json};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_majiang");

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn run_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes())
        .expect("writes the log");
    child.wait_with_output().expect("the binary finishes")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("majiang-replay-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn selfplay(rules: &str, seed: &str, extra: &[&str], file: &str) -> String {
    let path = temp(file);
    let p = path.to_str().unwrap();
    let mut args = vec!["selfplay", "--rules", rules, "--seed", seed, "--log", p];
    args.extend_from_slice(extra);
    let out = run(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("final standings"));
    std::fs::read_to_string(&path).unwrap()
}

#[test]
fn a_selfplay_log_replays_with_a_summary() {
    for (rules, extra) in [
        ("hangzhou", vec!["--option", "end=rounds:3"]),
        ("classic", vec!["-o", "players=3"]),
        ("yangzhou", vec!["--bots", "random"]),
    ] {
        let file = format!("{rules}.jsonl");
        let log = selfplay(rules, "5", &extra, &file);
        let header: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
        assert_eq!(header["rules"], rules);
        assert_eq!(header["seed"], 5);
        let out = run(&["replay", temp(&file).to_str().unwrap()]);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(stdout.contains("replayed identically"), "{stdout}");
        assert!(stdout.contains("hand   1  dealer "), "{stdout}");
        assert!(stdout.contains("final standings:"), "{stdout}");
        let hands = stdout.lines().filter(|l| l.starts_with("hand ")).count();
        let settlements = log
            .lines()
            .filter(|l| l.contains(r#""kind":"settlement""#))
            .count();
        assert_eq!(hands, settlements);
        match rules {
            "hangzhou" => {
                assert_eq!(hands, 3);
                assert!(stdout.contains("lao 1"));
            }
            "classic" => assert_eq!(hands, 3),
            _ => assert_eq!(hands, 16),
        }
        // Quiet: only the verdict.
        let out = run(&["replay", "-q", temp(&file).to_str().unwrap()]);
        assert_eq!(text(&out.stdout).lines().count(), 1);
        let _ = std::fs::remove_file(temp(&file));
    }
}

#[test]
fn the_same_seed_writes_the_same_log() {
    let a = selfplay("hongkong", "8", &["--hand-limit", "6"], "a.jsonl");
    let b = selfplay("hongkong", "8", &["--hand-limit", "6"], "b.jsonl");
    assert_eq!(a, b);
    let c = selfplay("hongkong", "9", &["--hand-limit", "6"], "c.jsonl");
    assert_ne!(a, c);
    let header: Value = serde_json::from_str(a.lines().next().unwrap()).unwrap();
    assert_eq!(header["hand_limit"], 6);
    // Standard output and standard input work too.
    let out = run(&[
        "selfplay",
        "--rules",
        "hongkong",
        "--seed",
        "8",
        "--hand-limit",
        "6",
        "--log",
        "-",
    ]);
    assert_eq!(text(&out.stdout), a);
    let out = run_stdin(&["replay", "-"], &a);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for f in ["a.jsonl", "b.jsonl", "c.jsonl"] {
        let _ = std::fs::remove_file(temp(f));
    }
}

#[test]
fn a_tampered_log_exits_1_naming_the_line() {
    let log = selfplay("classic", "2", &[], "tamper.jsonl");
    let _ = std::fs::remove_file(temp("tamper.jsonl"));
    let mut lines: Vec<String> = log.lines().map(str::to_string).collect();
    let i = lines
        .iter()
        .position(|l| l.contains(r#""kind":"action""#))
        .unwrap();
    let mut v: Value = serde_json::from_str(&lines[i]).unwrap();
    let p = v["player"].as_u64().unwrap();
    v["player"] = json!((p + 2) % 4);
    lines[i] = v.to_string();
    let out = run_stdin(&["replay", "-"], &(lines.join("\n") + "\n"));
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains(&format!("line {}:", i + 1)), "{err}");
    assert!(err.contains("does not replay"), "{err}");
    assert!(text(&out.stdout).is_empty());
}

#[test]
fn unreadable_input_exits_2() {
    let out = run(&["replay", "/nonexistent/majiang.jsonl"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("reading"));
    let out = run_stdin(&["replay", "-"], "hello\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("line 1"),
        "{}",
        text(&out.stderr)
    );
    let out = run_stdin(&["replay", "-"], "");
    assert_eq!(out.status.code(), Some(2));
    // Selfplay with bad rules or options is a usage error.
    for args in [
        vec!["selfplay", "--rules", "riichi", "--log", "-"],
        vec![
            "selfplay",
            "--rules",
            "hangzhou",
            "-o",
            "end=forever",
            "--log",
            "-",
        ],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).starts_with("majiang: "));
    }
}

#[test]
fn a_truncated_log_exits_3_saying_where_it_ends() {
    let path = format!(
        "{}/../majiang/tests/data/logs/hangzhou-greedy.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let full = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    // Cut after the first action of hand 3.
    let i = lines
        .iter()
        .position(|l| l.contains(r#""kind":"action","hand":3"#))
        .unwrap();
    let cut = lines[..=i].join("\n") + "\n";
    let out = run_stdin(&["replay", "-"], &cut);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(
        stdout.contains("hand   1") && stdout.contains("hand   2"),
        "{stdout}"
    );
    assert!(!stdout.contains("hand   3"), "{stdout}");
    assert!(
        stdout.contains("the log ends in hand 3 (match not finished)"),
        "{stdout}"
    );
    assert!(!stdout.contains("match over"), "{stdout}");
    // The whole log: exit 0.
    let out = run_stdin(&["replay", "-q", "-"], &full);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn selfplay_chooses_bots_by_name() {
    let a = selfplay("classic", "3", &["--bots", "random"], "r.jsonl");
    let b = selfplay(
        "classic",
        "3",
        &["--bots", "efficient,random,random,random"],
        "m.jsonl",
    );
    assert_ne!(a, b);
    let out = run_stdin(&["replay", "-q", "-"], &b);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // The expert with a budget of its own (expert:N, hard:N) plays and replays too.
    let c = selfplay(
        "hongkong",
        "3",
        &["--bots", "hard:8,expert:16,random,random", "--hands", "1"],
        "x.jsonl",
    );
    let out = run_stdin(&["replay", "-q", "-"], &c);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for bad in ["clever", "random,random"] {
        let out = run(&[
            "selfplay", "--rules", "classic", "--bots", bad, "--log", "-",
        ]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(text(&out.stderr).contains("--bots"), "{bad}");
    }
    for f in ["r.jsonl", "m.jsonl", "x.jsonl"] {
        let _ = std::fs::remove_file(temp(f));
    }
}

#[test]
fn a_log_that_stops_between_hands_says_after_which() {
    // A player who leaves at the end of hand 2 leaves a log ending on hand 2's settlement: the
    // log ends after hand 2, not "in hand 3" (never dealt).
    let path = format!(
        "{}/../majiang/tests/data/logs/hangzhou-greedy.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let full = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    let i = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains(r#""kind":"settlement""#))
        .nth(1)
        .unwrap()
        .0;
    let cut = lines[..=i].join("\n") + "\n";
    let out = run_stdin(&["replay", "-"], &cut);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(
        stdout.contains("the log ends after hand 2 (match not finished)"),
        "{stdout}"
    );
    assert!(!stdout.contains("in hand 3"), "{stdout}");
}

#[test]
fn the_log_records_what_the_zero_floor_withheld() {
    // Hangzhou to 5 points: in hand 3 the winner is owed 4 by each loser, whose balances are
    // 2, 1 and 2; they pay what they have (5 in all), the floor keeps back 12 − 5 = 7.
    let log = selfplay(
        "hangzhou",
        "1",
        &[
            "--option",
            "end=points:5",
            "--bots",
            "efficient,random,efficient,aggressive",
        ],
        "floor.jsonl",
    );
    let hand3: Value = log
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["kind"] == "settlement" && r["hand_number"] == 3)
        .unwrap();
    assert_eq!(
        hand3["payments"],
        serde_json::json!([5, -2, -1, -2]),
        "{hand3}"
    );
    assert_eq!(hand3["withheld"], 7, "{hand3}");
    assert_eq!(hand3["uncollected"], 0, "{hand3}");
    let end: Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    assert_eq!(end["withheld"], 7, "{end}");
    // A log written before the field existed (no "withheld") still replays.
    let old = log.replace(",\"withheld\":7", "");
    assert!(!old.contains("withheld"));
    let out = run_stdin(&["replay", "-"], &old);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run_stdin(&["replay", "-"], &log);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn a_log_from_before_the_last_discard_rule_is_refused_naming_the_rule() {
    // Recorded under rules revision 1: at line 292 a seat chows the discard made after the live
    // wall's last tile was drawn, which revision 2 allows only as a win.
    let path = format!(
        "{}/../majiang/tests/data/logs/hongkong-greedy.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = run(&["replay", &path]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("line 292: this log was recorded under rules revision 1")
            && stderr.contains("last-discard rule")
            && stderr.contains("may be claimed only to win"),
        "{stderr}"
    );
    // A log written now records the revision it was played under, and replays.
    let log = selfplay("hongkong", "2", &["-o", "missed_win=true"], "hk2.jsonl");
    let header: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(header["rules_revision"], 2);
    assert_eq!(header["options"]["missed_win"], true);
    let out = run(&["replay", "-q", temp("hk2.jsonl").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

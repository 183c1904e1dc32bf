//! A quiet pipe: when the reader of `majiang`'s output goes away (`majiang … | head -1`), every
//! subcommand exits with status 0 and says nothing on standard error.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_majiang");

/// How much of the output the reader takes before it closes the pipe.
#[derive(Clone, Copy)]
enum Reader {
    /// Reads one line, then closes.
    OneLine,
    /// Closes at once, before the program has written anything.
    Nothing,
}

/// Runs `majiang ARGS` with `stdin`, reads as `reader` says, closes its output; the exit code
/// and standard error.
fn close_early(args: &[&str], stdin: String, reader: Reader) -> (Option<i32>, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the majiang binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    // The program may stop reading when its output closes: a failed write here is expected.
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(stdin.as_bytes());
    });
    let stdout = child.stdout.take().expect("stdout is piped");
    if let Reader::OneLine = reader {
        let mut first = String::new();
        BufReader::new(stdout)
            .read_line(&mut first)
            .expect("reads a line");
        assert!(!first.is_empty(), "{args:?} printed nothing");
    } else {
        drop(stdout);
    }
    let out = child.wait_with_output().expect("the program ends");
    feeder.join().expect("the feeder thread ends");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn assert_quiet(args: &[&str], stdin: String, reader: Reader) {
    let (code, err) = close_early(args, stdin, reader);
    assert_eq!(code, Some(0), "{args:?}: stderr {err}");
    assert!(err.is_empty(), "{args:?}: stderr {err}");
}

/// Many lines of hands: far more output than a pipe holds.
fn many_hands() -> String {
    "123m456p789s11122z\n13m456p789s11z5555z\n".repeat(10_000)
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("majiang-pipe-{}-{name}", std::process::id()))
}

#[test]
fn analyze_exits_quietly() {
    for reader in [Reader::Nothing, Reader::OneLine] {
        assert_quiet(&["analyze", "123m456p789s11122z"], String::new(), reader);
        assert_quiet(
            &["analyze", "123m456p789s11122z", "--json"],
            String::new(),
            reader,
        );
    }
    assert_quiet(&["analyze", "--batch"], many_hands(), Reader::OneLine);
    assert_quiet(&["analyze", "--batch"], many_hands(), Reader::Nothing);
}

#[test]
fn score_exits_quietly() {
    let request = r#"{"rules": "hongkong", "concealed": "123m456p789s11z55z", "melds": [],
        "winning_tile": "5z", "win": "self_draw", "seat": "east", "dealer": "east",
        "prevailing_wind": "east"}"#;
    assert_quiet(&["score", "--json"], request.into(), Reader::Nothing);
    let line = request.replace('\n', " ") + "\n";
    assert_quiet(&["score", "--json"], line.repeat(20_000), Reader::OneLine);
    assert_quiet(
        &[
            "score",
            "--rules",
            "hongkong",
            "123m456p789s11z55z 5z",
            "--self-drawn",
        ],
        String::new(),
        Reader::OneLine,
    );
}

#[test]
fn selfplay_and_replay_exit_quietly() {
    let args = [
        "selfplay", "--rules", "hongkong", "--seed", "1", "--log", "-",
    ];
    assert_quiet(&args, String::new(), Reader::OneLine);
    let log = temp("log.jsonl");
    let path = log.to_str().expect("a UTF-8 temp path");
    let status = Command::new(BIN)
        .args([
            "selfplay", "--rules", "hongkong", "--seed", "1", "--log", path,
        ])
        .stdout(Stdio::null())
        .status()
        .expect("selfplay runs");
    assert!(status.success());
    assert_quiet(&["replay", path], String::new(), Reader::OneLine);
    assert_quiet(&["replay", path], String::new(), Reader::Nothing);
    let _ = std::fs::remove_file(log);
}

#[test]
fn sim_exits_quietly() {
    let args = [
        "sim",
        "--rules",
        "hongkong",
        "--games",
        "2",
        "--threads",
        "1",
    ];
    assert_quiet(&args, String::new(), Reader::Nothing);
}

#[test]
fn a_real_failure_still_reports() {
    // The quiet exit is only for a closed output: bad input still says why and exits 2.
    let (code, err) = close_early(&["analyze", "xyz"], String::new(), Reader::Nothing);
    assert_eq!(code, Some(2));
    assert!(err.contains("majiang:"), "{err}");
}

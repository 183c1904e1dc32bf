//! Bots that are not ours (`--bots cmd:…`), driven as a user would: the real binary runs the
//! example Python bot (examples/bots/simple_bot.py) and misbehaving ones
//! (tests/bots/misbehaving_bot.py), and the match goes on whatever they do.

use majiang::table::log::{LogRecord, MatchLog};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn majiang(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(args)
        .output()
        .expect("run majiang");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn repo_file(path: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path);
    p.canonicalize()
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .to_string_lossy()
        .into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("majiang-extbots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Each chair's actions in a log, as "HAND ACTION" lines.
fn actions_of(log: &MatchLog, chair: u8) -> Vec<String> {
    log.records
        .iter()
        .filter_map(|r| match r {
            LogRecord::Action {
                hand,
                player,
                action,
            } if player.0 == chair => Some(format!("{hand} {action}")),
            _ => None,
        })
        .collect()
}

#[test]
fn the_example_bot_plays_a_seat_and_its_actions_are_the_logged_ones() {
    let trace = temp("trace.txt");
    let log_path = temp("simple.jsonl");
    let bot = format!(
        "cmd:python3 {} --trace {}",
        repo_file("examples/bots/simple_bot.py"),
        trace.display()
    );
    let bots = format!("efficient,{bot},efficient,efficient");
    let (code, out, err) = majiang(&[
        "selfplay",
        "--rules",
        "hongkong",
        "--seed",
        "11",
        "--hands",
        "3",
        "--bots",
        &bots,
        "--log",
        log_path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("3 hands"), "{out}");
    let text = std::fs::read_to_string(&log_path).unwrap();
    let log = MatchLog::parse(&text).unwrap();
    assert!(majiang::table::replay(&text).unwrap().complete);
    let trace = std::fs::read_to_string(&trace).unwrap();
    let mut lines = trace.lines();
    let seat: u8 = lines
        .next()
        .and_then(|l| l.strip_prefix("seat "))
        .and_then(|s| s.parse().ok())
        .expect("the trace starts with the seat");
    let chosen: Vec<String> = lines.map(str::to_string).collect();
    let logged = actions_of(&log, seat);
    assert!(chosen.len() > 10, "{chosen:?}");
    assert_eq!(chosen, logged);
    assert!(
        err.contains(&format!(
            "{} decisions answered, 0 played by efficient after 0 dismissal(s)",
            chosen.len()
        )),
        "{err}"
    );
}

#[test]
fn sim_runs_the_example_bot_for_whole_matches() {
    let path = temp("sim.json");
    let bots = format!(
        "efficient,cmd:python3 {},efficient,efficient",
        repo_file("examples/bots/simple_bot.py")
    );
    let (code, out, err) = majiang(&[
        "sim",
        "--rules",
        "hangzhou",
        "--matches",
        "2",
        "--hands",
        "2",
        "--threads",
        "2",
        "--bots",
        &bots,
        "--json",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(report["hands"], 4, "{report}");
    let ext = &report["external_bots"][0];
    assert_eq!(ext["position"], 1);
    assert!(ext["bot"].as_str().unwrap().starts_with("cmd:python3 "));
    assert!(ext["decisions"].as_u64().unwrap() > 10, "{ext}");
    assert_eq!(ext["fallback_decisions"], 0, "{ext}");
    assert_eq!(ext["dismissals"], Value::Array(vec![]));
    // The external seat played its share of hands.
    assert_eq!(report["per_seat"][1]["hands"], 4, "{report}");
    assert!(out.contains("decisions answered"), "{out}");
}

#[test]
fn sim_runs_the_example_bot_in_independent_duplicate_hands() {
    let path = temp("duplicate.json");
    let bots = format!(
        "cmd:python3 {},efficient,efficient,efficient",
        repo_file("examples/bots/simple_bot.py")
    );
    let (code, out, err) = majiang(&[
        "sim",
        "--rules",
        "yangzhou",
        "--games",
        "2",
        "--duplicate",
        "--bots",
        &bots,
        "--json",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    // Two deals, each played once per rotation: the external bot sat in every chair.
    assert_eq!(report["hands"], 8, "{report}");
    assert_eq!(report["per_seat"][0]["hands"], 8, "{report}");
    let ext = &report["external_bots"][0];
    assert!(ext["decisions"].as_u64().unwrap() > 20, "{ext}");
    assert_eq!(ext["fallback_decisions"], 0, "{ext}");
}

/// Plays a Hong Kong match of 3 hands with the misbehaving bot in a seat; returns the log's
/// text, the chair it sat in and the report on standard error.
fn misbehaving_match(mode: &str, after: &str) -> (String, u8, String) {
    let log_path = temp(&format!("{mode}-{after}.jsonl"));
    let bots = format!(
        "cmd:python3 {} {mode} {after},efficient,efficient,efficient",
        repo_file("crates/majiang-cli/tests/bots/misbehaving_bot.py")
    );
    let (code, out, err) = majiang(&[
        "selfplay",
        "--rules",
        "hongkong",
        "--seed",
        "5",
        "--hands",
        "3",
        "--bot-time-ms",
        "400",
        "--bots",
        &bots,
        "--log",
        log_path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{mode}: {out}\n{err}");
    assert!(out.contains("3 hands"), "{mode}: {out}");
    // The first entrant's chair.
    let chair = out
        .split("player 0 in chair ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .expect("the seats line");
    (std::fs::read_to_string(&log_path).unwrap(), chair, err)
}

fn check_fallback(mode: &str, reason: &str) {
    let (text, chair, err) = misbehaving_match(mode, "2");
    let report = majiang::table::replay(&text).unwrap();
    assert!(report.complete, "{mode}");
    assert_eq!(report.hands.len(), 3, "{mode}");
    let log = MatchLog::parse(&text).unwrap();
    let played = actions_of(&log, chair);
    assert!(
        played.len() > 3,
        "{mode}: the seat kept playing: {played:?}"
    );
    assert!(
        err.contains("2 decisions answered"),
        "{mode}: two answers before it misbehaved: {err}"
    );
    assert!(
        err.contains("after 1 dismissal(s)"),
        "{mode}: one dismissal: {err}"
    );
    assert!(err.contains(reason), "{mode}: {reason:?} in {err}");
    assert!(err.contains("efficient plays its seat on"), "{mode}: {err}");
    assert!(
        err.contains("Bot 0 (cmd:python3 misbehaving_bot.py "),
        "{mode}: one name: {err}"
    );
}

#[test]
fn a_bot_that_crashes_is_replaced_by_efficient() {
    check_fallback("crash", "the bot stopped");
}

#[test]
fn a_bot_that_is_late_is_replaced_by_efficient() {
    let start = std::time::Instant::now();
    check_fallback("sleep", "no answer within 400 ms");
    // The sleeper was not waited for (it sleeps 30 s).
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}

#[test]
fn a_bot_that_answers_nonsense_is_replaced_by_efficient() {
    check_fallback("nonsense", "not a protocol message");
}

#[test]
fn a_bot_that_answers_an_illegal_action_is_replaced_by_efficient() {
    check_fallback("illegal", "illegal answer: no action has id 999");
}

#[test]
fn a_bot_that_closes_its_output_is_replaced_by_efficient() {
    check_fallback("silent-close", "it closed its output");
}

#[test]
fn a_bot_that_fails_the_handshake_never_plays() {
    let (text, chair, err) = misbehaving_match("nonsense", "hello");
    let log = MatchLog::parse(&text).unwrap();
    assert!(!actions_of(&log, chair).is_empty());
    assert!(err.contains("0 decisions answered"), "{err}");
    assert!(err.contains("hand 1: not a protocol message"), "{err}");
}

#[test]
fn a_command_that_does_not_exist_is_a_usage_error() {
    let (code, _, err) = majiang(&[
        "selfplay",
        "--rules",
        "hongkong",
        "--bots",
        "cmd:/nonexistent/bot --x",
        "--log",
        temp("none.jsonl").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot start /nonexistent/bot --x"), "{err}");
    let (code, _, err) = majiang(&[
        "sim",
        "--rules",
        "hongkong",
        "--bots",
        "efficient,cmd:bot 'unclosed,efficient,efficient",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unbalanced quotes"), "{err}");
}

#[test]
fn the_help_documents_the_command_syntax() {
    for cmd in ["sim", "selfplay", "play"] {
        let (code, out, _) = majiang(&[cmd, "--help"]);
        assert_eq!(code, 0);
        assert!(out.contains("cmd:COMMAND"), "{cmd}: {out}");
        assert!(out.contains("--bot-time-ms"), "{cmd}: {out}");
        assert!(out.contains("cmd:bot --weights 'a,b'"), "{cmd}: {out}");
    }
}

#[test]
fn the_server_seats_an_external_bot_the_administrator_allowed() {
    use majiang_testkit::net::{free_port, http};
    use std::time::{Duration, Instant};
    let dir = temp("serve");
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("trace.txt");
    let addr: std::net::SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let allowed = format!(
        "simple=python3 {} --trace {}",
        repo_file("examples/bots/simple_bot.py"),
        trace.display()
    );
    let mut server = Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(["serve", "--addr", &addr.to_string(), "--db"])
        .arg(dir.join("db.sqlite"))
        .args(["--external-bot", &allowed])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while http(addr, "GET", "/healthz", "").0 != 200 {
        assert!(started.elapsed() < Duration::from_secs(30), "no server");
        std::thread::sleep(Duration::from_millis(50));
    }
    let (status, kinds) = http(addr, "GET", "/api/bots", "");
    assert_eq!(status, 200);
    let kinds: Value = serde_json::from_str(&kinds).unwrap();
    assert_eq!(kinds["external"], serde_json::json!(["ext:simple"]));
    assert_eq!(
        kinds["levels"],
        serde_json::json!(["easy", "normal", "hard"])
    );
    let room = |kind: &str| {
        serde_json::json!({"rules": "hongkong", "hands": 1, "seats": [
            {"bot": true, "bot_kind": kind}, {"bot": true}, {"bot": true}, {"bot": true}
        ]})
        .to_string()
    };
    let (status, body) = http(addr, "POST", "/api/rooms", &room("ext:other"));
    assert_eq!(status, 400, "{body}");
    assert!(
        body.contains("ext:simple"),
        "the allowed bots are named: {body}"
    );
    let (status, body) = http(addr, "POST", "/api/rooms", &room("ext:simple"));
    assert_eq!(status, 201, "{body}");
    let id = serde_json::from_str::<Value>(&body).unwrap()["room"]
        .as_str()
        .unwrap()
        .to_string();
    let log = loop {
        let (_, log) = http(addr, "GET", &format!("/api/rooms/{id}/log.jsonl"), "");
        if log.contains(r#""kind":"end""#) {
            break log;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the match did not finish"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let _ = server.kill();
    let _ = server.wait();
    let log = MatchLog::parse(&log).unwrap();
    let trace = std::fs::read_to_string(&trace).unwrap();
    let mut lines = trace.lines();
    let seat: u8 = lines
        .next()
        .and_then(|l| l.strip_prefix("seat "))
        .and_then(|s| s.parse().ok())
        .expect("the trace starts with the seat");
    let chosen: Vec<String> = lines.map(str::to_string).collect();
    assert!(chosen.len() > 5, "{chosen:?}");
    assert_eq!(chosen, actions_of(&log, seat));
}

#[test]
fn the_server_logs_an_outside_bots_dismissal_with_its_one_name() {
    use majiang_testkit::net::{free_port, http};
    use std::time::{Duration, Instant};
    let dir = temp("serve-dismissal");
    std::fs::create_dir_all(&dir).unwrap();
    // Ready, then nonsense for every decision.
    let script = dir.join("garbage.py");
    std::fs::write(
        &script,
        "import sys\nfor line in sys.stdin:\n    \
         print('{\"type\":\"ready\",\"protocol\":1}' if '\"hello\"' in line else \
         ('nonsense' if '\"decide\"' in line else ''), flush=True)\n",
    )
    .unwrap();
    let log = dir.join("serve.log");
    let addr: std::net::SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(["serve", "--addr", &addr.to_string(), "--db"])
        .arg(dir.join("db.sqlite"))
        .arg("--external-bot")
        .arg(format!("garbage=python3 {}", script.display()))
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while http(addr, "GET", "/healthz", "").0 != 200 {
        assert!(started.elapsed() < Duration::from_secs(30), "no server");
        std::thread::sleep(Duration::from_millis(50));
    }
    let room = serde_json::json!({"rules": "hongkong", "hands": 1, "seats": [
        {"bot": true, "bot_kind": "ext:garbage"}, {"bot": true}, {"bot": true}, {"bot": true}
    ]});
    let (status, body) = http(addr, "POST", "/api/rooms", &room.to_string());
    assert_eq!(status, 201, "{body}");
    let id = serde_json::from_str::<Value>(&body).unwrap()["room"]
        .as_str()
        .unwrap()
        .to_string();
    let text = loop {
        let text = std::fs::read_to_string(&log).unwrap();
        if text.contains("dismissed") {
            break text;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no dismissal logged: {text}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let _ = server.kill();
    let _ = server.wait();
    let line = text.lines().find(|l| l.contains("dismissed")).unwrap();
    assert!(line.contains("WARN"), "{line}");
    assert!(line.contains(&id), "the room is named: {line}");
    assert!(
        line.contains("Bot 0 (ext:garbage) was dismissed in hand 1"),
        "the bot's one name and the hand: {line}"
    );
    assert!(line.contains("\"nonsense\""), "why: {line}");
}

#[test]
fn sims_table_keeps_its_columns_with_a_long_cmd_name() {
    let bots = format!(
        "efficient,cmd:python3 {},efficient,efficient",
        repo_file("examples/bots/simple_bot.py")
    );
    let (code, out, err) = majiang(&[
        "sim",
        "--rules",
        "hongkong",
        "--games",
        "2",
        "--threads",
        "1",
        "--bots",
        &bots,
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let header = out.lines().find(|l| l.starts_with("bot ")).unwrap();
    // Every figure ends under the end of its column's heading, the long name's row too.
    let ends: Vec<usize> = ["hands", "wins", "chips/hand"]
        .iter()
        .map(|h| header.find(h).unwrap() + h.len())
        .collect();
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.chars().nth(1) == Some(':'))
        .collect();
    assert_eq!(rows.len(), 4, "{out}");
    assert!(rows[1].contains("cmd:python3"), "{out}");
    for row in rows {
        for &e in &ends {
            let c = row.chars().nth(e - 1);
            assert!(
                c.is_some_and(|c| c.is_ascii_digit()),
                "column ending at {e}:\n{out}"
            );
            assert_eq!(
                row.chars().nth(e),
                Some(' '),
                "column ending at {e}:\n{out}"
            );
        }
    }
}

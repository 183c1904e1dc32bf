//! `majiang serve --claim-timeout-ms` and `--turn-timeout-ms` (MAJIANG_CLAIM_TIMEOUT_MS,
//! MAJIANG_TURN_TIMEOUT_MS): the timers of a server's rooms of people whose creator sets none
//! (issue 48: every discard of such a room waits the claim timer, so an operator chooses it),
//! each bounded as a room's own.

use crate::common::serve::start_serve;
use majiang_server::protocol::ServerMsg;
use majiang_testkit::client::Client;
use majiang_testkit::net::{free_port, http};
use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A decision shown to a person: its countdown and its claim countdown (ms left), and the
/// first legal action.
fn decision(m: &ServerMsg) -> Option<(Option<u64>, Option<u64>, majiang::table::Action)> {
    match m {
        ServerMsg::State {
            observation: Some(obs),
            deadline_ms,
            claim_deadline_ms,
            ..
        } => obs
            .legal_actions
            .first()
            .map(|&a| (*deadline_ms, *claim_deadline_ms, a)),
        _ => None,
    }
}

/// A room of Ann and Bo (and two bots) created over HTTP with no timers: its settings carry the
/// server's defaults (in `welcome`), they are the countdowns Ann and Bo are shown, and the room
/// keeps them when the server restarts with others.
#[test]
fn a_servers_default_timers_are_those_of_its_rooms_of_people() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("m.sqlite");
    let (mut serve, addr) = start_serve(
        db.to_str().unwrap(),
        &["--claim-timeout-ms", "2500", "--turn-timeout-ms", "20000"],
    );
    let (status, body) = http(
        addr,
        "POST",
        "/api/rooms",
        r#"{"rules":"hongkong","hands":1,
            "seats":[{"name":"Ann"},{"name":"Bo"},{"bot":true},{"bot":true}]}"#,
    );
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let room = created["room"].as_str().unwrap();
    let token = |seat: usize| {
        created["seats"][seat]["token"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut ann = Client::connect(addr, room, Some(&token(0))).await;
        let welcome = ann.until(|m| matches!(m, ServerMsg::Welcome { .. })).await;
        let config = &ann.last_json()["config"];
        assert_eq!(config["default_claim_timeout_ms"], 2500, "{config}");
        assert_eq!(config["default_turn_timeout_ms"], 20000, "{config}");
        assert!(config["claim_timeout_ms"].is_null(), "{config}");
        let ServerMsg::Welcome { config, .. } = welcome else {
            unreachable!()
        };
        assert_eq!(
            (config.claim_timeout(), config.turn_timeout()),
            (Some(2500), Some(20000))
        );
        // Bo comes: everyone is there, the match starts. Each plays their first legal action
        // when asked, until each was shown a decision with its countdown.
        let mut bo = Client::connect(addr, room, Some(&token(1))).await;
        let mut shown: [Vec<(Option<u64>, Option<u64>)>; 2] = [Vec::new(), Vec::new()];
        while shown.iter().any(Vec::is_empty) {
            let (who, m) = tokio::select! {
                m = ann.recv() => (0, m),
                m = bo.recv() => (1, m),
            };
            let m = m.expect("the connection stays open");
            assert!(
                !matches!(m, ServerMsg::HandResult { .. }),
                "the hand ended before both decided: {shown:?}"
            );
            if let Some((deadline, claim, action)) = decision(&m) {
                shown[who].push((deadline, claim));
                let c = if who == 0 { &mut ann } else { &mut bo };
                c.act(action).await;
            }
        }
        for (deadline, claim) in shown.iter().flatten() {
            match (deadline, claim) {
                (Some(d), Some(c)) => {
                    assert_eq!(d, c);
                    assert!((1..=2500).contains(c), "a claim's countdown {c}");
                }
                (Some(d), None) => assert!((1..=20000).contains(d), "a turn's countdown {d}"),
                other => panic!("a decision without a countdown: {other:?} in {shown:?}"),
            }
        }
    });
    serve.kill();
    let (_serve, addr) = start_serve(db.to_str().unwrap(), &["--claim-timeout-ms", "0"]);
    rt.block_on(async {
        let mut ann = Client::connect(addr, room, Some(&token(0))).await;
        let ServerMsg::Welcome { config, .. } =
            ann.until(|m| matches!(m, ServerMsg::Welcome { .. })).await
        else {
            unreachable!()
        };
        assert_eq!(
            (config.claim_timeout(), config.turn_timeout()),
            (Some(2500), Some(20000)),
            "the room's own defaults, as it was created"
        );
    });
}

/// `majiang serve` with `args` (and `env`): its exit status and what it said, once it exits
/// (within 20 s; a server that starts instead is killed and the test fails).
fn serve_refused(args: &[&str], env: &[(&str, &str)]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(["serve", "--addr", &format!("127.0.0.1:{}", free_port())])
        .args(["--db", dir.path().join("m.sqlite").to_str().unwrap()])
        .args(args)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("majiang serve runs");
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("majiang serve {args:?} {env:?} started instead of refusing");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success(), "{args:?} {env:?}");
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn a_default_timer_out_of_a_rooms_bounds_is_refused_at_start() {
    let said = serve_refused(&["--claim-timeout-ms", "100"], &[]);
    assert!(
        said.contains("--claim-timeout-ms: 100 is not 0 (off) or 500 to 600000"),
        "{said}"
    );
    let said = serve_refused(&[], &[("MAJIANG_TURN_TIMEOUT_MS", "700000")]);
    assert!(
        said.contains("--turn-timeout-ms: 700000 is not 0 (off) or 500 to 600000"),
        "{said}"
    );
}

//! Outside bots (`ext:NAME` seats) as real processes in a running server: a bot that thinks
//! for seconds holds no runtime thread (another room's person is answered meanwhile, on a
//! runtime of ONE thread), and a bot dismissed for nonsense is in the room's summary and the
//! server's metrics.

use crate::common::{http, listen, person_ack_times};
use majiang_external::spec::Command;
use majiang_server::protocol::RoomStatus;
use majiang_server::{App, ExternalBots, Limits};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

/// A bot in Python that says ready, then answers every decision with its first legal action
/// after `think` seconds, or with `nonsense` when `think` is negative; it notes each decision
/// it is asked in `NAME.asked`, a line each.
fn bot_script(dir: &Path, name: &str, think: f64) -> Command {
    let path = dir.join(format!("{name}.py"));
    let asked = dir.join(format!("{name}.asked"));
    let script = format!(
        r#"
import json, sys, time
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({{"type": "ready", "protocol": 1, "name": "{name}"}}), flush=True)
    elif m["type"] == "decide":
        open("{asked}", "a").write("asked\n")
        if {think} < 0:
            print("nonsense", flush=True)
        else:
            time.sleep({think})
            print(json.dumps({{"type": "action", "id": 0}}), flush=True)
"#,
        asked = asked.display()
    );
    std::fs::write(&path, script).unwrap();
    Command::parse(&format!("python3 {}", path.display())).unwrap()
}

async fn start(bots: ExternalBots) -> (App, SocketAddr) {
    let store = std::sync::Arc::new(majiang_server::SqliteStore::in_memory().unwrap());
    let app = App::with_external_bots(store, None, Limits::default(), bots)
        .await
        .unwrap();
    let addr = listen(&app).await;
    (app, addr)
}

/// A bots-only room of one hand, seat 0 played by `kind`.
async fn bots_room(app: &App, kind: &str) -> String {
    let seats =
        json!([{"bot": true, "bot_kind": kind}, {"bot": true}, {"bot": true}, {"bot": true}]);
    app.create_room(crate::common::config(
        json!({"rules": "hongkong", "hands": 1, "autostart": true, "seats": seats}),
    ))
    .await
    .unwrap()
    .room
}

#[tokio::test(flavor = "current_thread")]
async fn a_thinking_outside_bot_holds_no_runtime_thread() {
    let dir = tempfile::tempdir().unwrap();
    let mut bots = ExternalBots::none();
    bots.allow("slow", bot_script(dir.path(), "slow", 2.0), 10_000)
        .unwrap();
    let (app, addr) = start(bots).await;
    let slow = bots_room(&app, "ext:slow").await;
    // The bot's room is under way, its bot thinking, before the person's room starts.
    let deadline = Instant::now() + Duration::from_secs(60);
    while app.room(&slow).unwrap().summary().status != RoomStatus::Playing {
        assert!(Instant::now() < deadline, "the bot's room did not start");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Act as the person for 6 s (three of the bot's thoughts), timing each `ack`.
    let asked =
        || std::fs::read_to_string(dir.path().join("slow.asked")).map_or(0, |s| s.lines().count());
    let asked_before = asked();
    let acks = person_ack_times(&app, addr, 8, usize::MAX, Duration::from_secs(6)).await;
    let slow_room = app.room(&slow).unwrap().summary();
    let longest = acks.iter().max().copied().unwrap_or_default();
    let thoughts = asked() - asked_before;
    println!(
        "{} acks while the bot was asked {thoughts} decisions of 2 s, the longest {longest:?}",
        acks.len(),
    );
    assert!(thoughts >= 2, "the bot thought meanwhile: {thoughts}");
    assert!(acks.len() >= 10, "{} acks in 6 s", acks.len());
    // Blocking on the bot would hold the only thread for its 2 s each time it is asked.
    assert!(
        longest < Duration::from_millis(1500),
        "an ack took {longest:?}"
    );
    assert_eq!(slow_room.status, RoomStatus::Playing, "the bot still plays");
    assert!(
        slow_room.dismissals.is_empty(),
        "{:?}",
        slow_room.dismissals
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dismissed_outside_bot_is_in_the_rooms_summary_and_the_metrics() {
    let dir = tempfile::tempdir().unwrap();
    let mut bots = ExternalBots::none();
    bots.allow("garbage", bot_script(dir.path(), "garbage", -1.0), 5_000)
        .unwrap();
    let (app, addr) = start(bots).await;
    let id = bots_room(&app, "ext:garbage").await;
    let deadline = Instant::now() + Duration::from_secs(60);
    let summary: Value = loop {
        let (status, _, body) = http(addr, "GET", &format!("/api/rooms/{id}"), "").await;
        assert_eq!(status, 200, "{body}");
        let summary: Value = serde_json::from_str(&body).unwrap();
        if summary["status"] == "finished" {
            break summary;
        }
        assert!(
            Instant::now() < deadline,
            "the match did not finish: {body}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let dismissals = summary["dismissals"].as_array().unwrap();
    assert_eq!(dismissals.len(), 1, "{summary}");
    let d = &dismissals[0];
    assert_eq!(d["seat"], 0);
    assert_eq!(d["bot"], "Bot 0 (ext:garbage)");
    assert_eq!(d["hand"], 1);
    assert_eq!(d["reason"], "malformed");
    assert!(
        d["message"].as_str().unwrap().contains("\"nonsense\""),
        "{d}"
    );
    let (_, _, metrics) = http(addr, "GET", "/metrics", "").await;
    let line = metrics
        .lines()
        .find(|l| l.starts_with("majiang_outside_bots_dismissed_total{reason=\"malformed\"}"))
        .unwrap_or_else(|| panic!("no counter: {metrics}"));
    let n: f64 = line.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(n >= 1.0, "{line}");
}

//! A stranger asking for every finished room, again and again: `GET /api/rooms/ID` answers a
//! finished room from the store (its summary kept in a cache bounded in bytes), so no room is
//! loaded into memory and the process's RSS comes back to its warm level. In a process of its
//! own, like the soak: RSS is the whole process's.

use crate::common::{config, http};
use majiang_server::{App, Limits, SqliteStore};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

const ROOMS: usize = 400;
const ROUNDS: usize = 5;

/// The resident set of this process in KiB, from /proc.
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Asks for every room's summary, 8 at a time; checks each is the finished room.
async fn round(addr: SocketAddr, ids: &[String]) {
    for chunk in ids.chunks(8) {
        let asks = chunk.iter().map(|id| async move {
            let (status, _, body) = http(addr, "GET", &format!("/api/rooms/{id}"), "").await;
            assert_eq!(status, 200, "{body}");
            let v: Value = serde_json::from_str(&body).unwrap();
            assert_eq!(v["status"], "finished");
            assert_eq!(v["standings"].as_array().unwrap().len(), 4);
        });
        futures_util::future::join_all(asks).await;
    }
}

#[test]
fn a_flood_of_finished_room_summaries_loads_no_room_and_memory_comes_back() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "finished_flood::flood_in_a_process_of_its_own"])
        .args(["--ignored", "--nocapture", "--test-threads", "1"])
        .output()
        .expect("the test binary runs again");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    eprint!("{stderr}");
    assert!(
        out.status.success(),
        "the flood failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("1 passed"), "{stdout}");
}

/// The body of the test above, which runs it alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "run by a_flood_of_finished_room_summaries_loads_no_room_and_memory_comes_back in a process of its own"]
async fn flood_in_a_process_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SqliteStore::open(&dir.path().join("flood.sqlite")).unwrap());
    let limits = Limits {
        max_rooms: 40,
        finished_linger: Duration::from_millis(50),
        // Smaller than the rooms' summaries together: the flood replays from the store
        // (the worst case) as well as hitting the cache.
        finished_cache_bytes: 64 << 10,
        ..Limits::default()
    };
    let app = App::with_limits(store, None, limits).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let a = app.clone();
    tokio::spawn(async move { majiang_server::serve(listener, a, std::future::pending()).await });
    let mut ids = Vec::new();
    while ids.len() < ROOMS {
        match app
            .create_room(config(json!({
                "rules": "hongkong", "hands": 1,
                "seats": [{"bot": true}, {"bot": true}, {"bot": true}, {"bot": true}]
            })))
            .await
        {
            Ok(c) => ids.push(c.room),
            Err(majiang_server::AppError::Full(_)) => {
                tokio::time::sleep(Duration::from_millis(5)).await
            }
            Err(e) => panic!("{e}"),
        }
    }
    let until = Instant::now() + Duration::from_secs(120);
    while (app.open_rooms() > 0 || app.rooms_in_memory() > 0) && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(app.rooms_in_memory(), 0, "every finished room left memory");
    // Warm: two rounds (the allocator's and SQLite's own working sets settle).
    round(addr, &ids).await;
    round(addr, &ids).await;
    let warm = rss_kib();
    let mut most = warm;
    // Watches the rooms in memory while the flood runs (a room loaded to answer would stay
    // at least the finished linger).
    let watching = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let watcher = {
        let (app, watching) = (app.clone(), watching.clone());
        tokio::spawn(async move {
            let mut loaded = 0;
            while watching.load(std::sync::atomic::Ordering::Relaxed) {
                loaded = loaded.max(app.rooms_in_memory());
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            loaded
        })
    };
    for _ in 0..ROUNDS {
        round(addr, &ids).await;
        most = most.max(rss_kib());
    }
    watching.store(false, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(watcher.await.unwrap(), 0, "a summary loaded a room");
    let end = rss_kib();
    eprintln!(
        "finished-room flood: {ROOMS} finished rooms asked for {ROUNDS} times ({} requests): \
         RSS warm {warm} KiB, at most {most} KiB, at the end {end} KiB ({:+.1} %); rooms in \
         memory 0",
        ROOMS * ROUNDS,
        (end as f64 - warm as f64) * 100.0 / warm as f64
    );
    assert!(
        end as f64 <= warm as f64 * 1.10,
        "RSS {end} KiB after the flood, {warm} KiB warm"
    );
}

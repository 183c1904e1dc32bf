//! The release archive as an operator uses it: `scripts/release.sh` packs this build's
//! `majiang`, the archive is unpacked into an empty folder, and the unpacked binary is run
//! with the example configuration (environment variables only, no flags) against a
//! throw-away PostgreSQL: it serves the embedded UI, plays a match, reports health and
//! figures, and on SIGTERM exits cleanly having given up its leases. Skipped loudly when
//! PostgreSQL is not installed.

use majiang_testkit::net::http;
use majiang_testkit::pg as pg_cluster;

use serde_json::{Value, json};
use std::io::Read;
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The `KEY=VALUE` lines of an env file (comments and blank lines skipped).
fn env_file(path: &Path) -> Vec<(String, String)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (k, v) = l.split_once('=').expect("KEY=VALUE");
            (k.to_string(), v.to_string())
        })
        .collect()
}

#[test]
fn the_release_archive_runs_from_an_empty_folder_on_postgres() {
    let Some(cluster) = pg_cluster::PgCluster::start() else {
        return;
    };
    let db = cluster.database("release");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = tempfile::tempdir().unwrap();
    let packed = Command::new("bash")
        .arg(root.join("scripts/release.sh"))
        .args(["--fast", "--binary", env!("CARGO_BIN_EXE_majiang"), "--out"])
        .arg(out.path())
        .output()
        .unwrap();
    assert!(
        packed.status.success(),
        "release.sh failed: {}",
        String::from_utf8_lossy(&packed.stderr)
    );
    let stdout = String::from_utf8_lossy(&packed.stdout);
    let archive = stdout.lines().last().unwrap().trim().to_string();
    assert!(archive.ends_with(".tar.gz"), "{archive}");

    let empty = tempfile::tempdir().unwrap();
    let unpacked = Command::new("tar")
        .args(["-xzf", &archive, "-C"])
        .arg(empty.path())
        .status()
        .unwrap();
    assert!(unpacked.success());
    let dirs: Vec<_> = std::fs::read_dir(empty.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(dirs.len(), 1, "one top folder: {dirs:?}");
    let top = &dirs[0];
    for file in [
        "bin/majiang",
        "majiang.service",
        "majiang.env",
        "Caddyfile",
        "HOSTING.md",
    ] {
        assert!(top.join(file).exists(), "{file} missing from the archive");
    }
    let hosting = std::fs::read_to_string(top.join("HOSTING.md")).unwrap();
    for words in [
        "## Hosting",
        "## Limits",
        "reverse_proxy",
        "/healthz",
        "/metrics",
        "MAJIANG_DB",
    ] {
        assert!(hosting.contains(words), "HOSTING.md lacks {words:?}");
    }
    let unit = std::fs::read_to_string(top.join("majiang.service")).unwrap();
    assert!(
        unit.contains("ExecStart=/opt/majiang/bin/majiang serve"),
        "{unit}"
    );
    assert!(
        unit.contains("EnvironmentFile=/etc/majiang/majiang.env"),
        "{unit}"
    );

    // The example configuration, with this machine's address and database.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let mut env = env_file(&top.join("majiang.env"));
    assert!(env.iter().any(|(k, _)| k == "MAJIANG_ADDR"));
    env.retain(|(k, _)| k != "MAJIANG_ADDR" && k != "MAJIANG_DB");
    env.push(("MAJIANG_ADDR".into(), addr.to_string()));
    env.push(("MAJIANG_DB".into(), db.clone()));
    env.push(("MAJIANG_NODE_URL".into(), format!("http://{addr}")));
    let started = Instant::now();
    let mut server = Command::new(top.join("bin/majiang"))
        .arg("serve")
        .env_clear()
        .envs(env)
        .current_dir(empty.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    while http(addr, "GET", "/healthz", "").0 != 200 {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the unpacked server did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let up_in = started.elapsed();
    let (_, health) = http(addr, "GET", "/healthz", "");
    let health: Value = serde_json::from_str(&health).unwrap();
    assert_eq!(health["store"], "postgres");
    let (status, page) = http(addr, "GET", "/", "");
    assert_eq!(status, 200);
    assert!(page.contains("/js/main.js"), "the web UI is embedded");
    // A match of bots plays out.
    let bots = json!({"rules": "classic", "hands": 1,
        "seats": [{"bot": true}, {"bot": true}, {"bot": true}, {"bot": true}]});
    let (status, body) = http(addr, "POST", "/api/rooms", &bots.to_string());
    assert_eq!(status, 201, "{body}");
    // A waiting room holds a lease until the shutdown.
    let (status, body) = http(addr, "POST", "/api/rooms", "{}");
    assert_eq!(status, 201, "{body}");
    let waiting = serde_json::from_str::<Value>(&body).unwrap()["room"]
        .as_str()
        .unwrap()
        .to_string();
    while !http(addr, "GET", "/api/matches", "")
        .1
        .contains("standings")
    {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the match did not finish"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let (status, metrics) = http(addr, "GET", "/metrics", "");
    assert_eq!(status, 200);
    assert!(metrics.contains("majiang_actions_total"), "{metrics}");

    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let store = rt.block_on(majiang_server::store::open(&db)).unwrap();
    let lease = rt.block_on(store.lease(&waiting)).unwrap();
    assert!(lease.is_some_and(|l| l.live), "the waiting room is leased");

    // SIGTERM: a clean exit, the leases given up.
    let term = Instant::now();
    assert!(
        Command::new("kill")
            .args(["-TERM", &server.id().to_string()])
            .status()
            .unwrap()
            .success()
    );
    let status = server.wait().unwrap();
    let stopped_in = term.elapsed();
    assert!(status.success(), "exit after SIGTERM: {status}");
    let mut printed = String::new();
    server
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut printed)
        .unwrap();
    assert!(printed.contains("majiang: stopped"), "{printed}");
    assert_eq!(rt.block_on(store.lease(&waiting)).unwrap(), None);
    eprintln!("release: unpacked server up in {up_in:?}, stopped {stopped_in:?} after SIGTERM");
}

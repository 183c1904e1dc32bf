//! What `majiang serve` writes for an operator (issue 48, item 9): a start-up error never
//! prints the database password, and the logs carry no colour codes when stderr is not a
//! terminal (a journal, a file).

use majiang_testkit::net::{free_port, http};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A database nobody listens at, with a password: the start fails, and says so without it.
#[test]
fn a_start_up_error_does_not_print_the_database_password() {
    let port = free_port();
    for db in [
        format!("postgres://majiang:s3cret-pw@127.0.0.1:{port}/majiang"),
        format!("postgres://majiang@127.0.0.1:{port}/majiang?password=s3cret-pw"),
        // An address that does not parse is quoted back, masked too.
        "postgres://majiang:s3cret-pw@127.0.0.1:notaport/majiang".to_string(),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_majiang"))
            .args(["serve", "--addr", &format!("127.0.0.1:{}", free_port())])
            .args(["--db", &db])
            .output()
            .expect("majiang serve runs");
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.status.success(), "{db}: {said}");
        assert!(!said.contains("s3cret"), "{db}: {said}");
        assert!(
            said.contains("***"),
            "{db}: the address is still named: {said}"
        );
    }
}

/// Logs to a file (stderr not a terminal): plain text, no ANSI escape codes.
#[test]
fn logs_off_a_terminal_carry_no_colour_codes() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("serve.log");
    let addr: std::net::SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(["serve", "--addr", &addr.to_string()])
        .args(["--db", dir.path().join("m.sqlite").to_str().unwrap()])
        .args(["--waiting-idle-secs", "1"])
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("majiang serve starts");
    let deadline = Instant::now() + Duration::from_secs(20);
    while http(addr, "GET", "/healthz", "").0 != 200 {
        assert!(Instant::now() < deadline, "the server did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    // A room nobody joins: it expires within about a second, at INFO.
    let (status, _) = http(addr, "POST", "/api/rooms", r#"{"rules":"hongkong"}"#);
    assert_eq!(status, 201);
    let deadline = Instant::now() + Duration::from_secs(10);
    let text = loop {
        let text = std::fs::read_to_string(&log).unwrap();
        if text.contains("INFO") || Instant::now() > deadline {
            break text;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let _ = child.kill();
    let _ = child.wait();
    assert!(text.contains("INFO"), "no log line: {text:?}");
    assert!(
        !text.contains('\u{1b}'),
        "colour codes in a log file: {text:?}"
    );
}

/// PostgreSQL stopped for 6 s under four matches of bots in play: the failed writes and lease
/// rounds are logged a few times in all (one line of each kind every 5 s, saying how many it
/// stands for), not twice a second a room; the rooms go on after the return.
#[test]
fn an_outage_is_logged_a_few_lines_not_two_a_second_a_room() {
    let Some(cluster) = majiang_testkit::pg::PgCluster::start() else {
        return;
    };
    let db = cluster.database("quiet_outage");
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("serve.log");
    let addr: std::net::SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(["serve", "--addr", &addr.to_string(), "--db", &db])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("majiang serve starts");
    let deadline = Instant::now() + Duration::from_secs(20);
    while http(addr, "GET", "/healthz", "").0 != 200 {
        assert!(Instant::now() < deadline, "the server did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    let bots = r#"{"rules":"hongkong","bot_delay_ms":100,
        "seats":[{"bot":true},{"bot":true},{"bot":true},{"bot":true}]}"#;
    for _ in 0..4 {
        assert_eq!(http(addr, "POST", "/api/rooms", bots).0, 201);
    }
    std::thread::sleep(Duration::from_secs(1));
    cluster.stop();
    std::thread::sleep(Duration::from_secs(6));
    cluster.restart();
    std::thread::sleep(Duration::from_secs(2));
    let _ = child.kill();
    let _ = child.wait();
    let text = std::fs::read_to_string(&log).unwrap();
    let lines = |what: &str| text.lines().filter(|l| l.contains(what)).count();
    let (writes, rounds) = (lines("not stored"), lines("lease round failed"));
    eprintln!(
        "a 6 s outage with 4 rooms: {writes} lines of failed writes, {rounds} of failed lease rounds"
    );
    // About 2 a second a room and 5 rounds a second would be ~50 and ~30. The failed writes
    // are two kinds (the database away; the lease run out meanwhile), each at most one line
    // every 5 s.
    assert!(
        (1..=5).contains(&writes),
        "{writes} lines of failed writes:\n{text}"
    );
    assert!(
        (1..=3).contains(&rounds),
        "{rounds} lines of failed lease rounds:\n{text}"
    );
    assert!(
        text.contains("more like it"),
        "no count of the lines held back:\n{text}"
    );
}

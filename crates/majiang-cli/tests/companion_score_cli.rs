//! The server's `POST /api/score` (run by `majiang serve`) and `majiang score --json` answer
//! every hand-worked case of the library byte for byte alike, and refuse the same malformed
//! request with the same message (a 400 there, exit status 2 here).

use crate::common;

use common::{cases, score_json};
use serde_json::json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};

/// `majiang serve` on a free port over a fresh database; stopped (and its folder removed) on
/// drop.
struct Server {
    child: Child,
    addr: SocketAddr,
    dir: std::path::PathBuf,
}

impl Server {
    /// `tag` keeps the database folders of tests running side by side apart.
    fn start(tag: &str) -> Server {
        let dir =
            std::env::temp_dir().join(format!("majiang-companion-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_majiang"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(dir.join("db.sqlite"))
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // "majiang: serving on http://127.0.0.1:PORT/ (database ...)"
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .parse()
            .unwrap();
        Server { child, addr, dir }
    }

    /// `POST /api/score` with `body`: the status and the body.
    fn score(&self, body: &str) -> (u16, String) {
        let mut s = TcpStream::connect(self.addr).unwrap();
        write!(
            s,
            "POST /api/score HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        let status = out[9..12].parse().unwrap();
        (status, out.split_once("\r\n\r\n").unwrap().1.to_string())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn the_endpoint_prints_what_the_binary_prints_for_every_case() {
    let server = Server::start("cases");
    let mut compared = 0;
    for (file, section) in [
        ("hongkong_cases.json", None),
        ("hangzhou_cases.json", None),
        ("yangzhou_cases.json", None),
        ("classic_cases.json", None),
        ("hongkong_review.json", Some("cases")),
        ("hangzhou_review.json", Some("cases")),
        ("yangzhou_review.json", Some("cases")),
    ] {
        for case in cases::load(&cases::read_data(file), section) {
            let request = case["request"].to_string();
            let cli = score_json(&request);
            assert!(cli.status.success(), "{file} {}", case["name"]);
            let printed = String::from_utf8(cli.stdout).unwrap();
            let (status, body) = server.score(&request);
            assert_eq!(status, 200, "{file} {}", case["name"]);
            assert_eq!(
                format!("{body}\n"),
                printed,
                "{file} {}: the endpoint and the binary differ",
                case["name"]
            );
            compared += 1;
        }
    }
    assert!(compared >= 250, "only {compared} cases");
}

#[test]
fn a_malformed_request_is_refused_alike() {
    let server = Server::start("malformed");
    let request = json!({"rules": "hongkong", "concealed": "123m456p789s11z55z",
        "winning_tile": "5x", "win": "self_draw"})
    .to_string();
    let cli = score_json(&request);
    assert_eq!(cli.status.code(), Some(2));
    let (status, body) = server.score(&request);
    assert_eq!(status, 400);
    let body: serde_json::Value = serde_json::from_str(&body).unwrap();
    let message = body["error"].as_str().unwrap();
    assert!(message.starts_with("winning_tile: "), "{message}");
    assert!(
        String::from_utf8_lossy(&cli.stderr).contains(message),
        "the binary says {:?}",
        String::from_utf8_lossy(&cli.stderr)
    );
}

//! `majiang serve` processes for the fault tests (failover, split brain, a stopped database, a
//! restart): started as cluster nodes on a shared database, and killed when their guard drops,
//! so a failing test (a panic between start and the test's own kill) leaves no server behind —
//! not even one it had stopped with SIGSTOP (SIGKILL ends a stopped process too).

use majiang_testkit::net::{free_port, http};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `majiang serve` child process, killed and reaped when dropped.
pub struct Serve(pub Child);

impl Serve {
    /// The process id (for `kill -STOP` and the like).
    pub fn id(&self) -> u32 {
        self.0.id()
    }

    /// Kills the process (SIGKILL) and waits for it: the crash the fault tests simulate.
    pub fn kill(&mut self) {
        self.0.kill().expect("the server process can be killed");
        self.0.wait().expect("the killed server is reaped");
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        // Already gone when the test killed it: both calls then fail harmlessly.
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `majiang serve` as a node of the cluster on `db` with leases of `lease_ms`, once it answers
/// `/healthz` (within 20 s).
pub fn start_node(db: &str, lease_ms: u64) -> (Serve, SocketAddr) {
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}");
    let lease = lease_ms.to_string();
    start_serve_on(port, db, &["--node-url", &url, "--lease-ms", &lease])
}

/// `majiang serve` on `db` with only `args` beyond the address and database, once it answers
/// `/healthz` (within 20 s).
pub fn start_serve(db: &str, args: &[&str]) -> (Serve, SocketAddr) {
    start_serve_on(free_port(), db, args)
}

fn start_serve_on(port: u16, db: &str, args: &[&str]) -> (Serve, SocketAddr) {
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(["serve", "--addr", &addr.to_string(), "--db", db])
        .args(args)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("majiang serve starts");
    let node = Serve(child);
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(addr).is_err() || http(addr, "GET", "/healthz", "").0 != 200 {
        assert!(Instant::now() < deadline, "node {addr} did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    (node, addr)
}

/// Sends `sig` (as `kill` spells it: `-STOP`, `-CONT`, `-TERM`) to process `pid`.
pub fn signal(pid: u32, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &pid.to_string()])
        .status()
        .expect("kill runs")
        .success();
    assert!(ok, "kill {sig} {pid}");
}

/// Waits (at most 10 s) until every thread of process `pid` is stopped (`T` in
/// `/proc/PID/task/*/stat`): `kill -STOP` returns once the signal is sent, and on a busy machine
/// a thread may run on a moment longer — long enough to read a message the test means to leave
/// waiting in its socket.
pub fn wait_stopped(pid: u32) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).expect("the process exists");
        let all_stopped = tasks.flatten().all(|t| {
            std::fs::read_to_string(t.path().join("stat")).is_ok_and(|stat| {
                // "TID (name) STATE ...": the state follows the name's closing parenthesis.
                stat.rsplit_once(") ")
                    .is_some_and(|(_, rest)| rest.starts_with('T') || rest.starts_with('t'))
            })
        });
        if all_stopped {
            return;
        }
        assert!(Instant::now() < deadline, "process {pid} did not stop");
        std::thread::sleep(Duration::from_millis(5));
    }
}

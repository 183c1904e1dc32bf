//! A throw-away PostgreSQL cluster for tests: `initdb` into a temporary folder, `postgres` on a
//! free port of 127.0.0.1, `pg_ctl stop` when dropped. PostgreSQL refuses to run as root, so as
//! root the binaries run as the `postgres` user (`runuser`), the folder given to it. When the
//! binaries or that user are missing, [`PgCluster::start`] says so loudly and returns `None`:
//! the test skips — or, under CI, fails ([`crate::require`]; `scripts/install-postgres.sh` installs
//! them).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A running cluster.
pub struct PgCluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
    as_postgres: bool,
}

/// Where the binaries may be: `$MAJIANG_PG_BIN`, then Debian's versioned folders, newest first.
fn find_bin() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("MAJIANG_PG_BIN") {
        return Some(PathBuf::from(dir));
    }
    let mut dirs: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|p| p.join("initdb").exists() && p.join("pg_ctl").exists())
        .collect();
    dirs.sort_by_key(|p| {
        p.parent()
            .and_then(|v| v.file_name())
            .and_then(|v| v.to_str())
            .and_then(|v| v.parse::<u32>().ok())
            .unwrap_or(0)
    });
    dirs.pop()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn skip(why: &str) -> Option<PgCluster> {
    crate::require(
        &format!("PostgreSQL ({why})"),
        "bash scripts/install-postgres.sh installs it",
    );
    None
}

impl PgCluster {
    /// Starts a cluster, or says why not and returns `None`.
    pub fn start() -> Option<PgCluster> {
        let Some(bin) = find_bin() else {
            return skip("no PostgreSQL binaries under /usr/lib/postgresql/*/bin");
        };
        let as_postgres = is_root();
        if as_postgres
            && !Command::new("id")
                .arg("postgres")
                .output()
                .is_ok_and(|o| o.status.success())
        {
            return skip("running as root and there is no `postgres` user to run PostgreSQL as");
        }
        let dir = match tempfile::Builder::new().prefix("majiang-pg-").tempdir() {
            Ok(d) => d,
            Err(e) => return skip(&format!("no temporary folder: {e}")),
        };
        if as_postgres {
            let chown = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(dir.path())
                .status();
            if !chown.is_ok_and(|s| s.success()) {
                return skip("cannot give the temporary folder to the postgres user");
            }
        }
        let port = free_port();
        let cluster = PgCluster {
            dir,
            bin,
            port,
            as_postgres,
        };
        let data = cluster.data();
        let init = cluster.run(
            "initdb",
            &[
                "-D",
                data.to_str()?,
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        if !init.as_ref().is_ok_and(|o| o.status.success()) {
            return skip(&format!("initdb failed: {}", describe(&init)));
        }
        if let Err(why) = cluster.run_postmaster() {
            return skip(&why);
        }
        Some(cluster)
    }

    /// `pg_ctl start` on the cluster's folder and port; the error says why it failed.
    fn run_postmaster(&self) -> Result<(), String> {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
            self.port,
            self.dir.path().display()
        );
        let log = self.dir.path().join("postgres.log");
        let data = self.data();
        let start = self.run(
            "pg_ctl",
            &[
                "-D",
                &data.to_string_lossy(),
                "-o",
                &options,
                "-l",
                &log.to_string_lossy(),
                "-w",
                "start",
            ],
        );
        if !start.as_ref().is_ok_and(|o| o.status.success()) {
            let log = std::fs::read_to_string(&log).unwrap_or_default();
            return Err(format!("pg_ctl start failed: {}\n{log}", describe(&start)));
        }
        Ok(())
    }

    /// Stops the database for real (`pg_ctl stop -m fast`: every connection is cut); the data
    /// stays, and [`PgCluster::restart`] brings it back on the same port.
    pub fn stop(&self) {
        let data = self.data();
        let stopped = self.run(
            "pg_ctl",
            &["-D", &data.to_string_lossy(), "-m", "fast", "-w", "stop"],
        );
        assert!(
            stopped.as_ref().is_ok_and(|o| o.status.success()),
            "pg_ctl stop: {}",
            describe(&stopped)
        );
    }

    /// Starts the database again after [`PgCluster::stop`], on the same folder and port.
    pub fn restart(&self) {
        if let Err(why) = self.run_postmaster() {
            panic!("{why}");
        }
    }

    /// The process ids of the running postmaster and all its children (backends, background
    /// workers): the processes to freeze with SIGSTOP for a database that stops answering
    /// without closing a connection.
    pub fn pids(&self) -> Vec<u32> {
        let pidfile = self.data().join("postmaster.pid");
        let Some(master) = std::fs::read_to_string(pidfile)
            .ok()
            .and_then(|s| s.lines().next().and_then(|l| l.trim().parse::<u32>().ok()))
        else {
            return Vec::new();
        };
        let mut pids = vec![master];
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<u32>().ok())
            else {
                continue;
            };
            // /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces, so read after
            // its closing parenthesis.
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                .and_then(|p| p.parse::<u32>().ok());
            if ppid == Some(master) {
                pids.push(pid);
            }
        }
        pids
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn run(&self, tool: &str, args: &[&str]) -> std::io::Result<Output> {
        let exe = self.bin.join(tool);
        let mut cmd = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&exe);
            c
        } else {
            Command::new(&exe)
        };
        // A folder the postgres user may enter (the tests' own may be root's).
        cmd.args(args).current_dir(self.dir.path()).output()
    }

    /// The URL of a new, empty database `name` on the cluster.
    pub fn database(&self, name: &str) -> String {
        let created = self.run(
            "createdb",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "postgres",
                name,
            ],
        );
        assert!(
            created.as_ref().is_ok_and(|o| o.status.success()),
            "createdb {name}: {}",
            describe(&created)
        );
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// The cluster's folder.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let data = self.data();
        let _ = self.run(
            "pg_ctl",
            &[
                "-D",
                &data.to_string_lossy(),
                "-m",
                "immediate",
                "-w",
                "stop",
            ],
        );
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or(54329)
}

fn describe(o: &std::io::Result<Output>) -> String {
    match o {
        Ok(o) => format!(
            "{} {}{}",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => e.to_string(),
    }
}

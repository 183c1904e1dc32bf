//! `majiang serve`: the game server with its browser UI.

use crate::exit::UsageError;
use majiang_server::Limits;
use majiang_server::cluster::{DEFAULT_LEASE_MS, Node};
use std::net::SocketAddr;
use std::time::Duration;

/// Arguments of `majiang serve`. Every one can come from an environment variable (named
/// beside it in `--help`); a flag on the command line wins.
#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, env = "MAJIANG_ADDR", default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The database: a SQLite file (created if missing), or a PostgreSQL URL
    /// (`postgres://user@host:port/name`) that several processes share. Unfinished matches in
    /// it resume.
    #[arg(long, env = "MAJIANG_DB", default_value = "majiang.sqlite")]
    db: String,
    /// The URL browsers reach this process at (`https://node1.example.org`): in a cluster,
    /// where `moved` messages and redirects send clients for the rooms this process runs.
    /// Behind a TLS proxy, an https address the proxy routes to this process (HOSTING.md).
    /// Joins a cluster. With a PostgreSQL database it defaults to `http://` and the address
    /// listened on. Its former name `--node-url` (MAJIANG_NODE_URL) still works.
    #[arg(long, alias = "node-url", env = "MAJIANG_PUBLIC_URL")]
    public_url: Option<String>,
    /// This process's name in a cluster, unique among its processes (the owner of its room
    /// leases). Default: the host's name and the port listened on (`web-1:8080`). A process
    /// claiming a name another running process holds is refused at start.
    #[arg(long, env = "MAJIANG_NODE_NAME")]
    node_name: Option<String>,
    /// How long a room's lease lasts without renewal (milliseconds): a room of a process that
    /// died is taken over within 1.25 times this. With a PostgreSQL database.
    #[arg(long, env = "MAJIANG_LEASE_MS", default_value_t = DEFAULT_LEASE_MS)]
    lease_ms: u64,
    #[command(flatten)]
    limits: LimitArgs,
    /// Allows an external bot (a program speaking the bot protocol, docs/bot-protocol.md) in
    /// rooms: a seat's bot kind `ext:NAME` runs COMMAND (split into words as the shell does).
    /// Repeatable. Room creators pick bots by NAME only.
    #[arg(long = "external-bot", value_name = "NAME=COMMAND")]
    external_bots: Vec<String>,
    /// The time an external bot has for each decision, in milliseconds; one that is late is
    /// dismissed and `efficient` plays its seat on.
    #[arg(long, default_value_t = 5000, value_name = "MS")]
    bot_time_ms: u64,
}

/// The `--external-bot NAME=COMMAND` entries, as the server's registry.
fn external_bots(args: &Args) -> Result<majiang_server::ExternalBots, UsageError> {
    let mut bots = majiang_server::ExternalBots::none();
    for entry in &args.external_bots {
        let (name, command) = entry
            .split_once('=')
            .ok_or_else(|| UsageError(format!("--external-bot {entry:?}: write NAME=COMMAND")))?;
        let command = majiang_external::spec::Command::parse(command)
            .map_err(|e| UsageError(format!("--external-bot {name}: {e}")))?;
        bots.allow(name.trim(), command, args.bot_time_ms)
            .map_err(|e| UsageError(format!("--external-bot: {e}")))?;
    }
    Ok(bots)
}

/// The resource limits (docs/hosting/limits.md); the defaults are [`Limits::default`]'s.
#[derive(clap::Args)]
struct LimitArgs {
    /// Most rooms waiting or in play in memory at once.
    #[arg(long, env = "MAJIANG_MAX_ROOMS", default_value_t = Limits::default().max_rooms)]
    max_rooms: usize,
    /// Rooms one client address may create per minute.
    #[arg(long, env = "MAJIANG_ROOMS_PER_MINUTE", default_value_t = Limits::default().rooms_per_minute)]
    rooms_per_minute: u32,
    /// Rooms all clients together may create per minute.
    #[arg(long, env = "MAJIANG_ROOMS_PER_MINUTE_TOTAL", default_value_t = Limits::default().rooms_per_minute_total)]
    rooms_per_minute_total: u32,
    /// Ledgers one client address may create per minute.
    #[arg(long, env = "MAJIANG_LEDGERS_PER_MINUTE", default_value_t = Limits::default().ledgers_per_minute)]
    ledgers_per_minute: u32,
    /// Ledgers all clients together may create per minute.
    #[arg(long, env = "MAJIANG_LEDGERS_PER_MINUTE_TOTAL", default_value_t = Limits::default().ledgers_per_minute_total)]
    ledgers_per_minute_total: u32,
    /// A waiting room nobody is connected to expires (leaves memory and the store) after this
    /// many seconds.
    #[arg(long, env = "MAJIANG_WAITING_IDLE_SECS", default_value_t = Limits::default().waiting_idle.as_secs())]
    waiting_idle_secs: u64,
    /// A match in play with no person connected leaves memory after this many seconds (it
    /// resumes from the store when someone comes back).
    #[arg(long, env = "MAJIANG_UNATTENDED_SECS", default_value_t = Limits::default().unattended.as_secs())]
    unattended_secs: u64,
    /// A finished match leaves memory this many seconds after its last person left.
    #[arg(long, env = "MAJIANG_FINISHED_LINGER_SECS", default_value_t = Limits::default().finished_linger.as_secs())]
    finished_linger_secs: u64,
    /// KiB of finished rooms' summaries kept for `GET /api/rooms/ID` (answered from the store).
    #[arg(long, env = "MAJIANG_FINISHED_CACHE_KIB", default_value_t = Limits::default().finished_cache_bytes / 1024)]
    finished_cache_kib: usize,
    /// Most open connections at once.
    #[arg(long, env = "MAJIANG_MAX_CONNECTIONS", default_value_t = Limits::default().max_connections)]
    max_connections: usize,
    /// Most open connections from one client address.
    #[arg(long, env = "MAJIANG_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = Limits::default().max_connections_per_address)]
    max_connections_per_address: usize,
    /// Seconds a client has to send a request's headers (and may stay idle between two).
    #[arg(long, env = "MAJIANG_HEADER_TIMEOUT_SECS", default_value_t = Limits::default().header_timeout.as_secs())]
    header_timeout_secs: u64,
    /// Seconds a request has for its body to arrive and its answer to be ready (then 408).
    #[arg(long, env = "MAJIANG_REQUEST_TIMEOUT_SECS", default_value_t = Limits::default().request_timeout.as_secs())]
    request_timeout_secs: u64,
    /// A WebSocket silent this many seconds is pinged.
    #[arg(long, env = "MAJIANG_WS_PING_SECS", default_value_t = Limits::default().ws_ping.as_secs())]
    ws_ping_secs: u64,
    /// A WebSocket silent this many seconds (no pong either) is closed.
    #[arg(long, env = "MAJIANG_WS_IDLE_SECS", default_value_t = Limits::default().ws_idle.as_secs())]
    ws_idle_secs: u64,
    /// Behind a reverse proxy: the client address is the last `X-Forwarded-For` entry.
    #[arg(long, env = "MAJIANG_TRUST_FORWARDED_FOR")]
    trust_forwarded_for: bool,
    /// Learners' hints worked out at once (0: none; they wait, then are dropped).
    #[arg(long, env = "MAJIANG_HINTS_AT_ONCE", default_value_t = Limits::default().hints_at_once)]
    hints_at_once: usize,
    /// Most hint jobs waiting; past it a new hint is dropped and the person told the expert is
    /// busy.
    #[arg(long, env = "MAJIANG_HINT_QUEUE", default_value_t = Limits::default().hint_queue)]
    hint_queue: usize,
    /// Rooms whose expert bots search at once (the CPU cores expert seats may take).
    #[arg(long, env = "MAJIANG_BOT_SEARCHES_AT_ONCE", default_value_t = Limits::default().bot_searches_at_once)]
    bot_searches_at_once: usize,
    /// Match reviews worked out at once.
    #[arg(long, env = "MAJIANG_REVIEWS_AT_ONCE", default_value_t = Limits::default().reviews_at_once)]
    reviews_at_once: usize,
    /// Most review jobs kept (waiting, working or finished); past it a new review is refused.
    #[arg(long, env = "MAJIANG_REVIEW_JOBS", default_value_t = Limits::default().review_jobs)]
    review_jobs: usize,
    /// Seconds a finished review's result is kept for its page.
    #[arg(long, env = "MAJIANG_REVIEW_KEEP_SECS", default_value_t = Limits::default().review_keep.as_secs())]
    review_keep_secs: u64,
    /// The claim timer (milliseconds) of rooms with two or more people whose creator sets
    /// none: a person's time to claim a discard, and the wait every discard of such a room
    /// has, whoever could claim (it hides who could). 0 (off) or 500 to 600000.
    #[arg(long, env = "MAJIANG_CLAIM_TIMEOUT_MS", default_value_t = Limits::default().claim_timeout_ms, value_name = "MS")]
    claim_timeout_ms: u64,
    /// The turn timer (milliseconds) of rooms with two or more people whose creator sets none:
    /// a person's time for a turn before the efficient bot plays it. 0 (off) or 500 to 600000.
    #[arg(long, env = "MAJIANG_TURN_TIMEOUT_MS", default_value_t = Limits::default().turn_timeout_ms, value_name = "MS")]
    turn_timeout_ms: u64,
}

impl LimitArgs {
    fn limits(&self) -> Result<Limits, UsageError> {
        let secs = |name: &str, n: u64| {
            if n == 0 {
                Err(UsageError(format!("--{name} must be at least 1")))
            } else {
                Ok(Duration::from_secs(n))
            }
        };
        let at_least_one = |name: &str, n: usize| {
            if n == 0 {
                Err(UsageError(format!("--{name} must be at least 1")))
            } else {
                Ok(n)
            }
        };
        let timer = |flag: &str, ms: u64| {
            majiang_server::protocol::check_timer(flag, ms)
                .map(|()| ms)
                .map_err(|e| UsageError(e.to_string()))
        };
        Ok(Limits {
            max_rooms: self.max_rooms,
            rooms_per_minute: self.rooms_per_minute,
            rooms_per_minute_total: self.rooms_per_minute_total,
            ledgers_per_minute: self.ledgers_per_minute,
            ledgers_per_minute_total: self.ledgers_per_minute_total,
            waiting_idle: secs("waiting-idle-secs", self.waiting_idle_secs)?,
            unattended: secs("unattended-secs", self.unattended_secs)?,
            finished_linger: secs("finished-linger-secs", self.finished_linger_secs)?,
            finished_cache_bytes: self.finished_cache_kib.saturating_mul(1024),
            max_connections: self.max_connections,
            max_connections_per_address: self.max_connections_per_address,
            header_timeout: secs("header-timeout-secs", self.header_timeout_secs)?,
            request_timeout: secs("request-timeout-secs", self.request_timeout_secs)?,
            ws_ping: secs("ws-ping-secs", self.ws_ping_secs)?,
            ws_idle: secs("ws-idle-secs", self.ws_idle_secs)?,
            trust_forwarded_for: self.trust_forwarded_for,
            hints_at_once: self.hints_at_once,
            hint_queue: self.hint_queue,
            bot_searches_at_once: at_least_one("bot-searches-at-once", self.bot_searches_at_once)?,
            reviews_at_once: at_least_one("reviews-at-once", self.reviews_at_once)?,
            review_jobs: at_least_one("review-jobs", self.review_jobs)?,
            review_keep: secs("review-keep-secs", self.review_keep_secs)?,
            claim_timeout_ms: timer("--claim-timeout-ms", self.claim_timeout_ms)?,
            turn_timeout_ms: timer("--turn-timeout-ms", self.turn_timeout_ms)?,
        })
    }
}

/// Runs the server until Ctrl-C (or SIGTERM).
pub fn run(args: &Args) -> Result<(), UsageError> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| UsageError(format!("starting the runtime: {e}")))?;
    init_logs();
    let limits = args.limits.limits()?;
    let bots = external_bots(args)?;
    rt.block_on(async {
        let db = majiang_server::store::redact(&args.db);
        let store = majiang_server::store::open(&args.db)
            .await
            .map_err(|e| UsageError(format!("{db}: {e}")))?;
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(|e| UsageError(format!("listening on {}: {e}", args.addr)))?;
        let addr = listener
            .local_addr()
            .map_err(|e| UsageError(e.to_string()))?;
        let node = node(args, store.engine(), addr)?;
        let app = majiang_server::App::with_external_bots(store, node.clone(), limits, bots)
            .await
            .map_err(|e| UsageError(format!("{db}: {e}")))?;
        match &node {
            Some(node) => println!(
                "majiang: serving on http://{addr}/ as node {} at {} (database {db}, leases of {} ms)",
                node.name, node.url, node.lease_ms
            ),
            None => println!("majiang: serving on http://{addr}/ (database {db})"),
        }
        majiang_server::serve(listener, app.clone(), shutdown_signal())
            .await
            .map_err(|e| UsageError(format!("server: {e}")))?;
        app.leave_cluster().await;
        println!("majiang: stopped");
        Ok(())
    })
}

/// This process's place in a cluster: with a public URL or a node name given, or on a
/// shared (PostgreSQL) database — which always runs rooms under leases, so two processes never
/// run one room, whatever they were told.
fn node(args: &Args, engine: &str, addr: SocketAddr) -> Result<Option<Node>, UsageError> {
    let public_url = args.public_url.clone().or_else(|| {
        std::env::var("MAJIANG_NODE_URL")
            .ok()
            .filter(|u| !u.trim().is_empty())
    });
    if public_url.is_none() && args.node_name.is_none() && engine != "postgres" {
        return Ok(None);
    }
    let url = public_url.unwrap_or_else(|| format!("http://{addr}"));
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(UsageError(format!(
            "--public-url {url:?}: write the address browsers reach this process at, \
             starting with https:// (or http://)"
        )));
    }
    let name = match &args.node_name {
        Some(name) if name.trim().is_empty() => {
            return Err(UsageError("--node-name must not be empty".into()));
        }
        Some(name) => name.trim().to_string(),
        None => format!("{}:{}", host_name(), addr.port()),
    };
    Ok(Some(Node::named(&name, &url, args.lease_ms)))
}

/// The host's name (Linux's `/proc/sys/kernel/hostname`, else `$HOSTNAME`), else a random id
/// drawn now: names two hosts apart without a crate for one file read.
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| {
            // std's randomly keyed hasher as a random number: no crate for one id.
            use std::hash::BuildHasher;
            let id = std::collections::hash_map::RandomState::new().hash_one(std::process::id());
            format!("node-{:08x}", id as u32)
        })
}

/// Structured logs on stderr: `RUST_LOG` chooses what (default `info` for the server), and every
/// line about a room carries its id. Colours only on a terminal (and not with `NO_COLOR`): a
/// journal or a file gets plain text.
fn init_logs() {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("majiang_server=info,warn"));
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    // A second call (tests running serve twice in one process) keeps the first subscriber.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(colour)
        .with_writer(std::io::stderr)
        .try_init();
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

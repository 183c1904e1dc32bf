//! `majiang serve`: the game server with its browser UI.

use crate::UsageError;
use majiang_server::cluster::{DEFAULT_LEASE_MS, Node};
use std::net::SocketAddr;

/// Arguments of `majiang serve`.
#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The database: a SQLite file (created if missing), or a PostgreSQL URL
    /// (`postgres://user@host:port/name`) that several processes share. Unfinished matches in
    /// it resume.
    #[arg(long, default_value = "majiang.sqlite")]
    db: String,
    /// This process's URL as clients and the other processes reach it (`http://host:port`):
    /// joins a cluster, where each room is run by the process holding its lease. With a
    /// PostgreSQL database it defaults to `http://` and the address listened on.
    #[arg(long)]
    node_url: Option<String>,
    /// How long a room's lease lasts without renewal (milliseconds): how soon another process
    /// takes over the rooms of one that died. With a PostgreSQL database.
    #[arg(long, default_value_t = DEFAULT_LEASE_MS)]
    lease_ms: u64,
}

/// Runs the server until Ctrl-C (or SIGTERM).
pub fn run(args: &Args) -> Result<(), UsageError> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| UsageError(format!("starting the runtime: {e}")))?;
    init_logs();
    rt.block_on(async {
        let store = majiang_server::store::open(&args.db)
            .await
            .map_err(|e| UsageError(format!("{}: {e}", args.db)))?;
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(|e| UsageError(format!("listening on {}: {e}", args.addr)))?;
        let addr = listener
            .local_addr()
            .map_err(|e| UsageError(e.to_string()))?;
        // A shared database always runs rooms under leases, so a second process started on it
        // without --node-url cannot run the same rooms at once; it then names itself by the
        // address it listens on.
        let node_url = match (&args.node_url, store.engine()) {
            (Some(url), _) => Some(url.clone()),
            (None, "postgres") => Some(format!("http://{addr}")),
            (None, _) => None,
        };
        let node = node_url.as_deref().map(|url| Node::new(url, args.lease_ms));
        let app = majiang_server::App::with_store(store, node)
            .await
            .map_err(|e| UsageError(format!("{}: {e}", args.db)))?;
        match &node_url {
            Some(url) => println!(
                "majiang: serving on http://{addr}/ as node {url} (database {}, leases of {} ms)",
                redact(&args.db),
                args.lease_ms
            ),
            None => println!(
                "majiang: serving on http://{addr}/ (database {})",
                redact(&args.db)
            ),
        }
        majiang_server::serve(listener, app.clone(), shutdown_signal())
            .await
            .map_err(|e| UsageError(format!("server: {e}")))?;
        app.leave_cluster().await;
        println!("majiang: stopped");
        Ok(())
    })
}

/// Structured logs on stderr: `RUST_LOG` chooses what (default `info` for the server), and every
/// line about a room carries its id.
fn init_logs() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("majiang_server=info,warn"));
    // A second call (tests running serve twice in one process) keeps the first subscriber.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// The database address without a password, for printing.
fn redact(db: &str) -> String {
    match (db.find("://"), db.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &db[scheme + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &db[..scheme + 3], &db[at..]),
                None => db.to_string(),
            }
        }
        _ => db.to_string(),
    }
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

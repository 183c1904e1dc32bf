//! `majiang serve`: the game server with its browser UI.

use crate::UsageError;
use std::net::SocketAddr;
use std::path::PathBuf;

/// Arguments of `majiang serve`.
#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The SQLite database (created if missing; unfinished matches in it resume).
    #[arg(long, default_value = "majiang.sqlite")]
    db: PathBuf,
}

/// Runs the server until Ctrl-C (or SIGTERM).
pub fn run(args: &Args) -> Result<(), UsageError> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| UsageError(format!("starting the runtime: {e}")))?;
    rt.block_on(async {
        let app = majiang_server::App::open(&args.db)
            .map_err(|e| UsageError(format!("{}: {e}", args.db.display())))?;
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(|e| UsageError(format!("listening on {}: {e}", args.addr)))?;
        let addr = listener
            .local_addr()
            .map_err(|e| UsageError(e.to_string()))?;
        println!(
            "majiang: serving on http://{addr}/ (database {})",
            args.db.display()
        );
        majiang_server::serve(listener, app, shutdown_signal())
            .await
            .map_err(|e| UsageError(format!("server: {e}")))?;
        println!("majiang: stopped");
        Ok(())
    })
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

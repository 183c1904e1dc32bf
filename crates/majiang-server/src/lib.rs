//! The majiang game server: rooms where people and bots play matches of any of the four rule
//! sets over WebSockets, a match log in SQLite that survives a crash, and a browser UI embedded
//! in the binary.
//!
//! - [`App`] holds the store and the rooms; [`App::open`] rebuilds unfinished matches by
//!   replaying their stored actions.
//! - [`store`] is the persistence: one [`Store`] trait, a SQLite and a PostgreSQL engine.
//! - [`cluster`]: several processes over one PostgreSQL database, each room run by the
//!   process holding its lease, taken over when that process dies.
//! - [`router`] builds the HTTP routes (UI, JSON API, WebSocket); [`serve`] runs them until a
//!   shutdown signal.
//! - [`protocol`] is the wire format (documented in `PROTOCOL.md`).
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let app = majiang_server::App::open(std::path::Path::new("majiang.sqlite")).await?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! majiang_server::serve(listener, app, async { let _ = tokio::signal::ctrl_c().await; }).await?;
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

mod app;
mod client_addr;
pub mod cluster;
mod companion;
mod delta;
pub mod external_bots;
mod history;
mod http;
mod incident;
pub mod limits;
mod listen;
pub mod metrics;
mod node;
pub mod protocol;
mod quiet;
mod refusal;
pub mod replay;
pub mod reveal;
mod review;
mod review_jobs;
pub mod room;
mod room_status;
mod stamp;
mod start;
pub mod state_delta;
mod static_files;
pub mod store;
pub mod svg;
mod sweep;
mod throttle;
pub mod waits;
pub mod words;

pub use app::{App, AppError, Created, Invite, MAX_OPEN_ROOMS};
pub use external_bots::ExternalBots;
pub use history::FinishedMatch;
pub use http::{router, serve};
pub use limits::Limits;
pub use room::{Dismissal, RoomHandle, RoomSummary};
pub use store::{PgStore, SqliteStore, Store, StoreError};

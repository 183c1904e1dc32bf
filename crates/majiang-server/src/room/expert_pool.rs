//! The expert seats' pool: rooms with expert bots (`expert`, `hard`, `expert:N`, whose every
//! decision searches for tens to hundreds of milliseconds) run on a runtime of their own, of
//! [`Limits::bot_searches_at_once`](crate::Limits::bot_searches_at_once) threads. So the CPU
//! the server spends on expert seats is at most that many cores whatever the number of such
//! rooms, the rooms take turns (the runtime's scheduler runs each room's step in turn), and
//! the other rooms keep the server's own threads. (The pool's threads keep the normal CPU
//! priority: a lowered one would hold a shared lock, the SQLite store's, for longer.)

use std::future::Future;
use std::sync::{Arc, OnceLock};
use tokio::sync::Notify;

/// The pool's runtime, made by the first room with expert seats, with that app's number of
/// threads (one process serves one app).
static POOL: OnceLock<tokio::runtime::Runtime> = OnceLock::new();

/// Runs `room` (a room's task) on the pool of `threads` threads. When the runtime that
/// called this ends (a test's, the server's at shutdown), `stop` is told, so the room's task
/// does not outlive it.
pub(super) fn spawn(
    threads: usize,
    room: impl Future<Output = ()> + Send + 'static,
    stop: Arc<Notify>,
) {
    let pool = POOL.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads.max(1))
            .thread_name("majiang-expert")
            .enable_all()
            .build()
            .expect("the expert pool's runtime starts")
    });
    pool.spawn(room);
    tokio::spawn(async move {
        let _stop = StopOnDrop(stop);
        std::future::pending::<()>().await
    });
}

/// Tells a room to stop when dropped.
struct StopOnDrop(Arc<Notify>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.notify_one();
    }
}

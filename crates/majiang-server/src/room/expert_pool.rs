//! The expert seats' pool: rooms with expert bots (`expert`, `hard`, `expert:N`, whose every
//! decision searches for tens to hundreds of milliseconds) run on a runtime of their own, of
//! [`Limits::bot_searches_at_once`](crate::Limits::bot_searches_at_once) threads. So the CPU
//! the server spends on expert seats is at most that many cores whatever the number of such
//! rooms, the rooms take turns (the runtime's scheduler runs each room's step in turn), and
//! the other rooms keep the server's own threads. (The pool's threads keep the normal CPU
//! priority: a lowered one would hold a shared lock, the SQLite store's, for longer.)
//!
//! The pool is its app's (made by the first room with expert seats, ended with the app).

use std::future::Future;
use std::sync::{Arc, Mutex};
use tokio::runtime::Runtime;
use tokio::sync::Notify;

/// An app's expert pool: its runtime is made when first needed.
pub(crate) struct ExpertPool {
    threads: usize,
    runtime: Mutex<Option<Runtime>>,
}

impl ExpertPool {
    /// A pool of `threads` threads (at least one), none started yet.
    pub(crate) fn new(threads: usize) -> ExpertPool {
        ExpertPool {
            threads: threads.max(1),
            runtime: Mutex::new(None),
        }
    }

    /// Runs `room` (a room's task) on the pool. When the runtime that called this ends (a
    /// test's, the server's at shutdown), `stop` is told, so the room's task does not outlive
    /// it.
    pub(super) fn spawn(&self, room: impl Future<Output = ()> + Send + 'static, stop: Arc<Notify>) {
        let mut runtime = self.runtime.lock().unwrap_or_else(|e| e.into_inner());
        if runtime.is_none() {
            match tokio::runtime::Builder::new_multi_thread()
                .worker_threads(self.threads)
                .thread_name("majiang-expert")
                .enable_all()
                .build()
            {
                Ok(r) => *runtime = Some(r),
                Err(e) => {
                    tracing::error!("the expert pool does not start ({e}): on the server's threads")
                }
            }
        }
        match runtime.as_ref() {
            Some(r) => {
                r.spawn(room);
            }
            None => {
                tokio::spawn(room);
            }
        }
        tokio::spawn(async move {
            let _stop = StopOnDrop(stop);
            std::future::pending::<()>().await
        });
    }
}

impl Drop for ExpertPool {
    /// Ends the pool's threads without waiting for them (an app may be dropped inside a
    /// runtime, where waiting is not allowed).
    fn drop(&mut self) {
        let runtime = self.runtime.get_mut().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = runtime.take() {
            r.shutdown_background();
        }
    }
}

/// Tells a room to stop when dropped.
struct StopOnDrop(Arc<Notify>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.notify_one();
    }
}

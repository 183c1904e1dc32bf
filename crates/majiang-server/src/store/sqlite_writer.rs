//! The SQLite engine's writer: one thread that owns the connection, so no call ever blocks the
//! async runtime on SQLite (a write, a `fsync` at a checkpoint, a lock held by another call).
//!
//! A caller sends a job (a closure over the connection) and awaits its answer on a oneshot. The
//! thread takes every job queued, runs them in order in **one transaction** (each inside its own
//! savepoint, so a job that fails leaves no trace and the others are kept), commits once, and
//! only then answers each caller in turn: group commit. A batch of *n* writes costs one commit,
//! and a write is answered only once it is committed, as before.
//!
//! - A job that fails is answered with its own error; the batch goes on.
//! - A commit that fails fails the batch: every caller whose job had succeeded is answered
//!   [`StoreError::Commit`] (nothing of the batch is stored).
//! - A writer that is gone (its thread ended, e.g. a job panicked) answers
//!   [`StoreError::WriterGone`], now and for every later call; no caller panics.

use super::StoreError;
use rusqlite::Connection;
use std::sync::mpsc;
use tokio::sync::oneshot;

/// Jobs taken into one transaction at most (a bound on the time before the first is answered).
const BATCH_MAX: usize = 512;

/// One queued call: run on the connection, then answered once the batch's fate is known.
trait Job: Send {
    /// Runs the call; true if it succeeded.
    fn run(&mut self, conn: &Connection) -> bool;
    /// Answers the caller: its own result, unless the batch's commit failed.
    fn answer(self: Box<Self>, commit: &Result<(), String>);
}

/// A call returning `T`.
struct Call<T, F> {
    f: Option<F>,
    result: Option<Result<T, StoreError>>,
    reply: oneshot::Sender<Result<T, StoreError>>,
}

impl<T, F> Job for Call<T, F>
where
    T: Send,
    F: FnOnce(&Connection) -> Result<T, StoreError> + Send,
{
    fn run(&mut self, conn: &Connection) -> bool {
        let result = match self.f.take() {
            Some(f) => f(conn),
            None => Err(StoreError::Commit("a job ran twice".into())),
        };
        let ok = result.is_ok();
        self.result = Some(result);
        ok
    }

    fn answer(self: Box<Self>, commit: &Result<(), String>) {
        let result = match (self.result, commit) {
            (Some(Ok(_)), Err(e)) => Err(StoreError::Commit(e.clone())),
            (Some(r), _) => r,
            (None, _) => Err(StoreError::Commit("a job never ran".into())),
        };
        // The caller may have given up waiting (a time-out): nothing to tell then.
        let _ = self.reply.send(result);
    }
}

/// The handle on the writer thread; cheap to share (`&self` calls). Dropping it lets the thread
/// finish the jobs queued and end.
#[derive(Debug)]
pub(crate) struct Writer {
    jobs: mpsc::Sender<Box<dyn Job>>,
}

impl Writer {
    /// Starts the thread, which owns `conn` from now on.
    pub(crate) fn start(conn: Connection) -> Result<Writer, StoreError> {
        let (jobs, queue) = mpsc::channel::<Box<dyn Job>>();
        std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || run(conn, queue))
            .map_err(|e| StoreError::Commit(format!("cannot start the SQLite writer: {e}")))?;
        Ok(Writer { jobs })
    }

    /// Runs `f` on the writer's connection, in the next batch's transaction, and answers once
    /// that batch is committed. `f` must not begin or end a transaction itself (it runs inside
    /// a savepoint: what it writes is all kept or, if it fails, all undone).
    pub(crate) async fn call<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let answer = self.queue(f)?;
        answer.await.map_err(|_| StoreError::WriterGone)?
    }

    /// Runs `f` like [`Writer::call`], blocking the calling thread until it is answered.
    #[cfg(test)]
    pub(crate) fn call_blocking<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let answer = self.queue(f)?;
        answer.blocking_recv().map_err(|_| StoreError::WriterGone)?
    }

    /// Queues `f` as a job for the writer; the receiver gets its answer.
    fn queue<T, F>(&self, f: F) -> Result<oneshot::Receiver<Result<T, StoreError>>, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let job: Box<dyn Job> = Box::new(Call {
            f: Some(f),
            result: None,
            reply,
        });
        self.jobs.send(job).map_err(|_| StoreError::WriterGone)?;
        Ok(answer)
    }
}

/// The thread: a batch at a time until every handle is dropped.
fn run(conn: Connection, queue: mpsc::Receiver<Box<dyn Job>>) {
    let mut batch: Vec<Box<dyn Job>> = Vec::new();
    while let Ok(first) = queue.recv() {
        batch.push(first);
        while batch.len() < BATCH_MAX {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let commit = run_batch(&conn, &mut batch);
        for job in batch.drain(..) {
            job.answer(&commit);
        }
    }
}

/// Runs a statement without arguments, prepared once.
fn exec(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(sql)?.execute([]).map(|_| ())
}

/// Runs `batch` in one transaction, each job in a savepoint (a job alone: the transaction is
/// its own, undone if it fails); the commit's result.
fn run_batch(conn: &Connection, batch: &mut [Box<dyn Job>]) -> Result<(), String> {
    exec(conn, "BEGIN IMMEDIATE").map_err(|e| e.to_string())?;
    if let [job] = batch {
        let end = if job.run(conn) { "COMMIT" } else { "ROLLBACK" };
        return match exec(conn, end) {
            Ok(()) => Ok(()),
            Err(e) => {
                if !conn.is_autocommit() {
                    let _ = conn.execute_batch("ROLLBACK");
                }
                Err(e.to_string())
            }
        };
    }
    for job in batch.iter_mut() {
        let undo = match exec(conn, "SAVEPOINT job") {
            Ok(()) => !job.run(conn),
            Err(e) => {
                let _ = conn.execute_batch("ROLLBACK");
                return Err(e.to_string());
            }
        };
        let end = if undo {
            exec(conn, "ROLLBACK TO job").and_then(|()| exec(conn, "RELEASE job"))
        } else {
            exec(conn, "RELEASE job")
        };
        if let Err(e) = end {
            let _ = conn.execute_batch("ROLLBACK");
            return Err(e.to_string());
        }
    }
    match exec(conn, "COMMIT") {
        Ok(()) => Ok(()),
        Err(e) => {
            // A failed COMMIT may leave the transaction open: end it, keeping nothing.
            if !conn.is_autocommit() {
                let _ = conn.execute_batch("ROLLBACK");
            }
            Err(e.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn writer() -> Writer {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "PRAGMA foreign_keys = ON;
             CREATE TABLE parent (id INTEGER PRIMARY KEY);
             CREATE TABLE log (n INTEGER PRIMARY KEY,
                 parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);",
        )
        .unwrap();
        Writer::start(conn).unwrap()
    }

    fn insert(n: i64) -> impl FnOnce(&Connection) -> Result<i64, StoreError> + Send + 'static {
        move |c: &Connection| {
            c.execute("INSERT INTO log (n) VALUES (?1)", [n])?;
            Ok(n)
        }
    }

    fn count(w: &Writer) -> i64 {
        w.call_blocking(|c| Ok(c.query_row("SELECT count(*) FROM log", [], |r| r.get(0))?))
            .unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_batch_answers_every_caller_in_order() {
        let w = Arc::new(writer());
        // Queued together (the writer may take them in one batch or several): each is answered
        // with its own result, and the rows were committed in the order sent.
        let calls = (0..200i64).map(|n| {
            let w = w.clone();
            async move { w.call(insert(n)).await.unwrap() }
        });
        let answers = futures_util::future::join_all(calls).await;
        assert_eq!(answers, (0..200).collect::<Vec<_>>());
        let rows: Vec<i64> = w
            .call(|c| {
                let mut s = c.prepare("SELECT n FROM log ORDER BY rowid")?;
                let rows = s.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
                Ok(rows)
            })
            .await
            .unwrap();
        assert_eq!(rows, (0..200).collect::<Vec<_>>());
    }

    /// Sends `f` straight to the writer's queue; its answer.
    fn send<T: Send + 'static>(
        w: &Writer,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> oneshot::Receiver<Result<T, StoreError>> {
        let (reply, answer) = oneshot::channel();
        let job: Box<dyn Job> = Box::new(Call {
            f: Some(f),
            result: None,
            reply,
        });
        w.jobs.send(job).unwrap();
        answer
    }

    /// Holds the writer in a job of its own until the sender is used (or dropped): whatever is
    /// sent meanwhile is taken in the next batch, all together.
    fn hold(
        w: &Writer,
    ) -> (
        std::sync::mpsc::Sender<()>,
        oneshot::Receiver<Result<i64, StoreError>>,
    ) {
        let (running_tx, running) = std::sync::mpsc::channel::<()>();
        let (gate, gate_rx) = std::sync::mpsc::channel::<()>();
        let answer = send(w, move |_: &Connection| {
            running_tx.send(()).ok();
            gate_rx.recv().ok();
            Ok(-1i64)
        });
        running.recv().unwrap();
        (gate, answer)
    }

    #[test]
    fn batched_calls_are_answered_in_the_order_sent() {
        let w = writer();
        let (gate, held) = hold(&w);
        let answers: Vec<_> = (0..5).map(|n| send(&w, insert(n))).collect();
        gate.send(()).unwrap();
        assert_eq!(held.blocking_recv().unwrap().unwrap(), -1);
        for (n, a) in answers.into_iter().enumerate() {
            assert_eq!(a.blocking_recv().unwrap().unwrap(), n as i64);
        }
        assert_eq!(count(&w), 5);
    }

    #[test]
    fn a_failing_job_is_undone_and_the_others_kept() {
        let w = writer();
        w.call_blocking(insert(1)).unwrap();
        // A duplicate key: this call fails alone.
        assert!(matches!(
            w.call_blocking(insert(1)),
            Err(StoreError::Sqlite(_))
        ));
        w.call_blocking(insert(2)).unwrap();
        assert_eq!(count(&w), 2);
    }

    #[test]
    fn a_commit_that_fails_fails_each_caller() {
        let w = writer();
        // Three jobs in one batch; the third breaks a deferred foreign key, which only the
        // COMMIT finds.
        let (gate, held) = hold(&w);
        let a = send(&w, insert(1));
        let b = send(&w, insert(2));
        let bad = send(&w, |c: &Connection| {
            c.execute("INSERT INTO log (n, parent) VALUES (3, 99)", [])?;
            Ok(3i64)
        });
        gate.send(()).unwrap();
        assert_eq!(held.blocking_recv().unwrap().unwrap(), -1);
        for answer in [a, b, bad] {
            match answer.blocking_recv().unwrap() {
                Err(StoreError::Commit(e)) => assert!(e.contains("FOREIGN KEY"), "{e}"),
                other => panic!("expected a failed commit, got {other:?}"),
            }
        }
        // Nothing of the batch is stored, and the writer goes on.
        assert_eq!(count(&w), 0);
        assert_eq!(w.call_blocking(insert(4)).unwrap(), 4);
        assert_eq!(count(&w), 1);
    }

    #[tokio::test]
    async fn a_writer_that_is_gone_answers_an_error() {
        let w = writer();
        // A job that panics ends the thread: its caller and every later one are told.
        let gone = w
            .call(|_: &Connection| -> Result<(), StoreError> { panic!("writer dies (a test)") })
            .await;
        assert!(matches!(gone, Err(StoreError::WriterGone)), "{gone:?}");
        let later = w.call(insert(1)).await;
        assert!(matches!(later, Err(StoreError::WriterGone)), "{later:?}");
        assert_eq!(
            StoreError::WriterGone.to_string(),
            "database: the SQLite writer thread has stopped"
        );
    }
}

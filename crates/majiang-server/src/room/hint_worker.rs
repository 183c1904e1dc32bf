//! Working out a learner's hint off the room's task (see `hints` for when one is asked): the
//! library's [`hint`] on the observation the person was just sent — the judgement a review
//! of the match makes of that decision, at the review's seed and budget (`majiang play
//! --hints` asks the same function) — on a blocking thread, a few at a time across the server
//! ([`HintQueue`]: bounded in hints at once and in jobs waiting); the `hint` goes straight to
//! the connection's outbox.
//!
//! Its cost: the review's budget (64 worlds, two close rounds) values every alternative of a
//! decision; measured on this machine's debug build (the library optimised), a 4-hand match's
//! decisions took 6 ms of CPU each on average in Hong Kong, Hangzhou, Yangzhou and classic at
//! four and six players (`majiang review`: 101 Hong Kong decisions in 0.63 s); the slowest of
//! 83 hints in the test `hints_ws::following_every_server_hint_…` (five rule sets, a debug
//! server on a loaded 2-core machine) reached the browser 195 ms after its state, queue and
//! wire included. A live hint can afford the review's budget, so there is one budget, not a
//! smaller one for hints.

use super::io::{ConnId, HintJob};
use crate::metrics::METRICS;
use crate::protocol::ServerMsg;
use majiang::review::hint;
use majiang::table::TableRules;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// The `hint` message for `job` under `ruleset` (`None`: nothing to decide).
pub fn work_out(job: &HintJob, ruleset: &Arc<TableRules>) -> Option<ServerMsg> {
    let s = hint(&job.observation, ruleset)?;
    Some(ServerMsg::Hint {
        hand_number: job.hand_number,
        actions: job.actions,
        action: s.action,
        facts: s.facts,
        value: s.value,
        runner_up: s.runner_up,
        text: s.text,
    })
}

/// A job waiting for a slot: the job, its rule set, and the connection's outbox.
struct Waiting {
    /// The room's id and the connection: a newer job for the same key replaces this one.
    key: (Arc<str>, ConnId),
    job: HintJob,
    ruleset: Arc<TableRules>,
    out: super::Outbox,
}

/// What the queue did with a job it was given (`HintQueue::push`, for the room).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Queued {
    /// It waits at the back of the queue (or is being worked out already).
    Added,
    /// It took the place of the same connection's waiting job (now stale).
    Replaced,
    /// The queue was full: it was dropped and the person told (`hint_busy`).
    Dropped,
}

/// The server's hint queue: at most `at_once` hints worked out at a time, at most `max_waiting`
/// jobs waiting for a slot ([`Limits::hints_at_once`](crate::Limits),
/// [`Limits::hint_queue`](crate::Limits)). One per [`App`](crate::App), shared by its rooms.
pub struct HintQueue {
    at_once: usize,
    max_waiting: usize,
    /// Threads the rooms with expert seats run on (see [`super::expert_pool`]).
    bot_searches: usize,
    state: Mutex<QueueState>,
}

#[derive(Default)]
struct QueueState {
    waiting: VecDeque<Waiting>,
    /// Worker tasks running (each works jobs out one after another until none waits).
    workers: usize,
}

impl HintQueue {
    /// A queue working out `at_once` hints at a time with at most `max_waiting` waiting.
    pub fn new(at_once: usize, max_waiting: usize) -> Arc<HintQueue> {
        HintQueue::with_bot_searches(at_once, max_waiting, 1)
    }

    /// As [`HintQueue::new`], with `bot_searches` rooms' expert bots searching at once (at
    /// least one).
    pub fn with_bot_searches(
        at_once: usize,
        max_waiting: usize,
        bot_searches: usize,
    ) -> Arc<HintQueue> {
        Arc::new(HintQueue {
            at_once,
            max_waiting,
            bot_searches: bot_searches.max(1),
            state: Mutex::new(QueueState::default()),
        })
    }

    /// Threads the rooms with expert seats run on.
    pub(crate) fn bot_searches(&self) -> usize {
        self.bot_searches
    }

    /// Jobs waiting now.
    pub fn waiting(&self) -> usize {
        self.lock().waiting.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `job` of room `room` (its hint goes to `out`), starting a worker if a slot is
    /// free (inside a Tokio runtime). A full queue drops the job: it is counted in `/metrics`
    /// and `out` gets `hint_busy` for its state.
    pub(super) fn push(
        self: &Arc<Self>,
        room: Arc<str>,
        job: HintJob,
        ruleset: Arc<TableRules>,
        out: super::Outbox,
    ) -> Queued {
        let key = (room, job.conn);
        let mut st = self.lock();
        let outcome = if let Some(w) = st.waiting.iter_mut().find(|w| w.key == key) {
            w.job = job;
            w.ruleset = ruleset;
            w.out = out;
            Queued::Replaced
        } else if st.waiting.len() >= self.max_waiting {
            drop(st);
            METRICS.hint_dropped();
            let busy = ServerMsg::HintBusy {
                hand_number: job.hand_number,
                actions: job.actions,
            };
            if let Ok(text) = serde_json::to_string(&busy) {
                let _ = out.try_send(text.into());
            }
            return Queued::Dropped;
        } else {
            st.waiting.push_back(Waiting {
                key,
                job,
                ruleset,
                out,
            });
            Queued::Added
        };
        METRICS.hints_waiting(st.waiting.len());
        if st.workers < self.at_once {
            st.workers += 1;
            tokio::spawn(self.clone().work());
        }
        outcome
    }

    /// A worker: works the waiting jobs out, oldest first, until none is left.
    async fn work(self: Arc<Self>) {
        loop {
            let next = {
                let mut st = self.lock();
                let next = st.waiting.pop_front();
                if next.is_none() {
                    st.workers -= 1;
                }
                METRICS.hints_waiting(st.waiting.len());
                next
            };
            let Some(Waiting {
                job, ruleset, out, ..
            }) = next
            else {
                return;
            };
            if out.is_closed() {
                continue;
            }
            let msg = tokio::task::spawn_blocking(move || work_out(&job, &ruleset)).await;
            if let Ok(Some(msg)) = msg
                && let Ok(text) = serde_json::to_string(&msg)
            {
                // Dropped if the outbox is full or closed: a hint is advice, never owed.
                let _ = out.try_send(text.into());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use majiang::table::Session;
    use tokio::sync::mpsc;

    fn job(conn: ConnId, actions: u64) -> (HintJob, Arc<TableRules>) {
        let ruleset = Arc::new(TableRules::from_name("hongkong", &Default::default()).unwrap());
        let (mut session, _) = Session::new(ruleset.clone(), 1, None).unwrap();
        if session.awaiting_deal() {
            session.deal_next().unwrap();
        }
        let obs = session.observation(session.to_act().unwrap());
        let job = HintJob {
            conn,
            hand_number: 1,
            actions,
            observation: Box::new(obs),
        };
        (job, ruleset)
    }

    #[tokio::test]
    async fn a_full_queue_drops_new_jobs_and_a_newer_job_replaces_its_connections_waiting_one() {
        // No slot: every job waits.
        let q = HintQueue::new(0, 2);
        let room: Arc<str> = "r".into();
        let (tx, mut rx) = mpsc::channel(8);
        let push = |conn, actions| {
            let (j, r) = job(conn, actions);
            q.push(room.clone(), j, r, tx.clone())
        };
        assert_eq!(push(1, 10), Queued::Added);
        assert_eq!(push(2, 10), Queued::Added);
        assert_eq!(push(1, 11), Queued::Replaced);
        assert_eq!(q.waiting(), 2);
        assert_eq!(push(3, 10), Queued::Dropped);
        assert_eq!(q.waiting(), 2);
        let told: serde_json::Value = serde_json::from_str(&rx.try_recv().unwrap()).unwrap();
        assert_eq!(
            told,
            serde_json::json!({"type": "hint_busy", "hand_number": 1, "actions": 10})
        );
        // The replaced job is the newer one.
        let st = q.lock();
        assert_eq!(st.waiting[0].job.actions, 11);
    }
}

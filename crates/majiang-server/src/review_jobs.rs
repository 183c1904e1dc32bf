//! The match reviews the server works out: a job per review asked for (room, seat, budget,
//! seed), its progress in the seat's decisions valued (the library's [`Progress`]) and then its
//! result, kept a while for the page that polls it. Bounded like every other limit
//! ([`Limits`]): `reviews_at_once` worked out at a time (each is seconds of CPU on a blocking
//! thread), at most `review_jobs` kept (a new job drops the oldest finished one; when none is
//! finished it is refused), a finished result kept `review_keep`. The same review asked for
//! again while kept is the same job: the log of a finished match never changes.

use crate::limits::Limits;
use crate::metrics::METRICS;
use crate::refusal;
use crate::words::api;
use axum::http::StatusCode;
use majiang::review::{Progress, ReviewError, ReviewOptions, review};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{Semaphore, watch};

/// What a job is doing.
#[derive(Debug, Clone)]
pub(crate) enum Stage {
    /// Waiting for a slot (another review is being worked out).
    Waiting,
    /// Being worked out: see its progress.
    Working,
    /// Finished: the review as JSON text (docs/review-json.md).
    Done(Arc<str>),
    /// Refused or failed: the status and the refusal's body.
    Failed(StatusCode, Arc<serde_json::Value>),
}

/// One review asked for.
pub(crate) struct Job {
    /// Its id in URLs (random hex).
    pub id: String,
    room: String,
    options: ReviewOptions,
    done: AtomicUsize,
    total: AtomicUsize,
    stage: watch::Sender<Stage>,
    /// When it finished (for `review_keep`).
    finished: Mutex<Option<Instant>>,
}

impl Job {
    /// The seat's decisions valued so far and in all (0 of 0 until the log has been read).
    pub fn progress(&self) -> (usize, usize) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }

    /// Its stage now.
    pub fn stage(&self) -> Stage {
        self.stage.borrow().clone()
    }

    /// Waits until it has finished (or failed), and says how.
    pub async fn finished(&self) -> Stage {
        let mut rx = self.stage.subscribe();
        let stage = rx
            .wait_for(|s| matches!(s, Stage::Done(_) | Stage::Failed(..)))
            .await
            .map(|s| s.clone());
        stage.unwrap_or_else(|_| self.stage())
    }

    fn finished_at(&self) -> Option<Instant> {
        *self.finished.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn finish(&self, stage: Stage) {
        *self.finished.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        self.stage.send_replace(stage);
    }

    fn same(&self, room: &str, o: &ReviewOptions) -> bool {
        self.room == room
            && self.options.seat == o.seat
            && self.options.seed == o.seed
            && self.options.budget == o.budget
    }
}

/// A review refused: the server keeps this many jobs, all unfinished.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Busy(pub usize);

impl Busy {
    /// The refusal: 503 with `api.review_busy`.
    pub fn refusal(self) -> axum::response::Response {
        refusal::error(
            StatusCode::SERVICE_UNAVAILABLE,
            api::REVIEW_BUSY.with([self.0.into()]),
        )
    }
}

/// The jobs kept, and the slots they are worked out in.
pub(crate) struct ReviewJobs {
    slots: Arc<Semaphore>,
    max_jobs: usize,
    keep: Duration,
    jobs: Mutex<Vec<Arc<Job>>>,
}

impl ReviewJobs {
    /// The jobs under `limits`.
    pub fn new(limits: &Limits) -> ReviewJobs {
        ReviewJobs {
            slots: Arc::new(Semaphore::new(limits.reviews_at_once.max(1))),
            max_jobs: limits.review_jobs.max(1),
            keep: limits.review_keep,
            jobs: Mutex::new(Vec::new()),
        }
    }

    /// The job of `room` with id `id`, if it is kept.
    pub fn get(&self, room: &str, id: &str) -> Option<Arc<Job>> {
        let mut jobs = self.lock();
        self.expire(&mut jobs);
        jobs.iter().find(|j| j.room == room && j.id == id).cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Arc<Job>>> {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Drops the finished jobs kept longer than `keep`.
    fn expire(&self, jobs: &mut Vec<Arc<Job>>) {
        jobs.retain(|j| j.finished_at().is_none_or(|at| at.elapsed() < self.keep));
    }

    /// The job reviewing `log` (the finished match `room`'s) under `options`: the one kept for
    /// the same review, or a new one started (inside a Tokio runtime). Refused (503) when
    /// every job kept is unfinished.
    pub fn start(&self, room: &str, options: ReviewOptions, log: String) -> Result<Arc<Job>, Busy> {
        let mut jobs = self.lock();
        self.expire(&mut jobs);
        // A job that failed is not kept for its key: asked again, it is tried again.
        if let Some(j) = jobs
            .iter()
            .find(|j| j.same(room, &options) && !matches!(j.stage(), Stage::Failed(..)))
        {
            return Ok(j.clone());
        }
        if jobs.len() >= self.max_jobs {
            let oldest = jobs
                .iter()
                .enumerate()
                .filter_map(|(i, j)| j.finished_at().map(|at| (at, i)))
                .min();
            match oldest {
                Some((_, i)) => {
                    jobs.remove(i);
                }
                None => {
                    METRICS.review_refused();
                    return Err(Busy(jobs.len()));
                }
            }
        }
        let job = Arc::new(Job {
            id: crate::stamp::random_hex(8),
            room: room.to_string(),
            options,
            done: AtomicUsize::new(0),
            total: AtomicUsize::new(0),
            stage: watch::channel(Stage::Waiting).0,
            finished: Mutex::new(None),
        });
        jobs.push(job.clone());
        drop(jobs);
        tokio::spawn(run(job.clone(), self.slots.clone(), log, options));
        Ok(job)
    }
}

/// Works `job` out in a slot, on a blocking thread, counting its progress.
async fn run(job: Arc<Job>, slots: Arc<Semaphore>, log: String, options: ReviewOptions) {
    let Ok(_slot) = slots.acquire_owned().await else {
        return job.finish(failed(
            StatusCode::SERVICE_UNAVAILABLE,
            api::SHUTTING_DOWN.plain(),
        ));
    };
    job.stage.send_replace(Stage::Working);
    let counting = job.clone();
    let reviewed = tokio::task::spawn_blocking(move || {
        review(&log, &options, |p: Progress| {
            counting.total.store(p.decisions_total, Ordering::Relaxed);
            counting.done.store(p.decisions_done, Ordering::Relaxed);
        })
    })
    .await;
    let stage = match reviewed {
        Ok(Ok(r)) => match serde_json::to_string(&r) {
            Ok(text) => Stage::Done(text.into()),
            Err(e) => failed(
                StatusCode::INTERNAL_SERVER_ERROR,
                crate::incident::told(&api::REVIEW_FAILED, &e),
            ),
        },
        Ok(Err(ReviewError::NoSuchSeat { seat, players })) => failed(
            StatusCode::BAD_REQUEST,
            api::REVIEW_NO_SEAT.with([seat.into(), players.into()]),
        ),
        Ok(Err(e)) => failed(
            StatusCode::INTERNAL_SERVER_ERROR,
            crate::incident::told(&api::REVIEW_FAILED, &e),
        ),
        Err(e) => failed(
            StatusCode::INTERNAL_SERVER_ERROR,
            crate::incident::told(&api::REVIEW_FAILED, &e),
        ),
    };
    job.finish(stage);
}

fn failed(status: StatusCode, why: impl Into<crate::words::Words>) -> Stage {
    Stage::Failed(status, Arc::new(refusal::body(&why.into())))
}

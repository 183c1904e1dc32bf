//! The expert's review of one seat of a finished match, as JSON (the library's
//! [`majiang::review`], the format of docs/review-json.md), worked out as a job
//! ([`crate::review_jobs`]) whose progress the page polls:
//!
//! - `POST /api/rooms/{id}/review?seat=N[&budget=WORLDS][&seed=S]` starts the review (or finds
//!   the same one kept) and answers 202 with its job: `{"job", "status": "waiting" | "working" |
//!   "done", "done": k, "total": n}` (`k` of the seat's `n` decisions valued), `Location` its
//!   URL;
//! - `GET /api/rooms/{id}/review/{job}` answers the same, with the `review` once it is `done`
//!   (a failed review answers its refusal; a job not kept, 404);
//! - `GET /api/rooms/{id}/review?seat=N…` waits for the review and answers it, as before.
//!
//! The log is the stored match rebuilt as `log.jsonl` serves it; the budget is capped at the
//! expert's default.

use crate::refusal::error;
use crate::replay;
use crate::review_jobs::{Job, Stage};
use crate::words::api;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use majiang::bots::expert::Budget;
use majiang::review::ReviewOptions;
use serde::Deserialize;
use std::sync::Arc;

/// The query of a review.
#[derive(Debug, Deserialize)]
pub(crate) struct ReviewQuery {
    /// The entrant reviewed (from 0; default 0).
    seat: Option<usize>,
    /// Worlds a decision (1 to the expert's default, 64).
    budget: Option<u32>,
    /// The expert's seed (default 0).
    seed: Option<u64>,
}

/// The job for `q` on room `id`: checked, its log read, started or found.
async fn job_for(app: &crate::app::App, id: &str, q: &ReviewQuery) -> Result<Arc<Job>, Response> {
    let rollouts = q.budget.unwrap_or(Budget::DEFAULT.rollouts);
    if rollouts == 0 || rollouts > Budget::DEFAULT.rollouts {
        return Err(error(
            StatusCode::BAD_REQUEST,
            api::REVIEW_BUDGET.with([Budget::DEFAULT.rollouts.into()]),
        ));
    }
    let text = replay::finished_log(app.store().as_ref(), id)
        .await
        .and_then(|log| replay::jsonl(&log))
        .map_err(IntoResponse::into_response)?;
    let options = ReviewOptions {
        seat: q.seat.unwrap_or(0),
        seed: q.seed.unwrap_or(0),
        budget: Budget {
            rollouts,
            ..Budget::DEFAULT
        },
    };
    app.reviews()
        .start(id, options, text)
        .map_err(|busy| busy.refusal())
}

/// JSON text as a response.
fn json_text(status: StatusCode, text: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], text).into_response()
}

/// A job's answer: its progress, with the review once done; a failed job's refusal.
fn job_answer(job: &Job, status: StatusCode) -> Response {
    let (done, total) = job.progress();
    let head = |stage: &str| {
        format!(
            r#"{{"job":"{}","status":"{stage}","done":{done},"total":{total}"#,
            job.id
        )
    };
    match job.stage() {
        Stage::Waiting => json_text(status, head("waiting") + "}"),
        Stage::Working => json_text(status, head("working") + "}"),
        Stage::Done(review) => {
            json_text(status, format!(r#"{},"review":{review}}}"#, head("done")))
        }
        Stage::Failed(code, body) => (code, axum::Json(body.as_ref().clone())).into_response(),
    }
}

/// `POST …/review`: 202 with the job (`Location`: where to poll it); 400 for a bad budget,
/// 403 before the match has finished, 404 for an unknown room, 503 when the server keeps as
/// many unfinished reviews as it may.
pub(crate) async fn start_review(
    State(app): State<crate::app::App>,
    Path(id): Path<String>,
    Query(q): Query<ReviewQuery>,
) -> Response {
    match job_for(&app, &id, &q).await {
        Ok(job) => {
            let mut r = job_answer(&job, StatusCode::ACCEPTED);
            if let Ok(at) = format!("/api/rooms/{id}/review/{}", job.id).parse() {
                r.headers_mut().insert(header::LOCATION, at);
            }
            r
        }
        Err(r) => r,
    }
}

/// `GET …/review/{job}`: the job's progress, then its review; 404 for a job not kept.
pub(crate) async fn review_job(
    State(app): State<crate::app::App>,
    Path((id, job)): Path<(String, String)>,
) -> Response {
    match app.reviews().get(&id, &job) {
        Some(job) => job_answer(&job, StatusCode::OK),
        None => error(StatusCode::NOT_FOUND, api::REVIEW_GONE.plain()),
    }
}

/// `GET …/review`: the review of a finished match's seat once worked out: 200 with the review,
/// 400 for a bad seat or budget, 403 before the match has finished, 404 for an unknown room,
/// 503 when the server keeps as many unfinished reviews as it may.
pub(crate) async fn room_review(
    State(app): State<crate::app::App>,
    Path(id): Path<String>,
    Query(q): Query<ReviewQuery>,
) -> Response {
    let job = match job_for(&app, &id, &q).await {
        Ok(job) => job,
        Err(r) => return r,
    };
    match job.finished().await {
        Stage::Done(review) => json_text(StatusCode::OK, review.to_string()),
        Stage::Failed(code, body) => (code, axum::Json(body.as_ref().clone())).into_response(),
        // `finished` returns only these two.
        Stage::Waiting | Stage::Working => job_answer(&job, StatusCode::ACCEPTED),
    }
}

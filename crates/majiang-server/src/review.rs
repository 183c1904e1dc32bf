//! `GET /api/rooms/{id}/review?seat=N[&budget=WORLDS][&seed=S]`: the expert's review of one
//! seat of a finished match, as JSON (the library's [`majiang::review`], the format of
//! docs/review-json.md). The log is the stored match rebuilt as `log.jsonl` serves it; the
//! review runs on a blocking thread, one at a time (it is seconds of CPU for a long match), with
//! the budget capped at the expert's default.

use crate::refusal::error;
use crate::replay;
use crate::words::api;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use majiang::bots::expert::Budget;
use majiang::review::{ReviewError, ReviewOptions, review};
use serde::Deserialize;
use std::sync::OnceLock;
use tokio::sync::Semaphore;

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

/// One review at a time: a review is CPU work, the server's tasks must go on.
fn gate() -> &'static Semaphore {
    static GATE: OnceLock<Semaphore> = OnceLock::new();
    GATE.get_or_init(|| Semaphore::new(1))
}

/// The review of a finished match's seat: 200 with the review, 400 for a bad seat or budget,
/// 403 before the match has finished, 404 for an unknown room.
pub(crate) async fn room_review(
    State(app): State<crate::App>,
    Path(id): Path<String>,
    Query(q): Query<ReviewQuery>,
) -> Response {
    let rollouts = q.budget.unwrap_or(Budget::DEFAULT.rollouts);
    if rollouts == 0 || rollouts > Budget::DEFAULT.rollouts {
        return error(
            StatusCode::BAD_REQUEST,
            api::REVIEW_BUDGET.with([Budget::DEFAULT.rollouts.into()]),
        );
    }
    let text = match replay::finished_log(app.store().as_ref(), &id)
        .await
        .and_then(|log| replay::jsonl(&log))
    {
        Ok(text) => text,
        Err(e) => return e.into_response(),
    };
    let options = ReviewOptions {
        seat: q.seat.unwrap_or(0),
        seed: q.seed.unwrap_or(0),
        budget: Budget {
            rollouts,
            ..Budget::DEFAULT
        },
    };
    let Ok(_permit) = gate().acquire().await else {
        return error(StatusCode::SERVICE_UNAVAILABLE, api::SHUTTING_DOWN.plain());
    };
    match tokio::task::spawn_blocking(move || review(&text, &options, |_| {})).await {
        Ok(Ok(r)) => Json(r).into_response(),
        Ok(Err(ReviewError::NoSuchSeat { seat, players })) => error(
            StatusCode::BAD_REQUEST,
            api::REVIEW_NO_SEAT.with([seat.into(), players.into()]),
        ),
        Ok(Err(e)) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            crate::incident::told(&api::REVIEW_FAILED, &e),
        ),
        Err(e) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            crate::incident::told(&api::REVIEW_FAILED, &e),
        ),
    }
}

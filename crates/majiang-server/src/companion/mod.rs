//! The table companion: a scoring page and a session ledger for people playing with real
//! tiles (issue 22).
//!
//! - `POST /api/score`: a scoring request (`docs/score-json.md`) in, the library's answer out,
//!   byte for byte what `majiang score --json` prints ([`score`]); a request that cannot be
//!   read gets `400 {"error"}`.
//! - `POST /api/ledgers`, `GET /api/ledgers/{id}`, `POST /api/ledgers/{id}/hands`,
//!   `DELETE /api/ledgers/{id}/hands/last`, `GET /api/ledgers/{id}/export.csv` and
//!   `export.json`: a table's evening ([`ledger`]), one JSON document per ledger in the store.
//!   Refusals are `400 {"error", "field"}`, `field` naming what is at fault.
//! - `GET /api/ledgers/{id}/live`: the ledger as server-sent events, sent again after every
//!   change, so every phone at the table shows it up to date ([`live`]).
//! - `/score` and `/ledger`: the pages (`web/score.html`, `web/ledger.html`).

pub mod export;
pub mod ledger;
pub mod live;
pub mod score;

use crate::app::App;
use crate::client_addr::ClientAddr;
use crate::refusal::body;
use crate::stamp::{now_ms, random_hex};
use crate::store::StoreError;
use crate::words::{api, ledger as said_ledger};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use ledger::{LedgerDoc, NewLedger, Refusal};
use serde_json::{Value, json};

/// Largest request body the companion reads.
const MAX_BODY: usize = 64 * 1024;

/// Ledger changes are read, changed and written whole: one at a time in this process, so two
/// phones at one table cannot record over each other. (A server-wide lock: ledgers change a few
/// times an hour.) Between server processes sharing a database the write is conditional on the
/// document being the one read ([`Store::replace_ledger`](crate::store::Store::replace_ledger)):
/// the loser gets `409 Conflict` and its page reloads the ledger.
static WRITING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The companion's routes (pages and API), merged into the server's router.
pub fn routes() -> Router<App> {
    Router::new()
        .route("/score", crate::static_files::page("score.html"))
        .route("/ledger", crate::static_files::page("ledger.html"))
        .route("/api/score", post(score::score))
        .route("/api/ledgers", post(create))
        .route("/api/ledgers/{id}", get(show))
        .route("/api/ledgers/{id}/hands", post(record))
        .route("/api/ledgers/{id}/hands/last", delete(undo))
        .route("/api/ledgers/{id}/export.csv", get(export_csv))
        .route("/api/ledgers/{id}/export.json", get(export_json))
        .route("/api/ledgers/{id}/live", get(live::live))
}

/// Why a ledger call failed.
enum Failure {
    Refused(Refusal),
    NotFound,
    TooLarge,
    /// Another server process changed the ledger between our read and our write.
    Conflict,
    /// Too many ledgers created lately (the message says by whom).
    Throttled(crate::words::Words),
    /// Storage failed: the client is told an incident id, the log the details.
    Store(String),
}

impl From<Refusal> for Failure {
    fn from(r: Refusal) -> Failure {
        Failure::Refused(r)
    }
}

impl From<StoreError> for Failure {
    fn from(e: StoreError) -> Failure {
        Failure::Store(e.to_string())
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        let (status, body) = match self {
            Failure::Refused(r) => (
                StatusCode::BAD_REQUEST,
                json!({"error": r.to_string(), "field": r.field, "message": r.message,
                       "key": r.words.key(), "args": r.words.args_json()}),
            ),
            Failure::NotFound => (
                StatusCode::NOT_FOUND,
                body(&said_ledger::NO_SUCH_LEDGER.plain()),
            ),
            Failure::Conflict => (StatusCode::CONFLICT, body(&said_ledger::CHANGED.plain())),
            Failure::TooLarge => (
                StatusCode::PAYLOAD_TOO_LARGE,
                body(&api::TOO_LARGE.with([(MAX_BODY / 1024).into()])),
            ),
            Failure::Throttled(e) => (StatusCode::TOO_MANY_REQUESTS, body(&e)),
            Failure::Store(e) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                body(&crate::incident::told(&api::STORAGE_FAILED, &e)),
            ),
        };
        (status, axum::Json(body)).into_response()
    }
}

fn read_json<T: serde::de::DeserializeOwned>(body: &Bytes, what: &str) -> Result<T, Failure> {
    if body.len() > MAX_BODY {
        return Err(Failure::TooLarge);
    }
    serde_json::from_slice(body).map_err(|e| {
        Failure::Refused(ledger::refuse(
            what,
            crate::words::ledger::UNREADABLE.with([e.to_string().into()]),
        ))
    })
}

async fn load(app: &App, id: &str) -> Result<LedgerDoc, Failure> {
    Ok(load_text(app, id).await?.0)
}

/// The ledger and the document text it was read from (for [`replace`]).
async fn load_text(app: &App, id: &str) -> Result<(LedgerDoc, String), Failure> {
    let text = app.store().ledger(id).await?.ok_or(Failure::NotFound)?;
    let doc =
        serde_json::from_str(&text).map_err(|e| Failure::Store(format!("ledger {id}: {e}")))?;
    Ok((doc, text))
}

async fn save(app: &App, doc: &LedgerDoc) -> Result<(), Failure> {
    let text = serde_json::to_string(doc).map_err(|e| Failure::Store(e.to_string()))?;
    Ok(app.store().put_ledger(&doc.id, &text).await?)
}

/// Writes a changed ledger over the document `was` it was read from, or fails with
/// [`Failure::Conflict`] when another process wrote in between.
async fn replace(app: &App, doc: &LedgerDoc, was: &str) -> Result<(), Failure> {
    let text = serde_json::to_string(doc).map_err(|e| Failure::Store(e.to_string()))?;
    if app.store().replace_ledger(&doc.id, was, &text).await? {
        Ok(())
    } else {
        Err(Failure::Conflict)
    }
}

fn view_of(doc: &LedgerDoc) -> Result<Response, Failure> {
    Ok(axum::Json(doc.view()?).into_response())
}

async fn create(
    State(app): State<App>,
    ClientAddr(addr): ClientAddr,
    body: Bytes,
) -> Result<Response, Failure> {
    let new: NewLedger = read_json(&body, "ledger")?;
    if let Err(e) = app.throttle_ledger(addr) {
        crate::metrics::METRICS.creation_throttled();
        return Err(Failure::Throttled(
            e.words().unwrap_or_else(|| api::LEDGERS_THROTTLED.plain()),
        ));
    }
    let doc = LedgerDoc::start(random_hex(8), now_ms(), new)?;
    save(&app, &doc).await?;
    let view = doc.view()?;
    Ok((StatusCode::CREATED, axum::Json(view)).into_response())
}

async fn show(State(app): State<App>, Path(id): Path<String>) -> Result<Response, Failure> {
    view_of(&load(&app, &id).await?)
}

/// Records a hand: `{"draw": true}`, or `{"request": {...}}` (a scoring request).
async fn record(
    State(app): State<App>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, Failure> {
    let hand: Value = read_json(&body, "hand")?;
    let _writing = WRITING.lock().await;
    let (mut doc, was) = load_text(&app, &id).await?;
    match (hand.get("draw"), hand.get("request")) {
        (Some(Value::Bool(true)), None) => doc.record_draw(now_ms())?,
        (None, Some(request)) => doc.record_win(request.clone(), now_ms())?,
        _ => {
            return Err(Failure::Refused(ledger::refuse(
                "hand",
                "send {\"draw\": true} or {\"request\": a scoring request}",
            )));
        }
    }
    replace(&app, &doc, &was).await?;
    live::changed(&doc.id);
    view_of(&doc)
}

async fn undo(State(app): State<App>, Path(id): Path<String>) -> Result<Response, Failure> {
    let _writing = WRITING.lock().await;
    let (mut doc, was) = load_text(&app, &id).await?;
    doc.undo()?;
    replace(&app, &doc, &was).await?;
    live::changed(&doc.id);
    view_of(&doc)
}

fn attachment(id: &str, ext: &str, content_type: &'static str, body: String) -> Response {
    let disposition = format!("attachment; filename=\"ledger-{id}.{ext}\"");
    (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        body,
    )
        .into_response()
}

async fn export_csv(State(app): State<App>, Path(id): Path<String>) -> Result<Response, Failure> {
    let doc = load(&app, &id).await?;
    let text = export::csv(&doc.view()?).map_err(|e| Failure::Store(e.to_string()))?;
    Ok(attachment(&doc.id, "csv", "text/csv; charset=utf-8", text))
}

async fn export_json(State(app): State<App>, Path(id): Path<String>) -> Result<Response, Failure> {
    let doc = load(&app, &id).await?;
    let text =
        serde_json::to_string_pretty(&doc.view()?).map_err(|e| Failure::Store(e.to_string()))?;
    Ok(attachment(&doc.id, "json", "application/json", text))
}

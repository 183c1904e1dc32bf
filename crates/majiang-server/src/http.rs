//! The routes: the embedded UI, the JSON API, tile pictures and the WebSocket.

use crate::app::{App, AppError};
use crate::client_addr::ClientAddr;
use crate::cluster::Located;
use crate::metrics::METRICS;
use crate::protocol::{ClientMsg, MAX_CLIENT_MESSAGE, RoomConfig, ServerMsg};
use crate::refusal::error;
use crate::room::Cmd;
use crate::static_files::{page, serve as serve_file};
use crate::words::{Words, api, config, ws};
use crate::{incident, replay, svg};
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use std::future::Future;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::sync::{Notify, mpsc, oneshot};
use tokio::time::Instant;

/// Messages a connection may send per second on average, and in a burst.
const RATE_PER_SEC: f64 = 20.0;
const RATE_BURST: f64 = 40.0;
/// Refused messages after which the connection is closed.
const MAX_STRIKES: u32 = 50;
/// A connection's read buffer: twice the longest message a client may send.
const READ_BUFFER: usize = 2 * MAX_CLIENT_MESSAGE;
/// A list page when none is asked for, and the largest one given.
const PAGE: usize = 100;
const MAX_PAGE: usize = 500;

/// The server's routes over `app`.
pub fn router(app: App) -> Router {
    Router::new()
        .route("/", page("index.html"))
        .route("/history", page("history.html"))
        .route("/favicon.ico", page("favicon.svg"))
        .route("/tile/{name}", get(tile))
        .route("/api/matches", get(list_matches))
        .route("/api/rulesets", page(crate::static_files::RULE_SETS))
        .route("/api/bots", get(bot_kinds))
        .route("/api/timers", get(default_timers))
        .route("/api/rooms", post(create_room).get(list_rooms))
        .route("/api/rooms/{id}", get(room_info))
        .route("/api/rooms/{id}/log", get(room_log))
        .route("/api/rooms/{id}/replay", get(room_replay))
        .route("/api/rooms/{id}/log.jsonl", get(room_jsonl))
        .route(
            "/api/rooms/{id}/review",
            get(crate::review::room_review).post(crate::review::start_review),
        )
        .route(
            "/api/rooms/{id}/review/{job}",
            get(crate::review::review_job),
        )
        .route("/ws/{id}", get(ws))
        .merge(crate::companion::routes())
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .fallback(get(static_file))
        .with_state(app)
}

/// Serves `app` on `listener` until `shutdown` completes, then closes every WebSocket and
/// waits for the connections to end (the requests and writes in flight finish). Connections
/// are counted and capped, and each request's headers timed, as [`crate::Limits`] says.
pub async fn serve(
    listener: TcpListener,
    app: App,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let closer = app.clone();
    let limits = app.limits().clone();
    let gate = app.inner.gate.clone();
    crate::listen::serve(listener, router(app), limits, gate, shutdown, move || {
        closer.shut_down()
    })
    .await
}

/// A page of a list: `?offset=N&limit=M`.
#[derive(Deserialize)]
struct Page {
    offset: Option<usize>,
    limit: Option<usize>,
}

impl Page {
    fn bounds(&self) -> (usize, usize) {
        (
            self.offset.unwrap_or(0),
            self.limit.unwrap_or(PAGE).min(MAX_PAGE),
        )
    }
}

/// A `500` that tells the client a short message and an incident id; the details go to the
/// log.
pub(crate) fn internal(e: &AppError) -> Response {
    let what = match e {
        AppError::Store(_) => &api::STORAGE_FAILED,
        _ => &api::SERVER_FAILED,
    };
    error(StatusCode::INTERNAL_SERVER_ERROR, incident::told(what, e))
}

/// A refusal of the client's (settings, limits) in words; a failure of the server's as `500`.
fn refused(status: StatusCode, e: &AppError) -> Response {
    match e.words() {
        Some(why) => error(status, why),
        None => internal(e),
    }
}

/// Any other path: the embedded UI file of that name (`/js/table.js` is `web/js/table.js`).
async fn static_file(headers: axum::http::HeaderMap, uri: Uri) -> Response {
    serve_file(uri.path().trim_start_matches('/'), &headers, &uri)
}

impl AppError {
    /// What a person is told of a refusal that is theirs to fix (settings, limits); `None`
    /// for failures of the server.
    pub(crate) fn words(&self) -> Option<Words> {
        match self {
            AppError::Config(e) => Some(e.0.clone()),
            AppError::Full(n) => Some(api::FULL.with([(*n).into()])),
            AppError::Throttled { what, by } => Some(
                match (*what, by.is_empty()) {
                    ("rooms", false) => &api::ROOMS_THROTTLED_ADDRESS,
                    ("rooms", true) => &api::ROOMS_THROTTLED,
                    (_, false) => &api::LEDGERS_THROTTLED_ADDRESS,
                    (_, true) => &api::LEDGERS_THROTTLED,
                }
                .plain(),
            ),
            _ => None,
        }
    }
}

async fn tile(Path(name): Path<String>) -> Response {
    let name = name.strip_suffix(".svg").unwrap_or(&name);
    match svg::tile_svg_by_name(name) {
        Some(body) => (
            [
                (header::CONTENT_TYPE, "image/svg+xml"),
                (header::CACHE_CONTROL, "public, max-age=86400"),
            ],
            body,
        )
            .into_response(),
        None => error(StatusCode::NOT_FOUND, api::NO_TILE.with([name.into()])),
    }
}

/// The bot kinds a seat may take: the levels, and the external bots the administrator allowed.
async fn bot_kinds(State(app): State<App>) -> Response {
    let levels: Vec<&str> = majiang::bots::LEVELS
        .iter()
        .map(|(level, _)| *level)
        .collect();
    Json(serde_json::json!({
        "levels": levels,
        "external": app.external_bots().kinds(),
    }))
    .into_response()
}

/// The timers a room of people gets where its creator chose none (`serve --claim-timeout-ms`,
/// `--turn-timeout-ms`; 0: off): the lobby names them in its "server default" choice.
async fn default_timers(State(app): State<App>) -> Response {
    let limits = app.limits();
    Json(serde_json::json!({
        "claim_timeout_ms": limits.claim_timeout_ms,
        "turn_timeout_ms": limits.turn_timeout_ms,
    }))
    .into_response()
}

async fn create_room(
    State(app): State<App>,
    ClientAddr(addr): ClientAddr,
    body: axum::body::Bytes,
) -> Response {
    if body.len() > 16 * 1024 {
        return error(
            StatusCode::PAYLOAD_TOO_LARGE,
            config::TOO_LARGE.with([16.into()]),
        );
    }
    let config: RoomConfig = match serde_json::from_slice(&body) {
        Ok(c) => c,
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                config::UNREADABLE.with([e.to_string().into()]),
            );
        }
    };
    if let Err(e) = app.throttle_room(addr) {
        METRICS.creation_throttled();
        return refused(StatusCode::TOO_MANY_REQUESTS, &e);
    }
    match app.create_room(config).await {
        Ok(created) => (StatusCode::CREATED, Json(created)).into_response(),
        Err(e @ AppError::Config(_)) => refused(StatusCode::BAD_REQUEST, &e),
        Err(e @ AppError::Full(_)) => refused(StatusCode::SERVICE_UNAVAILABLE, &e),
        Err(e) => internal(&e),
    }
}

/// The lobby's rooms, a page at a time (`X-Total-Count`: how many in all).
async fn list_rooms(State(app): State<App>, Query(page): Query<Page>) -> Response {
    let all = app.rooms();
    let total = all.len();
    let (offset, limit) = page.bounds();
    let page: Vec<_> = all.into_iter().skip(offset).take(limit).collect();
    ([("x-total-count", total.to_string())], Json(page)).into_response()
}

/// The finished matches, newest first, a page at a time, from the store.
async fn list_matches(State(app): State<App>, Query(page): Query<Page>) -> Response {
    let (offset, limit) = page.bounds();
    match app.finished_matches(offset as u64, limit as u64).await {
        Ok((page, total)) => ([("x-total-count", total.to_string())], Json(page)).into_response(),
        Err(e) => internal(&e),
    }
}

async fn room_info(State(app): State<App>, Path(id): Path<String>, uri: Uri) -> Response {
    // A finished room not in memory is answered from the store: loading it to answer would
    // let a stranger fill memory by asking for every finished room.
    if app.room(&id).is_none() {
        match app.finished_room(&id).await {
            Ok(Some(finished)) => return Json(&finished.summary).into_response(),
            Ok(None) => {}
            Err(e) => return internal(&e),
        }
    }
    match app.locate(&id).await {
        Ok(Located::Here(r)) => Json(r.summary()).into_response(),
        Ok(Located::Elsewhere(owner)) => moved(&owner, &uri),
        Ok(Located::Missing) => error(StatusCode::NOT_FOUND, api::NO_SUCH_ROOM.plain()),
        Err(e @ AppError::Full(_)) => refused(StatusCode::SERVICE_UNAVAILABLE, &e),
        Err(e) => internal(&e),
    }
}

/// A `307` to the same path and query on the node that runs the room.
fn moved(owner: &str, uri: &Uri) -> Response {
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    (
        StatusCode::TEMPORARY_REDIRECT,
        [(header::LOCATION, format!("{owner}{path}"))],
    )
        .into_response()
}

/// How long `/healthz` waits for the database: a frozen database must not freeze the check.
const HEALTH_PING: std::time::Duration = std::time::Duration::from_millis(500);

/// `200 ok` while the process serves and its database answers; else `503`, at once when the
/// database refuses and within [`HEALTH_PING`] when it does not answer (`"degraded"`).
async fn healthz(State(app): State<App>) -> Response {
    let status = |status: &str| {
        serde_json::json!({
            "status": status,
            "store": app.store().engine(),
            "node": app.node().map(|n| n.name.clone()),
            "rooms": app.open_rooms(),
        })
    };
    match tokio::time::timeout(HEALTH_PING, app.store().ping()).await {
        Ok(Ok(_)) => Json(status("ok")).into_response(),
        Ok(Err(e)) => {
            METRICS.store_error();
            error(
                StatusCode::SERVICE_UNAVAILABLE,
                incident::told(&api::DATABASE_DOWN, &e),
            )
        }
        Err(_) => {
            METRICS.store_error();
            let mut body = status("degraded");
            body["error"] = format!(
                "the database did not answer within {} ms",
                HEALTH_PING.as_millis()
            )
            .into();
            (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response()
        }
    }
}

/// The process's figures in the Prometheus text format.
async fn metrics(State(app): State<App>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        METRICS.render(app.open_rooms(), app.rooms_in_memory()),
    )
        .into_response()
}

/// The match log of a finished match (before the end it would reveal the seed, hence the wall).
async fn room_log(State(app): State<App>, Path(id): Path<String>) -> Response {
    match replay::finished_log(app.store().as_ref(), &id).await {
        Ok(log) => Json(log).into_response(),
        Err(e) => e.into_response(),
    }
}

/// The library's JSON-lines log of a finished match (`majiang::table::replay` checks it).
async fn room_jsonl(State(app): State<App>, Path(id): Path<String>) -> Response {
    match replay::finished_log(app.store().as_ref(), &id)
        .await
        .and_then(|log| replay::jsonl(&log))
    {
        Ok(text) => ([(header::CONTENT_TYPE, "application/x-ndjson")], text).into_response(),
        Err(e) => e.into_response(),
    }
}

async fn room_replay(State(app): State<App>, Path(id): Path<String>) -> Response {
    match replay::finished_log(app.store().as_ref(), &id)
        .await
        .and_then(|log| replay::frames(&log))
    {
        Ok(frames) => Json(frames).into_response(),
        Err(e) => e.into_response(),
    }
}

impl IntoResponse for replay::ReplayError {
    fn into_response(self) -> Response {
        match self {
            replay::ReplayError::NoSuchRoom => {
                error(StatusCode::NOT_FOUND, api::NO_SUCH_ROOM.plain())
            }
            replay::ReplayError::NotFinished => {
                error(StatusCode::FORBIDDEN, api::REPLAY_NOT_FINISHED.plain())
            }
            // Not a fault: the match was played under an earlier revision of the rules.
            replay::ReplayError::EarlierRules {
                seq,
                rule,
                revision,
            } => error(
                StatusCode::UNPROCESSABLE_ENTITY,
                replay::earlier_rules_words(seq, rule, revision),
            ),
            e => error(
                StatusCode::INTERNAL_SERVER_ERROR,
                incident::told(&api::LOG_UNREADABLE, &e),
            ),
        }
    }
}

/// A WebSocket's query: `token` (a seat's; none: a spectator), `deltas` (`1`: after the
/// first whole `state`, send what changed as `state_delta`s; `0` or none: whole states) and
/// `device` (the client's device id: a seat opened with another device's id takes the seat
/// there; without one, connections share the seat).
#[derive(Deserialize)]
struct WsQuery {
    token: Option<String>,
    deltas: Option<String>,
    device: Option<String>,
}

impl WsQuery {
    /// Whether the client asked for `state_delta`s; a value other than `0` or `1` is refused
    /// (`400`, in these words): a client that asks for something this server does not know is
    /// told so, rather than sent what it may not read.
    fn deltas(&self) -> Result<bool, Words> {
        match self.deltas.as_deref() {
            None | Some("0") => Ok(false),
            Some("1") => Ok(true),
            Some(other) => Err(api::BAD_DELTAS.with([other.into()])),
        }
    }

    /// The client's device id, if it gave one: 1 to 64 letters, digits, `-` or `_` (anything
    /// else is refused: `400`, in these words).
    fn device(&self) -> Result<Option<String>, Words> {
        match self.device.as_deref() {
            None | Some("") => Ok(None),
            Some(d)
                if d.len() <= 64
                    && d.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') =>
            {
                Ok(Some(d.to_string()))
            }
            Some(other) => {
                let shown: String = other.chars().take(64).collect();
                Err(api::BAD_DEVICE.with([shown.into()]))
            }
        }
    }
}

async fn ws(
    ws: WebSocketUpgrade,
    State(app): State<App>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    uri: Uri,
) -> Response {
    let (deltas, device) = match (q.deltas(), q.device()) {
        (Ok(d), Ok(device)) => (d, device),
        (Err(why), _) | (_, Err(why)) => return error(StatusCode::BAD_REQUEST, why),
    };
    // A finished room not in memory is answered from the store, as `GET /api/rooms/ID` is.
    if app.room(&id).is_none() {
        match app.finished_room(&id).await {
            Ok(Some(finished)) => {
                return match finished.greeting(q.token.as_deref()) {
                    Some(said) => ws_said(ws, &said),
                    None => error(StatusCode::FORBIDDEN, api::BAD_TOKEN.plain()),
                };
            }
            Ok(None) => {}
            Err(e) => return internal(&e),
        }
    }
    let room = match app.locate(&id).await {
        Ok(Located::Here(room)) => room,
        // Browsers do not follow a redirect on a WebSocket: say where in a message instead.
        Ok(Located::Elsewhere(owner)) => return ws_moved(ws, &owner, &uri),
        Ok(Located::Missing) => return error(StatusCode::NOT_FOUND, api::NO_SUCH_ROOM.plain()),
        Err(e @ AppError::Full(_)) => {
            return refused(StatusCode::SERVICE_UNAVAILABLE, &e);
        }
        Err(e) => return internal(&e),
    };
    let seat = match q.token.as_deref() {
        None | Some("") => None,
        Some(t) => match room.seat_for_token(t) {
            Some(s) => Some(s),
            None => return error(StatusCode::FORBIDDEN, api::BAD_TOKEN.plain()),
        },
    };
    let shutdown = app.shutdown_signal();
    let quiet = Quiet {
        ping: app.limits().ws_ping,
        idle: app.limits().ws_idle,
    };
    // A client sends short messages: a small read buffer (tungstenite zeroes the whole of it
    // before each read; its default, 128 KiB, was 8 % of the server's time at 4,000
    // connections, and 500 MB of memory).
    ws.max_message_size(MAX_CLIENT_MESSAGE)
        .max_frame_size(MAX_CLIENT_MESSAGE)
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| {
            let opening = Opening {
                seat,
                deltas,
                device,
            };
            connection(socket, room.tx.clone(), opening, shutdown, quiet)
        })
}

/// Accepts the WebSocket only to send `moved` with the owner's URL for it, then closes.
fn ws_moved(ws: WebSocketUpgrade, owner: &str, uri: &Uri) -> Response {
    let ws_owner = owner
        .replacen("https://", "wss://", 1)
        .replacen("http://", "ws://", 1);
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    let msg = ServerMsg::Moved {
        url: format!("{ws_owner}{path}"),
    };
    ws_said(ws, std::slice::from_ref(&msg))
}

/// Accepts the WebSocket only to send `said`, then closes it.
fn ws_said(ws: WebSocketUpgrade, said: &[ServerMsg]) -> Response {
    let texts: Vec<String> = said
        .iter()
        .map(|m| serde_json::to_string(m).unwrap_or_default())
        .collect();
    ws.on_upgrade(move |mut socket| async move {
        for text in texts {
            if socket.send(Message::Text(text.into())).await.is_err() {
                return;
            }
        }
        let _ = socket.close().await;
    })
}

/// A token bucket: `RATE_PER_SEC` messages a second, bursts up to `RATE_BURST`.
struct RateLimit {
    tokens: f64,
    last: Instant,
}

impl RateLimit {
    fn new() -> RateLimit {
        RateLimit {
            tokens: RATE_BURST,
            last: Instant::now(),
        }
    }

    fn allow(&mut self) -> bool {
        let now = Instant::now();
        let dt = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * RATE_PER_SEC).min(RATE_BURST);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// When a silent WebSocket is pinged, and closed.
#[derive(Debug, Clone, Copy)]
struct Quiet {
    ping: std::time::Duration,
    idle: std::time::Duration,
}

/// What a WebSocket opens: a seat (or none), how it wants its states, its device id.
struct Opening {
    seat: Option<usize>,
    deltas: bool,
    device: Option<String>,
}

async fn connection(
    socket: WebSocket,
    room: tokio::sync::mpsc::Sender<Cmd>,
    Opening {
        seat,
        deltas,
        device,
    }: Opening,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
    quiet: Quiet,
) {
    let (mut sink, mut stream) = socket.split();
    let (out, mut outbox) = mpsc::channel::<Utf8Bytes>(512);
    let (pinger, mut pings) = mpsc::channel::<()>(1);
    let (reply, conn) = oneshot::channel();
    let kick = Arc::new(Notify::new());
    if room
        .send(Cmd::Connect {
            seat,
            deltas,
            device,
            out: out.clone(),
            kick: kick.clone(),
            reply,
        })
        .await
        .is_err()
    {
        return;
    }
    let Ok(conn) = conn.await else { return };
    METRICS.connections_changed(1);
    // The connection's writer: every message queued by then goes out in one batch, with one
    // flush (not one per message).
    let writer = tokio::spawn(async move {
        loop {
            let frame = tokio::select! {
                text = outbox.recv() => match text {
                    Some(text) => Message::Text(text),
                    None => break,
                },
                Some(()) = pings.recv() => Message::Ping(Default::default()),
            };
            if sink.feed(frame).await.is_err() {
                break;
            }
            let mut fed = true;
            while let Ok(text) = outbox.try_recv() {
                if sink.feed(Message::Text(text)).await.is_err() {
                    fed = false;
                    break;
                }
            }
            if !fed || sink.flush().await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let mut limit = RateLimit::new();
    let mut strikes = 0u32;
    let refuse = |why: Words| {
        let msg = ServerMsg::refusal(None, &why);
        serde_json::to_string(&msg).map(Utf8Bytes::from).ok()
    };
    let mut heard = Instant::now();
    let check_every = (quiet.ping.min(quiet.idle) / 2).max(std::time::Duration::from_millis(10));
    let mut check = tokio::time::interval_at(Instant::now() + check_every, check_every);
    loop {
        let msg = tokio::select! {
            m = stream.next() => m,
            _ = shutdown.wait_for(|s| *s) => break,
            _ = kick.notified() => break,
            _ = check.tick() => {
                let silent = heard.elapsed();
                if silent >= quiet.idle {
                    break;
                }
                if silent >= quiet.ping {
                    let _ = pinger.try_send(());
                }
                continue;
            }
        };
        let Some(Ok(msg)) = msg else { break };
        heard = Instant::now();
        if let Message::Close(_) = msg {
            break;
        }
        // Every frame counts against the rate, whatever its kind.
        if !limit.allow() {
            strikes += 1;
            if strikes > MAX_STRIKES {
                break;
            }
            if let Some(e) = refuse(ws::RATE_LIMITED.plain()) {
                let _ = out.try_send(e);
            }
            continue;
        }
        let text = match msg {
            Message::Text(t) => t,
            Message::Ping(_) | Message::Pong(_) | Message::Close(_) => continue,
            Message::Binary(_) => {
                strikes += 1;
                if strikes > MAX_STRIKES {
                    break;
                }
                if let Some(e) = refuse(ws::BINARY.plain()) {
                    let _ = out.try_send(e);
                }
                continue;
            }
        };
        if text.len() > MAX_CLIENT_MESSAGE {
            strikes += 1;
            if let Some(e) = refuse(ws::TOO_LONG.with([MAX_CLIENT_MESSAGE.into()])) {
                let _ = out.try_send(e);
            }
        } else {
            match serde_json::from_str::<ClientMsg>(text.as_str()) {
                Ok(msg) => {
                    if room.send(Cmd::Client { conn, msg }).await.is_err() {
                        break;
                    }
                }
                Err(e) => {
                    strikes += 1;
                    if let Some(e) = refuse(ws::BAD_MESSAGE.with([e.to_string().into()])) {
                        let _ = out.try_send(e);
                    }
                }
            }
        }
        if strikes > MAX_STRIKES {
            break;
        }
    }
    let _ = room.send(Cmd::Disconnect { conn }).await;
    METRICS.connections_changed(-1);
    drop(out);
    drop(pinger);
    // The room drops its copy of the outbox on Disconnect; the writer then ends.
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), writer).await;
}

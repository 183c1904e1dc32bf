//! A ledger kept live on every device that has it open: `GET /api/ledgers/{id}/live` is a
//! stream of server-sent events, each event (`ledger`) the whole ledger view as JSON — first the
//! ledger as it is, then again after every change. A change made through this process is sent
//! at once ([`changed`]); one made by another server process sharing the database is seen within
//! [`RECHECK`] by reading the stored document again.

use super::{Failure, load_text};
use crate::app::App;
use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream};
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{LazyLock, Mutex};
use std::time::Duration;
use tokio::sync::broadcast;

/// How often an open stream reads the stored ledger again (changes from other processes).
pub const RECHECK: Duration = Duration::from_secs(3);

/// The open streams' wake-up channels, by ledger id.
static WATCHERS: LazyLock<Mutex<HashMap<String, broadcast::Sender<()>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

fn channel(id: &str) -> broadcast::Receiver<()> {
    let mut map = WATCHERS.lock().unwrap_or_else(|p| p.into_inner());
    // Channels nobody listens to any more go when the next stream opens.
    map.retain(|_, tx| tx.receiver_count() > 0);
    map.entry(id.to_string())
        .or_insert_with(|| broadcast::channel(16).0)
        .subscribe()
}

/// Tells the open streams of ledger `id` that it changed.
pub fn changed(id: &str) {
    let map = WATCHERS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(tx) = map.get(id) {
        let _ = tx.send(());
    }
}

/// What a stream remembers between events.
struct Watch {
    app: App,
    id: String,
    rx: broadcast::Receiver<()>,
    /// The stored document last sent (none yet: send the first at once).
    sent: Option<String>,
}

/// The ledger view as an event when the stored document differs from the one last sent;
/// `None` to end the stream (the ledger is gone).
async fn next_event(w: &mut Watch) -> Option<Event> {
    loop {
        if w.sent.is_some() {
            // Woken by a change here, or the recheck for changes elsewhere.
            let _ = tokio::time::timeout(RECHECK, w.rx.recv()).await;
        }
        let (doc, text) = match load_text(&w.app, &w.id).await {
            Ok(found) => found,
            Err(Failure::NotFound) => return None,
            // The store may be back in a moment: try again at the next recheck.
            Err(_) => {
                w.sent.get_or_insert_with(String::new);
                continue;
            }
        };
        if w.sent.as_deref() == Some(text.as_str()) {
            continue;
        }
        w.sent = Some(text);
        let Ok(view) = doc.view() else { continue };
        let Ok(json) = serde_json::to_string(&view) else {
            continue;
        };
        return Some(Event::default().event("ledger").data(json));
    }
}

/// `GET /api/ledgers/{id}/live`: the ledger as server-sent events; `404` for no such ledger.
pub async fn live(State(app): State<App>, Path(id): Path<String>) -> Response {
    if let Err(e) = load_text(&app, &id).await {
        return e.into_response();
    }
    let watch = Watch {
        rx: channel(&id),
        app,
        id,
        sent: None,
    };
    let events: std::pin::Pin<Box<dyn Stream<Item = Result<Event, Infallible>> + Send>> =
        Box::pin(stream::unfold(watch, |mut w| async move {
            next_event(&mut w).await.map(|e| (Ok(e), w))
        }));
    Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response()
}

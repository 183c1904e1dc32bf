//! The process's figures for `/metrics`, in the Prometheus text format (`prometheus-client`):
//! rooms, connections, stored actions, the acknowledgement latency, storage errors, requests
//! cut by a time limit, and in a cluster the rooms taken over and the writes refused by a
//! fence, the outside bots dismissed by reason. One set
//! per process, like Prometheus's own default registry: the room tasks and the connections
//! count into it wherever they run.

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use std::sync::LazyLock;
use std::time::Duration;

/// The process's figures.
pub struct Metrics {
    registry: Registry,
    rooms: Gauge,
    connections: Gauge,
    actions: Counter,
    ack_latency: Histogram,
    store_errors: Counter,
    taken_over: Counter,
    fenced: Counter,
    refused: Counter,
    throttled: Counter,
    in_memory: Gauge,
    hints_dropped: Counter,
    hints_waiting: Gauge,
    reviews_refused: Counter,
    outside_bots_dismissed: Family<Vec<(String, String)>, Counter>,
    requests_timed_out: Counter,
    headers_timed_out: Counter,
}

/// The one set of figures of this process.
pub static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

impl Metrics {
    fn new() -> Metrics {
        let mut registry = Registry::with_prefix("majiang");
        let rooms = Gauge::default();
        let connections = Gauge::default();
        let actions = Counter::default();
        // 0.25 ms to about 4 s.
        let ack_latency = Histogram::new(exponential_buckets(0.000_25, 2.0, 15));
        let store_errors = Counter::default();
        let taken_over = Counter::default();
        let fenced = Counter::default();
        let refused = Counter::default();
        let throttled = Counter::default();
        let in_memory = Gauge::default();
        let hints_dropped = Counter::default();
        let hints_waiting = Gauge::default();
        let reviews_refused = Counter::default();
        let outside_bots_dismissed = Family::<Vec<(String, String)>, Counter>::default();
        registry.register(
            "outside_bots_dismissed",
            "Outside bots (ext:NAME seats) dismissed from their seats, by reason (crashed, timeout, malformed, illegal, version); efficient plays on",
            outside_bots_dismissed.clone(),
        );
        let requests_timed_out = Counter::default();
        let headers_timed_out = Counter::default();
        registry.register(
            "requests_timed_out",
            "Requests answered 408 because their body did not arrive, or their answer was not ready, within the request time limit (--request-timeout-secs)",
            requests_timed_out.clone(),
        );
        registry.register(
            "headers_timed_out",
            "Connections closed because a request's headers did not arrive within the header time limit (--header-timeout-secs)",
            headers_timed_out.clone(),
        );
        registry.register(
            "hints_dropped",
            "Learners' hints dropped because the hint queue was full (the person was told the expert is busy)",
            hints_dropped.clone(),
        );
        registry.register(
            "hints_waiting",
            "Hint jobs waiting for a slot to be worked out",
            hints_waiting.clone(),
        );
        registry.register(
            "reviews_refused",
            "Match reviews refused because every review job kept was unfinished",
            reviews_refused.clone(),
        );
        registry.register(
            "connections_refused",
            "TCP connections refused at a connection cap (in total or per client address)",
            refused.clone(),
        );
        registry.register(
            "creations_throttled",
            "Room and ledger creations refused by the creation rate limits",
            throttled.clone(),
        );
        registry.register(
            "rooms_in_memory",
            "Rooms this process holds in memory (waiting, in play, finished and not yet unloaded)",
            in_memory.clone(),
        );
        registry.register(
            "rooms",
            "Rooms this process runs that are waiting or in play",
            rooms.clone(),
        );
        registry.register(
            "connections",
            "Open WebSocket connections to this process",
            connections.clone(),
        );
        registry.register(
            "actions",
            "Actions stored and applied by this process (rate() gives actions per second)",
            actions.clone(),
        );
        registry.register(
            "ack_latency_seconds",
            "From a player's action reaching its room to its acknowledgement (store write included)",
            ack_latency.clone(),
        );
        registry.register(
            "store_errors",
            "Database operations that failed",
            store_errors.clone(),
        );
        registry.register(
            "rooms_taken_over",
            "Unfinished rooms this process took a lease on and loaded from the store (their owner died, stopped or lost its lease, or they were unloaded)",
            taken_over.clone(),
        );
        registry.register(
            "writes_fenced",
            "Room writes refused because another process holds the room's lease now (this process stopped running the room)",
            fenced.clone(),
        );
        Metrics {
            registry,
            rooms,
            connections,
            actions,
            ack_latency,
            store_errors,
            taken_over,
            fenced,
            refused,
            throttled,
            in_memory,
            hints_dropped,
            hints_waiting,
            reviews_refused,
            outside_bots_dismissed,
            requests_timed_out,
            headers_timed_out,
        }
    }

    /// An outside bot was dismissed, for `reason` (`crashed`, `timeout`, ...).
    pub fn outside_bot_dismissed(&self, reason: &str) {
        self.outside_bots_dismissed
            .get_or_create(&vec![("reason".to_string(), reason.to_string())])
            .inc();
    }

    /// A request was answered 408: past the request time limit.
    pub fn request_timed_out(&self) {
        self.requests_timed_out.inc();
    }

    /// A connection was closed: its request's headers did not arrive in time.
    pub fn headers_timed_out(&self) {
        self.headers_timed_out.inc();
    }

    /// A hint job was dropped: the hint queue was full.
    pub fn hint_dropped(&self) {
        self.hints_dropped.inc();
    }

    /// `n` hint jobs wait now.
    pub fn hints_waiting(&self, n: usize) {
        self.hints_waiting.set(n as i64);
    }

    /// A review was refused: every review job kept was unfinished.
    pub fn review_refused(&self) {
        self.reviews_refused.inc();
    }

    /// A connection was refused at a cap.
    pub fn connection_refused(&self) {
        self.refused.inc();
    }

    /// A creation was refused by a rate limit.
    pub fn creation_throttled(&self) {
        self.throttled.inc();
    }

    /// An action was stored and applied.
    pub fn action_stored(&self) {
        self.actions.inc();
    }

    /// A player's action was acknowledged `latency` after its room took it up.
    pub fn acked(&self, latency: Duration) {
        self.ack_latency.observe(latency.as_secs_f64());
    }

    /// A database operation failed.
    pub fn store_error(&self) {
        self.store_errors.inc();
    }

    /// A room was taken over under a new lease.
    pub fn room_taken_over(&self) {
        self.taken_over.inc();
    }

    /// A room's write was refused by its fence: another process runs the room.
    pub fn write_fenced(&self) {
        self.fenced.inc();
    }

    /// A WebSocket connection opened (`+1`) or closed (`-1`).
    pub fn connections_changed(&self, by: i64) {
        self.connections.inc_by(by);
    }

    /// The text for `/metrics`, with `rooms` rooms open now and `in_memory` held.
    pub fn render(&self, rooms: usize, in_memory: usize) -> String {
        self.rooms.set(rooms as i64);
        self.in_memory.set(in_memory as i64);
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = encode(&mut out, &self.registry);
        out
    }
}

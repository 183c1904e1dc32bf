//! The server's resource limits, in one place: every one has a default chosen for a small
//! public server (the book's docs/hosting/limits.md gives each with its `majiang serve` flag
//! and environment variable, and why), so a hostile or careless client can fill neither memory,
//! nor file descriptors, nor the database.

use std::time::Duration;

/// Every limit the server enforces.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// Most rooms waiting or in play in memory at once (a room is a task with its match).
    pub max_rooms: usize,
    /// Rooms one client address may create per minute (a burst of as many, then one every
    /// `60 / n` seconds).
    pub rooms_per_minute: u32,
    /// Rooms all clients together may create per minute.
    pub rooms_per_minute_total: u32,
    /// Ledgers one client address may create per minute.
    pub ledgers_per_minute: u32,
    /// Ledgers all clients together may create per minute.
    pub ledgers_per_minute_total: u32,
    /// A waiting room nobody is connected to expires after this long: it leaves memory and
    /// the store (a restart does not rebuild it; its links then find no room).
    pub waiting_idle: Duration,
    /// A match in play with person seats and no person connected leaves memory after this
    /// long, and resumes from the store when someone comes back. Matches of bots only play on
    /// (their length is bounded, see [`crate::protocol::MAX_MATCH_HANDS`]).
    pub unattended: Duration,
    /// A finished match stays in memory this long after its last person left (for its final
    /// result); its history, log and replay are served from the store.
    pub finished_linger: Duration,
    /// Bytes of finished rooms' summaries kept for `GET /api/rooms/ID` (a finished room not in
    /// memory is answered from the store and its summary kept here, oldest dropped first).
    pub finished_cache_bytes: usize,
    /// Most open TCP connections (HTTP and WebSocket) at once.
    pub max_connections: usize,
    /// Most open TCP connections from one client address. Behind a trusted proxy
    /// ([`Limits::trust_forwarded_for`]): most requests in progress and WebSockets open of one
    /// forwarded address.
    pub max_connections_per_address: usize,
    /// Time a client has to send a request's headers (also the idle time allowed between two
    /// requests on a kept-alive connection).
    pub header_timeout: Duration,
    /// Time a request has, from its headers, for its body to arrive and its answer to be
    /// ready: past it the client is answered 408 and the connection closed (a body dripped a
    /// byte at a time holds a connection no longer than this).
    pub request_timeout: Duration,
    /// A WebSocket that sent nothing for this long is pinged.
    pub ws_ping: Duration,
    /// A WebSocket that sent nothing (not even a pong) for this long is closed.
    pub ws_idle: Duration,
    /// Take the client address from the last `X-Forwarded-For` entry (only behind a reverse
    /// proxy that sets it: otherwise clients could pick their own address).
    pub trust_forwarded_for: bool,
    /// Learners' hints worked out at once across the server (each is tens of milliseconds of
    /// CPU on a blocking thread). 0 works none out: every hint waits, and the queue fills.
    pub hints_at_once: usize,
    /// Threads the rooms with expert seats (`expert`, `hard`, `expert:N`) run on, taking
    /// turns: the CPU the server spends on expert seats is at most this
    /// many cores, whatever the number of such rooms (see `room::expert_pool`).
    pub bot_searches_at_once: usize,
    /// Most hint jobs waiting for those slots. A newer job for the same connection replaces its
    /// waiting one (a stale hint is useless); past the cap a new job is dropped, counted in
    /// `/metrics`, and the person is told the expert is busy.
    pub hint_queue: usize,
    /// Match reviews worked out at once (each is seconds of CPU on a blocking thread).
    pub reviews_at_once: usize,
    /// Most review jobs kept: waiting, working and finished. A new one drops the oldest
    /// finished one; when all are unfinished it is refused (503).
    pub review_jobs: usize,
    /// A finished review's result is kept this long for its page to fetch.
    pub review_keep: Duration,
    /// The claim timer, in milliseconds, of the rooms with two or more person seats whose
    /// creator sets none (0: off; else 500 to 600000, as a room's own): the time a person has
    /// to claim a discard, and so the claim window every discard of such a room waits out
    /// (PROTOCOL.md, "What timing tells"). Written into each room's settings as it is created.
    pub claim_timeout_ms: u64,
    /// The turn timer, in milliseconds, of the rooms with two or more person seats whose
    /// creator sets none (0: off; else 500 to 600000): the time a person has for a turn before
    /// the efficient bot plays it. Written into each room's settings as it is created.
    pub turn_timeout_ms: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_rooms: 5000,
            rooms_per_minute: 20,
            rooms_per_minute_total: 600,
            ledgers_per_minute: 20,
            ledgers_per_minute_total: 600,
            waiting_idle: Duration::from_secs(3600),
            unattended: Duration::from_secs(600),
            finished_linger: Duration::from_secs(60),
            finished_cache_bytes: 4 << 20,
            max_connections: 4096,
            max_connections_per_address: 64,
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(15),
            ws_ping: Duration::from_secs(30),
            ws_idle: Duration::from_secs(75),
            trust_forwarded_for: false,
            hints_at_once: 2,
            hint_queue: 64,
            bot_searches_at_once: 1,
            reviews_at_once: 1,
            review_jobs: 16,
            review_keep: Duration::from_secs(300),
            claim_timeout_ms: crate::protocol::DEFAULT_CLAIM_TIMEOUT_MS,
            turn_timeout_ms: crate::protocol::DEFAULT_TURN_TIMEOUT_MS,
        }
    }
}

impl Limits {
    /// Refuses room timers out of a room's own bounds (see [`crate::protocol::check_timer`]).
    pub fn check(&self) -> Result<(), crate::protocol::BadConfig> {
        crate::protocol::check_timer("claim_timeout_ms", self.claim_timeout_ms)?;
        crate::protocol::check_timer("turn_timeout_ms", self.turn_timeout_ms)
    }

    /// How often the room sweeper looks for rooms to unload: often enough that a room leaves
    /// memory soon after its time is up.
    pub(crate) fn sweep_every(&self) -> Duration {
        let shortest = self
            .waiting_idle
            .min(self.unattended)
            .min(self.finished_linger);
        (shortest / 4).clamp(Duration::from_millis(20), Duration::from_secs(10))
    }
}

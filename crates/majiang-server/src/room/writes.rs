//! The room's writes: one at a time, sent when begun; once stored, what it was for happens
//! (an action applied, acknowledged and shown; the match started; the match marked finished).
//! A failed write is tried again with backoff, the same write each time; a fenced one stops
//! the room.

use super::io::{Output, WriteFailure};
use super::state::Room;
use super::work::Pending;
use crate::protocol::{RoomStatus, ServerMsg};
use crate::words::Words;

/// The first retry of a failed write waits this long; each next one twice as long, up to
/// [`RETRY_MAX_MS`].
pub const RETRY_FIRST_MS: u64 = 100;
/// The longest wait between two tries of a write (a room resumes within this long after the
/// store is back).
pub const RETRY_MAX_MS: u64 = 500;

/// The failed writes' log lines, for every room of the process: an outage says so every few
/// seconds, not twice a second a room (see [`crate::quiet`]).
static FAILED: crate::quiet::Quiet = crate::quiet::Quiet::new();
/// The same for writes refused because the lease ran out.
static LAPSED: crate::quiet::Quiet = crate::quiet::Quiet::new();

impl Room {
    /// Starts a write: it is sent now, and what it is for happens when it is stored.
    pub(super) fn begin(&mut self, p: Pending, out: &mut Vec<Output>) {
        out.push(Output::Write(p.write()));
        self.pending = Some(p);
        self.in_flight = true;
        self.attempts = 0;
        self.retry_at = None;
    }

    pub(super) fn stored(
        &mut self,
        result: Result<(), WriteFailure>,
        now: u64,
        out: &mut Vec<Output>,
    ) {
        if !self.in_flight {
            tracing::warn!("a store result nobody waited for");
            return;
        }
        self.in_flight = false;
        match result {
            Ok(()) => {
                self.attempts = 0;
                self.retry_at = None;
                if let Some(p) = self.pending.take() {
                    self.done(p, now, out);
                }
            }
            Err(WriteFailure::Fenced) => {
                tracing::warn!("write fenced: another process runs the room now");
                self.stopped = true;
                self.pending = None;
                for c in self.conns.drain(..) {
                    out.push(Output::Close { conn: c.id });
                }
                out.push(Output::Stop);
            }
            Err(WriteFailure::LeaseLapsed) => {
                // The database answers again: start the backoff afresh, so the write lands
                // soon after the lease task renewed the lease.
                self.attempts = 1;
                self.retry_at = Some(now.saturating_add(RETRY_FIRST_MS));
                if let Some(quiet) = LAPSED.allow() {
                    tracing::warn!(
                        "not stored: the lease ran out meanwhile; retrying once renewed{quiet}"
                    );
                }
            }
            Err(WriteFailure::Failed(e)) => {
                self.attempts = self.attempts.saturating_add(1);
                let backoff = RETRY_FIRST_MS
                    .saturating_mul(1u64 << self.attempts.saturating_sub(1).min(16))
                    .min(RETRY_MAX_MS);
                self.retry_at = Some(now.saturating_add(backoff));
                if let Some(quiet) = FAILED.allow() {
                    tracing::warn!(
                        attempt = self.attempts,
                        "not stored, retrying in {backoff} ms: {e}{quiet}"
                    );
                }
            }
        }
    }

    /// What a write was for, now that it is stored.
    fn done(&mut self, p: Pending, now: u64, out: &mut Vec<Output>) {
        match p {
            Pending::Action {
                stored,
                origin,
                decision,
            } => {
                if let Some((chosen, error)) = decision.as_ref().and_then(|d| d.refused.as_ref()) {
                    tracing::warn!(
                        "bot of chair {} chose {chosen:?}, refused ({error}): played the first legal action",
                        stored.player.index()
                    );
                }
                let step = match self.apply(stored.player, stored.action, now) {
                    Ok(step) => step,
                    Err(e) => {
                        // Checked before the write, so the engine must accept it; if not, the
                        // stored log no longer replays. Say so loudly.
                        tracing::error!(
                            "engine refused a checked, stored action {}: {e}",
                            stored.seq
                        );
                        if let Some((conn, seq)) = origin {
                            out.push(Output::Send {
                                conn,
                                msg: ServerMsg::refusal(Some(seq), &Words::text(e)),
                            });
                        }
                        return;
                    }
                };
                if let Some((conn, seq)) = origin {
                    out.push(Output::Send {
                        conn,
                        msg: ServerMsg::Ack { seq },
                    });
                }
                if let Some(settlement) = &step.settlement {
                    let hand = self.session().map_or(1, |s| s.hand_number());
                    let (outcome, payments) = (&settlement.outcome, &settlement.payments);
                    self.outside_hand_end(hand, outcome, payments, step.match_over, out);
                }
                self.release_events(out);
                if step.settlement.is_some() {
                    if self.window_end.is_some() {
                        // A last discard nobody could win on: the hand ends for everyone when
                        // its claim window does, as it would had somebody passed on it.
                        self.hand_end_held = Some(step.match_over);
                    } else {
                        self.end_hand(step.match_over, now, out);
                    }
                }
            }
            Pending::FillBots(config) => {
                self.config = config;
                self.begin(Pending::Start, out);
            }
            Pending::TakeBack(config, seats) => self.took_back(config, seats, now, out),
            Pending::Start => match self.start_match(now) {
                Ok(()) => {
                    self.status = RoomStatus::Playing;
                    self.release_events(out);
                }
                Err(e) => {
                    tracing::error!("cannot start: {e}");
                    self.start_failed = true;
                }
            },
            Pending::Finished(_) => self.finish_unstored = false,
        }
    }

    /// The hand has ended (and the match, if `match_over`): its result to everyone, then the
    /// pause before the next hand, or the match's end written.
    pub(super) fn end_hand(&mut self, match_over: bool, now: u64, out: &mut Vec<Output>) {
        if let Some(result) = self.hand_result() {
            self.broadcast(&result, out);
        }
        if match_over {
            self.status = RoomStatus::Finished;
            self.continue_at = None;
            let at = self.wall(now);
            self.finished = Some(at);
            let (standings, ledger) = self
                .session()
                .map(|s| (s.standings(), s.ledger().to_vec()))
                .unwrap_or_default();
            self.broadcast(&ServerMsg::MatchOver { standings, ledger }, out);
            self.begin(Pending::Finished(at), out);
        } else {
            self.enter_hand_over(now);
        }
    }
}

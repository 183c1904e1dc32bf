//! What each viewer of a room is sent: the events of the hand and the `state`, as the public
//! log shows them (the library's `MatchLog::seen_by` is the reference).
//!
//! - Concealed tiles are hidden per viewer (`Event::seen_by`, the viewer's observation).
//! - While a discarded tile is on offer, only the players still asked about it are sent the
//!   discard (and a `state` to answer it). Everyone else is sent nothing until the offer is
//!   settled, then the discard and what came of it in one `events` message and one `state`:
//!   exactly what they would get had nobody been able to claim.
//! - The `actions` count a viewer sees leaves out the other players' passes.
//! - A `state` is sent once per step, and only to viewers whose view changed (or who asked);
//!   it is built once per viewer (a seat, or the spectators), its ready hint worked out only
//!   when that seat's hand changed ([`HintCache`]), and sent as one message to the viewer's
//!   connections (serialised once): whole, but to a connection that asked for deltas and
//!   holds a state, a [`StateDelta`] from the last one it was sent.

use super::io::{ConnId, Output};
use super::state::{Conn, Room};
use super::{RoomSummary, SPECTATOR};
use crate::protocol::{ContinueState, RoomStatus, SeatInfo, ServerMsg, StateDelta};
use crate::reveal;
use crate::waits::HintCache;
use majiang::table::Player;
use std::sync::Arc;

impl Room {
    /// True when `viewer` must not hear yet of the tile on offer: it is on offer and they are
    /// not (or no longer) asked about it.
    pub(super) fn held(&self, viewer: Player) -> bool {
        self.offer_open()
            && !(self.tile_on_offer()
                && self
                    .session()
                    .is_some_and(|s| s.game().to_act().contains(viewer)))
    }

    /// How many of the hand's events `viewer` may have been sent by now.
    pub(super) fn visible_len(&self, viewer: Player) -> usize {
        if self.held(viewer) {
            self.public_len
        } else {
            self.hand_events.len()
        }
    }

    /// Sends every connection the events it may now know of and was not sent yet.
    pub(super) fn release_events(&mut self, out: &mut Vec<Output>) {
        let Some(hand_number) = self.session().map(|s| s.hand_number()) else {
            return;
        };
        let targets: Vec<usize> = self
            .conns
            .iter()
            .map(|c| self.visible_len(self.viewer(c.seat)))
            .collect();
        for (i, upto) in targets.into_iter().enumerate() {
            let viewer = self.viewer(self.conns[i].seat);
            let from = self.conns[i].sent;
            if upto <= from {
                continue;
            }
            let events = self.hand_events[from..upto]
                .iter()
                .map(|e| e.seen_by(viewer))
                .collect();
            self.conns[i].sent = upto;
            out.push(Output::Send {
                conn: self.conns[i].id,
                msg: ServerMsg::Events {
                    hand_number,
                    events,
                },
            });
        }
    }

    /// Sends `msg` to every connection (as one message: it is serialised once).
    pub(super) fn broadcast(&self, msg: &ServerMsg, out: &mut Vec<Output>) {
        if !self.conns.is_empty() {
            out.push(Output::send_to(
                self.conns.iter().map(|c| c.id).collect(),
                msg.clone(),
            ));
        }
    }

    /// The result of the hand just finished, with every hand face up and each payment
    /// explained; `None` while a hand is in play.
    pub(super) fn hand_result(&self) -> Option<ServerMsg> {
        let s = self.session()?;
        let g = s.game();
        if !g.is_over() {
            return None;
        }
        let settlement = s.matches().settlements().last()?.clone();
        Some(ServerMsg::HandResult {
            settlement: Box::new(settlement),
            reveal: reveal::reveal(g),
            payments_explained: reveal::payments_explained(g),
        })
    }

    /// Sends each connection whose view changed since the last state it got (or that is owed
    /// one) its state, unless it is held back while a tile is on offer: whole, but as a
    /// `state_delta` to a connection that asked for deltas and holds a state (not owed one: it
    /// opened, or asked with `sync`). Each viewer's state is built once, whatever the number of
    /// their connections, and each message serialised once for the connections it goes to.
    pub(super) fn flush_states(&mut self, now: u64, out: &mut Vec<Output>) {
        if !self.offer_open() {
            self.shown_stand_ins = (0..self.config.seats.len())
                .map(|i| {
                    self.chair(i)
                        .zip(self.driver.as_ref())
                        .is_some_and(|(p, d)| d.is_away(p))
                })
                .collect();
        }
        let mut hints = std::mem::take(&mut self.ready_hints);
        let mut views: Vec<View> = Vec::new();
        for i in 0..self.conns.len() {
            let seat = self.conns[i].seat;
            let v = match views.iter().position(|v| v.seat == seat) {
                Some(v) => v,
                None => {
                    let state = (!self.held(self.viewer(seat)))
                        .then(|| Arc::new(self.state_at(seat, &mut hints)));
                    views.push(View {
                        seat,
                        state,
                        whole: Vec::new(),
                        deltas: Vec::new(),
                    });
                    views.len() - 1
                }
            };
            let view = &mut views[v];
            let Some(state) = &view.state else {
                // Held back while a tile is on offer: a connection that holds no state yet (it
                // just opened) is shown the table as it was before the discard.
                if self.conns[i].last_state.is_none()
                    && let Some(before) = self.state_before_offer(seat)
                {
                    let c = &mut self.conns[i];
                    c.owed = false;
                    c.last_state = Some(Arc::new(before.clone()));
                    out.push(Output::Send {
                        conn: c.id,
                        msg: before,
                    });
                }
                continue;
            };
            let c: &mut Conn = &mut self.conns[i];
            match c.last_state.take() {
                Some(last) if !c.owed && (Arc::ptr_eq(&last, state) || last == *state) => {}
                Some(last) if !c.owed && c.deltas => match view
                    .deltas
                    .iter_mut()
                    .find(|d| Arc::ptr_eq(&d.0, &last) || d.0 == last)
                {
                    Some(d) => d.1.push(c.id),
                    None => view.deltas.push((last, vec![c.id])),
                },
                _ => view.whole.push(c.id),
            }
            c.owed = false;
            c.last_state = Some(state.clone());
        }
        self.ready_hints = hints;
        for mut view in views {
            let Some(state) = view.state else { continue };
            for (last, conns) in view.deltas {
                match StateDelta::between(&last, &state) {
                    Some(delta) => {
                        let msg = ServerMsg::StateDelta(delta.relative(now));
                        out.push(Output::send_to(conns, msg));
                    }
                    // No delta says it (their last state is now `state`): sent whole, so a
                    // connection never holds other than what it was sent.
                    None => view.whole.extend(conns),
                }
            }
            if !view.whole.is_empty() {
                out.push(Output::send_to(view.whole, relative(&state, now)));
            }
        }
    }

    /// The seats as everyone sees them.
    pub(super) fn seats(&self) -> Vec<SeatInfo> {
        let playing = self.driver.is_some() && self.status != RoomStatus::Finished;
        self.config
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let connected = s.bot || self.conns.iter().any(|c| c.seat == Some(i));
                let player = self.chair(i);
                SeatInfo {
                    seat: i,
                    name: s.name.clone(),
                    bot: s.bot,
                    connected,
                    player,
                    stand_in: !s.bot && self.shown_stand_ins.get(i).copied().unwrap_or(false),
                    away: !s.bot && !connected && playing,
                }
            })
            .collect()
    }

    /// The `state` for a connection on `seat`, its deadlines as times (see [`relative`]); the
    /// ready hint from `hints` (worked out only when the seat's hand changed).
    fn state_at(&self, seat: Option<usize>, hints: &mut HintCache) -> ServerMsg {
        let viewer = self.viewer(seat);
        let session = self.session();
        let observation = session.map(|s| Box::new(s.game().observation(viewer)));
        let (deadline_ms, claim_deadline_ms) = match (&self.driver, session) {
            (Some(d), Some(s)) if viewer != SPECTATOR => match d.deadline_of(viewer) {
                Some(at) => (Some(at), s.game().on_offer().is_some().then_some(at)),
                None => (None, None),
            },
            _ => (None, None),
        };
        let continue_ = match (self.status, self.continue_at) {
            (RoomStatus::HandOver, Some(at)) => Some(ContinueState {
                waiting_for: self.waiting_for(),
                deadline_ms: at,
            }),
            _ => None,
        };
        let waits = match (&observation, session) {
            (Some(obs), Some(s)) if viewer != SPECTATOR && !s.game().is_over() => {
                hints.waits(obs, s.game().ruleset())
            }
            _ => Vec::new(),
        };
        let others_passes: u64 = self
            .passes
            .iter()
            .enumerate()
            .filter(|&(chair, _)| chair != viewer.index())
            .map(|(_, n)| n)
            .sum();
        ServerMsg::State {
            status: self.status,
            seats: self.seats(),
            hand_number: session.map(|s| s.hand_number()),
            hands: self.config.hands,
            ledger: session
                .map(|s| s.ledger().to_vec())
                .unwrap_or_else(|| vec![0; self.ruleset.players()]),
            observation,
            claim_deadline_ms,
            deadline_ms,
            continue_,
            waits,
            actions: self.actions - others_passes,
        }
    }

    /// The `state` for a connection on `seat` while it is held back (see
    /// [`Room::before_offer`]): the table before the discard that opened the offer, with
    /// nothing to do and no countdown (the seat is not asked about the tile).
    fn state_before_offer(&self, seat: Option<usize>) -> Option<ServerMsg> {
        let before = self.before_offer.as_ref()?;
        let session = self.session()?;
        let viewer = self.viewer(seat);
        let mut observation = before.game.observation(viewer);
        observation.legal_actions.clear();
        let waits = if viewer == SPECTATOR {
            Vec::new()
        } else {
            crate::waits::waits(&observation, session.game().ruleset())
        };
        let others_passes: u64 = before
            .passes
            .iter()
            .enumerate()
            .filter(|&(chair, _)| chair != viewer.index())
            .map(|(_, n)| n)
            .sum();
        Some(ServerMsg::State {
            status: self.status,
            seats: self.seats(),
            hand_number: Some(session.hand_number()),
            hands: self.config.hands,
            ledger: session.ledger().to_vec(),
            observation: Some(Box::new(observation)),
            claim_deadline_ms: None,
            deadline_ms: None,
            continue_: None,
            waits,
            actions: before.actions - others_passes,
        })
    }

    /// The lobby view now.
    pub fn summary(&self) -> RoomSummary {
        let session = self.session();
        RoomSummary {
            id: self.id.clone(),
            rules: self.config.rules.clone(),
            status: self.status,
            seats: self.seats(),
            hands: self.config.hands,
            hints: self.config.hints,
            hand_number: session.map(|s| s.hand_number()),
            ledger: session.map(|s| s.ledger().to_vec()).unwrap_or_default(),
            created: self.created,
            finished: self.finished,
            standings: match session {
                Some(s) if s.is_over() => s.standings(),
                _ => Vec::new(),
            },
            dismissals: self.dismissals.clone(),
        }
    }
}

/// One viewer's state this step (`None`: held back) and the connections it goes to: whole, or
/// as a delta from the state they were sent last (connections that got the same last state
/// share one delta).
struct View {
    seat: Option<usize>,
    state: Option<Arc<ServerMsg>>,
    whole: Vec<ConnId>,
    deltas: Vec<(Arc<ServerMsg>, Vec<ConnId>)>,
}

/// A `state` with its deadlines as times turned into milliseconds left at `now`.
fn relative(state: &ServerMsg, now: u64) -> ServerMsg {
    let mut s = state.clone();
    if let ServerMsg::State {
        claim_deadline_ms,
        deadline_ms,
        continue_,
        ..
    } = &mut s
    {
        for t in [claim_deadline_ms, deadline_ms].into_iter().flatten() {
            *t = t.saturating_sub(now);
        }
        if let Some(c) = continue_ {
            c.deadline_ms = c.deadline_ms.saturating_sub(now);
        }
    }
    s
}

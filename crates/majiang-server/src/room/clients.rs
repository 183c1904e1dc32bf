//! The room's connections and what their clients ask: opening and closing (a person's seat
//! present or away; a seat opened on another device taken there), `sync`, `start`,
//! `continue`, `take_seat` and a person's action (checked, then written; queued while an
//! earlier write is retried).

use super::io::{ConnId, Output};
use super::state::{Conn, Room};
use super::work::{Pending, Queued};
use crate::protocol::{ClientMsg, RoomStatus, ServerMsg};
use crate::store::StoredAction;
use crate::words::{Words, room as said};
use majiang::table::Player;

/// Person actions that wait while an earlier write is retried, at most (beyond: refused).
const QUEUE_MAX: usize = 32;

impl Room {
    pub(super) fn open(
        &mut self,
        conn: ConnId,
        seat: Option<usize>,
        deltas: bool,
        device: Option<String>,
        now: u64,
        out: &mut Vec<Output>,
    ) {
        // A person seat filled with a bot at the start is the bot's: its old token watches,
        // told whose seat the bot holds.
        let bot_holds = seat.filter(|&s| self.config.seats.get(s).is_some_and(|c| c.bot));
        let seat = seat.filter(|&s| self.config.seats.get(s).is_some_and(|c| !c.bot));
        out.push(Output::Send {
            conn,
            msg: ServerMsg::Welcome {
                room: self.id.clone(),
                seat,
                bot_holds,
                config: self.config.clone(),
            },
        });
        if let (Some(s), Some(d)) = (seat, device.as_deref()) {
            self.take_over(s, d, out);
        }
        let mut c = Conn {
            id: conn,
            seat,
            sent: 0,
            last_state: None,
            deltas,
            owed: true,
            device,
            bot_holds,
        };
        if let Some(d) = &self.driver {
            let viewer = self.viewer(seat);
            let upto = self.visible_len(viewer);
            out.push(Output::Send {
                conn,
                msg: ServerMsg::History {
                    hand_number: d.session().hand_number(),
                    events: self.hand_events[..upto]
                        .iter()
                        .map(|e| e.seen_by(viewer))
                        .collect(),
                },
            });
            c.sent = upto;
            if self.status == RoomStatus::HandOver
                && let Some(result) = self.hand_result()
            {
                out.push(Output::Send { conn, msg: result });
            }
        }
        self.conns.push(c);
        if let Some(chair) = seat.and_then(|s| self.chair(s))
            && let Some(d) = self.driver.as_mut()
        {
            d.set_present(chair, true, now);
        }
    }

    /// Seat `seat` opens on device `device`: the seat's connections from another device are
    /// told it plays elsewhere now, and closed (their client takes it back by connecting
    /// again). Connections that gave no device id are left as they are: they cannot be told
    /// apart (the command-line client, bots' companions and tests share a seat so).
    fn take_over(&mut self, seat: usize, device: &str, out: &mut Vec<Output>) {
        let elsewhere = |c: &Conn| {
            c.seat == Some(seat) && c.device.as_deref().is_some_and(|other| other != device)
        };
        for c in self.conns.iter().filter(|c| elsewhere(c)) {
            out.push(Output::Send {
                conn: c.id,
                msg: ServerMsg::TakenOver {},
            });
            out.push(Output::Close { conn: c.id });
        }
        // The room forgets them now (the task closes them and reports no close back); the
        // seat stays present: the connection opening takes it.
        self.conns.retain(|c| !elsewhere(c));
    }

    pub(super) fn close(&mut self, conn: ConnId, now: u64) {
        let Some(i) = self.conns.iter().position(|c| c.id == conn) else {
            return;
        };
        let c = self.conns.remove(i);
        if let Some(s) = c.seat
            && !self.conns.iter().any(|o| o.seat == Some(s))
            && let Some(chair) = self.chair(s)
            && let Some(d) = self.driver.as_mut()
        {
            d.set_present(chair, false, now);
        }
    }

    pub(super) fn client(&mut self, conn: ConnId, msg: ClientMsg, now: u64, out: &mut Vec<Output>) {
        let Some(seat) = self.conns.iter().find(|c| c.id == conn).map(|c| c.seat) else {
            return;
        };
        let refuse = |out: &mut Vec<Output>, seq: Option<u64>, why: Words| {
            out.push(Output::Send {
                conn,
                msg: ServerMsg::refusal(seq, &why),
            })
        };
        match msg {
            ClientMsg::Sync {} => {
                if let Some(c) = self.conns.iter_mut().find(|c| c.id == conn) {
                    c.owed = true;
                }
            }
            ClientMsg::Start { fill_bots } => {
                if let Err(message) = self.start_by(seat, fill_bots, out) {
                    refuse(out, None, message);
                }
            }
            ClientMsg::TakeSeat {} => {
                if let Err(message) = self.ask_take_back(conn) {
                    refuse(out, None, message);
                }
            }
            ClientMsg::Hints { on } => {
                if let Err(message) = self.set_hints(conn, seat, on) {
                    refuse(out, None, message);
                }
            }
            ClientMsg::Continue {} => {
                if let Err(message) = self.continue_by(seat) {
                    refuse(out, None, message);
                }
            }
            ClientMsg::Action { seq, action } => {
                let player = match (seat, seat.and_then(|s| self.chair(s))) {
                    (None, _) => Err(said::SPECTATORS_CANNOT_ACT.plain()),
                    (Some(_), None) => Err(said::NOT_STARTED.plain()),
                    (Some(_), Some(p)) => Ok(p),
                };
                match player {
                    Err(message) => refuse(out, Some(seq), message),
                    Ok(player) => {
                        let q = Queued {
                            conn,
                            seq,
                            player,
                            action,
                        };
                        if self.pending.is_none() {
                            self.person_action(q, now, out);
                        } else if self.queue.len() < QUEUE_MAX {
                            // An earlier write is being retried: this one is checked after it.
                            self.queue.push_back(q);
                        } else {
                            refuse(out, Some(seq), said::BUSY.plain());
                        }
                    }
                }
            }
        }
    }

    /// Checks a person's action and, if it may be played, writes it.
    pub(super) fn person_action(&mut self, q: Queued, _now: u64, out: &mut Vec<Output>) {
        let check = match (&self.driver, self.status) {
            (None, _) => Err(said::NOT_STARTED.plain()),
            (Some(_), RoomStatus::HandOver) => Err(said::HAND_OVER.plain()),
            (Some(d), _) if d.session().is_over() => Err(said::MATCH_OVER.plain()),
            (Some(d), _) => d
                .session()
                .game()
                .check(q.player, q.action)
                .map_err(|e| e.words()),
        };
        match check {
            Err(why) => out.push(Output::Send {
                conn: q.conn,
                msg: ServerMsg::refusal(Some(q.seq), &why),
            }),
            Ok(()) => self.begin(
                Pending::Action {
                    stored: StoredAction {
                        seq: self.actions,
                        player: q.player,
                        action: q.action,
                    },
                    origin: Some((q.conn, q.seq)),
                    decision: None,
                },
                out,
            ),
        }
    }

    /// `start` from a connection on `seat`.
    fn start_by(
        &mut self,
        seat: Option<usize>,
        fill_bots: bool,
        out: &mut Vec<Output>,
    ) -> Result<(), Words> {
        let Some(seat) = seat else {
            return Err(said::SPECTATORS_CANNOT_START.plain());
        };
        if self.status != RoomStatus::Waiting {
            return Err(said::ALREADY_STARTED.plain());
        }
        if self.pending.is_some() {
            return Err(said::STARTING.plain());
        }
        let missing = self.missing_people();
        if fill_bots && !missing.is_empty() {
            if seat != 0 {
                return Err(said::ONLY_CREATOR_FILLS.plain());
            }
            let mut config = self.config.clone();
            for &s in &missing {
                config.seats[s].bot = true;
                config.seats[s].bot_kind = Some("efficient".into());
            }
            self.begin(Pending::FillBots(config), out);
            return Ok(());
        }
        if !missing.is_empty() {
            let names = missing.iter().map(|&s| self.config.seats[s].name.as_str());
            return Err(said::WAITING_TO_JOIN.with([crate::words::names(names)]));
        }
        self.begin(Pending::Start, out);
        Ok(())
    }

    /// Person seats nobody holds a connection to.
    pub(super) fn missing_people(&self) -> Vec<usize> {
        (0..self.config.seats.len())
            .filter(|&s| !self.config.seats[s].bot && !self.conns.iter().any(|c| c.seat == Some(s)))
            .collect()
    }

    /// `continue` from a connection on `seat`.
    fn continue_by(&mut self, seat: Option<usize>) -> Result<(), Words> {
        let Some(chair) = seat.and_then(|s| self.chair(s)) else {
            return Err(said::ONLY_SEATED_CONTINUE.plain());
        };
        if self.status != RoomStatus::HandOver {
            return Err(said::NOTHING_TO_CONTINUE.plain());
        }
        if !self.continued.contains(&chair) {
            self.continued.push(chair);
        }
        Ok(())
    }

    /// The connected people the next deal still waits for, by chair.
    pub(super) fn waiting_for(&self) -> Vec<Player> {
        let mut v: Vec<Player> = (0..self.config.seats.len())
            .filter(|&s| !self.config.seats[s].bot && self.conns.iter().any(|c| c.seat == Some(s)))
            .filter_map(|s| self.chair(s))
            .filter(|p| !self.continued.contains(p))
            .collect();
        v.sort();
        v
    }

    /// The next hand is due: every connected person continued (at least one did, or the room
    /// has no people: bots-only rooms go on at once), or the countdown ended.
    pub(super) fn deal_due(&self, now: u64) -> bool {
        let everyone = self.waiting_for().is_empty()
            && (!self.continued.is_empty() || self.config.people() == 0);
        everyone || self.continue_at.is_some_and(|t| now >= t)
    }
}

//! A friend who arrives after "start now, fill empty seats with bots" takes their seat back
//! from its bot: they ask (`take_seat`), and at the next hand (or at once, as the room's
//! creator chose: [`TakeBack`]) the seat is written back to a person's and the bot leaves;
//! their connections are welcomed again, on the seat.

use super::io::{ConnId, Output};
use super::state::Room;
use crate::protocol::{RoomConfig, RoomStatus, TakeBack};
use crate::words::{Words, room as said};
use majiang::driver::Controller;

impl Room {
    /// `take_seat` from `conn`: the seat its key names, if a bot holds it, is taken back when
    /// due ([`Room::take_back_due`]).
    pub(super) fn ask_take_back(&mut self, conn: ConnId) -> Result<(), Words> {
        let seat = self
            .conns
            .iter()
            .find(|c| c.id == conn)
            .and_then(|c| c.bot_holds)
            .filter(|&s| self.config.seats.get(s).is_some_and(|c| c.bot))
            .ok_or(said::NO_SEAT_TO_TAKE_BACK.plain())?;
        if self.status == RoomStatus::Finished {
            return Err(said::MATCH_OVER.plain());
        }
        if !self.take_backs.contains(&seat) {
            self.take_backs.push(seat);
        }
        Ok(())
    }

    /// The settings that give the seats asked for back to their people, when that is due now:
    /// between hands, or at once if the room says so. Seats whose asking connections have all
    /// gone are dropped (nobody would play them).
    pub(super) fn take_back_due(&mut self) -> Option<(RoomConfig, Vec<usize>)> {
        if self.take_backs.is_empty() || self.driver.is_none() {
            return None;
        }
        let due = match self.status {
            RoomStatus::HandOver => true,
            RoomStatus::Playing => self.config.take_back == TakeBack::AtOnce,
            RoomStatus::Waiting | RoomStatus::Finished => false,
        };
        if !due {
            return None;
        }
        let asked = std::mem::take(&mut self.take_backs);
        let seats: Vec<usize> = asked
            .into_iter()
            .filter(|&s| self.conns.iter().any(|c| c.bot_holds == Some(s)))
            .collect();
        if seats.is_empty() {
            return None;
        }
        // The timers the creator set stay; those they left to the room follow its people
        // from now on (`took_back`), here and in a room restored from these settings.
        let mut config = self.config.clone();
        for &s in &seats {
            config.seats[s].bot = false;
            config.seats[s].bot_kind = None;
        }
        Some((config, seats))
    }

    /// The seats are stored as people's: each chair goes to its person (the bot leaves), the
    /// table takes the timers of the room's people now (a room that started with one person
    /// had none), running from `now`, and the connections that asked are welcomed again on
    /// their seat.
    pub(super) fn took_back(
        &mut self,
        config: RoomConfig,
        seats: Vec<usize>,
        now: u64,
        out: &mut Vec<Output>,
    ) {
        self.config = config;
        let timers = self.timers();
        if let Some(d) = self.driver.as_mut() {
            d.set_timers(timers, now);
        }
        for &s in &seats {
            if let Some(chair) = self.chair(s)
                && let Some(d) = self.driver.as_mut()
            {
                // The stand-in's seed of a person seat (as `start_match` gives it).
                let seed = self.seed ^ (s as u64 + 1);
                if let Err(e) = d.set_controller(chair, Controller::person(seed)) {
                    tracing::error!("seat {s} taken back: {e}");
                }
                d.set_present(chair, false, now);
            }
            let moving: Vec<(ConnId, bool, Option<String>)> = self
                .conns
                .iter()
                .filter(|c| c.bot_holds == Some(s))
                .map(|c| (c.id, c.deltas, c.device.clone()))
                .collect();
            self.conns.retain(|c| c.bot_holds != Some(s));
            for (conn, deltas, device) in moving {
                self.open(conn, Some(s), deltas, device, now, out);
            }
        }
    }
}

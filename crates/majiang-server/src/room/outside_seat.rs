//! An outside bot's seat in a room (see `outside`): where its conversation is, and the
//! placeholder the driver holds for its chair.

use crate::external_bots::{ExternalBots, is_external};
use crate::protocol::RoomConfig;
use majiang::bots::Bot;
use majiang::driver::Controller;
use majiang::table::{Action, Observation, Player};
use majiang_external::spec::Command;
use majiang_external::{Failure, Limits};
use serde::Serialize;
use std::collections::VecDeque;

/// Lines a bot may write ahead of being asked (read as its next answers, as a pipe would keep
/// them); one more is nonsense.
pub(super) const MAX_UNREAD: usize = 16;

/// One seat played by an outside bot.
#[derive(Debug)]
pub(super) struct OutsideSeat {
    /// The seat (index in the room's settings) and its chair.
    pub(super) seat: usize,
    pub(super) chair: Player,
    /// Its one name in reports: the seat's name and its kind, "Bot 1 (ext:simple)".
    pub(super) label: String,
    pub(super) command: Command,
    pub(super) limits: Limits,
    /// The seed of its hello and of the `efficient` bot that plays on when it is dismissed.
    pub(super) seed: u64,
    pub(super) phase: Phase,
    /// Lines it wrote before it was asked: its next answers.
    pub(super) unread: VecDeque<String>,
}

#[derive(Debug)]
pub(super) enum Phase {
    /// Its process is not started yet (a room just made or restored).
    Unstarted,
    /// Started and greeted: its `ready` is due by `until`.
    Greeting { until: u64 },
    /// Ready, nothing asked.
    Idle,
    /// Asked `question` (its legal actions in it); its answer is due by `until`, and once
    /// heard waits in `answer` for the driver to come back to the chair.
    Asked {
        question: Box<Observation>,
        until: u64,
        answer: Option<Action>,
    },
    /// The match is over: told so, its input closed.
    Done,
    /// Dismissed: `efficient` plays the seat.
    Dismissed,
}

/// What an outside chair does with the decision the driver proposed for it.
pub(super) enum Turn {
    /// Not an outside bot's chair (or one dismissed): the proposal stands.
    NotOutside,
    /// Play this answer of the bot instead.
    Play(Action),
    /// Wait for the bot: its line, or this time (its limit).
    Wait(Option<u64>),
    /// The bot was dismissed just now: ask the driver again (`efficient` decides).
    Dismissed,
}

/// The outside seats of a match about to start, in seat order; a kind not allowed by `bots` is
/// an error ("no external bot … on this server").
pub(super) fn seats_of(
    config: &RoomConfig,
    room_seed: u64,
    bots: &ExternalBots,
    chairs: &[Player],
) -> Result<Vec<OutsideSeat>, String> {
    let mut seats = Vec::new();
    for (seat, s) in config.seats.iter().enumerate() {
        let Some(kind) = s.bot_kind.as_deref().filter(|k| s.bot && is_external(k)) else {
            continue;
        };
        let allowed = bots.get(kind).ok_or_else(|| {
            let name = kind
                .strip_prefix(crate::external_bots::PREFIX)
                .unwrap_or(kind);
            format!("no external bot {name:?} on this server")
        })?;
        seats.push(OutsideSeat {
            seat,
            chair: chairs[seat],
            label: majiang_external::bot_name(&s.name, kind),
            command: allowed.command.clone(),
            limits: allowed.limits,
            seed: room_seed ^ (seat as u64 + 1),
            phase: Phase::Unstarted,
            unread: VecDeque::new(),
        });
    }
    Ok(seats)
}

/// The stand-in's chair: a bot whose proposals the room replaces with the outside bot's
/// answers, so it never thinks (the first legal action, looked at by nobody).
struct Placeholder;

impl Bot for Placeholder {
    fn name(&self) -> &'static str {
        "external"
    }

    fn needs_observation(&self) -> bool {
        false
    }

    fn act(&mut self, _obs: &Observation, legal: &[Action]) -> Action {
        legal.first().copied().unwrap_or(Action::Pass)
    }
}

/// The driver's controller for an outside chair.
pub(super) fn controller() -> Controller {
    Controller::Bot(Box::new(Placeholder))
}

/// Why a bot was dismissed, as one word (the metric's `reason`).
pub fn reason(failure: &Failure) -> &'static str {
    match failure {
        Failure::Crashed(_) => "crashed",
        Failure::Timeout(_) => "timeout",
        Failure::Malformed(_) => "malformed",
        Failure::Illegal(_) => "illegal",
        Failure::Version(_) => "version",
    }
}

/// An outside bot (`ext:NAME`) dismissed from its seat: it crashed, was late, wrote nonsense
/// or named an illegal action; `efficient` plays the seat from then on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Dismissal {
    /// The seat (index in the room's settings).
    pub seat: usize,
    /// The bot's one name: the seat's name and its kind, "Bot 1 (ext:simple)".
    pub bot: String,
    /// The hand it was dismissed in (from 1).
    pub hand: u32,
    /// Why, in one word: `crashed`, `timeout`, `malformed`, `illegal` or `version`.
    pub reason: String,
    /// Why, in words ("no answer within 5000 ms").
    pub message: String,
}

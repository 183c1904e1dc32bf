//! [`ExternalBot`]: a seat played by another process through the bot protocol, with
//! `efficient` standing by.

use crate::conversation::{self, Failure, Seating};
use crate::process::{Process, Stderr, Trouble};
use crate::spec::Command;
use majiang::bots::protocol::{Decide, HandEnd, MatchEnd, ToBot};
use majiang::bots::{Bot, EfficientBot};
use majiang::table::matches::Standing;
use majiang::table::{Action, HandOutcome, Observation, Player};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How an external bot is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The time for each decision.
    pub decision: Duration,
    /// The time to answer the hello (starting an interpreter, loading a model).
    pub start: Duration,
    /// Where its standard error goes.
    pub stderr: Stderr,
}

impl Default for Limits {
    /// 5 s a decision, 10 s to start, standard error inherited.
    fn default() -> Limits {
        Limits {
            decision: Duration::from_secs(5),
            start: Duration::from_secs(10),
            stderr: Stderr::Inherit,
        }
    }
}

impl From<Trouble> for Failure {
    fn from(t: Trouble) -> Failure {
        match t {
            Trouble::Gone(what) => Failure::Crashed(what),
            Trouble::Timeout(limit) => Failure::Timeout(limit),
            Trouble::TooLong => conversation::too_long(),
        }
    }
}

/// One dismissal: where and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fallback {
    /// What the caller said this bot is playing ("match 3").
    pub context: String,
    /// The bot's chair.
    pub seat: Player,
    /// The hand it was dismissed in (from 1).
    pub hand: u32,
    /// Why.
    pub failure: Failure,
}

/// The one name of an outside bot in what a person reads — `majiang play`'s table and its
/// report, `sim`'s and `selfplay`'s reports, the server's wording: the seat's name and the
/// bot's label, "Bot 2 (cmd:python3 my_bot.py)" (`seat` as the table or report names it,
/// `label` the bot as it was asked for: `cmd:` and [`Command::short`](crate::spec::Command::short),
/// or a server's `ext:NAME`).
///
/// ```
/// assert_eq!(majiang_external::bot_name("Bot 2", "cmd:my_bot"), "Bot 2 (cmd:my_bot)");
/// ```
pub fn bot_name(seat: &str, label: &str) -> String {
    format!("{seat} ({label})")
}

impl Fallback {
    /// The dismissal in words under the bot's one name ([`bot_name`]): "Bot 2 (cmd:my_bot)
    /// was dismissed in hand 3: no answer within 400 ms; efficient plays its seat on".
    pub fn text(&self, name: &str) -> String {
        format!(
            "{name} was dismissed in hand {}: {}; efficient plays its seat on",
            self.hand, self.failure
        )
    }
}

/// What the external bots sharing it did: decisions answered and dismissals. Share one
/// (`Arc`) between the bots of one entry of `--bots` to report on it.
#[derive(Debug, Default)]
pub struct Tally {
    decisions: AtomicU64,
    fallback_decisions: AtomicU64,
    fallbacks: Mutex<Vec<Fallback>>,
}

impl Tally {
    /// Decisions the external bots answered themselves.
    pub fn decisions(&self) -> u64 {
        self.decisions.load(Ordering::Relaxed)
    }

    /// Decisions `efficient` made for dismissed bots.
    pub fn fallback_decisions(&self) -> u64 {
        self.fallback_decisions.load(Ordering::Relaxed)
    }

    /// Every dismissal so far, in the order they happened.
    pub fn fallbacks(&self) -> Vec<Fallback> {
        self.fallbacks.lock().map(|f| f.clone()).unwrap_or_default()
    }

    fn record(&self, fallback: Fallback) {
        if let Ok(mut f) = self.fallbacks.lock() {
            f.push(fallback);
        }
    }
}

/// A seat played by another process speaking the bot protocol (`docs/bot-protocol.md`).
///
/// [`ExternalBot::start`] spawns the command and shakes hands; every decision is sent as a
/// [`Decide`] and the answer awaited within [`Limits::decision`]. When the process crashes,
/// is late, writes something that is not an answer or names an action that is not legal, it is
/// dismissed (told why, then killed), the [`Tally`] records it, and the `efficient` bot plays
/// the seat for the rest of the match: the match goes on.
pub struct ExternalBot {
    process: Option<Process>,
    name: String,
    fallback: EfficientBot,
    seating: Seating,
    limits: Limits,
    hand: u32,
    tally: Arc<Tally>,
}

impl ExternalBot {
    /// Starts `command` for `seating` and waits for its `ready`. Only a command that cannot be
    /// started at all is an error; a bot that starts but fails the handshake is dismissed
    /// (see [`Tally::fallbacks`]) and `efficient` plays its seat.
    pub fn start(
        command: &Command,
        seating: Seating,
        limits: Limits,
        tally: Arc<Tally>,
    ) -> std::io::Result<ExternalBot> {
        let process = Process::spawn(command, limits.stderr)
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot start {command}: {e}")))?;
        let mut bot = ExternalBot {
            process: Some(process),
            name: String::new(),
            fallback: EfficientBot::new(seating.ruleset.clone(), seating.seed),
            seating,
            limits,
            hand: 1,
            tally,
        };
        if let Err(failure) = bot.handshake() {
            bot.dismiss(failure);
        }
        Ok(bot)
    }

    /// The name the bot gave in its `ready` (empty before, or if it gave none).
    pub fn bot_name(&self) -> &str {
        &self.name
    }

    /// True while the process plays the seat (false once dismissed).
    pub fn is_playing(&self) -> bool {
        self.process.is_some()
    }

    fn handshake(&mut self) -> Result<(), Failure> {
        self.send(&conversation::hello(&self.seating, self.limits.decision))?;
        let line = self.receive(self.limits.start)?;
        self.name = conversation::read_ready(&line)?;
        Ok(())
    }

    fn send(&mut self, message: &ToBot) -> Result<(), Failure> {
        let process = self
            .process
            .as_mut()
            .ok_or_else(|| Failure::Crashed("dismissed".into()))?;
        let line = serde_json::to_string(message)
            .map_err(|e| Failure::Malformed(format!("cannot write the message: {e}")))?;
        Ok(process.send(&line)?)
    }

    fn receive(&mut self, limit: Duration) -> Result<String, Failure> {
        let process = self
            .process
            .as_mut()
            .ok_or_else(|| Failure::Crashed("dismissed".into()))?;
        Ok(process.receive(Instant::now() + limit, limit)?)
    }

    /// Asks the process for this decision.
    fn ask(&mut self, obs: &Observation, legal: &[Action]) -> Result<Action, Failure> {
        let mut observation = obs.clone();
        observation.legal_actions = legal.to_vec();
        self.send(&ToBot::Decide(Decide::new(self.hand, observation)))?;
        let line = self.receive(self.limits.decision)?;
        conversation::read_action(&line, legal)
    }

    /// Tells the process why, ends it, records the dismissal.
    fn dismiss(&mut self, failure: Failure) {
        let _ = self.send(&conversation::dismissal(&failure));
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
        self.tally.record(Fallback {
            context: self.seating.context.clone(),
            seat: self.seating.seat,
            hand: self.hand,
            failure,
        });
    }
}

impl Bot for ExternalBot {
    fn name(&self) -> &'static str {
        "external"
    }

    fn act(&mut self, obs: &Observation, legal: &[Action]) -> Action {
        if self.process.is_some() {
            match self.ask(obs, legal) {
                Ok(action) => {
                    self.tally.decisions.fetch_add(1, Ordering::Relaxed);
                    return action;
                }
                Err(failure) => self.dismiss(failure),
            }
        }
        self.tally
            .fallback_decisions
            .fetch_add(1, Ordering::Relaxed);
        self.fallback.act(obs, legal)
    }

    fn hand_ended(&mut self, outcome: &HandOutcome, payments: &[i64]) {
        if self.process.is_some() {
            let end = ToBot::HandEnd(HandEnd {
                hand: self.hand,
                outcome: outcome.clone(),
                payments: payments.to_vec(),
            });
            if let Err(failure) = self.send(&end) {
                self.dismiss(failure);
            }
        }
        self.hand += 1;
    }

    fn match_ended(&mut self, hands: u32, standings: &[Standing]) {
        if self.process.is_some() {
            let end = ToBot::MatchEnd(MatchEnd {
                hands,
                standings: standings.to_vec(),
            });
            // The match is over: a bot that is gone by now costs nothing.
            let _ = self.send(&end);
            if let Some(mut process) = self.process.take() {
                process.finish();
            }
        }
    }
}

//! The room's outside bots (`ext:NAME` seats, `docs/bot-protocol.md`), sans-IO: the room says
//! what to tell a bot ([`Output::OutsideBot`]), hears what it wrote ([`Input::OutsideBot`]) and
//! keeps its time limits on the room's own clock, so nothing waits on a pipe and the room's
//! unit tests drive a bot with no process at all.
//!
//! In the driver an outside chair is a bot whose proposal the room never plays: when the driver
//! proposes a decision for it, the room asks the bot (a `decide` with the seat's observation)
//! and waits; the answer it hears is played in the proposal's place. A bot that crashes, is
//! late, writes nonsense or names an illegal action is dismissed for the rest of the match,
//! with today's words (`majiang_external::conversation`): it is told why and ended, the
//! `efficient` bot (seeded as its stand-in always was) takes its chair in the driver, and the
//! room's summary lists the dismissal.

use super::io::{BotOrder, Heard, Output};
use super::outside_seat::{Dismissal, MAX_UNREAD, Phase, Turn, reason};
use super::state::Room;
use majiang::bots::EfficientBot;
use majiang::bots::protocol::{Decide, HandEnd, MatchEnd, ToBot};
use majiang::driver::Controller;
use majiang::table::{HandOutcome, Player};
use majiang_external::conversation;
use majiang_external::{Failure, Seating};

impl Room {
    /// Starts the bots not started yet (while the match goes on).
    pub(super) fn start_outside_bots(&mut self, now: u64, out: &mut Vec<Output>) {
        if self.session().is_none_or(|s| s.is_over()) {
            return;
        }
        for i in 0..self.outside.len() {
            if matches!(self.outside[i].phase, Phase::Unstarted) {
                self.start_outside(i, now, out);
            }
        }
    }

    fn start_outside(&mut self, i: usize, now: u64, out: &mut Vec<Output>) {
        let ruleset = self.ruleset.clone();
        let s = &mut self.outside[i];
        let seating = Seating {
            ruleset,
            seat: s.chair,
            seed: s.seed,
            context: String::new(),
        };
        out.push(Output::OutsideBot {
            seat: s.seat,
            order: BotOrder::Start(s.command.clone()),
        });
        out.push(Output::OutsideBot {
            seat: s.seat,
            order: BotOrder::Say(Box::new(conversation::hello(&seating, s.limits.decision))),
        });
        s.phase = Phase::Greeting {
            until: now.saturating_add(s.limits.start.as_millis() as u64),
        };
    }

    /// The earliest time limit of a bot, for the room's wake-up.
    pub(super) fn outside_wake(&self) -> Option<u64> {
        self.outside
            .iter()
            .filter_map(|s| match s.phase {
                Phase::Greeting { until }
                | Phase::Asked {
                    until,
                    answer: None,
                    ..
                } => Some(until),
                _ => None,
            })
            .min()
    }

    /// Dismisses the bots whose time ran out by `now`.
    pub(super) fn outside_timeouts(&mut self, now: u64, out: &mut Vec<Output>) {
        for i in 0..self.outside.len() {
            let s = &self.outside[i];
            let late = match s.phase {
                Phase::Greeting { until } if now >= until => Some(s.limits.start),
                Phase::Asked {
                    until,
                    answer: None,
                    ..
                } if now >= until => Some(s.limits.decision),
                _ => None,
            };
            if let Some(limit) = late {
                self.dismiss(i, Failure::Timeout(limit), out);
            }
        }
    }

    /// What seat `seat`'s bot wrote (or that it is gone).
    pub(super) fn outside_heard(&mut self, seat: usize, heard: Heard, out: &mut Vec<Output>) {
        let Some(i) = self.outside.iter().position(|s| s.seat == seat) else {
            return;
        };
        let s = &mut self.outside[i];
        let failure = match (heard, &mut s.phase) {
            (_, Phase::Unstarted | Phase::Done | Phase::Dismissed) => return,
            (Heard::Gone(what), _) => Failure::Crashed(what),
            (Heard::TooLong, _) => conversation::too_long(),
            (Heard::Line(line), Phase::Greeting { .. }) => match conversation::read_ready(&line) {
                Ok(_name) => {
                    s.phase = Phase::Idle;
                    return;
                }
                Err(f) => f,
            },
            (
                Heard::Line(line),
                Phase::Asked {
                    question,
                    answer: answer @ None,
                    ..
                },
            ) => match conversation::read_action(&line, &question.legal_actions) {
                Ok(action) => {
                    *answer = Some(action);
                    return;
                }
                Err(f) => f,
            },
            (Heard::Line(line), _) if s.unread.len() < MAX_UNREAD => {
                s.unread.push_back(line);
                return;
            }
            (Heard::Line(_), _) => {
                Failure::Malformed(format!("{MAX_UNREAD} lines nobody asked for"))
            }
        };
        self.dismiss(i, failure, out);
    }

    /// The driver proposed a decision for `chair`: whether the room plays it, an outside bot's
    /// answer instead, or waits for the bot (asking it first).
    pub(super) fn outside_turn(&mut self, chair: Player, now: u64, out: &mut Vec<Output>) -> Turn {
        let Some(i) = self
            .outside
            .iter()
            .position(|s| s.chair == chair && !matches!(s.phase, Phase::Dismissed | Phase::Done))
        else {
            return Turn::NotOutside;
        };
        let Some(session) = self.session() else {
            return Turn::NotOutside;
        };
        let current = session.observation(chair);
        let hand = session.hand_number();
        let s = &mut self.outside[i];
        match &mut s.phase {
            Phase::Unstarted => {
                self.start_outside(i, now, out);
                return Turn::Wait(self.outside_wake());
            }
            Phase::Greeting { until } => return Turn::Wait(Some(*until)),
            Phase::Asked {
                question, answer, ..
            } if **question == current && answer.is_some() => {
                let action = answer.take().expect("checked");
                s.phase = Phase::Idle;
                return Turn::Play(action);
            }
            // Asked this; or asked something the table has moved on from, whose answer comes
            // first (then is dropped).
            Phase::Asked {
                until,
                answer: None,
                ..
            } => return Turn::Wait(Some(*until)),
            // Its answer to a question the table moved on from: dropped, and asked anew.
            Phase::Asked { .. } | Phase::Idle => s.phase = Phase::Idle,
            Phase::Done | Phase::Dismissed => return Turn::NotOutside,
        }
        // Idle: a line written ahead is its answer, as a pipe would have kept it.
        if let Some(line) = s.unread.pop_front() {
            return match conversation::read_action(&line, &current.legal_actions) {
                Ok(action) => Turn::Play(action),
                Err(f) => {
                    self.dismiss(i, f, out);
                    Turn::Dismissed
                }
            };
        }
        let until = now.saturating_add(s.limits.decision.as_millis() as u64);
        out.push(Output::OutsideBot {
            seat: s.seat,
            order: BotOrder::Say(Box::new(ToBot::Decide(Decide::new(hand, current.clone())))),
        });
        s.phase = Phase::Asked {
            question: Box::new(current),
            until,
            answer: None,
        };
        Turn::Wait(Some(until))
    }

    /// A hand ended with `outcome` (the match too when `match_over`): the bots hear of it; at
    /// the match's end they are told the standings and their input is closed.
    pub(super) fn outside_hand_end(
        &mut self,
        hand: u32,
        outcome: &HandOutcome,
        payments: &[i64],
        match_over: bool,
        out: &mut Vec<Output>,
    ) {
        let end = match_over
            .then(|| self.session())
            .flatten()
            .map(|s| (s.matches().hands_played(), s.standings()));
        for s in &mut self.outside {
            if !matches!(
                s.phase,
                Phase::Greeting { .. } | Phase::Idle | Phase::Asked { .. }
            ) {
                continue;
            }
            out.push(Output::OutsideBot {
                seat: s.seat,
                order: BotOrder::Say(Box::new(ToBot::HandEnd(HandEnd {
                    hand,
                    outcome: outcome.clone(),
                    payments: payments.to_vec(),
                }))),
            });
            if let Some((hands, standings)) = &end {
                out.push(Output::OutsideBot {
                    seat: s.seat,
                    order: BotOrder::Say(Box::new(ToBot::MatchEnd(MatchEnd {
                        hands: *hands,
                        standings: standings.clone(),
                    }))),
                });
                out.push(Output::OutsideBot {
                    seat: s.seat,
                    order: BotOrder::Finish,
                });
                s.phase = Phase::Done;
            }
        }
    }

    /// Dismisses bot `i`: told why and ended; `efficient` plays its chair from now on; the
    /// room's summary lists it.
    fn dismiss(&mut self, i: usize, failure: Failure, out: &mut Vec<Output>) {
        let hand = self.session().map_or(1, |s| s.hand_number());
        let s = &mut self.outside[i];
        s.phase = Phase::Dismissed;
        out.push(Output::OutsideBot {
            seat: s.seat,
            order: BotOrder::Say(Box::new(conversation::dismissal(&failure))),
        });
        out.push(Output::OutsideBot {
            seat: s.seat,
            order: BotOrder::Kill,
        });
        let efficient = EfficientBot::new(self.ruleset.clone(), s.seed);
        let (chair, seat, label) = (s.chair, s.seat, s.label.clone());
        if let Some(driver) = self.driver.as_mut() {
            let _ = driver.set_controller(chair, Controller::Bot(Box::new(efficient)));
        }
        self.dismissals.push(Dismissal {
            seat,
            bot: label,
            hand,
            reason: reason(&failure).to_string(),
            message: failure.to_string(),
        });
        out.push(Output::Dismissed(Box::new(
            self.dismissals.last().cloned().expect("pushed"),
        )));
    }
}

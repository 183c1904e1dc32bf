//! Reviewing a match: the expert looks at one seat's decisions and says where they cost.
//!
//! [`review`] re-drives a match log (a [`Session`] fed the logged actions, after
//! [`replay`](crate::table::replay()) has checked the log), and at every decision of the chosen
//! seat that had a choice — a discard (the Fortune Gambit among them), a chow, pung, kong or
//! pass, a win or declining it — builds that seat's [`Observation`] (what it could see then,
//! never the hidden tiles) and asks the [`ExpertBot`] to [`evaluate`](ExpertBot::evaluate)
//! every real alternative ([`Scope::Every`]): the value of each (the chips the rule set's own
//! settlement pays, [`UNIT`]) with its
//! standard error over the playouts, the expert's choice, and what the player did. A decision
//! is **flagged** when the expert's choice beats the one played by more than
//! [`FLAG_BY`] standard errors of their paired difference (the same worlds for both). Each hand
//! and the match are summed up: agreement with the expert and the estimated value lost.
//!
//! The expert's choice here is the expert bot's own decision at the same seed and budget (the
//! review asks the same evaluation the bot plays by; a test checks it over a whole match).
//! Deterministic: a log, a seat, a seed and a budget give the same review. No I/O: the log's
//! text comes in, progress goes out through a callback.
//!
//! ```
//! use majiang::bots::{self, Bot};
//! use majiang::review::{ReviewOptions, review};
//! use majiang::table::TableRules;
//! use std::sync::Arc;
//!
//! let rules = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
//! let mut players: Vec<Box<dyn Bot>> = (0..4)
//!     .map(|i| bots::by_name("efficient", &rules, i).unwrap())
//!     .collect();
//! let (_, log) = majiang::driver::play_match(rules, 7, Some(1), &mut players).unwrap();
//! let mut options = ReviewOptions::new(0);
//! options.budget.rollouts = 8;
//! let mut seen = 0;
//! let r = review(&log.to_jsonl(), &options, |p| seen = p.actions_done).unwrap();
//! assert_eq!(r.hands.len(), 1);
//! assert!(r.summary.decisions > 0);
//! assert!(seen > 0);
//! ```

mod facts;
mod suggest;
#[cfg(test)]
mod tests;

pub use facts::{ExtraWindMove, Facts, reason};
pub use suggest::{RunnerUp, Suggestion, hint, suggest};

use crate::bots::expert::{Budget, DecisionKind, Estimate, Evaluation, ExpertBot, Scope};
use crate::table::{
    Action, MatchLog, Observation, Player, ReplayError, Session, TableRules, log::LogRecord, replay,
};
use serde::Serialize;
use std::sync::Arc;

/// How many standard errors of the paired difference the expert's choice must beat the one
/// played by for the decision to be flagged.
pub const FLAG_BY: f64 = 2.0;

/// The unit of every value in a review or hint: the chips the rule set's settlement pays.
pub const UNIT: &str = "chips";

/// What to review, and with how much search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReviewOptions {
    /// The seat reviewed: the entrant's number (from 0, as the log's names and standings
    /// count them).
    pub seat: usize,
    /// The expert's seed.
    pub seed: u64,
    /// The expert's budget.
    pub budget: Budget,
}

/// The expert's seed a review uses unless told otherwise, and the one `play --hints` asks:
/// the same seed, budget and observation give the same judgement in both.
pub const EXPERT_SEED: u64 = 0;

impl ReviewOptions {
    /// Reviewing entrant `seat` with seed 0 and the expert's default budget.
    pub fn new(seat: usize) -> ReviewOptions {
        ReviewOptions {
            seat,
            seed: EXPERT_SEED,
            budget: Budget::DEFAULT,
        }
    }
}

/// How far a review has got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Actions of the log re-applied so far.
    pub actions_done: usize,
    /// Actions in the log.
    pub actions_total: usize,
    /// The hand being reviewed (from 1).
    pub hand: u32,
    /// The seat's decisions valued so far.
    pub decisions_done: usize,
    /// The seat's decisions in the log (each is valued by the expert: they are the review's
    /// cost, the other actions are only re-applied).
    pub decisions_total: usize,
}

/// Why a log cannot be reviewed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReviewError {
    /// The log does not replay.
    #[error("the log does not replay: {0}")]
    Replay(#[from] ReplayError),
    /// No such seat.
    #[error("there is no seat {seat}: the match had {players} players (seats 0 to {last})", last = .players.saturating_sub(1))]
    NoSuchSeat {
        /// The seat asked for.
        seat: usize,
        /// Players in the match.
        players: usize,
    },
}

/// How an alternative compares with the expert's choice, in words a player uses: from its
/// paired difference ([`Alternative::versus`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Band {
    /// The expert's choice itself.
    Expert,
    /// Within the playouts' noise of the expert's choice (the paired difference is within
    /// [`FLAG_BY`] standard errors of 0), whichever way it leans.
    AboutEqual,
    /// Worse beyond the noise, by less than [`CLEARLY`] of a hand's typical swing.
    SlightlyWorse,
    /// Worse beyond the noise, by at least [`CLEARLY`] of a hand's typical swing.
    ClearlyWorse,
    /// Better than the expert's choice beyond the noise of comparing every alternative with
    /// it ([`better_by`]): the expert's rule decided, or the search did not try it.
    Better,
}

/// How many standard errors of the paired difference an alternative must beat the expert's
/// choice by to be called better, when `compared` alternatives are compared with it: the
/// best of many noisy differences is biased upwards, so each one is held to a one-sided 2.5 %
/// chance shared among them (Bonferroni: 2 standard errors for one alternative, 2.9 for 13).
pub fn better_by(compared: usize) -> f64 {
    crate::bots::expert::clear_margin(compared).max(FLAG_BY)
}

/// The share of a hand's typical swing (the standard deviation of the expert's choice's
/// payment over the worlds) a loss beyond noise must reach to be "clearly worse": a loss
/// smaller than a tenth of what one hand moves either way is "slightly worse".
pub const CLEARLY: f64 = 0.1;

impl Band {
    /// The band of an alternative whose paired difference from the expert's choice is
    /// `versus` (alternative less expert), the expert's choice valued at `expert`, among
    /// `compared` alternatives compared with it.
    pub fn of(versus: Estimate, expert: Estimate, compared: usize) -> Band {
        if versus.mean > 0.0 {
            if versus.mean > better_by(compared) * versus.se {
                Band::Better
            } else {
                Band::AboutEqual
            }
        } else if -versus.mean <= FLAG_BY * versus.se {
            Band::AboutEqual
        } else {
            let swing = expert.se * f64::from(expert.worlds).sqrt();
            if -versus.mean >= CLEARLY * swing {
                Band::ClearlyWorse
            } else {
                Band::SlightlyWorse
            }
        }
    }
}

/// One alternative of a decision, valued.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Alternative {
    /// The action.
    pub action: Action,
    /// Its value: the seat's mean payment in the playouts (chips), with its standard error.
    pub value: Estimate,
    /// It less the expert's choice, paired over the same worlds (`None` for the expert's own,
    /// or when the expert's choice was not valued).
    pub versus: Option<Estimate>,
    /// How it compares with the expert's choice in words (`None` when not compared).
    pub band: Option<Band>,
    /// What a person weighs about it.
    pub facts: Facts,
}

/// One decision of the reviewed seat.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Decision {
    /// The hand (from 1).
    pub hand: u32,
    /// The number of the seat's decision in the hand (from 1).
    pub number: u32,
    /// The log's actions before this decision (from 0, every player's, over the whole match):
    /// where a replay finds the moment of the decision.
    pub at: usize,
    /// Tiles left in the live wall.
    pub live_wall: usize,
    /// The kind of decision.
    pub kind: DecisionKind,
    /// The seat's concealed tiles then (notation; the extra winds it holds included).
    pub concealed: String,
    /// The tile on offer (a call or a win on a discard).
    pub on_offer: Option<crate::tile::Tile>,
    /// What the player did.
    pub played: Action,
    /// What the expert plays.
    pub expert: Action,
    /// Whether they are the same.
    pub agreed: bool,
    /// Every alternative valued, the expert's first, then best first.
    pub alternatives: Vec<Alternative>,
    /// The expert's choice less the one played, paired over the same worlds (`None` when one
    /// of them was not valued).
    pub lost: Option<Estimate>,
    /// The loss is beyond the uncertainty ([`FLAG_BY`] standard errors).
    pub flagged: bool,
    /// Why, in one line, for a flagged decision.
    pub reason: Option<String>,
}

/// Agreement and value lost over some decisions.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
pub struct Summary {
    /// Decisions with a choice.
    pub decisions: u32,
    /// Of them, the expert's choice.
    pub agreed: u32,
    /// Decisions where the player differed and both choices were valued.
    pub compared: u32,
    /// Flagged decisions.
    pub flagged: u32,
    /// The estimated value lost over the compared decisions (negative: the player's choices
    /// did better in the playouts), in chips.
    pub lost: f64,
    /// Its standard error.
    pub lost_se: f64,
}

impl Summary {
    fn add(&mut self, d: &Decision) {
        self.decisions += 1;
        self.agreed += u32::from(d.agreed);
        self.flagged += u32::from(d.flagged);
        if let (false, Some(l)) = (d.agreed, d.lost) {
            self.compared += 1;
            self.lost += l.mean;
            self.lost_se = (self.lost_se.powi(2) + l.se.powi(2)).sqrt();
        }
    }

    fn merge(&mut self, o: &Summary) {
        self.decisions += o.decisions;
        self.agreed += o.agreed;
        self.compared += o.compared;
        self.flagged += o.flagged;
        self.lost += o.lost;
        self.lost_se = (self.lost_se.powi(2) + o.lost_se.powi(2)).sqrt();
    }

    /// The share of decisions where the player chose as the expert does (1 with none).
    pub fn agreement(&self) -> f64 {
        if self.decisions == 0 {
            1.0
        } else {
            f64::from(self.agreed) / f64::from(self.decisions)
        }
    }
}

/// One hand of the review.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HandReview {
    /// The hand (from 1).
    pub hand: u32,
    /// What the hand paid the seat (chips; absent if the log stops inside it).
    pub result: Option<i64>,
    /// Its decisions in order.
    pub decisions: Vec<Decision>,
    /// Their summary.
    pub summary: Summary,
}

/// A match reviewed for one seat.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchReview {
    /// The rule set.
    pub rules: String,
    /// The unit values are in: `chips`, the payments the rule set's own settlement makes
    /// (its fan, multiplier or points turned into what changes hands), as the match ledger
    /// counts them.
    pub unit: String,
    /// The rule set's scoring unit (`fan`, `multiplier`, `points`), for reference.
    pub score_unit: String,
    /// The reviewed seat (entrant).
    pub seat: usize,
    /// Its chair at the table.
    pub chair: Player,
    /// Its name in the log, when the log has names.
    pub name: Option<String>,
    /// The expert's seed.
    pub seed: u64,
    /// Worlds per decision in the expert's budget.
    pub rollouts: u32,
    /// Whether the log runs to the end of the match.
    pub complete: bool,
    /// The line the log stops in the middle of (a file still being written, or cut short),
    /// left out: the hands before it are reviewed. Absent for a log of whole lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut_at: Option<usize>,
    /// The hands, in order.
    pub hands: Vec<HandReview>,
    /// The whole match.
    pub summary: Summary,
    /// The estimated value lost per hand.
    pub lost_per_hand: f64,
}

impl MatchReview {
    /// The flagged decisions, costliest first.
    pub fn costliest(&self) -> Vec<&Decision> {
        let mut out: Vec<&Decision> = self
            .hands
            .iter()
            .flat_map(|h| h.decisions.iter())
            .filter(|d| d.flagged)
            .collect();
        out.sort_by(|a, b| {
            let l = |d: &Decision| d.lost.map_or(0.0, |l| l.mean);
            l(b).total_cmp(&l(a))
        });
        out
    }
}

/// How many of `actions` are `chair`'s decisions (two or more legal actions): one quick
/// re-drive of the log, so progress can count what costs.
fn count_decisions(
    ruleset: &Arc<TableRules>,
    header: &crate::table::log::LogHeader,
    actions: &[(u32, Player, Action)],
    chair: Player,
) -> Result<usize, ReviewError> {
    let fail = |error| ReviewError::Replay(ReplayError::Match { line: 0, error });
    let (mut session, _) = Session::new(ruleset.clone(), header.seed, header.hand_limit)
        .map_err(|error| ReviewError::Replay(ReplayError::Match { line: 1, error }))?;
    let mut n = 0;
    for &(hand, player, action) in actions {
        while session.awaiting_deal() && session.hand_number() < hand {
            session.deal_next().map_err(fail)?;
        }
        if player == chair && session.legal_actions(chair).len() > 1 {
            n += 1;
        }
        session.act(player, action).map_err(fail)?;
    }
    Ok(n)
}

/// `log` without a last line cut short (no newline after it, and not a whole JSON record),
/// with that line's number when one was left out.
fn whole_lines(log: &str) -> (&str, Option<usize>) {
    if log.ends_with('\n') {
        return (log, None);
    }
    let start = log.rfind('\n').map_or(0, |i| i + 1);
    let last = &log[start..];
    if start == 0 || serde_json::from_str::<serde_json::Value>(last).is_ok() {
        return (log, None);
    }
    (&log[..start], Some(log[..start].lines().count() + 1))
}

/// Reviews entrant `options.seat`'s decisions in the match `log` (JSON lines, as `play`,
/// `selfplay` and the server write them), calling `progress` after every action re-applied.
/// A byte-order mark before the first line is read past; a last line cut short (a log still
/// being written) is left out and named in [`MatchReview::cut_at`].
pub fn review(
    log: &str,
    options: &ReviewOptions,
    mut progress: impl FnMut(Progress),
) -> Result<MatchReview, ReviewError> {
    let log = log.strip_prefix('\u{feff}').unwrap_or(log);
    let (log, cut_at) = whole_lines(log);
    let report = replay(log)?;
    let players = usize::from(report.header.players);
    let chair = *report
        .chairs
        .get(options.seat)
        .ok_or(ReviewError::NoSuchSeat {
            seat: options.seat,
            players,
        })?;
    // The log replays, so it parses and its header builds the match.
    let parsed = MatchLog::parse(log).map_err(|e| ReviewError::Replay(e.into()))?;
    let header = &report.header;
    let ruleset = Arc::new(
        TableRules::from_name(&header.rules, &header.options).map_err(|e| {
            ReviewError::Replay(ReplayError::Header {
                line: 1,
                message: e.0.to_string(),
            })
        })?,
    );
    let (mut session, _) = Session::new(ruleset.clone(), header.seed, header.hand_limit)
        .map_err(|error| ReviewError::Replay(ReplayError::Match { line: 1, error }))?;
    let expert = ExpertBot::new(ruleset.clone(), options.seed).with_budget(options.budget);
    let actions: Vec<(u32, Player, Action)> = parsed
        .records
        .iter()
        .filter_map(|r| match r {
            LogRecord::Action {
                hand,
                player,
                action,
            } => Some((*hand, *player, *action)),
            _ => None,
        })
        .collect();
    let total = actions.len();
    let decisions_total = count_decisions(&ruleset, header, &actions, chair)?;
    let mut decisions_done = 0;
    let mut hands: Vec<HandReview> = Vec::new();
    for (done, &(hand, player, action)) in actions.iter().enumerate() {
        while session.awaiting_deal() && session.hand_number() < hand {
            session
                .deal_next()
                .map_err(|error| ReviewError::Replay(ReplayError::Match { line: 0, error }))?;
        }
        if hands.last().is_none_or(|h| h.hand != hand) {
            hands.push(HandReview {
                hand,
                result: None,
                decisions: Vec::new(),
                summary: Summary::default(),
            });
        }
        if player == chair {
            let legal = session.legal_actions(chair);
            if legal.len() > 1 {
                let obs = session.observation(chair);
                let evaluation = expert.evaluate(&obs, &legal, Scope::Every);
                decisions_done += 1;
                if let Some(h) = hands.last_mut() {
                    let number = h.decisions.len() as u32 + 1;
                    let d = decision(&obs, &ruleset, evaluation, action, (hand, number, done));
                    h.summary.add(&d);
                    h.decisions.push(d);
                }
            }
        }
        let step = session
            .act(player, action)
            .map_err(|error| ReviewError::Replay(ReplayError::Match { line: 0, error }))?;
        if let (Some(s), Some(h)) = (&step.settlement, hands.last_mut()) {
            h.result = s.payments.get(chair.index()).copied();
        }
        progress(Progress {
            actions_done: done + 1,
            actions_total: total,
            hand,
            decisions_done,
            decisions_total,
        });
    }
    let mut summary = Summary::default();
    for h in &hands {
        summary.merge(&h.summary);
    }
    let played = hands.len().max(1) as f64;
    Ok(MatchReview {
        rules: header.rules.clone(),
        unit: UNIT.to_string(),
        score_unit: ruleset.spec().unit.name().to_string(),
        seat: options.seat,
        chair,
        name: header.names.get(options.seat).cloned(),
        seed: options.seed,
        rollouts: expert.budget().rollouts,
        complete: report.complete,
        cut_at,
        hands,
        summary,
        lost_per_hand: summary.lost / played,
    })
}

/// The seat's concealed tiles in notation, the extra winds it holds (five- and six-player
/// classic: `5f`..`8f`) included.
pub fn hand_text(obs: &Observation) -> String {
    let mut tiles = obs.concealed.tiles();
    tiles.extend(obs.extra_winds.iter().copied());
    crate::notation::format_tiles(&tiles)
}

/// One decision reviewed: the evaluation, what was played, the loss and the reason.
fn decision(
    obs: &Observation,
    ruleset: &TableRules,
    evaluation: Evaluation,
    played: Action,
    (hand, number, at): (u32, u32, usize),
) -> Decision {
    let expert = evaluation.choice;
    let lost = (played != expert)
        .then(|| evaluation.compare(expert, played))
        .flatten();
    let flagged = lost.is_some_and(|l| l.clearly_positive(FLAG_BY));
    let expert_value = evaluation.value_of(expert).map(|v| v.value);
    let compared = evaluation.values.len().saturating_sub(1);
    let alternatives: Vec<Alternative> = evaluation
        .values
        .iter()
        .map(|v| {
            let versus = (v.action != expert)
                .then(|| evaluation.compare(v.action, expert))
                .flatten();
            let band = if v.action == expert {
                Some(Band::Expert)
            } else {
                versus
                    .zip(expert_value)
                    .map(|(d, e)| Band::of(d, e, compared))
            };
            Alternative {
                action: v.action,
                value: v.value,
                versus,
                band,
                facts: Facts::of(obs, ruleset, v.action, Some(v)),
            }
        })
        .collect();
    let facts_of = |a: Action| {
        alternatives
            .iter()
            .find(|x| x.action == a)
            .map(|x| x.facts.clone())
            .unwrap_or_else(|| Facts::of(obs, ruleset, a, None))
    };
    let reason = flagged.then(|| reason(&facts_of(expert), &facts_of(played)));
    Decision {
        hand,
        number,
        at,
        live_wall: obs.live_wall,
        kind: evaluation.kind,
        concealed: hand_text(obs),
        on_offer: obs.on_offer.map(|(_, t)| t),
        played,
        expert,
        agreed: played == expert,
        alternatives,
        lost,
        flagged,
        reason,
    }
}

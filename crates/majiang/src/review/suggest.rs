//! The learner's hint: the expert's suggested discard or call for a seat, with a one-line
//! reason (the distance from ready and the useful tiles it keeps, the danger of the tile, what
//! it does with an extra wind) and how it compares with the next best alternative (about
//! equal, slightly or clearly better), from what the seat sees. It is the same judgement as a
//! review's and the `hard` bot's: [`ExpertBot::evaluate`] at the same seed and budget.

use super::facts::Facts;
use super::{Band, ReviewOptions};
use crate::bots::expert::{Budget, Estimate, Evaluation, ExpertBot, Scope};
use crate::table::{Action, Observation, TableRules};
use std::sync::Arc;

/// The best alternative after the suggestion, and how the suggestion compares with it.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunnerUp {
    /// The alternative.
    pub action: Action,
    /// It less the suggestion, paired over the same worlds.
    pub versus: Estimate,
    /// In words: [`Band::AboutEqual`] when the two are within the playouts' noise.
    pub band: Band,
}

impl RunnerUp {
    /// The best-valued alternative other than the choice of `evaluation`, compared with it.
    pub fn of(evaluation: &Evaluation) -> Option<RunnerUp> {
        let choice = evaluation.choice;
        let expert = evaluation.value_of(choice)?.value;
        let compared = evaluation.values.len().saturating_sub(1);
        let best = evaluation
            .values
            .iter()
            .filter(|v| v.action != choice)
            .max_by(|a, b| a.value.mean.total_cmp(&b.value.mean))?;
        let versus = evaluation.compare(best.action, choice)?;
        Some(RunnerUp {
            action: best.action,
            versus,
            band: Band::of(versus, expert, compared),
        })
    }

    /// The comparison in words: "about equal to discard 3m".
    pub fn text(&self) -> String {
        self.text_naming(|a| a.to_string())
    }

    /// [`RunnerUp::text`], the alternative named by `named` (a terminal's tile glyphs).
    pub fn text_naming(&self, named: impl Fn(Action) -> String) -> String {
        let other = named(self.action);
        match self.band {
            Band::AboutEqual => format!("about equal to {other}"),
            Band::SlightlyWorse => format!("slightly better than {other}, the next best"),
            Band::ClearlyWorse => format!("clearly better than {other}, the next best"),
            Band::Better => format!("though {other} did better in the playouts"),
            Band::Expert => String::new(),
        }
    }
}

/// The expert's suggestion for one decision.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Suggestion {
    /// The suggested action.
    pub action: Action,
    /// What a person weighs about it.
    pub facts: Facts,
    /// Its value in the playouts, when valued.
    pub value: Option<Estimate>,
    /// The next best alternative and how the suggestion compares with it, when both were
    /// valued.
    pub runner_up: Option<RunnerUp>,
    /// The suggestion in one line: "discard 9p: ready on 6 unseen tiles, deals in 2 %;
    /// clearly better than discard 3m, the next best".
    pub text: String,
}

/// The expert's suggestion for the seat of `obs` among `legal` (its seed and budget given),
/// `None` when there is nothing to decide (one legal action or none).
pub fn suggest(
    obs: &Observation,
    legal: &[Action],
    ruleset: &Arc<TableRules>,
    seed: u64,
    budget: Budget,
) -> Option<Suggestion> {
    if legal.len() < 2 {
        return None;
    }
    let expert = ExpertBot::new(ruleset.clone(), seed).with_budget(budget);
    let evaluation = expert.evaluate(obs, legal, Scope::Every);
    let action = evaluation.choice;
    let valued = evaluation.value_of(action);
    let facts = Facts::of(obs, ruleset, action, valued);
    let runner_up = RunnerUp::of(&evaluation);
    let mut text = format!("{action}");
    let said = facts.text();
    if !said.is_empty() {
        text.push_str(": ");
        text.push_str(&said);
    }
    if let Some(r) = &runner_up {
        text.push_str(if said.is_empty() { ": " } else { "; " });
        text.push_str(&r.text());
    }
    Some(Suggestion {
        action,
        facts,
        value: valued.map(|v| v.value),
        runner_up,
        text,
    })
}

/// The review's judgement of the decision in `obs` (the seat's observation, its legal actions
/// in it), as a hint: [`suggest`] at the seed and budget a review uses unless told otherwise
/// ([`ReviewOptions::new`]: [`super::EXPERT_SEED`], [`Budget::DEFAULT`]). `majiang play --hints`
/// and the server's hints both ask this, so a review of the match at its defaults shows the
/// same ★, values and comparison for every hinted decision. `None` when there is nothing to
/// decide.
pub fn hint(obs: &Observation, ruleset: &Arc<TableRules>) -> Option<Suggestion> {
    let defaults = ReviewOptions::new(0);
    suggest(
        obs,
        &obs.legal_actions,
        ruleset,
        defaults.seed,
        defaults.budget,
    )
}

//! The learner's hint: the expert's suggested discard or call for a seat, with a one-line
//! reason (the distance from ready and the useful tiles it keeps, the danger of the tile, the
//! value it keeps), from what the seat sees.

use super::facts::Facts;
use crate::bots::expert::{Budget, Estimate, ExpertBot, Scope};
use crate::table::{Action, Observation, Ruleset};
use std::sync::Arc;

/// The expert's suggestion for one decision.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Suggestion {
    /// The suggested action.
    pub action: Action,
    /// What a person weighs about it.
    pub facts: Facts,
    /// Its value in the playouts, when valued.
    pub value: Option<Estimate>,
    /// The suggestion in one line: "discard 9p: ready on 6 unseen tiles, deals in 2 %, worth
    /// +1.40 chips a hand".
    pub text: String,
}

/// The expert's suggestion for the seat of `obs` among `legal` (its seed and budget given),
/// `None` when there is nothing to decide (one legal action or none).
pub fn suggest(
    obs: &Observation,
    legal: &[Action],
    ruleset: &Arc<Ruleset>,
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
    let mut text = format!("{action}");
    let said = facts.text();
    if !said.is_empty() {
        text.push_str(": ");
        text.push_str(&said);
    }
    if let Some(v) = valued {
        text.push_str(&format!(
            "{}worth {:+.2} {} a hand",
            if said.is_empty() { ": " } else { ", " },
            v.value.mean,
            super::UNIT
        ));
    }
    Some(Suggestion {
        action,
        facts,
        value: valued.map(|v| v.value),
        text,
    })
}

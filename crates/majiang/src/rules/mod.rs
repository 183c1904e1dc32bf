//! The four rule sets, one module each; the [registry] that lists them; scoring by rule-set
//! name.

pub mod classic;
pub mod hangzhou;
pub mod hongkong;
pub mod option_table;
pub mod registry;
pub mod yangzhou;

pub use registry::{RULE_SETS, RuleSetKind, RuleSetSpec, ScoreUnit, lookup};

use crate::scoring::request::{Malformed, ScoreRequest};
use crate::scoring::{Invalid, Scored};

/// Scores a request with the rule set it names. `Err` is input that cannot be read (bad
/// options); `Ok(Err(_))` is a readable hand that is not a valid win.
pub fn score(request: &ScoreRequest) -> Result<Result<Scored, Invalid>, Malformed> {
    (lookup(&request.rules)?.score_request)(&request.options, &request.situation)
}

#[cfg(test)]
mod tests;

//! The four rule sets, one module each, and scoring by rule-set name.

pub mod classic;
pub mod hangzhou;
pub mod hongkong;
pub mod yangzhou;

use crate::scoring::request::{Malformed, ScoreRequest};
use crate::scoring::{Invalid, Scored};

/// Scores a request with the rule set it names. `Err` is input that cannot be read (bad
/// options); `Ok(Err(_))` is a readable hand that is not a valid win.
pub fn score(request: &ScoreRequest) -> Result<Result<Scored, Invalid>, Malformed> {
    match request.rules.as_str() {
        "hongkong" => hongkong::score_request(&request.options, &request.situation),
        "hangzhou" => hangzhou::score_request(&request.options, &request.situation),
        "yangzhou" => yangzhou::score_request(&request.options, &request.situation),
        "classic" => classic::score_request(&request.options, &request.situation),
        other => Err(Malformed(format!("rules: {other:?} is not a rule set"))),
    }
}

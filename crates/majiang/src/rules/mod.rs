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
use serde_json::{Map, Value, json};

/// Scores a request with the rule set it names. `Err` is input that cannot be read (bad
/// options); `Ok(Err(_))` is a readable hand that is not a valid win.
pub fn score(request: &ScoreRequest) -> Result<Result<Scored, Invalid>, Malformed> {
    (lookup(&request.rules)?.score_request)(&request.options, &request.situation)
}

/// The answer of the scoring contract (`docs/score-json.md`) to an outcome: `{"valid": true,
/// "patterns", "total", "payments", "itemised"}` for a win (`itemised`: each payment with its
/// reason, `{"from", "to", "amount", "reason"}`), `{"valid": false, "reason"}` otherwise. Every
/// front end (`majiang score --json`, the server's `POST /api/score`) answers with this.
pub fn answer_json(outcome: &Result<Scored, Invalid>) -> Value {
    match outcome {
        Ok(s) => json!({
            "valid": true,
            "patterns": s.patterns,
            "total": s.total,
            "payments": s.payments.iter().map(|(k, v)| (k.name().to_string(), json!(v)))
                .collect::<Map<_, _>>(),
            "itemised": s.itemised,
        }),
        Err(Invalid(reason)) => json!({"valid": false, "reason": reason}),
    }
}

/// Reads a JSON scoring request, scores it and answers with [`answer_json`]: the whole of
/// `majiang score --json` for one request. `Err` is input that cannot be read.
///
/// ```
/// let answer = majiang::rules::score_json(r#"{"rules": "hongkong",
///     "concealed": "123m456p789s11z55z", "winning_tile": "5z", "win": "self_draw",
///     "seat": "south"}"#).unwrap();
/// assert_eq!(answer["valid"], true);
/// assert_eq!(answer["payments"]["south"], answer["itemised"].as_array().unwrap().iter()
///     .map(|p| p["amount"].as_i64().unwrap()).sum::<i64>());
/// ```
pub fn score_json(text: &str) -> Result<Value, Malformed> {
    let request = ScoreRequest::from_json(text)?;
    Ok(answer_json(&score(&request)?))
}

#[cfg(test)]
mod tests;

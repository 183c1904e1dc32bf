//! The four rule sets, one module each, each a [`RuleSet`] ([`rule_set`]); the [registry]
//! that lists them; scoring by rule-set name.

pub mod classic;
pub mod hangzhou;
pub mod hongkong;
pub mod option_table;
pub mod readiness;
pub mod registry;
pub mod rule_set;
pub mod yangzhou;

pub use registry::{RULE_SETS, lookup, reason_keys};
pub use rule_set::{RuleSet, RuleSetSpec, ScoreUnit};

use crate::scoring::request::{Malformed, ScoreRequest};
use crate::scoring::{Invalid, Payment, Scored};
use serde_json::{Map, Value, json};

/// Scores a request with the rule set it names. `Err` is input that cannot be read (bad
/// options); `Ok(Err(_))` is a readable hand that is not a valid win.
pub fn score(request: &ScoreRequest) -> Result<Result<Scored, Invalid>, Malformed> {
    lookup(&request.rules)?.score_request(&request.options, &request.situation)
}

/// The answer of the scoring contract (`docs/score-json.md`) to an outcome: `{"valid": true,
/// "patterns", "total", "payments"}` for a win, `{"valid": false, "reason"}` otherwise; with
/// `itemise` a win also lists each payment with its reason ([`itemised_json`]). Every front end
/// (`majiang score --json`, the server's `POST /api/score`) answers with this.
pub fn answer_json(outcome: &Result<Scored, Invalid>, itemise: bool) -> Value {
    match outcome {
        Ok(s) => {
            let mut answer = json!({
                "valid": true,
                "patterns": s.patterns,
                "total": s.total,
                "payments": s.payments.iter().map(|(k, v)| (k.name().to_string(), json!(v)))
                    .collect::<Map<_, _>>(),
            });
            if itemise {
                answer["itemised"] = itemised_json(&s.itemised);
            }
            answer
        }
        // The English reason, and the same as a catalogue key and its values.
        Err(Invalid(reason)) => {
            json!({"valid": false, "reason": reason.to_string(), "why": reason})
        }
    }
}

/// Each payment of a win with its reason: `[{"from", "to", "amount", "reason": {"key",
/// "args"}, "text"}]`, where `reason` is for a front end to word in its own language (the
/// browser's catalogues have a `reason.KEY` for every key of [`reason_keys`])
/// and `text` is the English wording.
pub fn itemised_json(itemised: &[Payment]) -> Value {
    itemised
        .iter()
        .map(|p| {
            json!({
                "from": p.from.name(),
                "to": p.to.name(),
                "amount": p.amount,
                "reason": p.reason,
                "text": p.reason.to_string(),
            })
        })
        .collect()
}

/// Reads a JSON scoring request, scores it and answers with [`answer_json`]: the whole of
/// `majiang score --json` for one request. `Err` is input that cannot be read.
///
/// ```
/// let request = r#"{"rules": "hongkong", "concealed": "123m456p789s11z55z",
///     "winning_tile": "5z", "win": "self_draw", "seat": "south", "options": {"min_fan": 0}"#;
/// let answer = majiang::rules::score_json(&format!("{request}}}")).unwrap();
/// assert_eq!(answer["valid"], true);
/// assert!(answer.get("itemised").is_none());
/// // Asked to, the answer lists each payment with its reason; they add up to the net.
/// let answer = majiang::rules::score_json(&format!(r#"{request}, "itemise": true}}"#)).unwrap();
/// let itemised = answer["itemised"].as_array().unwrap();
/// assert_eq!(itemised[0]["reason"]["key"], "hongkong.fan_self_draw");
/// assert_eq!(itemised[0]["text"], "3 fan → 8 points; self-draw: everyone pays double, 2 × 8");
/// assert_eq!(answer["payments"]["south"], itemised.iter()
///     .filter(|p| p["to"] == "south").map(|p| p["amount"].as_i64().unwrap()).sum::<i64>());
/// ```
pub fn score_json(text: &str) -> Result<Value, Malformed> {
    let request = ScoreRequest::from_json(text)?;
    Ok(answer_json(&score(&request)?, request.itemise))
}

#[cfg(test)]
mod tests;

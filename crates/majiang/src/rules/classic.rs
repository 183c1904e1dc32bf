//! The classic rule set (in progress).

use crate::scoring::request::Malformed;
use crate::scoring::{Invalid, Scored, WinSituation};

/// Scores a win under these rules with the given house-rule options.
pub fn score_request(
    _options: &serde_json::Map<String, serde_json::Value>,
    _situation: &WinSituation,
) -> Result<Result<Scored, Invalid>, Malformed> {
    Err(Malformed(
        "scoring for the classic rules is not available yet".into(),
    ))
}

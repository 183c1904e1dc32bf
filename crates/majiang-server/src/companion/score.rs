//! `POST /api/score`: the scoring request of `docs/score-json.md` in, the library's answer
//! ([`majiang::rules::score_json`]) out, serialised as `majiang score --json` prints it, so
//! the two agree byte for byte. A request that cannot be read is `400 {"error", "field"}`:
//! the library's message starts with the field at fault (`winning_tile: ...`), which the page
//! shows beside that field.

use crate::refusal::body as refusal;
use crate::words::{Words, api};
use axum::body::Bytes;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// Largest scoring request read.
const MAX_REQUEST: usize = 64 * 1024;

/// The answer to one scoring request, as text: exactly the line `majiang score --json` prints
/// (without its newline), or the message of a request that cannot be read.
pub fn answer_text(request: &str) -> Result<String, Words> {
    let answer = majiang::rules::score_json(request).map_err(|e| e.0)?;
    serde_json::to_string(&answer).map_err(|e| Words::text(e.to_string()))
}

/// The field a library message names first (`"melds[0].from: ..."` → `melds[0].from`), if
/// it starts with one.
pub fn field_of(message: &str) -> Option<&str> {
    let (head, _) = message.split_once(": ")?;
    let is_field = !head.is_empty()
        && head
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.[]".contains(c));
    is_field.then_some(head)
}

/// The handler.
pub async fn score(body: Bytes) -> Response {
    if body.len() > MAX_REQUEST {
        return (
            StatusCode::PAYLOAD_TOO_LARGE,
            axum::Json(refusal(&api::TOO_LARGE.with([(MAX_REQUEST / 1024).into()]))),
        )
            .into_response();
    }
    let Ok(text) = std::str::from_utf8(&body) else {
        return (
            StatusCode::BAD_REQUEST,
            axum::Json(refusal(&api::NOT_UTF8.plain())),
        )
            .into_response();
    };
    match answer_text(text) {
        Ok(answer) => ([(header::CONTENT_TYPE, "application/json")], answer).into_response(),
        Err(why) => {
            let message = why.to_string();
            let mut answer = refusal(&why);
            answer["field"] = json!(field_of(&message));
            (StatusCode::BAD_REQUEST, axum::Json(answer))
        }
        .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::field_of;

    #[test]
    fn the_field_at_fault_is_read_from_the_message() {
        assert_eq!(
            field_of("winning_tile: \"1x\" is not a tile"),
            Some("winning_tile")
        );
        assert_eq!(
            field_of("melds[0].from: \"up\" is not a seat"),
            Some("melds[0].from")
        );
        assert_eq!(field_of("not a scoring request: EOF"), None);
        assert_eq!(field_of("no colon here"), None);
    }
}

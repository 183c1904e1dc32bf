//! An HTTP refusal as every route answers one: the English words for API users and logs, the
//! catalogue key and values for a person's page.

use crate::words::Words;
use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// A refusal: `{"error"}` in English, `key` and `args` for a person's catalogue.
pub(crate) fn error(status: StatusCode, why: impl Into<Words>) -> Response {
    let why = why.into();
    (status, Json(body(&why))).into_response()
}

/// The JSON of a refusal: `error` (English), `key`, `args`.
pub(crate) fn body(why: &Words) -> serde_json::Value {
    serde_json::json!({ "error": why.to_string(), "key": why.key(), "args": why.args_json() })
}

//! The browser UI's files, embedded at build time from `web/` (see `build.rs`), with their
//! MIME types, and served as responses.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

/// A file of the embedded UI (`web/<path>`) as a response, or `404`. With `MAJIANG_WEB_DIR`
/// set (a developer's setting) the file is read from that folder instead, so an edited page
/// shows on reload without a rebuild.
pub(crate) fn web_file(path: &str) -> Response {
    let from_disk = std::env::var_os("MAJIANG_WEB_DIR")
        .filter(|_| {
            !path
                .split('/')
                .any(|part| part == ".." || part.starts_with('.'))
        })
        .and_then(|dir| std::fs::read(std::path::Path::new(&dir).join(path)).ok());
    if let Some(bytes) = from_disk {
        return (
            [
                (header::CONTENT_TYPE, mime(path)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response();
    }
    match file(path) {
        Some((body, content_type)) => (
            [
                (header::CONTENT_TYPE, content_type),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            body,
        )
            .into_response(),
        None => crate::refusal::error(
            StatusCode::NOT_FOUND,
            crate::words::api::NO_FILE.with([path.into()]),
        ),
    }
}

/// The bytes of `web/<path>` and its MIME type, if the file exists.
pub(crate) fn file(path: &str) -> Option<(&'static [u8], &'static str)> {
    WEB_FILES
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(p, bytes)| (*bytes, mime(p)))
}

/// The MIME type of a file by its extension.
pub(crate) fn mime(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    match ext.to_ascii_lowercase().as_str() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "ttf" => "font/ttf",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_web_file_is_embedded_with_its_type() {
        let (html, ty) = file("index.html").expect("web/index.html is embedded");
        assert!(!html.is_empty());
        assert_eq!(ty, "text/html; charset=utf-8");
        assert_eq!(file("favicon.svg").unwrap().1, "image/svg+xml");
        assert_eq!(mime("js/table.js"), "text/javascript; charset=utf-8");
        assert_eq!(mime("i18n/zh.json"), "application/json");
        assert!(file("../Cargo.toml").is_none());
        assert!(file("nope.js").is_none());
    }
}

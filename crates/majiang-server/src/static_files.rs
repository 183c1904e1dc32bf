//! The browser UI's files, embedded at build time from `web/` (see `build.rs`), with their
//! MIME types, served as responses: compressed (brotli or gzip, as the browser accepts, made
//! once per process on a thread of its own, see [`warm`]), with an ETag (a `304` when the browser already has the file), and
//! cached for a year (`immutable`) when asked for at the build's version (`?v=VERSION`, the
//! links the pages and modules carry), else revalidated on every use (`no-cache`).
//!
//! The tile sheet (`/tiles.svg`, every tile picture on one sheet) is drawn once and served
//! the same way.

use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use std::collections::HashMap;
use std::hash::Hasher;
use std::io::Write;
use std::sync::{LazyLock, OnceLock};

include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

/// The path of the tile sheet among the UI's files.
const TILE_SHEET: &str = "tiles.svg";
/// The key of the rule sets' description (`GET /api/rulesets`) among them: the same for the
/// life of the binary, so it is served as a file is (compressed, with an ETag).
pub(crate) const RULE_SETS: &str = "api/rulesets";
/// How long a versioned file may be kept: a year, the longest caches honour.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Files smaller than this go as they are: compressing them saves less than its headers.
const COMPRESS_FROM: usize = 512;

/// A content coding a response can go in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Coding {
    Brotli,
    Gzip,
    Identity,
}

impl Coding {
    /// The `Content-Encoding` token, `None` for identity.
    fn token(self) -> Option<&'static str> {
        match self {
            Coding::Brotli => Some("br"),
            Coding::Gzip => Some("gzip"),
            Coding::Identity => None,
        }
    }
}

/// One servable file: its bytes, type and ETag, and its compressed forms, made on first use.
struct Asset {
    bytes: Vec<u8>,
    mime: &'static str,
    /// A hash of the bytes: the identity form's ETag; a compressed form's adds `-br` or `-gz`.
    hash: String,
    brotli: OnceLock<Option<Vec<u8>>>,
    gzip: OnceLock<Option<Vec<u8>>>,
}

impl Asset {
    fn new(path: &str, bytes: Vec<u8>) -> Asset {
        Asset::typed(mime(path), bytes)
    }

    fn typed(mime: &'static str, bytes: Vec<u8>) -> Asset {
        // An ETag need only change when a byte does, within one binary: std's SipHash is
        // enough (it is not a security hash).
        let mut h = std::hash::DefaultHasher::new();
        h.write(&bytes);
        Asset {
            hash: format!("{:016x}", h.finish()),
            mime,
            bytes,
            brotli: OnceLock::new(),
            gzip: OnceLock::new(),
        }
    }

    /// The bytes in `coding`, `None` when that form is not kept (not compressible, or no
    /// smaller).
    fn encoded(&self, coding: Coding) -> Option<&[u8]> {
        let compressible = self.bytes.len() >= COMPRESS_FROM && compressible(self.mime);
        let smaller = |v: Vec<u8>| (v.len() < self.bytes.len()).then_some(v);
        match coding {
            Coding::Identity => Some(&self.bytes),
            Coding::Brotli => self
                .brotli
                .get_or_init(|| compressible.then(|| brotli(&self.bytes)).and_then(smaller))
                .as_deref(),
            Coding::Gzip => self
                .gzip
                .get_or_init(|| compressible.then(|| gzip(&self.bytes)).and_then(smaller))
                .as_deref(),
        }
    }

    /// The bytes in `coding` if that form is made already and kept (identity always is).
    fn ready(&self, coding: Coding) -> Option<&[u8]> {
        match coding {
            Coding::Identity => Some(&self.bytes),
            Coding::Brotli => self.brotli.get()?.as_deref(),
            Coding::Gzip => self.gzip.get()?.as_deref(),
        }
    }

    /// The ETag of the form in `coding`, quoted.
    fn etag_for(&self, coding: Coding) -> String {
        let hash = &self.hash;
        match coding {
            Coding::Identity => format!("\"{hash}\""),
            Coding::Brotli => format!("\"{hash}-br\""),
            Coding::Gzip => format!("\"{hash}-gz\""),
        }
    }
}

/// Every embedded file, the tile sheet and the rule sets, by path under `web/` (or
/// [`RULE_SETS`]).
static ASSETS: LazyLock<HashMap<&'static str, Asset>> = LazyLock::new(|| {
    let mut map: HashMap<&'static str, Asset> = WEB_FILES
        .iter()
        .map(|(path, bytes)| (*path, Asset::new(path, bytes.to_vec())))
        .collect();
    map.insert(
        TILE_SHEET,
        Asset::new(TILE_SHEET, crate::svg::tile_sheet().into_bytes()),
    );
    map.insert(RULE_SETS, Asset::typed("application/json", rule_sets()));
    map
});

/// Every rule set as the lobby needs it: names, seat counts, default players, unit, lao,
/// options (key, default, allowed values, meaning) and patterns, from the library's registry.
fn rule_sets() -> Vec<u8> {
    let sets: Vec<serde_json::Value> = majiang::rules::RULE_SETS
        .iter()
        .map(|set| set.spec().to_json())
        .collect();
    serde_json::to_vec(&sets).expect("JSON values serialize")
}

/// A route serving `web/<path>` (for pages at their own paths: `/` is `index.html`).
pub(crate) fn page<S: Clone + Send + Sync + 'static>(path: &'static str) -> MethodRouter<S> {
    get(move |headers: HeaderMap, uri: Uri| async move { serve(path, &headers, &uri) })
}

/// The UI file at `path` (under `web/`) as a response to a request with these headers and
/// URI (its `?v=` says whether the link was versioned), or `404`. With `MAJIANG_WEB_DIR` set
/// (a developer's setting) the file is read from that folder instead, uncompressed and
/// unversioned, so an edited page shows on reload without a rebuild.
pub(crate) fn serve(path: &str, headers: &HeaderMap, uri: &Uri) -> Response {
    if let Some(bytes) = from_disk(path) {
        return (
            [
                (header::CONTENT_TYPE, mime(path)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response();
    }
    let Some(asset) = ASSETS.get(path) else {
        return crate::refusal::error(
            StatusCode::NOT_FOUND,
            crate::words::api::NO_FILE.with([path.into()]),
        );
    };
    warm();
    let coding = [Coding::Brotli, Coding::Gzip]
        .into_iter()
        .find(|&c| accepts(headers, c) && asset.ready(c).is_some())
        .unwrap_or(Coding::Identity);
    let etag = asset.etag_for(coding);
    let versioned = uri
        .query()
        .is_some_and(|q| q.split('&').any(|kv| kv == format!("v={ASSET_VERSION}")));
    let cache = if versioned { IMMUTABLE } else { "no-cache" };
    let mut head = HeaderMap::new();
    head.insert(header::CONTENT_TYPE, HeaderValue::from_static(asset.mime));
    head.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    head.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    if let Ok(v) = HeaderValue::from_str(&etag) {
        head.insert(header::ETAG, v);
    }
    if matches_etag(headers, asset) {
        return (StatusCode::NOT_MODIFIED, head).into_response();
    }
    if let Some(token) = coding.token() {
        head.insert(header::CONTENT_ENCODING, HeaderValue::from_static(token));
    }
    let body = asset.ready(coding).unwrap_or(&asset.bytes).to_vec();
    (head, body).into_response()
}

/// The file from `MAJIANG_WEB_DIR`, when that is set and has it (never outside the folder).
fn from_disk(path: &str) -> Option<Vec<u8>> {
    std::env::var_os("MAJIANG_WEB_DIR")
        .filter(|_| {
            !path
                .split('/')
                .any(|part| part == ".." || part.starts_with('.'))
        })
        .and_then(|dir| std::fs::read(std::path::Path::new(&dir).join(path)).ok())
}

/// Whether the request's `Accept-Encoding` lists `coding` with a weight above zero.
fn accepts(headers: &HeaderMap, coding: Coding) -> bool {
    let Some(token) = coding.token() else {
        return true;
    };
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';').map(str::trim);
            let name = parts.next().unwrap_or("");
            let zero = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            name.eq_ignore_ascii_case(token) && !zero
        })
}

/// Whether `If-None-Match` names any form of `asset` (the browser has its bytes).
fn matches_etag(headers: &HeaderMap, asset: &Asset) -> bool {
    let base = asset.hash.as_str();
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/").trim_matches('"'))
        .any(|t| {
            t == "*"
                || t == base
                || t.strip_suffix("-br").or_else(|| t.strip_suffix("-gz")) == Some(base)
        })
}

/// Whether a type is text that compresses (pictures in PNG, fonts are compressed already).
fn compressible(mime: &str) -> bool {
    mime.starts_with("text/")
        || mime.starts_with("application/json")
        || mime.starts_with("application/manifest+json")
        || mime.starts_with("image/svg+xml")
}

/// Makes every file's compressed forms on a thread of its own, once per process, started by
/// the first file served: until a form is made the file goes in one that is (at worst as it
/// is), so no request waits for a compression (about a second for the whole UI unoptimized).
fn warm() {
    static WARMING: std::sync::Once = std::sync::Once::new();
    WARMING.call_once(|| {
        std::thread::spawn(|| {
            for asset in ASSETS.values() {
                let _ = asset.encoded(Coding::Gzip);
                let _ = asset.encoded(Coding::Brotli);
            }
        });
    });
}

/// `bytes` in brotli. Quality 7 of 11: about as small as gzip's best less a quarter, made
/// thirteen times faster than at 11 (the whole UI in about a second unoptimized, against
/// fourteen), which keeps the first pages a server serves quick. A 256 KB window (`lgwin`
/// 18) holds the largest file whole and keeps the encoder's memory small.
fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() / 3);
    let params = brotli::enc::BrotliEncoderParams {
        quality: 7,
        lgwin: 18,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &bytes[..], &mut out, &params).expect("writes to memory");
    out
}

/// `bytes` in gzip at its best level.
fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes).expect("writes to memory");
    enc.finish().expect("writes to memory")
}

/// The bytes of `web/<path>` and its MIME type, if the file exists (the tests read them).
#[cfg(test)]
pub(crate) fn file(path: &str) -> Option<(&'static [u8], &'static str)> {
    ASSETS.get(path).map(|a| (&a.bytes[..], a.mime))
}

/// The MIME type of a file by its extension.
pub(crate) fn mime(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    match ext.to_ascii_lowercase().as_str() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "webmanifest" => "application/manifest+json",
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
        assert_eq!(file("tiles.svg").unwrap().1, "image/svg+xml");
        assert_eq!(mime("js/table.js"), "text/javascript; charset=utf-8");
        assert_eq!(mime("i18n/zh.json"), "application/json");
        assert!(file("../Cargo.toml").is_none());
        assert!(file("nope.js").is_none());
    }

    #[test]
    fn links_and_imports_carry_the_version() {
        let v = format!("?v={ASSET_VERSION}");
        let html = std::str::from_utf8(file("index.html").unwrap().0).unwrap();
        assert!(html.contains(&format!("src=\"/js/main.js{v}\"")), "{html}");
        assert!(html.contains(&format!("href=\"/style.css{v}\"")));
        // Every module the page imports is named up front.
        assert!(html.contains(&format!(
            "<link rel=\"modulepreload\" href=\"/js/tiles.js{v}\">"
        )));
        // Pages are not assets: their links stay as they are.
        assert!(html.contains("href=\"/history\"") && html.contains("href=\"/\""));
        let main = std::str::from_utf8(file("js/main.js").unwrap().0).unwrap();
        assert!(main.contains(&format!("\"./i18n.js{v}\"")), "{main}");
        assert!(!main.contains("\"./i18n.js\""));
    }

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(k.clone(), HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn accept_encoding_is_read_with_weights() {
        let h = headers(&[(header::ACCEPT_ENCODING, "gzip, deflate, br;q=0")]);
        assert!(accepts(&h, Coding::Gzip) && !accepts(&h, Coding::Brotli));
        let h = headers(&[(header::ACCEPT_ENCODING, "BR;q=0.5")]);
        assert!(accepts(&h, Coding::Brotli) && !accepts(&h, Coding::Gzip));
        assert!(accepts(&HeaderMap::new(), Coding::Identity));
        assert!(!accepts(&HeaderMap::new(), Coding::Gzip));
    }

    #[test]
    fn compressed_forms_decode_to_the_file() {
        use std::io::Read;
        let asset = &ASSETS["js/table.js"];
        let br = asset.encoded(Coding::Brotli).unwrap();
        let gz = asset.encoded(Coding::Gzip).unwrap();
        assert!(br.len() < gz.len() && gz.len() < asset.bytes.len());
        let mut back = Vec::new();
        flate2::read::GzDecoder::new(gz)
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, asset.bytes);
        back.clear();
        brotli::Decompressor::new(br, 4096)
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, asset.bytes);
        // A PNG or a tiny file is not compressed.
        let tiny = Asset::new("a.js", b"x".to_vec());
        assert!(tiny.encoded(Coding::Brotli).is_none());
        assert_eq!(
            tiny.etag_for(Coding::Brotli),
            format!("\"{}-br\"", tiny.hash)
        );
    }
}

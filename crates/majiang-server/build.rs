//! Embeds every file under `web/` in the binary: writes `$OUT_DIR/web_files.rs`, a list of
//! `(path under web/, bytes)` the server serves, so a new module needs no server change.
//!
//! The files are fingerprinted on the way: one version for the whole UI (a hash of every file
//! under `web/` and of the tile pictures' code) is appended as `?v=VERSION` to the asset links
//! of the pages (`href="/style.css"`, `src="/js/main.js"`) and to the relative imports of the
//! modules (`from "./dom.js"`), so a browser may keep those URLs for a year (`immutable`) and a
//! new build changes every URL at once. `ASSET_VERSION` is written beside the list.

use std::collections::hash_map::DefaultHasher;
use std::fs;
use std::hash::Hasher;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Source files outside `web/` whose output the UI fetches (the tile sheet), hashed into the
/// version too.
const DRAWN_FROM: &[&str] = &["src/svg.rs", "src/glyphs/tile_glyphs.txt"];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    let web = manifest.join("web");
    println!("cargo:rerun-if-changed=web");
    let mut files = Vec::new();
    collect(&web, &mut files);
    files.sort();

    // The fingerprint need only change when a byte does, within one toolchain: SipHash with
    // std's fixed keys is enough (it is not a security hash, and a new toolchain changing it
    // only costs one reload).
    let mut hasher = DefaultHasher::new();
    for path in &files {
        hasher.write(relative(&web, path).as_bytes());
        hasher.write(&fs::read(path).expect("web/ is readable"));
    }
    for extra in DRAWN_FROM {
        println!("cargo:rerun-if-changed={extra}");
        hasher.write(&fs::read(manifest.join(extra)).unwrap_or_default());
    }
    let version = format!("{:012x}", hasher.finish() & 0xffff_ffff_ffff);

    let precache = precache_list(&web, &version);
    // The main page names every module it will import up front, so the browser fetches them
    // at once instead of one level of imports after another.
    let preload: String = page_assets(&web)
        .iter()
        .filter(|a| a.ends_with(".js") || a.ends_with(".mjs"))
        .skip(1) // js/main.js, the page's own script
        .map(|m| format!("<link rel=\"modulepreload\" href=\"/{m}\">\n"))
        .collect();
    let rewritten = out_dir.join("web");
    let list = out_dir.join("web_files.rs");
    let mut f = fs::File::create(&list).expect("OUT_DIR is writable");
    writeln!(
        f,
        "/// The UI's version: appended as `?v=` to the pages' asset links and the modules'\n\
         /// imports (see `build.rs`).\npub(crate) const ASSET_VERSION: &str = {version:?};"
    )
    .unwrap();
    writeln!(
        f,
        "/// Every file under `web/`: its path there (with `/`) and its bytes (links versioned)."
    )
    .unwrap();
    writeln!(f, "pub(crate) static WEB_FILES: &[(&str, &[u8])] = &[").unwrap();
    for path in &files {
        let rel = relative(&web, path);
        let bytes = fs::read(path).expect("web/ is readable");
        let text = if rel == "sw.js" {
            std::str::from_utf8(&bytes)
                .ok()
                .map(|sw| sw.replacen(PRECACHE_MARK, &format!("const PRECACHE = {precache};"), 1))
        } else if rel == "index.html" {
            std::str::from_utf8(&bytes).ok().and_then(|page| {
                let page = page.replacen("</head>", &format!("{preload}</head>"), 1);
                versioned(&rel, page.as_bytes(), &version)
            })
        } else {
            versioned(&rel, &bytes, &version)
        };
        let embedded = match text {
            Some(text) => {
                let target = rewritten.join(&rel);
                fs::create_dir_all(target.parent().expect("a file has a folder"))
                    .expect("OUT_DIR is writable");
                fs::write(&target, text).expect("OUT_DIR is writable");
                target
            }
            None => path.clone(),
        };
        writeln!(
            f,
            "    ({rel:?}, include_bytes!({:?})),",
            embedded.display().to_string()
        )
        .unwrap();
    }
    writeln!(f, "];").unwrap();
}

/// The line of `web/sw.js` that the list of files to keep for offline use replaces.
const PRECACHE_MARK: &str = "const PRECACHE = [];";

/// What the service worker keeps when it installs, as a JavaScript array of URLs: the pages
/// `/` and `/history`, the main page's assets and modules ([`page_assets`]), the catalogues
/// and the tile sheet, each at `version`.
fn precache_list(web: &Path, version: &str) -> String {
    let mut urls = vec!["/".to_string(), "/history".to_string()];
    let mut assets = page_assets(web);
    if let Ok(entries) = fs::read_dir(web.join("i18n")) {
        let mut cats: Vec<String> = entries
            .flatten()
            .map(|e| format!("i18n/{}", e.file_name().to_string_lossy()))
            .filter(|p| p.ends_with(".json"))
            .collect();
        cats.sort();
        assets.extend(cats);
    }
    assets.push("tiles.svg".into());
    urls.extend(assets.iter().map(|a| format!("/{a}?v={version}")));
    format!(
        "[{}]",
        urls.iter()
            .map(|u| format!("{u:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The main page's (`index.html`'s) assets, paths under `web/`: its links and scripts, and
/// every module its scripts import, followed through their imports, breadth first.
fn page_assets(web: &Path) -> Vec<String> {
    let read = |rel: &str| fs::read_to_string(web.join(rel)).unwrap_or_default();
    let mut assets: Vec<String> = Vec::new();
    for_each_target(&read("index.html"), "href=\"/", |t| {
        if is_asset(t) {
            assets.push(t.trim_start_matches('/').to_string());
        }
    });
    for_each_target(&read("index.html"), "src=\"/", |t| {
        assets.push(t.trim_start_matches('/').to_string());
    });
    // The module graph, breadth first from the page's scripts.
    let mut i = 0;
    while i < assets.len() {
        if assets[i].ends_with(".js") || assets[i].ends_with(".mjs") {
            let dir = assets[i]
                .rsplit_once('/')
                .map_or("", |(d, _)| d)
                .to_string();
            let text = read(&assets[i]);
            for start in ["from \"", "import \"", "import(\""] {
                for_each_target(&text, start, |t| {
                    if let Some(rel) = t.strip_prefix("./") {
                        let path = if dir.is_empty() {
                            rel.to_string()
                        } else {
                            format!("{dir}/{rel}")
                        };
                        if !assets.contains(&path) {
                            assets.push(path);
                        }
                    }
                });
            }
        }
        i += 1;
    }
    assets
}

/// Calls `f` with every quoted target that follows `start` (see [`append_version`]).
fn for_each_target(text: &str, start: &str, mut f: impl FnMut(&str)) {
    let skip = if start.ends_with('/') {
        start.len() - 1
    } else {
        start.len()
    };
    let mut rest = text;
    while let Some(at) = rest.find(start) {
        rest = &rest[at + skip..];
        let Some(close) = rest.find('"') else { break };
        f(&rest[..close]);
        rest = &rest[close..];
    }
}

/// `path` under `web` with `/` between its parts.
fn relative(web: &Path, path: &Path) -> String {
    path.strip_prefix(web)
        .expect("under web/")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The text of a page or module with its asset links versioned, or `None` for a file left as
/// it is.
fn versioned(rel: &str, bytes: &[u8], version: &str) -> Option<String> {
    let text = std::str::from_utf8(bytes).ok()?;
    if rel.ends_with(".html") {
        let mut out = text.to_string();
        for attr in ["href=\"/", "src=\"/"] {
            out = append_version(&out, attr, version, is_asset);
        }
        Some(out)
    } else if rel.ends_with(".js") || rel.ends_with(".mjs") {
        let mut out = text.to_string();
        for start in ["from \"", "import \"", "import(\""] {
            out = append_version(&out, start, version, |target| {
                target.starts_with("./") || target.starts_with("../")
            });
        }
        Some(out)
    } else {
        None
    }
}

/// Whether a page's link names a static file (not a page such as `/history`).
fn is_asset(target: &str) -> bool {
    let ext = target.rsplit_once('.').map_or("", |(_, e)| e);
    matches!(
        ext,
        "css" | "js" | "mjs" | "svg" | "png" | "json" | "webmanifest"
    )
}

/// `text` with `?v=VERSION` added to every quoted target that follows `start` (which ends
/// with the opening quote, and may end with a leading `/` that belongs to the target) and
/// passes `wanted`.
fn append_version(text: &str, start: &str, version: &str, wanted: impl Fn(&str) -> bool) -> String {
    let keep_slash = start.ends_with('/');
    let prefix = if keep_slash {
        &start[..start.len() - 1]
    } else {
        start
    };
    let mut out = String::with_capacity(text.len() + 64);
    let mut rest = text;
    while let Some(at) = rest.find(start) {
        let open = at + prefix.len();
        out.push_str(&rest[..open]);
        rest = &rest[open..];
        let Some(close) = rest.find('"') else { break };
        let target = &rest[..close];
        out.push_str(target);
        if wanted(target) && !target.contains('?') {
            out.push_str("?v=");
            out.push_str(version);
        }
        rest = &rest[close..];
    }
    out.push_str(rest);
    out
}

/// Every file under `dir`, skipping hidden ones (editor swap files, `.DS_Store`).
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if e.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            println!("cargo:rerun-if-changed={}", path.display());
            collect(&path, out);
        } else {
            out.push(path);
        }
    }
}

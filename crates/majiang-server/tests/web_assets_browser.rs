//! What the table costs to load, and that it installs like an app, measured in headless
//! Chromium (the browser's own Resource Timing entries, and Chrome DevTools Protocol commands
//! through chromedriver to empty the cache and to mark when the first hand tile enters the
//! page):
//!
//! - the table of a match in play, opened with an empty cache: at most 150 KB sent by the
//!   server (counted on the wire by a relay in front of it: the page, its files, its API
//!   answers, the WebSocket and the service worker's downloads, headers included),
//!   the 43 tile pictures in one request, the first hand tile in the page within the limit;
//!   opened again (a reload): at most 15 KB;
//! - the web app manifest (standalone, icons that load at their sizes) and the service
//!   worker, which takes control, keeps the files and, with the server stopped, opens the
//!   lobby with "you are offline" in each language.
//!
//! The figures go to the test's output and to `target/e2e-screenshots/web-performance.txt`
//! (`docs/web-performance.md` records a run). Needs `/usr/bin/chromium` and
//! `/usr/bin/chromedriver` (see `majiang_testkit::browser`).

use fantoccini::Client;
use futures_util::FutureExt;
use majiang_server::App;
use majiang_testkit::browser::{self, Browser, err, save_screenshot, switch_language, wait_for};
use majiang_testkit::browser_mobile::cdp;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The issue's targets: the table's first load and a reload, in bytes transferred.
const FIRST_LOAD_MAX: u64 = 150 * 1024;
const RELOAD_MAX: u64 = 15 * 1024;
/// The target for the first hand tile is 300 ms on an idle machine's loopback (the figure is
/// reported); the test fails only past this, which a shared, loaded test machine stays under
/// unless the page waits on something it should not.
const FIRST_TILE_LIMIT_MS: f64 = 3000.0;

/// Makes the page a 390×844 phone's (a desktop window is at least 500 px wide), with touch.
pub(crate) async fn phone(c: &Client) -> Result<(), String> {
    cdp(
        c,
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true }),
    )
    .await?;
    cdp(
        c,
        "Emulation.setTouchEmulationEnabled",
        json!({ "enabled": true, "maxTouchPoints": 5 }),
    )
    .await?;
    Ok(())
}

/// Run in every new page before its own scripts: marks `first-hand-tile` when a tile first
/// shows in the hand, and `first-hand-tile-painted` at the frame after.
const MARK_FIRST_TILE: &str = r#"
new MutationObserver((_, obs) => {
  if (!document.querySelector('#hand .tile')) return;
  obs.disconnect();
  performance.mark('first-hand-tile');
  requestAnimationFrame(() => setTimeout(() => performance.mark('first-hand-tile-painted'), 0));
}).observe(document, { childList: true, subtree: true });
"#;

/// The page's load as Resource Timing tells it: bytes transferred (headers and body, the
/// page and every file and API answer), the bodies as sent, the requests, and the marks.
const LOAD_FIGURES: &str = r#"
const nav = performance.getEntriesByType('navigation')[0];
const res = performance.getEntriesByType('resource');
const all = [nav, ...res];
const mark = (n) => { const m = performance.getEntriesByName(n)[0]; return m ? m.startTime : null; };
return {
  transferred: all.reduce((s, e) => s + e.transferSize, 0),
  encoded: all.reduce((s, e) => s + e.encodedBodySize, 0),
  decoded: all.reduce((s, e) => s + e.decodedBodySize, 0),
  requests: all.length,
  tile_requests: res.filter((e) => /^\/(tiles\.svg|tile\/)/.test(new URL(e.name).pathname)).length,
  // Each tile picture fetch: its path, and whether the service worker answered it (it does
  // once it takes control, which on a loaded machine can be in the middle of the first load).
  tile_fetches: res.filter((e) => /^\/(tiles\.svg|tile\/)/.test(new URL(e.name).pathname))
    .map((e) => [new URL(e.name).pathname, e.workerStart > 0]),
  first_hand_tile_ms: mark('first-hand-tile'),
  painted_ms: mark('first-hand-tile-painted'),
  files: all.map((e) => [new URL(e.name).pathname, e.transferSize, e.encodedBodySize]),
};
"#;

/// Starts a server that stops when `stop` is sent.
async fn start_stoppable() -> (App, SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let store = std::sync::Arc::new(majiang_server::SqliteStore::in_memory().unwrap());
    let app = App::with_limits(store, None, majiang_server::Limits::default())
        .await
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let a = app.clone();
    tokio::spawn(async move {
        let _ = majiang_server::serve(listener, a, async {
            let _ = stopped.await;
        })
        .await;
    });
    (app, addr, stop)
}

/// A TCP relay in front of the server that counts the bytes the server sends: what the
/// browser receives on the wire, the service worker's downloads and the WebSocket included.
struct Wire {
    addr: SocketAddr,
    down: Arc<AtomicU64>,
}

impl Wire {
    async fn start(server: SocketAddr) -> Wire {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let down = Arc::new(AtomicU64::new(0));
        let counter = down.clone();
        tokio::spawn(async move {
            while let Ok((inbound, _)) = listener.accept().await {
                let counter = counter.clone();
                tokio::spawn(async move {
                    // The server stopped: the browser's connection closes as it would.
                    let Ok(outbound) = tokio::net::TcpStream::connect(server).await else {
                        return;
                    };
                    let (mut from_browser, mut to_browser) = inbound.into_split();
                    let (mut from_server, mut to_server) = outbound.into_split();
                    let up = async {
                        let _ = tokio::io::copy(&mut from_browser, &mut to_server).await;
                        let _ = to_server.shutdown().await;
                    };
                    let down = async {
                        let mut buf = vec![0; 16 * 1024];
                        while let Ok(n @ 1..) = from_server.read(&mut buf).await {
                            counter.fetch_add(n as u64, Ordering::Relaxed);
                            if to_browser.write_all(&buf[..n]).await.is_err() {
                                break;
                            }
                        }
                        let _ = to_browser.shutdown().await;
                    };
                    tokio::join!(up, down);
                });
            }
        });
        Wire { addr, down }
    }

    /// The bytes sent since the last call.
    fn take(&self) -> u64 {
        self.down.swap(0, Ordering::Relaxed)
    }
}

/// The head (lower-case) of a `GET` of `path` from `base` that accepts brotli.
async fn head_of(base: &str, path: &str) -> String {
    let addr = base.trim_start_matches("http://");
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept-Encoding: br, gzip\r\nConnection: close\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out).to_lowercase();
    text.split("\r\n\r\n").next().unwrap_or("").to_string()
}

/// Waits up to `secs` for `script` (returning a value) to return something truthy.
async fn wait_until(c: &Client, script: &str, secs: u64, what: &str) -> Result<Value, String> {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let v = c.execute(script, vec![]).await.map_err(err)?;
        if !(v.is_null() || v == json!(false) || v == json!(0)) {
            return Ok(v);
        }
        if Instant::now() > deadline {
            return Err(format!("{what}: not within {secs} s"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until the page has loaded and no request has started for half a second.
async fn settle(c: &Client) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut last = (Value::Null, Instant::now());
    loop {
        let now = c
            .execute(
                "return document.readyState === 'complete' ? performance.getEntriesByType('resource').length : -1",
                vec![],
            )
            .await
            .map_err(err)?;
        if now != last.0 {
            last = (now, Instant::now());
        } else if last.0 != json!(-1) && last.1.elapsed() > Duration::from_millis(500) {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err("the page never settled".into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The English catalogue's string for `key` (and the others').
fn catalogue(lang: &str, key: &str) -> String {
    let text = match lang {
        "zh" => include_str!("../web/i18n/zh.json"),
        "zh-Hant" => include_str!("../web/i18n/zh-Hant.json"),
        _ => include_str!("../web/i18n/en.json"),
    };
    let cat: Value = serde_json::from_str(text).unwrap();
    cat[key].as_str().unwrap_or_default().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_table_loads_light_reloads_from_cache_and_the_lobby_opens_offline() {
    let Some(browser) = Browser::start("the web assets test", 390, 844).await else {
        return;
    };
    let (_app, addr, stop) = start_stoppable().await;
    let wire = Wire::start(addr).await;
    let c = browser.client.clone();
    let checks = async {
        let base = format!("http://{}", wire.addr);
        let link = table_link(addr).await;
        let figures = loads(&c, &format!("{base}{link}"), &wire).await?;
        installs(&c, &base).await?;
        let _ = stop.send(());
        offline(&c, &base).await?;
        Ok::<_, String>(figures)
    };
    let result = AssertUnwindSafe(checks).catch_unwind().await;
    browser.close().await;
    match result {
        Ok(r) => {
            let figures = r.unwrap();
            let file = browser::screenshot_dir().join("web-performance.txt");
            std::fs::write(&file, &figures).unwrap();
            eprintln!("{figures}\n(written to {})", file.display());
        }
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// A Hong Kong room of one person and three bots, started at once: the person's seat link.
async fn table_link(addr: SocketAddr) -> String {
    let body = json!({ "rules": "hongkong", "autostart": true, "bot_delay_ms": 400 });
    let (status, _, created) =
        crate::common::http(addr, "POST", "/api/rooms", &body.to_string()).await;
    assert_eq!(status, 201, "{created}");
    let created: Value = serde_json::from_str(&created).unwrap();
    created["seats"][0]["link"].as_str().unwrap().to_string()
}

/// The table's first load and its reload, checked against the targets; the figures as text.
async fn loads(c: &Client, table: &str, wire: &Wire) -> Result<String, String> {
    phone(c).await?;
    // A first visit makes the server compress its files (once per process): the figures are
    // of a browser's first visit to a server that has served before.
    c.goto(table).await.map_err(err)?;
    wait_for(c, "#hand .tile", 20).await?;
    settle(c).await?;
    // The server compresses its files on a thread of its own: wait until they are.
    let base = table.split("/?").next().unwrap_or(table).to_string();
    for path in ["/tiles.svg", "/js/table.js", "/i18n/en.json", "/style.css"] {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !head_of(&base, path).await.contains("content-encoding: br") {
            assert!(Instant::now() < deadline, "{path} never came compressed");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    c.goto("about:blank").await.map_err(err)?;
    let origin = table.split("/?").next().unwrap_or(table).to_string();
    cdp(c, "Network.clearBrowserCache", json!({})).await?;
    cdp(
        c,
        "Storage.clearDataForOrigin",
        json!({ "origin": origin, "storageTypes": "service_workers,cache_storage" }),
    )
    .await?;
    cdp(
        c,
        "Page.addScriptToEvaluateOnNewDocument",
        json!({ "source": MARK_FIRST_TILE }),
    )
    .await?;

    let mut out = String::new();
    let mut report = |what: &str, sent: u64, f: &Value| {
        out += &format!(
            "{what}: {:.1} KB sent by the server; the page's own view: {:.1} KB transferred ({:.1} KB bodies as sent, {:.1} KB unpacked) in {} requests, {} for tiles; first hand tile in the page at {} ms, painted at {} ms\n",
            sent as f64 / 1024.0,
            f["transferred"].as_f64().unwrap_or(0.0) / 1024.0,
            f["encoded"].as_f64().unwrap_or(0.0) / 1024.0,
            f["decoded"].as_f64().unwrap_or(0.0) / 1024.0,
            f["requests"],
            f["tile_requests"],
            f["first_hand_tile_ms"]
                .as_f64()
                .map_or("-".into(), |v| format!("{v:.0}")),
            f["painted_ms"]
                .as_f64()
                .map_or("-".into(), |v| format!("{v:.0}")),
        );
        for file in f["files"].as_array().into_iter().flatten() {
            out += &format!("    {} {} B ({} B body)\n", file[0], file[1], file[2]);
        }
    };

    wire.take();
    c.goto(table).await.map_err(err)?;
    wait_until(
        c,
        "return performance.getEntriesByName('first-hand-tile-painted').length",
        20,
        "the first hand tile",
    )
    .await?;
    settle(c).await?;
    // The first visit's cost includes what the service worker keeps for the next.
    wait_until(
        c,
        "return navigator.serviceWorker.controller && navigator.serviceWorker.controller.state === 'activated'",
        20,
        "the service worker in control",
    )
    .await?;
    let first = c.execute(LOAD_FIGURES, vec![]).await.map_err(err)?;
    let first_sent = wire.take();
    report("first load", first_sent, &first);
    save_screenshot(c, "web-assets-table-390x844").await?;

    wire.take();
    c.refresh().await.map_err(err)?;
    wait_until(
        c,
        "return performance.getEntriesByName('first-hand-tile-painted').length",
        20,
        "the first hand tile after a reload",
    )
    .await?;
    settle(c).await?;
    let reload = c.execute(LOAD_FIGURES, vec![]).await.map_err(err)?;
    let reload_sent = wire.take();
    report("reload", reload_sent, &reload);
    eprintln!("{out}");

    assert!(first_sent <= FIRST_LOAD_MAX, "first load too heavy:\n{out}");
    assert!(
        first_sent > 10 * 1024,
        "the first load came from a cache:\n{out}"
    );
    // One tile sheet, fetched once by the page: a second fetch of it can only be the service
    // worker's answer after it took control during the load (CI saw one beside a CPU hog).
    let fetches: Vec<(String, bool)> =
        serde_json::from_value(first["tile_fetches"].clone()).map_err(|e| e.to_string())?;
    assert!(
        fetches.iter().all(|(path, _)| path == "/tiles.svg"),
        "one tile sheet: {fetches:?}\n{out}"
    );
    assert_eq!(
        fetches.iter().filter(|(_, by_worker)| !by_worker).count(),
        1,
        "the page fetched the tile sheet once: {fetches:?}\n{out}"
    );
    assert!(reload_sent <= RELOAD_MAX, "reload too heavy:\n{out}");
    for f in [&first, &reload] {
        let ms = f["first_hand_tile_ms"].as_f64().unwrap_or(f64::MAX);
        assert!(
            ms <= FIRST_TILE_LIMIT_MS,
            "first hand tile at {ms} ms:\n{out}"
        );
    }
    // The hand's tiles are drawn from the sheet: each image has its size.
    let drawn = c
        .execute(
            "return [...document.querySelectorAll('#hand img.tile')].every((i) => i.complete && i.naturalWidth > 0 && i.src.includes('/tiles.svg?v=') && i.src.includes('#t-'))",
            vec![],
        )
        .await
        .map_err(err)?;
    assert_eq!(drawn, json!(true), "hand tiles from the sheet");
    Ok(out)
}

/// The manifest and the icons it names; the service worker in control.
async fn installs(c: &Client, base: &str) -> Result<(), String> {
    c.goto(&format!("{base}/?lang=en")).await.map_err(err)?;
    let manifest = c
        .execute_async(
            r#"const done = arguments[0];
(async () => {
const href = document.querySelector('link[rel=manifest]').href;
const m = await (await fetch(href)).json();
const sizes = [];
for (const icon of m.icons) {
  const img = new Image();
  img.src = new URL(icon.src, href).href;
  try { await img.decode(); sizes.push([icon.sizes, icon.type, img.naturalWidth, img.naturalHeight]); }
  catch (_) { sizes.push([icon.sizes, icon.type, 0, 0]); }
}
done({ m, sizes });
})();"#,
            vec![],
        )
        .await
        .map_err(err)?;
    let m = &manifest["m"];
    assert_eq!(m["display"], json!("standalone"), "{m}");
    assert_eq!(m["start_url"], json!("/"), "{m}");
    assert!(m["name"].as_str().is_some_and(|n| n.contains("majiang")));
    let sizes = manifest["sizes"].as_array().cloned().unwrap_or_default();
    for px in [192, 512] {
        let want = json!([format!("{px}x{px}"), "image/png", px, px]);
        assert!(sizes.contains(&want), "a {px} px PNG icon: {sizes:?}");
    }
    assert!(
        sizes.iter().all(|s| s[2].as_u64().unwrap_or(0) > 0),
        "every icon loads: {sizes:?}"
    );
    // The worker installs (keeping the files) and takes control of the page.
    wait_until(
        c,
        "return navigator.serviceWorker.controller && navigator.serviceWorker.controller.state === 'activated'",
        20,
        "the service worker in control",
    )
    .await?;
    let kept = c
        .execute_async(
            "const done = arguments[0]; caches.keys().then(async (names) => { let n = 0; for (const k of names) n += (await (await caches.open(k)).keys()).length; done(n); });",
            vec![],
        )
        .await
        .map_err(err)?;
    assert!(kept.as_u64().unwrap_or(0) >= 20, "files kept: {kept}");
    Ok(())
}

/// With the server stopped, the lobby opens from the worker and says the page is offline.
async fn offline(c: &Client, base: &str) -> Result<(), String> {
    c.goto(&format!("{base}/?lang=en")).await.map_err(err)?;
    wait_until(
        c,
        "const n = document.querySelector('#offline-note'); return n && !n.hidden && n.textContent",
        20,
        "the offline note",
    )
    .await?;
    save_screenshot(c, "web-assets-offline-lobby-390x844").await?;
    for lang in ["en", "zh", "zh-Hant"] {
        switch_language(c, lang).await?;
        let want = catalogue(lang, "offline.note");
        let shown = wait_until(
            c,
            &format!(
                "const n = document.querySelector('#offline-note'); return n && !n.hidden && n.textContent === {} && n.textContent",
                json!(want)
            ),
            10,
            "the offline note in the language",
        )
        .await?;
        assert_eq!(shown, json!(want), "{lang}");
        let lobby = c
            .execute(
                "return !document.querySelector('#lobby').hidden && document.querySelector('#room-list tbody').textContent",
                vec![],
            )
            .await
            .map_err(err)?;
        assert_eq!(lobby, json!(want), "the room list says so too ({lang})");
    }
    Ok(())
}

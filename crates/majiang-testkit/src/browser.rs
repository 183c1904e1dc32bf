//! Headless Chromium for the browser tests, through chromedriver and fantoccini: start it (the
//! project installs Debian's `chromium` and `chromium-driver` with `scripts/install-browser.sh`
//! when they are missing), size its viewport, take screenshots into `target/e2e-screenshots/`.
//! When the browser cannot be had (no root, no network) [`Browser::start`] says so loudly and
//! returns `None`, and the test skips — or, under CI, fails ([`crate::require`]).

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// The sizes a page must fit: a laptop, a desktop, a phone held upright.
pub const SIZES: [(u32, u32); 3] = [(1366, 768), (1920, 1080), (390, 844)];

/// A WebDriver error as text, for tests that return `Result<(), String>`.
pub fn err(e: fantoccini::error::CmdError) -> String {
    e.to_string()
}

/// chromedriver, ended when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A headless Chromium session with its own empty profile.
pub struct Browser {
    /// The WebDriver session.
    pub client: Client,
    _driver: Driver,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Starts Chromium with a `width`×`height` window for the test `what` (named in the message
    /// when it has to skip), installing the browser first when it is missing.
    pub async fn start(what: &str, width: u32, height: u32) -> Option<Browser> {
        Self::start_with(what, width, height, None).await
    }

    /// As [`Browser::start`], with `mobile_emulation` (chromedriver's `mobileEmulation` option:
    /// device metrics, touch, a user agent) when given; see [`crate::browser_mobile`].
    pub async fn start_with(
        what: &str,
        width: u32,
        height: u32,
        mobile_emulation: Option<serde_json::Value>,
    ) -> Option<Browser> {
        let present = || Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists();
        if !present() {
            let script = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../scripts/install-browser.sh"
            );
            let status = Command::new("bash").arg(script).status();
            eprintln!("install-browser.sh: {status:?}");
        }
        if !present() {
            crate::require(
                &format!("{CHROMIUM} and {CHROMEDRIVER}, which {what} needs"),
                "bash scripts/install-browser.sh installs them",
            );
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Driver(
            Command::new(CHROMEDRIVER)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver starts"),
        );
        let profile = tempfile::tempdir().unwrap();
        let mut caps = serde_json::Map::new();
        // The flags keep Chromium off the network, which this machine's sandbox refuses anyway.
        let mut options = json!({
                "binary": CHROMIUM,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    format!("--window-size={width},{height}"),
                    format!("--user-data-dir={}", profile.path().display()),
                ]
        });
        if let Some(m) = mobile_emulation {
            options["mobileEmulation"] = m;
        }
        caps.insert("goog:chromeOptions".into(), options);
        // chromedriver takes a moment to listen.
        let webdriver = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        let client = loop {
            let mut b =
                ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
            b.capabilities(caps.clone());
            match b.connect(&webdriver).await {
                Ok(c) => break c,
                Err(_) if started.elapsed() < Duration::from_secs(20) => {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => panic!("no WebDriver session: {e}"),
            }
        };
        Some(Browser {
            client,
            _driver: driver,
            _profile: profile,
        })
    }

    /// Ends the session (the driver and the profile go when dropped).
    pub async fn close(self) {
        let _ = self.client.clone().close().await;
    }
}

/// Resizes the window so that the page's viewport is `w`×`h`.
pub async fn set_viewport(c: &Client, w: u32, h: u32) -> Result<(), String> {
    c.set_window_size(w, h).await.map_err(err)?;
    // The window's frame takes some room: grow it by the difference once.
    let inner = c
        .execute("return [window.innerWidth, window.innerHeight]", vec![])
        .await
        .map_err(err)?;
    let (iw, ih) = (
        inner[0].as_u64().unwrap_or(0) as u32,
        inner[1].as_u64().unwrap_or(0) as u32,
    );
    if (iw, ih) != (w, h) {
        c.set_window_size(w + w.saturating_sub(iw), h + h.saturating_sub(ih))
            .await
            .map_err(err)?;
    }
    tokio::time::sleep(Duration::from_millis(250)).await;
    Ok(())
}

/// Where the screenshots go: `target/e2e-screenshots/`.
pub fn screenshot_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"),
        PathBuf::from,
    );
    let dir = target.join("e2e-screenshots");
    let _ = std::fs::create_dir_all(&dir);
    dir
}

/// Whether the layout tests save a screenshot of every look (`MAJIANG_SCREENSHOTS=1`), not
/// only of the looks they found wrong. A screenshot costs about as much as the look's
/// measuring, so the suite takes them only when someone will look at them.
pub fn every_look_saved() -> bool {
    std::env::var_os("MAJIANG_SCREENSHOTS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Saves a screenshot of the page as `target/e2e-screenshots/NAME.png`.
pub async fn save_screenshot(c: &Client, name: &str) -> Result<(), String> {
    let png = c.screenshot().await.map_err(err)?;
    let file = screenshot_dir().join(format!("{name}.png"));
    std::fs::write(&file, png).map_err(|e| format!("{}: {e}", file.display()))?;
    eprintln!("screenshot: {}", file.display());
    Ok(())
}

/// Opens the table's drawer (behind ☰ on a phone-sized screen) when the element `css` waits in
/// it hidden, and waits until the element stands still inside the window. True when it opened
/// the drawer (close it with [`close_drawer`]); false when `css` was in view already.
pub async fn reveal_in_drawer(c: &Client, css: &str) -> Result<bool, String> {
    let opened = c
        .execute(
            "const b = document.querySelector(arguments[0]);
             const toggle = document.querySelector('#side-toggle');
             if (!b || b.checkVisibility({visibilityProperty: true}) || !toggle || !toggle.checkVisibility()) return false;
             toggle.click();
             return true;",
            vec![json!(css)],
        )
        .await
        .map_err(err)?;
    if opened != json!(true) {
        return Ok(false);
    }
    // The drawer slides in: wait until the element stands still inside the window.
    let deadline = Instant::now() + Duration::from_secs(3);
    let mut last = json!(null);
    loop {
        let now = c
            .execute(
                "const r = document.querySelector(arguments[0]).getBoundingClientRect();
                 return r.left >= 0 && r.right <= innerWidth ? [r.left, r.top] : null;",
                vec![json!(css)],
            )
            .await
            .map_err(err)?;
        if !now.is_null() && now == last {
            return Ok(true);
        }
        if Instant::now() > deadline {
            return Err(format!("{css} never showed in the drawer"));
        }
        last = now;
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
}

/// Closes the table's drawer that [`reveal_in_drawer`] opened.
pub async fn close_drawer(c: &Client) -> Result<(), String> {
    c.execute(
        "const x = document.querySelector('#side-close'); if (x) x.click();",
        vec![],
    )
    .await
    .map_err(err)?;
    Ok(())
}

/// Presses the page's language button for `lang` (`en`, `zh`) and lets the page re-render. At
/// a table on a phone-sized screen the buttons wait in the drawer behind ☰: it is opened first
/// (and closed after).
pub async fn switch_language(c: &Client, lang: &str) -> Result<(), String> {
    let button = format!("#lang-switch button[data-lang='{lang}']");
    let opened = reveal_in_drawer(c, &button).await?;
    c.find(fantoccini::Locator::Css(&button))
        .await
        .map_err(err)?
        .click()
        .await
        .map_err(err)?;
    if opened {
        close_drawer(c).await?;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    Ok(())
}

/// Clicks the element `css` finds (the error names the selector). The page re-renders as
/// messages arrive, so the element found may be replaced before the click reaches it (a
/// "stale element" answer): it is then found again, up to [`STALE_TRIES`] times.
pub async fn click(c: &Client, css: &str) -> Result<(), String> {
    again_while_stale(css, || async {
        c.find(Locator::Css(css)).await?.click().await?;
        Ok(())
    })
    .await
}

/// The text of the element `css` finds (found again if it was replaced meanwhile, as for
/// [`click`]).
pub async fn text_of(c: &Client, css: &str) -> Result<String, String> {
    again_while_stale(css, || async {
        c.find(Locator::Css(css)).await?.text().await
    })
    .await
}

/// Chooses the option `value` of the `<select>` that `css` finds (found again if it was
/// replaced meanwhile, as for [`click`]: the lobby rebuilds its selects as rule sets and seats
/// arrive).
pub async fn select(c: &Client, css: &str, value: &str) -> Result<(), String> {
    again_while_stale(css, || async {
        c.find(Locator::Css(css))
            .await?
            .select_by_value(value)
            .await?;
        Ok(())
    })
    .await
}

/// The attribute `name` of the element `css` finds, empty when it has none (found again if it
/// was replaced meanwhile, as for [`click`]).
pub async fn attr_of(c: &Client, css: &str, name: &str) -> Result<String, String> {
    again_while_stale(css, || async {
        Ok(c.find(Locator::Css(css))
            .await?
            .attr(name)
            .await?
            .unwrap_or_default())
    })
    .await
}

/// How many times [`click`], [`select`], [`text_of`] and [`attr_of`] find an element that was replaced as they used it.
pub const STALE_TRIES: u32 = 5;

/// Runs `act` until it does not fail on a stale element, at most [`STALE_TRIES`] times, 50 ms
/// apart; any other error (and the last stale one) is returned naming `css`.
async fn again_while_stale<T, F, Fut>(css: &str, mut act: F) -> Result<T, String>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, fantoccini::error::CmdError>>,
{
    let mut tries = 0;
    loop {
        tries += 1;
        match act().await {
            Ok(v) => return Ok(v),
            Err(e) => {
                if !e.is_stale_element_reference() || tries >= STALE_TRIES {
                    return Err(format!("{css}: {e}"));
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits up to `secs` seconds for an element `css` finds, looking every 100 ms.
pub async fn wait_for(c: &Client, css: &str, secs: u64) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if c.find(Locator::Css(css)).await.is_ok() {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!("{css} never showed"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

//! Phones and tablets in headless Chromium: a session started with chromedriver's mobile
//! emulation (a phone's user agent, touch), then re-emulated from one screen to the next in the
//! same session through the DevTools protocol (`Emulation.setDeviceMetricsOverride`, sent with
//! chromedriver's `goog/cdp/execute` command) — one browser for every size instead of one each.

use crate::browser::{Browser, err};
use fantoccini::Client;
use fantoccini::wd::WebDriverCompatibleCommand;
use serde_json::{Value, json};
use std::time::Duration;

/// A phone's user agent (an Android phone's Chrome), for pages that ask.
pub const PHONE_USER_AGENT: &str = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";

/// A screen to emulate: its CSS size, its pixel ratio, and whether it is a touch device (a phone
/// or a tablet: touch events, the `viewport` meta tag honoured, `pointer: coarse`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Screen {
    /// Width in CSS pixels.
    pub width: u32,
    /// Height in CSS pixels.
    pub height: u32,
    /// Device pixels per CSS pixel.
    pub ratio: f64,
    /// A touch device (phone, tablet) rather than a desktop.
    pub touch: bool,
}

impl Screen {
    /// A phone or tablet of `width`×`height` CSS pixels (pixel ratio 2).
    pub const fn touch(width: u32, height: u32) -> Screen {
        Screen {
            width,
            height,
            ratio: 2.0,
            touch: true,
        }
    }

    /// A desktop window's viewport of `width`×`height`.
    pub const fn desktop(width: u32, height: u32) -> Screen {
        Screen {
            width,
            height,
            ratio: 1.0,
            touch: false,
        }
    }

    /// Wider than high.
    pub fn landscape(&self) -> bool {
        self.width > self.height
    }
}

/// Starts Chromium as a phone (`first`'s metrics, touch, [`PHONE_USER_AGENT`]) for the test
/// `what`; `None` when the browser cannot be had (see [`Browser::start`]).
pub async fn start_phone(what: &str, first: Screen) -> Option<Browser> {
    let emulation = json!({
        "deviceMetrics": { "width": first.width, "height": first.height, "pixelRatio": first.ratio, "touch": true },
        "userAgent": PHONE_USER_AGENT,
    });
    Browser::start_with(
        what,
        first.width.max(400),
        first.height.max(400),
        Some(emulation),
    )
    .await
}

/// One DevTools command sent through chromedriver (`POST /session/{id}/goog/cdp/execute`).
#[derive(Debug)]
struct Cdp {
    cmd: &'static str,
    params: Value,
}

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({ "cmd": self.cmd, "params": self.params });
        (http::Method::POST, Some(body.to_string()))
    }
}

/// Sends the DevTools command `cmd` with `params`; returns its answer.
pub async fn cdp(c: &Client, cmd: &'static str, params: Value) -> Result<Value, String> {
    c.issue_cmd(Cdp { cmd, params })
        .await
        .map_err(|e| format!("{cmd}: {}", err(e)))
}

/// Makes the page's viewport `screen`: its size, pixel ratio, orientation and touch; then
/// waits until the page reports that size (at most 5 s).
pub async fn emulate(c: &Client, screen: Screen) -> Result<(), String> {
    let orientation = if screen.landscape() {
        json!({ "type": "landscapePrimary", "angle": 90 })
    } else {
        json!({ "type": "portraitPrimary", "angle": 0 })
    };
    cdp(
        c,
        "Emulation.setDeviceMetricsOverride",
        json!({
            "width": screen.width, "height": screen.height,
            "deviceScaleFactor": screen.ratio, "mobile": screen.touch,
            "screenWidth": screen.width, "screenHeight": screen.height,
            "screenOrientation": orientation,
        }),
    )
    .await?;
    cdp(
        c,
        "Emulation.setTouchEmulationEnabled",
        json!({ "enabled": screen.touch, "maxTouchPoints": if screen.touch { 5 } else { 1 } }),
    )
    .await?;
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let inner = c
            .execute("return [window.innerWidth, window.innerHeight]", vec![])
            .await
            .map_err(err)?;
        if inner == json!([screen.width, screen.height]) {
            // One more frame for media queries and layout to settle.
            tokio::time::sleep(Duration::from_millis(120)).await;
            return Ok(());
        }
        if std::time::Instant::now() > deadline {
            return Err(format!(
                "the page is {inner} after emulating {}×{}",
                screen.width, screen.height
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

//! The invite's share, copy and QR code, and the "your turn" cue, driven in headless Chromium
//! through the page with the browser's share sheet, clipboard, vibration and audio replaced by
//! recorders (installed in the page before the code under test runs):
//!
//! - a room made in the lobby: each person's invite shares (`navigator.share`) and copies
//!   exactly its invite URL; its QR code, drawn onto a canvas and decoded with `rqrr`, reads
//!   back as that URL; without `navigator.share` there is no Share button and Copy still works;
//! - a room of one person and three bots, started from the waiting room: when a decision comes
//!   to the person the tab title says so, the phone vibrates and a tone sounds; with the sound
//!   switched off the next turn vibrates and retitles but sounds nothing, and the switch is
//!   remembered.
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (see `majiang_testkit::browser`).

use crate::common;
use majiang_testkit::browser;

use browser::{Browser, click, err, save_screenshot, text_of, wait_for};
use fantoccini::{Client, Locator};
use futures_util::FutureExt;
use serde_json::{Value, json};
use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

/// Records `navigator.share`, the clipboard, `navigator.vibrate` and `AudioContext` tones in
/// `window.__rec` (`share` present unless `arguments[0]` is false), with the tab's titles in turn
/// and the test's clicks on the table (`answer`), which a failed check shows.
const RECORDERS: &str = r#"
const withShare = arguments[0];
window.__rec = { shared: [], copied: [], vibrated: [], tones: [], titles: [], clicks: [] };
// The tab titles in turn, with the page's clock (for the message of a failed check).
const title = document.querySelector('title');
if (title) new MutationObserver(() => window.__rec.titles.push(Math.round(performance.now()) + ' ' + document.title))
  .observe(title, { childList: true, characterData: true, subtree: true });
Object.defineProperty(navigator, 'share', { configurable: true,
  value: withShare ? (d) => { window.__rec.shared.push(d); return Promise.resolve(); } : undefined });
Object.defineProperty(navigator, 'clipboard', { configurable: true,
  value: { writeText: (t) => { window.__rec.copied.push(t); return Promise.resolve(); } } });
Object.defineProperty(navigator, 'vibrate', { configurable: true,
  value: (p) => { window.__rec.vibrated.push(p); return true; } });
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    const o = { frequency: { value: 0 }, connect: (next) => next, start: () => window.__rec.tones.push(o.frequency.value), stop: () => {} };
    return o;
  }
  createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (next) => next }; }
};
"#;

/// The QR code of invite `arguments[0]` drawn on a white canvas, as grey levels row by row.
const QR_PIXELS: &str = r#"
const [i, done] = arguments;
const svg = document.querySelectorAll('.invite .invite-qr svg')[i].cloneNode(true);
const n = 330;
svg.setAttribute('width', n); svg.setAttribute('height', n);
const img = new Image();
img.onload = () => {
  const c = document.createElement('canvas'); c.width = n; c.height = n;
  const g = c.getContext('2d');
  g.fillStyle = '#fff'; g.fillRect(0, 0, n, n); g.drawImage(img, 0, 0, n, n);
  const d = g.getImageData(0, 0, n, n).data;
  const grey = new Array(n * n);
  for (let p = 0; p < n * n; p++) grey[p] = Math.round((d[4 * p] + d[4 * p + 1] + d[4 * p + 2]) / 3);
  done({ n, grey });
};
img.onerror = () => done({ n: 0, grey: [] });
img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(new XMLSerializer().serializeToString(svg));
"#;

/// The English catalogue's string for `key`.
fn english(key: &str) -> String {
    let text = include_str!("../web/i18n/en.json");
    let cat: Value = serde_json::from_str(text).unwrap();
    cat[key].as_str().unwrap_or_default().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invites_share_copy_and_scan_and_the_turn_cue_fires() {
    let Some(browser) = Browser::start("the invite and cue test", 1366, 768).await else {
        return;
    };
    let (_app, addr) = common::start_server().await;
    let c = browser.client.clone();
    let base = format!("http://{addr}");
    // A failed check panics inside: the browser is closed first all the same.
    let checks = async {
        invites(&c, &base, true).await?;
        invites(&c, &base, false).await?;
        turn_cue(&c, &base).await
    };
    let result = AssertUnwindSafe(checks).catch_unwind().await;
    browser.close().await;
    match result {
        Ok(r) => r.unwrap(),
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// A room of two people and two bots from the lobby; each invite shared, copied and scanned.
async fn invites(c: &Client, base: &str, with_share: bool) -> Result<(), String> {
    c.goto(&format!("{base}/?lang=en")).await.map_err(err)?;
    wait_for(c, "#seats select", 10).await?;
    c.execute(RECORDERS, vec![json!(with_share)])
        .await
        .map_err(err)?;
    c.execute(
        "const s = document.querySelectorAll('#seats select')[1]; s.value = 'person'; s.dispatchEvent(new Event('change'));",
        vec![],
    )
    .await
    .map_err(err)?;
    click(c, "#create").await?;
    wait_for(c, ".invite .invite-qr svg", 10).await?;
    let invites = c
        .execute(
            "return [...document.querySelectorAll('.invite')].map(e => [e.querySelector('.invite-url').textContent, e.querySelector('.invite-name').textContent])",
            vec![],
        )
        .await
        .map_err(err)?;
    let invites: Vec<(String, String)> = invites
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|i| {
            (
                i[0].as_str().unwrap_or("").to_string(),
                i[1].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(invites.len(), 2, "an invite for each person: {invites:?}");
    for (url, _) in &invites {
        assert!(
            url.starts_with(&format!("{base}/?room=")) && url.contains("&token="),
            "an invite opens a seat: {url}"
        );
    }
    assert_ne!(invites[0].0, invites[1].0, "each seat its own link");
    save_screenshot(c, &format!("invite-share-{with_share}")).await?;

    let share_buttons = c
        .find_all(Locator::Css(".invite button.invite-share"))
        .await
        .map_err(err)?;
    if with_share {
        assert_eq!(share_buttons.len(), 2, "a Share button per invite");
        for b in share_buttons {
            b.click().await.map_err(err)?;
        }
    } else {
        assert!(
            share_buttons.is_empty(),
            "no Share button without a share sheet"
        );
    }
    for b in c
        .find_all(Locator::Css(".invite button.invite-copy"))
        .await
        .map_err(err)?
    {
        b.click().await.map_err(err)?;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let rec = c
        .execute("return window.__rec", vec![])
        .await
        .map_err(err)?;
    let urls: Vec<&str> = invites.iter().map(|(u, _)| u.as_str()).collect();
    assert_eq!(rec["copied"], json!(urls), "Copy copies each invite URL");
    if with_share {
        let shared = rec["shared"].as_array().cloned().unwrap_or_default();
        assert_eq!(shared.len(), 2, "{rec}");
        for (s, (url, name)) in shared.iter().zip(&invites) {
            assert_eq!(s["url"], json!(url), "Share shares the invite URL");
            assert_eq!(
                s["text"],
                json!(english("invite.share_text").replace("{name}", name))
            );
        }
    } else {
        assert_eq!(rec["shared"], json!([]));
    }
    let notes = c
        .execute(
            "return [...document.querySelectorAll('.invite .invite-note')].map(e => e.textContent)",
            vec![],
        )
        .await
        .map_err(err)?;
    assert_eq!(
        notes,
        json!([english("invite.copied"), english("invite.copied")])
    );
    // Each QR code, as the page draws it, scans as its invite URL.
    for (i, (url, _)) in invites.iter().enumerate() {
        let px = c
            .execute_async(QR_PIXELS, vec![json!(i)])
            .await
            .map_err(err)?;
        assert_eq!(&scan(&px)?, url, "QR code {i}");
    }
    Ok(())
}

/// The QR code in `px` (`{n, grey}` from [`QR_PIXELS`]), decoded.
fn scan(px: &Value) -> Result<String, String> {
    let n = px["n"].as_u64().unwrap_or(0) as usize;
    let grey: Vec<u8> = px["grey"]
        .as_array()
        .ok_or("no pixels")?
        .iter()
        .map(|v| v.as_u64().unwrap_or(255) as u8)
        .collect();
    if n == 0 || grey.len() != n * n {
        return Err(format!("the QR code was not drawn ({n}, {})", grey.len()));
    }
    let mut img = rqrr::PreparedImage::prepare_from_greyscale(n, n, |x, y| grey[y * n + x]);
    let grids = img.detect_grids();
    let grid = grids.first().ok_or("no QR code found in the picture")?;
    let (_, content) = grid.decode().map_err(|e| format!("QR: {e:?}"))?;
    Ok(content)
}

/// One person and three bots; the person starts from the waiting room after touching the page
/// (browsers sound nothing before). Each time a decision comes to the person: the title, a
/// vibration, a tone at 880 Hz while the sound is on.
async fn turn_cue(c: &Client, base: &str) -> Result<(), String> {
    let created = post(
        base,
        "/api/rooms",
        &json!({
            "rules": "hongkong",
            "seats": [
                {"name": "Ann"},
                {"name": "Bot 1", "bot": true},
                {"name": "Bot 2", "bot": true},
                {"name": "Bot 3", "bot": true}
            ]
        }),
    )
    .await?;
    let room = created["room"].as_str().ok_or("no room")?;
    let token = created["seats"][0]["token"].as_str().ok_or("no token")?;
    c.goto(&format!("{base}/?room={room}&token={token}&lang=en"))
        .await
        .map_err(err)?;
    wait_for(c, "#start", 10).await?;
    c.execute(RECORDERS, vec![json!(true)]).await.map_err(err)?;
    let base_title = c
        .execute("return document.title", vec![])
        .await
        .map_err(err)?;
    let base_title = base_title.as_str().unwrap_or("").to_string();
    assert!(!base_title.contains('●'), "{base_title}");
    let switch = text_of(c, "#sound-switch").await?;
    assert!(switch.contains(&english("cue.sound_on")), "{switch}");
    // The click on Start is the touch that lets the page sound.
    click(c, "#start").await?;
    let rec = wait_until(c, "window.__rec.vibrated.length >= 1").await?;
    assert_eq!(rec["vibrated"], json!([150]), "a short buzz: {rec}");
    assert_eq!(rec["tones"], json!([880]), "one tone: {rec}");
    let title = c
        .execute("return document.title", vec![])
        .await
        .map_err(err)?;
    assert_eq!(
        title,
        json!(format!(
            "● {} · {base_title}",
            english("table.your_turn_title")
        )),
        "the tab title says it is the person's turn"
    );
    save_screenshot(c, "cue-your-turn").await?;

    // Sound off, remembered; the person answers (a discard, or a pass when offered a claim).
    click(c, "#sound-switch").await?;
    let off = c
        .execute(
            "return [document.querySelector('#sound-switch').getAttribute('aria-pressed'), localStorage.getItem('majiang.sound')]",
            vec![],
        )
        .await
        .map_err(err)?;
    assert_eq!(off, json!(["false", "off"]));
    let mut turns = 1;
    let deadline = Instant::now() + Duration::from_secs(30);
    while turns < 3 {
        if Instant::now() > deadline {
            return Err(format!("only {turns} turns came to the person"));
        }
        answer(c).await?;
        // Not the person's turn any more (the title is the page's again) until the next.
        let next = format!(
            "window.__rec.vibrated.length > {turns} || document.querySelector('#match-over:not([hidden])')"
        );
        let rec = wait_until(c, &next).await?;
        let vibrated = rec["vibrated"].as_array().map_or(0, Vec::len);
        if vibrated <= turns {
            break; // the match ended first
        }
        turns = vibrated;
    }
    let rec = c
        .execute("return window.__rec", vec![])
        .await
        .map_err(err)?;
    assert!(turns >= 2, "another decision came to the person: {rec}");
    assert_eq!(
        rec["tones"],
        json!([880]),
        "with the sound off later turns sound nothing: {rec}"
    );
    Ok(())
}

/// The person's answer to what is asked: a discard of a playable hand tile on their turn, else
/// Pass (a claim on offer). It is answered when the page has moved past it: the tab title no
/// longer says it is the person's turn, or the next decision has come (a new buzz: the bots
/// play at once, so the next turn may come before anyone looks at the title again), or the
/// match is over. The click is made again only if the page shows none of that a while later
/// (a page awaiting an earlier action's ack ignores clicks; a loaded machine is slow to answer).
async fn answer(c: &Client) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        // The buzzes so far, and the click; -1 if it is not the person's turn (any more).
        let buzzes = c
            .execute(
                "if (!document.title.startsWith('●')) return -1;
                 const tile = document.querySelector('#hand .tile-btn:not([aria-disabled])');
                 const pass = [...document.querySelectorAll('#actions button')].find(b => /^pass/i.test(b.textContent.trim()));
                 window.__rec.clicks.push(Math.round(performance.now()) + ' ' + (tile ? tile.dataset.tile : pass ? 'pass' : 'nothing'));
                 (tile || pass)?.click();
                 return window.__rec.vibrated.length;",
                vec![],
            )
            .await
            .map_err(err)?
            .as_i64()
            .unwrap_or(-1);
        if buzzes < 0 {
            return Ok(());
        }
        let moved = format!(
            "!document.title.startsWith('●') || window.__rec.vibrated.length > {buzzes} || document.querySelector('#match-over:not([hidden])')"
        );
        if wait_up_to(c, &moved, Duration::from_secs(3))
            .await?
            .is_some()
        {
            return Ok(());
        }
        if Instant::now() > deadline {
            let what = c
                .execute(
                    "return [document.querySelector('#actions')?.textContent, window.__rec]",
                    vec![],
                )
                .await
                .map_err(err)?;
            return Err(format!("the person could not answer: {what}"));
        }
    }
}

/// Waits until `cond` (JavaScript) holds; returns `window.__rec`.
async fn wait_until(c: &Client, cond: &str) -> Result<Value, String> {
    match wait_up_to(c, cond, Duration::from_secs(15)).await? {
        Some(rec) => Ok(rec),
        None => {
            let rec = c
                .execute("return [window.__rec, document.title]", vec![])
                .await
                .map_err(err)?;
            Err(format!("{cond} never held: {rec}"))
        }
    }
}

/// Waits up to `limit` for `cond` (JavaScript) to hold, looking every 100 ms; `window.__rec`
/// once it holds, `None` if it did not in time.
async fn wait_up_to(c: &Client, cond: &str, limit: Duration) -> Result<Option<Value>, String> {
    let deadline = Instant::now() + limit;
    loop {
        let v = c
            .execute(&format!("return ({cond}) ? window.__rec : null"), vec![])
            .await
            .map_err(err)?;
        if !v.is_null() {
            return Ok(Some(v));
        }
        if Instant::now() > deadline {
            return Ok(None);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `POST path` with `body`; the answer's JSON.
async fn post(base: &str, path: &str, body: &Value) -> Result<Value, String> {
    let addr: std::net::SocketAddr = base
        .trim_start_matches("http://")
        .parse()
        .map_err(|e| format!("{e}"))?;
    let (text, path) = (body.to_string(), path.to_string());
    let (status, answer) =
        tokio::task::spawn_blocking(move || majiang_testkit::net::http(addr, "POST", &path, &text))
            .await
            .map_err(|e| e.to_string())?;
    if !(200..300).contains(&status) {
        return Err(format!("{status} {answer}"));
    }
    serde_json::from_str(&answer).map_err(|e| format!("{e}: {answer}"))
}

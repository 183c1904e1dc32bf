//! The lobby's timer choices, "time to claim" (`#claim-timeout`) and "time per turn"
//! (`#turn-timeout`), in headless Chromium. What they send: 3 s to claim makes a room whose
//! `welcome` config has `claim_timeout_ms` 3000 and no turn timer of its own; "server default"
//! sends neither, so the server's default applies (`default_claim_timeout_ms`, written by the
//! server); "off" sends 0. How they look, in English, 简体中文 and 繁體中文 on a 390×844 phone,
//! the same phone on its side (844×390, touch emulated) and a 1366×768 desktop: the menus and
//! their labels inside the viewport once scrolled to, nothing sideways, each menu at least
//! 44 px tall on a touch screen, no field of the lobby's rows over another or over the hint
//! that explains the timers, which lies under them,
//! the choices worded in the page's language (no Latin word on a Chinese page). With
//! `MAJIANG_SCREENSHOTS=1` every look is saved in `target/e2e-screenshots/` (`lobby-timers-*`);
//! a look found wrong is saved always.

use crate::common;
use majiang_server::protocol::ServerMsg;
use majiang_testkit::browser::{self, err};
use majiang_testkit::browser_mobile::{Screen, emulate, start_phone};

use fantoccini::Client;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// The screens, named as the screenshots are.
const SCREENS: [(&str, Screen); 3] = [
    ("390x844", Screen::touch(390, 844)),
    ("844x390", Screen::touch(844, 390)),
    ("1366x768", Screen::desktop(1366, 768)),
];

/// The languages of the page, as `?lang=` takes them.
const LANGS: [&str; 3] = ["en", "zh", "zh-Hant"];

/// The boxes of the timers' row once the claim menu is scrolled to the middle of the screen,
/// and the words of both menus.
const MEASURE: &str = r#"
const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const claim = document.querySelector('#claim-timeout'), turn = document.querySelector('#turn-timeout');
claim.scrollIntoView({ block: 'center' });
const label = (e) => e.closest('label');
return {
  width: innerWidth, height: innerHeight,
  scroll_width: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
  menus: [claim, turn].map(box),
  labels: [claim, turn].map((e) => box(label(e))),
  row: [...document.querySelectorAll('#create-form .form-row > label')].map(box),
  hint: box(document.querySelector('#timers-hint')),
  words: [label(claim).textContent, label(turn).textContent, document.querySelector('#timers-hint').textContent],
  claim_options: [...claim.options].map((o) => [o.value, o.textContent]),
  turn_options: [...turn.options].map((o) => [o.value, o.textContent]),
};
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_timers_fit_phones_and_desktops_in_three_languages() {
    let Some(browser) = start_phone("the lobby timers layout test", SCREENS[0].1).await else {
        return;
    };
    let (_app, addr) = common::start_server().await;
    let c = browser.client.clone();
    let result = every_look(&c, &format!("http://{addr}")).await;
    browser.close().await;
    let bad = result.unwrap();
    assert!(bad.is_empty(), "{bad:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_sends_the_timers_chosen_and_nothing_for_the_server_default() {
    let Some(browser) = browser::Browser::start("the lobby timers test", 1366, 768).await else {
        return;
    };
    // A host's own defaults: 8 s to claim, no turn timer.
    let (_app, addr) = common::start_with_limits(majiang_server::Limits {
        claim_timeout_ms: 8000,
        turn_timeout_ms: 0,
        ..majiang_server::Limits::default()
    })
    .await;
    let c = browser.client.clone();
    let result = three_rooms(&c, addr).await;
    browser.close().await;
    result.unwrap();
}

/// Every language at every screen; returns what was found wrong.
async fn every_look(c: &Client, base: &str) -> Result<Vec<String>, String> {
    let mut bad = Vec::new();
    for lang in LANGS {
        c.goto(&format!("{base}/?lang={lang}")).await.map_err(err)?;
        browser::wait_for(c, "#seats select", 20).await?;
        browser::wait_for(c, "#claim-timeout option[value='3000']", 20).await?;
        for (name, screen) in SCREENS {
            emulate(c, screen).await?;
            // The first measure scrolls the menus into view; the second, a frame later, takes
            // the boxes where they came to rest.
            c.execute(MEASURE, vec![]).await.map_err(err)?;
            tokio::time::sleep(Duration::from_millis(150)).await;
            let m = c.execute(MEASURE, vec![]).await.map_err(err)?;
            let found = check(&m, screen, lang);
            let look = format!("lobby-timers-{lang}-{name}");
            if !found.is_empty() || browser::every_look_saved() {
                browser::save_screenshot(c, &look).await?;
            }
            bad.extend(found.into_iter().map(|f| format!("{look}: {f}")));
        }
    }
    Ok(bad)
}

fn rect(v: &Value) -> [f64; 4] {
    let a = v.as_array().cloned().unwrap_or_default();
    let n = |i: usize| a.get(i).and_then(Value::as_f64).unwrap_or(f64::NAN);
    [n(0), n(1), n(2), n(3)]
}

fn rects(v: &Value) -> Vec<[f64; 4]> {
    v.as_array()
        .map_or(Vec::new(), |a| a.iter().map(rect).collect())
}

/// The area two boxes share, in square pixels.
fn overlap(a: [f64; 4], b: [f64; 4]) -> f64 {
    let w = a[2].min(b[2]) - a[0].max(b[0]);
    let h = a[3].min(b[3]) - a[1].max(b[1]);
    if w > 0.0 && h > 0.0 { w * h } else { 0.0 }
}

/// What is wrong with one look (`m`, [`MEASURE`]'s answer) at `screen` in `lang`.
fn check(m: &Value, screen: Screen, lang: &str) -> Vec<String> {
    let mut bad = Vec::new();
    let (vw, vh) = (
        m["width"].as_f64().unwrap_or(0.0),
        m["height"].as_f64().unwrap_or(0.0),
    );
    if (vw, vh) != (f64::from(screen.width), f64::from(screen.height)) {
        bad.push(format!("the viewport is {vw}×{vh}"));
    }
    let sw = m["scroll_width"].as_f64().unwrap_or(f64::INFINITY);
    if sw > vw + 0.5 {
        bad.push(format!("the page is {sw} px wide in {vw}"));
    }
    let inside = |r: [f64; 4]| r[0] >= -0.5 && r[1] >= -0.5 && r[2] <= vw + 0.5 && r[3] <= vh + 0.5;
    for (what, key) in [("menu", "menus"), ("label", "labels")] {
        for (r, which) in rects(&m[key]).into_iter().zip(["claim", "turn"]) {
            if !inside(r) {
                bad.push(format!("the {which} {what} {r:?} is outside {vw}×{vh}"));
            }
            if what == "menu" && screen.touch && (r[3] - r[1] < 44.0 || r[2] - r[0] < 44.0) {
                bad.push(format!(
                    "the {which} menu is {}×{} px, under 44 px to touch",
                    r[2] - r[0],
                    r[3] - r[1]
                ));
            }
        }
    }
    let hint = rect(&m["hint"]);
    if hint[0] < -0.5 || hint[2] > vw + 0.5 || hint[3] - hint[1] < 1.0 {
        bad.push(format!("the hint {hint:?} is not within {vw} px wide"));
    }
    // The hint explains the two menus: it lies under them.
    for r in rects(&m["menus"]) {
        if hint[1] < r[3] - 0.5 {
            bad.push(format!("the hint {hint:?} is not under the menu {r:?}"));
        }
    }
    let row = rects(&m["row"]);
    if row.len() != 5 {
        bad.push(format!("{} fields in the rows, not 5", row.len()));
    }
    for (i, a) in row.iter().enumerate() {
        for b in &row[i + 1..] {
            if overlap(*a, *b) > 0.5 {
                bad.push(format!("fields {a:?} and {b:?} overlap"));
            }
        }
        if overlap(*a, hint) > 0.5 {
            bad.push(format!("field {a:?} lies over the hint {hint:?}"));
        }
    }
    bad.extend(wording(m, lang));
    bad
}

/// The menus' choices (values and words) and the labels, in the page's language.
fn wording(m: &Value, lang: &str) -> Vec<String> {
    let mut bad = Vec::new();
    let (default, off, three) = match lang {
        "en" => ("server default (5 s)", "off (no limit)", "3 s"),
        "zh" => ("服务器默认（5 秒）", "不限时", "3 秒"),
        _ => ("伺服器預設（5 秒）", "不限時", "3 秒"),
    };
    let claim = m["claim_options"].clone();
    let values: Vec<&str> = claim.as_array().map_or(Vec::new(), |a| {
        a.iter().filter_map(|o| o[0].as_str()).collect()
    });
    if values != ["", "3000", "5000", "8000", "15000", "0"] {
        bad.push(format!("claim choices {values:?}"));
    }
    if claim[0] != json!(["", default]) || claim[1] != json!(["3000", three]) {
        bad.push(format!("claim words {claim}"));
    }
    if claim[5] != json!(["0", off]) {
        bad.push(format!("claim off {claim}"));
    }
    let turn = m["turn_options"].clone();
    let values: Vec<&str> = turn.as_array().map_or(Vec::new(), |a| {
        a.iter().filter_map(|o| o[0].as_str()).collect()
    });
    if values != ["", "15000", "30000", "60000", "0"] {
        bad.push(format!("turn choices {values:?}"));
    }
    let thirty = default.replace('5', "30");
    if turn[0] != json!(["", thirty]) {
        bad.push(format!("turn words {turn}"));
    }
    if lang != "en" {
        let texts = [&m["words"], &claim, &turn].map(Value::to_string).join(" ");
        let latin: Vec<&str> = texts
            .split(|c: char| !c.is_ascii_alphabetic())
            .filter(|w| w.len() >= 2)
            .collect();
        if !latin.is_empty() {
            bad.push(format!("Latin words on a {lang} page: {latin:?}"));
        }
    }
    bad
}

/// Three rooms from the lobby of a server whose defaults are 8 s to claim and no turn timer
/// (the "server default" choices say so): 3 s to claim; the server's defaults; no claim timer
/// and 60 s a turn. Each one's `welcome` says what was chosen, and only that.
async fn three_rooms(c: &Client, addr: SocketAddr) -> Result<(), String> {
    let base = format!("http://{addr}");
    let cases: [(&str, &str, Value, Value); 3] = [
        ("3000", "", json!(3000), Value::Null),
        ("", "", Value::Null, Value::Null),
        ("0", "60000", json!(0), json!(60000)),
    ];
    for (claim, turn, want_claim, want_turn) in cases {
        let room = create(c, &base, claim, turn).await?;
        let config = welcome_config(addr, &room).await;
        let what = format!("claim {claim:?}, turn {turn:?}: {config}");
        assert_eq!(config["claim_timeout_ms"], want_claim, "{what}");
        assert_eq!(config["turn_timeout_ms"], want_turn, "{what}");
        // The server writes its own defaults into every room, for the choices left to it.
        assert_eq!(config["default_claim_timeout_ms"], json!(8000), "{what}");
        assert_eq!(config["default_turn_timeout_ms"], json!(0), "{what}");
    }
    Ok(())
}

/// Creates a room of two people and two bots from the lobby with the timers' choices `claim`
/// and `turn` (menu values; "" is the server's default); returns its id.
async fn create(c: &Client, base: &str, claim: &str, turn: &str) -> Result<String, String> {
    c.goto(&format!("{base}/?lang=en")).await.map_err(err)?;
    browser::wait_for(c, "#seats select", 20).await?;
    browser::wait_for(c, "#claim-timeout option[value='3000']", 20).await?;
    c.execute(
        "const s = document.querySelectorAll('#seats select')[1]; s.value = 'person'; s.dispatchEvent(new Event('change'));",
        vec![],
    )
    .await
    .map_err(err)?;
    // The "server default" choices name this server's defaults, once it answered.
    common::until(
        c,
        "const o = (css) => document.querySelector(css + ' option[value=\\'\\']').textContent; \
         return o('#claim-timeout') === 'server default (8 s)' && \
         o('#turn-timeout') === 'server default (off)'",
        20,
        "the server's defaults named in the lobby",
    )
    .await?;
    browser::select(c, "#claim-timeout", claim).await?;
    browser::select(c, "#turn-timeout", turn).await?;
    browser::click(c, "#create").await?;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let id = c
            .execute(
                "const e = document.querySelector('#created h2 .mono'); return e ? e.textContent : '';",
                vec![],
            )
            .await
            .map_err(err)?;
        if let Some(id) = id.as_str().filter(|s| !s.is_empty()) {
            return Ok(id.to_string());
        }
        if Instant::now() > deadline {
            let said = browser::text_of(c, "#created").await.unwrap_or_default();
            return Err(format!("no room was created: {said:?}"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The settings the room's `welcome` shows a spectator.
async fn welcome_config(addr: SocketAddr, room: &str) -> Value {
    let mut spectator = common::Client::connect(addr, room, None).await;
    match spectator
        .until(|m| matches!(m, ServerMsg::Welcome { .. }))
        .await
    {
        ServerMsg::Welcome { config, .. } => serde_json::to_value(config).unwrap(),
        other => panic!("not a welcome: {other:?}"),
    }
}

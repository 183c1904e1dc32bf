//! The smaller items of the table on a phone (issue 47), driven in headless Chromium through
//! the page:
//!
//! - a hand played for the person by their timers: the result opens as a dialog that takes
//!   focus, the others' discards and claims are read out in a polite live region; the room's
//!   link after the end shows the final standings with links to the replay and the review;
//!   every form field of the lobby, the table and the replay has an accessible name;
//! - a bad replay id says so, with no controls and no review;
//! - the vibration switch beside sound's (remembered; vibration off stops only the buzz, sound
//!   off only the tone), the tab title in the language chosen now, and Chinese sentences
//!   built by the catalogue's sentence ("Bot 2 吃了你的一筒");
//! - a late friend after "start now with bots" is told a bot holds their seat (and may take it
//!   back: `seat_browser.rs`).
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (see `majiang_testkit::browser`).

use crate::common::{self, until};
use fantoccini::Client;
use futures_util::FutureExt;
use majiang_testkit::browser::{self, Browser, click, err, save_screenshot, text_of, wait_for};
use serde_json::{Value, json};
use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

/// The catalogue's string for `key` in `lang`.
fn said(lang: &str, key: &str) -> String {
    let text = match lang {
        "zh" => include_str!("../web/i18n/zh.json"),
        "zh-Hant" => include_str!("../web/i18n/zh-Hant.json"),
        _ => include_str!("../web/i18n/en.json"),
    };
    let cat: Value = serde_json::from_str(text).unwrap();
    cat[key].as_str().unwrap_or_default().to_string()
}

/// Runs `checks` with a fresh browser at a phone's size, closing it whatever happens.
async fn with_browser<F, Fut>(what: &str, checks: F)
where
    F: FnOnce(Client) -> Fut,
    Fut: std::future::Future<Output = Result<(), String>>,
{
    let Some(browser) = Browser::start(what, 390, 844).await else {
        return;
    };
    let c = browser.client.clone();
    let result = AssertUnwindSafe(async {
        crate::web_assets_browser::phone(&c).await?;
        checks(c.clone()).await
    })
    .catch_unwind()
    .await;
    browser.close().await;
    match result {
        Ok(r) => r.unwrap(),
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// Every `input`, `select` and `textarea` of the page without an accessible name (a label,
/// `aria-label`, `aria-labelledby` or `title`), described.
const UNLABELLED: &str = r#"
return [...document.querySelectorAll('input, select, textarea')].filter((e) => {
  if (e.type === 'hidden') return false;
  const named = (e.labels && [...e.labels].some((l) => l.textContent.trim()))
    || (e.getAttribute('aria-label') || '').trim()
    || (e.getAttribute('aria-labelledby') || '').split(/\s+/).some((id) => id && document.getElementById(id)?.textContent.trim())
    || (e.title || '').trim();
  return !named;
}).map((e) => e.outerHTML.slice(0, 120));
"#;

async fn no_unlabelled_fields(c: &Client, page: &str) -> Result<(), String> {
    let bad = c.execute(UNLABELLED, vec![]).await.map_err(err)?;
    assert_eq!(bad, json!([]), "{page}: form fields without a label");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_result_is_a_dialog_the_others_are_read_out_and_a_finished_link_shows_the_standings() {
    let (_app, addr) = common::start_server().await;
    with_browser("the result and finished room test", |c| async move {
        let base = format!("http://{addr}");
        // One hand; the person's timers play for them, so the hand ends by itself.
        let (room, links) = common::post_room(
            addr,
            json!({ "rules": "hongkong", "hands": 1, "bot_delay_ms": 0,
                    "turn_timeout_ms": 500, "claim_timeout_ms": 500, "continue_timeout_ms": 0 }),
        )
        .await;
        let seat = format!("{base}{}&lang=en", links[0]);
        c.goto(&seat).await.map_err(err)?;
        // Started from the page, so the page is there when the hand ends.
        wait_for(&c, "#start:not([hidden])", 30).await?;
        click(&c, "#start").await?;
        wait_for(&c, "#hand .tile", 30).await?;
        no_unlabelled_fields(&c, "the table").await?;
        until(
            &c,
            "const m = document.querySelector('#modal'); return m && !m.hidden",
            120,
            "the hand's result",
        )
        .await?;
        let dialog = c
            .execute(
                "const m = document.querySelector('#modal'); return [m.getAttribute('role'), m.getAttribute('aria-modal'), document.activeElement === m, document.getElementById(m.getAttribute('aria-labelledby'))?.textContent]",
                vec![],
            )
            .await
            .map_err(err)?;
        assert_eq!(
            dialog,
            json!(["dialog", "true", true, said("en", "replay.summary")]),
            "the result is a labelled dialog holding the focus"
        );
        let told = c
            .execute(
                "const a = document.querySelector('#announcer'); return a ? [a.getAttribute('aria-live'), [...a.children].map((p) => p.textContent)] : null",
                vec![],
            )
            .await
            .map_err(err)?;
        assert_eq!(told[0], json!("polite"), "{told}");
        let lines: Vec<String> = serde_json::from_value(told[1].clone()).unwrap_or_default();
        let discards = said("en", "ev.discarded");
        let verb = discards.split_whitespace().nth(1).unwrap_or("discards");
        assert!(
            !lines.is_empty() && lines.len() <= 5,
            "the last few of the others' moves: {lines:?}"
        );
        assert!(
            lines
                .iter()
                .all(|l| !l.starts_with(&said("en", "common.you"))),
            "the viewer's own moves are not read out: {lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.contains(verb)) || lines.iter().any(|l| l.contains("wins")),
            "discards read out: {lines:?}"
        );
        save_screenshot(&c, "phone-result-dialog-390x844").await?;

        // The match is over: its link now shows the final standings and where to go next.
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let (_, _, info) = common::http(addr, "GET", &format!("/api/rooms/{room}"), "").await;
            if info.contains("\"finished\"") {
                break;
            }
            assert!(Instant::now() < deadline, "the room never finished: {info}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        c.goto(&seat).await.map_err(err)?;
        wait_for(&c, "#waiting-room:not([hidden]) .final-standings li", 20).await?;
        let finished = c
            .execute(
                "const b = document.querySelector('#waiting-room'); return [b.querySelector('h2').textContent, b.querySelectorAll('.final-standings li').length, b.querySelector('a.replay-link').getAttribute('href'), b.querySelector('a.review-link').getAttribute('href'), [...b.querySelectorAll('.final-standings b')].map((e) => Number(e.textContent))]",
                vec![],
            )
            .await
            .map_err(err)?;
        assert_eq!(finished[0], json!(said("en", "waiting.finished_title")));
        assert_eq!(finished[1], json!(4), "{finished}");
        assert_eq!(finished[2], json!(format!("/?replay={room}")));
        assert_eq!(finished[3], json!(format!("/?replay={room}#review")));
        let points: Vec<i64> = serde_json::from_value(finished[4].clone()).unwrap();
        assert!(
            points.windows(2).all(|w| w[0] >= w[1]),
            "best first: {points:?}"
        );
        assert_eq!(points.iter().sum::<i64>(), 0, "a zero-sum ledger: {points:?}");
        save_screenshot(&c, "phone-finished-room-390x844").await?;

        c.goto(&format!("{base}/?replay={room}&lang=en"))
            .await
            .map_err(err)?;
        wait_for(&c, "#replay-hand option", 20).await?;
        no_unlabelled_fields(&c, "the replay").await?;
        c.goto(&format!("{base}/?lang=en")).await.map_err(err)?;
        wait_for(&c, "#lobby:not([hidden]) #seats select", 20).await?;
        no_unlabelled_fields(&c, "the lobby").await?;

        // A replay id cut short: said so, nothing to step through or review.
        let cut = &room[..room.len() / 2];
        c.goto(&format!("{base}/?replay={cut}&lang=en"))
            .await
            .map_err(err)?;
        wait_for(&c, "#replay-action[role=alert] a.back-to-lobby", 20).await?;
        let shown = c
            .execute(
                "return ['#replay-controls', '#review', '#replay .keys-help'].map((s) => document.querySelector(s).checkVisibility())",
                vec![],
            )
            .await
            .map_err(err)?;
        assert_eq!(shown, json!([false, false, false]), "nothing to review");
        let words = text_of(&c, "#replay-action").await?;
        assert!(!words.trim().is_empty(), "the reason is said");
        save_screenshot(&c, "phone-bad-replay-390x844").await?;
        Ok(())
    })
    .await;
}

/// The module `name` of the page, at the page's version (the same instance the page uses).
fn module(name: &str) -> String {
    format!(
        "const src = document.querySelector('script[type=module]').src; const m = await import(new URL('./{name}', src).href.replace(/\\?.*$/, '') + new URL(src).search);"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vibration_has_its_own_switch_and_words_follow_the_language() {
    let (_app, addr) = common::start_server().await;
    with_browser("the cue and words test", |c| async move {
        let (_, links) = common::post_room(
            addr,
            json!({ "rules": "hongkong", "autostart": true, "bot_delay_ms": 400 }),
        )
        .await;
        let seat = format!("http://{addr}{}&lang=en", links[0]);
        c.goto(&seat).await.map_err(err)?;
        wait_for(&c, "#vibrate-switch", 20).await?;
        // On a phone the header's switches wait in the drawer behind ☰.
        browser::reveal_in_drawer(&c, "#vibrate-switch").await?;
        assert_eq!(
            text_of(&c, "#vibrate-switch").await?,
            said("en", "cue.vibrate_on")
        );
        click(&c, "#vibrate-switch").await?;
        // Remembered on this device.
        c.goto(&seat).await.map_err(err)?;
        wait_for(&c, "#vibrate-switch[aria-pressed=false]", 20).await?;
        browser::reveal_in_drawer(&c, "#vibrate-switch").await?;
        assert_eq!(
            text_of(&c, "#vibrate-switch").await?,
            said("en", "cue.vibrate_off")
        );
        // The cue with vibration off: the tone sounds, nothing buzzes; then the other way.
        let fire = format!(
            r#"const done = arguments[0];
(async () => {{
{}
window.__rec = {{ vibrated: [], tones: [] }};
Object.defineProperty(navigator, 'vibrate', {{ configurable: true, value: (p) => {{ window.__rec.vibrated.push(p); return true; }} }});
window.AudioContext = class {{
  constructor() {{ this.currentTime = 0; this.destination = {{}}; }}
  createOscillator() {{ const o = {{ frequency: {{ value: 0 }}, connect: (n) => n, start: () => window.__rec.tones.push(o.frequency.value), stop: () => {{}} }}; return o; }}
  createGain() {{ return {{ gain: {{ setValueAtTime() {{}}, exponentialRampToValueAtTime() {{}} }}, connect: (n) => n }}; }}
}};
m.turnCue(false); m.turnCue(true);
done([window.__rec.vibrated.length, window.__rec.tones.length, document.title]);
}})();"#,
            module("cue.js")
        );
        // The person's decision: the room waits for it (no timers with one person), so the
        // live states leave the cue alone while it is tried.
        wait_for(&c, "body.my-turn", 30).await?;
        // A touch first: a page may sound only after one.
        click(&c, "#vibrate-switch").await?;
        click(&c, "#vibrate-switch").await?;
        let off = c.execute_async(&fire, vec![]).await.map_err(err)?;
        let title = format!(
            "● {} · {}",
            said("en", "table.your_turn_title"),
            said("en", "app.title")
        );
        assert_eq!(off, json!([0, 1, title]), "vibration off: only the tone");
        click(&c, "#sound-switch").await?;
        click(&c, "#vibrate-switch").await?;
        let on = c.execute_async(&fire, vec![]).await.map_err(err)?;
        assert_eq!(on, json!([1, 0, title]), "sound off: only the buzz");

        // The title follows a change of language, mid-turn and after.
        for lang in ["zh", "zh-Hant"] {
            browser::switch_language(&c, lang).await?;
            let want = format!(
                "● {} · {}",
                said(lang, "table.your_turn_title"),
                said(lang, "app.title")
            );
            until(
                &c,
                &format!("return document.title === {}", json!(want)),
                10,
                "the title in the language",
            )
            .await?;
            // A Chinese sentence from its catalogue: spaces only where Latin meets Chinese.
            let sentence = c
                .execute_async(
                    &format!(
                        "const done = arguments[0]; (async () => {{ {} done(m.t('ev.claimed', {{ who: 'Bot 2', meld: '吃', from: '你', tile: '一筒' }})); }})();",
                        module("i18n.js")
                    ),
                    vec![],
                )
                .await
                .map_err(err)?;
            assert_eq!(sentence, json!("Bot 2 吃了你的一筒"), "{lang}");
            // A default bot name reads in the viewer's language, whoever named it.
            let names = c
                .execute_async(
                    &format!(
                        "const done = arguments[0]; (async () => {{ {} done(['Bot 2', '机器人2', '電腦 2', 'Ann'].map(m.playerName)); }})();",
                        module("i18n.js")
                    ),
                    vec![],
                )
                .await
                .map_err(err)?;
            let bot = said(lang, "lobby.default_bot").replace("{n}", " 2");
            assert_eq!(names, json!([bot, bot, bot, "Ann"]), "{lang}");
        }
        let back = c
            .execute_async(
                &format!(
                    "const done = arguments[0]; (async () => {{ {} m.turnCue(false); done(document.title); }})();",
                    module("cue.js")
                ),
                vec![],
            )
            .await
            .map_err(err)?;
        assert_eq!(back, json!(said("zh-Hant", "app.title")));
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_friend_is_told_a_bot_holds_their_seat() {
    let (_app, addr) = common::start_server().await;
    with_browser("the late friend test", |c| async move {
        let (_, links) = common::post_room(
            addr,
            json!({ "rules": "hongkong", "bot_delay_ms": 400, "seats": [
                { "name": "Ann" }, { "name": "Bo" },
                { "name": "Bot 2", "bot": true }, { "name": "Bot 3", "bot": true }] }),
        )
        .await;
        assert_eq!(links.len(), 2, "{links:?}");
        c.goto(&format!("http://{addr}{}&lang=en", links[0]))
            .await
            .map_err(err)?;
        wait_for(&c, "#start-fill:not([hidden])", 20).await?;
        click(&c, "#start-fill").await?;
        wait_for(&c, "#hand .tile", 20).await?;
        c.goto(&format!("http://{addr}{}&lang=en", links[1]))
            .await
            .map_err(err)?;
        // Told in the seat call, with the button that takes the seat back (seat_browser.rs
        // takes it and plays on).
        let note = until(
            &c,
            "const n = document.querySelector('#seat-call'); return n && !n.hidden && document.querySelector('#seat-call-text').textContent",
            20,
            "the seat call",
        )
        .await?;
        assert_eq!(note, json!(said("en", "table.take_seat_next_hand")));
        assert!(
            c.execute(
                "return document.querySelector('#link-problem').hidden",
                vec![]
            )
            .await
            .map_err(err)?
                == json!(true),
            "not a bad link"
        );
        save_screenshot(&c, "phone-late-friend-390x844").await?;
        Ok(())
    })
    .await;
}

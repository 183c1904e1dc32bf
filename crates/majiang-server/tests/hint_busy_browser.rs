//! The expert is busy, in headless Chromium: with the hint queue full (no hint worked out, one
//! waiting: another table's), a person who turns hints on sees the bar say that the expert is
//! busy for this move, in English, 简体 and 繁體, each worded from the page's catalogue. At
//! 1366×768, 1920×1080 and a 390×844 phone nothing may overflow sideways; the screenshots go to
//! `target/e2e-screenshots/` (`hint-busy-*`).
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (see `majiang_testkit::browser`).

use crate::common;
use crate::hints_ws::hinted_room;
use crate::review_browser::look;
use majiang_server::protocol::{ClientMsg, RoomStatus, ServerMsg};
use majiang_testkit::browser::{self, Browser, click, err, text_of, wait_for};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_hint_queue_says_the_expert_is_busy_in_three_languages() {
    let Some(browser) = Browser::start("the busy-expert test", 1366, 768).await else {
        return;
    };
    // No hint is worked out and one may wait: Ann's first hint fills the queue for good (her
    // table has no timers, so it waits for her).
    let (app, addr) = common::start_with_limits(majiang_server::Limits {
        hints_at_once: 0,
        hint_queue: 1,
        ..majiang_server::Limits::default()
    })
    .await;
    let mut ann = hinted_room(&app, addr, "Ann").await;
    ann.send(&ClientMsg::Hints { on: true }).await;
    ann.until(|m| {
        matches!(m, ServerMsg::State { status: RoomStatus::Playing, observation: Some(o), .. }
            if o.legal_actions.len() >= 2)
    })
    .await;
    let until = Instant::now() + Duration::from_secs(10);
    while app.hint_queue().waiting() < 1 {
        assert!(Instant::now() < until, "Ann's hint never queued");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let c = browser.client.clone();
    let result = run(&c, &app, addr).await;
    browser.close().await;
    result.unwrap();
    assert_eq!(app.hint_queue().waiting(), 1, "the queue held at its cap");
}

async fn run(
    c: &fantoccini::Client,
    app: &majiang_server::App,
    addr: std::net::SocketAddr,
) -> Result<(), String> {
    let created = app
        .create_room(common::config(json!({
            "rules": "hongkong", "hands": 1, "hints": true, "autostart": true, "bot_delay_ms": 0,
            "seats": [{"name": "Bob"}, {"bot": true}, {"bot": true}, {"bot": true}]
        })))
        .await
        .map_err(|e| format!("{e:?}"))?;
    let link = created.seats[0]
        .link
        .clone()
        .ok_or("Bob's seat has no link")?;
    c.goto(&format!("http://{addr}{link}&lang=en"))
        .await
        .map_err(err)?;
    wait_for(c, "#hint-toggle", 10).await?;
    click(c, "#hint-toggle").await?;
    for lang in ["en", "zh", "zh-Hant"] {
        if lang != "en" {
            browser::switch_language(c, lang).await?;
        }
        let catalogue: Value = serde_json::from_str(
            &std::fs::read_to_string(format!(
                "{}/web/i18n/{lang}.json",
                env!("CARGO_MANIFEST_DIR")
            ))
            .map_err(|e| e.to_string())?,
        )
        .map_err(|e| e.to_string())?;
        let busy = catalogue["hints.busy"].as_str().ok_or("no hints.busy")?;
        // The bar answers Bob's present decision; wait for it in this language.
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            let shown = text_of(c, ".expert-hint.busy").await.unwrap_or_default();
            if shown == busy {
                break;
            }
            if Instant::now() > until {
                return Err(format!("{lang}: the bar says {shown:?}, not {busy:?}"));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(
            c.find(fantoccini::Locator::Css(".expert-hint .hint-action"))
                .await
                .is_err(),
            "{lang}: no suggestion beside the busy line"
        );
        look(c, &format!("hint-busy-{lang}"), "#controls").await?;
    }
    Ok(())
}

//! The expert is busy, in headless Chromium: with the hint queue full (no hint worked out, one
//! waiting: another table's), a person who turns hints on sees the bar say that the expert is
//! busy for this move, in English, 简体 and 繁體, each worded from the page's catalogue. At
//! 1366×768, 1920×1080 and a 390×844 phone nothing may overflow sideways; the screenshots go to
//! `target/e2e-screenshots/` (`hint-busy-*`).
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (see `majiang_testkit::browser`).

use crate::common;
use crate::hints_ws::full_hint_queue;
use crate::review_browser::look;
use majiang_testkit::browser::{self, Browser, click, err, text_of, wait_for};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_hint_queue_says_the_expert_is_busy_in_three_languages() {
    let Some(browser) = Browser::start("the busy-expert test", 1366, 768).await else {
        return;
    };
    let (app, addr, _ann) = full_hint_queue().await;
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

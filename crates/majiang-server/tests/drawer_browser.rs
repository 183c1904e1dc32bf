//! The ☰ drawer of the scores and the log on a phone holds the keyboard's focus while open
//! (Tab and Shift+Tab go round the controls inside it), Escape closes it, and the focus then
//! returns to the ☰ button. Headless Chromium at 390×844 with mobile emulation; needs
//! `/usr/bin/chromium` and `/usr/bin/chromedriver`.

use crate::common;
use futures_util::FutureExt;
use majiang_testkit::browser::{click, err, save_screenshot, wait_for};
use majiang_testkit::browser_mobile::{Screen, start_phone};
use serde_json::{Value, json};
use std::panic::AssertUnwindSafe;

/// WebDriver's keys: Tab, Shift (held for the rest of one `send_keys`) and Escape.
const TAB: &str = "\u{E004}";
const SHIFT: &str = "\u{E008}";
const ESCAPE: &str = "\u{E00C}";

/// Where the focus is: inside the drawer, and what it is.
const FOCUS: &str = "const a = document.activeElement; return [document.querySelector('#side').contains(a), a.id || a.tagName];";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_drawer_holds_the_focus_and_escape_gives_it_back_to_its_button() {
    let (app, addr) = common::start_server().await;
    let Some(browser) = start_phone("the drawer focus test", Screen::touch(390, 844)).await else {
        return;
    };
    let c = browser.client.clone();
    let result = AssertUnwindSafe(async {
        let created = app
            .create_room(common::config(json!({"rules": "hongkong", "hands": 1, "autostart": true})))
            .await
            .unwrap();
        let link = created.seats[0].link.clone().unwrap();
        c.goto(&format!("http://{addr}{link}&lang=en")).await.map_err(err)?;
        wait_for(&c, "#hand .tile", 20).await?;
        click(&c, "#side-toggle").await?;
        wait_for(&c, "body.side-open", 5).await?;
        let focus = c.execute(FOCUS, vec![]).await.map_err(err)?;
        assert_eq!(focus, json!([true, "side-close"]), "opening focuses its ✕");
        let count = c
            .execute(
                "return [...document.querySelector('#side').querySelectorAll('a[href], button, input, select, textarea, [tabindex]')].filter((e) => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length > 0).length",
                vec![],
            )
            .await
            .map_err(err)?
            .as_u64()
            .unwrap();
        assert!(count >= 3, "{count} controls in the drawer");
        // Every control in the drawer is a thumb's target: at least 44 px tall.
        let small = c
            .execute(
                "return [...document.querySelector('#side').querySelectorAll('a[href], button, select, input')].filter((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().height < 44).map((e) => (e.id || e.textContent.trim()) + ' ' + Math.round(e.getBoundingClientRect().height) + ' px')",
                vec![],
            )
            .await
            .map_err(err)?;
        assert_eq!(small, json!([]), "drawer controls under 44 px tall");
        // Round twice each way: the focus never leaves, and comes back to where it began.
        for keys in [TAB.to_string(), format!("{SHIFT}{TAB}")] {
            let mut seen = Vec::new();
            for _ in 0..2 * count {
                c.active_element()
                    .await
                    .map_err(err)?
                    .send_keys(&keys)
                    .await
                    .map_err(err)?;
                let focus: Value = c.execute(FOCUS, vec![]).await.map_err(err)?;
                assert_eq!(focus[0], json!(true), "{keys:?}: the focus left: {focus}");
                seen.push(focus[1].clone());
            }
            assert_eq!(seen[count as usize - 1], json!("side-close"), "{keys:?}: round: {seen:?}");
        }
        save_screenshot(&c, "drawer-open-390x844").await?;
        c.active_element()
            .await
            .map_err(err)?
            .send_keys(ESCAPE)
            .await
            .map_err(err)?;
        wait_for(&c, "body:not(.side-open)", 5).await?;
        let focus = c.execute(FOCUS, vec![]).await.map_err(err)?;
        assert_eq!(focus, json!([false, "side-toggle"]), "the focus back on ☰");
        Ok::<(), String>(())
    })
    .catch_unwind()
    .await;
    browser.close().await;
    match result {
        Ok(r) => r.unwrap(),
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

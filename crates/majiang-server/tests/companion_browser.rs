//! The table companion in headless Chromium on a phone held upright (390×844): start a
//! Hangzhou table on the ledger page, open the scoring page from it, build the winning hand by
//! tapping the tile keyboard (concealed tiles, a pung and whom it came from, the winning tile),
//! score it, record it in the ledger and see the totals move. The pages must not overflow
//! sideways and the keyboard must lie inside the screen; screenshots at 390×844, 1366×768 and
//! 1920×1080, in English and Chinese, stay in `target/e2e-screenshots/companion-*.png`.
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (as `e2e_browser.rs`: when they are
//! missing and cannot be installed, the test says so loudly and passes without running).

use crate::common;
use majiang_testkit::browser;

use browser::{Browser, err, save_screenshot, set_viewport};
use fantoccini::{Client, Locator};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hand_built_by_tapping_is_scored_and_recorded_in_a_ledger() {
    let Some(browser) = Browser::start("the companion browser test", 390, 844).await else {
        return;
    };
    let (_app, addr) = common::start_server().await;
    let client = browser.client.clone();
    let result = evening(&client, &format!("http://{addr}")).await;
    if result.is_err() {
        let _ = save_screenshot(&client, "companion-failure").await;
    }
    browser.close().await;
    result.unwrap();
}

async fn evening(c: &Client, base: &str) -> Result<(), String> {
    set_viewport(c, 390, 844).await?;
    c.goto(&format!("{base}/ledger?lang=en"))
        .await
        .map_err(err)?;
    wait_for(c, "return !document.querySelector('#l-start').hidden && document.querySelectorAll('#l-rules option').length > 0").await?;
    browser::select(c, "#l-rules", "hangzhou").await?;
    for (i, name) in ["Ann", "Bo", "Cy", "Di"].iter().enumerate() {
        c.find(Locator::Css(&format!(
            "#l-names input[data-player=\"{i}\"]"
        )))
        .await
        .map_err(err)?
        .send_keys(name)
        .await
        .map_err(err)?;
    }
    // House rules are controls built from the rule set: a menu for the Caishen kind, a check
    // box for the double-roll lao, number boxes; a base of 2 goes to the server as a number.
    let controls = c
        .execute(
            "return [...document.querySelectorAll('#l-rule-form [data-option]')].map(e => e.dataset.option + ':' + e.dataset.kind)",
            vec![],
        )
        .await
        .map_err(err)?;
    for want in [
        "wildcard:one_of",
        "base:whole",
        "dice_double_starts_lao3:bool",
    ] {
        if !controls
            .as_array()
            .is_some_and(|a| a.contains(&json!(want)))
        {
            return Err(format!("no {want} control among {controls}"));
        }
    }
    c.execute(
        "document.querySelector('#l-rule-form details, details')?.setAttribute('open', ''); const b = document.querySelector('#opt-base'); b.value = '2'; b.dispatchEvent(new Event('change'));",
        vec![],
    )
    .await
    .map_err(err)?;
    save_screenshot(c, "companion-ledger-start-en-390x844").await?;
    tap(c, "#l-start-button").await?;
    wait_for(c, "return !document.querySelector('#l-table').hidden").await?;
    let url = c.current_url().await.map_err(err)?;
    let id = url
        .query_pairs()
        .find(|(k, _)| k == "id")
        .map(|(_, v)| v.to_string())
        .ok_or_else(|| format!("no ledger id in {url}"))?;
    check_fits(c, "ledger (new table)").await?;
    let (_, _, stored) = common::http(
        base.trim_start_matches("http://")
            .parse()
            .map_err(|e| format!("{e}"))?,
        "GET",
        &format!("/api/ledgers/{id}"),
        "",
    )
    .await;
    let stored: Value = serde_json::from_str(&stored).map_err(|e| e.to_string())?;
    if stored["options"]["base"] != json!(2) {
        return Err(format!(
            "the house rule base = 2 was not sent: {}",
            stored["options"]
        ));
    }

    // The scoring page, opened from the ledger for hand 1.
    tap(c, "#l-score").await?;
    wait_for(c, "return !document.querySelector('#score-page').hidden && !document.querySelector('#c-ledger').hidden && !!document.querySelector('.key')").await?;
    // Concealed: 123m 456p 11z 22z; a pung of 7s from north; the winning tile 2z.
    for tile in ["1m", "2m", "3m", "4p", "5p", "6p", "1z", "1z", "2z", "2z"] {
        tap(c, &format!(".key[data-tile=\"{tile}\"]")).await?;
    }
    tap(c, ".mode[data-mode=\"pung\"]").await?;
    tap(c, ".key[data-tile=\"7s\"]").await?;
    browser::select(c, "select[data-meld=\"0\"]", "north").await?;
    tap(c, ".mode[data-mode=\"winning\"]").await?;
    tap(c, ".key[data-tile=\"2z\"]").await?;
    let built = c
        .execute(
            "return [document.querySelectorAll('[data-part=concealed] .tile').length, document.querySelectorAll('.meld-row').length, document.querySelector('[data-part=winning_tile] .tile')?.dataset.tile]",
            vec![],
        )
        .await
        .map_err(err)?;
    if built != json!([10, 1, "2z"]) {
        return Err(format!("the hand built by tapping is {built}"));
    }
    check_fits(c, "scoring page with its keyboard").await?;
    save_screenshot(c, "companion-score-hand-en-390x844").await?;
    // The Caishen is tapped, not typed: the chosen tile is the one marked.
    c.execute(
        "document.querySelector('#c-hangzhou').hidden = false",
        vec![],
    )
    .await
    .map_err(err)?;
    tap(c, "#c-wildcard .pick-tile[data-tile=\"3p\"]").await?;
    let marked = c
        .execute(
            "return [...document.querySelectorAll('#c-wildcard [aria-checked=true]')].map(b => b.dataset.tile)",
            vec![],
        )
        .await
        .map_err(err)?;
    if marked != json!(["3p"]) {
        return Err(format!("the tapped Caishen is {marked}"));
    }
    tap(c, "#c-wildcard .pick-tile[data-tile=\"\"]").await?;

    tap(c, "#c-score").await?;
    wait_for(c, "return !!document.querySelector('#c-answer .answer')").await?;
    let answer = c
        .execute(
            "return {total: document.querySelector('#c-total')?.textContent, rows: [...document.querySelectorAll('.payments tr')].map(r => r.textContent), why: document.querySelectorAll('.itemised li').length, error: document.querySelector('#c-error').textContent}",
            vec![],
        )
        .await
        .map_err(err)?;
    let total = answer["total"].as_str().unwrap_or("");
    if total.is_empty() || answer["why"].as_u64().unwrap_or(0) == 0 {
        return Err(format!("no scored answer: {answer}"));
    }
    if answer["rows"].as_array().map(Vec::len) != Some(4) {
        return Err(format!("every seat's payment: {answer}"));
    }
    // The same answer the endpoint gives for the request the page built.
    let expected = majiang::rules::score_json(
        &json!({"rules": "hangzhou", "options": {"base": 2}, "concealed": "123m456p1122z",
            "melds": [{"kind": "pung", "tiles": "777s", "from": "north"}],
            "winning_tile": "2z", "win": "self_draw", "seat": "east", "dealer": "east",
            "prevailing_wind": "east", "lao": 1})
        .to_string(),
    )
    .map_err(|e| e.to_string())?;
    if total.parse::<i64>().ok() != expected["total"].as_i64() {
        return Err(format!(
            "total {total}, the library says {}",
            expected["total"]
        ));
    }
    save_screenshot(c, "companion-score-answer-en-390x844").await?;
    for (w, h) in [(1366, 768), (1920, 1080)] {
        set_viewport(c, w, h).await?;
        check_fits(c, "scoring page").await?;
        save_screenshot(c, &format!("companion-score-answer-en-{w}x{h}")).await?;
    }
    set_viewport(c, 390, 844).await?;

    // Record it: back on the ledger, hand 1 is there and the totals moved.
    tap(c, "#c-record").await?;
    wait_for(c, "return location.pathname === '/ledger' && !document.querySelector('#l-table').hidden && document.querySelectorAll('#l-hands .hand-row').length === 1").await?;
    let totals = c
        .execute(
            "return [...document.querySelectorAll('#l-totals tbody td.num')].map(td => Number(td.textContent))",
            vec![],
        )
        .await
        .map_err(err)?;
    let totals: Vec<i64> = serde_json::from_value(totals).map_err(|e| e.to_string())?;
    let ann = expected["payments"]["east"].as_i64().unwrap_or(0);
    if totals.len() != 4 || totals[0] != ann || totals.iter().sum::<i64>() != 0 {
        return Err(format!("totals {totals:?}, Ann (east) should have {ann}"));
    }
    let next = browser::text_of(c, "#l-next-deal").await?;
    // Hangzhou counts lao and keeps no prevailing wind: the line names no wind.
    if !next.contains("Ann")
        || !next.contains("Lao")
        || !next.contains("2")
        || next.contains("wind")
    {
        return Err(format!(
            "the dealer won: Ann deals again at 2 lao (no wind), not {next:?}"
        ));
    }
    // Another phone records a drawn hand: this page shows it without a reload.
    let (status, _, body) = common::http(
        base.trim_start_matches("http://")
            .parse()
            .map_err(|e| format!("{e}"))?,
        "POST",
        &format!("/api/ledgers/{id}/hands"),
        r#"{"draw": true}"#,
    )
    .await;
    if status != 200 {
        return Err(format!("recording a draw: {status} {body}"));
    }
    wait_for(
        c,
        "return document.querySelectorAll('#l-hands .hand-row').length === 2",
    )
    .await?;
    check_fits(c, "ledger after a hand").await?;
    save_screenshot(c, "companion-ledger-en-390x844").await?;
    for (w, h) in [(1366, 768), (1920, 1080)] {
        set_viewport(c, w, h).await?;
        check_fits(c, "ledger").await?;
        save_screenshot(c, &format!("companion-ledger-en-{w}x{h}")).await?;
    }

    // In Chinese, on the phone.
    set_viewport(c, 390, 844).await?;
    c.goto(&format!("{base}/ledger?id={id}&lang=zh"))
        .await
        .map_err(err)?;
    wait_for(c, "return !document.querySelector('#l-table').hidden").await?;
    check_fits(c, "ledger in Chinese").await?;
    save_screenshot(c, "companion-ledger-zh-390x844").await?;
    c.goto(&format!("{base}/score?ledger={id}"))
        .await
        .map_err(err)?;
    wait_for(
        c,
        "return !document.querySelector('#score-page').hidden && !!document.querySelector('.key')",
    )
    .await?;
    check_fits(c, "scoring page in Chinese").await?;
    save_screenshot(c, "companion-score-zh-390x844").await?;
    Ok(())
}

/// Taps `css` (found again if the page rebuilt it meanwhile: the kit's click).
async fn tap(c: &Client, css: &str) -> Result<(), String> {
    browser::click(c, css).await
}

/// Waits (up to 10 s) until the script `cond` returns true.
async fn wait_for(c: &Client, cond: &str) -> Result<(), String> {
    let started = Instant::now();
    loop {
        if c.execute(cond, vec![]).await.map_err(err)? == Value::Bool(true) {
            return Ok(());
        }
        if started.elapsed() > Duration::from_secs(10) {
            return Err(format!("waited 10 s for: {cond}"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Nothing overflows sideways, and the keyboard (when shown) lies inside the viewport.
async fn check_fits(c: &Client, what: &str) -> Result<(), String> {
    let layout = c
        .execute(
            "const k = document.querySelector('#c-keyboard'); const r = k && !k.hidden ? k.getBoundingClientRect() : null;
             return {width: innerWidth, height: innerHeight,
               scroll: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
               keyboard: r ? [r.left, r.top, r.right, r.bottom] : null};",
            vec![],
        )
        .await
        .map_err(err)?;
    let width = layout["width"].as_f64().unwrap_or(0.0);
    let height = layout["height"].as_f64().unwrap_or(0.0);
    if layout["scroll"].as_f64().unwrap_or(0.0) > width + 1.0 {
        return Err(format!("{what}: the page overflows sideways: {layout}"));
    }
    if let Some(k) = layout["keyboard"].as_array() {
        let k: Vec<f64> = k.iter().map(|v| v.as_f64().unwrap_or(-1.0)).collect();
        if k[0] < -1.0 || k[2] > width + 1.0 || k[1] < 0.0 || k[3] > height + 1.0 {
            return Err(format!(
                "{what}: the keyboard is not on the screen: {layout}"
            ));
        }
    }
    Ok(())
}

//! The expert in the browser, in headless Chromium, in English and 中文: the Review view of a
//! finished match (history → replay with its review, a seat chosen, the server's review shown
//! decision by decision: the values on the page are the endpoint's, choosing a decision moves
//! the replay to its moment, a refusal is worded from its key) and the table with a hint (a
//! room made in the lobby with hints allowed; the person turns hints on and sees the expert's
//! suggestion with its tile marked in the hand, its reason and the next best option's band in
//! the review pane's words). At 1366×768, 1920×1080 and a 390×844 phone
//! nothing may overflow sideways; the screenshots go to `target/e2e-screenshots/` (`review-*`,
//! `hint-*`) and are copied to `/tmp/reviewui-shots/` when that folder exists.
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (see `majiang_testkit::browser`).

use crate::common;
use majiang_testkit::browser;

use browser::{
    Browser, SIZES, attr_of, click, err, save_screenshot, screenshot_dir, set_viewport, text_of,
    wait_for,
};
use fantoccini::{Client, Locator};
use futures_util::FutureExt;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

/// The review's worlds a decision in this test (the page passes `review_budget` on).
const BUDGET: u32 = 8;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_review_and_the_hints_show_the_experts_real_values_in_english_and_chinese() {
    let Some(browser) = Browser::start("the review test", 1366, 768).await else {
        return;
    };
    let (app, addr) = common::start_server().await;
    let c = browser.client.clone();
    let result = AssertUnwindSafe(run(&c, &app, addr)).catch_unwind().await;
    browser.close().await;
    match result {
        Ok(r) => r.unwrap(),
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

async fn run(c: &Client, app: &majiang_server::App, addr: SocketAddr) -> Result<(), String> {
    let base = format!("http://{addr}");
    let room = finished_match(app, addr, 2).await?;
    // The review as the endpoint serves it: the page must show these values.
    let (status, _, body) = common::http(
        addr,
        "GET",
        &format!("/api/rooms/{room}/review?seat=0&budget={BUDGET}"),
        "",
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let served: Value = serde_json::from_str(&body).map_err(|e| e.to_string())?;
    for lang in ["en", "zh"] {
        review_page(c, &base, &room, &served, lang).await?;
    }
    refused_review(c, &base, &room).await?;
    hint_at_the_table(c, &base).await?;
    // Last: these reviews go on working after the page has looked at them.
    let long = finished_match(app, addr, 16).await?;
    for (seat, lang) in [(1, "en"), (2, "zh"), (3, "zh-Hant")] {
        review_in_progress(c, &base, &long, seat, lang).await?;
    }
    Ok(())
}

/// A Hong Kong match of `hands` hands of bots, seat 0 named Ann, played to the end; its room id.
async fn finished_match(
    app: &majiang_server::App,
    addr: SocketAddr,
    hands: u32,
) -> Result<String, String> {
    let created = app
        .create_room(common::config(json!({
            "rules": "hongkong", "hands": hands,
            "seats": [{"name": "Ann", "bot": true}, {"bot": true}, {"bot": true}, {"bot": true}]
        })))
        .await
        .map_err(|e| e.to_string())?;
    let room = created.room;
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let (status, _, _) =
            common::http(addr, "GET", &format!("/api/rooms/{room}/log.jsonl"), "").await;
        if status == 200 {
            return Ok(room);
        }
        if Instant::now() > until {
            return Err("the bot match did not finish".into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The value as the page words it: "+1.40", "−0.35", "0.00" (its standard error stays in the
/// JSON: the band words it).
fn value_text(v: &Value) -> String {
    let mean = v["mean"].as_f64().unwrap_or(0.0);
    let sign = if mean > 0.005 {
        "+"
    } else if mean < -0.005 {
        "−"
    } else {
        ""
    };
    format!("{sign}{:.2}", mean.abs())
}

/// An alternative's band (as the review's JSON spells it, `null` when not compared) in the
/// words of `lang`'s catalogue.
fn band_text(band: &Value, lang: &str) -> &'static str {
    let words: [&'static str; 6] = match lang {
        "en" => [
            "the expert's choice",
            "about equal",
            "slightly worse",
            "clearly worse",
            "better in the playouts",
            "not compared",
        ],
        "zh" => [
            "高手的选择",
            "大致相当",
            "稍差",
            "明显更差",
            "模拟中更好",
            "未比较",
        ],
        _ => [
            "高手嘅選擇",
            "大致相當",
            "稍差",
            "明顯更差",
            "模擬中更好",
            "未比較",
        ],
    };
    match band.as_str() {
        Some("expert") => words[0],
        Some("about_equal") => words[1],
        Some("slightly_worse") => words[2],
        Some("clearly_worse") => words[3],
        Some("better") => words[4],
        _ => words[5],
    }
}

/// Whether the review's JSON calls decision `d` a loss: the band of what was played is worse
/// than the expert's choice beyond noise.
fn is_loss(d: &Value) -> bool {
    d["alternatives"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|a| a["action"] == d["played"])
        .is_some_and(|a| a["band"] == "slightly_worse" || a["band"] == "clearly_worse")
        && d["agreed"] == json!(false)
}

/// The texts of the elements `css` finds inside the element `id`, hidden ones too.
async fn texts_in(c: &Client, id: &str, css: &str) -> Result<Vec<String>, String> {
    Ok(c
        .execute(
            "return [...document.querySelectorAll(arguments[0] + ' ' + arguments[1])].map((e) => e.textContent)",
            vec![json!(id), json!(css)],
        )
        .await
        .map_err(err)?
        .as_array()
        .ok_or("no texts")?
        .iter()
        .map(|v| v.as_str().unwrap_or("").to_string())
        .collect())
}

/// From the history to the replay with its review in `lang`; seat 0 reviewed; every decision of
/// the endpoint's review on the page with its values; a decision chosen moves the replay.
async fn review_page(
    c: &Client,
    base: &str,
    room: &str,
    served: &Value,
    lang: &str,
) -> Result<(), String> {
    c.goto(&format!("{base}/history?lang={lang}"))
        .await
        .map_err(err)?;
    wait_for(c, "a.review-link", 10).await?;
    let href = c
        .find(Locator::Css("a.review-link"))
        .await
        .map_err(err)?
        .attr("href")
        .await
        .map_err(err)?
        .ok_or("no review link")?;
    assert!(href.contains(room) && href.contains("review"), "{href}");
    c.goto(&format!("{base}{href}&review_budget={BUDGET}"))
        .await
        .map_err(err)?;
    wait_for(c, "#review-seat option", 10).await?;
    let seats = texts(c, "#review-seat option").await?;
    assert_eq!(seats.first().map(String::as_str), Some("Ann"), "{seats:?}");
    click(c, "#review-go").await?;
    // Working: the page says so (the review takes a moment) …
    let state = attr_of(c, "#review-status", "data-state").await?;
    assert!(
        state == "busy" || state == "done",
        "{lang}: the status while reviewing is {state}"
    );
    // … then every decision of the review.
    wait_for(c, ".review-decision", 120).await?;
    let decisions: Vec<&Value> = served["hands"]
        .as_array()
        .ok_or("no hands")?
        .iter()
        .flat_map(|h| h["decisions"].as_array().into_iter().flatten())
        .collect();
    let cards = c
        .find_all(Locator::Css(".review-decision"))
        .await
        .map_err(err)?;
    assert_eq!(cards.len(), decisions.len(), "{lang}: one card a decision");
    // Each valued decision's values, in the page's words, in the endpoint's order.
    let mut checked = 0;
    let mut bands_seen: Vec<Value> = Vec::new();
    for d in decisions
        .iter()
        .filter(|d| d["alternatives"].as_array().is_some_and(|a| a.len() >= 2))
        .take(6)
    {
        let id = format!("#rv-{}-{}", d["hand"], d["number"]);
        c.execute(
            "const c = document.querySelector(arguments[0]); c.closest('details').open = true;",
            vec![json!(id)],
        )
        .await
        .map_err(err)?;
        // Every alternative's value and band in words, the ones behind "show all" too.
        let alternatives = d["alternatives"].as_array().unwrap();
        let shown = texts_in(c, &id, ".review-value").await?;
        let expected: Vec<String> = alternatives
            .iter()
            .map(|a| value_text(&a["value"]))
            .collect();
        assert_eq!(shown, expected, "{lang}: the values of {id}");
        let shown = texts_in(c, &id, ".review-band").await?;
        let expected: Vec<&str> = alternatives
            .iter()
            .map(|a| band_text(&a["band"], lang))
            .collect();
        assert_eq!(shown, expected, "{lang}: the bands of {id}");
        bands_seen.extend(alternatives.iter().map(|a| a["band"].clone()));
        checked += 1;
    }
    assert!(checked > 0, "no valued decision to check");
    // The expert's own choice and at least one other band were worded.
    assert!(
        bands_seen.contains(&json!("expert")) && bands_seen.iter().any(|b| b != "expert"),
        "{lang}: bands seen {bands_seen:?}"
    );
    // A decision is called a loss (⚑) exactly when the JSON's band of what was played is worse.
    let marked: Vec<Value> = c
        .execute(
            "return [...document.querySelectorAll('.review-decision')].map((e) => [e.id, !!e.querySelector('.review-flag')])",
            vec![],
        )
        .await
        .map_err(err)?
        .as_array()
        .ok_or("no cards")?
        .clone();
    let expected: Vec<Value> = decisions
        .iter()
        .map(|d| json!([format!("rv-{}-{}", d["hand"], d["number"]), is_loss(d)]))
        .collect();
    assert_eq!(marked, expected, "{lang}: the decisions called a loss");
    let summary = text_of(c, ".review-match-line").await?;
    let s = &served["summary"];
    for n in [&s["agreed"], &s["decisions"]] {
        assert!(
            summary.contains(&n.to_string()),
            "{lang}: the summary {summary:?} names {n}"
        );
    }
    assert!(
        summary.contains(&format!("{:.1}", s["lost"].as_f64().unwrap_or(0.0).abs())),
        "{lang}: the summary {summary:?} names the value lost"
    );
    // A negative loss is worded as a gain.
    let gained = s["lost"].as_f64().unwrap_or(0.0) < -0.05;
    let gain_word = if lang == "en" { "gained" } else { "多得" };
    assert_eq!(
        summary.contains(gain_word),
        gained,
        "{lang}: the summary {summary:?} for a loss of {}",
        s["lost"]
    );
    let words = text_of(c, "#review").await?;
    // No bare "±" anywhere in the review pane, hidden rows included: the figures stay in the
    // JSON, the bands word them.
    let all: String = c
        .execute(
            "return document.querySelector('#review').textContent",
            vec![],
        )
        .await
        .map_err(err)?
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(!all.contains('±'), "{lang}: a \"±\" in the review: {all}");
    // Every band the review gives is worded on the page.
    for d in &decisions {
        for a in d["alternatives"].as_array().into_iter().flatten() {
            let band = band_text(&a["band"], lang);
            assert!(all.contains(band), "{lang}: {band:?} is not on the page");
        }
    }
    if lang == "en" {
        assert!(words.contains("agreed with the expert in"), "{words}");
        assert!(words.contains("Discard"), "{words}");
    } else {
        assert!(words.contains("高手") && words.contains("打出"), "{words}");
        let mut rest = words.clone();
        for name in ["Ann", "Bot 1", "Bot 2", "Bot 3"] {
            rest = rest.replace(name, "");
        }
        let latin = latin_words(&rest);
        assert!(
            latin.is_empty(),
            "{lang}: Latin words {latin:?} in the review"
        );
    }
    // The costliest decision (or the first valued one) takes the replay to its moment.
    let target = decisions
        .iter()
        .filter(|d| is_loss(d))
        .max_by(|a, b| {
            a["lost"]["mean"]
                .as_f64()
                .unwrap_or(0.0)
                .total_cmp(&b["lost"]["mean"].as_f64().unwrap_or(0.0))
        })
        .or_else(|| {
            decisions
                .iter()
                .find(|d| d["alternatives"].as_array().is_some_and(|a| a.len() >= 2))
        })
        .ok_or("no decision")?;
    let id = format!("#rv-{}-{}", target["hand"], target["number"]);
    click(c, &format!("{id} .review-decision-head")).await?;
    wait_for(c, "#replay-action .review-moment", 5).await?;
    let pos = text_of(c, "#replay-pos").await?;
    assert!(
        pos.contains(&target["hand"].to_string()),
        "{lang}: the replay shows hand {} ({pos})",
        target["hand"]
    );
    look(c, &format!("review-{lang}"), &id).await?;
    Ok(())
}

/// A long match's review of `seat` at the full budget, in `lang`: while the server works, the
/// page shows "k / n decisions" with the bar filled k/n; the bar's numbers are the job's. To
/// look at it at every size, the page's later polls are held once a k < n has shown (the page
/// keeps the server's real progress at that moment).
async fn review_in_progress(
    c: &Client,
    base: &str,
    room: &str,
    seat: usize,
    lang: &str,
) -> Result<(), String> {
    c.goto(&format!(
        "{base}/?replay={room}&review=1&review_seat={seat}&lang={lang}"
    ))
    .await
    .map_err(err)?;
    wait_for(c, "#review-seat option", 10).await?;
    click(c, "#review-go").await?;
    let until = Instant::now() + Duration::from_secs(60);
    let (done, total, words) = loop {
        // One script: the counts, the bar's width and the words, seen together.
        let v = c
            .execute(
                "const bar = document.querySelector('.review-progress.determinate');
                 if (!bar) return null;
                 const k = Number(bar.getAttribute('aria-valuenow')), n = Number(bar.getAttribute('aria-valuemax'));
                 if (!(k > 0 && k < n)) return null;
                 window.__fetch = window.__fetch || window.fetch;
                 window.fetch = (u, o) => String(u).includes('/review/') ? new Promise(() => {}) : window.__fetch(u, o);
                 const fill = bar.querySelector('span');
                 return [k, n, document.querySelector('#review-status').innerText, fill.style.width];",
                vec![],
            )
            .await
            .map_err(err)?;
        if let Some(a) = v.as_array() {
            let (k, n) = (a[0].as_u64().unwrap_or(0), a[1].as_u64().unwrap_or(0));
            let width = a[3].as_str().unwrap_or("");
            assert_eq!(
                width,
                format!("{}%", (100 * k + n / 2) / n),
                "{lang}: the bar is filled {k} of {n}"
            );
            break (k, n, a[2].as_str().unwrap_or("").to_string());
        }
        assert_ne!(
            attr_of(c, "#review-status", "data-state").await?,
            "done",
            "{lang}: the review finished before its progress was seen"
        );
        assert!(Instant::now() < until, "{lang}: no progress shown");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let counted = match lang {
        "en" => format!("{done} / {total} decisions"),
        "zh" => format!("{done} / {total} 个决定"),
        _ => format!("{done} / {total} 個決定"),
    };
    assert!(words.contains(&counted), "{lang}: {words:?}");
    if lang != "en" {
        let latin = latin_words(&words.replace("Bot", ""));
        assert!(
            latin.is_empty(),
            "{lang}: Latin words {latin:?} in {words:?}"
        );
    }
    look(c, &format!("review-progress-{lang}"), "#review-status").await?;
    Ok(())
}

/// A budget the server refuses: the page says why, in the server's keyed words.
async fn refused_review(c: &Client, base: &str, room: &str) -> Result<(), String> {
    c.goto(&format!(
        "{base}/?replay={room}&review=1&review_budget=1000&lang=en"
    ))
    .await
    .map_err(err)?;
    wait_for(c, "#review-seat option", 10).await?;
    click(c, "#review-go").await?;
    wait_for(c, ".review-failure", 10).await?;
    let text = text_of(c, ".review-failure").await?;
    assert!(
        text.contains("from 1 to 64 worlds"),
        "the refusal is worded from its key: {text}"
    );
    Ok(())
}

/// A room made in the lobby with hints allowed; the person turns hints on and sees the
/// expert's suggestion; then the same in 中文.
async fn hint_at_the_table(c: &Client, base: &str) -> Result<(), String> {
    c.goto(&format!("{base}/?lang=en")).await.map_err(err)?;
    wait_for(c, "#allow-hints", 10).await?;
    c.execute(
        "document.querySelector('#bot-delay').value = '0'; document.querySelector('#allow-hints').checked = true;",
        vec![],
    )
    .await
    .map_err(err)?;
    click(c, "#create").await?;
    wait_for(c, "a.seat-link[data-seat='0']", 10).await?;
    // The lobby's list of rooms says the new room allows hints.
    wait_for(c, "#room-list .hint-setting", 10).await?;
    assert_eq!(
        text_of(c, "#room-list .hint-setting").await?.trim(),
        "Hints allowed"
    );
    let link = attr_of(c, "a.seat-link[data-seat='0']", "href").await?;
    c.goto(&format!("{base}{link}&lang=en"))
        .await
        .map_err(err)?;
    wait_for(c, "#info .hint-setting", 10).await?;
    assert_eq!(text_of(c, "#info .hint-setting").await?, "Hints allowed");
    wait_for(c, "#start:not([hidden])", 10).await?;
    click(c, "#start").await?;
    click(c, "#hint-toggle").await?;
    assert_eq!(attr_of(c, "#hint-toggle", "aria-pressed").await?, "true");
    // Follow the hints (a call or a pass on a tile on offer among them) until one is a discard.
    let mut hint = String::new();
    for _ in 0..40 {
        wait_for(c, ".expert-hint .hint-action", 60).await?;
        hint = text_of(c, ".expert-hint").await?;
        assert!(hint.starts_with("Expert:"), "{hint}");
        // The suggested action itself (the next best option may be a discard too).
        if text_of(c, ".expert-hint .hint-action")
            .await?
            .contains("Discard")
        {
            break;
        }
        click(c, "#actions button.suggested").await?;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    assert!(
        hint.contains("Discard") && (hint.contains("from ready") || hint.contains("ready on")),
        "a discard with its reason: {hint}"
    );
    // The next best option with its band, in the review pane's words; no bare "±".
    assert!(!hint.contains('±'), "{hint}");
    let next = text_of(c, ".expert-hint .hint-next").await?;
    assert!(
        next.starts_with("; next best: ")
            && [
                "about equal",
                "slightly worse",
                "clearly worse",
                "better in the playouts"
            ]
            .iter()
            .any(|b| next.ends_with(b)),
        "{next}"
    );
    wait_for(c, "#hand .tile-btn.suggested", 5).await?;
    look(c, "hint-en", "#controls").await?;
    browser::switch_language(c, "zh").await?;
    let until = Instant::now() + Duration::from_secs(5);
    let mut hint = text_of(c, ".expert-hint").await?;
    while !hint.starts_with("高手") && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(200)).await;
        hint = text_of(c, ".expert-hint").await?;
    }
    let lang = c
        .execute("return document.documentElement.lang", vec![])
        .await
        .map_err(err)?;
    eprintln!("page language {lang}: {hint}");
    assert!(
        hint.starts_with("高手建议") && hint.contains("打出"),
        "{hint}"
    );
    let latin = latin_words(&hint);
    assert!(latin.is_empty(), "Latin words {latin:?} in the hint {hint}");
    let next = text_of(c, ".expert-hint .hint-next").await?;
    assert!(
        next.starts_with("；次优：")
            && ["大致相当", "稍差", "明显更差", "模拟中更好"]
                .iter()
                .any(|b| next.ends_with(b)),
        "{next}"
    );
    assert_eq!(text_of(c, "#info .hint-setting").await?, "允许提示");
    look(c, "hint-zh", "#controls").await?;
    Ok(())
}

/// Latin words left in `text` (tile notation such as "5m" aside).
fn latin_words(text: &str) -> Vec<String> {
    text.split(|ch: char| !ch.is_ascii_alphanumeric())
        .filter(|w| w.chars().filter(char::is_ascii_alphabetic).count() >= 2)
        .map(str::to_string)
        .collect()
}

/// A screenshot at every size, with `shown` scrolled into view; nothing overflows sideways.
pub(crate) async fn look(c: &Client, name: &str, shown: &str) -> Result<(), String> {
    let keep = std::path::Path::new("/tmp/reviewui-shots");
    for (w, h) in SIZES {
        set_viewport(c, w, h).await?;
        let v = c
            .execute(
                "document.querySelector(arguments[0])?.scrollIntoView({block: 'center'});
                 return [window.innerWidth, Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)];",
                vec![json!(shown)],
            )
            .await
            .map_err(err)?;
        let (inner, scroll) = (v[0].as_u64().unwrap_or(0), v[1].as_u64().unwrap_or(0));
        assert!(
            scroll <= inner,
            "{name} at {w}×{h}: the page is {scroll} px wide in a {inner} px window"
        );
        let file = format!("{name}-{w}x{h}");
        save_screenshot(c, &file).await?;
        if keep.is_dir() {
            let _ = std::fs::copy(
                screenshot_dir().join(format!("{file}.png")),
                keep.join(format!("{file}.png")),
            );
        }
    }
    set_viewport(c, 1366, 768).await
}

async fn texts(c: &Client, css: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for e in c.find_all(Locator::Css(css)).await.map_err(err)? {
        out.push(e.text().await.map_err(err)?);
    }
    Ok(out)
}

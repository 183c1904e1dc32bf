//! What the server says to a person reaches them in their language, in headless Chromium, in
//! English, 简体中文 and 繁體中文: a refused move at the table (a real room's WebSocket
//! refusal, sent with its catalogue key and shown by the table's error display), a not-a-win
//! reason on the scoring page (a hand tapped in and scored by `POST /api/score`), and a refused
//! house rule in the lobby (`POST /api/rooms`: flowers at a five-player classic table). On the Chinese pages no
//! Latin word may show in them (names and tile notation aside). Screenshots at the three sizes
//! stay in `target/e2e-screenshots/` (`words-*`).
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (see `majiang_testkit::browser`).

use crate::common;
use majiang_testkit::browser;

use browser::{Browser, SIZES, click, err, save_screenshot, set_viewport, text_of, wait_for};
use fantoccini::Client;
use futures_util::FutureExt;
use serde_json::{Value, json};
use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

const LANGS: [&str; 3] = ["en", "zh", "zh-Hant"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_reasons_and_option_errors_are_worded_in_each_language() {
    let Some(browser) = Browser::start("the words test", 1366, 768).await else {
        return;
    };
    let (_app, addr) = common::start_server().await;
    let c = browser.client.clone();
    // A failed check panics inside: the browser is closed first all the same.
    let base = format!("http://{addr}");
    let result = AssertUnwindSafe(run(&c, &base)).catch_unwind().await;
    browser.close().await;
    match result {
        Ok(r) => r.unwrap(),
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

async fn run(c: &Client, base: &str) -> Result<(), String> {
    for lang in LANGS {
        let refusal = refused_move(c, base, lang).await?;
        check_words(&refusal, lang, "a refused move")?;
        look(c, &format!("words-refused-{lang}"), "#notice").await?;
        let reason = not_a_win(c, base, lang).await?;
        check_words(&reason, lang, "a not-a-win reason")?;
        look(c, &format!("words-notwin-{lang}"), "#c-answer").await?;
        let option = option_error(c, base, lang).await?;
        check_words(&option, lang, "an option error")?;
        look(c, &format!("words-option-{lang}"), "#created").await?;
    }
    Ok(())
}

/// Latin words left in `text` (tile notation such as "5m" aside).
fn latin_words(text: &str) -> Vec<String> {
    text.split(|ch: char| !ch.is_ascii_alphanumeric())
        .filter(|w| {
            let letters = w.chars().filter(char::is_ascii_alphabetic).count();
            let notation = w.len() >= 2
                && w[..w.len() - 1].chars().all(|ch| ch.is_ascii_digit())
                && w.ends_with(['m', 'p', 's', 'z', 'f']);
            letters >= 2 || (letters == 1 && !notation && w.len() > 1 && !w.starts_with('#'))
        })
        .map(str::to_string)
        .collect()
}

fn check_words(text: &str, lang: &str, what: &str) -> Result<(), String> {
    if text.trim().is_empty() {
        return Err(format!("{lang}: {what} is shown as nothing"));
    }
    let latin = latin_words(text);
    if lang == "en" {
        if latin.is_empty() {
            return Err(format!("{lang}: {what} has no words: {text:?}"));
        }
    } else if !latin.is_empty() {
        return Err(format!("{lang}: {what} {text:?} has Latin words {latin:?}"));
    }
    let han = text
        .chars()
        .any(|ch| ('\u{4e00}'..='\u{9fff}').contains(&ch));
    if (lang != "en") != han {
        return Err(format!(
            "{lang}: {what} is not in the page's language: {text:?}"
        ));
    }
    Ok(())
}

/// A room of one person (Ann) and three bots, started at once; the page opens Ann's seat, and a
/// second connection of the same seat (in the page) sends a pung while nothing is on offer. The
/// server's refusal (`error` with `key` and `args`) must carry a key; it is shown through the
/// table's own error display (`window.majiangTable.feed`), and the notice's text is returned.
async fn refused_move(c: &Client, base: &str, lang: &str) -> Result<String, String> {
    let created = http_json(
        base,
        "/api/rooms",
        &json!({
            "rules": "hongkong",
            "seats": [
                {"name": "Ann"},
                {"name": "Bot 1", "bot": true},
                {"name": "Bot 2", "bot": true},
                {"name": "Bot 3", "bot": true}
            ],
            "autostart": true
        }),
    )
    .await?;
    let room = created["room"].as_str().ok_or("no room id")?.to_string();
    let token = created["seats"][0]["token"]
        .as_str()
        .ok_or(format!("no token in {created}"))?
        .to_string();
    c.goto(&format!("{base}/?room={room}&token={token}&lang={lang}"))
        .await
        .map_err(err)?;
    wait_for(c, "#hand .tile", 10).await?;
    let refusal = c
        .execute_async(
            r#"const [room, token, done] = arguments;
const ws = new WebSocket(`ws://${location.host}/ws/${room}?token=${token}`);
const timer = setTimeout(() => done({ timeout: true }), 5000);
ws.onmessage = (e) => {
  const m = JSON.parse(e.data);
  if (m.type === 'state') ws.send(JSON.stringify({ type: 'action', seq: 7, action: 'pung' }));
  if (m.type === 'error') { clearTimeout(timer); ws.close(); done(m); }
};"#,
            vec![json!(room), json!(token)],
        )
        .await
        .map_err(err)?;
    let key = refusal["key"].as_str().unwrap_or("");
    assert!(
        (key.starts_with("illegal.") || key.starts_with("refused.")) && refusal["seq"] == json!(7),
        "{lang}: the refusal of a pung carries its key: {refusal}"
    );
    assert!(
        !refusal["message"].as_str().unwrap_or("").is_empty(),
        "the English stays"
    );
    c.execute(
        "window.majiangTable.feed(arguments[0])",
        vec![json!([refusal])],
    )
    .await
    .map_err(err)?;
    wait_for(c, "#notice:not([hidden])", 10).await?;
    text_of(c, "#notice").await
}

/// The scoring page in `lang`: thirteen tiles and a winning tile that make no hand, scored;
/// returns the reason shown.
async fn not_a_win(c: &Client, base: &str, lang: &str) -> Result<String, String> {
    c.goto(&format!("{base}/score?lang={lang}"))
        .await
        .map_err(err)?;
    wait_for(c, "#c-keyboard button.key[data-tile='1m']", 10).await?;
    for tile in [
        "1m", "3m", "5m", "7m", "9m", "1p", "3p", "5p", "7p", "9p", "1s", "3s", "5s",
    ] {
        click(c, &format!("#c-keyboard button.key[data-tile='{tile}']")).await?;
    }
    click(c, "#c-keyboard button.mode[data-mode='winning']").await?;
    click(c, "#c-keyboard button.key[data-tile='7s']").await?;
    click(c, "#c-score").await?;
    wait_for(c, "#c-answer .answer.invalid p", 10).await?;
    text_of(c, "#c-answer .answer.invalid p").await
}

/// The lobby in `lang`: a classic table of five with flowers on (at five the flower tiles
/// are extra winds, so the server refuses the pair), created; returns what the lobby says.
async fn option_error(c: &Client, base: &str, lang: &str) -> Result<String, String> {
    c.goto(&format!("{base}/?lang={lang}")).await.map_err(err)?;
    wait_for(c, "#rules option[value='classic']", 10).await?;
    browser::select(c, "#rules", "classic").await?;
    wait_for(c, "#opt-players", 10).await?;
    c.execute(
        "const p = document.querySelector('#opt-players'); p.value = '5'; p.dispatchEvent(new Event('change'));
         const f = document.querySelector('#opt-flowers'); f.checked = true; f.dispatchEvent(new Event('change'));",
        vec![],
    )
    .await
    .map_err(err)?;
    click(c, "#create").await?;
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let text = text_of(c, "#created").await.unwrap_or_default();
        if text.contains('5') {
            return Ok(text);
        }
        if Instant::now() > deadline {
            return Err(format!(
                "{lang}: the lobby did not refuse flowers at five: {text:?}"
            ));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A screenshot at every size, with `shown` scrolled into view.
async fn look(c: &Client, name: &str, shown: &str) -> Result<(), String> {
    for (w, h) in SIZES {
        set_viewport(c, w, h).await?;
        c.execute(
            "document.querySelector(arguments[0])?.scrollIntoView({block: 'center'})",
            vec![json!(shown)],
        )
        .await
        .map_err(err)?;
        save_screenshot(c, &format!("{name}-{w}x{h}")).await?;
    }
    set_viewport(c, 1366, 768).await
}

/// `POST path` with `body` on the test server; the answer's JSON.
async fn http_json(base: &str, path: &str, body: &Value) -> Result<Value, String> {
    let addr: std::net::SocketAddr = base
        .trim_start_matches("http://")
        .parse()
        .map_err(|e| format!("{e}"))?;
    let (text, path_owned) = (body.to_string(), path.to_string());
    let (status, answer) = tokio::task::spawn_blocking(move || {
        majiang_testkit::net::http(addr, "POST", &path_owned, &text)
    })
    .await
    .map_err(|e| e.to_string())?;
    if !(200..300).contains(&status) {
        return Err(format!("POST {path}: {status} {answer}"));
    }
    serde_json::from_str(&answer).map_err(|e| format!("{e}: {answer}"))
}

#[test]
fn latin_words_are_found_and_tile_notation_is_not() {
    assert!(latin_words("你手里没有五万。").is_empty());
    assert_eq!(latin_words("{tile} 5m 123s 吃"), ["tile"]);
    assert!(latin_words("5m 123s 不是和牌").is_empty());
    assert_eq!(latin_words("不是 winning hand"), ["winning", "hand"]);
}

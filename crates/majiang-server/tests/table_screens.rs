//! What people see, in headless Chromium, in English, 简体中文 and 繁體中文 at 1366×768,
//! 1920×1080 and a 390×844 phone: the lobby with a new room's invites (copy, share, QR code),
//! the waiting room (each seat, who has joined), and the table in the states that used to push
//! the hand off the screen — a Hangzhou Bao Tou turn with 34 waits, a claim offer, a six-player
//! classic table, a hand's result, and after Continue whom the next hand waits for — fed to the
//! page as the server's messages (recorded from real matches, `tests/fixtures/table_*.json`;
//! the Bao Tou state is a recorded one turned into Bao Tou with every tile a wait) through the
//! table's `window.majiangTable.feed` hook. At every size the own hand and every action button
//! must lie inside the viewport with nothing overflowing sideways; on a Chinese page no Latin
//! word may show (names, room ids, tile notation and key letters, marked `translate="no"`,
//! aside), and no text may fall below WCAG AA contrast with what lies behind it. Wrong,
//! truncated and unknown links must say so in words with a way back to the lobby and stop
//! retrying. With `MAJIANG_SCREENSHOTS=1` the screenshots stay in `target/e2e-screenshots/`
//! (`screen-*`) to look at.
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (see `support/browser.rs`).

use crate::common;
use majiang_testkit::browser;

use browser::{Browser, SIZES, err, save_screenshot, set_viewport};
use fantoccini::{Client, Locator};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// The languages of the page, as `?lang=` takes them.
const LANGS: [&str; 3] = ["en", "zh", "zh-Hant"];

/// The recorded states, each a list of server messages (`welcome`, `state`, `hand_result`).
const FIXTURES: [(&str, &str, usize); 4] = [
    ("baotou", include_str!("fixtures/table_baotou.json"), 4),
    ("claim", include_str!("fixtures/table_claim.json"), 4),
    ("six", include_str!("fixtures/table_six.json"), 6),
    ("result", include_str!("fixtures/table_result.json"), 6),
];

/// Where the hand, the action buttons and the result's Continue lie, and the page's width.
const LAYOUT: &str = r#"
const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const shown = (e) => e.checkVisibility();
return {
  width: window.innerWidth, height: window.innerHeight,
  scroll_width: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
  hand_tiles: [...document.querySelectorAll('#hand .tile')].filter(shown).map(box),
  actions: [...document.querySelectorAll('#actions button, #modal-close, #start-row button')].filter(shown).map(box),
  players: document.querySelectorAll('#board .player-box').length,
  tile_width: (() => { const t = document.querySelector('#hand .tile'); return t ? t.getBoundingClientRect().width : 0; })(),
};
"#;

/// Every Latin word a person can see or hear (text, `alt`, `title`, `aria-label`, placeholders),
/// outside elements marked `translate="no"`, the players' names (`window.majiangTable.names()`)
/// and tile notation ("5m") aside.
const LATIN_WORDS: &str = r#"
const bad = [];
const names = (window.majiangTable ? window.majiangTable.names() : []).filter((n) => n).sort((a, b) => b.length - a.length);
const check = (text, where) => {
  let rest = String(text);
  for (const n of names) rest = rest.split(n).join(' ');
  rest = rest.replace(/\b\d+[mpszf]\b/g, ' ');
  for (const w of rest.match(/[A-Za-z]{2,}/g) || []) bad.push(w + ' in ' + where + ': ' + String(text).slice(0, 80));
};
const walk = (node) => {
  for (const n of node.childNodes) {
    if (n.nodeType === 3) { if (n.textContent.trim()) check(n.textContent, node.tagName + (node.id ? '#' + node.id : '')); continue; }
    if (n.nodeType !== 1 || n.getAttribute('translate') === 'no') continue;
    if (['SCRIPT', 'STYLE', 'svg'].includes(n.tagName) || n.tagName.toLowerCase() === 'svg') continue;
    if (n.tagName !== 'OPTION' && !n.checkVisibility()) continue;
    for (const a of ['alt', 'title', 'aria-label', 'placeholder']) if (n.getAttribute(a)) check(n.getAttribute(a), n.tagName + '@' + a);
    walk(n);
  }
};
walk(document.body);
return [...new Set(bad)];
"#;

/// Text whose contrast with what lies behind it is below WCAG AA (4.5:1, or 3:1 for large
/// text): the colour with its opacity over the nearest background colour up the tree.
const LOW_CONTRAST: &str = r#"
const rgba = (s) => { const m = s.match(/[\d.]+/g) || [0, 0, 0, 0]; return [+m[0], +m[1], +m[2], m[3] === undefined ? 1 : +m[3]]; };
const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
const over = (top, under) => { const a = top[3]; return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1); };
const background = (e) => {
  const layers = [];
  for (let n = e; n; n = n.parentElement) { const c = rgba(getComputedStyle(n).backgroundColor); if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; } }
  let base = [255, 255, 255, 1];
  for (const c of layers.reverse()) base = over(c, base);
  return base;
};
const opacity = (e) => { let o = 1; for (let n = e; n; n = n.parentElement) o *= +getComputedStyle(n).opacity; return o; };
const bad = [];
const seen = new Set();
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let t = walker.nextNode(); t; t = walker.nextNode()) {
  const e = t.parentElement;
  if (!t.textContent.trim() || seen.has(e) || !e.checkVisibility()) continue;
  seen.add(e);
  const st = getComputedStyle(e);
  const bg = background(e);
  const fg = rgba(st.color);
  const shown = over([fg[0], fg[1], fg[2], fg[3] * opacity(e)], bg);
  const [a, b] = [lum(shown), lum(bg)].sort((x, y) => y - x);
  const ratio = (a + 0.05) / (b + 0.05);
  const size = parseFloat(st.fontSize), bold = +st.fontWeight >= 700;
  const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
  if (ratio < need) bad.push(ratio.toFixed(2) + ' ' + e.tagName + '.' + e.className + ': ' + t.textContent.trim().slice(0, 40));
}
return bad;
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_table_fits_every_screen_in_three_languages() {
    let Some(browser) = Browser::start("the screens test", 1366, 768).await else {
        return;
    };
    let (_app, addr) = common::start_server().await;
    let c = browser.client.clone();
    let result = screens(&c, &format!("http://{addr}")).await;
    browser.close().await;
    result.unwrap();
}

async fn screens(c: &Client, base: &str) -> Result<(), String> {
    for lang in LANGS {
        set_viewport(c, 1366, 768).await?;
        let (room, token) = create_room(c, base, lang).await?;
        // The waiting room: each seat and who has joined.
        c.goto(&format!("{base}/?room={room}&token={token}&lang={lang}"))
            .await
            .map_err(err)?;
        wait_for(c, "#waiting-room:not([hidden]) .wr-seat").await?;
        let joined = c
            .execute(
                "return [...document.querySelectorAll('#waiting-room .wr-seat')].map(e => e.dataset.joined)",
                vec![],
            )
            .await
            .map_err(err)?;
        assert_eq!(
            joined,
            json!(["true", "false", "bot", "bot"]),
            "{lang}: the waiting room shows who has joined"
        );
        look(c, &format!("waiting-{lang}"), lang, None).await?;
        for (name, fixture, players) in FIXTURES {
            let msgs: Value = serde_json::from_str(fixture).map_err(|e| e.to_string())?;
            c.execute("window.majiangTable.feed(arguments[0])", vec![msgs])
                .await
                .map_err(err)?;
            tokio::time::sleep(Duration::from_millis(200)).await;
            extra_winds_marked_by_the_rule_set(c, name, fixture).await?;
            if name == "baotou" && lang == "en" {
                keyboard_reaches_the_hand(c).await?;
            }
            look(c, &format!("{name}-{lang}"), lang, Some(players)).await?;
        }
        // After Continue: whom the next hand waits for, and the countdown to it.
        let msgs: Value = serde_json::from_str(include_str!("fixtures/table_continue.json"))
            .map_err(|e| e.to_string())?;
        c.execute("window.majiangTable.feed(arguments[0])", vec![msgs])
            .await
            .map_err(err)?;
        wait_for(c, "#modal:not([hidden]) #modal-close").await?;
        browser::click(c, "#modal-close").await?;
        wait_for(c, "#continue-wait:not([hidden])").await?;
        let waiting = browser::text_of(c, "#continue-wait").await?;
        assert!(
            waiting.contains("Bea")
                && !waiting.contains("Ann")
                && waiting.chars().any(|ch| ch.is_ascii_digit()),
            "{lang}: after Continue the page says whom it waits for and when: {waiting:?}"
        );
        look(c, &format!("continued-{lang}"), lang, Some(6)).await?;
        check_bad_links(c, base, &room, lang).await?;
    }
    Ok(())
}

/// The bonus tiles of a fixture are marked as extra winds (`.wind-wrap`) exactly where its rule
/// set plays them at its table size, as `GET /api/rulesets` says (`extra_winds`): the six-player
/// classic tables show the badge on the extra winds held and melded, the Hangzhou and Hong Kong
/// tables none on their flowers (each fixture holds or shows bonus tiles).
async fn extra_winds_marked_by_the_rule_set(
    c: &Client,
    name: &str,
    fixture: &str,
) -> Result<(), String> {
    assert!(
        fixture.contains("f\""),
        "{name}: the fixture shows bonus tiles"
    );
    let plays = fixture.contains("\"rules\": \"classic\"") && fixture.contains("\"players\": 6");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let marked = c
            .execute(
                "return document.querySelectorAll('#board .wind-wrap, #hand .wind-wrap, #my-melds .wind-wrap').length",
                vec![],
            )
            .await
            .map_err(err)?
            .as_u64()
            .unwrap_or(0);
        if (marked > 0) == plays {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!(
                "{name}: {marked} tiles marked as extra winds, expected {}",
                if plays { "some" } else { "none" }
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Creates a Hangzhou room of two people and two bots from the lobby in `lang`; checks the
/// invites (a link to copy, a QR code) and looks at the lobby at every size; returns the room and
/// the first seat's token.
async fn create_room(c: &Client, base: &str, lang: &str) -> Result<(String, String), String> {
    c.goto(&format!("{base}/?lang={lang}")).await.map_err(err)?;
    wait_for(c, "#seats select").await?;
    browser::select(c, "#rules", "hangzhou").await?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    c.execute(
        "const s = document.querySelectorAll('#seats select')[1]; s.value = 'person'; s.dispatchEvent(new Event('change'));",
        vec![],
    )
    .await
    .map_err(err)?;
    browser::click(c, "#create").await?;
    wait_for(c, ".invite .invite-qr svg").await?;
    let invites = c
        .execute(
            "return [...document.querySelectorAll('.invite')].map(e => [e.querySelector('.invite-url').textContent, !!e.querySelector('button.invite-copy')])",
            vec![],
        )
        .await
        .map_err(err)?;
    let invites = invites.as_array().cloned().unwrap_or_default();
    assert_eq!(
        invites.len(),
        2,
        "{lang}: an invite for each person: {invites:?}"
    );
    for i in &invites {
        let url = i[0].as_str().unwrap_or("");
        assert!(
            url.starts_with(base) && url.contains("token="),
            "{lang}: invite {url:?}"
        );
        assert_eq!(i[1], json!(true), "{lang}: a copy button");
    }
    look(c, &format!("lobby-{lang}"), lang, None).await?;
    let first = invites[0][0].as_str().unwrap_or("");
    let query = first.split_once('?').map_or("", |(_, q)| q);
    let field = |k: &str| {
        query
            .split('&')
            .find_map(|p| p.strip_prefix(k))
            .unwrap_or("")
            .to_string()
    };
    Ok((field("room="), field("token=")))
}

/// At every size: the hand and the buttons in view, nothing sideways, every player on the
/// board (`players`, when a table shows), no Latin word on a Chinese page; a screenshot each with `MAJIANG_SCREENSHOTS=1`.
async fn look(c: &Client, name: &str, lang: &str, players: Option<usize>) -> Result<(), String> {
    for (w, h) in SIZES {
        set_viewport(c, w, h).await?;
        if browser::every_look_saved() {
            save_screenshot(c, &format!("screen-{name}-{w}x{h}")).await?;
        }
        let l = c.execute(LAYOUT, vec![]).await.map_err(err)?;
        let (vw, vh) = (
            l["width"].as_f64().unwrap_or(0.0),
            l["height"].as_f64().unwrap_or(0.0),
        );
        let sw = l["scroll_width"].as_f64().unwrap_or(0.0);
        assert!(sw <= vw + 0.5, "{name} {w}×{h}: page {sw} px wide in {vw}");
        for key in ["hand_tiles", "actions"] {
            for r in l[key].as_array().cloned().unwrap_or_default() {
                let r: Vec<f64> = r
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_f64().unwrap_or(f64::NAN))
                    .collect();
                let inside = r[0] >= -0.5 && r[1] >= -0.5 && r[2] <= vw + 0.5 && r[3] <= vh + 0.5;
                assert!(
                    inside,
                    "{name} {w}×{h}: a {key} box {r:?} is outside {vw}×{vh}"
                );
            }
        }
        if let Some(n) = players {
            assert_eq!(
                l["players"].as_u64(),
                Some(n as u64),
                "{name} {w}×{h}: every player shows"
            );
            if name.starts_with("baotou") {
                // The hand grows with the screen: 1920×1080 shows bigger tiles than a phone.
                let tw = l["tile_width"].as_f64().unwrap_or(0.0);
                let least = if w >= 1920 { 56.0 } else { 20.0 };
                assert!(tw >= least, "{name} {w}×{h}: hand tiles {tw} px wide");
            }
        }
        if (w, h) == SIZES[0] {
            let low = c.execute(LOW_CONTRAST, vec![]).await.map_err(err)?;
            assert_eq!(
                low,
                json!([]),
                "{name} {w}×{h}: text below WCAG AA contrast"
            );
        }
        if lang != "en" {
            let bad = c.execute(LATIN_WORDS, vec![]).await.map_err(err)?;
            assert_eq!(
                bad,
                json!([]),
                "{name} {w}×{h}: Latin words on a {lang} page"
            );
        }
    }
    set_viewport(c, 1366, 768).await
}

/// An unknown room, a truncated token and a made-up token: each says so in words, offers the
/// lobby and stops retrying.
async fn check_bad_links(c: &Client, base: &str, room: &str, lang: &str) -> Result<(), String> {
    let cut = &room[..room.len() / 2];
    let links = [
        ("unknown", format!("{base}/?room={cut}&lang={lang}")),
        (
            "token",
            format!("{base}/?room={room}&token=abc&lang={lang}"),
        ),
    ];
    for (what, url) in links {
        c.goto(&url).await.map_err(err)?;
        wait_for(c, "#link-problem:not([hidden]) a.back-to-lobby").await?;
        let text = browser::text_of(c, "#link-problem").await?;
        assert!(text.chars().count() > 10, "{lang} {what}: {text:?}");
        // No more tries: the page says it stopped, and stays so.
        tokio::time::sleep(Duration::from_millis(2500)).await;
        let stopped = c
            .execute("return window.majiangTable.stopped()", vec![])
            .await
            .map_err(err)?;
        assert_eq!(
            stopped,
            json!(true),
            "{lang} {what}: the page stopped retrying"
        );
        look(c, &format!("badlink-{what}-{lang}"), lang, None).await?;
    }
    // What the server says (a key and its values) reaches a person in their language.
    let said = [
        json!({"key": "api.no_such_room", "args": {}, "error": "no such room"}),
        json!({"key": "invalid.not_a_winning_hand", "args": {}, "message": "not a winning hand"}),
        json!({"key": "invalid.below_minimum", "args": {"fan": 8, "min": 15}, "message": "8 fan is below the minimum of 15 fan"}),
        json!({"key": "room.waiting_to_join", "args": {"names": ["Bea"]}, "message": "waiting for Bea to join"}),
        json!({"key": "illegal.not_held", "args": {"tile": "5m"}, "message": "5m is not in the hand"}),
    ];
    let worded = c
        .execute_async(
            "const done = arguments[arguments.length - 1]; import('/js/server-words.js').then((m) => done(arguments[0].map(m.serverText)));",
            vec![json!(said)],
        )
        .await
        .map_err(err)?;
    for (said, shown) in said
        .iter()
        .zip(worded.as_array().cloned().unwrap_or_default())
    {
        let shown = shown.as_str().unwrap_or("");
        let latin = shown
            .replace("Bea", "")
            .chars()
            .filter(|c| c.is_ascii_alphabetic())
            .count();
        if lang == "en" {
            assert!(!shown.is_empty(), "{said} is shown as nothing");
        } else {
            assert_eq!(latin, 0, "{lang}: {said} is shown as {shown:?}");
        }
    }
    Ok(())
}

/// With the keyboard alone: → moves to a playable hand tile, which has the focus and a name a
/// screen reader reads ("Discard 5 Characters"); every action button has a key; the tab title
/// says it is the viewer's turn.
async fn keyboard_reaches_the_hand(c: &Client) -> Result<(), String> {
    c.execute(
        "document.activeElement && document.activeElement.blur()",
        vec![],
    )
    .await
    .map_err(err)?;
    c.find(Locator::Css("body"))
        .await
        .map_err(err)?
        .send_keys("\u{E014}")
        .await
        .map_err(err)?;
    let focus = c
        .execute(
            "const e = document.activeElement; return [e.className, e.getAttribute('aria-label'), [...document.querySelectorAll('#actions button.action')].map(b => b.dataset.key)]",
            vec![],
        )
        .await
        .map_err(err)?;
    assert_eq!(
        focus[0],
        json!("tile-btn"),
        "the arrow key focuses a hand tile: {focus}"
    );
    let name = focus[1].as_str().unwrap_or("");
    let tile_name = reads_as_words(name);
    assert!(tile_name, "the focused tile is named in words: {name:?}");
    // The turn is the viewer's: the tab title says so (seen from another tab), and the sound
    // of the cue has its switch.
    let cue = c
        .execute(
            "return [document.title, document.querySelector('#sound-switch')?.getAttribute('aria-pressed')]",
            vec![],
        )
        .await
        .map_err(err)?;
    assert!(
        cue[0].as_str().is_some_and(|t| t.contains("Your turn")) && cue[1] == json!("true"),
        "the your-turn cue: {cue}"
    );
    let keys = focus[2].as_array().cloned().unwrap_or_default();
    assert!(
        !keys.is_empty()
            && keys
                .iter()
                .all(|k| k.as_str().is_some_and(|k| !k.is_empty())),
        "every action has a key: {focus}"
    );
    Ok(())
}

/// Whether `label` reads "Discard <tile in words>" ("Discard 5 Characters", "Discard East"),
/// not tile notation ("Discard 5m").
fn reads_as_words(label: &str) -> bool {
    let Some(tile) = label.strip_prefix("Discard ") else {
        return false;
    };
    let notation = tile.len() == 2 && tile.as_bytes()[0].is_ascii_digit();
    !notation && tile.chars().any(|ch| ch.is_ascii_alphabetic())
}

/// Waits up to 15 s for `css` to match.
async fn wait_for(c: &Client, css: &str) -> Result<(), String> {
    let start = Instant::now();
    c.wait()
        .at_most(Duration::from_secs(15))
        .for_element(Locator::Css(css))
        .await
        .map_err(|e| format!("{css} after {:?}: {e}", start.elapsed()))?;
    Ok(())
}

//! End to end in headless Chromium (through chromedriver and fantoccini): open the lobby,
//! create a room with three bots, open the seat, play a whole hand by clicking tiles and
//! buttons, and check what the page shows at the end. At 1366×768, 1920×1080 and 390×844 the
//! own hand and every offered action must lie inside the viewport with nothing overflowing
//! sideways, in English and in Chinese, for Hong Kong, Hangzhou and a six-player classic table;
//! the screenshots stay in `target/e2e-screenshots/` for people to look at.
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver`: when they are missing the test runs
//! `scripts/install-browser.sh` (apt-get) first; if that cannot install them (no root, no
//! network) the test says so loudly and passes without running.

use crate::common;
use majiang_testkit::browser;

use browser::{Browser, SIZES, save_screenshot, set_viewport, switch_language};
use fantoccini::Locator;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// What the page offers now, read by a small script.
const PAGE_STATE: &str = r#"
const modal = document.querySelector('#modal');
if (modal && !modal.hidden) return 'modal';
if (document.querySelector('#actions button.action')) return 'buttons';
if (document.querySelector('#hand .tile.playable')) return 'tiles';
return 'wait';
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_a_hand_against_three_bots_in_chromium() {
    let Some(browser) = Browser::start("the browser test", 1400, 1000).await else {
        return;
    };
    let (_app, addr) = common::start_server().await;
    let client = browser.client.clone();
    let result = play(&client, &format!("http://{addr}")).await;
    if let Ok(png) = client.screenshot().await {
        let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e-end.png");
        let _ = std::fs::write(&path, png);
        eprintln!("screenshot: {}", path.display());
    }
    browser.close().await;
    result.unwrap();
}

async fn play(c: &fantoccini::Client, base: &str) -> Result<(), String> {
    let err = |e: fantoccini::error::CmdError| e.to_string();
    c.goto(&format!("{base}/")).await.map_err(err)?;
    c.wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("#lobby:not([hidden]) #seats select"))
        .await
        .map_err(err)?;
    // The lobby: Hong Kong, seat 0 a person (the default), one hand, no bot pause.
    browser::select(c, "#rules", "hongkong").await?;
    c.find(Locator::Css("#hands"))
        .await
        .map_err(err)?
        .send_keys("1")
        .await
        .map_err(err)?;
    let delay = c.find(Locator::Css("#bot-delay")).await.map_err(err)?;
    delay.clear().await.map_err(err)?;
    delay.send_keys("0").await.map_err(err)?;
    let kinds = c
        .execute(
            "return [...document.querySelectorAll('#seats select')].map(s => s.value)",
            vec![],
        )
        .await
        .map_err(err)?;
    assert_eq!(kinds, json!(["person", "normal", "normal", "normal"]));
    browser::click(c, "#create").await?;
    let link = c
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("a.seat-link"))
        .await
        .map_err(err)?;
    save_screenshot(c, "lobby-en-1400x1000").await?;
    link.click().await.map_err(err)?;
    c.wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("#start"))
        .await
        .map_err(err)?;
    // The room waits for a start.
    let start = c
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("#start:not([hidden])"))
        .await
        .map_err(err)?;
    start.click().await.map_err(err)?;

    // Play by clicking until the hand's result shows.
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut clicks = 0;
    let mut shot = false;
    loop {
        if Instant::now() > deadline {
            return Err(format!("no hand result after {clicks} clicks"));
        }
        let state = c.execute(PAGE_STATE, vec![]).await.map_err(err)?;
        let target = match state.as_str() {
            Some("modal") => break,
            // A win if offered, else pass on claims, else the first button (a kong, ...).
            Some("buttons") => {
                if !shot {
                    // The first decision with buttons: it fits at every size, in both languages.
                    shot = true;
                    check_fit_everywhere(c, "hongkong-buttons", 4).await?;
                }
                let win = c
                    .find(Locator::Css(r#"#actions button[data-key="w"]"#))
                    .await;
                match win {
                    Ok(b) => Some(b),
                    Err(_) => match c
                        .find(Locator::Css(r#"#actions button[data-key="x"]"#))
                        .await
                    {
                        Ok(b) => Some(b),
                        Err(_) => c.find(Locator::Css("#actions button.action")).await.ok(),
                    },
                }
            }
            // Discard the rightmost playable tile (the drawn one, when it can go).
            Some("tiles") => {
                let tiles = c
                    .find_all(Locator::Css("#hand .tile.playable"))
                    .await
                    .map_err(err)?;
                tiles.last().cloned()
            }
            _ => None,
        };
        match target {
            // The page may re-render between finding and clicking: try again.
            Some(el) => {
                if el.click().await.is_ok() {
                    clicks += 1;
                }
            }
            None => tokio::time::sleep(Duration::from_millis(50)).await,
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    assert!(clicks > 0, "the person played");
    save_screenshot(c, "hongkong-result-en-1400x1000").await?;

    // The end-of-hand screen: a title, and a payment for each of the four players that sums to 0.
    let title = browser::text_of(c, "#result-title").await?;
    assert!(
        title.contains("wins") || title.contains("drawn"),
        "title {title:?}"
    );
    let rows = c
        .execute(
            "return [...document.querySelectorAll('#payments tr')].map(r => Number(r.cells[1].textContent))",
            vec![],
        )
        .await
        .map_err(err)?;
    let pays: Vec<i64> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as i64)
        .collect();
    assert_eq!(pays.len(), 4, "{rows}");
    assert_eq!(pays.iter().sum::<i64>(), 0, "payments balance: {pays:?}");
    if title.contains("wins") {
        let patterns = c
            .find_all(Locator::Css("#patterns tr"))
            .await
            .map_err(err)?;
        assert!(patterns.len() >= 2, "patterns and a total");
        // Each payment with its reason, fan → points, in English and then in Chinese.
        let explained = |c: &fantoccini::Client| {
            let c = c.clone();
            async move { browser::text_of(&c, "#payments-explained").await }
        };
        let en = explained(c).await?;
        assert!(en.contains(" fan → ") && en.contains(" points; "), "{en}");
        for lang in ["zh", "en"] {
            switch_language(c, lang).await?;
            if lang == "zh" {
                let zh = explained(c).await?;
                assert!(zh.contains(" 番 → ") && zh.contains(" 分；"), "{zh}");
                assert!(!zh.contains(" fan"), "no English reason left: {zh}");
                save_screenshot(c, "hongkong-result-zh-1400x1000").await?;
            }
        }
    }
    // One hand was the whole match: the final standings follow, and the scores agree.
    let standings = c
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("#standings"))
        .await
        .map_err(err)?;
    let text = standings.text().await.map_err(err)?;
    assert!(text.contains("You"), "{text}");
    let shown: Value = c
        .execute(
            "return [...document.querySelectorAll('#scores tr')].map(r => Number(r.cells[1].textContent))",
            vec![],
        )
        .await
        .map_err(err)?;
    let mut shown: Vec<i64> = shown
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as i64)
        .collect();
    let mut paid = pays.clone();
    shown.sort();
    paid.sort();
    assert_eq!(shown, paid, "the score table shows the hand's payments");
    let status = browser::text_of(c, "#info").await?;
    assert!(status.contains("finished"), "{status}");

    // The replay viewer steps through the finished match with every hand open.
    browser::click(c, r#"a[href^="/?replay="]"#).await?;
    let pos = c
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::XPath(
            "//span[@id='replay-pos' and contains(text(), ' / ')]",
        ))
        .await
        .map_err(err)?;
    let first = pos.text().await.map_err(err)?;
    assert!(first.starts_with("1 / "), "{first}");
    let open_tiles = c
        .find_all(Locator::Css("#replay-board .concealed img.tile:not(.back)"))
        .await
        .map_err(err)?;
    assert!(
        open_tiles.len() >= 52,
        "every hand open: {} tiles",
        open_tiles.len()
    );
    // Passes are folded away: showing them makes more steps, never fewer.
    let steps = |c: &fantoccini::Client| {
        let c = c.clone();
        async move {
            c.execute(
                "return Number(document.querySelector('#replay-slider').max) + 1",
                vec![],
            )
            .await
            .map_err(|e| e.to_string())
            .map(|v| v.as_u64().unwrap_or(0))
        }
    };
    let folded = steps(c).await?;
    c.execute("document.querySelector('#replay-passes').click()", vec![])
        .await
        .map_err(err)?;
    let unfolded = steps(c).await?;
    let frames = c
        .execute(
            "return fetch('/api/rooms/' + new URLSearchParams(location.search).get('replay') + '/replay').then(r => r.json()).then(f => f.length)",
            vec![],
        )
        .await
        .map_err(err)?
        .as_u64()
        .unwrap_or(0);
    assert!(
        folded <= unfolded && unfolded > frames,
        "steps {folded} folded, {unfolded} with passes, {frames} frames"
    );
    c.execute("document.querySelector('#replay-passes').click()", vec![])
        .await
        .map_err(err)?;
    // The hands are listed to jump to, and autoplay steps on by itself.
    let hands = c
        .find_all(Locator::Css("#replay-hand option"))
        .await
        .map_err(err)?;
    assert!(!hands.is_empty(), "a hand to jump to");
    c.execute(
        "document.querySelector('#replay-speed').value = '150'; document.querySelector('#replay-play').click()",
        vec![],
    )
    .await
    .map_err(err)?;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    c.execute("document.querySelector('#replay-play').click()", vec![])
        .await
        .map_err(err)?;
    let played = browser::text_of(c, "#replay-pos").await?;
    let at: u64 = played
        .split(" / ")
        .next()
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    assert!(at >= 3, "autoplay moved on: {played}");
    browser::click(c, "#replay-last").await?;
    let last = browser::text_of(c, "#replay-pos").await?;
    let total = first
        .split(" / ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .unwrap_or("");
    assert!(
        last.starts_with(&format!("{total} / {total}")),
        "{first} -> {last}"
    );
    // The last step is the hand's summary: every hand face up, the payments.
    let summary = browser::text_of(c, "#replay-summary:not([hidden]) #payments").await?;
    assert!(!summary.is_empty(), "the replay ends on the summary");
    if title.contains("wins") {
        // Each payment with its reason, read from the win the log carries.
        let why = browser::text_of(c, "#replay-summary #payments-explained").await?;
        assert!(
            why.contains(" fan → "),
            "the replay explains the payments: {why}"
        );
    }
    save_screenshot(c, "replay-summary-en-1400x1000").await?;
    // The match history lists the finished match with a link to its replay.
    c.goto(&format!("{base}/history")).await.map_err(err)?;
    c.wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("#history-list tbody tr"))
        .await
        .map_err(err)?;
    save_screenshot(c, "history-en-1400x1000").await?;
    let offered = c
        .execute("return fetch('/api/matches').then(r => r.ok)", vec![])
        .await
        .map_err(err)?;
    if offered == json!(true) {
        c.find(Locator::Css(
            "#history-list a.replay-link[href^='/?replay=']",
        ))
        .await
        .map_err(err)?;
    } else {
        eprintln!(
            "!!!!!!!! the server has no GET /api/matches yet: the history lists nothing !!!!!!!!"
        );
    }
    look_at_table(c, base, "hangzhou", "", 4).await?;
    look_at_table(c, base, "classic", "players = 6", 6).await?;
    start_with_bots_for_an_absent_friend(c, base).await?;
    timers_play_for_a_person_who_does_not_act(c, base).await?;
    Ok(())
}

/// What the person's table shows: the decision offered (`turn`: tiles to discard, `claim`: a
/// Pass button, `modal`, `wait`), the countdown's text, the person's discards and every
/// discard on the table.
const TIMER_STATE: &str = r#"
const modal = document.querySelector('#modal');
const cd = document.querySelector('#centre .countdown');
const decision = modal && !modal.hidden ? 'modal'
  : document.querySelector('#actions button[data-key="x"]') ? 'claim'
  : document.querySelector('#hand .tile.playable') ? 'turn' : 'wait';
return { decision, countdown: cd ? cd.textContent : null,
  mine: document.querySelectorAll('#me .discards img').length,
  all: document.querySelectorAll('.discards img').length };
"#;

/// Short timers (turn 2 s, claim 1.5 s): the countdown shows to the person whose decision it
/// is, and when it runs out the server plays for them (the efficient bot's choice), first on a
/// turn, then on a claim; nobody clicks.
async fn timers_play_for_a_person_who_does_not_act(
    c: &fantoccini::Client,
    base: &str,
) -> Result<(), String> {
    let err = |e: fantoccini::error::CmdError| e.to_string();
    const TURN_MS: u64 = 2000;
    const CLAIM_MS: u64 = 1500;
    c.goto(&format!("{base}/")).await.map_err(err)?;
    let room = json!({
        "rules": "hongkong", "hands": 8, "autostart": true, "bot_delay_ms": 0,
        "turn_timeout_ms": TURN_MS, "claim_timeout_ms": CLAIM_MS, "continue_timeout_ms": 500,
    });
    let created = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/api/rooms', {method: 'POST', headers: {'content-type': 'application/json'},
               body: JSON.stringify(arguments[0])})
               .then((r) => r.json()).then(done, (e) => done({error: String(e)}));",
            vec![room],
        )
        .await
        .map_err(err)?;
    let link = created["seats"][0]["link"]
        .as_str()
        .ok_or_else(|| format!("no seat link: {created}"))?
        .to_string();
    c.goto(&format!("{base}{link}")).await.map_err(err)?;
    let state = || async {
        c.execute(TIMER_STATE, vec![])
            .await
            .map_err(|e| e.to_string())
    };
    let seconds = |v: &Value| -> Option<u64> {
        v["countdown"]
            .as_str()?
            .split(|ch: char| !ch.is_ascii_digit())
            .find(|d| !d.is_empty())?
            .parse()
            .ok()
    };
    let (mut turn_done, mut claim_done) = (false, false);
    let deadline = Instant::now() + Duration::from_secs(150);
    while !(turn_done && claim_done) {
        if Instant::now() > deadline {
            return Err(format!(
                "timers: turn played for the person {turn_done}, claim {claim_done}"
            ));
        }
        let now = state().await?;
        let decision = now["decision"].as_str().unwrap_or("");
        let waiting_on = match decision {
            "turn" if !turn_done => "turn",
            "claim" if !claim_done => "claim",
            // Done with this kind: play it at once.
            "turn" => {
                if let Some(t) = c
                    .find_all(Locator::Css("#hand .tile.playable"))
                    .await
                    .map_err(err)?
                    .last()
                {
                    let _ = t.click().await;
                }
                ""
            }
            "claim" => {
                if let Ok(b) = c
                    .find(Locator::Css(r#"#actions button[data-key="x"]"#))
                    .await
                {
                    let _ = b.click().await;
                }
                ""
            }
            _ => "",
        };
        if waiting_on.is_empty() {
            tokio::time::sleep(Duration::from_millis(60)).await;
            continue;
        }
        // A decision with its countdown: at most the timer's seconds, shown on the compass.
        let since = Instant::now();
        let limit_ms = if waiting_on == "turn" {
            TURN_MS
        } else {
            CLAIM_MS
        };
        let shown = seconds(&now).ok_or_else(|| format!("{waiting_on}: no countdown: {now}"))?;
        assert!(
            (1..=limit_ms.div_ceil(1000)).contains(&shown),
            "{waiting_on}: countdown {shown} s for a {limit_ms} ms timer"
        );
        save_screenshot(c, &format!("timer-{waiting_on}-en-1400x1000")).await?;
        // Nobody clicks: the decision goes away when the server plays for the person.
        loop {
            tokio::time::sleep(Duration::from_millis(50)).await;
            let later = state().await?;
            let gone = match waiting_on {
                "turn" => later["mine"] != now["mine"] || later["decision"] == "modal",
                _ => later["decision"] != "claim" || later["all"] != now["all"],
            };
            if gone {
                break;
            }
            if since.elapsed() > Duration::from_millis(limit_ms + 5000) {
                return Err(format!(
                    "{waiting_on}: nobody played for the person: {later}"
                ));
            }
        }
        // Played at the time-out, not before. The page may see the decision late (a loaded
        // machine), so the floor is what its countdown showed when first seen: `shown` whole
        // seconds rounded up, so more than `shown - 1` seconds were left then; 600 ms covers
        // the polls.
        let waited = since.elapsed().as_millis() as u64;
        let left_at_least = (shown - 1) * 1000;
        assert!(
            waited + 600 >= left_at_least,
            "{waiting_on}: played after {waited} ms of a {limit_ms} ms timer whose countdown \
             showed {shown} s"
        );
        eprintln!("{waiting_on}: played for the person after {waited} ms ({limit_ms} ms timer)");
        if waiting_on == "turn" {
            turn_done = true;
        } else {
            claim_done = true;
        }
    }
    Ok(())
}

/// Two person seats, the friend never comes: the creator starts with a bot in the friend's
/// seat.
async fn start_with_bots_for_an_absent_friend(
    c: &fantoccini::Client,
    base: &str,
) -> Result<(), String> {
    let err = |e: fantoccini::error::CmdError| e.to_string();
    c.goto(&format!("{base}/")).await.map_err(err)?;
    c.wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("#seats .seat-row"))
        .await
        .map_err(err)?;
    browser::select(c, "#seats select[name='seat-kind-1']", "person").await?;
    let delay = c.find(Locator::Css("#bot-delay")).await.map_err(err)?;
    delay.clear().await.map_err(err)?;
    delay.send_keys("0").await.map_err(err)?;
    browser::click(c, "#create").await?;
    c.wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("a.seat-link[data-seat='0']"))
        .await
        .map_err(err)?
        .click()
        .await
        .map_err(err)?;
    let fill = c
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("#start-fill:not([hidden])"))
        .await
        .map_err(err)?;
    let plain = c
        .execute("return document.querySelector('#start').hidden", vec![])
        .await
        .map_err(err)?;
    assert_eq!(
        plain,
        json!(true),
        "no plain Start while a friend is missing"
    );
    let note = browser::text_of(c, "#waiting-note").await?;
    assert!(note.contains("Bot 1"), "who is awaited: {note:?}");
    fill.click().await.map_err(err)?;
    // The person's first decision, with the timer running.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let state = c.execute(PAGE_STATE, vec![]).await.map_err(err)?;
        if matches!(state.as_str(), Some("tiles") | Some("buttons")) {
            break;
        }
        if Instant::now() > deadline {
            return Err(format!("filled room: no decision for the person ({state})"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let scores = browser::text_of(c, "#scores").await?;
    assert!(
        scores.contains("Bot 1 bot"),
        "the empty seat is a bot now: {scores:?}"
    );
    save_screenshot(c, "filled-room-en-1400x1000").await
}

/// The viewport, the page's width, and the boxes of the hand, the action buttons and the
/// player boxes, read by a small script.
const LAYOUT: &str = r#"
const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const hand = document.querySelector('#hand');
return {
  width: window.innerWidth, height: window.innerHeight,
  scroll_width: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
  hand: hand && hand.children.length ? box(hand) : null,
  hand_tiles: [...document.querySelectorAll('#hand .tile')].map(box),
  actions: [...document.querySelectorAll('#actions button')].map(box),
  players: document.querySelectorAll('#board .player-box').length,
};
"#;

/// Checks at every size and in both languages that the hand and the actions are inside the
/// viewport, nothing overflows sideways and every player shows; saves a screenshot of each.
async fn check_fit_everywhere(
    c: &fantoccini::Client,
    name: &str,
    seats: usize,
) -> Result<(), String> {
    let err = |e: fantoccini::error::CmdError| e.to_string();
    for lang in ["en", "zh"] {
        switch_language(c, lang).await?;
        let info = browser::text_of(c, "#info").await?;
        let expected = if lang == "zh" {
            "状态："
        } else {
            "Status: "
        };
        assert!(
            info.starts_with(expected),
            "{lang}: the status line reads {info:?}"
        );
        let stored = c
            .execute("return localStorage.getItem('majiang.lang')", vec![])
            .await
            .map_err(err)?;
        assert_eq!(stored, json!(lang), "the choice is remembered");
        for (w, h) in SIZES {
            set_viewport(c, w, h).await?;
            let l = c.execute(LAYOUT, vec![]).await.map_err(err)?;
            save_screenshot(c, &format!("{name}-{lang}-{w}x{h}")).await?;
            let (vw, vh) = (l["width"].as_f64().unwrap(), l["height"].as_f64().unwrap());
            assert!(
                (vw - w as f64).abs() < 2.0,
                "{name} {lang}: viewport {vw}×{vh} for {w}×{h}"
            );
            let sw = l["scroll_width"].as_f64().unwrap();
            assert!(sw <= vw, "{name} {lang} {w}×{h}: page {sw} px wide in {vw}");
            let inside = |r: &Value| {
                let r: Vec<f64> = r
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_f64().unwrap())
                    .collect();
                r[0] >= -0.5 && r[1] >= -0.5 && r[2] <= vw + 0.5 && r[3] <= vh + 0.5
            };
            for key in ["hand_tiles", "actions"] {
                for r in l[key].as_array().unwrap() {
                    assert!(
                        inside(r),
                        "{name} {lang} {w}×{h}: {key} box {r} outside {vw}×{vh}"
                    );
                }
            }
            if !l["hand"].is_null() {
                assert!(
                    inside(&l["hand"]),
                    "{name} {lang} {w}×{h}: hand {}",
                    l["hand"]
                );
            }
            assert_eq!(
                l["players"].as_u64(),
                Some(seats as u64),
                "{name} {lang} {w}×{h}: every player shows"
            );
        }
    }
    switch_language(c, "en").await?;
    set_viewport(c, 1400, 1000).await
}

/// Creates a room of `rules` from the lobby (one person, bots elsewhere), starts it, waits for
/// the person's first decision and checks the table at every size and in both languages.
async fn look_at_table(
    c: &fantoccini::Client,
    base: &str,
    rules: &str,
    options: &str,
    seats: usize,
) -> Result<(), String> {
    let err = |e: fantoccini::error::CmdError| e.to_string();
    c.goto(&format!("{base}/")).await.map_err(err)?;
    c.wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css(&format!("#rules option[value='{rules}']")))
        .await
        .map_err(err)?;
    browser::select(c, "#rules", rules).await?;
    // Typed house rules sit under the controls, in a box to open.
    c.execute(
        "document.querySelector('#options').closest('details').open = true",
        vec![],
    )
    .await
    .map_err(err)?;
    let opts = c.find(Locator::Css("#options")).await.map_err(err)?;
    opts.send_keys(options).await.map_err(err)?;
    let rows = c
        .find_all(Locator::Css("#seats .seat-row"))
        .await
        .map_err(err)?;
    assert_eq!(rows.len(), seats, "{rules} {options:?}: the lobby's seats");
    let delay = c.find(Locator::Css("#bot-delay")).await.map_err(err)?;
    delay.clear().await.map_err(err)?;
    delay.send_keys("0").await.map_err(err)?;
    browser::click(c, "#create").await?;
    c.wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("a.seat-link"))
        .await
        .map_err(err)?
        .click()
        .await
        .map_err(err)?;
    c.wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("#start:not([hidden])"))
        .await
        .map_err(err)?
        .click()
        .await
        .map_err(err)?;
    // The person's first decision: the bots wait for it.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let state = c.execute(PAGE_STATE, vec![]).await.map_err(err)?;
        match state.as_str() {
            Some("tiles") | Some("buttons") => break,
            // A hand ended before the person's turn came: go on to the next.
            Some("modal") => {
                let _ = c
                    .execute("document.querySelector('#modal-close').click()", vec![])
                    .await;
            }
            _ => {}
        }
        if Instant::now() > deadline {
            return Err(format!("{rules}: no decision for the person ({state})"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    check_fit_everywhere(c, &format!("{rules}-{seats}p"), seats).await
}

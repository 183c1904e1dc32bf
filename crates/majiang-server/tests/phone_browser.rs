//! The table on phones, tablets and desktops, measured in headless Chromium with mobile emulation
//! (a phone's user agent, touch, each screen's metrics in turn in one session): portrait 360×640,
//! 390×844, 412×915, landscape 640×360, 844×390, 915×412, a 768×1024 tablet, and 1366×768 and
//! 1920×1080 desktops. At each screen the page is fed table states (the table's
//! `window.majiangTable.feed` hook, as `table_screens.rs` does): built here for 3, 4, 5 and 6
//! seats with long rivers, melds, flowers and long names — a claim offer with seven buttons, a
//! Hangzhou Bao Tou turn with the gambit and 34 waits, a gambit round, a hand's result — and the
//! recorded ones of `tests/fixtures/`. From the boxes the page reports it fails on: a board tile
//! over another tile or the compass, a compass seat label over the wall count or the
//! countdown (their text's boxes), a board tile outside the felt, a page (or the table) that
//! scrolls, a hand tile or button out of view or covered, hand tiles narrower than 26 px upright
//! or 40 px on its side, river tiles narrower than 16 px, touch targets under 44 px tall, and on
//! a phone the scores and log anywhere but in their drawer. A live room checks tap-to-select then
//! tap-to-discard with real touches. Screenshots of the looks found wrong (all with
//! `MAJIANG_SCREENSHOTS=1`) go to `target/phone-screens/`.
//!
//! Which states run: every screen × every built state at 3–6 seats (16) and the 4 recorded
//! ones, 180 looks in one browser (about a minute and a half on two cores).

use crate::common;
use majiang_testkit::browser::{self, err};
use majiang_testkit::browser_mobile::{Screen, emulate, start_phone};

use fantoccini::Client;
use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, PointerAction, TouchActions};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The screens, named as the screenshots are.
const SCREENS: [(&str, Screen); 9] = [
    ("portrait-360x640", Screen::touch(360, 640)),
    ("portrait-390x844", Screen::touch(390, 844)),
    ("portrait-412x915", Screen::touch(412, 915)),
    ("landscape-640x360", Screen::touch(640, 360)),
    ("landscape-844x390", Screen::touch(844, 390)),
    ("landscape-915x412", Screen::touch(915, 412)),
    ("tablet-768x1024", Screen::touch(768, 1024)),
    ("desktop-1366x768", Screen::desktop(1366, 768)),
    ("desktop-1920x1080", Screen::desktop(1920, 1080)),
];

/// The states built for each table size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Another player's discard on offer: chow three ways, pung, kong, win, pass.
    Claim,
    /// Hangzhou: the viewer's turn in the Bao Tou state, the Caishen's gambit offered, 34 waits.
    BaoTou,
    /// Hangzhou: a gambit round under way, gambits in the rivers, the viewer with a meld.
    Gambit,
    /// The hand is over: the summary over the table.
    Result,
}

const KINDS: [Kind; 4] = [Kind::Claim, Kind::BaoTou, Kind::Gambit, Kind::Result];

/// The recorded states of `tests/fixtures/` (name, messages, seats).
const RECORDED: [(&str, &str, usize); 4] = [
    ("rec-baotou", include_str!("fixtures/table_baotou.json"), 4),
    ("rec-claim", include_str!("fixtures/table_claim.json"), 4),
    ("rec-six", include_str!("fixtures/table_six.json"), 6),
    ("rec-result", include_str!("fixtures/table_result.json"), 6),
];

/// Seat winds in turn order by table size (as `board.js` has them).
fn winds(n: usize) -> &'static [&'static str] {
    match n {
        3 => &["east", "south", "north"],
        4 => &["east", "south", "west", "north"],
        5 => &["east", "south", "west", "north", "north_east"],
        _ => &["east", "south", "south_west", "west", "north", "north_east"],
    }
}

/// Names, one of them long, one with a space.
const NAMES: [&str; 6] = [
    "Ann",
    "Bartholomew-Longname",
    "Chen Xiaoming",
    "Dan",
    "Eve",
    "Fay",
];

/// Every tile kind, for rivers.
fn tile(k: usize) -> String {
    let k = k % 34;
    match k {
        0..=8 => format!("{}m", k + 1),
        9..=17 => format!("{}p", k - 8),
        18..=26 => format!("{}s", k - 17),
        _ => format!("{}z", k - 26),
    }
}

/// How long the rivers are late in a long hand, by table size.
fn river_len(n: usize) -> usize {
    match n {
        3 => 22,
        4 => 19,
        5 => 15,
        _ => 13,
    }
}

/// The viewer's seat and chair: seat 0 sits in chair 1 (chair 0 deals).
const ME: usize = 1;

/// The messages for a table of `n` seats in the state `kind`: `welcome`, `state`, and for a
/// result the `hand_result` (the recorded six-seat one, cut to `n` players).
fn scene(n: usize, kind: Kind) -> Value {
    let w = winds(n);
    let hangzhou = matches!(kind, Kind::BaoTou | Kind::Gambit);
    let rules = if hangzhou {
        "hangzhou"
    } else if n >= 5 {
        "classic"
    } else {
        "hongkong"
    };
    let chair_of_seat = |s: usize| (s + ME) % n;
    let seats: Vec<Value> = (0..n)
        .map(|s| json!({"seat": s, "name": NAMES[s], "bot": s != 0, "connected": true, "player": chair_of_seat(s), "stand_in": false}))
        .collect();
    let left = (ME + n - 1) % n;
    let len = river_len(n);
    let table: Vec<Value> = (0..n)
        .map(|c| {
            let me = c == ME;
            let discards: Vec<Value> = (0..len - usize::from(me) * 2)
                .map(|i| {
                    json!({"tile": tile(c * 7 + i * 5), "claimed": i == 3,
                        "gambit": kind == Kind::Gambit && i >= len - 4 && c % 2 == 0})
                })
                .collect();
            let melds = if me {
                if kind == Kind::Gambit {
                    vec![json!({"kind": "pung", "tile": "7z", "from": w[(c + 2) % n], "claimed": "7z"})]
                } else {
                    vec![]
                }
            } else {
                let mut m = vec![
                    json!({"kind": "chow", "tile": "3s", "from": w[(c + n - 1) % n], "claimed": "4s"}),
                    json!({"kind": "pung", "tile": tile(27 + c), "from": w[(c + 2) % n], "claimed": tile(27 + c)}),
                ];
                if c % 2 == 0 {
                    m.push(json!({"kind": "concealed_kong", "tile": "9p", "from": null, "claimed": null}));
                }
                m
            };
            let concealed_count = 13 - 3 * melds.len() + usize::from(me && kind == Kind::BaoTou);
            json!({"player": c, "seat": w[c], "melds": melds, "flowers": ["1f", "6f"],
                "discards": discards, "concealed_count": concealed_count,
                "gambit_run": if kind == Kind::Gambit && c % 2 == 0 { 2 } else { 0 }})
        })
        .collect();
    let (concealed, drawn, turn, on_offer, legal): (&str, Value, Value, Value, Vec<Value>) =
        match kind {
            Kind::Claim => (
                "344556677m123p9s",
                Value::Null,
                Value::Null,
                json!([left, "5m"]),
                vec![
                    json!({"chow": {"tiles": ["3m", "4m", "5m"]}}),
                    json!({"chow": {"tiles": ["4m", "5m", "6m"]}}),
                    json!({"chow": {"tiles": ["5m", "6m", "7m"]}}),
                    json!("pung"),
                    json!("kong"),
                    json!("win"),
                    json!("pass"),
                ],
            ),
            Kind::BaoTou => (
                "1456m2479p2557s3p7s",
                json!("7s"),
                json!(ME),
                Value::Null,
                std::iter::once(json!("win"))
                    .chain(
                        [
                            "1m", "4m", "5m", "6m", "2p", "4p", "7p", "9p", "2s", "5s", "7s", "3p",
                        ]
                        .iter()
                        .map(|t| json!({"discard": t})),
                    )
                    .collect(),
            ),
            Kind::Gambit => (
                "1456m2479p3p7s",
                json!("7s"),
                json!(ME),
                Value::Null,
                ["1m", "4m", "5m", "6m", "2p", "4p", "7p", "9p", "3p", "7s"]
                    .iter()
                    .map(|t| json!({"discard": t}))
                    .collect(),
            ),
            Kind::Result => (
                "344556677m123p9s",
                Value::Null,
                Value::Null,
                Value::Null,
                vec![],
            ),
        };
    let waits: Vec<Value> = if kind == Kind::BaoTou {
        (0..34)
            .map(|k| json!({"tile": tile(k), "unseen": k % 5, "self_draw": if k % 7 == 3 { Value::Null } else { json!(4 + k % 3 * 2) }, "discard": if k % 4 == 1 { Value::Null } else { json!(2 + k % 2) }}))
            .collect()
    } else {
        vec![]
    };
    let wild = hangzhou.then_some("3p");
    let obs = json!({
        "player": ME, "seat": w[ME], "dealer": 0, "prevailing_wind": "east", "lao": 2,
        "concealed": concealed, "drawn": drawn, "table": table, "live_wall": 31,
        "wildcard": wild, "indicator": hangzhou.then_some("2p"),
        "gambit_round": kind == Kind::Gambit,
        "wildcard_discard_is_gambit": hangzhou,
        "on_offer": on_offer, "last_discard": [left, tile(left * 7 + (len - 1) * 5)],
        "turn": turn, "legal_actions": legal,
    });
    let status = if kind == Kind::Result {
        "hand_over"
    } else {
        "playing"
    };
    let config_seats: Vec<Value> = (0..n)
        .map(|s| json!({"name": NAMES[s], "bot": s != 0}))
        .collect();
    let mut msgs = vec![
        json!({"type": "welcome", "room": "0123456789abcdef", "seat": 0, "config": {
            "rules": rules, "options": if n >= 5 { json!({"players": n}) } else { json!({}) },
            "seats": config_seats, "hands": 8, "claim_timeout_ms": 9000, "turn_timeout_ms": 25000,
            "continue_timeout_ms": null, "bot_delay_ms": 0, "autostart": false}}),
        json!({"type": "state", "status": status, "seats": seats, "hand_number": 3, "hands": 8,
            "ledger": (0..n).map(|c| (c as i64 - 2) * 24).collect::<Vec<_>>(),
            "observation": obs,
            "claim_deadline_ms": if kind == Kind::Claim { json!(9000) } else { Value::Null },
            "deadline_ms": if turn.is_null() { Value::Null } else { json!(25000) },
            "continue": if kind == Kind::Result { json!({"waiting_for": [0, 2], "deadline_ms": null}) } else { Value::Null },
            "waits": waits, "actions": 80}),
    ];
    if kind == Kind::Result {
        msgs.push(result_for(n));
    }
    Value::Array(msgs)
}

/// The recorded six-seat `hand_result`, cut to the players of a table of `n`.
fn result_for(n: usize) -> Value {
    let recorded: Value = serde_json::from_str(include_str!("fixtures/table_result.json")).unwrap();
    let mut m = recorded
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["type"] == "hand_result")
        .unwrap()
        .clone();
    let within = |v: &Value| {
        v["from"].as_u64().is_some_and(|f| (f as usize) < n)
            && v["to"].as_u64().is_some_and(|t| (t as usize) < n)
    };
    let cut = |v: &mut Value| {
        if let Some(a) = v.as_array_mut() {
            a.truncate(n);
        }
    };
    cut(&mut m["settlement"]["payments"]);
    cut(&mut m["settlement"]["ledger"]);
    cut(&mut m["settlement"]["outcome"]["scored"]["payments"]);
    cut(&mut m["reveal"]);
    for list in ["/payments_explained", "/settlement/outcome/scored/itemised"] {
        if let Some(a) = m.pointer_mut(list).and_then(Value::as_array_mut) {
            a.retain(within);
        }
    }
    m["settlement"]["deal"]["dealer"] = json!(0);
    m
}

/// What the page's layout is, read from its boxes (see the module's doc for what is checked).
const MEASURE: &str = r#"
const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const shown = (e) => e.checkVisibility({ visibilityProperty: true, opacityProperty: false }) && e.getBoundingClientRect().width > 0;
const board = document.querySelector('#board');
const compass = board.querySelector('.compass');
const what = (t) => (t.closest('.river') ? 'river' : t.closest('.melds') ? 'meld' : t.classList.contains('back') ? 'back' : 'tile')
  + ' ' + (t.dataset.tile || 'back') + ' of chair ' + (t.closest('.player-box') ? t.closest('.player-box').dataset.chair : '?');
const tiles = [...board.querySelectorAll('.tile')].filter((t) => shown(t) && !t.closest('.compass'));
// What is at a box's middle is the element itself (or inside it): nothing covers it.
const uncovered = (e) => { const [l, t, r, b] = box(e); const at = document.elementFromPoint((l + r) / 2, (t + b) / 2); return !!at && (e === at || e.contains(at) || at.contains(e)); };
const scrollers = ['main', '#table', '#table-middle', '#board', '#controls'].map((s) => document.querySelector(s)).filter((e) => e && shown(e))
  .filter((e) => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1).map((e) => e.tagName + '#' + e.id + ' ' + e.scrollWidth + 'x' + e.scrollHeight + ' in ' + e.clientWidth + 'x' + e.clientHeight);
const side = document.querySelector('#side');
const modal = document.querySelector('#modal');
const targets = [...document.querySelectorAll('#actions button, #hand .tile-btn, #side-toggle, #start-row button, #modal-close')].filter(shown);
return {
  vw: innerWidth, vh: innerHeight,
  page: [document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight],
  scrollers,
  felt: box(board),
  compass: compass ? box(compass) : null,
  // The compass's seat labels, and the text in its middle (the wall count, the countdown) by
  // the box of the text itself (a range over it), not of its block.
  compass_labels: compass ? [...compass.querySelectorAll('.compass-seat')].filter(shown).map((e) => [e.textContent].concat(box(e))) : [],
  compass_texts: compass ? [...compass.querySelectorAll('.compass-mid > .wall-count, .compass-mid > .countdown')].filter(shown)
    .map((e) => { const r = document.createRange(); r.selectNodeContents(e); return [e.innerText].concat(box(r)); }) : [],
  tiles: tiles.map((t) => [what(t)].concat(box(t))),
  offer: [...board.querySelectorAll('.compass .tile')].filter(shown).map(box),
  river_widths: [...board.querySelectorAll('.river .tile')].filter(shown).map((t) => t.getBoundingClientRect().width),
  hand: [...document.querySelectorAll('#hand .tile')].filter(shown).map((t) => [t.dataset.tile].concat(box(t))),
  buttons: [...document.querySelectorAll('#actions button, #start-row button')].filter(shown).map((b) => [b.textContent.trim().slice(0, 20)].concat(box(b))),
  covered: [...document.querySelectorAll('#hand .tile-btn, #actions button')].filter(shown).filter((e) => !uncovered(e)).map((e) => e.textContent.trim().slice(0, 20) || e.dataset.tile),
  targets: targets.map((e) => [e.id || e.className || e.textContent.trim().slice(0, 12), e.getBoundingClientRect().height]),
  players: board.querySelectorAll('.player-box').length,
  side_shown: !!side && shown(side),
  side_in_flow: !!side && shown(side) && getComputedStyle(side).position !== 'fixed',
  modal: modal.hidden ? null : box(modal),
  modal_close: modal.hidden ? null : box(document.querySelector('#modal-close')),
};
"#;

/// Where the screenshots go: `target/phone-screens/`.
fn screens_dir() -> PathBuf {
    let dir = browser::screenshot_dir().with_file_name("phone-screens");
    let _ = std::fs::create_dir_all(&dir);
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_table_fits_phones_in_both_orientations_tablets_and_desktops() {
    let Some(browser) = start_phone("the phone layout test", SCREENS[0].1).await else {
        return;
    };
    let (_app, addr) = common::start_server().await;
    let c = browser.client.clone();
    let result = all_screens(&c, &format!("http://{addr}")).await;
    browser.close().await;
    result.unwrap();
}

/// The scenes: (name, messages, seats).
fn scenes() -> Vec<(String, Value, usize)> {
    let mut out = vec![];
    for n in 3..=6 {
        for kind in KINDS {
            out.push((
                format!("{}-{n}", format!("{kind:?}").to_lowercase()),
                scene(n, kind),
                n,
            ));
        }
    }
    for (name, text, n) in RECORDED {
        out.push((name.to_string(), serde_json::from_str(text).unwrap(), n));
    }
    out
}

async fn all_screens(c: &Client, base: &str) -> Result<(), String> {
    let started = Instant::now();
    // A table page (a waiting room of one person and bots: the feed replaces it).
    let link = create_room(c, base, json!({"rules": "hongkong", "hands": 1})).await?;
    c.goto(&format!("{base}{link}&lang=en"))
        .await
        .map_err(err)?;
    browser::wait_for(c, "#waiting-room:not([hidden])", 15).await?;
    let scenes = scenes();
    let mut problems = vec![];
    let mut looks = 0;
    for (screen_name, screen) in SCREENS {
        emulate(c, screen).await?;
        for (name, msgs, n) in &scenes {
            c.execute("window.majiangTable.feed(arguments[0])", vec![msgs.clone()])
                .await
                .map_err(err)?;
            settle(c).await?;
            let m = c.execute(MEASURE, vec![]).await.map_err(err)?;
            let at = format!("{name} at {screen_name}");
            let found = check(
                &m,
                screen,
                *n,
                name.starts_with("result") || name == "rec-result",
            );
            // A look found wrong is always saved, to be seen; every look on request.
            if !found.is_empty() || browser::every_look_saved() {
                let png = c.screenshot().await.map_err(err)?;
                let file = screens_dir().join(format!("{screen_name}-{name}.png"));
                std::fs::write(&file, png).map_err(|e| format!("{}: {e}", file.display()))?;
            }
            problems.extend(found.into_iter().map(|p| format!("{at}: {p}")));
            looks += 1;
        }
        if screen.touch {
            problems.extend(
                drawer_opens(c, screen)
                    .await?
                    .into_iter()
                    .map(|p| format!("drawer at {screen_name}: {p}")),
            );
        }
    }
    eprintln!(
        "phone layout: {looks} looks in {:?}; screenshots (of the looks found wrong, of all with \
         MAJIANG_SCREENSHOTS=1) in {}",
        started.elapsed(),
        screens_dir().display()
    );
    assert!(
        problems.is_empty(),
        "{} layout problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
    Ok(())
}

/// Waits until the fed state is drawn and two animation frames have passed (layout settled).
async fn settle(c: &Client) -> Result<(), String> {
    c.execute_async(
        "const done = arguments[arguments.length - 1]; requestAnimationFrame(() => requestAnimationFrame(() => done(true)));",
        vec![],
    )
    .await
    .map_err(err)?;
    Ok(())
}

/// A rectangle `[left, top, right, bottom]` from a JSON array (from `offset`).
fn rect(v: &Value, offset: usize) -> [f64; 4] {
    let a = v.as_array().cloned().unwrap_or_default();
    let f = |i: usize| {
        a.get(offset + i)
            .and_then(Value::as_f64)
            .unwrap_or(f64::NAN)
    };
    [f(0), f(1), f(2), f(3)]
}

/// How far two rectangles overlap (the smaller of the overlap's width and height; ≤ 0: apart).
fn overlap(a: [f64; 4], b: [f64; 4]) -> f64 {
    let w = a[2].min(b[2]) - a[0].max(b[0]);
    let h = a[3].min(b[3]) - a[1].max(b[1]);
    w.min(h)
}

/// Whether `inner` lies inside `outer` (half a pixel of rounding allowed).
fn inside(inner: [f64; 4], outer: [f64; 4]) -> bool {
    inner[0] >= outer[0] - 0.5
        && inner[1] >= outer[1] - 0.5
        && inner[2] <= outer[2] + 0.5
        && inner[3] <= outer[3] + 0.5
}

/// What is wrong with the measured layout `m` at `screen` for a table of `n`.
fn check(m: &Value, screen: Screen, n: usize, result: bool) -> Vec<String> {
    let mut p = vec![];
    let (vw, vh) = (
        m["vw"].as_f64().unwrap_or(0.0),
        m["vh"].as_f64().unwrap_or(0.0),
    );
    let view = [0.0, 0.0, vw, vh];
    let page = rect(&m["page"], 0);
    if page[0] > vw + 0.5 || page[1] > vh + 0.5 {
        p.push(format!(
            "the page scrolls: {}×{} in {vw}×{vh}",
            page[0], page[1]
        ));
    }
    for s in m["scrollers"].as_array().into_iter().flatten() {
        p.push(format!("scrolls inside: {s}"));
    }
    if m["players"].as_u64() != Some(n as u64) {
        p.push(format!("{} players on the board, not {n}", m["players"]));
    }
    let felt = rect(&m["felt"], 0);
    if !(felt[2] - felt[0] > 100.0 && felt[3] - felt[1] > 100.0) {
        p.push(format!("no felt to speak of: {felt:?}"));
    }
    if m["hand"].as_array().is_none_or(Vec::is_empty) {
        p.push("no hand shows".into());
    }
    let tiles: Vec<(String, [f64; 4])> = m["tiles"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| (t[0].as_str().unwrap_or("").to_string(), rect(t, 1)))
        .collect();
    let compass = (!m["compass"].is_null()).then(|| rect(&m["compass"], 0));
    if tiles.len() < 8 * n {
        p.push(format!("only {} board tiles show", tiles.len()));
    }
    let outside = tiles.iter().filter(|(_, r)| !inside(*r, felt)).count();
    if outside > 0 {
        let first = tiles.iter().find(|(_, r)| !inside(*r, felt)).unwrap();
        p.push(format!(
            "{outside} of {} board tiles outside the felt {felt:?}, e.g. {} at {:?}",
            tiles.len(),
            first.0,
            first.1
        ));
    }
    let mut overlaps = vec![];
    for (i, (a, ra)) in tiles.iter().enumerate() {
        for (b, rb) in &tiles[i + 1..] {
            if overlap(*ra, *rb) > 1.0 {
                overlaps.push(format!("{a} {ra:?} over {b} {rb:?}"));
            }
        }
        if let Some(c) = compass
            && overlap(*ra, c) > 1.0
        {
            overlaps.push(format!("{a} {ra:?} over the compass {c:?}"));
        }
    }
    if !overlaps.is_empty() {
        p.push(format!(
            "{} overlaps, e.g. {}",
            overlaps.len(),
            overlaps[..overlaps.len().min(3)].join("; ")
        ));
    }
    // The compass's texts: no seat label over the wall count or the countdown.
    let labelled = |key: &str| -> Vec<(String, [f64; 4])> {
        m[key]
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| (t[0].as_str().unwrap_or("").to_string(), rect(t, 1)))
            .collect()
    };
    for (text, rt) in labelled("compass_texts") {
        for (label, rl) in labelled("compass_labels") {
            if overlap(rt, rl) > 0.5 {
                p.push(format!(
                    "the compass's {text:?} {rt:?} under its label {label:?} {rl:?}"
                ));
            }
        }
    }
    if let Some(c) = compass {
        for o in m["offer"].as_array().into_iter().flatten() {
            if !inside(rect(o, 0), c) {
                p.push(format!(
                    "the tile on offer {:?} sticks out of the compass",
                    rect(o, 0)
                ));
            }
        }
    }
    // Sizes.
    let narrow_river = m["river_widths"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_f64)
        .filter(|w| *w < 15.99)
        .count();
    if narrow_river > 0 {
        p.push(format!("{narrow_river} river tiles narrower than 16 px"));
    }
    let least_hand = match (screen.touch, screen.landscape()) {
        (true, false) => 26.0,
        (true, true) => 40.0,
        (false, _) => 20.0,
    };
    for h in m["hand"].as_array().into_iter().flatten() {
        let r = rect(h, 1);
        let w = r[2] - r[0];
        if w < least_hand - 0.01 {
            p.push(format!(
                "hand tile {} {w:.1} px wide (at least {least_hand})",
                h[0]
            ));
        }
        if !inside(r, view) {
            p.push(format!("hand tile {} at {r:?} out of view", h[0]));
        }
    }
    if !result {
        for b in m["buttons"].as_array().into_iter().flatten() {
            if !inside(rect(b, 1), view) {
                p.push(format!("button {} at {:?} out of view", b[0], rect(b, 1)));
            }
        }
        for e in m["covered"].as_array().into_iter().flatten() {
            p.push(format!("{e} is covered by something else"));
        }
    }
    if screen.touch {
        for t in m["targets"].as_array().into_iter().flatten() {
            let h = t[1].as_f64().unwrap_or(0.0);
            if h < 43.99 {
                p.push(format!("touch target {} {h:.1} px tall", t[0]));
            }
        }
        if m["side_shown"] == json!(true) {
            p.push("the scores and the log show without a tap".into());
        }
    } else if m["side_in_flow"] != json!(true) {
        p.push("a desktop shows the scores and the log beside the board".into());
    }
    if result {
        match (m["modal"].is_null(), m["modal_close"].is_null()) {
            (false, false) => {
                if !inside(rect(&m["modal"], 0), view) || !inside(rect(&m["modal_close"], 0), view)
                {
                    p.push("the result or its Continue is out of view".into());
                }
            }
            _ => p.push("no result shows".into()),
        }
    }
    p
}

/// On a touch screen: ☰ opens the drawer of the scores and the log inside the screen, with the
/// language switch in it; ✕ closes it.
async fn drawer_opens(c: &Client, screen: Screen) -> Result<Vec<String>, String> {
    let mut p = vec![];
    c.execute(
        "document.querySelector('#modal').hidden = true; document.querySelector('#side-toggle').click();",
        vec![],
    )
    .await
    .map_err(err)?;
    let deadline = Instant::now() + Duration::from_secs(3);
    let open = loop {
        let open = c
            .execute(
                "const s = document.querySelector('#side'); const r = s.getBoundingClientRect();
                 return [r.left, r.top, r.right, r.bottom, s.checkVisibility({visibilityProperty: true}),
                   !!s.querySelector('#lang-switch button'), s.querySelectorAll('#scores tr').length];",
                vec![],
            )
            .await
            .map_err(err)?;
        if open[4] == json!(true)
            && open[0].as_f64().unwrap_or(1e9) < screen.width as f64
            && inside(
                rect(&open, 0),
                [0.0, 0.0, screen.width as f64, screen.height as f64],
            )
        {
            break open;
        }
        if Instant::now() > deadline {
            p.push(format!(
                "☰ does not open the drawer within the screen: {open}"
            ));
            return Ok(p);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    if open[5] != json!(true) || open[6].as_u64().unwrap_or(0) == 0 {
        p.push(format!(
            "the drawer lacks the language switch or the scores: {open}"
        ));
    }
    let png = c.screenshot().await.map_err(err)?;
    let file = screens_dir().join(format!("drawer-{}x{}.png", screen.width, screen.height));
    std::fs::write(&file, png).map_err(|e| format!("{}: {e}", file.display()))?;
    c.execute("document.querySelector('#side-close').click()", vec![])
        .await
        .map_err(err)?;
    // Closed again (its slide out takes a moment).
    let deadline = Instant::now() + Duration::from_secs(3);
    while c
        .execute(
            "return document.querySelector('#side').checkVisibility({visibilityProperty: true})",
            vec![],
        )
        .await
        .map_err(err)?
        == json!(true)
    {
        if Instant::now() > deadline {
            p.push("✕ does not close the drawer".into());
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(p)
}

/// A live room on a 390×844 phone: a touch on a playable hand tile raises it and discards
/// nothing; a second touch on it discards it (the person's river grows by one).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_touch_selects_a_tile_and_a_second_touch_discards_it() {
    let phone = Screen::touch(390, 844);
    let Some(browser) = start_phone("the tap-to-discard test", phone).await else {
        return;
    };
    let (_app, addr) = common::start_server().await;
    let c = browser.client.clone();
    let result = tap_twice(&c, &format!("http://{addr}"), phone).await;
    browser.close().await;
    result.unwrap();
}

/// Creates a room through the page's own API call (`POST /api/rooms` with `config`); returns the
/// first seat's link.
async fn create_room(c: &Client, base: &str, config: Value) -> Result<String, String> {
    c.goto(&format!("{base}/")).await.map_err(err)?;
    let created = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/api/rooms', {method: 'POST', headers: {'content-type': 'application/json'},
               body: JSON.stringify(arguments[0])}).then((r) => r.json()).then(done, (e) => done({error: String(e)}));",
            vec![config],
        )
        .await
        .map_err(err)?;
    created["seats"][0]["link"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("no seat link: {created}"))
}

async fn tap_twice(c: &Client, base: &str, phone: Screen) -> Result<(), String> {
    let room = json!({"rules": "hongkong", "hands": 1, "autostart": true, "bot_delay_ms": 0});
    let link = create_room(c, base, room).await?;
    c.goto(&format!("{base}{link}")).await.map_err(err)?;
    emulate(c, phone).await?;
    // The person's turn: a playable tile (claims offered meanwhile are passed).
    let deadline = Instant::now() + Duration::from_secs(60);
    let (tile, x, y, river) = loop {
        let now = c
            .execute(
                "const t = [...document.querySelectorAll('#hand .tile-btn')].filter((b) => b.querySelector('.playable')).pop();
                 const pass = document.querySelector('#actions button[data-key=\"x\"]');
                 if (pass) { pass.click(); return null; }
                 if (!t) return null;
                 const r = t.getBoundingClientRect();
                 return [t.dataset.tile, r.left + r.width / 2, r.top + r.height / 2, document.querySelectorAll('#me .discards img').length];",
                vec![],
            )
            .await
            .map_err(err)?;
        if !now.is_null() {
            break (
                now[0].as_str().unwrap_or("").to_string(),
                now[1].as_f64().unwrap_or(0.0),
                now[2].as_f64().unwrap_or(0.0),
                now[3].as_u64().unwrap_or(0),
            );
        }
        if Instant::now() > deadline {
            return Err("the person's turn never came".into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let tap = || {
        TouchActions::new("finger".into())
            .then(PointerAction::MoveTo {
                duration: None,
                x,
                y,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            })
    };
    c.perform_actions(tap()).await.map_err(err)?;
    let after_one = c
        .execute(
            "return [document.querySelectorAll('#hand .tile.selected').length, document.querySelector('#hand .tile.selected')?.dataset.tile, document.querySelectorAll('#me .discards img').length]",
            vec![],
        )
        .await
        .map_err(err)?;
    assert_eq!(
        after_one,
        json!([1, tile, river]),
        "one touch raises the tile {tile} and discards nothing"
    );
    c.perform_actions(tap()).await.map_err(err)?;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mine = c
            .execute(
                "return [...document.querySelectorAll('#me .discards img')].map((i) => i.dataset.tile)",
                vec![],
            )
            .await
            .map_err(err)?;
        let mine: Vec<String> = serde_json::from_value(mine).unwrap_or_default();
        if mine.len() as u64 > river {
            assert_eq!(
                mine.get(river as usize),
                Some(&tile),
                "the second touch discards the raised tile"
            );
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!("the second touch did not discard {tile}: {mine:?}"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

//! The browser says why a win is not offered (Hong Kong's missed win) and why only a win is
//! (the last discard), in English, 简体中文 and 繁體中文, at 1366×768, 1920×1080 and a 390×844
//! phone: the recorded claim state (`fixtures/table_claim.json`) fed to the table through
//! `window.majiangTable.feed`, once with the tile on offer among the seat's `missed_wins`, once
//! with the live wall empty and only a win and a pass offered. The note must show the
//! catalogue's words, lie inside the viewport and not overlap the action buttons. And the
//! replay of a finished match stored under rules revision 1 that met the missed win says so,
//! naming both revisions. Screenshots in `target/e2e-screenshots/` (`rules-*`).

use crate::common::{self, config};
use majiang::table::log::RULES_REVISION;
use majiang_testkit::browser::{self, Browser, SIZES, err, save_screenshot, set_viewport};
use serde_json::{Value, json};

const CATALOGUES: [(&str, &str); 3] = [
    ("en", include_str!("../web/i18n/en.json")),
    ("zh", include_str!("../web/i18n/zh.json")),
    ("zh-Hant", include_str!("../web/i18n/zh-Hant.json")),
];

/// The note's box and text, and the action buttons' boxes.
const NOTE: &str = r#"
const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const note = document.querySelector(arguments[0]);
return {
  width: window.innerWidth, height: window.innerHeight,
  shown: !!note && note.checkVisibility(),
  text: note ? note.textContent : null,
  note: note ? box(note) : null,
  buttons: [...document.querySelectorAll('#actions button')].filter((e) => e.checkVisibility()).map(box),
  win_button: !!document.querySelector('#actions button.act-win'),
};
"#;

/// The claim fixture changed by `edit` (applied to its state's observation).
fn claim_with(edit: impl Fn(&mut Value)) -> Value {
    let mut msgs: Value = serde_json::from_str(include_str!("fixtures/table_claim.json")).unwrap();
    for m in msgs.as_array_mut().unwrap() {
        if m["type"] == "state" {
            edit(&mut m["observation"]);
        }
    }
    msgs
}

fn overlaps(a: &[f64], b: &[f64]) -> bool {
    a[0] < b[2] - 0.5 && b[0] < a[2] - 0.5 && a[1] < b[3] - 0.5 && b[1] < a[3] - 0.5
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap_or(f64::NAN))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_table_says_why_a_win_is_not_offered_or_only_a_win_is() {
    let Some(browser) = Browser::start("the rules notes test", 1366, 768).await else {
        return;
    };
    let (app, addr) = common::start_server().await;
    let created = app
        .create_room(config(json!({"rules": "hongkong", "seats": [
            {"name": "Ann"}, {"name": "Bo", "bot": true}, {"name": "Cy", "bot": true},
            {"name": "Di", "bot": true}]})))
        .await
        .unwrap();
    let token = created.seats[0].token.clone().unwrap();
    let c = browser.client.clone();
    let result = async {
        let tile = claim_with(|_| {})[1]["observation"]["on_offer"][1].clone();
        let missed = claim_with(|o| o["missed_wins"] = json!([tile.clone()]));
        let last = claim_with(|o| {
            o["live_wall"] = json!(0);
            o["legal_actions"] = json!(["win", "pass"]);
        });
        for (lang, catalogue) in CATALOGUES {
            let words: Value = serde_json::from_str(catalogue).unwrap();
            c.goto(&format!(
                "http://{addr}/?room={}&token={token}&lang={lang}",
                created.room
            ))
            .await
            .map_err(err)?;
            browser::wait_for(&c, "#waiting-room .wr-seat", 15).await?;
            for (name, msgs, css, key, win_button) in [
                (
                    "missed",
                    &missed,
                    ".missed-win-note",
                    "illegal.missed_win",
                    false,
                ),
                (
                    "last",
                    &last,
                    ".last-discard-note",
                    "table.last_discard_win_only",
                    true,
                ),
            ] {
                c.execute("window.majiangTable.feed(arguments[0])", vec![msgs.clone()])
                    .await
                    .map_err(err)?;
                browser::wait_for(&c, css, 15).await?;
                for (w, h) in SIZES {
                    set_viewport(&c, w, h).await?;
                    save_screenshot(&c, &format!("rules-{name}-{lang}-{w}x{h}")).await?;
                    let l = c.execute(NOTE, vec![json!(css)]).await.map_err(err)?;
                    let at = format!("{name} {lang} {w}×{h}");
                    assert_eq!(l["shown"], true, "{at}: the note shows");
                    assert_eq!(l["text"], words[key], "{at}: the catalogue's words");
                    assert_eq!(l["win_button"], win_button, "{at}: a win button");
                    let note = floats(&l["note"]);
                    let (vw, vh) = (l["width"].as_f64().unwrap(), l["height"].as_f64().unwrap());
                    assert!(
                        note[0] >= -0.5
                            && note[1] >= -0.5
                            && note[2] <= vw + 0.5
                            && note[3] <= vh + 0.5,
                        "{at}: the note {note:?} lies inside {vw}×{vh}"
                    );
                    for b in l["buttons"].as_array().unwrap() {
                        let b = floats(b);
                        assert!(
                            !overlaps(&note, &b),
                            "{at}: the note {note:?} overlaps a button {b:?}"
                        );
                    }
                }
                set_viewport(&c, 1366, 768).await?;
            }
        }
        Ok::<(), String>(())
    }
    .await;
    browser.close().await;
    result.unwrap();
}

/// The replay page of a match stored under rules revision 1 that met Hong Kong's missed win:
/// the catalogue's words with the move, the room's revision (1) and the current one, in each
/// language, inside a phone's viewport.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_replay_of_a_match_from_an_earlier_revision_names_both_revisions() {
    let Some(browser) = Browser::start("the earlier-rules replay test", 390, 844).await else {
        return;
    };
    let (addr, win_seq) = crate::rules_ws::serve_barred_win("beforerule", Some(1)).await;
    let c = browser.client.clone();
    let result = async {
        for (lang, catalogue) in CATALOGUES {
            let words: Value = serde_json::from_str(catalogue).unwrap();
            let told = words["replay.earlier_rules_missed_win"]
                .as_str()
                .unwrap()
                .replace("{action}", &win_seq.to_string())
                .replace("{revision}", "1")
                .replace("{current}", &RULES_REVISION.to_string());
            c.goto(&format!("http://{addr}/?replay=beforerule&lang={lang}"))
                .await
                .map_err(err)?;
            browser::wait_for(&c, "#replay-action[role=alert] a.back-to-lobby", 15).await?;
            save_screenshot(&c, &format!("rules-earlier-replay-{lang}-390x844")).await?;
            let l = c
                .execute(
                    "const e = document.querySelector('#replay-action'); const r = e.getBoundingClientRect();
                     return {text: e.textContent, box: [r.left, r.top, r.right, r.bottom], width: window.innerWidth};",
                    vec![],
                )
                .await
                .map_err(err)?;
            let text = l["text"].as_str().unwrap();
            // Chinese sets its numbers off with spaces (i18n.js `joinChinese`): compared
            // without them.
            let bare = |s: &str| match lang {
                "en" => s.to_string(),
                _ => s.replace(' ', ""),
            };
            assert!(
                bare(text).starts_with(&bare(&told)),
                "{lang}: {text:?} is not {told:?}"
            );
            let b = floats(&l["box"]);
            let width = l["width"].as_f64().unwrap();
            assert!(
                b[0] >= -0.5 && b[2] <= width + 0.5,
                "{lang}: the words {b:?} lie inside the width {width}"
            );
        }
        Ok::<(), String>(())
    }
    .await;
    browser.close().await;
    result.unwrap();
}

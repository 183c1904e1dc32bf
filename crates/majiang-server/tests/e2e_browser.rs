//! End to end in headless Chromium (through chromedriver and fantoccini): open the lobby,
//! create a room with three bots, open the seat, play a whole hand by clicking tiles and
//! buttons, and check what the page shows at the end.
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver`: when they are missing the test runs
//! `scripts/install-browser.sh` (apt-get) first; if that cannot install them (no root, no
//! network) the test says so loudly and passes without running.

mod common;

use fantoccini::{ClientBuilder, Locator};
use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

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
    let present =
        || std::path::Path::new(CHROMIUM).exists() && std::path::Path::new(CHROMEDRIVER).exists();
    if !present() {
        // The project installs what its tests need: on a fresh machine `cargo test` fetches the
        // browser itself (Debian packages; needs root or sudo).
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scripts/install-browser.sh"
        );
        let status = Command::new("bash").arg(script).status();
        eprintln!("install-browser.sh: {status:?}");
    }
    if !present() {
        eprintln!(
            "\n!!!!!!!! SKIPPED: the browser test needs {CHROMIUM} and {CHROMEDRIVER} \
             (run scripts/install-browser.sh) !!!!!!!!\n"
        );
        return;
    }
    let (_app, addr) = common::start_server().await;
    let port = free_port();
    let _driver = Driver(
        Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    let profile = std::env::temp_dir().join(format!("majiang-e2e-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": CHROMIUM,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--window-size=1400,1000",
                format!("--user-data-dir={}", profile.display()),
            ]
        }),
    );
    // chromedriver takes a moment to listen.
    let webdriver = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    let client = loop {
        let mut b = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
        b.capabilities(caps.clone());
        match b.connect(&webdriver).await {
            Ok(c) => break c,
            Err(e) if started.elapsed() < Duration::from_secs(20) => {
                let _ = e;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => panic!("no WebDriver session: {e}"),
        }
    };
    let result = play(&client, &format!("http://{addr}")).await;
    if let Ok(png) = client.screenshot().await {
        let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e-end.png");
        let _ = std::fs::write(&path, png);
        eprintln!("screenshot: {}", path.display());
    }
    let _ = client.close().await;
    let _ = std::fs::remove_dir_all(&profile);
    result.unwrap();
}

async fn play(c: &fantoccini::Client, base: &str) -> Result<(), String> {
    let err = |e: fantoccini::error::CmdError| e.to_string();
    c.goto(&format!("{base}/")).await.map_err(err)?;
    // The lobby: Hong Kong, seat 0 a person (the default), one hand, no bot pause.
    c.find(Locator::Css("#rules"))
        .await
        .map_err(err)?
        .select_by_value("hongkong")
        .await
        .map_err(err)?;
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
    assert_eq!(
        kinds,
        json!(["person", "efficient", "efficient", "efficient"])
    );
    c.find(Locator::Css("#create"))
        .await
        .map_err(err)?
        .click()
        .await
        .map_err(err)?;
    let link = c
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("a.seat-link"))
        .await
        .map_err(err)?;
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
                    // A picture of the first decision with buttons, for people to look at.
                    shot = true;
                    if let Ok(png) = c.screenshot().await {
                        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
                        let _ = std::fs::write(dir.join("e2e-buttons.png"), png);
                    }
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

    // The end-of-hand screen: a title, and a payment for each of the four players that sums to 0.
    let title = c
        .find(Locator::Css("#result-title"))
        .await
        .map_err(err)?
        .text()
        .await
        .map_err(err)?;
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
    let status = c
        .find(Locator::Css("#info"))
        .await
        .map_err(err)?
        .text()
        .await
        .map_err(err)?;
    assert!(status.contains("finished"), "{status}");

    // The replay viewer steps through the finished match with every hand open.
    c.find(Locator::Css(r#"a[href^="/?replay="]"#))
        .await
        .map_err(err)?
        .click()
        .await
        .map_err(err)?;
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
        .find_all(Locator::Css(
            "#replay-board .concealed img[src$='.svg']:not([src*='back'])",
        ))
        .await
        .map_err(err)?;
    assert!(
        open_tiles.len() >= 52,
        "every hand open: {} tiles",
        open_tiles.len()
    );
    c.find(Locator::Css("#replay-last"))
        .await
        .map_err(err)?
        .click()
        .await
        .map_err(err)?;
    let last = c
        .find(Locator::Css("#replay-pos"))
        .await
        .map_err(err)?
        .text()
        .await
        .map_err(err)?;
    let total = first
        .split(" / ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .unwrap_or("");
    assert!(
        last.starts_with(&format!("{total} / {total}")),
        "{first} -> {last}"
    );
    Ok(())
}

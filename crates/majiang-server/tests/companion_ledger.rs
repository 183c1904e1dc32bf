//! The ledger API of the table companion: start a table, record hands (scored wins and drawn
//! hands), running totals, the next dealer, wind and lao as the library's match step says,
//! the match end, undo, the CSV and JSON exports, refusals with the field at fault, and a
//! ledger still there after the server restarts on its database.

use crate::common;

use common::http;
use majiang_server::App;
use serde_json::{Value, json};
use std::net::SocketAddr;

async fn json_call(addr: SocketAddr, method: &str, path: &str, body: Value) -> (u16, Value) {
    let text = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    let (status, _, body) = http(addr, method, path, &text).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// A plain winning hand (no patterns beyond the base) for the winner at `seat`.
fn self_draw(seat: &str) -> Value {
    json!({"request": {"concealed": "123m456p789s1122z", "winning_tile": "2z",
        "win": "self_draw", "seat": seat}})
}

async fn start(addr: SocketAddr, body: Value) -> Value {
    let (status, view) = json_call(addr, "POST", "/api/ledgers", body).await;
    assert_eq!(status, 201, "{view}");
    view
}

#[tokio::test]
async fn a_hangzhou_evening_record_undo_totals_and_lao() {
    let (_app, addr) = common::start_server().await;
    let view = start(
        addr,
        json!({"rules": "hangzhou", "players": ["Ann", "Bo", "Cy", "Di"], "first_dealer": 1}),
    )
    .await;
    let id = view["id"].as_str().unwrap().to_string();
    assert_eq!(view["link"], format!("/ledger?id={id}"));
    assert_eq!(view["lao"], true);
    assert_eq!(view["next"]["deal"]["dealer"], 1);
    assert_eq!(
        view["next"]["seats"],
        json!(["north", "east", "south", "west"])
    );
    let hands = format!("/api/ledgers/{id}/hands");

    // Bo deals and wins by self-draw: Bo deals again at 2 lao.
    let (status, view) = json_call(addr, "POST", &hands, self_draw("east")).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["hands"][0]["winner"], 1);
    assert_eq!(view["next"]["deal"]["dealer"], 1);
    assert_eq!(view["next"]["deal"]["lao"], 2);
    assert_eq!(view["next"]["fixed"]["lao"], 2);
    let after_one: Vec<i64> = serde_json::from_value(view["totals"].clone()).unwrap();
    assert_eq!(after_one.iter().sum::<i64>(), 0);
    assert!(after_one[1] > 0);
    // The hand's answer is the library's, as scored with the ledger's facts filled in.
    let recorded = &view["hands"][0];
    let request = recorded["request"].to_string();
    assert_eq!(
        recorded["answer"],
        majiang::rules::score_json(&request).unwrap()
    );
    assert_eq!(recorded["request"]["lao"], 1);

    // Cy (south this hand) wins: Cy deals next at 1 lao.
    let (_, view) = json_call(addr, "POST", &hands, self_draw("south")).await;
    assert_eq!(view["next"]["deal"]["dealer"], 2);
    assert_eq!(view["next"]["deal"]["lao"], 1);
    assert_eq!(view["hands"][1]["winner"], 2);
    // A drawn hand: Cy keeps the deal at 2 lao, nobody pays.
    let (_, view) = json_call(addr, "POST", &hands, json!({"draw": true})).await;
    assert_eq!(view["hands"][2]["payments"], json!([0, 0, 0, 0]));
    assert_eq!(view["next"]["deal"]["dealer"], 2);
    assert_eq!(view["next"]["deal"]["lao"], 2);
    assert_eq!(view["next"]["number"], 4);
    let totals = view["totals"].clone();
    assert_eq!(view["hands"][2]["totals"], totals);

    // Undo takes the drawn hand back, then Cy's win.
    let last = format!("/api/ledgers/{id}/hands/last");
    let (status, view) = json_call(addr, "DELETE", &last, Value::Null).await;
    assert_eq!(status, 200);
    assert_eq!(view["hands"].as_array().unwrap().len(), 2);
    assert_eq!(view["totals"], totals);
    let (_, view) = json_call(addr, "DELETE", &last, Value::Null).await;
    assert_eq!(view["totals"], json!(after_one));
    assert_eq!(view["next"]["deal"]["lao"], 2);

    // Reachable again by its link.
    let (status, again) = json_call(addr, "GET", &format!("/api/ledgers/{id}"), Value::Null).await;
    assert_eq!(status, 200);
    assert_eq!(again["totals"], view["totals"]);
    let (status, _, page) = http(addr, "GET", &format!("/ledger?id={id}"), "").await;
    assert_eq!(status, 200);
    assert!(page.contains("/js/ledger.js"));
}

#[tokio::test]
async fn hong_kong_winds_move_on_and_the_match_ends_after_the_north_wind() {
    let (_app, addr) = common::start_server().await;
    let view = start(
        addr,
        json!({"rules": "hongkong", "options": {"min_fan": 0}, "players": ["A", "B", "C", "D"]}),
    )
    .await;
    let id = view["id"].as_str().unwrap().to_string();
    let hands = format!("/api/ledgers/{id}/hands");
    // A drawn hand keeps the deal in Hong Kong.
    let (_, view) = json_call(addr, "POST", &hands, json!({"draw": true})).await;
    assert_eq!(view["next"]["deal"]["dealer"], 0);
    // South wins every hand: the deal passes each time; after four passes the South wind.
    let mut view = view;
    for n in 0..4 {
        let (status, v) = json_call(addr, "POST", &hands, self_draw("south")).await;
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["next"]["deal"]["dealer"], (n + 1) % 4);
        view = v;
    }
    assert_eq!(view["next"]["deal"]["prevailing_wind"], "south");
    assert_eq!(view["next"]["fixed"]["prevailing_wind"], "south");
    // A request that says another wind is refused, naming the field.
    let mut wrong = self_draw("south");
    wrong["request"]["prevailing_wind"] = json!("east");
    let (status, body) = json_call(addr, "POST", &hands, wrong).await;
    assert_eq!(status, 400);
    assert_eq!(body["field"], "request.prevailing_wind");
    for _ in 0..12 {
        let (status, v) = json_call(addr, "POST", &hands, self_draw("south")).await;
        assert_eq!(status, 200, "{v}");
        view = v;
    }
    assert_eq!(view["ended"], "deal_rounds");
    assert!(view["next"].is_null());
    let (status, body) = json_call(addr, "POST", &hands, json!({"draw": true})).await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("over"), "{body}");
}

#[tokio::test]
async fn exports_csv_and_json() {
    let (_app, addr) = common::start_server().await;
    let view = start(
        addr,
        json!({"rules": "hangzhou", "players": ["Ann, the host", "Bo", "Cy", "Di"]}),
    )
    .await;
    let id = view["id"].as_str().unwrap().to_string();
    let hands = format!("/api/ledgers/{id}/hands");
    json_call(addr, "POST", &hands, self_draw("west")).await;
    let (_, view) = json_call(addr, "POST", &hands, json!({"draw": true})).await;

    let (status, head, csv) = http(addr, "GET", &format!("/api/ledgers/{id}/export.csv"), "").await;
    assert_eq!(status, 200);
    assert!(head.contains("text/csv"), "{head}");
    assert!(head.contains("attachment"), "{head}");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(
        lines[0]
            .starts_with("hand,dealer,wind,lao,winner,win,total,\"Ann, the host paid\",Bo paid"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("1,\"Ann, the host\",east,1,Cy,self_draw,1,"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with("2,Cy,east,1,draw,,,0,0,0,0,"),
        "{}",
        lines[2]
    );
    let totals: Vec<String> = view["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.to_string())
        .collect();
    assert!(lines[2].ends_with(&totals.join(",")), "{}", lines[2]);

    let (status, head, json) =
        http(addr, "GET", &format!("/api/ledgers/{id}/export.json"), "").await;
    assert_eq!(status, 200);
    assert!(head.contains("application/json"));
    let exported: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(exported, view);
}

#[tokio::test]
async fn refusals_name_the_field() {
    let (_app, addr) = common::start_server().await;
    for (body, field) in [
        (
            json!({"rules": "riichi", "players": ["A", "B", "C", "D"]}),
            "rules",
        ),
        (
            json!({"rules": "hongkong", "players": ["A", "B", "C"]}),
            "players",
        ),
        (
            json!({"rules": "hongkong", "players": ["A", "B", "", "D"]}),
            "players[2]",
        ),
        (
            json!({"rules": "hongkong", "players": ["A", "B", "C", "D"], "options": {"min_fan": "x"}}),
            "options",
        ),
        (
            json!({"rules": "hongkong", "players": ["A", "B", "C", "D"], "first_dealer": 4}),
            "first_dealer",
        ),
        (
            json!({"rules": "hongkong", "players": ["A", "B", "C", "D"], "first_lao": 3}),
            "first_lao",
        ),
        (json!({"rules": "hongkong"}), "ledger"),
    ] {
        let (status, answer) = json_call(addr, "POST", "/api/ledgers", body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["field"], field, "{body}: {answer}");
        assert!(!answer["error"].as_str().unwrap().is_empty());
    }
    let view = start(
        addr,
        json!({"rules": "yangzhou", "players": ["A", "B", "C", "D"]}),
    )
    .await;
    let id = view["id"].as_str().unwrap();
    let hands = format!("/api/ledgers/{id}/hands");
    for (body, field) in [
        (
            json!({"request": {"concealed": "123m", "winning_tile": "2z", "win": "self_draw"}}),
            "request",
        ),
        (
            json!({"request": {"concealed": "123m456p789s1122z", "winning_tile": "9x", "win": "self_draw"}}),
            "request",
        ),
        (
            json!({"request": {"rules": "hongkong", "concealed": "123m456p789s1122z", "winning_tile": "2z", "win": "self_draw"}}),
            "request.rules",
        ),
        (json!({"draw": false}), "hand"),
        (json!([1, 2]), "hand"),
    ] {
        let (status, answer) = json_call(addr, "POST", &hands, body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["field"], field, "{body}: {answer}");
    }
    let (status, answer) = json_call(addr, "DELETE", &format!("{hands}/last"), Value::Null).await;
    assert_eq!(status, 400);
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("nothing to undo")
    );
    let (status, _) = json_call(addr, "GET", "/api/ledgers/nope", Value::Null).await;
    assert_eq!(status, 404);
    let (status, _) = json_call(
        addr,
        "POST",
        "/api/ledgers/nope/hands",
        json!({"draw": true}),
    )
    .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_ledger_survives_a_restart_on_its_database() {
    let dir = std::env::temp_dir().join(format!("majiang-ledger-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("ledger.sqlite");
    let _ = std::fs::remove_file(&db);
    let serve = |app: App| async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            majiang_server::serve(listener, app, std::future::pending())
                .await
                .unwrap();
        });
        addr
    };
    let addr = serve(App::open(&db).await.unwrap()).await;
    let view = start(
        addr,
        json!({"rules": "classic", "players": ["A", "B", "C"]}),
    )
    .await;
    let id = view["id"].as_str().unwrap().to_string();
    assert_eq!(view["options"]["players"], 3);
    let (_, view) = json_call(
        addr,
        "POST",
        &format!("/api/ledgers/{id}/hands"),
        json!({"draw": true}),
    )
    .await;
    let addr = serve(App::open(&db).await.unwrap()).await;
    let (status, again) = json_call(addr, "GET", &format!("/api/ledgers/{id}"), Value::Null).await;
    assert_eq!(status, 200);
    assert_eq!(again, view);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An open `GET /api/ledgers/{id}/live` stream, read by hand: one `ledger` event at a time.
struct LiveStream {
    socket: tokio::net::TcpStream,
    buffer: String,
}

impl LiveStream {
    async fn open(addr: SocketAddr, id: &str) -> LiveStream {
        use tokio::io::AsyncWriteExt;
        let mut socket = tokio::net::TcpStream::connect(addr).await.unwrap();
        let req = format!(
            "GET /api/ledgers/{id}/live HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        );
        socket.write_all(req.as_bytes()).await.unwrap();
        LiveStream {
            socket,
            buffer: String::new(),
        }
    }

    /// The next `ledger` event's data, within five seconds.
    async fn next(&mut self) -> Value {
        use tokio::io::AsyncReadExt;
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
        loop {
            if let Some(at) = self.buffer.find("event: ledger\n") {
                let rest = &self.buffer[at..];
                if let Some(end) = rest.find("\n\n") {
                    let event = rest[..end].to_string();
                    self.buffer = rest[end + 2..].to_string();
                    let data = event
                        .lines()
                        .find_map(|l| l.strip_prefix("data: "))
                        .expect("a data line");
                    return serde_json::from_str(data).expect("the ledger as JSON");
                }
            }
            let mut chunk = [0u8; 4096];
            let n = tokio::time::timeout_at(deadline, self.socket.read(&mut chunk))
                .await
                .expect("a ledger event within five seconds")
                .unwrap();
            assert!(n > 0, "the stream stayed open");
            // Chunked transfer: the sizes sit on lines of their own between the event lines.
            self.buffer.push_str(&String::from_utf8_lossy(&chunk[..n]));
            self.buffer = self.buffer.replace("\r\n", "\n");
        }
    }
}

#[tokio::test]
async fn a_ledger_open_elsewhere_updates_live() {
    let (_app, addr) = common::start_server().await;
    let view = start(
        addr,
        json!({"rules": "hongkong", "players": ["Ann", "Bo", "Cy", "Di"]}),
    )
    .await;
    let id = view["id"].as_str().unwrap().to_string();
    // Two phones have the ledger open.
    let mut first = LiveStream::open(addr, &id).await;
    let mut second = LiveStream::open(addr, &id).await;
    assert_eq!(first.next().await["hands"], json!([]));
    assert_eq!(second.next().await["hands"], json!([]));
    // A third records a hand: both see it without reloading, totals and all.
    let (status, after) = json_call(
        addr,
        "POST",
        &format!("/api/ledgers/{id}/hands"),
        json!({"draw": true}),
    )
    .await;
    assert_eq!(status, 200, "{after}");
    for phone in [&mut first, &mut second] {
        let seen = phone.next().await;
        assert_eq!(seen["hands"].as_array().map(Vec::len), Some(1));
        assert_eq!(seen["totals"], after["totals"]);
    }
    // An undo reaches them too.
    let (status, _) = json_call(
        addr,
        "DELETE",
        &format!("/api/ledgers/{id}/hands/last"),
        Value::Null,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(first.next().await["hands"], json!([]));
    // No such ledger: 404, not an empty stream.
    let (status, _, _) = http(addr, "GET", "/api/ledgers/nope/live", "").await;
    assert_eq!(status, 404);
}

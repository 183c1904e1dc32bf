//! Split brain, with real processes on a real PostgreSQL: the owner A of a room is frozen
//! (SIGSTOP) longer than its lease while its player's discard waits in A's socket; B takes the
//! room over; A is thawed (SIGCONT) and reads the discard. A must not store it nor acknowledge
//! it (its lease is fenced), the store must hold no action A wrote after its lease ended, and B
//! must play the match on to its end. Skipped loudly when PostgreSQL is not installed.

use crate::common::serve::{signal, start_node, wait_stopped};
use majiang_testkit::net::http;
use majiang_testkit::pg as pg_cluster;

use futures_util::{SinkExt, StreamExt};
use majiang::table::Action;
use majiang_server::protocol::{ClientMsg, ServerMsg};
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

const LEASE_MS: u64 = 1500;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The next protocol message on `ws` (within 20 s); `None` once the connection closed.
async fn next_msg(ws: &mut Ws) -> Option<ServerMsg> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("a message within 20 s")?
            .ok()?;
        if let Message::Text(text) = msg {
            return Some(serde_json::from_str(text.as_str()).unwrap());
        }
    }
}

async fn send(ws: &mut Ws, msg: &ClientMsg) {
    let text = serde_json::to_string(msg).unwrap();
    ws.send(Message::text(text)).await.unwrap();
}

/// The legal actions a state offers (none for any other message).
fn legal(m: &ServerMsg) -> &[Action] {
    match m {
        ServerMsg::State {
            observation: Some(o),
            ..
        } => &o.legal_actions,
        _ => &[],
    }
}

/// Reads until a state offering the person an action; returns it.
async fn until_my_move(ws: &mut Ws) -> ServerMsg {
    loop {
        let m = next_msg(ws).await.expect("the connection stays open");
        if !legal(&m).is_empty() {
            return m;
        }
        assert!(
            !matches!(m, ServerMsg::MatchOver { .. }),
            "the match ended too soon"
        );
    }
}

/// The first legal action, preferring a win (so the match moves on).
fn choose(state: &ServerMsg) -> Action {
    let legal = legal(state);
    if legal.contains(&Action::Win) {
        Action::Win
    } else {
        legal[0]
    }
}

/// Plays the person's seat to the end of the match; returns the number of acks.
async fn play_to_end(ws: &mut Ws, mut seq: u64) -> u64 {
    let mut acks = 0;
    loop {
        let m = next_msg(ws).await.expect("the connection stays open");
        match &m {
            ServerMsg::MatchOver { .. } => return acks,
            ServerMsg::Ack { .. } => acks += 1,
            ServerMsg::HandResult { .. } => send(ws, &ClientMsg::Continue {}).await,
            ServerMsg::State { .. } if !legal(&m).is_empty() => {
                seq += 1;
                let action = choose(&m);
                send(ws, &ClientMsg::Action { seq, action }).await;
            }
            _ => {}
        }
    }
}

#[test]
fn a_thawed_owner_stores_nothing_and_the_new_owner_plays_on() {
    let Some(cluster) = pg_cluster::PgCluster::start() else {
        return;
    };
    let db = cluster.database("split_brain");
    let (mut a_proc, a) = start_node(&db, LEASE_MS);
    let (mut b_proc, b) = start_node(&db, LEASE_MS);
    // One person and three bots: the room waits for the person, so B has nothing to write
    // after it takes over, and a write A slipped in would be the only one at its position.
    let config = json!({
        "rules": "hongkong", "hands": 1,
        "seats": [{"name": "p"}, {"name": "x", "bot": true}, {"name": "y", "bot": true}, {"name": "z", "bot": true}],
        "autostart": true
    });
    let (status, body) = http(a, "POST", "/api/rooms", &config.to_string());
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let id = created["room"].as_str().unwrap().to_string();
    let token = created["seats"][0]["token"].as_str().unwrap().to_string();

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let store = majiang_server::store::open(&db).await.unwrap();
        let (mut ws_a, _) =
            tokio_tungstenite::connect_async(format!("ws://{a}/ws/{id}?token={token}"))
                .await
                .unwrap();
        let state = until_my_move(&mut ws_a).await;
        let lease_a = store.lease(&id).await.unwrap().unwrap();
        assert_eq!(lease_a.url, format!("http://{a}"));
        let stored_before = store.actions(&id).await.unwrap().len();

        // A freezes; the person's move waits in its socket.
        signal(a_proc.id(), "-STOP");
        wait_stopped(a_proc.id());
        let frozen = Instant::now();
        let discard = ClientMsg::Action {
            seq: 1,
            action: choose(&state),
        };
        send(&mut ws_a, &discard).await;

        // B takes the room over once A's lease has run out.
        let taken = loop {
            let lease = store.lease(&id).await.unwrap().unwrap();
            if lease.url == format!("http://{b}") {
                break lease;
            }
            assert!(
                frozen.elapsed() < Duration::from_millis(4 * LEASE_MS),
                "B did not take the room over"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert!(taken.epoch > lease_a.epoch, "a takeover takes a new epoch");
        let took_after = frozen.elapsed();
        // Leave A frozen well past its lease, then thaw it: it reads the discard.
        tokio::time::sleep(Duration::from_millis(LEASE_MS)).await;
        signal(a_proc.id(), "-CONT");
        let thawed = Instant::now();

        // A answers the discard without an ack, and drops the connection once its lease
        // round sees the room is gone.
        let mut acked_by_a = 0;
        let mut messages_from_a = Vec::new();
        while let Ok(Some(Ok(msg))) =
            tokio::time::timeout(Duration::from_secs(5), ws_a.next()).await
        {
            if let Message::Text(t) = msg {
                let m: ServerMsg = serde_json::from_str(t.as_str()).unwrap();
                if matches!(m, ServerMsg::Ack { .. }) {
                    acked_by_a += 1;
                }
                let name = serde_json::to_value(&m).unwrap()["type"].clone();
                messages_from_a.push(name.as_str().unwrap_or("").to_string());
            }
        }
        let closed_after = thawed.elapsed();
        assert_eq!(
            acked_by_a, 0,
            "A acknowledged after its lease ended: {messages_from_a:?}"
        );
        // The store holds nothing A wrote after its lease ended.
        let stored_after = store.actions(&id).await.unwrap().len();
        assert_eq!(stored_after, stored_before, "A wrote after its lease ended");

        // B goes on: the person reconnects there and the match ends.
        let (mut ws_b, _) =
            tokio_tungstenite::connect_async(format!("ws://{b}/ws/{id}?token={token}"))
                .await
                .unwrap();
        let acks_b = play_to_end(&mut ws_b, 1).await;
        assert!(acks_b >= 1, "B acknowledged the person's moves");
        let actions = store.actions(&id).await.unwrap();
        for (n, x) in actions.iter().enumerate() {
            assert_eq!(x.seq, n as u64, "no gaps");
        }
        eprintln!(
            "split brain: B took over {took_after:?} after A froze (lease {LEASE_MS} ms); \
             A dropped the connection {closed_after:?} after the thaw with 0 acks \
             ({messages_from_a:?}); {} actions stored before the freeze, {} at the end",
            stored_before,
            actions.len()
        );
    });
    for p in [&mut a_proc, &mut b_proc] {
        p.kill();
    }
}

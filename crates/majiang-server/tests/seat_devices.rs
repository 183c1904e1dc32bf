//! One seat, several devices, over real WebSockets: a connection that gives another device id
//! (`?device=`) takes the seat, the first is told (`taken_over`) and closed, and takes it back
//! by connecting again; the same device resumes; connections without a device id share the
//! seat as before; a malformed device id is refused.

use crate::common;

use common::{Client, config, start_server};
use majiang_server::protocol::{RoomStatus, ServerMsg};
use majiang_testkit::client::ws_url;
use serde_json::json;

/// Ann's seat opened from `device` (none: a client that gives no device id).
async fn ann_on(
    addr: std::net::SocketAddr,
    room: &str,
    token: &str,
    device: Option<&str>,
) -> Client {
    let url = ws_url(addr, room, Some(token), true);
    let url = match device {
        Some(d) => format!("{url}&device={d}"),
        None => url,
    };
    let mut c = Client::connect_url(&url).await;
    assert_eq!(c.welcome().await, Some(0));
    c.state_where(|m| common::status(m) == Some(RoomStatus::Playing))
        .await;
    c
}

/// Reads `c` until it is told the seat plays elsewhere; then the connection must close.
async fn told_taken_over(c: &mut Client) {
    c.until(|m| matches!(m, ServerMsg::TakenOver {})).await;
    while let Some(m) = c.recv().await {
        assert!(
            !matches!(m, ServerMsg::State { .. } | ServerMsg::StateDelta(_)),
            "no state after taken_over: {m:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_opened_with_another_device_id_moves_there() {
    let (app, addr) = start_server().await;
    let created = app
        .create_room(config(
            json!({"rules": "hongkong", "hands": 1, "autostart": true}),
        ))
        .await
        .unwrap();
    let (room, ann) = (
        created.room.clone(),
        created.seats[0].token.clone().unwrap(),
    );
    let mut phone = ann_on(addr, &room, &ann, Some("phone-1")).await;
    let mut cli = ann_on(addr, &room, &ann, None).await;
    let mut laptop = ann_on(addr, &room, &ann, Some("laptop-1")).await;
    told_taken_over(&mut phone).await;
    // The laptop reloads: the same device resumes, nobody is told.
    let mut laptop2 = ann_on(addr, &room, &ann, Some("laptop-1")).await;
    // The phone takes it back: both of the laptop's connections are told.
    let mut phone2 = ann_on(addr, &room, &ann, Some("phone-1")).await;
    told_taken_over(&mut laptop).await;
    told_taken_over(&mut laptop2).await;
    // The client without a device id shared the seat all along: it still gets states.
    cli.sync().await;
    cli.state().await;
    phone2.sync().await;
    phone2.state().await;
    // A device id that is not 1 to 64 letters, digits, - or _ is refused before the upgrade.
    use tokio_tungstenite::tungstenite::Error;
    for device in ["x".repeat(65), "a%20b".into(), "%C3%A9".into()] {
        let url = format!("{}&device={device}", ws_url(addr, &room, Some(&ann), true));
        let answer = match tokio_tungstenite::connect_async(&url).await {
            Err(Error::Http(answer)) => answer,
            Err(e) => panic!("{device}: {e}"),
            Ok(_) => panic!("{device}: opened"),
        };
        assert_eq!(answer.status(), 400, "{device}");
        let body: serde_json::Value =
            serde_json::from_slice(answer.body().as_deref().unwrap_or_default()).unwrap();
        assert_eq!(body["key"], "api.bad_device", "{device}: {body}");
    }
}

//! A seat's link open twice (a second device, or a newer socket of the same page): the newest
//! connection plays the seat, the older is told `seat_taken` and watches (its state a
//! spectator's, its actions refused); opening the link again there takes the seat back. A
//! late friend's key after "start now with bots" is welcomed as a watcher told which seat a
//! bot holds (`bot_holds`).

use crate::common;

use common::{Client, config, legal, start_server};
use majiang_server::protocol::{ClientMsg, ServerMsg};
use serde_json::json;

fn seat_taken(m: &ServerMsg) -> bool {
    matches!(m, ServerMsg::SeatTaken { seat: 0 })
}

/// The concealed tiles a state shows its viewer.
fn concealed(m: &ServerMsg) -> usize {
    match m {
        ServerMsg::State {
            observation: Some(obs),
            ..
        } => obs.concealed.len(),
        _ => 0,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_newest_connection_plays_the_seat_and_the_older_is_told() {
    let (app, addr) = start_server().await;
    let created = app
        .create_room(config(json!({
            "rules": "hongkong", "autostart": true, "bot_delay_ms": 0
        })))
        .await
        .unwrap();
    let token = created.seats[0].token.clone().unwrap();
    let mut phone = Client::connect_whole(addr, &created.room, Some(&token)).await;
    assert_eq!(phone.welcome().await, Some(0));
    let turn = phone.state_where(|m| !legal(m).is_empty()).await;
    assert!(concealed(&turn) >= 13, "the phone sees its hand");

    let mut laptop = Client::connect_whole(addr, &created.room, Some(&token)).await;
    assert_eq!(laptop.welcome().await, Some(0));
    phone.until(seat_taken).await;
    // The phone watches now: a spectator's state, no hand, no decision; an action refused.
    let watching = phone.state().await;
    assert_eq!(concealed(&watching), 0, "{watching:?}");
    assert!(legal(&watching).is_empty());
    let seq = phone.act(legal(&turn)[0]).await;
    assert_eq!(
        phone.error().await.0,
        Some(seq),
        "the phone's action is refused"
    );
    // The laptop plays the seat.
    let turn = laptop.state_where(|m| !legal(m).is_empty()).await;
    assert!(concealed(&turn) >= 13);
    let seq = laptop.act(legal(&turn)[0]).await;
    laptop
        .until(|m| matches!(m, ServerMsg::Ack { seq: s } if *s == seq))
        .await;

    // The link opened again on the phone takes the seat back.
    let mut phone = Client::connect_whole(addr, &created.room, Some(&token)).await;
    assert_eq!(phone.welcome().await, Some(0));
    laptop.until(seat_taken).await;
    let back = phone.state().await;
    assert!(concealed(&back) >= 13, "the phone sees its hand again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_friends_key_is_told_which_seat_a_bot_holds() {
    let (app, addr) = start_server().await;
    let created = app
        .create_room(config(json!({
            "rules": "hongkong", "bot_delay_ms": 0,
            "seats": [{"name": "Ann"}, {"name": "Bo"}, {"name": "Bot 2", "bot": true}, {"name": "Bot 3", "bot": true}]
        })))
        .await
        .unwrap();
    let ann = created.seats[0].token.clone().unwrap();
    let bo = created.seats[1].token.clone().unwrap();
    let mut a = Client::connect_whole(addr, &created.room, Some(&ann)).await;
    assert_eq!(a.welcome().await, Some(0));
    a.send(&ClientMsg::Start { fill_bots: true }).await;
    a.state_where(|m| common::status(m) == Some(majiang_server::protocol::RoomStatus::Playing))
        .await;
    let mut b = Client::connect_whole(addr, &created.room, Some(&bo)).await;
    match b.until(|m| matches!(m, ServerMsg::Welcome { .. })).await {
        ServerMsg::Welcome {
            seat, bot_holds, ..
        } => assert_eq!((seat, bot_holds), (None, Some(1))),
        _ => unreachable!(),
    }
    // Ann's own welcome names no bot.
    let mut a2 = Client::connect_whole(addr, &created.room, Some(&ann)).await;
    match a2.until(|m| matches!(m, ServerMsg::Welcome { .. })).await {
        ServerMsg::Welcome {
            seat, bot_holds, ..
        } => assert_eq!((seat, bot_holds), (Some(0), None)),
        _ => unreachable!(),
    }
}

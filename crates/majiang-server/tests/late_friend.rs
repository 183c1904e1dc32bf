//! A late friend's key after "start now with bots" is welcomed as a watcher told which seat a
//! bot holds (`bot_holds`); the seat's own key is not.

use crate::common;

use common::{Client, config, start_server};
use majiang_server::protocol::{ClientMsg, ServerMsg};
use serde_json::json;

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

//! The server's own costs per action, without the network: writing an action to the SQLite log
//! (WAL, a file on disk), one observation as JSON (sent to each seat after every change), and a
//! tile picture.
//!
//! `cargo bench -p majiang-server --bench server`.

use criterion::{Criterion, criterion_group, criterion_main};
use majiang::table::{Action, Game, HandSetup, Player, TableRules};
use majiang_server::protocol::{RoomConfig, RoomStatus};
use majiang_server::store::{StoredAction, StoredRoom};
use majiang_server::{SqliteStore, Store};
use std::hint::black_box;
use std::sync::Arc;

fn bench(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("majiang-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let store = SqliteStore::open(&dir.join("bench.sqlite")).unwrap();
    // The store is async: each call is a job for the SQLite writer thread, answered once
    // committed (alone here: one caller at a time, so a commit per write).
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let room = StoredRoom {
        id: "bench".into(),
        config: RoomConfig::default(),
        tokens: vec![None; 4],
        seed: 1,
        status: RoomStatus::Playing,
        created: 0,
        finished: None,
        rules_revision: Some(majiang::table::log::RULES_REVISION),
    };
    rt.block_on(store.create_room(&room)).unwrap();
    let mut seq = 0u64;
    let discard = Action::Discard("5m".parse().unwrap());
    c.bench_function("store one action (SQLite WAL commit)", |b| {
        b.iter(|| {
            let a = StoredAction {
                seq,
                player: Player(1),
                action: discard,
            };
            seq += 1;
            rt.block_on(store.append_action("bench", black_box(&a), None))
                .unwrap();
        })
    });

    let rules = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
    let (game, _) = Game::new(rules, HandSetup::new(3)).unwrap();
    let p = game.to_act().next().unwrap();
    c.bench_function("observation as JSON (one seat)", |b| {
        b.iter(|| serde_json::to_string(&game.observation(black_box(p))).unwrap())
    });
    let tile = "5p".parse().unwrap();
    c.bench_function("tile picture (SVG)", |b| {
        b.iter(|| majiang_server::svg::tile_svg(black_box(tile)))
    });
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! The server's integration tests, one test binary (one build and link instead of one per
//! file, each linking the server's dependencies: CI's time). Each file of this folder is a
//! module here; `every_file_is_a_module` keeps a new file from being left out silently
//! (`autotests = false` in Cargo.toml).

mod common;

mod bot_cpu;
mod chinese_words;
mod companion_browser;
mod companion_ledger;
mod companion_score;
mod drawer_browser;
mod e2e_browser;
mod e2e_cluster;
mod evening;
mod finished_flood;
mod finished_ws;
mod hint_busy_browser;
mod hints_ws;
mod http_api;
mod i18n_catalogues;
mod invite_cue_browser;
mod late_friend;
mod limits;
mod lobby_timers_browser;
mod match_length;
mod operations;
mod outside_bots;
mod phone_browser;
mod phone_items_browser;
mod review_api;
mod review_browser;
mod rules_browser;
mod rules_ws;
mod said_keys;
mod seat_browser;
mod seat_devices;
mod slow_clients;
mod state_delta;
mod store_suite;
mod sweeper_writes;
mod table_screens;
mod timing_tells;
mod web_assets_browser;
mod words_browser;
mod ws_matches;

/// Every `.rs` file beside this one is declared above: with `autotests = false` cargo builds
/// only this binary, so a file nobody declares would never run.
#[test]
fn every_file_is_a_module() {
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    majiang_testkit::assert_every_test_file_declared(&tests, include_str!("main.rs"));
}

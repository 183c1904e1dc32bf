//! The command line's integration tests, one test binary (one build and link instead of one
//! per file: CI's time). Each file of this folder is a module here; `every_file_is_a_module`
//! keeps a new file from being left out silently (`autotests = false` in Cargo.toml).

mod common;

mod analyze;
mod batch;
mod cluster_ops;
mod companion_score_cli;
mod db_outage;
mod external_bots;
mod failover;
mod packaging;
mod pipe;
mod play;
mod release;
mod replay;
mod review;
mod score;
mod serve_logs;
mod serve_restart;
mod serve_timers;
mod sim;
mod split_brain;

/// Every `.rs` file beside this one is declared above: with `autotests = false` cargo builds
/// only this binary, so a file nobody declares would never run.
#[test]
fn every_file_is_a_module() {
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    majiang_testkit::assert_every_test_file_declared(&tests, include_str!("main.rs"));
}

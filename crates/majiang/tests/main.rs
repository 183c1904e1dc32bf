//! The library's integration tests, one test binary (one build and link instead of one per
//! file: CI's time). Each file of this folder is a module here; `every_file_is_a_module` keeps
//! a new file from being left out silently (`autotests = false` in Cargo.toml).

mod analysis_props;
mod architecture;
mod bot_protocol;
mod bots;
mod engine_classic56;
mod engine_fuzz;
mod engine_last_discard;
mod engine_log;
mod engine_match;
mod engine_missed_win;
mod engine_rules;
mod legal_set;
mod parser_fuzz;
mod recorded_logs;
mod recorded_logs_r2;
mod scoring_cases;
mod session;

/// Every `.rs` file beside this one is declared above: with `autotests = false` cargo builds
/// only this binary, so a file nobody declares would never run.
#[test]
fn every_file_is_a_module() {
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    majiang_testkit::assert_every_test_file_declared(&tests, include_str!("main.rs"));
}

//! The project's test kit, one dev-dependency for every crate's tests:
//!
//! - [`cases`]: the hand-worked scoring case files of `crates/majiang/tests/data/`, loaded,
//!   compared with an answer and checked as a whole (the library's, the CLI's and the server's
//!   scoring tests run the same files through their own interface);
//! - [`engine`]: small helpers for the engine's tests, and [`observation`], the observation
//!   model that rebuilds each seat's view from the events it saw;
//! - [`scenario`]: seeded matches of seats passing every win, played until Hong Kong's missed
//!   win or the last discard is met, for the tests that show those rules through an interface;
//! - [`net`]: a free loopback port and a plain HTTP request, for tests of `majiang serve`;
//! - `pg` (feature `pg`): a throw-away PostgreSQL cluster on loopback;
//! - `browser` (feature `browser`): headless Chromium through chromedriver, viewports and
//!   screenshots; `browser_mobile`, phones and tablets emulated (touch, a phone's user agent,
//!   each screen size in turn in one session);
//! - `client` (feature `client`): a WebSocket client speaking the game server's own protocol
//!   types (`majiang_server::protocol`'s `ClientMsg` and `ServerMsg`).
//!
//! **Required in CI.** A test that needs PostgreSQL or Chromium skips loudly on a developer's
//! machine that lacks them, but fails when the environment variable `CI` is set (as `.ci/run`
//! and CI do): [`require`] decides.

pub mod cases;
pub mod engine;
pub mod net;
pub mod observation;
pub mod oracle;
pub mod scenario;

#[cfg(feature = "browser")]
pub mod browser;
#[cfg(feature = "browser")]
pub mod browser_mobile;
#[cfg(feature = "client")]
pub mod client;
#[cfg(feature = "pg")]
pub mod pg;

/// True when missing test tools must fail the test rather than skip it: the environment
/// variable `CI` is set to anything but `""`, `0` or `false`.
pub fn required() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// A test cannot run here because `what` is missing (`how` says how to install it): under CI
/// ([`required`]) this panics, failing the test; elsewhere it prints a loud notice and returns,
/// and the caller skips.
pub fn require(what: &str, how: &str) {
    if required() {
        panic!("{what} is missing and CI is set, so this test fails instead of skipping ({how})");
    }
    eprintln!("\n!!!!!!!! SKIPPED: {what} is missing ({how}) !!!!!!!!\n");
}

/// Checks that every `.rs` file in `tests_dir` (a crate's `tests/` folder, whose one test
/// binary is `tests/main.rs` under `autotests = false`) is declared as `mod NAME;` in
/// `main_rs`, the text of that `main.rs`: a file nobody declares would never be built or run.
/// Panics naming the first file left out.
pub fn assert_every_test_file_declared(tests_dir: &std::path::Path, main_rs: &str) {
    let declared: Vec<&str> = main_rs
        .lines()
        .filter_map(|l| l.trim().strip_prefix("mod ")?.strip_suffix(';'))
        .collect();
    let entries = std::fs::read_dir(tests_dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", tests_dir.display()));
    for entry in entries {
        let name = entry.expect("a directory entry").file_name();
        let name = name.to_string_lossy();
        if let Some(module) = name.strip_suffix(".rs") {
            assert!(
                module == "main" || declared.contains(&module),
                "{}/{name} is not declared in main.rs: its tests would never run",
                tests_dir.display()
            );
        }
    }
}

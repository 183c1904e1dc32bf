//! `majiang play` as a person uses it: the real binary in a pseudo-terminal, the screen read
//! with a terminal emulator (vt100), keys typed until the hand ends.

mod log;

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

const ROWS: u16 = 40;
const COLS: u16 = 120;

/// The game running in a pseudo-terminal.
struct Session {
    parser: vt100::Parser,
    output: Receiver<Vec<u8>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    master: Box<dyn portable_pty::MasterPty + Send>,
    /// Everything the program wrote, for checks on the raw escape sequences.
    raw: Vec<u8>,
    closed: bool,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        Session::start_with(args, &[])
    }

    fn start_with(args: &[&str], env: &[(&str, &str)]) -> Session {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("open a pseudo-terminal");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_majiang"));
        cmd.args(args);
        cmd.env("TERM", "xterm-256color");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = pty.slave.spawn_command(cmd).expect("start majiang");
        drop(pty.slave);
        let mut reader = pty.master.try_clone_reader().expect("pty reader");
        let writer = pty.master.take_writer().expect("pty writer");
        let (tx, rx) = channel();
        let master = pty.master;
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            loop {
                match reader.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if tx.send(buf[..n].to_vec()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Session {
            parser: vt100::Parser::new(ROWS, COLS, 0),
            output: rx,
            writer,
            child,
            master,
            raw: Vec::new(),
            closed: false,
        }
    }

    fn screen(&self) -> String {
        self.parser.screen().contents()
    }

    /// Reads output for up to `wait`; true if anything arrived.
    fn pump(&mut self, wait: Duration) -> bool {
        match self.output.recv_timeout(wait) {
            Ok(bytes) => {
                self.take(&bytes);
                // Drain whatever else is already there.
                while let Ok(more) = self.output.try_recv() {
                    self.take(&more);
                }
                true
            }
            Err(RecvTimeoutError::Timeout) => false,
            Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                false
            }
        }
    }

    fn take(&mut self, bytes: &[u8]) {
        self.parser.process(bytes);
        self.raw.extend_from_slice(bytes);
    }

    /// Waits until the screen satisfies `cond` (and has been quiet for a moment, so it is a
    /// finished frame), or fails with the screen and `what`.
    fn wait_for(&mut self, what: &str, timeout: Duration, cond: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + timeout;
        loop {
            let busy = self.pump(Duration::from_millis(40));
            if !busy && cond(&self.screen()) {
                return;
            }
            if Instant::now() > deadline {
                panic!(
                    "timed out after {timeout:?} waiting for {what}; the screen:\n{}",
                    self.screen()
                );
            }
            if self.closed && !cond(&self.screen()) {
                panic!(
                    "the program ended while waiting for {what}; the screen:\n{}",
                    self.screen()
                );
            }
        }
    }

    /// Resizes the terminal (the program sees a resize event), and the emulator with it.
    fn resize(&mut self, cols: u16, rows: u16) {
        // Read what the program drew at the old size first (a frame still in the pipe would
        // otherwise be parsed onto the new size's screen): until a quiet moment, with a cap.
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.pump(Duration::from_millis(60)) && Instant::now() < deadline {}
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("resize the pseudo-terminal");
        self.parser.set_size(rows, cols);
    }

    fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).expect("type keys");
        self.writer.flush().expect("type keys");
    }

    /// Waits for the program to exit; its exit code.
    fn exit_code(&mut self, timeout: Duration) -> u32 {
        let deadline = Instant::now() + timeout;
        loop {
            self.pump(Duration::from_millis(20));
            if let Some(status) = self.child.try_wait().expect("child status") {
                // Collect the last output (the terminal being restored).
                while self.pump(Duration::from_millis(50)) {}
                return status.exit_code();
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!(
                    "the program did not exit within {timeout:?}; the screen:\n{}",
                    self.screen()
                );
            }
        }
    }

    /// Quits with `q`, answers the question with `y`, and checks the exit and the terminal.
    fn quit(&mut self) {
        self.send("q");
        self.wait_for("the quit question", Duration::from_secs(5), |sc| {
            sc.contains("Abandon the match?")
        });
        self.send("y");
        assert_eq!(self.exit_code(Duration::from_secs(5)), 0);
        self.assert_restored();
    }

    /// The terminal is back to normal: the alternate screen was left and the cursor shown.
    fn assert_restored(&self) {
        let raw = String::from_utf8_lossy(&self.raw);
        let enter = raw
            .rfind("\x1b[?1049h")
            .expect("the alternate screen was entered");
        let leave = raw
            .rfind("\x1b[?1049l")
            .expect("the alternate screen was left");
        assert!(
            leave > enter,
            "the alternate screen was not left at the end"
        );
        assert!(!self.parser.screen().alternate_screen());
        assert!(
            raw.rfind("\x1b[?25h") > raw.rfind("\x1b[?25l"),
            "the cursor was left hidden"
        );
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

fn line<'a>(screen: &'a str, prefix: &str) -> &'a str {
    screen
        .lines()
        .rfind(|l| l.trim_start_matches('│').starts_with(prefix))
        .unwrap_or("")
}

/// `play` of Hong Kong seed 3 at 80×24 where Bot 1 is an outside bot that answers two
/// decisions and exits at its third (it is dismissed, and `efficient` plays its seat on).
fn with_a_crashing_bot() -> Session {
    let bots = format!(
        "cmd:python3 {}/tests/bots/misbehaving_bot.py crash 2,efficient,efficient",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut s = Session::start(&[
        "play",
        "--rules",
        "hongkong",
        "--seed",
        "3",
        "--delay-ms",
        "0",
        "--bots",
        &bots,
    ]);
    s.resize(80, 24);
    s
}

/// Plays on from `screen`: win if offered, else pass on a claim, else discard whatever is
/// selected.
fn play_on(s: &mut Session, screen: &str) {
    let keys = keys_line(screen);
    if keys.contains("w win") {
        s.send("w");
    } else if keys.contains("Space pass") {
        s.send(" ");
    } else if keys.contains("Enter") {
        s.send("\r");
    }
}

fn keys_line(screen: &str) -> &str {
    line(screen, "Keys:")
}

/// The human can do something now (not waiting for the bots).
fn actionable(screen: &str) -> bool {
    let keys = keys_line(screen);
    screen.contains("end of hand")
        || keys.contains("Enter discard")
        || keys.contains("Space pass")
        || keys.contains("w win")
}

fn temp_log(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("majiang-play-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn play_a_hand_in_a_terminal() {
    let started = Instant::now();
    let log = temp_log("hand.jsonl");
    let mut s = Session::start(&[
        "play",
        "--rules",
        "hongkong",
        "--seed",
        "7",
        "--delay-ms",
        "0",
        "--hands",
        "1",
        "--log",
        log.to_str().unwrap(),
    ]);
    s.wait_for("the table", Duration::from_secs(10), actionable);
    let screen = s.screen();
    assert!(
        screen.contains("majiang · Hong Kong mahjong │ hand 1"),
        "{screen}"
    );
    for name in ["You", "Bot 1", "Bot 2", "Bot 3", "Wall:"] {
        assert!(screen.contains(name), "{name} missing:\n{screen}");
    }
    let hand = line(&screen, "hand: ");
    let tiles = hand
        .trim_matches('│')
        .trim_start_matches("hand:")
        .split_whitespace()
        .count();
    assert!((13..=14).contains(&tiles), "{hand}");

    // Play like a person: win when offered, pass on claims, otherwise discard the tile just
    // drawn (the cursor starts on it).
    let mut moves = 0;
    while !s.screen().contains("end of hand") {
        assert!(
            moves < 300,
            "the hand did not end; the screen:\n{}",
            s.screen()
        );
        let screen = s.screen();
        let keys = keys_line(&screen).to_string();
        let before = screen.clone();
        if keys.contains("w win") {
            s.send("w");
        } else if keys.contains("Space pass") {
            s.send(" ");
        } else {
            s.send("\r");
        }
        moves += 1;
        s.wait_for("the next decision", Duration::from_secs(10), |now| {
            now != before && actionable(now)
        });
        assert!(
            !s.screen().contains("Refused"),
            "a move was refused:\n{}",
            s.screen()
        );
    }
    let screen = s.screen();
    assert!(screen.contains("Payments:"), "{screen}");
    assert!(
        screen.contains("Patterns:") || screen.contains("exhaustive draw"),
        "{screen}"
    );
    assert!(screen.contains("The match is over"), "{screen}");

    // Quitting asks first; "n" keeps the game.
    s.send("q");
    s.wait_for("the quit question", Duration::from_secs(5), |sc| {
        sc.contains("Abandon the match?")
    });
    s.send("n");
    s.wait_for("the question to go", Duration::from_secs(5), |sc| {
        !sc.contains("Abandon the match?") && sc.contains("end of hand")
    });

    // The match (one hand) is over: the standings, then leave.
    s.send("\r");
    s.wait_for("the standings", Duration::from_secs(5), |sc| {
        sc.contains("Final standings")
    });
    s.send("\r");
    assert_eq!(s.exit_code(Duration::from_secs(5)), 0);
    s.assert_restored();

    // The log replays.
    let text = std::fs::read_to_string(&log).expect("the log was written");
    let report = majiang::table::replay(&text).expect("the log replays");
    assert_eq!(report.hands.len(), 1);
    eprintln!("a hand in the terminal took {:?}", started.elapsed());
}

#[test]
fn keys_do_nothing_while_the_table_is_hidden() {
    let mut s = Session::start(&[
        "play",
        "--rules",
        "hongkong",
        "--seed",
        "3",
        "--delay-ms",
        "0",
    ]);
    s.wait_for("the table", Duration::from_secs(10), |sc| {
        keys_line(sc).contains("Enter discard")
    });
    let hand = line(&s.screen(), "hand: ").to_string();
    s.resize(60, 20);
    s.wait_for("the size message", Duration::from_secs(5), |sc| {
        sc.contains("at least 80×24")
    });
    s.send("\r");
    s.send("d");
    s.pump(Duration::from_millis(300));
    s.resize(COLS, ROWS);
    s.wait_for("the table again", Duration::from_secs(5), |sc| {
        keys_line(sc).contains("Enter discard")
    });
    let screen = s.screen();
    assert_eq!(
        line(&screen, "hand: "),
        hand,
        "a tile was discarded blind:\n{screen}"
    );
    assert!(screen.contains("discards: none"), "{screen}");
    s.send("\x03");
    assert_eq!(s.exit_code(Duration::from_secs(5)), 130);
}

#[test]
fn quit_and_ctrl_c_restore_the_terminal() {
    let log = temp_log("quit.jsonl");
    let mut s = Session::start(&[
        "play",
        "--rules",
        "hangzhou",
        "--seed",
        "3",
        "--delay-ms",
        "0",
        "--log",
        log.to_str().unwrap(),
    ]);
    s.wait_for("the table", Duration::from_secs(10), actionable);
    s.quit();
    // Leaving prints the standings and where the log is.
    let screen = s.screen();
    assert!(
        screen.contains("Standings:") && screen.contains("You"),
        "{screen}"
    );
    assert!(screen.contains("quit.jsonl"), "{screen}");
    // The log of the abandoned match replays as far as it goes: exit 3.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(["replay", log.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(
        stdout.contains("the log ends in hand 1 (match not finished)"),
        "{stdout}"
    );

    let mut s = Session::start(&[
        "play",
        "--rules",
        "classic",
        "--seed",
        "4",
        "--delay-ms",
        "0",
    ]);
    s.wait_for("the table", Duration::from_secs(10), actionable);
    s.send("\x03");
    assert_eq!(
        s.exit_code(Duration::from_secs(5)),
        130,
        "Ctrl-C ends play with 130, as for SIGINT"
    );
    s.assert_restored();
}

#[test]
fn bad_arguments_are_refused_before_the_screen_changes() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(["play", "--rules", "hongkong", "--bots", "clever"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("clever") && err.contains("efficient"), "{err}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(["play", "--rules", "riichi"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("riichi"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(["play", "--rules", "hongkong", "--option", "min_fan=banana"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // Good arguments but no terminal: a message, not a garbled screen.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(["play", "--rules", "hongkong", "--seed", "1"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs a terminal"));
    assert!(out.stdout.is_empty());
    // `--log -` cannot share standard output with the game: refused, no file named "-".
    let dir = temp_log("dash").with_extension("d");
    std::fs::create_dir_all(&dir).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_majiang"))
        .current_dir(&dir)
        .args(["play", "--rules", "hongkong", "--log", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--log -") && err.contains("file name"),
        "{err}"
    );
    assert!(!dir.join("-").exists());
}

/// Debug builds panic on purpose when `MAJIANG_PLAY_TEST_PANIC` is set (after the first
/// frame): the panic hook must leave raw mode and the alternate screen, and the message must
/// reach the normal screen.
#[cfg(debug_assertions)]
#[test]
fn a_panic_restores_the_terminal() {
    let mut s = Session::start_with(
        &[
            "play",
            "--rules",
            "yangzhou",
            "--seed",
            "1",
            "--delay-ms",
            "0",
        ],
        &[("MAJIANG_PLAY_TEST_PANIC", "1")],
    );
    let code = s.exit_code(Duration::from_secs(10));
    assert_eq!(code, 101, "a panic exits with 101; screen:\n{}", s.screen());
    s.assert_restored();
    let screen = s.screen();
    assert!(screen.contains("test panic"), "{screen}");
    // Raw mode is off: the panic message's lines start at the left edge (a newline in raw mode
    // would not return the carriage).
    assert!(
        screen.lines().any(|l| l.starts_with("thread 'main'")),
        "{screen}"
    );
}

/// A five-player classic table against the expert (`hard`): the fifth seat is North-east,
/// every box is on the screen, the extra winds are named, and no notice says the expert leaves
/// anything to another bot (it plays five and six players itself).
#[test]
fn five_players_against_the_expert() {
    let mut s = Session::start(&[
        "play",
        "--rules",
        "classic",
        "-o",
        "players=5",
        "--bots",
        "hard",
        "--seed",
        "7",
        "--delay-ms",
        "0",
    ]);
    s.wait_for("the table", Duration::from_secs(20), actionable);
    let screen = s.screen();
    assert!(
        screen.contains("majiang · Classic Chinese mahjong │ hand 1"),
        "{screen}"
    );
    for name in [
        "You",
        "Bot 1",
        "Bot 2",
        "Bot 3",
        "Bot 4",
        "North-east",
        "Wall:",
    ] {
        assert!(screen.contains(name), "{name} missing:\n{screen}");
    }
    assert!(
        !screen.contains("Bot 5"),
        "five players, not six:\n{screen}"
    );
    assert!(
        !screen.contains("normal bot"),
        "no notice about the normal bot:\n{screen}"
    );
    s.quit();
}

/// The corners of the screen's boxes: every top-left one has a top-right one on its row and
/// the bottom ones below them (a box cut by the screen's edge loses its bottom).
fn whole_boxes(screen: &str) -> Result<usize, String> {
    let rows: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
    let mut n = 0;
    for (y, row) in rows.iter().enumerate() {
        for (x, _) in row.iter().enumerate().filter(|(_, c)| **c == '┌') {
            let right = (x + 1..row.len())
                .find(|&k| row[k] == '┐')
                .ok_or(format!("no top-right corner for {x},{y}"))?;
            let bottom = (y + 1..rows.len())
                .find(|&k| rows[k].get(x) == Some(&'└'))
                .ok_or(format!("no bottom for {x},{y}"))?;
            if rows[bottom].get(right) != Some(&'┘') {
                return Err(format!("no bottom-right corner for {x},{y}"));
            }
            n += 1;
        }
    }
    Ok(n)
}

#[test]
fn the_game_fits_80_by_24_and_keeps_its_layout_larger() {
    for (players, glyphs) in [("4", false), ("6", true), ("3", false), ("5", false)] {
        let option = format!("players={players}");
        let mut args = vec![
            "play",
            "--rules",
            "classic",
            "--option",
            &option,
            "--seed",
            "4",
            "--delay-ms",
            "0",
        ];
        if glyphs {
            args.push("--glyphs");
        }
        let mut s = Session::start(&args);
        for (cols, rows) in [(80u16, 24u16), (100, 30), (160, 50)] {
            s.resize(cols, rows);
            // The frame of the new size: the full layout's centre box from 90×32 on.
            let full = cols >= 90 && rows >= 32;
            s.wait_for(
                &format!("the table at {cols}×{rows}"),
                // A ceiling, not a pause: the bots play to the person's turn first, and a
                // loaded machine (the suite's other tests beside it) makes that slow.
                Duration::from_secs(30),
                |sc| {
                    keys_line(sc).contains("Enter discard")
                        && sc.contains("hand: ")
                        && sc.contains(" table ") == full
                },
            );
            let screen = s.screen();
            let at = format!("{players} players at {cols}×{rows}:\n{screen}");
            let boxes = whole_boxes(&screen).unwrap_or_else(|e| panic!("{e}: {at}"));
            let seats: usize = players.parse().unwrap();
            assert!(boxes >= seats, "{boxes} boxes: {at}");
            assert!(!screen.contains("at least"), "{at}");
            assert_eq!(screen.contains(" table "), cols >= 90 && rows >= 32, "{at}");
        }
        s.send("\x03");
        assert_eq!(s.exit_code(Duration::from_secs(5)), 130);
    }
}

/// Whether process `pid` catches SIGWINCH (its handler installed), from /proc.
#[cfg(target_os = "linux")]
fn catches_sigwinch(pid: u32) -> Result<bool, String> {
    let status =
        std::fs::read_to_string(format!("/proc/{pid}/status")).map_err(|e| e.to_string())?;
    let mask = status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|h| u64::from_str_radix(h.trim(), 16).ok())
        .ok_or_else(|| format!("no SigCgt line: {status}"))?;
    // SIGWINCH is signal 28 on Linux: bit 27 of the mask.
    Ok(mask & (1 << 27) != 0)
}

#[test]
#[cfg(target_os = "linux")]
fn resizes_are_heard_from_the_first_frame() {
    // crossterm hears SIGWINCH only once its event reader is made. The program makes it before
    // it writes anything, so a resize at any moment is heard. (It used to wait for the first
    // wait for a key: with --delay-ms 0, after the bots' first frames, and a resize between the
    // last of them and that wait went unheard; the table stayed drawn for the old size.)
    let mut s = Session::start(&[
        "play",
        "--rules",
        "classic",
        "--seed",
        "4",
        "--delay-ms",
        "0",
    ]);
    let deadline = Instant::now() + Duration::from_secs(30);
    while s.raw.is_empty() {
        assert!(
            Instant::now() < deadline && !s.closed,
            "the program wrote nothing"
        );
        s.pump(Duration::from_millis(20));
    }
    let pid = s.child.process_id().expect("the program's process id");
    assert_eq!(
        catches_sigwinch(pid),
        Ok(true),
        "at its first output the program does not listen for resizes"
    );
    s.send("\x03");
    assert_eq!(s.exit_code(Duration::from_secs(10)), 130);
}

#[test]
fn an_outside_bots_dismissal_is_told_when_it_happens_under_its_table_name() {
    // Bot 1 answers two decisions, then exits at its third: the table tells it at once, at
    // 80×24, under one name (the seat's, with the bot's short command), and play goes on.
    let mut s = with_a_crashing_bot();
    let deadline = Instant::now() + Duration::from_secs(60);
    let told = loop {
        s.pump(Duration::from_millis(100));
        let screen = s.screen();
        if screen.contains("was dismissed") {
            break screen;
        }
        assert!(
            Instant::now() < deadline && !s.closed,
            "no dismissal was told; the screen:\n{screen}"
        );
        play_on(&mut s, &screen);
    };
    let name = "Bot 1 (cmd:python3 misbehaving_bot.py crash 2) was dismissed in hand 1";
    assert!(told.contains(name), "{told}");
    assert!(
        !told.contains("Bot 0"),
        "one numbering, the table's: {told}"
    );
    // The game goes on, the notice in its log.
    s.wait_for(
        "the table after the dismissal",
        Duration::from_secs(30),
        |sc| actionable(sc) && sc.contains("was dismissed"),
    );
    s.send("\x03");
    assert_eq!(s.exit_code(Duration::from_secs(5)), 130);
    // The report after the game names it the same way.
    s.pump(Duration::from_millis(200));
    let after = s.screen();
    assert!(after.contains(name), "{after}");
    assert!(after.contains("efficient plays its seat on"), "{after}");
}

//! `majiang play`: a full-screen game in the terminal, you against the bots (two to five).
//!
//! The parts: [`app`] is the game as a state machine (keys in, engine actions out, no
//! terminal; the match is the library's `Match`, the bots its `bots`), [`view`] draws it with
//! ratatui, [`tiles`] writes tiles and melds as text. This file owns the terminal:
//! raw mode and the alternate screen behind a guard that a panic hook also restores, the key
//! loop, the bots' delay, and the log file.

pub mod app;
mod hints;
pub mod tiles;
pub mod view;

#[cfg(test)]
mod tests;

use crate::bot_choice::BotChoice;
use crate::exit::{Finished, UsageError};
use app::{App, Key};
use crossterm::event::{self, Event as TermEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use majiang::table::TableRules;
use majiang_external::Stderr;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::{IsTerminal, Stdout, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Arguments of `majiang play`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: crate::rules_file::RulesArgs,
    /// The seed: the same seed (and the same moves) gives the same game.
    #[arg(long)]
    seed: Option<u64>,
    // The bots' policy (help from the library's list of bots).
    #[arg(long, default_value = "efficient", help = bots_help(), long_help = bots_long_help())]
    bots: String,
    #[arg(long, default_value_t = 5000, value_name = "MS", help = crate::bot_choice::TIME_HELP)]
    bot_time_ms: u64,
    /// Milliseconds to wait before each bot action, so you can follow the play.
    #[arg(long, default_value_t = 250)]
    delay_ms: u64,
    /// Write the match log (JSON lines; `majiang replay` checks it) to this file (not `-`:
    /// the game itself is on standard output).
    #[arg(long, value_name = "FILE")]
    log: Option<String>,
    /// Cut the match short after this many hands (otherwise it ends as the rule set says).
    #[arg(long)]
    hands: Option<u32>,
    /// Show the expert's suggested discard or call for each of your decisions, with a
    /// one-line reason (distance from ready and useful tiles, the tile's danger, its value).
    #[arg(long)]
    hints: bool,
    /// Start with Unicode tile glyphs rather than ASCII notation (g toggles).
    #[arg(long)]
    glyphs: bool,
}

/// The `--bots` help, listing every bot the library knows (the list the error quotes).
fn bots_help() -> String {
    format!(
        "The bots' policy: a level or a bot by name ({}), or expert:N (the expert searching N \
         worlds per batch)",
        majiang::bots::BOT_NAMES.join(", ")
    )
}

/// The `--bots` long help: the short one, one entry per bot, and `cmd:`.
fn bots_long_help() -> String {
    format!(
        "{}. Give one entry for every bot, or one per bot separated by commas (Bot 1 first). \
         {} An external bot's standard error is discarded while the game owns the terminal.",
        bots_help(),
        crate::bot_choice::SYNTAX_HELP
    )
}

/// What `play` prints when the player leaves: the standings, the hands played and the seed,
/// and where the log went.
pub fn farewell(app: &App, log: Option<&str>) -> String {
    let mut out = String::from("Standings:\n");
    for s in app.standings() {
        out.push_str(&format!(
            "  {}. {:<8} {:>7}\n",
            s.rank,
            app.name(s.player),
            if app.starting_points() == 0 {
                format!("{:+}", s.points)
            } else {
                s.points.to_string()
            }
        ));
    }
    let hands = app.hand_number();
    out.push_str(&format!(
        "{hands} hand{} of {}, seed {}.\n",
        if hands == 1 { "" } else { "s" },
        app.ruleset().spec().english,
        app.seed()
    ));
    match log {
        Some(path) => out.push_str(&format!(
            "The match log is in {path} (majiang replay {path} checks it).\n"
        )),
        None => out.push_str("No log was written (--log FILE keeps one).\n"),
    }
    out
}

/// Builds the app from the arguments (no terminal involved), with the bots it plays against
/// (whose report says how external bots did).
pub fn build(args: &Args) -> Result<(App, BotChoice), UsageError> {
    if args.log.as_deref() == Some("-") {
        return Err(UsageError(
            "--log -: play draws the game on standard output, so the log cannot go there; \
             give a file name (and read it with `majiang replay FILE` or `majiang review FILE`)"
                .into(),
        ));
    }
    let (rules, options) = args.rules.resolve()?;
    let ruleset = TableRules::from_name(&rules, &options)?;
    let choice = BotChoice::parse(&args.bots, args.bot_time_ms, Stderr::Discard)?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let mut app = App::with_bots(
        Arc::new(ruleset),
        seed,
        &choice,
        args.hands,
        args.log.is_some(),
        args.delay_ms,
    )
    .map_err(UsageError)?
    .with_hints(args.hints);
    if args.glyphs {
        app.style = app.style.toggled();
    }
    Ok((app, choice))
}

/// Runs the command: [`Finished::Interrupted`] when the player pressed Ctrl-C.
pub fn run(args: &Args) -> Result<Finished, UsageError> {
    let (mut app, choice) = build(args)?;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(UsageError(
            "play needs a terminal: run it in a terminal window, not with its input or output \
             redirected"
                .into(),
        ));
    }
    let mut log = match &args.log {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| UsageError(format!("--log {path}: {e}")))?,
        )),
        None => None,
    };
    let mut guard = TerminalGuard::enter().map_err(|e| UsageError(format!("terminal: {e}")))?;
    let result = event_loop(&mut guard.terminal, &mut app, &mut log, &choice);
    drop(guard);
    if let Some(w) = log.as_mut() {
        w.flush()
            .map_err(|e| UsageError(format!("writing the log: {e}")))?;
    }
    let interrupted = result.map_err(|e| UsageError(format!("terminal: {e}")))?;
    print!("{}", farewell(&app, args.log.as_deref()));
    // How the outside bots did; each dismissal was told on the table when it happened.
    print!("{}", choice.report_by_seat());
    let _ = std::io::stdout().flush();
    Ok(if interrupted {
        Finished::Interrupted
    } else {
        Finished::Done
    })
}

fn write_log(
    app: &mut App,
    log: &mut Option<std::io::BufWriter<std::fs::File>>,
) -> std::io::Result<()> {
    let lines = app.take_log();
    if let Some(w) = log.as_mut() {
        for l in lines {
            writeln!(w, "{l}")?;
        }
    }
    Ok(())
}

/// The terminal's main loop: draw, let the bot whose turn the seat driver says is due play,
/// wait for a key or the next bot's time. The driver keeps the bots' pacing (`--delay-ms`); this
/// loop only tells it the milliseconds elapsed since the start.
fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    app: &mut App,
    log: &mut Option<std::io::BufWriter<std::fs::File>>,
    choice: &BotChoice,
) -> std::io::Result<bool> {
    // Outside bots' dismissals told so far: a new one (during a bot's decision, or when a
    // hand's end is sent to it) is told before the next frame is drawn.
    let mut told = 0;
    // Ctrl-C arrives as a key in raw mode: the match ends at once, and the exit code says so.
    let mut interrupted = false;
    let start = Instant::now();
    let now = || u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
    while !app.should_quit() {
        let dismissals = choice.dismissals();
        for d in dismissals.iter().skip(told) {
            app.tell(d.clone());
        }
        told = dismissals.len();
        write_log(app, log)?;
        if app.style == tiles::TileStyle::Glyphs {
            // See `view::skip_after_glyphs`: a full redraw keeps skipped cells blank.
            terminal.clear()?;
        }
        let size = terminal.size()?;
        app.set_fits(view::fits(size.width, size.height));
        terminal.draw(|f| view::draw(f, app))?;
        // Debug builds only: lets the tests check that a panic restores the terminal.
        #[cfg(debug_assertions)]
        if std::env::var_os("MAJIANG_PLAY_TEST_PANIC").is_some() {
            panic!("test panic (MAJIANG_PLAY_TEST_PANIC is set)");
        }
        let playing = app.mode() == &app::Mode::Playing;
        let timeout = match app.step_bot(now()) {
            // A bot played: draw it before reading any key.
            app::BotStep::Played(_) => None,
            app::BotStep::WaitUntil(at) => Some(Duration::from_millis(at.saturating_sub(now()))),
            app::BotStep::Idle => Some(Duration::from_secs(3600)),
        };
        if let Some(timeout) = timeout
            && event::poll(timeout)?
        {
            match event::read()? {
                TermEvent::Key(k) if k.kind != KeyEventKind::Release => {
                    if let Some(key) = map_key(k) {
                        interrupted |= key == Key::Interrupt;
                        app.set_clock(now());
                        app.on_key(key);
                    }
                }
                // A resize redraws the whole screen: a frame that was on its way at the old
                // size (the machine busy, the window dragged) must not leave cells behind that
                // the next frame's diff believes are already blank.
                TermEvent::Resize(..) => terminal.clear()?,
                _ => {}
            }
        }
        if playing && app.mode() == &app::Mode::HandOver {
            // The hand just ended: keys typed for the play (a discard's Enter) must not skip
            // the summary.
            while event::poll(Duration::ZERO)? {
                event::read()?;
            }
        }
    }
    write_log(app, log)?;
    Ok(interrupted)
}

fn map_key(k: KeyEvent) -> Option<Key> {
    if k.modifiers.contains(KeyModifiers::CONTROL) {
        return matches!(k.code, KeyCode::Char('c' | 'C')).then_some(Key::Interrupt);
    }
    Some(match k.code {
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        _ => return None,
    })
}

/// Raw mode and the alternate screen, undone on drop and by the panic hook it installs.
struct TerminalGuard {
    terminal: Terminal<CrosstermBackend<Stdout>>,
}

fn restore_terminal() {
    let _ = disable_raw_mode();
    let _ = execute!(
        std::io::stdout(),
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
}

impl TerminalGuard {
    fn enter() -> std::io::Result<TerminalGuard> {
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore_terminal();
            hook(info);
        }));
        enable_raw_mode()?;
        // Hear resizes from before the first frame reads the size: crossterm installs its
        // SIGWINCH handler with its event reader, which it makes at the first poll. Without
        // this, that poll comes only when the bots (`--delay-ms 0`) have played to the
        // person's turn; a resize just after their last frame went unheard, and the table
        // stayed drawn for the old size (a loaded machine's pty test saw it for 30 s).
        if let Err(e) = event::poll(Duration::ZERO) {
            restore_terminal();
            return Err(e);
        }
        let mut out = std::io::stdout();
        if let Err(e) = execute!(out, EnterAlternateScreen) {
            restore_terminal();
            return Err(e);
        }
        match Terminal::new(CrosstermBackend::new(out)) {
            Ok(mut terminal) => {
                terminal.hide_cursor()?;
                terminal.clear()?;
                Ok(TerminalGuard { terminal })
            }
            Err(e) => {
                restore_terminal();
                Err(e)
            }
        }
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

#[cfg(test)]
mod key_tests {
    use super::*;

    #[test]
    fn terminal_keys_map_to_app_keys() {
        let k = |code, mods| map_key(KeyEvent::new(code, mods));
        assert_eq!(
            k(KeyCode::Char('c'), KeyModifiers::CONTROL),
            Some(Key::Interrupt)
        );
        assert_eq!(k(KeyCode::Char('x'), KeyModifiers::CONTROL), None);
        assert_eq!(
            k(KeyCode::Char('p'), KeyModifiers::NONE),
            Some(Key::Char('p'))
        );
        assert_eq!(
            k(KeyCode::Char('P'), KeyModifiers::SHIFT),
            Some(Key::Char('P'))
        );
        assert_eq!(k(KeyCode::Enter, KeyModifiers::NONE), Some(Key::Enter));
        assert_eq!(k(KeyCode::Left, KeyModifiers::NONE), Some(Key::Left));
        assert_eq!(k(KeyCode::F(1), KeyModifiers::NONE), None);
    }
}

//! The game as a state machine without a terminal: keys in, actions to the engine, a view of
//! the table out. The terminal loop (`super::run`) only feeds keys and draws.

mod keys;
mod narrate;

#[cfg(test)]
pub use keys::Offered;

use super::tiles::TileStyle;
use crate::bot_choice::BotChoice;
use majiang::driver::{Controller, Driver, Poll, Timers};
use majiang::scoring::{PatternScore, WinKind};
use majiang::table::log::LogRecord;
use majiang::table::matches::{Settlement, Standing};
use majiang::table::{Action, Event, MatchError, Observation, Player, Session, TableRules};
use majiang::tile::Tile;
use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::Arc;

/// A key, as the app understands it (the terminal's key events are mapped to these).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A printable character.
    Char(char),
    /// Enter / Return.
    Enter,
    /// Escape.
    Esc,
    /// Left arrow.
    Left,
    /// Right arrow.
    Right,
    /// Up arrow (the end-of-hand box, back).
    Up,
    /// Down arrow (the end-of-hand box, forward).
    Down,
    /// Home.
    Home,
    /// End.
    End,
    /// Page Up (the log, back).
    PageUp,
    /// Page Down (the log, forward).
    PageDown,
    /// Ctrl-C.
    Interrupt,
}

/// What the screen is showing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// The hand is being played.
    Playing,
    /// Choosing one of several chows or kongs (the actions offered).
    Choose(Vec<Action>),
    /// The hand is over: the summary is shown until a key.
    HandOver,
    /// The match is over: the final standings.
    MatchOver,
    /// "Abandon the match?" over the mode below.
    ConfirmQuit(Box<Mode>),
    /// The keys and the rule set's patterns (`?`) over the mode below.
    Help(Box<Mode>),
    /// The user left: the program ends.
    Quit,
}

/// The end of one hand, for the summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandSummary {
    /// Hand number (from 1).
    pub hand: u32,
    /// The winner, or `None` for a drawn hand.
    pub winner: Option<Player>,
    /// How the hand was won.
    pub win: Option<WinKind>,
    /// The discarder (or robbed player).
    pub discarder: Option<Player>,
    /// The winning tile.
    pub tile: Option<Tile>,
    /// The winner's concealed tiles (with the winning tile).
    pub hand_tiles: Vec<Tile>,
    /// The winner's melds as the table saw them.
    pub melds: Vec<majiang::meld::Meld>,
    /// The winner's flowers.
    pub flowers: Vec<Tile>,
    /// The scoring patterns.
    pub patterns: Vec<PatternScore>,
    /// The total.
    pub total: i64,
    /// Payments by chair.
    pub payments: Vec<i64>,
    /// The payments one by one with their reasons, between chairs, as the win event carries
    /// them.
    pub itemised: Vec<majiang::table::PlayerPayment>,
}

/// What a bot step did (see [`App::step_bot`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BotStep {
    /// A bot played this action.
    Played(Action),
    /// No bot decision is due before this time (milliseconds on the caller's clock).
    WaitUntil(u64),
    /// No bot has anything to decide (the human's turn, the hand is over, or the table is
    /// hidden).
    Idle,
}

/// Where the log's PgUp and PgDn go: each a scroll (messages back from the newest).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LogPages {
    /// The scroll that shows the messages just before the oldest one shown.
    pub up: usize,
    /// The scroll that shows the messages just after the newest one shown.
    pub down: usize,
}

/// The whole interactive game.
pub struct App {
    /// The match with a controller per chair: the human's chair is a person, every other a
    /// bot; the library's seat driver says which bot decides when.
    driver: Driver,
    /// The caller's clock (milliseconds), as last told ([`App::step_bot`], [`App::set_clock`]).
    clock: u64,
    human: Player,
    names: Vec<String>,
    /// How tiles are drawn.
    pub style: TileStyle,
    cursor: usize,
    mode: Mode,
    messages: VecDeque<String>,
    log_scroll: usize,
    /// Where PgUp and PgDn take the log, as scrolls (the view notes them when it draws: a page
    /// turns to the messages just before or after those shown, none skipped, PgUp stopping at
    /// the oldest screenful). A message may take several rows: the log wraps it whole.
    log_pages: Cell<LogPages>,
    /// How many rows the end-of-hand box is scrolled down (↑/↓, PgUp/PgDn).
    summary_scroll: usize,
    /// The furthest the end-of-hand box can scroll, as last drawn (the view notes it).
    summary_rows_hidden: Cell<usize>,
    notice: Option<String>,
    /// The notice is news from outside the table ([`App::tell`]): it stays until a key, even
    /// when the human's turn comes.
    told: bool,
    fits: bool,
    summary: Option<HandSummary>,
    settlement: Option<Settlement>,
    logging: bool,
    written: usize,
    last_turn_drawn: Option<(Player, Option<Tile>, usize)>,
    /// The expert's hints (`play --hints`), when on.
    hints: Option<super::hints::Hints>,
}

/// How many event lines the log keeps (PgUp/PgDn scroll through them).
const MESSAGES: usize = 500;

impl App {
    /// A new match against bots named `bots` (`efficient`, `random`), seeded; the human is the
    /// match's first entrant. `hand_limit` cuts the match short after that many hands. With
    /// `logging`, the match log is kept ([`App::take_log`]).
    #[cfg(test)]
    pub fn new(
        ruleset: Arc<TableRules>,
        seed: u64,
        bots: &str,
        hand_limit: Option<u32>,
        logging: bool,
    ) -> Result<App, String> {
        App::paced(ruleset, seed, bots, hand_limit, logging, 0)
    }

    /// [`App::new`] with the bots waiting `bot_delay_ms` after each decision point opens (the
    /// driver's [`Timers::bot_delay_ms`]), so a person can follow the play. A bot that lets a
    /// discard go answers at once after the delay has run for the first answer: no pause tells
    /// the table that it could have claimed.
    #[cfg(test)]
    pub fn paced(
        ruleset: Arc<TableRules>,
        seed: u64,
        bots: &str,
        hand_limit: Option<u32>,
        logging: bool,
        bot_delay_ms: u64,
    ) -> Result<App, String> {
        let choice =
            BotChoice::parse(bots, 5000, majiang_external::Stderr::Discard).map_err(|e| e.0)?;
        App::with_bots(ruleset, seed, &choice, hand_limit, logging, bot_delay_ms)
    }

    /// [`App::paced`] with the bots of `choice` (`play --bots`): one entry for every bot, or
    /// one per bot (Bot 1 first). External bots (`cmd:`) are started here.
    pub fn with_bots(
        ruleset: Arc<TableRules>,
        seed: u64,
        choice: &BotChoice,
        hand_limit: Option<u32>,
        logging: bool,
        bot_delay_ms: u64,
    ) -> Result<App, String> {
        let n = ruleset.players();
        if choice.len() != 1 && choice.len() != n - 1 {
            return Err(format!(
                "--bots: give one bot for every seat or {} (one per bot, Bot 1 first), not {}",
                n - 1,
                choice.len()
            ));
        }
        let (session, opening) =
            Session::new(Arc::clone(&ruleset), seed, hand_limit).map_err(|e| e.to_string())?;
        let human = session.chairs()[0];
        let mut controllers = Vec::with_capacity(n);
        let mut bot_number = 0;
        for i in 0..n {
            let bot_seed = majiang::seeds::bot_seed(seed, i as u64);
            controllers.push(if Player(i as u8) == human {
                Controller::person(bot_seed)
            } else {
                let entry = if choice.len() == 1 { 0 } else { bot_number };
                bot_number += 1;
                let context = format!("Bot {bot_number}");
                Controller::Bot(
                    choice
                        .make(entry, &ruleset, Player(i as u8), bot_seed, &context)
                        .map_err(|e| e.0)?,
                )
            });
        }
        let mut k = 0;
        let names: Vec<String> = (0..n)
            .map(|i| {
                if Player(i as u8) == human {
                    "You".to_string()
                } else {
                    k += 1;
                    format!("Bot {k}")
                }
            })
            .collect();
        let mut session = session;
        // The log remembers who was who, so `majiang replay` shows the same names.
        session.name_entrants(
            session
                .chairs()
                .iter()
                .map(|c| names[c.index()].clone())
                .collect(),
        );
        let driver = Driver::new(
            session,
            controllers,
            Timers {
                bot_delay_ms,
                ..Timers::default()
            },
        )
        .map_err(|e| e.to_string())?;
        let mut app = App {
            driver,
            clock: 0,
            human,
            names,
            style: TileStyle::Ascii,
            cursor: 0,
            mode: Mode::Playing,
            messages: VecDeque::new(),
            log_scroll: 0,
            log_pages: Cell::new(LogPages::default()),
            summary_scroll: 0,
            summary_rows_hidden: Cell::new(0),
            notice: None,
            told: false,
            fits: true,
            summary: None,
            settlement: None,
            logging,
            written: 0,
            last_turn_drawn: None,
            hints: None,
        };
        app.hand_started(opening.deal);
        Ok(app)
    }

    /// The same app with the expert's hints on or off (`play --hints`).
    pub fn with_hints(mut self, on: bool) -> App {
        self.hints = on.then(super::hints::Hints::default);
        self
    }

    /// The expert's suggestion for the person's decision now, in one line, when hints are on
    /// and they have a choice to make.
    pub fn hint(&self) -> Option<String> {
        if self.mode() != &Mode::Playing {
            return None;
        }
        self.hints
            .as_ref()?
            .text(self.observation(), self.ruleset(), self.style)
    }

    /// Tells the app the time on the caller's clock (milliseconds; it never goes back).
    pub fn set_clock(&mut self, now: u64) {
        self.clock = self.clock.max(now);
    }

    // ----- what the view reads -----

    /// The current hand.
    #[cfg(test)]
    pub fn game(&self) -> &majiang::table::Game {
        self.driver.session().game()
    }

    /// The human's chair.
    pub fn human(&self) -> Player {
        self.human
    }

    /// What the human may see now.
    pub fn observation(&self) -> Observation {
        self.driver.session().game().observation(self.human)
    }

    /// A player's name ("You", "Bot 1", ...).
    pub fn name(&self, p: Player) -> &str {
        self.names.get(p.index()).map_or("?", |s| s.as_str())
    }

    /// The current mode.
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// The selected tile's index in [`App::hand_tiles`].
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The log of the match so far, oldest first (the last [`MESSAGES`] lines).
    pub fn messages(&self) -> impl Iterator<Item = &str> {
        self.messages.iter().map(|s| s.as_str())
    }

    /// How many lines the log is scrolled back from its end (PgUp/PgDn).
    pub fn log_scroll(&self) -> usize {
        self.log_scroll
    }

    /// The view notes where PgUp and PgDn take the log from what it shows.
    pub fn note_log_pages(&self, pages: LogPages) {
        self.log_pages.set(pages);
    }

    /// How many rows the end-of-hand box is scrolled down.
    pub fn summary_scroll(&self) -> usize {
        self.summary_scroll
    }

    /// The view notes how many rows of the end-of-hand box do not fit (↓ scrolls to them).
    pub fn note_summary_hidden(&self, rows: usize) {
        self.summary_rows_hidden.set(rows);
    }

    /// Tells the app whether the terminal is big enough to show the table. While it is not,
    /// keys other than quitting do nothing and the bots wait: nobody plays blind.
    pub fn set_fits(&mut self, fits: bool) {
        self.fits = fits;
    }

    /// A player's name as the subject of `verb`: "You deal", "Bot 1 deals".
    pub fn says(&self, p: Player, verb: &str) -> String {
        let s = if p == self.human { "" } else { "s" };
        format!("{} {verb}{s}", self.name(p))
    }

    /// A player's name as an owner: "your", "Bot 1's".
    pub fn whose(&self, p: Player) -> String {
        if p == self.human {
            "your".to_string()
        } else {
            format!("{}'s", self.name(p))
        }
    }

    /// How long the match is, from the rule set's end rule: `hand 2 of 8`, `hand 3, until
    /// someone's 20 points are gone`, `hand 5, East round of 4`.
    pub fn match_length(&self) -> String {
        use majiang::table::matches::EndRule;
        let hand = self.hand_number();
        let limit = self.driver.session().matches().hand_limit();
        match (self.driver.session().matches().rules().end, limit) {
            (_, Some(n)) => format!("hand {hand} of {n}"),
            (EndRule::Hands(n), None) => format!("hand {hand} of {n}"),
            (EndRule::Points(p), None) => {
                format!("hand {hand}, until someone's {p} points are gone")
            }
            (EndRule::DealRounds(r), None) => {
                let rounds = if r == 1 {
                    "the deal goes round once".to_string()
                } else {
                    format!("the deal goes round {r} times")
                };
                format!("hand {hand}, {rounds}")
            }
        }
    }

    /// Why the last key did nothing, if it did nothing.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// The last hand's summary (in [`Mode::HandOver`] and after).
    pub fn summary(&self) -> Option<&HandSummary> {
        self.summary.as_ref()
    }

    /// Net chips or points per chair.
    pub fn ledger(&self) -> &[i64] {
        self.driver.session().ledger()
    }

    /// Hand number, from 1.
    pub fn hand_number(&self) -> u32 {
        self.driver.session().game().setup().hand_number
    }

    /// The last finished hand's settlement (payments, ledger, next deal).
    pub fn settlement(&self) -> Option<&Settlement> {
        self.settlement.as_ref()
    }

    /// The match seed (the same seed and the same moves give the same match).
    pub fn seed(&self) -> u64 {
        self.driver.session().matches().seed()
    }

    /// The standings, best first.
    pub fn standings(&self) -> Vec<Standing> {
        self.driver.session().standings()
    }

    /// Points each player started the match with (Hangzhou `points:N`; else 0).
    pub fn starting_points(&self) -> i64 {
        self.driver.session().matches().rules().starting_points
    }

    /// The rule set.
    pub fn ruleset(&self) -> &Arc<TableRules> {
        self.driver.session().ruleset()
    }

    /// True once the user has left.
    pub fn should_quit(&self) -> bool {
        self.mode == Mode::Quit
    }

    /// The human's concealed tiles in display order: sorted, the extra winds of a five- or
    /// six-player table after the playing tiles, the tile just drawn last.
    pub fn hand_tiles(&self) -> Vec<Tile> {
        let obs = self.observation();
        let mut rest = obs.concealed;
        if let Some(d) = obs.drawn.filter(|d| !d.is_bonus()) {
            rest.remove(d);
        }
        let mut tiles = rest.tiles();
        tiles.extend(obs.extra_winds.iter().filter(|&&t| Some(t) != obs.drawn));
        if let Some(d) = obs.drawn {
            tiles.push(d);
        }
        tiles
    }

    /// The human must decide now.
    #[cfg(test)]
    pub fn human_to_act(&self) -> bool {
        self.mode == Mode::Playing && self.driver.session().game().to_act().contains(self.human)
    }

    /// A bot that must decide now, if any (and the game is being played).
    pub fn bot_to_act(&self) -> Option<Player> {
        if self.mode != Mode::Playing || !self.fits {
            return None;
        }
        self.driver
            .session()
            .game()
            .to_act()
            .find(|&p| self.driver.automatic(p))
    }

    /// The log lines (JSON) recorded since the last call (none unless logging).
    pub fn take_log(&mut self) -> Vec<String> {
        if !self.logging {
            return Vec::new();
        }
        let log = self.driver.session().log();
        let new: Vec<String> = log.records[self.written..]
            .iter()
            .map(|r: &LogRecord| serde_json::to_string(r).unwrap_or_default())
            .collect();
        self.written = log.records.len();
        new
    }

    // ----- driving -----

    /// Lets the bot whose decision the driver says is due at `now` (milliseconds on the
    /// caller's clock) play it; or says when the next one is due. Bots wait while the table is
    /// hidden or a pop-up is up. A bot's action the engine refuses is replaced by the first
    /// legal action (the driver's one policy), and the log says so.
    pub fn step_bot(&mut self, now: u64) -> BotStep {
        self.set_clock(now);
        if self.bot_to_act().is_none() {
            return BotStep::Idle;
        }
        let decision = match self.driver.poll(self.clock) {
            Poll::Act(d) => d,
            Poll::Wait(Some(at)) => return BotStep::WaitUntil(at),
            Poll::Wait(None) => return BotStep::Idle,
        };
        if let Some((chosen, why)) = &decision.refused {
            self.push_message(format!(
                "{}'s bot chose {chosen}, which the game refused ({why}); it plays {} instead.",
                self.name(decision.player),
                decision.action
            ));
        }
        if self.apply(decision.player, decision.action).is_err() {
            return BotStep::Idle;
        }
        if !self
            .driver
            .session()
            .game()
            .legal_actions(self.human)
            .is_empty()
        {
            // The human must decide now: a notice about waiting is stale (news told stays).
            if !self.told {
                self.notice = None;
            }
        }
        BotStep::Played(decision.action)
    }

    /// Lets the bots act until the human must decide or the hand ends (no delay: tests).
    #[cfg(test)]
    pub fn run_bots(&mut self) {
        while let BotStep::Played(_) = self.step_bot(self.clock) {}
    }

    /// Plays one action through the session (which settles a finished hand and logs it); the
    /// game's refusal, if refused.
    fn apply(&mut self, p: Player, action: Action) -> Result<(), MatchError> {
        let step = self.driver.act(p, action, self.clock)?;
        self.record(&step.events);
        self.after_step();
        if let Some(settlement) = step.settlement {
            if let Some(s) = self.summary.as_mut() {
                s.payments = settlement.payments.clone();
            }
            self.settlement = Some(settlement);
            self.summary_scroll = 0;
            self.mode = Mode::HandOver;
        }
        Ok(())
    }

    fn after_step(&mut self) {
        // Put the cursor on a freshly drawn tile (so Enter discards it).
        let obs = self.observation();
        let key = (
            self.human,
            obs.drawn,
            obs.table[self.human.index()].discards.len(),
        );
        if obs.turn == Some(self.human) && self.last_turn_drawn != Some(key) {
            self.last_turn_drawn = Some(key);
            self.cursor = self.hand_tiles().len().saturating_sub(1);
        }
        let n = self.hand_tiles().len();
        if n > 0 {
            self.cursor = self.cursor.min(n - 1);
        }
    }

    fn hand_started(&mut self, events: Vec<Event>) {
        self.summary = None;
        self.last_turn_drawn = None;
        let d = self.driver.session().game().dealer();
        self.log_scroll = 0;
        self.push_message(format!(
            "Hand {} begins: {}.",
            self.hand_number(),
            self.says(d, "deal")
        ));
        self.record(&events);
        self.after_step();
    }

    fn next_hand(&mut self) {
        if self.driver.session().is_over() {
            self.mode = Mode::MatchOver;
            return;
        }
        match self.driver.deal_next(self.clock) {
            Ok(events) => {
                self.mode = Mode::Playing;
                self.hand_started(events);
            }
            Err(e) => {
                self.notice = Some(format!("Could not deal the next hand: {e}"));
                self.mode = Mode::MatchOver;
            }
        }
    }

    /// Tells the person something that happened outside the table (an outside bot dismissed):
    /// the notice line until their next key (the view wraps it whole), and the log, where it
    /// stays.
    pub fn tell(&mut self, m: String) {
        self.notice = Some(m.clone());
        self.told = true;
        self.push_message(m);
    }

    fn push_message(&mut self, m: String) {
        if self.messages.len() == MESSAGES {
            self.messages.pop_front();
        }
        if self.log_scroll > 0 {
            // Scrolled back: the lines on screen stay put as new ones arrive.
            self.log_scroll += 1;
        }
        // The pages noted stay the same messages (a PgDn to the newest stays there).
        let pages = self.log_pages.get();
        self.log_pages.set(LogPages {
            up: pages.up + 1,
            down: if pages.down > 0 { pages.down + 1 } else { 0 },
        });
        self.messages.push_back(m);
    }
}

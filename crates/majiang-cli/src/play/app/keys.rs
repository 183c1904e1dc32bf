//! The human's keys: what each key does in each mode (play, a choice, help, the end of a hand,
//! quitting), the offers of claims and kongs, and a refused action worded for the notice line.

use super::{App, Key, Mode};
use majiang::table::{Action, ActionError, MatchError};
use majiang::tile::Tile;

/// What the person may do at the table now, as the key line lists it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Offered {
    /// A discard (pick and discard).
    pub discard: bool,
    /// Discarding the wildcard would be a 财飘 (Fortune Gambit).
    pub gambit: bool,
    /// A win (胡), self-drawn or on the tile on offer.
    pub win: bool,
    /// A chow (吃).
    pub chow: bool,
    /// A pung (碰).
    pub pung: bool,
    /// A kong (杠): exposed, concealed or added.
    pub kong: bool,
    /// Passing on the tile on offer.
    pub pass: bool,
}

impl Offered {
    /// What `legal` offers; `gambit` when a wild discard would be a Fortune Gambit.
    pub fn from_legal(legal: &[Action], gambit: bool) -> Self {
        let has = |f: &dyn Fn(&Action) -> bool| legal.iter().any(f);
        let discard = has(&|a| matches!(a, Action::Discard(_)));
        Offered {
            discard,
            gambit: discard && gambit,
            win: has(&|a| *a == Action::Win),
            chow: has(&|a| matches!(a, Action::Chow { .. })),
            pung: has(&|a| *a == Action::Pung),
            kong: has(&|a| {
                matches!(
                    a,
                    Action::Kong | Action::ConcealedKong(_) | Action::AddedKong(_)
                )
            }),
            pass: has(&|a| *a == Action::Pass),
        }
    }

    /// The keys for what is offered, in the key line's order; "(waiting for the bots)" when
    /// nothing is.
    pub fn keys(self) -> Vec<&'static str> {
        let mut keys = Vec::new();
        if self.discard {
            keys.extend(["←/→ pick", "Enter discard"]);
            if self.gambit {
                keys.push("(wild discard = 财飘)");
            }
        }
        for (offered, key) in [
            (self.win, "w win (hu)"),
            (self.chow, "c chow"),
            (self.pung, "p pung"),
            (self.kong, "k kong"),
            (self.pass, "Space pass"),
        ] {
            if offered {
                keys.push(key);
            }
        }
        if self == Offered::default() {
            keys.push("(waiting for the bots)");
        }
        keys.extend(["? help", "q quit"]);
        keys
    }
}

impl App {
    /// The keys that do something now, for the key line (the view wraps them).
    pub fn keys(&self) -> Vec<&'static str> {
        let mut keys: Vec<&'static str> = match &self.mode {
            Mode::Playing => {
                let legal = self.driver.session().game().legal_actions(self.human);
                let discard = legal.iter().any(|a| matches!(a, Action::Discard(_)));
                let gambit = discard && self.observation().wildcard_discard_is_gambit;
                Offered::from_legal(&legal, gambit).keys()
            }
            Mode::Choose(_) => vec!["1-9 or ←/→ + Enter choose", "Esc back"],
            Mode::HandOver if self.driver.session().is_over() => {
                vec!["Enter standings", "? help", "q quit"]
            }
            Mode::HandOver => vec!["Enter next hand", "? help", "q quit"],
            Mode::MatchOver => vec!["Enter or q leave"],
            Mode::ConfirmQuit(_) => vec!["y abandon the match", "n keep playing"],
            Mode::Help(_) => vec!["any key back to the game"],
            Mode::Quit => Vec::new(),
        };
        if self.mode == Mode::HandOver && self.summary_rows_hidden.get() > 0 {
            keys.insert(1, "↑/↓ PgUp/PgDn scroll the box");
        }
        keys
    }

    /// Handles one key.
    pub fn on_key(&mut self, key: Key) {
        self.notice = None;
        self.told = false;
        if key == Key::Interrupt {
            self.mode = Mode::Quit;
            return;
        }
        if !self.fits && !matches!(self.mode, Mode::ConfirmQuit(_)) {
            match key {
                Key::Char('q' | 'Q') => self.confirm_quit(),
                _ => {
                    self.notice = Some("The table is hidden: enlarge the terminal to play.".into());
                }
            }
            return;
        }
        if self.mode == Mode::HandOver {
            // The keys that scroll scroll the end-of-hand box, whose payments may not all fit.
            let hidden = self.summary_rows_hidden.get();
            match key {
                Key::Down | Key::PageDown => {
                    let step = if key == Key::Down { 1 } else { 5 };
                    self.summary_scroll = (self.summary_scroll + step).min(hidden);
                    return;
                }
                Key::Up | Key::PageUp => {
                    let step = if key == Key::Up { 1 } else { 5 };
                    self.summary_scroll = self.summary_scroll.saturating_sub(step);
                    return;
                }
                _ => {}
            }
        }
        match key {
            Key::PageUp => {
                self.log_scroll = self.log_pages.get().up;
                return;
            }
            Key::PageDown => {
                self.log_scroll = self.log_pages.get().down;
                return;
            }
            _ => {}
        }
        match self.mode.clone() {
            Mode::Quit => {}
            Mode::Help(back) => self.mode = *back,
            Mode::ConfirmQuit(back) => match key {
                Key::Char('y' | 'Y') => self.mode = Mode::Quit,
                Key::Char('n' | 'N') | Key::Esc => self.mode = *back,
                _ => self.notice = Some("Abandon the match? Press y or n.".into()),
            },
            Mode::MatchOver => match key {
                Key::Enter | Key::Char('q' | 'Q') | Key::Esc => self.mode = Mode::Quit,
                Key::Char('g') => self.style = self.style.toggled(),
                _ => {}
            },
            Mode::HandOver => match key {
                Key::Enter | Key::Char('n') => self.next_hand(),
                Key::Char('g') => self.style = self.style.toggled(),
                Key::Char('?') => self.open_help(),
                Key::Char('q') => self.confirm_quit(),
                _ if self.driver.session().is_over() => {
                    self.notice = Some("Press Enter for the standings.".into());
                }
                _ => self.notice = Some("Press Enter for the next hand.".into()),
            },
            Mode::Choose(options) => self.on_choose_key(key, &options),
            Mode::Playing => self.on_play_key(key),
        }
    }

    fn open_help(&mut self) {
        let back = std::mem::replace(&mut self.mode, Mode::Quit);
        self.mode = Mode::Help(Box::new(back));
    }

    fn confirm_quit(&mut self) {
        let back = std::mem::replace(&mut self.mode, Mode::Quit);
        self.mode = Mode::ConfirmQuit(Box::new(back));
    }

    fn on_choose_key(&mut self, key: Key, options: &[Action]) {
        match key {
            Key::Esc => self.mode = Mode::Playing,
            Key::Left => self.cursor = self.cursor.saturating_sub(1),
            Key::Right => self.cursor = (self.cursor + 1).min(options.len() - 1),
            Key::Enter => {
                let a = options[self.cursor.min(options.len() - 1)];
                self.mode = Mode::Playing;
                self.human_acts(a);
            }
            Key::Char(c) if c.is_ascii_digit() => {
                let i = c.to_digit(10).unwrap_or(0) as usize;
                match i.checked_sub(1).and_then(|i| options.get(i)) {
                    Some(&a) => {
                        self.mode = Mode::Playing;
                        self.human_acts(a);
                    }
                    None => self.notice = Some(format!("Choose 1 to {}.", options.len())),
                }
            }
            Key::Char('q') => self.confirm_quit(),
            _ => self.notice = Some("Choose with 1-9 (or ←/→ and Enter), Esc to go back.".into()),
        }
    }

    fn on_play_key(&mut self, key: Key) {
        let legal = self.driver.session().game().legal_actions(self.human);
        let n_tiles = self.hand_tiles().len();
        match key {
            Key::Char('q') => self.confirm_quit(),
            Key::Char('g') => self.style = self.style.toggled(),
            Key::Char('?') => self.open_help(),
            Key::Left | Key::Char('h') => self.cursor = self.cursor.saturating_sub(1),
            Key::Right | Key::Char('l') => {
                self.cursor = (self.cursor + 1).min(n_tiles.saturating_sub(1));
            }
            Key::Home => self.cursor = 0,
            Key::End => self.cursor = n_tiles.saturating_sub(1),
            _ if legal.is_empty() => {
                self.notice = Some("Not your turn: waiting for the bots.".into());
            }
            Key::Enter | Key::Char('d') => {
                if !legal.iter().any(|a| matches!(a, Action::Discard(_))) {
                    self.notice = Some(
                        "Nothing to discard now: claim with the keys below or pass (Space).".into(),
                    );
                    return;
                }
                let tiles = self.hand_tiles();
                if let Some(&t) = tiles.get(self.cursor) {
                    self.human_acts(Action::Discard(t));
                }
            }
            Key::Char('w') => self.offer(&legal, |a| *a == Action::Win, "win"),
            Key::Char('p') => self.offer(&legal, |a| *a == Action::Pung, "pung"),
            Key::Char('c') => self.offer(&legal, |a| matches!(a, Action::Chow { .. }), "chow"),
            Key::Char('k') => self.offer(
                &legal,
                |a| {
                    matches!(
                        a,
                        Action::Kong | Action::ConcealedKong(_) | Action::AddedKong(_)
                    )
                },
                "kong",
            ),
            Key::Char(' ') | Key::Esc | Key::Char('x') => {
                if legal.contains(&Action::Pass) {
                    self.human_acts(Action::Pass);
                } else {
                    self.notice = Some("Nothing to pass: it is your turn to discard.".into());
                }
            }
            Key::Char(c) => self.notice = Some(format!("The key {c:?} does nothing now.")),
            _ => {}
        }
    }

    /// Takes the one legal action matching `f`, or offers a choice of several.
    fn offer(&mut self, legal: &[Action], f: impl Fn(&Action) -> bool, what: &str) {
        let options: Vec<Action> = legal.iter().copied().filter(|a| f(a)).collect();
        match options.len() {
            0 => {
                let probe = self.probe(what);
                self.notice = Some(
                    match self.driver.session().game().check(self.human, probe) {
                        Err(e) => self.refusal(&e),
                        Ok(()) => format!("You cannot {what} now."),
                    },
                );
            }
            1 => self.human_acts(options[0]),
            _ => {
                self.cursor = 0;
                self.mode = Mode::Choose(options);
            }
        }
    }

    /// Why the game refused the human's action, in words: "You cannot chow the East wind:
    /// …", "You cannot pung now: it is Bot 2's turn".
    fn refusal(&self, e: &ActionError) -> String {
        let config = self.ruleset().config();
        match e {
            ActionError::Illegal { action, reason, .. } => {
                let what = match action {
                    Action::Chow { .. } | Action::Pung | Action::Kong => {
                        let verb = match action {
                            Action::Chow { .. } => "chow",
                            Action::Pung => "pung",
                            _ => "kong",
                        };
                        match self.observation().on_offer {
                            Some((_, t)) => format!("{verb} the {}", config.tile_name(t)),
                            None => verb.to_string(),
                        }
                    }
                    Action::Discard(t) => format!("discard the {}", config.tile_name(*t)),
                    Action::ConcealedKong(t) | Action::AddedKong(t) => {
                        format!("declare a kong of the {}", config.tile_name(*t))
                    }
                    Action::Win => "win".to_string(),
                    other => other.to_string(),
                };
                format!("You cannot {what}: {reason}.")
            }
            ActionError::NotYourTurn { .. } => "Not your turn: waiting for the bots.".to_string(),
            ActionError::HandOver => "The hand is over.".to_string(),
            other => format!("Refused: {other}."),
        }
    }

    /// A representative action for an explanation of why `what` is refused.
    fn probe(&self, what: &str) -> Action {
        match what {
            "win" => Action::Win,
            "pung" => Action::Pung,
            "kong" => Action::Kong,
            _ => {
                let t = self.observation().on_offer.map_or(Tile::EAST, |(_, t)| t);
                Action::Chow { tiles: [t, t, t] }
            }
        }
    }

    fn human_acts(&mut self, action: Action) {
        if let Err(e) = self.apply(self.human, action) {
            self.notice = Some(match e {
                MatchError::Action { error, .. } => self.refusal(&error),
                other => format!("Refused: {other}."),
            });
        }
    }
}

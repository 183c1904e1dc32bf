//! One match flow: a [`Session`] holds the [`Match`], the hand in play and the [`MatchLog`],
//! takes one `(player, action)` at a time, says what happened and writes the log as it goes.
//!
//! Every driver steps a match through a session: the server, `majiang play`, `majiang
//! selfplay`, [`play_match`](crate::driver::play_match) and [`replay`](super::replay::replay),
//! which re-drives a session with a log's actions and compares the records the session writes
//! with the logged ones.
//!
//! Dealing the next hand is an explicit step ([`Session::deal_next`]), so a caller can show the
//! finished hand first; until then [`Session::game`] is the finished hand and
//! [`Session::awaiting_deal`] is true.
//!
//! ```
//! use majiang::table::{TableRules, Session};
//! use std::sync::Arc;
//!
//! let rules = Arc::new(TableRules::from_name("classic", &serde_json::Map::new()).unwrap());
//! let (mut session, _opening) = Session::new(rules, 3, None).unwrap();
//! // Everyone takes the first legal action until the match ends.
//! while !session.is_over() {
//!     if session.awaiting_deal() {
//!         session.deal_next().unwrap();
//!         continue;
//!     }
//!     let p = session.to_act().unwrap();
//!     let action = session.legal_actions(p)[0];
//!     let step = session.act(p, action).unwrap();
//!     if let Some(s) = &step.settlement {
//!         assert_eq!(s.hand_number, step.hand_number);
//!     }
//! }
//! assert_eq!(session.matches().hands_played(), 4);
//! assert!(majiang::table::replay(&session.log().to_jsonl()).unwrap().complete);
//! ```

use super::game::Game;
use super::log::MatchLog;
use super::matches::{Match, MatchError, Settlement, Standing};
use super::table_rules::TableRules;
use super::{Action, Event, Observation, Player};
use std::sync::Arc;

/// The opening of a match: the seat choice and the first deal.
#[derive(Debug, Clone, PartialEq)]
pub struct Opening {
    /// The seat choice ceremony (full truth).
    pub seat_choice: Vec<Event>,
    /// The first hand's deal (full truth; filter per viewer with [`Event::seen_by`]).
    pub deal: Vec<Event>,
}

/// What one action did.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The hand the action was played in (from 1).
    pub hand_number: u32,
    /// The events it caused (full truth; filter per viewer with [`Event::seen_by`]).
    pub events: Vec<Event>,
    /// Set when the action ended the hand: what the hand did to the match.
    pub settlement: Option<Settlement>,
    /// True when the action ended the match.
    pub match_over: bool,
}

/// A match in play, with its log.
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    m: Match,
    game: Game,
    previous: Option<Game>,
    log: MatchLog,
}

impl Session {
    /// Starts a match under `ruleset` (every die and shuffle fixed by `seed`; at most
    /// `hand_limit` hands, if given): the seat choice, then the first deal.
    pub fn new(
        ruleset: Arc<TableRules>,
        seed: u64,
        hand_limit: Option<u32>,
    ) -> Result<(Session, Opening), MatchError> {
        let (mut m, seat_choice) = Match::with_hand_limit(ruleset, seed, hand_limit);
        let mut log = MatchLog::new(&m);
        log.push_events(None, seat_choice.iter().cloned());
        let (game, deal) = m.start_hand()?;
        log.push_hand(game.setup());
        log.push_events(Some(game.setup().hand_number), deal.iter().cloned());
        let session = Session {
            m,
            game,
            previous: None,
            log,
        };
        Ok((session, Opening { seat_choice, deal }))
    }

    /// The match (rules, seats, ledger, settlements, rotation).
    pub fn matches(&self) -> &Match {
        &self.m
    }

    /// The rule set.
    pub fn ruleset(&self) -> &Arc<TableRules> {
        self.m.ruleset()
    }

    /// The hand in play, or the hand just finished until [`Session::deal_next`] (once the match
    /// is over: its last hand).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The hand before [`Session::game`], once a second hand has been dealt.
    pub fn previous_game(&self) -> Option<&Game> {
        self.previous.as_ref()
    }

    /// The most recently finished hand: [`Session::game`] once it is over, else the hand before
    /// it (`None` while the first hand is in play).
    pub fn finished_game(&self) -> Option<&Game> {
        if self.game.is_over() {
            Some(&self.game)
        } else {
            self.previous.as_ref()
        }
    }

    /// The settlement of the most recently finished hand.
    pub fn last_settlement(&self) -> Option<&Settlement> {
        self.m.settlements().last()
    }

    /// The log written so far.
    pub fn log(&self) -> &MatchLog {
        &self.log
    }

    /// The match and its log, giving up the session.
    pub fn into_parts(self) -> (Match, MatchLog) {
        (self.m, self.log)
    }

    /// Records the names the players see in play, by entrant ("You", "Bot 1"), in the log's
    /// header, so a replay can show them. Call it before the log is written out.
    pub fn name_entrants(&mut self, names: Vec<String>) {
        if let Some(super::log::LogRecord::Header(h)) = self.log.records.first_mut() {
            h.names = names;
        }
    }

    /// For each entrant, the chair they sit in.
    pub fn chairs(&self) -> &[Player] {
        self.m.chairs()
    }

    /// Chips per chair so far.
    pub fn ledger(&self) -> &[i64] {
        self.m.ledger()
    }

    /// The standings, best first.
    pub fn standings(&self) -> Vec<Standing> {
        self.m.standings()
    }

    /// The number of [`Session::game`] (from 1).
    pub fn hand_number(&self) -> u32 {
        self.game.setup().hand_number
    }

    /// True once the match has ended.
    pub fn is_over(&self) -> bool {
        self.m.is_over()
    }

    /// True when the hand has ended, the match goes on and [`Session::deal_next`] is due.
    pub fn awaiting_deal(&self) -> bool {
        self.game.is_over() && !self.m.is_over()
    }

    /// The first player who must decide now (`None` between hands and after the match).
    pub fn to_act(&self) -> Option<Player> {
        self.game.to_act().next()
    }

    /// What `player` may do now (empty when they have nothing to decide).
    pub fn legal_actions(&self, player: Player) -> Vec<Action> {
        self.game.legal_actions(player)
    }

    /// What `player` may see of the hand in play.
    pub fn observation(&self, player: Player) -> Observation {
        self.game.observation(player)
    }

    /// Applies `action` of `player` to the hand in play and logs it; when it ends the hand, the
    /// hand is settled (and the match may end). Refused actions leave the session unchanged:
    /// [`MatchError::Over`] once the match is over, else [`MatchError::Action`] with the
    /// game's refusal (between hands, [`ActionError::HandOver`](super::ActionError::HandOver)).
    pub fn act(&mut self, player: Player, action: Action) -> Result<Step, MatchError> {
        if self.m.is_over() {
            return Err(MatchError::Over);
        }
        let hand = self.hand_number();
        let events = self
            .game
            .apply(player, action)
            .map_err(|error| MatchError::Action { hand, error })?;
        self.log.push_action(hand, player, action);
        self.log.push_events(Some(hand), events.iter().cloned());
        let mut step = Step {
            hand_number: hand,
            events,
            settlement: None,
            match_over: false,
        };
        if self.game.is_over() {
            // The game is this match's hand in progress and it is over: settling it cannot be
            // refused.
            let settlement = self.m.finish_hand(&self.game)?;
            self.log.push_settlement(settlement.clone());
            if self.m.is_over() {
                self.log.push_end(&self.m);
                step.match_over = true;
            }
            step.settlement = Some(settlement);
        }
        Ok(step)
    }

    /// Deals the next hand once the previous one has ended: its setup events (full truth).
    /// Refused while a hand is in play ([`MatchError::HandInProgress`]) and once the match is
    /// over ([`MatchError::Over`]); the session is then unchanged.
    pub fn deal_next(&mut self) -> Result<Vec<Event>, MatchError> {
        if self.m.is_over() {
            return Err(MatchError::Over);
        }
        if !self.game.is_over() {
            return Err(MatchError::HandInProgress(self.hand_number()));
        }
        let (game, events) = self.m.start_hand()?;
        self.log.push_hand(game.setup());
        self.log
            .push_events(Some(game.setup().hand_number), events.iter().cloned());
        self.previous = Some(std::mem::replace(&mut self.game, game));
        Ok(events)
    }
}

//! The table engine: one hand of mahjong from the shuffle to the last payment, for every rule
//! set, deterministic from a seed.
//!
//! - [`TableRules`] ([`table_rules`]): a rule set with its options, the table facts derived from them
//!   ([`TableConfig`]) and the hooks the engine asks (who may win off whom, scoring).
//! - [`Wall`] ([`wall`]): four sides of stacks two high, broken by the dice, the dead wall.
//! - [`Game`] ([`game`]): the state machine. [`Game::to_act`] says who must decide,
//!   [`Game::legal_actions`] what they may do, and [`Game::apply`] does it, returning the
//!   [`Event`]s it caused or an [`ActionError`] (the game is then unchanged; an
//!   [`IllegalReason`] says why).
//! - [`Observation`] ([`observation`]): what one player may see; [`ready_hint`] ([`hint`]):
//!   how far their hand is from ready, each wait's unseen copies and what it would score.
//! - [`choose_seats`] ([`seating`]): seats and the first dealer, once per match.
//! - [`Match`] ([`matches`](mod@matches)): a whole match, hand after hand, with its ledger;
//!   [`MatchLog`] ([`log`]): its JSON-lines record.
//! - [`Session`] ([`session`]): one match flow, the match, the hand in play and the log written
//!   as actions come in; every driver uses it, and [`replay()`] ([`mod@replay`]) checks a log by
//!   re-driving one.
//!
//! Players are chairs, [`Player`]`(0..n)`, fixed for a match; each hand the dealer is East and
//! the other seat winds follow in turn order ([`Game::seat_of`]).
//!
//! ```
//! use majiang::table::{Game, HandSetup, TableRules};
//! use std::sync::Arc;
//!
//! let rules = Arc::new(TableRules::from_name("hangzhou", &serde_json::Map::new()).unwrap());
//! let (mut game, _deal) = Game::new(rules, HandSetup::new(7)).unwrap();
//! // Everyone always takes the first legal action (a win if there is one, else the first
//! // discard or claim) until the hand ends.
//! while !game.is_over() {
//!     let p = game.to_act().next().unwrap();
//!     let action = game.legal_actions(p)[0];
//!     game.apply(p, action).unwrap();
//! }
//! assert!(game.outcome().is_some());
//! ```
//!
//! ## Readings the seeds leave open
//!
//! - **Wall.** A table of three or four has four sides, `tiles / 8` stacks a side (five and six
//!   players: one side per player, see below). The
//!   dealer's dice (two; three in Hong Kong, as seed 004 says) count the sides from the dealer's
//!   own in turn order, then that many *stacks* from the side's right end. Replacement tiles come
//!   from the far end; which of a stack's two tiles comes first is not modelled (copies of a kind
//!   are alike).
//! - **Dead wall.** Hong Kong keeps 14, made up again from the live wall's tail after each
//!   replacement. Hangzhou keeps the last 20, used up by replacements; the indicator
//!   (`wildcard = "indicator"`) is the tile `dice` places from the back, so the 20 become 19.
//!   Yangzhou and classic keep none. The hand is drawn when a player must draw and only the dead
//!   wall is left.
//! - **Turn.** After a chow or pung the claimer only discards. A kong needs a tile to replace it.
//!   An added kong may use a fourth tile drawn earlier and kept.
//! - **Circumstances.** Heavenly: the dealer wins on the dealt hand. Earthly: a non-dealer wins on
//!   the dealer's first discard, nothing claimed before. Kong replacement: won on a replacement
//!   tile (after a kong or a flower). Last wall tile: the live wall's last tile, self-drawn. Last
//!   discard: a discard made with the live wall empty.
//! - **Fortune Gambit.** A wildcard discard is a gambit when the thirteen tiles left are in the
//!   Bao Tou state. While a player's run lasts, on each of their draws they may only win, declare
//!   a concealed kong or discard the drawn tile; discarding a drawn wildcard continues the run,
//!   any other tile ends it. Any wildcard discard opens a round with no claims until its
//!   discarder's next draw (a later wildcard discard moves the end of the round to its own
//!   discarder).
//! - **Five and six players** (classic, [`extra_wind_play`]). The bonus tiles are extra winds,
//!   playing tiles of one honour kind (`1f`–`4f` at five, `1f`–`8f` at six): held apart from
//!   the 34-kind counts ([`Game::extra_winds`]), discarded, punged, konged at five, never
//!   chowed. One wall side per player (5 × 14 stacks = 140 tiles, 6 × 12 = 144). Six players
//!   hold 10 tiles (11 to East) and win with three pungs and a pair: no chows, no kongs.
//!
//! ## Modules

pub mod action;
mod complete;
mod dealt;
mod dice;
pub mod event;
pub mod extra_wind_play;
pub mod game;
pub mod hint;
pub mod log;
pub mod matches;
pub mod observation;
pub mod progress;
pub mod replay;
pub mod seating;
pub mod session;
pub mod table_rules;
pub mod wall;

pub use crate::config::{DeadWall, SeatChoiceRule, TableConfig, WildcardRule};
pub use crate::extra_winds::ExtraWinds;
pub use crate::seat::Player;
pub use action::{Action, ActionError, IllegalReason};
pub use dealt::DealtTiles;
pub use event::{DicePurpose, Event, KongKind, PlayerPayment, PlayerScore};
pub use game::{
    Actors, DiscardRecord, Game, HandOutcome, HandSetup, LegalSet, SetupError, TileSource,
};
pub use hint::{ReadyHint, Wait, ready_hint};
pub use log::MatchLog;
pub use matches::{Match, MatchError, Settlement};
pub use observation::{Observation, PublicHand};
pub use replay::{ChangedRule, ReplayError, ReplayReport, replay};
pub use seating::{SeatChoice, choose_seats};
pub use session::{Opening, Session, Step};
pub use table_rules::TableRules;
pub use wall::{Wall, WallError};

use crate::words::WordsDef;

/// Every message the library may tell a person, each key once: refused actions
/// (`illegal.*`, `refused.*`), not-a-win reasons (`invalid.*`), refused house rules and
/// requests (`options.*`, `request.*`), and [`TEXT`](crate::words::TEXT) — for a front end's
/// catalogue to be checked against, as [`reason_keys`](crate::rules::reason_keys) is for payments.
pub fn messages() -> Vec<&'static WordsDef> {
    let mut all: Vec<&'static WordsDef> = vec![&crate::words::TEXT];
    all.extend(action::WORDS);
    all.extend(crate::scoring::INVALID_WORDS);
    all.extend(crate::rules::option_table::WORDS);
    all
}

#[cfg(test)]
mod tests {
    use super::messages;

    #[test]
    fn every_library_message_names_its_values() {
        let all = messages();
        crate::words::check_table(&all).unwrap();
        assert!(all.len() > 30, "{}", all.len());
        assert!(all.iter().any(|d| d.key == "invalid.not_a_winning_hand"));
        assert!(all.iter().any(|d| d.key == "illegal.not_held"));
        assert!(all.iter().any(|d| d.key == "options.not_allowed"));
    }
}

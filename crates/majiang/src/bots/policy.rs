//! The one seat policy for a bot's choice, shared by every loop that lets bots play: the seat
//! driver ([`Driver`](crate::driver::Driver): the server's rooms, `majiang play`, `selfplay`,
//! the Python `Table`), [`play_hand`](super::play_hand) (`majiang sim`, the benchmarks) and the
//! Python vector tables.
//!
//! A bot whose choice the engine would refuse (a bug in a bot, or a bot that is not ours) does
//! not stop the hand: its seat plays the first legal action instead, and the refusal is kept
//! for the caller to count or log.

use crate::table::{Action, ActionError, Game, Player};

/// What a seat plays after its bot chose: the action, and the bot's refused choice if the
/// engine would not take it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatAction {
    /// The action the seat plays: the bot's choice, or the first legal action if that was
    /// refused.
    pub action: Action,
    /// The bot's choice and the engine's reason, when it was refused.
    pub refused: Option<(Action, ActionError)>,
}

impl SeatAction {
    /// The bot's choice `chosen` for player `p`, played if the engine takes it, else the first
    /// of `legal` (the list [`Game::legal_actions`] gives for `p`, never empty while `p` must
    /// act).
    pub fn of(game: &Game, p: Player, chosen: Action, legal: &[Action]) -> SeatAction {
        match game.check(p, chosen) {
            Ok(()) => SeatAction {
                action: chosen,
                refused: None,
            },
            Err(error) => SeatAction {
                action: legal.first().copied().unwrap_or(chosen),
                refused: Some((chosen, error)),
            },
        }
    }
}

/// A bot's refused choice during [`play_hand_reporting`](super::play_hand_reporting).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The bot's name.
    pub name: &'static str,
    /// Its player.
    pub player: Player,
    /// What it chose.
    pub chosen: Action,
    /// The engine's reason.
    pub error: ActionError,
}

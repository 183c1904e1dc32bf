//! What a player can do: the actions, and why one is refused.

use super::Player;
use crate::tile::Tile;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One decision of one player.
///
/// On your turn: [`Action::Discard`], [`Action::ConcealedKong`], [`Action::AddedKong`],
/// [`Action::Win`] (self-drawn). When someone else discards (or adds a tile to a kong) and you
/// can use it: a claim ([`Action::Chow`], [`Action::Pung`], [`Action::Kong`], [`Action::Win`])
/// or [`Action::Pass`]. Flowers are declared and replaced by the engine, not by an action.
///
/// ```
/// use majiang::table::Action;
/// let a: Action = serde_json::from_str(r#"{"discard": "5m"}"#).unwrap();
/// assert_eq!(a, Action::Discard("5m".parse().unwrap()));
/// assert_eq!(serde_json::to_string(&Action::Pung).unwrap(), r#""pung""#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Discard this tile from the hand.
    Discard(Tile),
    /// Claim the discard of the left neighbour for this chow (the three tiles, the claimed one
    /// included, in order).
    Chow {
        /// The chow's tiles, lowest first.
        tiles: [Tile; 3],
    },
    /// Claim the discard for a pung (two in hand).
    Pung,
    /// Claim the discard for an exposed kong (three in hand).
    Kong,
    /// Declare a concealed kong of this kind (four in hand).
    ConcealedKong(Tile),
    /// Add this tile (held in hand) to an exposed pung of the same kind.
    AddedKong(Tile),
    /// Declare a win: self-drawn on your turn, or on the discard (or robbed kong tile) on offer.
    Win,
    /// Let the discard (or robbable kong tile) go.
    Pass,
}

impl Action {
    /// True for claims on someone else's tile (chow, pung, kong) and for passing.
    pub fn is_claim_answer(&self) -> bool {
        matches!(
            self,
            Action::Chow { .. } | Action::Pung | Action::Kong | Action::Pass
        )
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Discard(t) => write!(f, "discard {t}"),
            Action::Chow { tiles } => write!(f, "chow {}{}{}", tiles[0], tiles[1], tiles[2]),
            Action::Pung => f.write_str("pung"),
            Action::Kong => f.write_str("kong"),
            Action::ConcealedKong(t) => write!(f, "concealed kong of {t}"),
            Action::AddedKong(t) => write!(f, "added kong of {t}"),
            Action::Win => f.write_str("win"),
            Action::Pass => f.write_str("pass"),
        }
    }
}

/// Why an action was refused. The game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The hand is over.
    #[error("the hand is over: no more actions")]
    HandOver,
    /// No such player at this table.
    #[error("there is no player {player} at a table of {players}")]
    NoSuchPlayer {
        /// The player named.
        player: Player,
        /// Players at the table.
        players: usize,
    },
    /// The player has nothing to decide now.
    #[error("player {player} has nothing to decide now (waiting for {waiting})")]
    NotYourTurn {
        /// The player who acted.
        player: Player,
        /// Who the game is waiting for, as text.
        waiting: String,
    },
    /// The player may act, but not this way.
    #[error("player {player} cannot {action} now: {reason}")]
    Illegal {
        /// The player who acted.
        player: Player,
        /// The refused action.
        action: Action,
        /// Why, for a person.
        reason: String,
    },
}

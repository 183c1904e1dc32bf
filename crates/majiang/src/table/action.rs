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
        /// Why.
        reason: IllegalReason,
    },
}

/// Why a player who must decide may not take the action they chose (the message is for a
/// person).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalReason {
    // ----- on your turn -----
    /// A self-drawn win with a hand that is not a winning shape.
    #[error("the hand is not complete")]
    NotComplete,
    /// A win (self-drawn, on a discard or robbing a kong) that the rule set does not score.
    #[error("the hand does not win: {0}")]
    DoesNotScore(String),
    /// Anything but a discard right after a chow or pung.
    #[error("after a chow or pung the claimer only discards")]
    JustClaimed,
    /// Discarding (or adding to a kong) a tile the player does not hold.
    #[error("{tile} is not in the hand")]
    NotHeld {
        /// The tile named.
        tile: Tile,
    },
    /// Discarding another tile than the one just drawn during a Fortune Gambit run.
    #[error("during a Fortune Gambit run only the tile just drawn ({drawn}) may be discarded")]
    GambitRunDiscard {
        /// The tile just drawn.
        drawn: Tile,
    },
    /// An added kong during a Fortune Gambit run.
    #[error(
        "during a Fortune Gambit run a player may only win, declare a concealed kong or \
         discard the tile just drawn"
    )]
    GambitRunAddedKong,
    /// A kong under rules that have none (six-player classic).
    #[error("these rules have no kongs")]
    NoKongs,
    /// A kong when no replacement tile is left to draw.
    #[error("no replacement tile is left for a kong")]
    NoReplacementTile,
    /// A concealed kong without four of the kind in hand.
    #[error("a concealed kong needs four {tile} in hand")]
    ConcealedKongNeedsFour {
        /// The kind named.
        tile: Tile,
    },
    /// A concealed kong of extra winds named by another tile than the lowest of the four.
    #[error("a kong of extra winds is declared by the lowest of them, {lowest}")]
    ExtraWindKongName {
        /// The lowest extra wind held.
        lowest: Tile,
    },
    /// A kong of the wild kind.
    #[error("wildcards never count toward a kong")]
    WildcardKong,
    /// An added kong without an exposed pung of the kind.
    #[error("an added kong needs an exposed pung of {tile}")]
    AddedKongNeedsPung {
        /// The tile named.
        tile: Tile,
    },
    /// A claim or a pass on the player's own turn.
    #[error("it is your turn: discard, declare a kong or win")]
    OnTurn,

    // ----- a discard or an added kong on offer -----
    /// A second answer to the same tile on offer.
    #[error("already answered")]
    AlreadyAnswered,
    /// A turn action while a discard is on offer.
    #[error("someone's discard is on offer: claim it or pass")]
    ClaimOrPass,
    /// A win on a discard by a player the rules do not let the claimer win off (Hangzhou's
    /// lao phases).
    #[error("the rules do not let you win on this player's discard now")]
    MayNotWinOff,
    /// A win on a tile that does not complete the hand.
    #[error("{tile} does not complete your hand")]
    DoesNotComplete {
        /// The tile on offer.
        tile: Tile,
    },
    /// A pung without two of the kind in hand.
    #[error("a pung needs two {tile} in hand")]
    PungNeedsTwo {
        /// The discard.
        tile: Tile,
    },
    /// An exposed kong without three of the kind in hand.
    #[error("an exposed kong needs three {tile} in hand")]
    KongNeedsThree {
        /// The discard.
        tile: Tile,
    },
    /// A chow under rules that have none.
    #[error("these rules have no chows")]
    NoChows,
    /// A chow on the discard of anyone but the left neighbour.
    #[error("a chow may only be claimed from the player on your left")]
    ChowNotFromLeft,
    /// A chow that is not three tiles in a row of one suit with the discard among them.
    #[error("a chow is three tiles in a row of one suit, the discard {tile} among them")]
    ChowShape {
        /// The discard.
        tile: Tile,
    },
    /// A chow using a wildcard.
    #[error("wildcards never count toward a chow")]
    WildcardChow,
    /// A chow whose other two tiles are not in hand.
    #[error("the chow's other two tiles must be in hand")]
    ChowTilesNotHeld,
    /// Anything but a win or a pass while an added kong is on offer.
    #[error("an added kong is on offer: rob it (win) or pass")]
    RobOrPass,
}

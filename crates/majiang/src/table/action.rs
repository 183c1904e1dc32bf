//! What a player can do: the actions, and why one is refused.

use super::Player;
use crate::tile::Tile;
use crate::words::Words;
use serde::{Deserialize, Serialize};
use serde_json::Value;
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
    DoesNotScore(Words),
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
    /// A win on a discard or a robbed kong of a kind whose win the player passed since their
    /// last draw from the live wall (Hong Kong's missed win, `missed_win`).
    #[error("you passed this tile's win: wait for your next draw")]
    MissedWin,
    /// A chow, pung or kong on the last discard (after the live wall's last tile was drawn),
    /// which may be claimed only to win.
    #[error("the last discard may be claimed only to win")]
    LastDiscard,
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

// ----- the refusals as a person reads them (catalogue keys) -----

crate::words_table! {
    /// Every refusal of an action a person may be told ([`ActionError::words`]).
    pub static WORDS;
    HAND_OVER = "refused.hand_over" [] "the hand is over: no more actions";
    NO_SUCH_PLAYER = "refused.no_such_player" [] "there is no such player at this table";
    NOT_YOUR_TURN = "refused.not_your_turn" [] "you have nothing to decide now";
    NOT_COMPLETE = "illegal.not_complete" [] "the hand is not complete";
    JUST_CLAIMED = "illegal.just_claimed" [] "after a chow or pung the claimer only discards";
    NOT_HELD = "illegal.not_held" ["tile"] "{tile} is not in the hand";
    GAMBIT_RUN_DISCARD = "illegal.gambit_run_discard" ["drawn"] "during a Fortune Gambit run only the tile just drawn ({drawn}) may be discarded";
    GAMBIT_RUN_ADDED_KONG = "illegal.gambit_run_added_kong" [] "during a Fortune Gambit run a player may only win, declare a concealed kong or discard the tile just drawn";
    NO_KONGS = "illegal.no_kongs" [] "these rules have no kongs";
    NO_REPLACEMENT_TILE = "illegal.no_replacement_tile" [] "no replacement tile is left for a kong";
    CONCEALED_KONG_NEEDS_FOUR = "illegal.concealed_kong_needs_four" ["tile"] "a concealed kong needs four {tile} in hand";
    EXTRA_WIND_KONG_NAME = "illegal.extra_wind_kong_name" ["lowest"] "a kong of extra winds is declared by the lowest of them, {lowest}";
    WILDCARD_KONG = "illegal.wildcard_kong" [] "wildcards never count toward a kong";
    ADDED_KONG_NEEDS_PUNG = "illegal.added_kong_needs_pung" ["tile"] "an added kong needs an exposed pung of {tile}";
    ON_TURN = "illegal.on_turn" [] "it is your turn: discard, declare a kong or win";
    ALREADY_ANSWERED = "illegal.already_answered" [] "already answered";
    CLAIM_OR_PASS = "illegal.claim_or_pass" [] "someone's discard is on offer: claim it or pass";
    MAY_NOT_WIN_OFF = "illegal.may_not_win_off" [] "the rules do not let you win on this player's discard now";
    MISSED_WIN = "illegal.missed_win" [] "you passed this tile's win: wait for your next draw";
    LAST_DISCARD = "illegal.last_discard" [] "the last discard may be claimed only to win";
    DOES_NOT_COMPLETE = "illegal.does_not_complete" ["tile"] "{tile} does not complete your hand";
    PUNG_NEEDS_TWO = "illegal.pung_needs_two" ["tile"] "a pung needs two {tile} in hand";
    KONG_NEEDS_THREE = "illegal.kong_needs_three" ["tile"] "an exposed kong needs three {tile} in hand";
    NO_CHOWS = "illegal.no_chows" [] "these rules have no chows";
    CHOW_NOT_FROM_LEFT = "illegal.chow_not_from_left" [] "a chow may only be claimed from the player on your left";
    CHOW_SHAPE = "illegal.chow_shape" ["tile"] "a chow is three tiles in a row of one suit, the discard {tile} among them";
    WILDCARD_CHOW = "illegal.wildcard_chow" [] "wildcards never count toward a chow";
    CHOW_TILES_NOT_HELD = "illegal.chow_tiles_not_held" [] "the chow's other two tiles must be in hand";
    ROB_OR_PASS = "illegal.rob_or_pass" [] "an added kong is on offer: rob it (win) or pass";
}

fn tile(t: Tile) -> Value {
    Value::String(t.to_string())
}

impl ActionError {
    /// The refusal as a catalogue key and its values (the tiles in notation), for a person.
    pub fn words(&self) -> Words {
        match self {
            ActionError::HandOver => HAND_OVER.plain(),
            ActionError::NoSuchPlayer { .. } => NO_SUCH_PLAYER.plain(),
            ActionError::NotYourTurn { .. } => NOT_YOUR_TURN.plain(),
            ActionError::Illegal { reason, .. } => reason.words(),
        }
    }
}

impl IllegalReason {
    /// Why, as a catalogue key and its values (the tiles in notation).
    pub fn words(&self) -> Words {
        use IllegalReason as R;
        match self {
            R::NotComplete => NOT_COMPLETE.plain(),
            // The rule set's own reason, as the scoring page tells it.
            R::DoesNotScore(why) => why.clone(),
            R::JustClaimed => JUST_CLAIMED.plain(),
            R::NotHeld { tile: t } => NOT_HELD.with([tile(*t)]),
            R::GambitRunDiscard { drawn } => GAMBIT_RUN_DISCARD.with([tile(*drawn)]),
            R::GambitRunAddedKong => GAMBIT_RUN_ADDED_KONG.plain(),
            R::NoKongs => NO_KONGS.plain(),
            R::NoReplacementTile => NO_REPLACEMENT_TILE.plain(),
            R::ConcealedKongNeedsFour { tile: t } => CONCEALED_KONG_NEEDS_FOUR.with([tile(*t)]),
            R::ExtraWindKongName { lowest } => EXTRA_WIND_KONG_NAME.with([tile(*lowest)]),
            R::WildcardKong => WILDCARD_KONG.plain(),
            R::AddedKongNeedsPung { tile: t } => ADDED_KONG_NEEDS_PUNG.with([tile(*t)]),
            R::OnTurn => ON_TURN.plain(),
            R::AlreadyAnswered => ALREADY_ANSWERED.plain(),
            R::ClaimOrPass => CLAIM_OR_PASS.plain(),
            R::MayNotWinOff => MAY_NOT_WIN_OFF.plain(),
            R::MissedWin => MISSED_WIN.plain(),
            R::LastDiscard => LAST_DISCARD.plain(),
            R::DoesNotComplete { tile: t } => DOES_NOT_COMPLETE.with([tile(*t)]),
            R::PungNeedsTwo { tile: t } => PUNG_NEEDS_TWO.with([tile(*t)]),
            R::KongNeedsThree { tile: t } => KONG_NEEDS_THREE.with([tile(*t)]),
            R::NoChows => NO_CHOWS.plain(),
            R::ChowNotFromLeft => CHOW_NOT_FROM_LEFT.plain(),
            R::ChowShape { tile: t } => CHOW_SHAPE.with([tile(*t)]),
            R::WildcardChow => WILDCARD_CHOW.plain(),
            R::ChowTilesNotHeld => CHOW_TILES_NOT_HELD.plain(),
            R::RobOrPass => ROB_OR_PASS.plain(),
        }
    }
}

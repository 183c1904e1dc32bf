//! Why a hand is not a win, as a person is told it: each reason a catalogue key, the names of
//! its values and its English words ([`WordsDef`](crate::words::WordsDef)). The rule sets build their [`Invalid`]s
//! from these; a reason not listed yet is plain text ([`Invalid::text`]).
//!
//! [`Invalid`]: super::Invalid
//! [`Invalid::text`]: super::Invalid::text

use crate::meld::Meld;
use serde_json::Value;

/// A meld as a value of a reason: its tiles in notation (`123s`), which every language shows
/// as they are.
pub fn meld(m: &Meld) -> Value {
    crate::notation::format_in_order(&m.tiles()).into()
}

crate::words_table! {
    /// Every not-a-win reason with a key.
    pub static INVALID_WORDS;
    /// Not a winning hand.
    pub NOT_A_WINNING_HAND = "invalid.not_a_winning_hand" [] "not a winning hand";
    /// Not a winning hand: it is not four sets and a pair, seven pairs or thirteen orphans.
    pub NOT_SETS_HONGKONG = "invalid.not_sets_hongkong" [] "not a winning hand: it is not four sets and a pair, seven pairs or thirteen orphans";
    /// Not a winning hand: it is neither four sets and a pair nor seven pairs.
    pub NOT_SETS_HANGZHOU = "invalid.not_sets_hangzhou" [] "not a winning hand: it is neither four sets and a pair nor seven pairs";
    /// Not a winning hand: the tiles are not four sets and a pair.
    pub NOT_SETS_YANGZHOU = "invalid.not_sets_yangzhou" [] "not a winning hand: the tiles are not four sets and a pair";
    /// Not a winning hand: the tiles do not form sets and a pair (seven pairs and thirteen orphans do not count in this game).
    pub NOT_SETS_CLASSIC = "invalid.not_sets_classic" [] "not a winning hand: the tiles do not form sets and a pair (seven pairs and thirteen orphans do not count in this game)";
    /// Not a winning hand: the six-player game needs three pungs and a pair.
    pub NOT_SETS_CLASSIC_SIX = "invalid.not_sets_classic_six" [] "not a winning hand: the six-player game needs three pungs and a pair";
    pub BELOW_MINIMUM = "invalid.below_minimum" ["fan", "min"] "{fan} fan is below the minimum of {min} fan";
    pub NO_CHOWS = "invalid.no_chows" ["meld"] "{meld}: chows cannot be claimed in this game (set the option chow = true to allow them)";
    /// A hand has at most four declared melds.
    pub FOUR_MELDS = "invalid.four_melds" [] "a hand has at most four declared melds";
    /// With melds declared meld(s) the concealed hand must be n tiles with the winning tile, not held.
    pub TILE_COUNT = "invalid.tile_count" ["melds", "n", "held"] "with {melds} declared meld(s) the concealed hand must be {n} tiles with the winning tile, not {held}";
    /// More than four tile in one hand.
    pub MORE_THAN_FOUR = "invalid.more_than_four" ["tile"] "more than four {tile} in one hand";
    /// A win on a discard or a robbed kong needs the discarder.
    pub NEEDS_DISCARDER = "invalid.needs_discarder" [] "a win on a discard or a robbed kong needs the discarder";
    /// This rule set is played by four.
    pub PLAYED_BY_FOUR = "invalid.played_by_four" [] "this rule set is played by four";
    /// The rules allow no win on a discard now.
    pub NO_WIN_ON_DISCARD_NOW = "invalid.no_win_on_discard_now" [] "the rules allow no win on a discard now";
    /// The last tile of the wall is drawn: the win must be self-drawn.
    pub LAST_TILE_SELF_DRAWN = "invalid.last_tile_self_drawn" [] "the last tile of the wall is drawn: the win must be self-drawn";
    /// A supplement tile is drawn: the win must be self-drawn.
    pub SUPPLEMENT_SELF_DRAWN = "invalid.supplement_self_drawn" [] "a supplement tile is drawn: the win must be self-drawn";
    /// Out on the last discard needs a win on a discard.
    pub LAST_DISCARD = "invalid.last_discard" [] "out on the last discard needs a win on a discard";
    /// A Heavenly hand is the dealer's self-drawn win on the dealt hand, nothing exposed.
    pub HEAVENLY = "invalid.heavenly" [] "a Heavenly hand is the dealer's self-drawn win on the dealt hand, nothing exposed";
    /// An Earthly hand is a non-dealer's win on the dealer's first discard, nothing exposed.
    pub EARTHLY = "invalid.earthly" [] "an Earthly hand is a non-dealer's win on the dealer's first discard, nothing exposed";
    /// A Fortune Gambit is only won by self-draw from the Bao Tou state (complete sets plus a wildcard before the draw).
    pub GAMBIT_SELF_DRAWN = "invalid.gambit_self_drawn" [] "a Fortune Gambit is only won by self-draw from the Bao Tou state (complete sets plus a wildcard before the draw)";
    /// Flowers and seasons are not in play.
    pub FLOWERS_NOT_IN_PLAY = "invalid.flowers_not_in_play" [] "flowers and seasons are not in play";
    /// The winning tile tile is a bonus tile: bonus tiles are laid aside, not won on.
    pub WON_ON_BONUS = "invalid.won_on_bonus" ["tile"] "the winning tile {tile} is a bonus tile: bonus tiles are laid aside, not won on";
    pub CLAIMED_FROM_SELF = "invalid.claimed_from_self" ["meld", "seat"] "{meld} was claimed from {seat}, the winner's own seat: nobody can claim their own discard";
    pub CHOW_NOT_FROM_LEFT = "invalid.chow_not_from_left" ["meld", "from", "left"] "{meld} was claimed from {from}, but a chow can only be claimed from the player on your left ({left})";
    /// A Kong Blossom win is self-drawn (the kong's replacement tile).
    pub KONG_BLOSSOM_SELF_DRAWN = "invalid.kong_blossom_self_drawn" [] "a Kong Blossom win is self-drawn (the kong's replacement tile)";
    /// A kong chain of kongs needs kongs declared kong(s); the hand has declared.
    pub KONG_CHAIN = "invalid.kong_chain" ["kongs", "declared"] "a kong chain of {kongs} needs {kongs} declared kong(s); the hand has {declared}";
    /// A wildcard is never added to a kong, so it cannot be robbed.
    pub ROB_WILDCARD = "invalid.rob_wildcard" [] "a wildcard is never added to a kong, so it cannot be robbed";
    /// A discarded wildcard cannot be claimed, not even to win.
    pub DISCARDED_WILDCARD = "invalid.discarded_wildcard" [] "a discarded wildcard cannot be claimed, not even to win";
    /// A non-dealer (seat) never wins on another non-dealer's (from) discard.
    pub NON_DEALERS = "invalid.non_dealers" ["seat", "from"] "a non-dealer ({seat}) never wins on another non-dealer's ({from}) discard";
    /// At lao lao every win is self-drawn (or robbing a kong); discard wins between the dealer and a non-dealer start at 3 lao.
    pub LAO_SELF_DRAWN = "invalid.lao_self_drawn" ["lao"] "at {lao} lao every win is self-drawn (or robbing a kong); discard wins between the dealer and a non-dealer start at 3 lao";
    /// Lao counts from 1 (a new dealer is at 1 lao).
    pub LAO_FROM_ONE = "invalid.lao_from_one" [] "lao counts from 1 (a new dealer is at 1 lao)";
    /// The declared meld holds the wildcard tile: wildcards never count toward a kong and cannot be claimed or melded.
    pub WILDCARD_IN_MELD = "invalid.wildcard_in_meld" ["meld", "tile"] "the declared {meld} holds the wildcard {tile}: wildcards never count toward a kong and cannot be claimed or melded";
    /// With an indicator wildcard one tile is the face-up indicator: only three can be in play, not n.
    pub INDICATOR_COPIES = "invalid.indicator_copies" ["tile", "n"] "with an indicator wildcard one {tile} is the face-up indicator: only three can be in play, not {n}";
    pub CONCEALED_KONG_CLAIMED = "invalid.concealed_kong_claimed" ["meld"] "{meld}: a concealed kong is not claimed from anyone";
    pub BONUS_MELD = "invalid.bonus_meld" ["meld"] "{meld} is a meld of bonus tiles: bonus tiles are laid aside, not melded";
    pub EXTRA_WIND_CHOW = "invalid.extra_wind_chow" ["meld"] "{meld}: extra winds form no chow";
    /// The six-player game is three pungs and a pair: no meld.
    pub SIX_PLAYER_MELD = "invalid.six_player_meld" ["meld"] "the six-player game is three pungs and a pair: no {meld}";
}

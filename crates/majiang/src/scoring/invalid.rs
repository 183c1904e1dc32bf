//! Why a hand is not a win, as a person is told it: each reason a catalogue key, the names of
//! its values and its English words ([`WordsDef`]). The rule sets build their [`Invalid`]s
//! from these; a reason not listed yet is plain text ([`Invalid::text`]).
//!
//! [`Invalid`]: super::Invalid
//! [`Invalid::text`]: super::Invalid::text

use crate::meld::Meld;
use crate::words::WordsDef;
use serde_json::Value;

/// A meld as a value of a reason: its tiles in notation (`123s`), which every language shows
/// as they are.
pub fn meld(m: &Meld) -> Value {
    crate::notation::format_in_order(&m.tiles()).into()
}

/// Not a winning hand.
pub static NOT_A_WINNING_HAND: WordsDef = WordsDef {
    key: "invalid.not_a_winning_hand",
    args: &[],
    english: "not a winning hand",
};
/// Not a winning hand: it is not four sets and a pair, seven pairs or thirteen orphans.
pub static NOT_SETS_HONGKONG: WordsDef = WordsDef {
    key: "invalid.not_sets_hongkong",
    args: &[],
    english: "not a winning hand: it is not four sets and a pair, seven pairs or thirteen orphans",
};
/// Not a winning hand: it is neither four sets and a pair nor seven pairs.
pub static NOT_SETS_HANGZHOU: WordsDef = WordsDef {
    key: "invalid.not_sets_hangzhou",
    args: &[],
    english: "not a winning hand: it is neither four sets and a pair nor seven pairs",
};
/// Not a winning hand: the tiles are not four sets and a pair.
pub static NOT_SETS_YANGZHOU: WordsDef = WordsDef {
    key: "invalid.not_sets_yangzhou",
    args: &[],
    english: "not a winning hand: the tiles are not four sets and a pair",
};
/// Not a winning hand: the tiles do not form sets and a pair (seven pairs and thirteen orphans do not count in this game).
pub static NOT_SETS_CLASSIC: WordsDef = WordsDef {
    key: "invalid.not_sets_classic",
    args: &[],
    english: "not a winning hand: the tiles do not form sets and a pair (seven pairs and thirteen orphans do not count in this game)",
};
/// Not a winning hand: the six-player game needs three pungs and a pair.
pub static NOT_SETS_CLASSIC_SIX: WordsDef = WordsDef {
    key: "invalid.not_sets_classic_six",
    args: &[],
    english: "not a winning hand: the six-player game needs three pungs and a pair",
};
/// {fan fan is below the minimum of min fan.
pub static BELOW_MINIMUM: WordsDef = WordsDef {
    key: "invalid.below_minimum",
    args: &["fan", "min"],
    english: "{fan} fan is below the minimum of {min} fan",
};
/// {meld: chows cannot be claimed in this game (set the option chow = true to allow them).
pub static NO_CHOWS: WordsDef = WordsDef {
    key: "invalid.no_chows",
    args: &["meld"],
    english: "{meld}: chows cannot be claimed in this game (set the option chow = true to allow them)",
};
/// A hand has at most four declared melds.
pub static FOUR_MELDS: WordsDef = WordsDef {
    key: "invalid.four_melds",
    args: &[],
    english: "a hand has at most four declared melds",
};
/// With melds declared meld(s) the concealed hand must be n tiles with the winning tile, not held.
pub static TILE_COUNT: WordsDef = WordsDef {
    key: "invalid.tile_count",
    args: &["melds", "n", "held"],
    english: "with {melds} declared meld(s) the concealed hand must be {n} tiles with the winning tile, not {held}",
};
/// More than four tile in one hand.
pub static MORE_THAN_FOUR: WordsDef = WordsDef {
    key: "invalid.more_than_four",
    args: &["tile"],
    english: "more than four {tile} in one hand",
};
/// A win on a discard or a robbed kong needs the discarder.
pub static NEEDS_DISCARDER: WordsDef = WordsDef {
    key: "invalid.needs_discarder",
    args: &[],
    english: "a win on a discard or a robbed kong needs the discarder",
};
/// This rule set is played by four.
pub static PLAYED_BY_FOUR: WordsDef = WordsDef {
    key: "invalid.played_by_four",
    args: &[],
    english: "this rule set is played by four",
};
/// The rules allow no win on a discard now.
pub static NO_WIN_ON_DISCARD_NOW: WordsDef = WordsDef {
    key: "invalid.no_win_on_discard_now",
    args: &[],
    english: "the rules allow no win on a discard now",
};
/// The last tile of the wall is drawn: the win must be self-drawn.
pub static LAST_TILE_SELF_DRAWN: WordsDef = WordsDef {
    key: "invalid.last_tile_self_drawn",
    args: &[],
    english: "the last tile of the wall is drawn: the win must be self-drawn",
};
/// A supplement tile is drawn: the win must be self-drawn.
pub static SUPPLEMENT_SELF_DRAWN: WordsDef = WordsDef {
    key: "invalid.supplement_self_drawn",
    args: &[],
    english: "a supplement tile is drawn: the win must be self-drawn",
};
/// Out on the last discard needs a win on a discard.
pub static LAST_DISCARD: WordsDef = WordsDef {
    key: "invalid.last_discard",
    args: &[],
    english: "out on the last discard needs a win on a discard",
};
/// A Heavenly hand is the dealer's self-drawn win on the dealt hand, nothing exposed.
pub static HEAVENLY: WordsDef = WordsDef {
    key: "invalid.heavenly",
    args: &[],
    english: "a Heavenly hand is the dealer's self-drawn win on the dealt hand, nothing exposed",
};
/// An Earthly hand is a non-dealer's win on the dealer's first discard, nothing exposed.
pub static EARTHLY: WordsDef = WordsDef {
    key: "invalid.earthly",
    args: &[],
    english: "an Earthly hand is a non-dealer's win on the dealer's first discard, nothing exposed",
};
/// A Fortune Gambit is only won by self-draw from the Bao Tou state (complete sets plus a wildcard before the draw).
pub static GAMBIT_SELF_DRAWN: WordsDef = WordsDef {
    key: "invalid.gambit_self_drawn",
    args: &[],
    english: "a Fortune Gambit is only won by self-draw from the Bao Tou state (complete sets plus a wildcard before the draw)",
};
/// Flowers and seasons are not in play.
pub static FLOWERS_NOT_IN_PLAY: WordsDef = WordsDef {
    key: "invalid.flowers_not_in_play",
    args: &[],
    english: "flowers and seasons are not in play",
};
/// The winning tile tile is a bonus tile: bonus tiles are laid aside, not won on.
pub static WON_ON_BONUS: WordsDef = WordsDef {
    key: "invalid.won_on_bonus",
    args: &["tile"],
    english: "the winning tile {tile} is a bonus tile: bonus tiles are laid aside, not won on",
};
/// {meld was claimed from the winner's own seat: nobody can claim their own discard.
pub static CLAIMED_FROM_SELF: WordsDef = WordsDef {
    key: "invalid.claimed_from_self",
    args: &["meld", "seat"],
    english: "{meld} was claimed from {seat}, the winner's own seat: nobody can claim their own discard",
};
/// {meld: a chow can only be claimed from the player on your left.
pub static CHOW_NOT_FROM_LEFT: WordsDef = WordsDef {
    key: "invalid.chow_not_from_left",
    args: &["meld", "from", "left"],
    english: "{meld} was claimed from {from}, but a chow can only be claimed from the player on your left ({left})",
};
/// A Kong Blossom win is self-drawn (the kong's replacement tile).
pub static KONG_BLOSSOM_SELF_DRAWN: WordsDef = WordsDef {
    key: "invalid.kong_blossom_self_drawn",
    args: &[],
    english: "a Kong Blossom win is self-drawn (the kong's replacement tile)",
};
/// A kong chain of kongs needs kongs declared kong(s); the hand has declared.
pub static KONG_CHAIN: WordsDef = WordsDef {
    key: "invalid.kong_chain",
    args: &["kongs", "declared"],
    english: "a kong chain of {kongs} needs {kongs} declared kong(s); the hand has {declared}",
};
/// A wildcard is never added to a kong, so it cannot be robbed.
pub static ROB_WILDCARD: WordsDef = WordsDef {
    key: "invalid.rob_wildcard",
    args: &[],
    english: "a wildcard is never added to a kong, so it cannot be robbed",
};
/// A discarded wildcard cannot be claimed, not even to win.
pub static DISCARDED_WILDCARD: WordsDef = WordsDef {
    key: "invalid.discarded_wildcard",
    args: &[],
    english: "a discarded wildcard cannot be claimed, not even to win",
};
/// A non-dealer (seat) never wins on another non-dealer's (from) discard.
pub static NON_DEALERS: WordsDef = WordsDef {
    key: "invalid.non_dealers",
    args: &["seat", "from"],
    english: "a non-dealer ({seat}) never wins on another non-dealer's ({from}) discard",
};
/// At lao lao every win is self-drawn (or robbing a kong); discard wins between the dealer and a non-dealer start at 3 lao.
pub static LAO_SELF_DRAWN: WordsDef = WordsDef {
    key: "invalid.lao_self_drawn",
    args: &["lao"],
    english: "at {lao} lao every win is self-drawn (or robbing a kong); discard wins between the dealer and a non-dealer start at 3 lao",
};
/// Lao counts from 1 (a new dealer is at 1 lao).
pub static LAO_FROM_ONE: WordsDef = WordsDef {
    key: "invalid.lao_from_one",
    args: &[],
    english: "lao counts from 1 (a new dealer is at 1 lao)",
};
/// The declared meld holds the wildcard tile: wildcards never count toward a kong and cannot be claimed or melded.
pub static WILDCARD_IN_MELD: WordsDef = WordsDef {
    key: "invalid.wildcard_in_meld",
    args: &["meld", "tile"],
    english: "the declared {meld} holds the wildcard {tile}: wildcards never count toward a kong and cannot be claimed or melded",
};
/// With an indicator wildcard one tile is the face-up indicator: only three can be in play, not n.
pub static INDICATOR_COPIES: WordsDef = WordsDef {
    key: "invalid.indicator_copies",
    args: &["tile", "n"],
    english: "with an indicator wildcard one {tile} is the face-up indicator: only three can be in play, not {n}",
};
/// {meld: a concealed kong is not claimed from anyone.
pub static CONCEALED_KONG_CLAIMED: WordsDef = WordsDef {
    key: "invalid.concealed_kong_claimed",
    args: &["meld"],
    english: "{meld}: a concealed kong is not claimed from anyone",
};
/// {meld is a meld of bonus tiles: bonus tiles are laid aside, not melded.
pub static BONUS_MELD: WordsDef = WordsDef {
    key: "invalid.bonus_meld",
    args: &["meld"],
    english: "{meld} is a meld of bonus tiles: bonus tiles are laid aside, not melded",
};
/// {meld: extra winds form no chow.
pub static EXTRA_WIND_CHOW: WordsDef = WordsDef {
    key: "invalid.extra_wind_chow",
    args: &["meld"],
    english: "{meld}: extra winds form no chow",
};
/// The six-player game is three pungs and a pair: no meld.
pub static SIX_PLAYER_MELD: WordsDef = WordsDef {
    key: "invalid.six_player_meld",
    args: &["meld"],
    english: "the six-player game is three pungs and a pair: no {meld}",
};

/// Every not-a-win reason with a key.
pub static INVALID_WORDS: &[&WordsDef] = &[
    &NOT_A_WINNING_HAND,
    &NOT_SETS_HONGKONG,
    &NOT_SETS_HANGZHOU,
    &NOT_SETS_YANGZHOU,
    &NOT_SETS_CLASSIC,
    &NOT_SETS_CLASSIC_SIX,
    &BELOW_MINIMUM,
    &NO_CHOWS,
    &FOUR_MELDS,
    &TILE_COUNT,
    &MORE_THAN_FOUR,
    &NEEDS_DISCARDER,
    &PLAYED_BY_FOUR,
    &NO_WIN_ON_DISCARD_NOW,
    &LAST_TILE_SELF_DRAWN,
    &SUPPLEMENT_SELF_DRAWN,
    &LAST_DISCARD,
    &HEAVENLY,
    &EARTHLY,
    &GAMBIT_SELF_DRAWN,
    &FLOWERS_NOT_IN_PLAY,
    &WON_ON_BONUS,
    &CLAIMED_FROM_SELF,
    &CHOW_NOT_FROM_LEFT,
    &KONG_BLOSSOM_SELF_DRAWN,
    &KONG_CHAIN,
    &ROB_WILDCARD,
    &DISCARDED_WILDCARD,
    &NON_DEALERS,
    &LAO_SELF_DRAWN,
    &LAO_FROM_ONE,
    &WILDCARD_IN_MELD,
    &INDICATOR_COPIES,
    &CONCEALED_KONG_CLAIMED,
    &BONUS_MELD,
    &EXTRA_WIND_CHOW,
    &SIX_PLAYER_MELD,
];

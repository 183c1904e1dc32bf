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
];

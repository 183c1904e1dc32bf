//! The 27 rows of the Yangzhou fan table (seed 001), one function per row.
//!
//! Every function reads one [`Reading`] and answers how many times its row counts (0 = it does
//! not apply). Most rows count at most once per hand; the rows about single sets (dragon pungs,
//! concealed triplets, kongs) count once per set, as in common Chinese table practice.
//! [`fan_of`] adds them up with the exclusions of `docs/rules/yangzhou.md`.
//!
//! Shared vocabulary: a *chow* is identified by its suit and starting rank (`345m`). Two chows
//! are *identical* when both suit and ranks agree; *matching* when the ranks agree in different
//! suits. Declared chows (possible only with the `chow` option) count like concealed ones.

use super::reading::{Reading, SetKind, WinPlace};
use crate::scoring::{PatternDef, Unit};
use crate::tile::{Suit, Tile};

const fn row(
    id: &'static str,
    name: &'static str,
    value: i64,
    definition: &'static str,
) -> PatternDef {
    PatternDef::new(id, name, value, Unit::Fan, definition)
}

/// Every row of the seed's table, in the seed's order. The rows about single sets (dragon
/// pungs, concealed triplets, kongs) count once per set ([`PatternDef::per_set`]).
pub const PATTERNS: &[PatternDef] = &[
    row(
        "pi_hu",
        "Basic Win (Pi Hu)",
        1,
        "A win that meets no other row.",
    ),
    row(
        "men_qing",
        "No Melds (Menqing)",
        1,
        "No exposed meld (concealed kongs allowed); a win on a discard still counts.",
    ),
    row(
        "ping_hu",
        "Sequence Hand (Ping Hu)",
        1,
        "All four sets are chows and there is no honor tile.",
    ),
    row(
        "ya_zi",
        "Edge Wait (Yazi)",
        1,
        "The only winning kind completes a chow as an edge or closed wait.",
    ),
    row(
        "que_yi",
        "Missing One Suit (Que Yi)",
        1,
        "Tiles of exactly two of the three number suits (honors allowed).",
    ),
    row(
        "yao_tou",
        "Terminal Pair (Yao Tou)",
        1,
        "The pair is a 1 or a 9 of a number suit.",
    ),
    row(
        "duan_yao",
        "No Terminals (Duan Yao)",
        1,
        "No 1 and no 9 of a number suit anywhere in the hand (honors allowed).",
    ),
    row(
        "qi_xiang",
        "Matching Sequences (Qi Xiang)",
        1,
        "Two chows of the same ranks in two different suits; counts once.",
    ),
    row(
        "lian_fu",
        "Continuous Sequences (Lian Fu)",
        1,
        "Two chows of one suit that follow each other without overlap (345m + 678m); counts once.",
    ),
    row(
        "lao_shao",
        "Elder-Younger Sequence (Lao Shao)",
        1,
        "123 and 789 of one suit; counts once.",
    ),
    row(
        "zi_ge",
        "Concealed Triplet (Zi Ge)",
        1,
        "Each pung formed in the concealed hand (not one completed by a discard).",
    )
    .per_set(),
    row(
        "du_diao",
        "Single Wait (Du Diao)",
        1,
        "The hand waited on one kind only, and the winning tile completes the pair.",
    ),
    row(
        "dragon_pung",
        "Dragon Tiles (Zhong, Fa, Bai)",
        1,
        "Each pung or kong of dragons, exposed or concealed.",
    )
    .per_set(),
    row(
        "ming_gang",
        "Exposed Kong (Ming Gang)",
        1,
        "Each kong claimed from a discard or added to an exposed pung.",
    )
    .per_set(),
    row(
        "an_gang",
        "Concealed Kong (An Gang)",
        2,
        "Each kong declared from the concealed hand.",
    )
    .per_set(),
    row(
        "yi_ban",
        "Two Identical Sequences (Yi Ban)",
        10,
        "Two identical chows, same suit and ranks; counts once.",
    ),
    row(
        "yi_tiao_long",
        "Pure Straight (Yi Tiao Long)",
        15,
        "123, 456 and 789 of one suit.",
    ),
    row(
        "san_fu_tong",
        "Three Suits, Same Sequences (San Fu Tong)",
        15,
        "Chows of the same ranks in all three suits.",
    ),
    row(
        "hun_yi_se",
        "Mixed Suit (Hun Yi Se)",
        15,
        "One number suit and honors, at least one tile of each.",
    ),
    row(
        "si_fu_tong",
        "Four Identical Sequences (Si Fu Tong)",
        30,
        "All four sets are chows of the same ranks, spread over all three suits.",
    ),
    row(
        "shuang_ban_ban",
        "Double Two Identical Sequences (Shuang Ban Ban)",
        30,
        "The four sets are two pairs of identical chows.",
    ),
    row(
        "qing_yi_se",
        "Full Flush (Qing Yi Se)",
        60,
        "Every tile of one number suit, no honors.",
    ),
    row(
        "tie_ban",
        "Three Identical Sequences (Tie Ban)",
        60,
        "Three identical chows.",
    ),
    row(
        "qing_dui_dui",
        "Pure All Triplets (Qing Dui Dui)",
        75,
        "A full flush whose four sets are all pungs or kongs.",
    ),
    row(
        "qing_long",
        "Pure Dragon (Qing Long)",
        75,
        "A full flush holding the pure straight 123 456 789.",
    ),
    row(
        "feng_qing",
        "All Honors (Feng Qing)",
        240,
        "Every tile a wind or dragon.",
    ),
    row(
        "gang_ban",
        "Four Identical Sequences (Gang Ban)",
        480,
        "Four identical chows.",
    ),
];

/// How many times each row of [`PATTERNS`] counts in a reading (0 = not met), in the same
/// order. Exclusions are applied later, by [`fan_of`].
const COUNTS: [fn(&Reading) -> u32; 27] = [
    pi_hu,
    men_qing,
    ping_hu,
    ya_zi,
    que_yi,
    yao_tou,
    duan_yao,
    qi_xiang,
    lian_fu,
    lao_shao,
    zi_ge,
    du_diao,
    dragon_pung,
    ming_gang,
    an_gang,
    yi_ban,
    yi_tiao_long,
    san_fu_tong,
    hun_yi_se,
    si_fu_tong,
    shuang_ban_ban,
    qing_yi_se,
    tie_ban,
    qing_dui_dui,
    qing_long,
    feng_qing,
    gang_ban,
];

/// `docs/rules/yangzhou.md`: a combination row replaces its parts. (row, the rows it replaces)
const REPLACES: &[(&str, &[&str])] = &[
    ("qing_long", &["qing_yi_se", "yi_tiao_long"]),
    ("qing_dui_dui", &["qing_yi_se"]),
    ("feng_qing", &["hun_yi_se"]),
    ("gang_ban", &["tie_ban", "shuang_ban_ban", "yi_ban"]),
    ("tie_ban", &["yi_ban"]),
    ("shuang_ban_ban", &["yi_ban"]),
];

/// The rows a reading meets, after the exclusions, as (row, times counted), in table order.
/// Basic Win is there exactly when nothing else is.
pub fn fan_of(reading: &Reading) -> Vec<(&'static PatternDef, u32)> {
    let mut met: Vec<(&'static PatternDef, u32)> = PATTERNS
        .iter()
        .zip(COUNTS)
        .skip(1) // Basic Win is decided last.
        .map(|(p, count)| (p, count(reading)))
        .filter(|&(_, n)| n > 0)
        .collect();
    let replaced: Vec<&str> = REPLACES
        .iter()
        .filter(|(by, _)| met.iter().any(|(p, _)| p.id == *by))
        .flat_map(|(_, parts)| parts.iter().copied())
        .collect();
    met.retain(|(p, _)| !replaced.contains(&p.id));
    if met.is_empty() {
        met.push((&PATTERNS[0], 1));
    }
    met
}

/// The fan total of the rows met.
pub fn total(met: &[(&PatternDef, u32)]) -> i64 {
    met.iter().map(|(p, n)| p.value * i64::from(*n)).sum()
}

fn flag(b: bool) -> u32 {
    u32::from(b)
}

/// Identical chows: the largest number of copies of one chow (same suit, same ranks).
fn most_identical(r: &Reading) -> u32 {
    let chows = r.chows();
    chows
        .iter()
        .map(|c| chows.iter().filter(|d| *d == c).count() as u32)
        .max()
        .unwrap_or(0)
}

/// True if some suit holds chows starting at every one of `ranks`.
fn suit_has_chows(r: &Reading, ranks: &[u8]) -> bool {
    let chows = r.chows();
    Suit::NUMBERED
        .iter()
        .any(|&s| ranks.iter().all(|&k| chows.contains(&(s, k))))
}

/// The number of different suits that hold a chow starting at `rank`.
fn suits_with_chow(r: &Reading, rank: u8) -> usize {
    let chows = r.chows();
    Suit::NUMBERED
        .iter()
        .filter(|&&s| chows.contains(&(s, rank)))
        .count()
}

/// **Basic Win (Pi Hu), 1**: a win that meets no other row. Decided by [`fan_of`]; this
/// function alone never counts it.
pub fn pi_hu(_: &Reading) -> u32 {
    0
}

/// **No Melds (Menqing), 1**: no exposed meld (no claimed chow, pung or kong; concealed kongs
/// are allowed). Winning on a discard does not spoil it: the winning tile is not a meld.
pub fn men_qing(r: &Reading) -> u32 {
    flag(
        r.sets
            .iter()
            .all(|s| !s.declared || (s.kind == SetKind::Kong && s.concealed)),
    )
}

/// **Sequence Hand (Ping Hu), 1**: all four sets are chows and there is no honor tile (so the
/// pair is a number tile too). The wait does not matter.
pub fn ping_hu(r: &Reading) -> u32 {
    flag(r.sets.iter().all(|s| s.kind == SetKind::Chow) && !r.pair.is_honor())
}

/// **Edge Wait (Yazi), 1**: the hand waited on one kind only, and the winning tile completes a
/// chow as the one tile it could be: the `3` of `12`+`3`, the `7` of `7`+`89` (edge), or the
/// middle tile of any chow (closed, `4` in `3_5`). A hand that could also have won on another
/// kind does not count it (ruling: exactly one winning kind; a kind whose four copies the winner
/// already holds is no wait).
pub fn ya_zi(r: &Reading) -> u32 {
    match r.win {
        WinPlace::Chow { start, offset } if r.sole_wait => {
            let edge = (offset == 2 && start.rank() == 1) || (offset == 0 && start.rank() == 7);
            flag(offset == 1 || edge)
        }
        _ => 0,
    }
}

/// **Missing One Suit (Que Yi), 1**: the hand holds tiles of exactly two of the three number
/// suits (honors may be present). One-suit hands and honor-only hands lack more than one suit
/// and do not count.
pub fn que_yi(r: &Reading) -> u32 {
    let present = Suit::NUMBERED
        .iter()
        .filter(|&&s| r.tiles().any(|t| t.suit() == s))
        .count();
    flag(present == 2)
}

/// **Terminal Pair (Yao Tou), 1**: the pair is a 1 or a 9 of a number suit (an honor pair is
/// not).
pub fn yao_tou(r: &Reading) -> u32 {
    flag(r.pair.is_terminal())
}

/// **No Terminals (Duan Yao), 1**: no 1 and no 9 of a number suit anywhere in the hand. The
/// seed's definition is literal ("without any terminal tiles (1 or 9)"): honors are allowed, and
/// an all-honors hand scores it.
pub fn duan_yao(r: &Reading) -> u32 {
    flag(r.tiles().all(|t| !t.is_terminal()))
}

/// **Matching Sequences (Qi Xiang), 1**: two chows of the same ranks in two different suits
/// (`567m` + `567p`). Counts once however many such chows there are.
pub fn qi_xiang(r: &Reading) -> u32 {
    flag((1..=7).any(|k| suits_with_chow(r, k) >= 2))
}

/// **Continuous Sequences (Lian Fu), 1**: two chows of one suit that follow each other
/// without overlap, six tiles in a row (`345m` + `678m`). Counts once.
pub fn lian_fu(r: &Reading) -> u32 {
    flag((1..=4).any(|k| suit_has_chows(r, &[k, k + 3])))
}

/// **Elder-Younger Sequence (Lao Shao), 1**: `123` and `789` of one suit. Counts once.
pub fn lao_shao(r: &Reading) -> u32 {
    flag(suit_has_chows(r, &[1, 7]))
}

/// **Concealed Triplet (Zi Ge), 1 per triplet**: each pung formed in the concealed hand. A pung
/// completed by a discarded (or robbed) winning tile is not concealed; one completed by a
/// self-drawn tile is. Concealed kongs score An Gang instead.
pub fn zi_ge(r: &Reading) -> u32 {
    r.sets
        .iter()
        .filter(|s| s.kind == SetKind::Pung && s.concealed && !s.declared)
        .count() as u32
}

/// **Single Wait (Du Diao), 1**: the hand waited on one kind only, and the winning tile
/// completes the pair (same ruling as [`ya_zi`]: `2345s` waiting on `2s` and `5s` is no single
/// wait, whichever comes).
pub fn du_diao(r: &Reading) -> u32 {
    flag(r.sole_wait && r.win == WinPlace::Pair)
}

/// **Dragon Tiles (Zhong, Fa, Bai), 1 per set**: each pung or kong of dragons, exposed or
/// concealed. A dragon pair does not count.
pub fn dragon_pung(r: &Reading) -> u32 {
    r.sets
        .iter()
        .filter(|s| s.is_pung_or_kong() && s.tile.is_dragon())
        .count() as u32
}

/// **Exposed Kong (Ming Gang), 1 per kong**: each kong claimed from a discard or added to an
/// exposed pung.
pub fn ming_gang(r: &Reading) -> u32 {
    r.sets
        .iter()
        .filter(|s| s.kind == SetKind::Kong && !s.concealed)
        .count() as u32
}

/// **Concealed Kong (An Gang), 2 per kong**: each kong declared from the concealed hand.
pub fn an_gang(r: &Reading) -> u32 {
    r.sets
        .iter()
        .filter(|s| s.kind == SetKind::Kong && s.concealed)
        .count() as u32
}

/// **Two Identical Sequences (Yi Ban), 10**: two identical chows, same suit and ranks
/// (`456m` + `456m`). Counts once; Tie Ban, Shuang Ban Ban and Gang Ban replace it.
pub fn yi_ban(r: &Reading) -> u32 {
    flag(most_identical(r) >= 2)
}

/// **Pure Straight (Yi Tiao Long), 15**: `123`, `456` and `789` of one suit.
pub fn yi_tiao_long(r: &Reading) -> u32 {
    flag(suit_has_chows(r, &[1, 4, 7]))
}

/// **Three Suits, Same Sequences (San Fu Tong), 15**: chows of the same ranks in all three
/// suits (`345m` + `345p` + `345s`).
pub fn san_fu_tong(r: &Reading) -> u32 {
    flag((1..=7).any(|k| suits_with_chow(r, k) == 3))
}

/// **Mixed Suit (Hun Yi Se), 15**: one number suit and honors, with at least one tile of each.
pub fn hun_yi_se(r: &Reading) -> u32 {
    let honors = r.tiles().any(Tile::is_honor);
    let suits = Suit::NUMBERED
        .iter()
        .filter(|&&s| r.tiles().any(|t| t.suit() == s))
        .count();
    flag(honors && suits == 1)
}

/// **Four Identical Sequences (Si Fu Tong), 30**: all four sets are chows of the same ranks,
/// spread over all three suits (one suit holds two of them): `345m 345m 345p 345s`.
pub fn si_fu_tong(r: &Reading) -> u32 {
    let chows = r.chows();
    let same_ranks = chows.len() == 4 && chows.iter().all(|c| c.1 == chows[0].1);
    flag(same_ranks && suits_with_chow(r, chows[0].1) == 3)
}

/// **Double Two Identical Sequences (Shuang Ban Ban), 30**: the four sets are two pairs of
/// identical chows (`234m 234m 678p 678p`; the two pairs may share a suit or not). Gang Ban
/// replaces it.
pub fn shuang_ban_ban(r: &Reading) -> u32 {
    let chows = r.chows();
    let pairs: usize = chows
        .iter()
        .enumerate()
        .filter(|(i, c)| !chows[..*i].contains(c))
        .map(|(_, c)| chows.iter().filter(|d| *d == c).count() / 2)
        .sum();
    flag(pairs >= 2)
}

/// **Full Flush (Qing Yi Se), 60**: every tile of one number suit, no honors. Pure All
/// Triplets and Pure Dragon replace it.
pub fn qing_yi_se(r: &Reading) -> u32 {
    flag(r.is_one_suit())
}

/// **Three Identical Sequences (Tie Ban), 60**: three identical chows (`456m` ×3). Gang Ban
/// replaces it.
pub fn tie_ban(r: &Reading) -> u32 {
    flag(most_identical(r) >= 3)
}

/// **Pure All Triplets (Qing Dui Dui), 75**: a full flush whose four sets are all pungs or
/// kongs.
pub fn qing_dui_dui(r: &Reading) -> u32 {
    flag(r.is_one_suit() && r.sets.iter().all(|s| s.is_pung_or_kong()))
}

/// **Pure Dragon (Qing Long), 75**: a full flush holding the pure straight `123 456 789`.
pub fn qing_long(r: &Reading) -> u32 {
    flag(r.is_one_suit() && yi_tiao_long(r) > 0)
}

/// **All Honors (Feng Qing), 240**: every tile a wind or dragon.
pub fn feng_qing(r: &Reading) -> u32 {
    flag(r.is_all_honors())
}

/// **Four Identical Sequences (Gang Ban), 480**: four identical chows (`234s` ×4).
pub fn gang_ban(r: &Reading) -> u32 {
    flag(most_identical(r) == 4)
}

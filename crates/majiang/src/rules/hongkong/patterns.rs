//! Seed 004's fan table and its special (limit) hands, one function per row.
//!
//! Rows add up (`docs/rules/hongkong.md`) except One suit only, which replaces One suit and honors (they
//! exclude each other by definition here: honors present or not). Little Three Dragons keeps the
//! fan of its two dragon pungs (4 + 1 + 1 = 6), as seed 002's worked example adds Pung hand and
//! two dragon pungs (3 + 1 + 1 = 5). Pung and kong rows are counted once per set.

use super::hand::{Hand, SetKind, bit};
use super::options::Options;
use crate::analysis::Form;
use crate::scoring::{PatternDef, Unit, WinKind, WinSituation};
use crate::tile::{Suit, Tile, Wind};

/// The limit under the default options: a special hand's value (the `limit` option).
pub const DEFAULT_LIMIT: i64 = 10;

/// A row worth `fan` fan, at most once per hand.
const fn row(
    id: &'static str,
    name: &'static str,
    fan: i64,
    definition: &'static str,
) -> PatternDef {
    PatternDef::new(id, name, fan, Unit::Fan, definition)
}

/// A special hand: worth the limit (the `limit` option, 64 points).
const fn limit(id: &'static str, name: &'static str, definition: &'static str) -> PatternDef {
    row(id, name, DEFAULT_LIMIT, definition).set_by("limit")
}

/// Every pattern of seed 004's table and special hands, in the seed's order.
pub const PATTERNS: &[PatternDef] = &[
    row("dragon_pung", "Pung of Dragons", 1, "each pung of a dragon").per_set(),
    row("dragon_kong", "Kong of Dragons", 1, "each kong of a dragon").per_set(),
    row(
        "seat_wind_pung",
        "Pung of player's Own Wind",
        1,
        "a pung of the winner's seat wind",
    ),
    row(
        "seat_wind_kong",
        "Kong of player's Own Wind",
        1,
        "a kong of the winner's seat wind",
    ),
    row(
        "round_wind_pung",
        "Pung of the Wind of the Round",
        1,
        "a pung of the prevailing wind",
    ),
    row(
        "round_wind_kong",
        "Kong of the Wind of the Round",
        1,
        "a kong of the prevailing wind",
    ),
    row(
        "own_flower",
        "Flower of own Wind",
        1,
        "the flower (1f-4f) of the winner's seat wind",
    ),
    row(
        "own_season",
        "Season of own Wind",
        1,
        "the season (5f-8f) of the winner's seat wind",
    ),
    row("all_flowers", "All Flowers", 2, "all four flowers 1f-4f"),
    row("all_seasons", "All Seasons", 2, "all four seasons 5f-8f"),
    row(
        "no_flowers",
        "No Flowers or Seasons",
        1,
        "no bonus tile, flowers in play",
    ),
    row(
        "little_three_dragons",
        "Little Three Dragons",
        4,
        "two dragon pungs/kongs and a pair of the third dragon",
    ),
    row("chow_hand", "Chow hand", 1, "four chows and any pair"),
    row("pung_hand", "Pung hand", 3, "four pungs/kongs and a pair"),
    row(
        "one_suit_and_honors",
        "One suit and Honors",
        3,
        "one number suit and at least one honor",
    ),
    row(
        "seven_pairs",
        "Seven Pairs",
        4,
        "seven distinct pairs, concealed",
    )
    .set_by("seven_pairs"),
    row(
        "one_suit",
        "One suit only",
        6,
        "every tile of one number suit",
    ),
    row(
        "self_drawn",
        "Self-drawn",
        1,
        "the winning tile drawn by the winner",
    ),
    row(
        "last_wall_tile",
        "Out on the last tile of the Wall",
        1,
        "self-drawn on the last tile of the live wall",
    ),
    row(
        "last_discard",
        "Out on the last discard",
        1,
        "won on the last discard of the hand",
    ),
    row(
        "robbing_kong",
        "Out by robbing a Kong",
        1,
        "won on a tile added to a kong",
    ),
    row(
        "kong_replacement",
        "Out on a supplement tile",
        1,
        "self-drawn on a kong (or flower) supplement tile",
    ),
    limit(
        "hidden_treasure",
        "Hidden Treasure",
        "four concealed pungs/concealed kongs and a pair, self-drawn",
    ),
    limit(
        "three_great_scholars",
        "Three Great Scholars",
        "pungs/kongs of all three dragons, any set and a pair",
    ),
    limit(
        "little_four_winds",
        "Little Four Winds",
        "pungs/kongs of three winds, a pair of the fourth, any set",
    ),
    limit(
        "big_four_winds",
        "Big Four Winds",
        "pungs/kongs of all four winds and a pair",
    ),
    limit("all_honors", "All Honors", "every tile a wind or dragon"),
    limit(
        "all_terminals",
        "All Terminals",
        "every tile a 1 or 9 of a number suit",
    ),
    limit(
        "nine_gates",
        "Nine Gates",
        "1112345678999 of one suit before the winning tile (one more of it), no melds",
    ),
    limit(
        "thirteen_orphans",
        "Thirteen Orphans",
        "one of each terminal and honor plus one more of them, no melds",
    ),
    limit("all_kongs", "All Kongs", "four kongs and a pair"),
    limit(
        "jade_dragon",
        "Jade Dragon",
        "pungs/kongs and pair of bamboo with a pung/kong of Green dragon",
    ),
    limit(
        "ruby_dragon",
        "Ruby Dragon",
        "pungs/kongs and pair of characters with a pung/kong of Red dragon",
    ),
    limit(
        "pearl_dragon",
        "Pearl Dragon",
        "pungs/kongs and pair of dots with a pung/kong of White dragon",
    ),
    limit(
        "heavenly_hand",
        "Heavenly Hand",
        "the dealer wins on the dealt hand",
    ),
    limit(
        "earthly_hand",
        "Earthly Hand",
        "a non-dealer wins on the dealer's first discard",
    ),
];

/// What the pattern functions need besides the hand.
pub(crate) struct Context<'a> {
    pub situation: &'a WinSituation,
    pub options: &'a Options,
    pub seat_wind: Wind,
}

const DRAGONS: [Tile; 3] = [Tile::WHITE, Tile::GREEN, Tile::RED];

/// The three dragons' kinds, a bit each.
const DRAGON_KINDS: u64 = bit(Tile::WHITE) | bit(Tile::GREEN) | bit(Tile::RED);

/// The four winds' kinds, a bit each.
const WIND_KINDS: u64 = bit(Wind::East.tile())
    | bit(Wind::South.tile())
    | bit(Wind::West.tile())
    | bit(Wind::North.tile());

/// Pung of Dragons: one per dragon pung.
fn dragon_pung(h: &Hand, _: &Context) -> u32 {
    h.sets_among(DRAGON_KINDS, SetKind::Pung)
}

/// Kong of Dragons: one per dragon kong.
fn dragon_kong(h: &Hand, _: &Context) -> u32 {
    h.sets_among(DRAGON_KINDS, SetKind::Kong)
}

/// Pung of player's Own Wind.
fn seat_wind_pung(h: &Hand, c: &Context) -> u32 {
    h.sets_among(bit(c.seat_wind.tile()), SetKind::Pung)
}

/// Kong of player's Own Wind.
fn seat_wind_kong(h: &Hand, c: &Context) -> u32 {
    h.sets_among(bit(c.seat_wind.tile()), SetKind::Kong)
}

/// Pung of the Wind of the Round.
fn round_wind_pung(h: &Hand, c: &Context) -> u32 {
    h.sets_among(bit(c.situation.prevailing_wind.tile()), SetKind::Pung)
}

/// Kong of the Wind of the Round.
fn round_wind_kong(h: &Hand, c: &Context) -> u32 {
    h.sets_among(bit(c.situation.prevailing_wind.tile()), SetKind::Kong)
}

fn bonus(c: &Context, f: impl Fn(Tile) -> bool) -> u32 {
    if !c.options.flowers {
        return 0;
    }
    c.situation.flowers.iter().filter(|&&t| f(t)).count() as u32
}

/// Flower of own Wind: flower `n` with `(n-1) mod 4` the seat wind's index.
fn own_flower(_: &Hand, c: &Context) -> u32 {
    bonus(c, |t| t.is_flower() && t.bonus_wind() == Some(c.seat_wind))
}

/// Season of own Wind.
fn own_season(_: &Hand, c: &Context) -> u32 {
    bonus(c, |t| t.is_season() && t.bonus_wind() == Some(c.seat_wind))
}

/// All Flowers: the four flowers.
fn all_flowers(_: &Hand, c: &Context) -> u32 {
    u32::from(bonus(c, Tile::is_flower) == 4)
}

/// All Seasons: the four seasons.
fn all_seasons(_: &Hand, c: &Context) -> u32 {
    u32::from(bonus(c, Tile::is_season) == 4)
}

/// No Flowers or Seasons: only when flowers are in play.
fn no_flowers(_: &Hand, c: &Context) -> u32 {
    u32::from(c.options.flowers && c.situation.flowers.is_empty())
}

/// Little Three Dragons: two dragon pungs/kongs and a pair of the third dragon.
fn little_three_dragons(h: &Hand, _: &Context) -> u32 {
    let triplets = ((h.pungs | h.kongs) & DRAGON_KINDS).count_ones();
    u32::from(triplets == 2 && h.pair.is_some_and(Tile::is_dragon))
}

/// Chow hand: four chows (declared or concealed) and any pair.
fn chow_hand(h: &Hand, _: &Context) -> u32 {
    u32::from(h.form == Form::Standard && h.sets.iter().all(|s| s.kind == SetKind::Chow))
}

/// Pung hand: four pungs or kongs and a pair.
fn pung_hand(h: &Hand, _: &Context) -> u32 {
    u32::from(h.form == Form::Standard && h.sets.iter().all(|s| s.is_pung_or_kong()))
}

/// One suit and Honors: exactly one number suit and at least one honor.
fn one_suit_and_honors(h: &Hand, _: &Context) -> u32 {
    u32::from(h.number_suits() == 1 && h.has_honors())
}

/// Seven Pairs: seven distinct pairs (the hand must be concealed: no declared meld).
fn seven_pairs(h: &Hand, _: &Context) -> u32 {
    u32::from(h.form == Form::SevenPairs)
}

/// One suit only: every tile of one number suit (replaces One suit and Honors).
fn one_suit(h: &Hand, _: &Context) -> u32 {
    u32::from(h.number_suits() == 1 && !h.has_honors())
}

/// Self-drawn: the winning tile came from the wall or a supplement tile.
fn self_drawn(_: &Hand, c: &Context) -> u32 {
    u32::from(c.situation.win == WinKind::SelfDraw)
}

/// Out on the last tile of the Wall.
fn last_wall_tile(_: &Hand, c: &Context) -> u32 {
    u32::from(c.situation.circumstances.last_wall_tile)
}

/// Out on the last discard.
fn last_discard(_: &Hand, c: &Context) -> u32 {
    u32::from(c.situation.circumstances.last_discard)
}

/// Out by robbing a Kong.
fn robbing_kong(_: &Hand, c: &Context) -> u32 {
    u32::from(c.situation.win == WinKind::RobbingKong)
}

/// Out on a supplement tile.
fn kong_replacement(_: &Hand, c: &Context) -> u32 {
    u32::from(c.situation.circumstances.kong_replacement)
}

/// Hidden Treasure: four pungs/kongs, none exposed (concealed pungs or concealed kongs), and a
/// pair, self-drawn (a discard would expose the set it completes; the seed asks for self-drawn
/// even when the discard completes the pair).
fn hidden_treasure(h: &Hand, c: &Context) -> bool {
    h.form == Form::Standard
        && h.sets.iter().all(|s| s.is_pung_or_kong() && s.concealed)
        && c.situation.win == WinKind::SelfDraw
}

/// Three Great Scholars: pungs/kongs of all three dragons, any fourth set, any pair; melds
/// allowed.
fn three_great_scholars(h: &Hand, _: &Context) -> bool {
    DRAGONS.iter().all(|&d| h.triplets_of(d) > 0)
}

fn wind_triplets(h: &Hand) -> u32 {
    ((h.pungs | h.kongs) & WIND_KINDS).count_ones()
}

/// Little Four Winds: pungs/kongs of three winds, a pair of the fourth, any other set.
fn little_four_winds(h: &Hand, _: &Context) -> bool {
    wind_triplets(h) == 3 && h.pair.is_some_and(Tile::is_wind)
}

/// Big Four Winds: pungs/kongs of all four winds and any pair.
fn big_four_winds(h: &Hand, _: &Context) -> bool {
    wind_triplets(h) == 4
}

/// All Honors: four pungs/kongs and a pair, every tile a wind or a dragon (seed 004: "Four
/// Pungs or Kongs and a pair of Dragons and Winds"). Seven honor pairs are not All Honors (the
/// lead's ruling): they score as Seven Pairs and whatever ordinary rows apply.
fn all_honors(h: &Hand, _: &Context) -> bool {
    h.form == Form::Standard && h.all_tiles(Tile::is_honor)
}

/// All Terminals: four pungs/kongs and a pair, every tile a 1 or a 9 of a number suit (no
/// honors).
fn all_terminals(h: &Hand, _: &Context) -> bool {
    h.form == Form::Standard && h.all_tiles(Tile::is_terminal)
}

/// Nine Gates: no declared meld (no kong), and the 13 concealed tiles before the winning tile
/// are exactly `1112345678999` of one suit (the pure nine-sided wait, the lead's ruling); the
/// winning tile, any tile of that suit, may be a discard. `1123456789999` + `1` is not Nine
/// Gates, although the 14 tiles are the same.
fn nine_gates(h: &Hand, c: &Context) -> bool {
    if !h.no_melds {
        return false;
    }
    let before = &c.situation.concealed;
    let won = c.situation.winning_tile;
    if !won.is_numbered() {
        return false;
    }
    let suit = won.suit();
    before.len() == 13
        && (1..=9).all(|r| {
            let need = if r == 1 || r == 9 { 3 } else { 1 };
            Tile::new(suit, r).is_some_and(|t| before.get(t) == need)
        })
}

/// Thirteen Orphans: one of each terminal and honor and a pair of one of them, no declared
/// meld; the winning tile may be a discard.
fn thirteen_orphans(h: &Hand, _: &Context) -> bool {
    h.form == Form::ThirteenOrphans
}

/// All Kongs: four kongs (exposed or concealed) and a pair.
fn all_kongs(h: &Hand, _: &Context) -> bool {
    h.sets.len() == 4 && h.sets.iter().all(|s| s.kind == SetKind::Kong)
}

/// The dragon hands: four pungs/kongs and a pair, every tile of `suit` or `dragon`, with a
/// pung/kong of `dragon`.
fn dragon_hand(h: &Hand, suit: Suit, dragon: Tile) -> bool {
    h.form == Form::Standard
        && h.sets.iter().all(|s| s.is_pung_or_kong())
        && h.triplets_of(dragon) > 0
        && h.all_tiles(|t| t == dragon || t.suit() == suit)
}

/// Jade Dragon: bamboo pungs/kongs and pair with a pung/kong of Green dragon.
fn jade_dragon(h: &Hand, _: &Context) -> bool {
    dragon_hand(h, Suit::Bamboo, Tile::GREEN)
}

/// Ruby Dragon: character pungs/kongs and pair with a pung/kong of Red dragon.
fn ruby_dragon(h: &Hand, _: &Context) -> bool {
    dragon_hand(h, Suit::Characters, Tile::RED)
}

/// Pearl Dragon: dot pungs/kongs and pair with a pung/kong of White dragon.
fn pearl_dragon(h: &Hand, _: &Context) -> bool {
    dragon_hand(h, Suit::Dots, Tile::WHITE)
}

/// Heavenly Hand: the dealer wins on the dealt hand (after supplement tiles). The situation
/// checks (dealer, self-drawn, nothing exposed) are in `check_situation` (mod.rs).
fn heavenly_hand(_: &Hand, c: &Context) -> bool {
    c.situation.circumstances.heavenly
}

/// Earthly Hand: a non-dealer wins on the dealer's first discard (checked as for Heavenly).
fn earthly_hand(_: &Hand, c: &Context) -> bool {
    c.situation.circumstances.earthly
}

type Counter = fn(&Hand, &Context) -> u32;
type Test = fn(&Hand, &Context) -> bool;

/// The ordinary rows: how many times each applies.
pub(super) const ORDINARY: &[(&str, Counter)] = &[
    ("dragon_pung", dragon_pung),
    ("dragon_kong", dragon_kong),
    ("seat_wind_pung", seat_wind_pung),
    ("seat_wind_kong", seat_wind_kong),
    ("round_wind_pung", round_wind_pung),
    ("round_wind_kong", round_wind_kong),
    ("own_flower", own_flower),
    ("own_season", own_season),
    ("all_flowers", all_flowers),
    ("all_seasons", all_seasons),
    ("no_flowers", no_flowers),
    ("little_three_dragons", little_three_dragons),
    ("chow_hand", chow_hand),
    ("pung_hand", pung_hand),
    ("one_suit_and_honors", one_suit_and_honors),
    ("seven_pairs", seven_pairs),
    ("one_suit", one_suit),
    ("self_drawn", self_drawn),
    ("last_wall_tile", last_wall_tile),
    ("last_discard", last_discard),
    ("robbing_kong", robbing_kong),
    ("kong_replacement", kong_replacement),
];

/// The special hands.
pub(super) const LIMITS: &[(&str, Test)] = &[
    ("hidden_treasure", hidden_treasure),
    ("three_great_scholars", three_great_scholars),
    ("little_four_winds", little_four_winds),
    ("big_four_winds", big_four_winds),
    ("all_honors", all_honors),
    ("all_terminals", all_terminals),
    ("nine_gates", nine_gates),
    ("thirteen_orphans", thirteen_orphans),
    ("all_kongs", all_kongs),
    ("jade_dragon", jade_dragon),
    ("ruby_dragon", ruby_dragon),
    ("pearl_dragon", pearl_dragon),
    ("heavenly_hand", heavenly_hand),
    ("earthly_hand", earthly_hand),
];

/// The table row of an id.
pub fn pattern(id: &str) -> Option<&'static PatternDef> {
    PATTERNS.iter().find(|p| p.id == id)
}

/// The table row of an id, found at compile time (a name missing from the table fails the
/// build).
const fn row_of(id: &str) -> &'static PatternDef {
    let mut i = 0;
    while i < PATTERNS.len() {
        let (a, b) = (PATTERNS[i].id.as_bytes(), id.as_bytes());
        if a.len() == b.len() {
            let mut k = 0;
            while k < a.len() && a[k] == b[k] {
                k += 1;
            }
            if k == a.len() {
                return &PATTERNS[i];
            }
        }
        i += 1;
    }
    panic!("a detector names a row the table lacks")
}

/// The rows of `detectors`, in their order.
const fn rows_of<T: Copy, const N: usize>(detectors: &[(&str, T)]) -> [&'static PatternDef; N] {
    let mut out = [&PATTERNS[0]; N];
    let mut i = 0;
    while i < N {
        out[i] = row_of(detectors[i].0);
        i += 1;
    }
    out
}

/// The row of each ordinary detector.
const ORDINARY_ROWS: [&PatternDef; ORDINARY.len()] = rows_of(ORDINARY);
/// The row of each special-hand detector.
const LIMIT_ROWS: [&PatternDef; LIMITS.len()] = rows_of(LIMITS);

/// The fan of one application of an ordinary row.
fn fan_of(def: &PatternDef, options: &Options) -> u32 {
    match def.option {
        Some("seven_pairs") => options.seven_pairs,
        Some(_) => options.limit,
        None => u32::try_from(def.value).unwrap_or(0),
    }
}

/// The ordinary rows that apply, as `(row, fan)`.
pub(crate) fn ordinary(h: &Hand, c: &Context) -> Vec<(&'static PatternDef, u32)> {
    ORDINARY
        .iter()
        .zip(ORDINARY_ROWS)
        .filter_map(|(&(_, f), def)| {
            let times = f(h, c);
            (times > 0).then(|| (def, times * fan_of(def, c.options)))
        })
        .collect()
}

/// The special hands that apply.
pub(crate) fn limits(h: &Hand, c: &Context) -> Vec<&'static PatternDef> {
    LIMITS
        .iter()
        .zip(LIMIT_ROWS)
        .filter(|&(&(_, f), _)| f(h, c))
        .map(|(_, def)| def)
        .collect()
}

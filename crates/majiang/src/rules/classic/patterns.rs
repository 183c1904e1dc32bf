//! The seed's scoring table as data, and the tally of one player's patterns.
//!
//! Points are added first; the doubles then apply to the sum: score = points × 2^doubles.

use crate::scoring::{PatternDef, PatternScore, Unit};
use crate::seat::Seat;
use crate::tile::Tile;

/// The rows of the table, indexed by [`Pattern`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pattern {
    PungSimples,
    PungTerminals,
    PungHonors,
    KongSimples,
    KongTerminals,
    KongHonors,
    PairDragonsOrOwnWind,
    Mahjong,
    NoChows,
    SelfDrawn,
    Flower,
    DragonSet,
    OwnWindSet,
    AllConcealed,
    OneSuitWithHonors,
    OneSuitOnly,
    AllFourFlowers,
    AllFourSeasons,
}

const fn def(
    id: &'static str,
    name: &'static str,
    value: i64,
    unit: Unit,
    definition: &'static str,
) -> PatternDef {
    PatternDef::new(id, name, value, unit, definition)
}

/// Every pattern of the classic table (seed 003), in the order of the private `Pattern` enum. Chows score 0 and are
/// not listed. A pattern met several times (two pungs of simples, two dragon pungs) is reported
/// once with its values summed.
pub const PATTERNS: &[PatternDef] = &[
    def(
        "pung_simples",
        "Pung of 2's through 8's",
        2,
        Unit::Points,
        "Each pung of a number 2 to 8, declared or concealed.",
    )
    .per_set(),
    def(
        "pung_terminals",
        "Pung of 1's or 9's",
        4,
        Unit::Points,
        "Each pung of a 1 or a 9, declared or concealed.",
    )
    .per_set(),
    def(
        "pung_honors",
        "Pung of a Wind or Dragon",
        4,
        Unit::Points,
        "Each pung of a wind or dragon (an extra wind at five or six players included).",
    )
    .per_set(),
    def(
        "kong_simples",
        "Kong of 2's through 8's",
        8,
        Unit::Points,
        "Each kong of a number 2 to 8.",
    )
    .per_set(),
    def(
        "kong_terminals",
        "Kong of 1's or 9's",
        16,
        Unit::Points,
        "Each kong of a 1 or a 9.",
    )
    .per_set(),
    def(
        "kong_honors",
        "Kong of Winds or Dragons",
        16,
        Unit::Points,
        "Each kong of a wind or dragon.",
    )
    .per_set(),
    def(
        "pair_dragons_or_own_wind",
        "Pair of Dragons or own Wind",
        2,
        Unit::Points,
        "A pair of dragons or of the player's own wind.",
    ),
    def(
        "mahjong",
        "Mahjong",
        20,
        Unit::Points,
        "The winner, for going out.",
    ),
    def(
        "no_chows",
        "No Chows formed",
        10,
        Unit::Points,
        "The winner, when the hand holds no chow.",
    ),
    def(
        "self_drawn",
        "Draw the last card needed to call Mahjong",
        2,
        Unit::Points,
        "The winner, when the winning tile was drawn, not a discard.",
    ),
    def(
        "flower",
        "Flower or Season",
        1,
        Unit::Points,
        "Each flower or season laid out (the flowers option).",
    )
    .per_set(),
    def(
        "dragon_set",
        "Have a pung or kong of Dragons",
        1,
        Unit::Double,
        "One doubling for each pung or kong of dragons.",
    )
    .per_set(),
    def(
        "own_wind_set",
        "Have a pung or kong of your own Wind",
        1,
        Unit::Double,
        "One doubling for each pung or kong of the player's own wind.",
    )
    .per_set(),
    def(
        "all_concealed",
        "All your sets are concealed in hand",
        1,
        Unit::Double,
        "The winner, with no exposed meld and a self-drawn winning tile.",
    ),
    def(
        "one_suit_with_honors",
        "All sets of one suit, with honors",
        1,
        Unit::Double,
        "The winner, when every tile is of one number suit or an honor, with honors present.",
    ),
    def(
        "one_suit_only",
        "All sets made are of one suit",
        3,
        Unit::Double,
        "The winner, when every tile is of one number suit, no honors.",
    ),
    def(
        "all_four_flowers",
        "All four Flowers",
        3,
        Unit::Double,
        "All four flowers laid out.",
    ),
    def(
        "all_four_seasons",
        "All four Seasons",
        3,
        Unit::Double,
        "All four seasons laid out.",
    ),
];

/// How often each pattern occurs in one player's hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Tally {
    hits: [u8; 18],
}

impl Tally {
    /// Counts `pattern` once more.
    pub(crate) fn add(&mut self, pattern: Pattern) {
        self.hits[pattern as usize] += 1;
    }

    /// Counts `pattern` `n` times more.
    pub(crate) fn add_n(&mut self, pattern: Pattern, n: usize) {
        self.hits[pattern as usize] += n as u8;
    }

    /// True if `pattern` occurs.
    #[cfg(test)]
    pub(crate) fn has(&self, pattern: Pattern) -> bool {
        self.hits[pattern as usize] > 0
    }

    fn rows(&self) -> impl Iterator<Item = (&'static PatternDef, i64)> + '_ {
        PATTERNS
            .iter()
            .zip(self.hits)
            .filter(|(_, n)| *n > 0)
            .map(|(d, n)| (d, d.value * i64::from(n)))
    }

    /// Points before doubling.
    pub(crate) fn points(&self) -> i64 {
        self.rows()
            .filter(|(d, _)| d.unit == Unit::Points)
            .map(|(_, v)| v)
            .sum()
    }

    /// Number of doublings.
    pub(crate) fn doubles(&self) -> i64 {
        self.rows()
            .filter(|(d, _)| d.unit == Unit::Double)
            .map(|(_, v)| v)
            .sum()
    }

    /// The score: points × 2^doubles (saturating: no real hand comes near).
    pub(crate) fn score(&self) -> i64 {
        let d = self.doubles().clamp(0, 40) as u32;
        self.points().saturating_mul(1i64 << d)
    }

    /// The patterns that count, for the answer.
    pub(crate) fn patterns(&self) -> Vec<PatternScore> {
        self.rows().map(|(d, v)| d.score(v)).collect()
    }
}

/// True if `tile` is `seat`'s own wind: its seat wind, or, for North-East and South-West (the
/// extra seats of five and six players), an extra-wind tile (a bonus tile at those tables).
fn own_wind(tile: Tile, seat: Seat) -> bool {
    seat.wind_tile() == Some(tile)
        || (tile.is_bonus() && matches!(seat, Seat::NorthEast | Seat::SouthWest))
}

/// A pung (or, with `kong`, a kong) of `tile` held by `seat`: its points, and the doubles it
/// earns its owner (dragon set; own-wind set). A bonus tile here is an extra wind (five and six
/// players): a wind set.
pub(crate) fn score_set(tally: &mut Tally, tile: Tile, kong: bool, seat: Seat) {
    let honor = tile.is_honor() || tile.is_bonus();
    let row = match (kong, honor, tile.is_terminal()) {
        (false, true, _) => Pattern::PungHonors,
        (false, false, true) => Pattern::PungTerminals,
        (false, false, false) => Pattern::PungSimples,
        (true, true, _) => Pattern::KongHonors,
        (true, false, true) => Pattern::KongTerminals,
        (true, false, false) => Pattern::KongSimples,
    };
    tally.add(row);
    if tile.is_dragon() {
        tally.add(Pattern::DragonSet);
    }
    if own_wind(tile, seat) {
        tally.add(Pattern::OwnWindSet);
    }
}

/// True if a pair of `tile` scores for `seat`: a dragon pair, or the seat's own wind (for
/// North-East and South-West, the extra winds: no ordinary wind is theirs).
pub(crate) fn pair_scores(tile: Tile, seat: Seat) -> bool {
    tile.is_dragon() || own_wind(tile, seat)
}

/// Flowers and seasons laid out: one point each; all four flowers, and all four seasons, three
/// doubles each.
pub(crate) fn score_flowers(tally: &mut Tally, flowers: &[Tile]) {
    tally.add_n(Pattern::Flower, flowers.len());
    if flowers.iter().filter(|t| t.is_flower()).count() == 4 {
        tally.add(Pattern::AllFourFlowers);
    }
    if flowers.iter().filter(|t| t.is_season()).count() == 4 {
        tally.add(Pattern::AllFourSeasons);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_the_enum() {
        assert_eq!(PATTERNS.len(), Tally::default().hits.len());
        assert_eq!(
            PATTERNS[Pattern::AllFourSeasons as usize].id,
            "all_four_seasons"
        );
        assert_eq!(PATTERNS[Pattern::Mahjong as usize].value, 20);
        let mut ids: Vec<_> = PATTERNS.iter().map(|p| p.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), PATTERNS.len());
    }

    #[test]
    fn set_values() {
        let t = |s: &str| crate::notation::parse_tile(s).unwrap();
        let cases = [
            ("5m", false, 2),
            ("1p", false, 4),
            ("9s", false, 4),
            ("3z", false, 4),
            ("6z", false, 4),
            ("8m", true, 8),
            ("9p", true, 16),
            ("4z", true, 16),
        ];
        for (tile, kong, points) in cases {
            let mut tally = Tally::default();
            score_set(&mut tally, t(tile), kong, Seat::South);
            assert_eq!(tally.points(), points, "{tile} kong={kong}");
        }
    }

    #[test]
    fn doubles_of_sets() {
        let t = |s: &str| crate::notation::parse_tile(s).unwrap();
        let mut tally = Tally::default();
        score_set(&mut tally, t("7z"), false, Seat::West);
        assert_eq!(tally.doubles(), 1);
        score_set(&mut tally, t("3z"), false, Seat::West);
        assert_eq!(tally.doubles(), 2);
        // Another player's wind: points, no double.
        score_set(&mut tally, t("1z"), false, Seat::West);
        assert_eq!(tally.doubles(), 2);
        assert_eq!(tally.points(), 12);
        assert_eq!(tally.score(), 48);
        // North-East has no ordinary wind.
        let mut ne = Tally::default();
        score_set(&mut ne, t("4z"), false, Seat::NorthEast);
        assert_eq!(ne.doubles(), 0);
        assert!(!pair_scores(t("4z"), Seat::NorthEast));
        assert!(pair_scores(t("4z"), Seat::North));
        assert!(pair_scores(t("5z"), Seat::NorthEast));
        assert!(!pair_scores(t("2z"), Seat::North));
    }

    #[test]
    fn flowers() {
        let t = |s: &str| crate::notation::parse_tile(s).unwrap();
        let mut four = Tally::default();
        score_flowers(&mut four, &[t("1f"), t("2f"), t("3f"), t("4f")]);
        assert_eq!((four.points(), four.doubles()), (4, 3));
        let mut mixed = Tally::default();
        score_flowers(&mut mixed, &[t("1f"), t("2f"), t("3f"), t("5f")]);
        assert_eq!((mixed.points(), mixed.doubles()), (4, 0));
        let mut seasons = Tally::default();
        score_flowers(&mut seasons, &[t("5f"), t("6f"), t("7f"), t("8f")]);
        assert!(seasons.has(Pattern::AllFourSeasons));
        assert!(!seasons.has(Pattern::AllFourFlowers));
    }
}

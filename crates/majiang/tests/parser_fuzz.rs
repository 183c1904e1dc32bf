//! Fuzzing the notation parsers with proptest: arbitrary strings and strings close to notation
//! never make `parse_tiles`, `parse_tile`, `TileCounts::parse` or `Meld::parse` panic; errors
//! point inside the input; whatever parses formats back to text that parses to the same value.

use majiang::notation::{format_glyphs, format_in_order, format_tiles};
use majiang::{Meld, NotationError, TileCounts, parse_tile, parse_tiles};
use proptest::prelude::*;
use proptest::strategy::ValueTree;

/// Near-notation: digits, suit letters, glyphs (a few outside the mahjong block), spaces and a
/// stray letter.
const NEAR: &str = "[0-9mpszf \\u{1F000}-\\u{1F02F}x\\t]{0,24}";

/// Meld-like text: a keyword (some wrong or oddly cased), spaces, then near-notation.
const NEAR_MELD: &str = "(chow|pung|kong|concealed_kong|PUNG|Chow|kongs|)[ \\t]{0,2}[0-9mpszf\\u{1F000}-\\u{1F02B} ]{0,8}";

/// A well-formed meld text (`pung 555z`, `chow 345p`, ...), then up to two characters replaced
/// by near-notation characters.
fn meld_text() -> impl Strategy<Value = String> {
    let keyword = prop_oneof![
        Just("chow"),
        Just("pung"),
        Just("kong"),
        Just("concealed_kong"),
        Just("Pung")
    ];
    let edits = proptest::collection::vec((any::<prop::sample::Index>(), "[0-9mpszx ]"), 0..3);
    (keyword, 1u8..=9, "[mpszf]", edits).prop_map(|(kw, rank, suit, edits)| {
        let digits: String = match kw {
            "chow" => (rank..rank + 3)
                .map(|r| char::from(b'0' + r % 10))
                .collect(),
            "pung" | "Pung" => std::iter::repeat_n(char::from(b'0' + rank), 3).collect(),
            _ => std::iter::repeat_n(char::from(b'0' + rank), 4).collect(),
        };
        let mut chars: Vec<char> = format!("{kw} {digits}{suit}").chars().collect();
        for (at, with) in edits {
            let i = at.index(chars.len());
            chars[i] = with.chars().next().unwrap_or(' ');
        }
        chars.into_iter().collect()
    })
}

fn error_is_sane(e: &NotationError, input: &str) {
    let chars = input.chars().count();
    assert!(
        e.position >= 1 && e.position <= chars + 1,
        "position {} outside {input:?} ({chars} chars)",
        e.position
    );
    assert!(!e.to_string().is_empty());
}

fn check_tiles(s: &str) {
    match parse_tiles(s) {
        Ok(tiles) => {
            // In order, sorted, and as glyphs.
            assert_eq!(parse_tiles(&format_in_order(&tiles)).unwrap(), tiles);
            let mut sorted = tiles.clone();
            sorted.sort();
            assert_eq!(parse_tiles(&format_tiles(&tiles)).unwrap(), sorted);
            assert_eq!(parse_tiles(&format_glyphs(&tiles)).unwrap(), sorted);
        }
        Err(e) => error_is_sane(&e, s),
    }
}

fn check_tile(s: &str) {
    match parse_tile(s) {
        Ok(t) => {
            assert_eq!(parse_tile(&t.to_string()).unwrap(), t);
            assert_eq!(parse_tile(&format!("{t:#}")).unwrap(), t);
            assert_eq!(parse_tiles(s).unwrap(), vec![t]);
        }
        Err(e) => error_is_sane(&e, s),
    }
}

fn check_counts(s: &str) {
    match TileCounts::parse(s) {
        Ok(c) => {
            assert!(c.0.iter().all(|&n| n <= 4));
            assert_eq!(TileCounts::parse(&c.to_string()).unwrap(), c);
            assert_eq!(c.len(), parse_tiles(s).unwrap().len());
        }
        Err(e) => error_is_sane(&e, s),
    }
}

fn check_meld(s: &str) {
    match Meld::parse(s) {
        Ok(m) => {
            let back = Meld::parse(&m.to_string()).unwrap();
            assert_eq!((back.kind, back.tile), (m.kind, m.tile));
            assert_eq!(m.tiles().len(), m.kind.size());
        }
        Err(e) => error_is_sane(&e, s),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        check_tiles(&s);
        check_tile(&s);
        check_counts(&s);
        check_meld(&s);
    }

    #[test]
    fn near_notation_round_trips(s in NEAR) {
        check_tiles(&s);
        check_tile(&s);
        check_counts(&s);
    }

    #[test]
    fn near_melds_round_trip(s in NEAR_MELD) {
        check_meld(&s);
    }

    #[test]
    fn edited_melds_round_trip(s in meld_text()) {
        check_meld(&s);
        check_tiles(&s);
    }

    #[test]
    fn single_tiles_round_trip(s in "[0-9][mpszf]|[\\u{1F000}-\\u{1F02B}]| ?[1-9][mpsz] ?") {
        check_tile(&s);
    }
}

/// How many of 2000 strings from `strategy` satisfy `ok`.
fn hits<S: Strategy<Value = String>>(strategy: S, ok: impl Fn(&str) -> bool) -> usize {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    (0..2000)
        .filter(|_| ok(&strategy.new_tree(&mut runner).unwrap().current()))
        .count()
}

#[test]
fn near_strategies_reach_the_round_trips() {
    // Guard against strategies that never reach the round-trip branches.
    let tiles = hits(NEAR, |s| parse_tiles(s).is_ok());
    assert!(
        tiles > 100,
        "only {tiles} of 2000 near-notation strings parsed"
    );
    let counts = hits(NEAR, |s| TileCounts::parse(s).is_ok());
    assert!(counts > 100, "only {counts} of 2000 parsed as counts");
    let melds = hits(meld_text(), |s| Meld::parse(s).is_ok());
    assert!(melds > 200, "only {melds} of 2000 meld strings parsed");
}

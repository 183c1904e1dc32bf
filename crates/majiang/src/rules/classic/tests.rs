//! Worked examples: every pattern scores in one hand and not in its near miss.

use super::*;
use crate::scoring::request::ScoreRequest;

/// Scores a request body (without `"rules"`); `options` as JSON text.
fn run(body: &str) -> Result<Scored, Invalid> {
    let text = format!(r#"{{"rules": "classic", {body}}}"#);
    let req = ScoreRequest::from_json(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let opts = Options::from_json(&req.options).unwrap_or_else(|e| panic!("{e}"));
    score(&req.situation, &opts)
}

fn total(body: &str) -> i64 {
    run(body).unwrap_or_else(|e| panic!("{e}: {body}")).total
}

fn has(body: &str, id: &str) -> bool {
    run(body)
        .unwrap_or_else(|e| panic!("{e}: {body}"))
        .patterns
        .iter()
        .any(|p| p.id == id)
}

/// South wins on West's discard.
fn south(concealed: &str, win: &str) -> String {
    format!(
        r#""concealed": "{concealed}", "winning_tile": "{win}", "win": "discard",
        "discarder": "west", "seat": "south""#
    )
}

fn south_melds(concealed: &str, melds: &str, win: &str, how: &str) -> String {
    let disc = if how == "self_draw" {
        String::new()
    } else {
        r#", "discarder": "west""#.to_string()
    };
    format!(
        r#""concealed": "{concealed}", "melds": [{melds}], "winning_tile": "{win}",
        "win": "{how}", "seat": "south"{disc}"#
    )
}

#[test]
fn pung_simples() {
    let hit = south("555m123p456p789s9m", "9m");
    assert!(has(&hit, "pung_simples"));
    assert_eq!(total(&hit), 22);
    let miss = south("456m123p456p789s9m", "9m");
    assert!(!has(&miss, "pung_simples"));
    assert_eq!(total(&miss), 20);
}

#[test]
fn pung_terminals() {
    let hit = south("111p234m456m789s5s", "5s");
    assert!(has(&hit, "pung_terminals"));
    assert_eq!(total(&hit), 24);
    let miss = south("123p234m456m789s5s", "5s");
    assert!(!has(&miss, "pung_terminals"));
    assert_eq!(total(&miss), 20);
}

#[test]
fn pung_honors() {
    let hit = south("333z234m456m789s5s", "5s");
    assert!(has(&hit, "pung_honors"));
    assert_eq!(total(&hit), 24);
    // A pair of West is no set, and not South's own wind.
    let miss = south("234m456m789s555s3z", "3z");
    assert!(!has(&miss, "pung_honors"));
    assert!(!has(&miss, "pair_dragons_or_own_wind"));
    assert_eq!(total(&miss), 22);
}

#[test]
fn kong_simples() {
    let hit = south_melds(
        "123p456p789s9m",
        r#"{"kind": "kong", "tiles": "5555m", "from": "west"}"#,
        "9m",
        "discard",
    );
    assert!(has(&hit, "kong_simples"));
    assert_eq!(total(&hit), 28);
    // Four 5m in the concealed hand, undeclared: a pung and a chow.
    let miss = south("5555m67m123p456p9s", "9s");
    assert!(!has(&miss, "kong_simples"));
    assert!(has(&miss, "pung_simples"));
    assert_eq!(total(&miss), 22);
}

#[test]
fn kong_terminals() {
    let kong = r#"{"kind": "kong", "tiles": "9999s", "from": "north"}"#;
    let hit = south_melds("123m456m789p5p", kong, "5p", "discard");
    assert!(has(&hit, "kong_terminals"));
    assert_eq!(total(&hit), 36);
    let pung = r#"{"kind": "pung", "tiles": "999s", "from": "north"}"#;
    let miss = south_melds("123m456m789p5p", pung, "5p", "discard");
    assert!(!has(&miss, "kong_terminals"));
    assert_eq!(total(&miss), 24);
}

#[test]
fn kong_honors() {
    let kong = r#"{"kind": "concealed_kong", "tiles": "4444z"}"#;
    let hit = south_melds("123m456m789p5p", kong, "5p", "discard");
    assert!(has(&hit, "kong_honors"));
    // Won on a discard: not all concealed.
    assert!(!has(&hit, "all_concealed"));
    assert_eq!(total(&hit), 36);
    let pung = r#"{"kind": "pung", "tiles": "444z", "from": "north"}"#;
    let miss = south_melds("123m456m789p5p", pung, "5p", "discard");
    assert!(!has(&miss, "kong_honors"));
    assert_eq!(total(&miss), 24);
}

#[test]
fn pair_dragons_or_own_wind() {
    let dragons = south("123m456m789p123s6z", "6z");
    assert!(has(&dragons, "pair_dragons_or_own_wind"));
    assert_eq!(total(&dragons), 22);
    let own = south("123m456m789p123s2z", "2z");
    assert!(has(&own, "pair_dragons_or_own_wind"));
    assert_eq!(total(&own), 22);
    // East's wind is not South's.
    let miss = south("123m456m789p123s1z", "1z");
    assert!(!has(&miss, "pair_dragons_or_own_wind"));
    assert_eq!(total(&miss), 20);
}

#[test]
fn mahjong_needs_sets_and_a_pair() {
    let hit = south("123m456m789p123s5s", "5s");
    assert!(has(&hit, "mahjong"));
    assert!(run(&south("123m456m789p123s6z", "7z")).is_err());
    // Seven pairs and thirteen orphans are not classic hands.
    assert!(run(&south("1122m3344p5566s7z", "7z")).is_err());
    assert!(run(&south("19m19p19s1234567z", "1m")).is_err());
    // Wrong size.
    assert!(run(&south("123m456m789p12s5s", "5s")).is_err());
    let pung = r#"{"kind": "pung", "tiles": "999s", "from": "north"}"#;
    // One meld: 11 concealed tiles with the winning tile, not 12.
    assert!(run(&south_melds("123m456m789p55p", pung, "5p", "discard")).is_err());
}

#[test]
fn no_chows() {
    let hit = south("222m555p888s111z9s", "9s");
    assert!(has(&hit, "no_chows"));
    assert_eq!(total(&hit), 40);
    let miss = south("222m555p789s111z9s", "9s");
    assert!(!has(&miss, "no_chows"));
    assert_eq!(total(&miss), 28);
    // A declared chow counts too.
    let chow = r#"{"kind": "chow", "tiles": "789s", "from": "east"}"#;
    let declared = south_melds("222m555p111z9s", chow, "9s", "discard");
    assert!(!has(&declared, "no_chows"));
}

#[test]
fn self_drawn() {
    let pung = r#"{"kind": "pung", "tiles": "555m", "from": "west"}"#;
    let hit = south_melds("123p456p789s9m", pung, "9m", "self_draw");
    assert!(has(&hit, "self_drawn"));
    assert!(!has(&hit, "all_concealed"));
    assert_eq!(total(&hit), 24);
    let miss = south_melds("123p456p789s9m", pung, "9m", "discard");
    assert!(!has(&miss, "self_drawn"));
    assert_eq!(total(&miss), 22);
    let robbed = south_melds("123p456p789s9m", pung, "9m", "robbing_kong");
    assert!(!has(&robbed, "self_drawn"));
}

#[test]
fn flower() {
    let hand = south("555m123p456p789s9m", "9m");
    let hit = format!(r#"{hand}, "options": {{"flowers": true}}, "flowers": ["2f", "7f"]"#);
    assert!(has(&hit, "flower"));
    assert_eq!(total(&hit), 24);
    let none = format!(r#"{hand}, "options": {{"flowers": true}}"#);
    assert!(!has(&none, "flower"));
    // Flowers are not in play by default.
    let off = format!(r#"{hand}, "flowers": ["2f"]"#);
    assert!(run(&off).is_err());
}

#[test]
fn dragon_set() {
    let hit = south("555z123m456p789s9m", "9m");
    assert!(has(&hit, "dragon_set"));
    assert_eq!(total(&hit), 48);
    let miss = south("123m456p789s555s5z", "5z");
    assert!(!has(&miss, "dragon_set"));
    assert_eq!(total(&miss), 24);
}

#[test]
fn own_wind_set() {
    let west = r#""concealed": "333z123m456p789s9m", "winning_tile": "9m", "win": "discard",
        "discarder": "north", "seat": "west""#;
    assert!(has(west, "own_wind_set"));
    assert_eq!(total(west), 48);
    let miss = south("333z123m456p789s9m", "9m");
    assert!(!has(&miss, "own_wind_set"));
    assert_eq!(total(&miss), 24);
}

#[test]
fn all_concealed() {
    let hit = south_melds("123m456m789p123s5s", "", "5s", "self_draw");
    assert!(has(&hit, "all_concealed"));
    assert_eq!(total(&hit), 44);
    let kong = r#"{"kind": "concealed_kong", "tiles": "2222p"}"#;
    let with_kong = south_melds("123m456m789s5s", kong, "5s", "self_draw");
    assert!(has(&with_kong, "all_concealed"));
    assert_eq!(total(&with_kong), 60);
    let by_discard = south("123m456m789p123s5s", "5s");
    assert!(!has(&by_discard, "all_concealed"));
    let chow = r#"{"kind": "chow", "tiles": "123s", "from": "east"}"#;
    let exposed = south_melds("123m456m789p5s", chow, "5s", "self_draw");
    assert!(!has(&exposed, "all_concealed"));
    assert_eq!(total(&exposed), 22);
}

#[test]
fn one_suit_with_honors() {
    let hit = south("123m456m789m333z1m", "1m");
    assert!(has(&hit, "one_suit_with_honors"));
    assert!(!has(&hit, "one_suit_only"));
    assert_eq!(total(&hit), 48);
    let miss = south("123m456m789p333z1m", "1m");
    assert!(!has(&miss, "one_suit_with_honors"));
    assert_eq!(total(&miss), 24);
}

#[test]
fn one_suit_only() {
    let hit = south("111m234m567m999m5m", "5m");
    assert!(has(&hit, "one_suit_only"));
    assert_eq!(total(&hit), 224);
    let miss = south("111m234m567m333z5m", "5m");
    assert!(!has(&miss, "one_suit_only"));
    assert!(has(&miss, "one_suit_with_honors"));
    assert_eq!(total(&miss), 56);
    // Honors only is no suit.
    let honors = south("111z333z444z666z7z", "7z");
    assert!(!has(&honors, "one_suit_only"));
    assert!(!has(&honors, "one_suit_with_honors"));
}

#[test]
fn all_four_flowers_and_seasons() {
    let hand = south("555m123p456p789s9m", "9m");
    let with = |f: &str| format!(r#"{hand}, "options": {{"flowers": true}}, "flowers": {f}"#);
    let flowers = with(r#"["1f", "2f", "3f", "4f"]"#);
    assert!(has(&flowers, "all_four_flowers"));
    assert_eq!(total(&flowers), 208);
    let near = with(r#"["1f", "2f", "3f", "5f"]"#);
    assert!(!has(&near, "all_four_flowers"));
    assert_eq!(total(&near), 26);
    let seasons = with(r#"["5f", "6f", "7f", "8f"]"#);
    assert!(has(&seasons, "all_four_seasons"));
    assert!(!has(&seasons, "all_four_flowers"));
    assert_eq!(total(&seasons), 208);
    let near = with(r#"["1f", "6f", "7f", "8f"]"#);
    assert!(!has(&near, "all_four_seasons"));
}

#[test]
fn the_reading_worth_most() {
    // 111222333m: three pungs (4 + 2 + 2) beat three chows.
    assert_eq!(total(&south("111m222m333m456p9s", "9s")), 28);
}

#[test]
fn the_seeds_forty_to_three_twenty() {
    let body = r#""concealed": "123m456m9m", "melds": [
        {"kind": "kong", "tiles": "1111z", "from": "north"},
        {"kind": "pung", "tiles": "777z", "from": "south"}],
        "winning_tile": "9m", "win": "discard", "discarder": "west", "seat": "east""#;
    let s = run(body).unwrap();
    assert_eq!(s.total, 320);
    // East collects double from each of three players.
    assert_eq!(s.payments[&Seat::East], 3 * 640);
}

#[test]
fn losers_score_sets_and_one_pair() {
    let hand = OtherHand {
        concealed: TileCounts::parse("333z55z66z123m4p").unwrap(),
        melds: vec![Meld::parse("pung 777z").unwrap()],
        flowers: vec![],
    };
    // 777z: 4 and a double; 333z: 4 and West's own-wind double; one dragon pair: 2.
    assert_eq!(loser_score(Seat::West, &hand, &Options::default()), 40);
    // South: 333z earns no double.
    assert_eq!(loser_score(Seat::South, &hand, &Options::default()), 20);
    // Chows and a lone pair of another's wind score nothing.
    let poor = OtherHand {
        concealed: TileCounts::parse("123m456p11z").unwrap(),
        melds: vec![Meld::parse("chow 789s").unwrap()],
        flowers: vec![],
    };
    assert_eq!(loser_score(Seat::North, &poor, &Options::default()), 0);
    // Four undeclared copies are a pung.
    let four = OtherHand {
        concealed: TileCounts::parse("9999p").unwrap(),
        ..OtherHand::default()
    };
    assert_eq!(loser_score(Seat::North, &four, &Options::default()), 4);
}

#[test]
fn six_player_tables() {
    let base = r#""options": {"players": 6}, "winning_tile": "9s", "win": "discard",
        "discarder": "east", "seat": "south_west""#;
    let hit = format!(r#"{base}, "concealed": "222m555p888s9s""#);
    let s = run(&hit).unwrap();
    assert_eq!(s.total, 36);
    assert_eq!(s.payments.len(), 6);
    assert_eq!(s.payments[&Seat::SouthWest], 4 * 36 + 72);
    assert_eq!(s.payments[&Seat::East], -72);
    let chow = format!(r#"{base}, "concealed": "234m555p888s9s""#);
    assert!(run(&chow).is_err());
    let fourteen = format!(r#"{base}, "concealed": "222m555p888s123s9s""#);
    assert!(run(&fourteen).is_err());
    let kong = format!(
        r#"{base}, "concealed": "555p888s9s", "melds": [{{"kind": "kong", "tiles": "2222m",
        "from": "north"}}]"#
    );
    assert!(run(&kong).is_err());
}

#[test]
fn five_player_north_east_has_no_own_wind() {
    let body = r#""options": {"players": 5}, "concealed": "444z123m456p789s9m",
        "winning_tile": "9m", "win": "discard", "discarder": "north", "seat": "north_east""#;
    let s = run(body).unwrap();
    assert_eq!(s.total, 24);
    assert_eq!(s.payments[&Seat::NorthEast], 24 * 3 + 48);
}

#[test]
fn options_must_match_the_table() {
    let req = ScoreRequest::from_json(
        r#"{"rules": "classic", "concealed": "123m456m789p123s5s", "winning_tile": "5s",
        "win": "self_draw", "seat": "south"}"#,
    )
    .unwrap();
    let three = Options {
        players: 3,
        ..Options::default()
    };
    assert!(score(&req.situation, &three).is_err());
    assert!(score(&req.situation, &Options::default()).is_ok());
}

#[test]
fn a_loser_cannot_hold_too_many_tiles() {
    let hand = south("123m456m789p123s5s", "5s");
    let thirteen = format!(r#"{hand}, "others": {{"west": {{"concealed": "1112223334445z"}}}}"#);
    assert!(run(&thirteen).is_ok());
    let fourteen = format!(r#"{hand}, "others": {{"west": {{"concealed": "11122233344455z"}}}}"#);
    assert!(run(&fourteen).is_err());
}

#[test]
fn flowers_at_five_players_are_extra_winds() {
    // `flowers` cannot be listed: the bonus tiles are extra winds, written in the hand.
    let text = r#"{"rules": "classic", "options": {"players": 5},
        "concealed": "123m456m789p123s5s", "flowers": ["1f"],
        "winning_tile": "5s", "win": "self_draw", "seat": "south"}"#;
    let e = ScoreRequest::from_json(text).unwrap_err();
    assert!(e.to_string().contains("extra winds"), "{e}");
    // 123m 456m 789p + a pung of North-East winds 1f2f3f + 55s, self-drawn by North-East:
    // Mahjong 20 + wind pung 4 + self-drawn 2 = 26; own wind (the extra winds are North-East's)
    // and all concealed double it twice: 104.
    let ne = r#""options": {"players": 5}, "concealed": "123m456m789p123f5s",
        "winning_tile": "5s", "win": "self_draw", "seat": "north_east""#;
    assert_eq!(total(ne), 104);
    assert!(has(ne, "own_wind_set"));
    // The same hand for South: no own-wind double: 26 × 2 = 52.
    assert_eq!(total(&ne.replace("north_east", "south")), 52);
    // A season is no extra wind at five players.
    let text = r#"{"rules": "classic", "options": {"players": 5},
        "concealed": "123m456m789p125f5s", "winning_tile": "5s", "win": "self_draw"}"#;
    assert!(ScoreRequest::from_json(text).is_err());
}

#[test]
fn extra_wind_splits() {
    assert_eq!(super::extra_wind_splits(0), [(0, false)]);
    assert_eq!(super::extra_wind_splits(2), [(0, true)]);
    assert_eq!(super::extra_wind_splits(3), [(1, false)]);
    assert!(super::extra_wind_splits(4).is_empty());
    assert_eq!(super::extra_wind_splits(5), [(1, true)]);
    assert_eq!(super::extra_wind_splits(8), [(2, true)]);
}

#[test]
fn chows_only_from_the_left_and_no_meld_from_oneself() {
    // South's left neighbour is East.
    let chow = |from: &str| {
        south_melds(
            "456m789p234s9s",
            &format!(r#"{{"kind": "chow", "tiles": "123m", "from": "{from}"}}"#),
            "9s",
            "discard",
        )
    };
    assert_eq!(total(&chow("east")), 20);
    for from in ["west", "north", "south"] {
        assert!(run(&chow(from)).is_err(), "chow from {from}");
    }
    let own = south_melds(
        "456m789p234s9s",
        r#"{"kind": "pung", "tiles": "222m", "from": "south"}"#,
        "9s",
        "discard",
    );
    let e = run(&own).unwrap_err();
    assert!(e.to_string().contains("own seat"), "{e}");
}

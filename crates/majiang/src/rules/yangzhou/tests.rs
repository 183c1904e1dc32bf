//! Worked examples and near misses for every row, the exclusions, the best split and the
//! settlement. Hands are East's unless said; discards are South's.

use super::*;
use crate::scoring::request::ScoreRequest;
use crate::seat::Seat;

/// Builds a request. `melds`: (kind, tiles, from; "" = no source).
fn request(concealed: &str, melds: &[(&str, &str, &str)], tile: &str, win: &str) -> WinSituation {
    let melds: Vec<String> = melds
        .iter()
        .map(|(k, t, f)| {
            if f.is_empty() {
                format!(r#"{{"kind":"{k}","tiles":"{t}"}}"#)
            } else {
                format!(r#"{{"kind":"{k}","tiles":"{t}","from":"{f}"}}"#)
            }
        })
        .collect();
    let discarder = if win == "self_draw" {
        String::new()
    } else {
        r#","discarder":"south""#.to_string()
    };
    let text = format!(
        r#"{{"rules":"yangzhou","concealed":"{concealed}","melds":[{}],"winning_tile":"{tile}","win":"{win}"{discarder}}}"#,
        melds.join(",")
    );
    ScoreRequest::from_json(&text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .situation
}

const ANY: Options = Options {
    min_fan: 0,
    chow: true,
};

fn scored(concealed: &str, melds: &[(&str, &str, &str)], tile: &str, win: &str) -> Scored {
    let s = request(concealed, melds, tile, win);
    score(&s, &ANY).unwrap_or_else(|e| panic!("{concealed} {tile}: {e}"))
}

/// The fan a row contributes to a self-drawn, meld-free hand (0 if absent).
fn fan_in(s: &Scored, id: &str) -> i64 {
    s.patterns
        .iter()
        .find(|p| p.id == id)
        .map_or(0, |p| p.value)
}

fn drawn(concealed: &str, tile: &str) -> Scored {
    scored(concealed, &[], tile, "self_draw")
}

fn ids(s: &Scored) -> Vec<&str> {
    s.patterns.iter().map(|p| p.id.as_str()).collect()
}

/// (id, example, its value in the example, near miss)
type Case = (&'static str, Scored, i64, Scored);

fn cases() -> Vec<Case> {
    let pung_west = [("pung", "111m", "west")];
    vec![
        (
            "pi_hu",
            scored("234p55p345s78s", &pung_west, "9s", "discard"),
            1,
            // 7_9s closed wait: Edge Wait counts, so Basic Win does not.
            scored("234p55p345s79s", &pung_west, "8s", "discard"),
        ),
        (
            "men_qing",
            drawn("123m456p789s234s5p", "5p"),
            1,
            scored(
                "123m456p234s5p",
                &[("pung", "999m", "west")],
                "5p",
                "self_draw",
            ),
        ),
        (
            "ping_hu",
            drawn("123m456p789s234s5p", "5p"),
            1,
            drawn("123m456p789s234s1z", "1z"),
        ),
        (
            "ya_zi",
            drawn("12m456p789s234s55p", "3m"),
            1,
            // 23m waits on 1m or 4m: two-sided.
            drawn("23m456p789s234s55p", "1m"),
        ),
        (
            "que_yi",
            drawn("123m456m789p111z2z", "2z"),
            1,
            drawn("123m456p789s111z2z", "2z"),
        ),
        (
            "yao_tou",
            drawn("123m456p789s234s9m", "9m"),
            1,
            drawn("123m456p789s234s1z", "1z"),
        ),
        (
            "duan_yao",
            drawn("234m456p678s345s5p", "5p"),
            1,
            // A 9 spoils it (an honor does not: see `duan_yao_allows_honors`).
            drawn("234m456p678s345s9p", "9p"),
        ),
        (
            "qi_xiang",
            drawn("567m567p123s11z22z", "2z"),
            1,
            drawn("567m678p123s11z22z", "2z"),
        ),
        (
            "lian_fu",
            drawn("345m678m123s11z22z", "2z"),
            1,
            drawn("345m678p123s11z22z", "2z"),
        ),
        (
            "lao_shao",
            drawn("123s789s456m11z22z", "2z"),
            1,
            drawn("123s789m456m11z22z", "2z"),
        ),
        (
            "zi_ge",
            drawn("111m999p789s234s5p", "5p"),
            2,
            // The pung completed by a discard is not concealed.
            scored("11m456p789s234s55p", &[], "1m", "discard"),
        ),
        (
            "du_diao",
            drawn("123m456p789s234s5p", "5p"),
            1,
            // Waiting on 55p or 66p: the winning 6p makes a pung.
            drawn("123m456p789s55p66p", "6p"),
        ),
        (
            "dragon_pung",
            drawn("123m456p555z777z5s", "5s"),
            2,
            drawn("123m456p789s234s7z", "7z"),
        ),
        (
            "ming_gang",
            scored(
                "456p789s234s5p",
                &[("kong", "2222m", "west")],
                "5p",
                "self_draw",
            ),
            1,
            scored(
                "456p789s234s5p",
                &[("pung", "222m", "west")],
                "5p",
                "self_draw",
            ),
        ),
        (
            "an_gang",
            scored(
                "789s234s5p",
                &[
                    ("concealed_kong", "2222m", ""),
                    ("concealed_kong", "3333p", ""),
                ],
                "5p",
                "self_draw",
            ),
            4,
            scored(
                "456p789s234s5p",
                &[("kong", "2222m", "west")],
                "5p",
                "self_draw",
            ),
        ),
        (
            "yi_ban",
            drawn("456m456m789p111z2z", "2z"),
            10,
            drawn("456m456p789p111z2z", "2z"),
        ),
        (
            "yi_tiao_long",
            drawn("123456789m111z2z", "2z"),
            15,
            drawn("123456m789p111z2z", "2z"),
        ),
        (
            "san_fu_tong",
            drawn("345m345p345s111z2z", "2z"),
            15,
            drawn("345m345p456s111z2z", "2z"),
        ),
        (
            "hun_yi_se",
            drawn("234m567m999m111z2z", "2z"),
            15,
            drawn("234m567m999p111z2z", "2z"),
        ),
        (
            "si_fu_tong",
            drawn("345m345m345p345s1z", "1z"),
            30,
            drawn("345m345m345p345p1z", "1z"),
        ),
        (
            "shuang_ban_ban",
            drawn("234m234m678p678p1z", "1z"),
            30,
            drawn("234m234m678p789p1z", "1z"),
        ),
        (
            "qing_yi_se",
            drawn("111m234m567m789m9m", "9m"),
            60,
            drawn("111m234m567m789m1z", "1z"),
        ),
        (
            "tie_ban",
            drawn("456m456m456m789p1z", "1z"),
            60,
            drawn("456m456m456p789p1z", "1z"),
        ),
        (
            "qing_dui_dui",
            drawn("111m333m555m777m9m", "9m"),
            75,
            drawn("111m333m555m777p9m", "9m"),
        ),
        (
            "qing_long",
            drawn("123456789m234m5m", "5m"),
            75,
            drawn("123456789m234m1z", "1z"),
        ),
        (
            "feng_qing",
            drawn("111z222z333z555z7z", "7z"),
            240,
            drawn("111z222z333z555z9m", "9m"),
        ),
        (
            "gang_ban",
            drawn("234s234s234s234s5s", "5s"),
            480,
            drawn("234s234s234s345s5s", "5s"),
        ),
    ]
}

#[test]
fn every_row_has_an_example_and_a_near_miss() {
    let cases = cases();
    for p in PATTERNS {
        assert!(cases.iter().any(|c| c.0 == p.id), "no case for {}", p.id);
    }
    for (id, example, value, near) in &cases {
        assert_eq!(
            fan_in(example, id),
            *value,
            "{id} example: {:?}",
            ids(example)
        );
        assert_eq!(fan_in(near, id), 0, "{id} near miss: {:?}", ids(near));
    }
}

#[test]
fn basic_win_is_alone() {
    let s = scored(
        "234p55p345s78s",
        &[("pung", "111m", "west")],
        "9s",
        "discard",
    );
    assert_eq!(ids(&s), ["pi_hu"]);
    assert_eq!(s.total, 1);
}

#[test]
fn edge_and_closed_waits() {
    assert_eq!(fan_in(&drawn("89m456p123s234s55p", "7m"), "ya_zi"), 1);
    assert_eq!(fan_in(&drawn("13m456p789s234s55p", "2m"), "ya_zi"), 1);
    // 78m waits on 6m or 9m: the 9m is not an edge.
    assert_eq!(fan_in(&drawn("78m456p123s234s55p", "9m"), "ya_zi"), 0);
}

#[test]
fn a_concealed_kong_keeps_the_hand_concealed() {
    let s = scored(
        "123m456p234s5p",
        &[("concealed_kong", "9999m", "")],
        "5p",
        "self_draw",
    );
    assert_eq!(fan_in(&s, "men_qing"), 1);
    assert_eq!(fan_in(&s, "an_gang"), 2);
}

#[test]
fn self_drawn_pung_wait_is_concealed() {
    let s = drawn("11m456p789s234s55p", "1m");
    assert_eq!(fan_in(&s, "zi_ge"), 1);
    let exposed = scored(
        "456p789s234s5p",
        &[("pung", "111m", "west")],
        "5p",
        "self_draw",
    );
    assert_eq!(fan_in(&exposed, "zi_ge"), 0);
}

#[test]
fn one_suit_and_honor_hands_are_not_missing_one_suit() {
    assert_eq!(fan_in(&drawn("123m456m789m111z2z", "2z"), "que_yi"), 0);
    assert_eq!(fan_in(&drawn("111z222z333z555z7z", "7z"), "que_yi"), 0);
}

#[test]
fn combinations_replace_their_parts() {
    let long = drawn("123456789m234m5m", "5m");
    assert!(!ids(&long).contains(&"qing_yi_se") && !ids(&long).contains(&"yi_tiao_long"));
    let pungs = drawn("111m333m555m777m9m", "9m");
    assert!(!ids(&pungs).contains(&"qing_yi_se"));
    let honors = drawn("111z222z333z555z7z", "7z");
    assert!(!ids(&honors).contains(&"hun_yi_se"));
    let gang = drawn("234s234s234s234s5s", "5s");
    for part in ["tie_ban", "shuang_ban_ban", "yi_ban"] {
        assert!(!ids(&gang).contains(&part), "{part}");
    }
    // Gang Ban does not replace Full Flush.
    assert_eq!(fan_in(&gang, "qing_yi_se"), 60);
    let tie = drawn("456m456m456m789p1z", "1z");
    assert!(!ids(&tie).contains(&"yi_ban"));
    let double = drawn("234m234m678p678p1z", "1z");
    assert!(!ids(&double).contains(&"yi_ban"));
}

#[test]
fn the_split_worth_most_is_scored() {
    // 111222333m as three chows 123m (Tie Ban, 60) beats three concealed pungs (3).
    let s = drawn("111222333m456p7z", "7z");
    assert_eq!(fan_in(&s, "tie_ban"), 60);
    assert_eq!(fan_in(&s, "zi_ge"), 0);
}

#[test]
fn below_the_minimum_is_invalid() {
    let s = request("123m456p789s234s5p", &[], "5p", "self_draw");
    let e = score(&s, &Options::default()).unwrap_err();
    assert!(e.to_string().contains("below the minimum"), "{e}");
    assert!(score(&s, &ANY).is_ok());
}

#[test]
fn not_a_win_or_wrong_size_is_invalid() {
    let s = request("123m456p789s234s5p", &[], "6p", "self_draw");
    assert!(score(&s, &ANY).is_err());
    let short = request("123m456p789s5p", &[], "5p", "self_draw");
    assert!(score(&short, &ANY).is_err());
    // Seven pairs does not win in Yangzhou.
    let pairs = request("1122m3344p5566s7z", &[], "7z", "self_draw");
    assert!(score(&pairs, &ANY).is_err());
    let own = request(
        "456p789s234s5p",
        &[("pung", "111m", "east")],
        "5p",
        "self_draw",
    );
    assert!(score(&own, &ANY).is_err());
}

#[test]
fn duan_yao_allows_honors() {
    // Ruling: only 1s and 9s spoil No Terminals.
    let dragons = drawn("234m456p555z777z6s", "6s");
    assert_eq!(fan_in(&dragons, "duan_yao"), 1);
    let honors = drawn("111z222z333z555z7z", "7z");
    assert_eq!(fan_in(&honors, "duan_yao"), 1);
    // All Honors 240 + Duan Yao 1 + Dragon 1 + Concealed Triplets 4 + Single Wait 1 + No Melds 1.
    assert_eq!(honors.total, 248);
}

#[test]
fn wait_rows_need_exactly_one_winning_kind() {
    // 2345s waits on 2s and 5s: the 5s completing the pair is no Single Wait.
    let two_sided = drawn("123m456p789s2345s", "5s");
    assert_eq!(fan_in(&two_sided, "du_diao"), 0);
    assert_eq!(two_sided.total, 2, "{:?}", ids(&two_sided));
    // 123456789m 55m 67m waits on 5m and 8m: the 8m read as the middle of 789m is no closed
    // wait.
    let open = drawn("123456789m55m67m", "8m");
    assert_eq!(fan_in(&open, "ya_zi"), 0);
    // 1112m waits on 2m (pair) and 3m (11m + 123m) ...
    let shared = scored(
        "1112m456p789s",
        &[("pung", "444z", "west")],
        "2m",
        "self_draw",
    );
    assert_eq!(fan_in(&shared, "du_diao"), 0);
    // ... unless the winner holds all four 3m: then 2m is the only winning kind.
    let sole = scored(
        "1112m456p789s",
        &[("concealed_kong", "3333m", "")],
        "2m",
        "self_draw",
    );
    assert_eq!(fan_in(&sole, "du_diao"), 1);
    // 1113m waits on 2m (closed) and 3m; with 333m melded the 3m is the fourth copy's kind.
    let closed = scored(
        "1113m456p789s",
        &[("pung", "333m", "west")],
        "2m",
        "self_draw",
    );
    assert_eq!(fan_in(&closed, "ya_zi"), 1);
}

#[test]
fn claimed_chows_need_the_option_and_the_left_neighbour() {
    let chow = request(
        "456p789s234s5p",
        &[("chow", "123m", "north")],
        "5p",
        "self_draw",
    );
    let no_chow = Options {
        min_fan: 0,
        chow: false,
    };
    let e = score(&chow, &no_chow).unwrap_err();
    assert!(e.to_string().contains("chow = true"), "{e}");
    assert!(score(&chow, &ANY).is_ok());
    // East's left neighbour is North: a chow from West is no claim.
    let west = request(
        "456p789s234s5p",
        &[("chow", "123m", "west")],
        "5p",
        "self_draw",
    );
    let e = score(&west, &ANY).unwrap_err();
    assert!(e.to_string().contains("left"), "{e}");
}

#[test]
fn settlement_self_draw_and_discard() {
    // Pure straight hand: 15 + men_qing 1 + ping_hu 1 + lian_fu 1 + lao_shao 1 + du_diao 1 = 20.
    let s = drawn("123456789m567p5s", "5s");
    assert_eq!(s.total, 20);
    assert_eq!(s.payments[&Seat::East], 60);
    for loser in [Seat::South, Seat::West, Seat::North] {
        assert_eq!(s.payments[&loser], -20);
    }
    let d = scored("123456789m567p5s", &[], "5s", "discard");
    assert_eq!(d.total, 20);
    assert_eq!(d.payments[&Seat::East], 40);
    assert_eq!(d.payments[&Seat::South], -40);
    assert_eq!(d.payments[&Seat::West], 0);
    assert_eq!(d.payments[&Seat::North], 0);
}

#[test]
fn pao_pai_charges_the_third_meld_feeder() {
    // Characters only, three exposed pungs (from west, north, north), won on South's discard:
    // North fed the third exposed meld and pays everything East receives; South pays nothing.
    let melds = [
        ("pung", "111m", "west"),
        ("pung", "999m", "north"),
        ("pung", "222m", "north"),
    ];
    let s = scored("345m5m", &melds, "5m", "discard");
    assert!(ids(&s).contains(&"qing_dui_dui") || ids(&s).contains(&"qing_yi_se"));
    let t = s.total;
    assert_eq!(s.payments[&Seat::East], 2 * t);
    assert_eq!(s.payments[&Seat::North], -2 * t);
    assert_eq!(s.payments[&Seat::South], 0);
    assert_eq!(s.itemised.len(), 1);
    let why = s.itemised[0].reason.to_string();
    assert!(why.starts_with("Pao Pai"), "{why}");
    assert!(why.contains(&format!("2 × {t} = {}", 2 * t)), "{why}");
    // Not a flush: no Pao Pai.
    let mixed = scored(
        "345m5m",
        &[melds[0], melds[1], ("pung", "777z", "north")],
        "5m",
        "self_draw",
    );
    assert_eq!(mixed.payments[&Seat::North], -mixed.total);
    assert_eq!(mixed.payments[&Seat::South], -mixed.total);
}

#[test]
fn no_pao_pai_when_the_third_meld_has_no_source() {
    let melds = [
        ("pung", "111p", "west"),
        ("pung", "333p", "south"),
        ("pung", "777p", ""),
    ];
    let s = scored("55p99p", &melds, "9p", "discard");
    assert_eq!(s.total, 75);
    assert_eq!(s.payments[&Seat::South], -150);
    assert_eq!(s.payments[&Seat::North], 0);
}

#[test]
fn robbing_a_kong_is_paid_by_the_kong_owner() {
    let s = scored("13m456m789m111z22z", &[], "2m", "robbing_kong");
    assert_eq!(s.total, 35);
    assert_eq!(s.payments[&Seat::South], -70);
    assert_eq!(s.payments[&Seat::East], 70);
}

#[test]
fn the_table_has_the_seeds_27_rows_with_unique_ids() {
    assert_eq!(PATTERNS.len(), 27);
    for (i, p) in PATTERNS.iter().enumerate() {
        assert!(PATTERNS[..i].iter().all(|q| q.id != p.id), "{}", p.id);
        assert_eq!(p.unit, crate::scoring::Unit::Fan);
    }
    let values: Vec<i64> = PATTERNS.iter().map(|p| p.value).collect();
    assert_eq!(
        values,
        [
            1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 10, 15, 15, 15, 30, 30, 60, 60, 75, 75,
            240, 480
        ]
    );
}

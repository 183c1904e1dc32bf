//! Worked examples for every pattern and rule, each with a near miss.

use super::*;
use crate::scoring::request::{Malformed, ScoreRequest};
use crate::seat::Seat;
use serde_json::{Value, json};

/// Scores a request built from a plain south self-draw (dealer east, 1 lao) with overrides.
fn run(overrides: Value) -> Result<Result<Scored, Invalid>, Malformed> {
    let mut req = json!({"rules": "hangzhou", "win": "self_draw", "seat": "south",
        "dealer": "east", "lao": 1});
    for (k, v) in overrides.as_object().cloned().unwrap_or_default() {
        req[k] = v;
    }
    let r = ScoreRequest::from_json(&req.to_string())?;
    crate::rules::score(&r)
}

fn ok(overrides: Value) -> Scored {
    match run(overrides.clone()) {
        Ok(Ok(s)) => s,
        other => panic!("{overrides}: expected a valid win, got {other:?}"),
    }
}

fn invalid(overrides: Value) -> String {
    match run(overrides.clone()) {
        Ok(Err(Invalid(why))) => why.to_string(),
        other => panic!("{overrides}: expected an invalid win, got {other:?}"),
    }
}

fn ids(s: &Scored) -> Vec<(String, i64)> {
    let mut v: Vec<_> = s.patterns.iter().map(|p| (p.id.clone(), p.value)).collect();
    v.sort();
    v
}

fn pats(list: &[(&str, i64)]) -> Vec<(String, i64)> {
    let mut v: Vec<_> = list.iter().map(|(i, n)| (i.to_string(), *n)).collect();
    v.sort();
    v
}

fn pay(s: &Scored) -> [i64; 4] {
    [Seat::East, Seat::South, Seat::West, Seat::North].map(|x| s.payments[&x])
}

/// A plain hand (no wildcard) for south: 123m 456p 789s 222z 11z.
fn plain() -> Value {
    json!({"concealed": "123m456p789s1122z", "winning_tile": "2z"})
}

/// South in the Bao Tou state: 123m 456p 789s 111z + a wildcard, draws 9m.
fn bao() -> Value {
    json!({"concealed": "123m456p789s111z5z", "winning_tile": "9m"})
}

fn with(mut base: Value, extra: Value) -> Value {
    for (k, v) in extra.as_object().cloned().unwrap_or_default() {
        base[k] = v;
    }
    base
}

#[test]
fn every_pattern_has_a_stable_unique_id() {
    let mut seen = std::collections::BTreeSet::new();
    for p in PATTERNS {
        assert!(seen.insert(p.id), "{} twice", p.id);
        assert_eq!(p.unit, crate::scoring::Unit::Multiplier);
        assert!(p.value >= 1 && !p.definition.is_empty());
    }
    assert_eq!(PATTERNS.len(), 12);
}

#[test]
fn base_score_counts_the_base_option() {
    let s = ok(plain());
    assert_eq!(ids(&s), pats(&[("base_score", 1)]));
    assert_eq!(s.total, 1);
    // Non-dealer self-draw: the dealer pays double.
    assert_eq!(pay(&s), [-2, 4, -1, -1]);
    let s = ok(with(plain(), json!({"options": {"base": 3}})));
    assert_eq!(ids(&s), pats(&[("base_score", 3)]));
    assert_eq!(pay(&s), [-6, 12, -3, -3]);
    // Near miss: one tile off (3z instead of 2z) is no win, so no base score.
    invalid(with(plain(), json!({"winning_tile": "3z"})));
}

#[test]
fn seven_pairs_with_a_wildcard() {
    let s = ok(json!({"concealed": "1133m55p99s11225z", "winning_tile": "7p"}));
    assert_eq!(ids(&s), pats(&[("base_score", 1), ("seven_pairs", 2)]));
    assert_eq!(pay(&s), [-4, 8, -2, -2]);
    // Near miss: without the wildcard the 7p and 3z stay single.
    invalid(json!({"concealed": "1133m55p99s11223z", "winning_tile": "7p"}));
}

#[test]
fn pure_seven_pairs_needs_no_wildcard() {
    let s = ok(json!({"concealed": "1133m55p99s11223z", "winning_tile": "3z"}));
    assert_eq!(
        ids(&s),
        pats(&[
            ("base_score", 1),
            ("seven_pairs", 2),
            ("pure_seven_pairs", 2)
        ])
    );
    assert_eq!(s.total, 4);
    // Near miss: a wildcard standing in for a pair's second tile.
    let s = ok(json!({"concealed": "1133m55p99s11225z", "winning_tile": "3z"}));
    assert_eq!(ids(&s), pats(&[("base_score", 1), ("seven_pairs", 2)]));
}

#[test]
fn luxury_pairs_count_real_fours() {
    let s = ok(json!({"concealed": "1111m55p99s11223z", "winning_tile": "3z"}));
    assert_eq!(
        ids(&s),
        pats(&[
            ("base_score", 1),
            ("seven_pairs", 2),
            ("pure_seven_pairs", 2),
            ("luxury_pairs", 2)
        ])
    );
    assert_eq!(s.total, 8);
    // Three fours: seven pairs 2 × pure 2 × 2³ = 32, worth more than the standard reading
    // 123m ×4 + 55p.
    let s = ok(json!({"concealed": "11112222333m55p", "winning_tile": "3m"}));
    assert_eq!(s.total, 32);
    // Near miss: three real 1m and a wildcard are no four-of-a-kind.
    let s = ok(json!({"concealed": "111m55p99s11223z5z", "winning_tile": "3z"}));
    assert_eq!(ids(&s), pats(&[("base_score", 1), ("seven_pairs", 2)]));
}

#[test]
fn bao_tou_is_a_self_drawn_wildcard_pair_wait() {
    let s = ok(bao());
    assert_eq!(ids(&s), pats(&[("base_score", 1), ("bao_tou", 2)]));
    assert_eq!(pay(&s), [-4, 8, -2, -2]);
    // Near miss: the hand before the draw was not sets + a wildcard (1z 1z 2z W).
    let s = ok(json!({"concealed": "123m456p789s1125z", "winning_tile": "2z"}));
    assert_eq!(ids(&s), pats(&[("base_score", 1)]));
    // Near miss: the same Bao Tou hand winning on the dealer's discard (3 lao) is no Bao Tou.
    let s = ok(with(
        bao(),
        json!({"win": "discard", "discarder": "east", "lao": 3}),
    ));
    assert_eq!(ids(&s), pats(&[("base_score", 1)]));
    assert_eq!(pay(&s), [-1, 1, 0, 0]);
}

#[test]
fn seven_pairs_is_never_bao_tou() {
    // Before the draw: six pairs and a wildcard (any tile wins as seven pairs), but that is no
    // "complete sets plus a wildcard": plain seven pairs ×2.
    let s = ok(json!({"concealed": "1133m55p99s11225z", "winning_tile": "6s"}));
    assert_eq!(ids(&s), pats(&[("base_score", 1), ("seven_pairs", 2)]));
}

#[test]
fn fortune_gambit_per_gambit_up_to_four() {
    let s = ok(with(bao(), json!({"gambits": 1})));
    assert_eq!(
        ids(&s),
        pats(&[("base_score", 1), ("bao_tou", 2), ("fortune_gambit", 2)])
    );
    assert_eq!(pay(&s), [-8, 16, -4, -4]);
    let s = ok(with(bao(), json!({"gambits": 6})));
    assert_eq!(s.total, 2 * 16);
    // Near miss: a gambit claimed from a hand that was not in the Bao Tou state.
    invalid(json!({"concealed": "123m456p789s1125z", "winning_tile": "2z", "gambits": 1}));
}

/// South with a concealed kong of 9p: 123m 456p 111z + 22z, wins on 1z.
fn kong_hand() -> Value {
    json!({"concealed": "123m456p1122z", "winning_tile": "1z",
        "melds": [{"kind": "concealed_kong", "tiles": "9999p"}]})
}

#[test]
fn kong_blossom_per_kong_in_the_chain() {
    let s = ok(with(kong_hand(), json!({"kong_chain": 1})));
    assert_eq!(ids(&s), pats(&[("base_score", 1), ("kong_blossom", 2)]));
    // The kong_replacement circumstance alone is a chain of one.
    let s = ok(with(
        kong_hand(),
        json!({"situation": ["kong_replacement"]}),
    ));
    assert_eq!(ids(&s), pats(&[("base_score", 1), ("kong_blossom", 2)]));
    // Near miss: no chain.
    assert_eq!(ids(&ok(kong_hand())), pats(&[("base_score", 1)]));
    // Near miss: a chain of two with one kong.
    invalid(with(kong_hand(), json!({"kong_chain": 2})));
}

/// South in the Bao Tou state with a concealed kong: 123m 456p 111z + W, kong 9999p.
fn gang_hand() -> Value {
    json!({"concealed": "123m456p111z5z", "winning_tile": "7s",
        "melds": [{"kind": "concealed_kong", "tiles": "9999p"}]})
}

#[test]
fn gang_bao_replaces_bao_tou_and_one_kong() {
    let s = ok(with(gang_hand(), json!({"kong_chain": 1})));
    assert_eq!(ids(&s), pats(&[("base_score", 1), ("gang_bao", 4)]));
    let two = json!({"concealed": "123m111z5z", "winning_tile": "7s", "kong_chain": 2,
        "melds": [{"kind": "concealed_kong", "tiles": "9999p"},
                  {"kind": "kong", "tiles": "4444s", "from": "west"}]});
    let s = ok(two);
    assert_eq!(
        ids(&s),
        pats(&[("base_score", 1), ("gang_bao", 4), ("kong_blossom", 2)])
    );
    // Near miss: not on a replacement tile.
    assert_eq!(
        ids(&ok(gang_hand())),
        pats(&[("base_score", 1), ("bao_tou", 2)])
    );
}

#[test]
fn gang_piao_replaces_one_gambit_and_one_kong() {
    let s = ok(with(gang_hand(), json!({"kong_chain": 1, "gambits": 1})));
    assert_eq!(
        ids(&s),
        pats(&[("base_score", 1), ("gang_piao", 4), ("bao_tou", 2)])
    );
    assert_eq!(s.total, 8);
    // Near miss: the gambit without the kong.
    let s = ok(with(gang_hand(), json!({"gambits": 1})));
    assert_eq!(
        ids(&s),
        pats(&[("base_score", 1), ("bao_tou", 2), ("fortune_gambit", 2)])
    );
}

#[test]
fn dealer_multiplier_by_lao() {
    for (lao, id, m) in [
        (1, "dealer_1_lao", 2),
        (2, "dealer_2_lao", 4),
        (3, "dealer_3_lao", 8),
        (7, "dealer_3_lao", 8),
    ] {
        let s = ok(with(plain(), json!({"seat": "east", "lao": lao})));
        assert_eq!(ids(&s), pats(&[("base_score", 1), (id, m)]));
        assert_eq!(pay(&s), [3 * m, -m, -m, -m]);
    }
    // The seed's example: 1 × Bao Tou 2 × Gambit 2 × 2 lao 4 = 16 (not 8).
    let s = ok(with(bao(), json!({"seat": "east", "lao": 2, "gambits": 1})));
    assert_eq!(s.total, 16);
    // Near miss: a non-dealer winning at 3 lao has no dealer multiplier.
    let s = ok(with(plain(), json!({"lao": 3})));
    assert_eq!(ids(&s), pats(&[("base_score", 1)]));
}

#[test]
fn who_may_win_on_a_discard() {
    let d = |seat: &str, from: &str, lao: u8| {
        with(
            plain(),
            json!({"seat": seat, "win": "discard", "discarder": from, "lao": lao}),
        )
    };
    // 1 and 2 lao: no discard wins at all.
    invalid(d("east", "south", 2));
    invalid(d("south", "east", 1));
    // 3 lao: dealer on a non-dealer, non-dealer on the dealer; discarder alone pays once.
    assert_eq!(pay(&ok(d("east", "west", 3))), [8, 0, -8, 0]);
    assert_eq!(pay(&ok(d("south", "east", 3))), [-1, 1, 0, 0]);
    // Never non-dealer on non-dealer.
    let why = invalid(d("south", "north", 5));
    assert!(why.contains("non-dealer"), "{why}");
    // A discarded wildcard cannot be claimed.
    invalid(
        json!({"concealed": "123m456p789s111z9m", "winning_tile": "5z", "win": "discard",
        "discarder": "east", "lao": 3}),
    );
}

#[test]
fn robbing_the_kong_at_any_lao() {
    // South (non-dealer) robs west's added kong: west pays 1 + 2 + 1 = 4.
    let s = ok(with(
        plain(),
        json!({"win": "robbing_kong", "discarder": "west", "lao": 1}),
    ));
    assert_eq!(pay(&s), [0, 4, -4, 0]);
    // East (dealer, 1 lao) robs north: 3 × 2 = 6.
    let s = ok(with(
        plain(),
        json!({"seat": "east", "win": "robbing_kong", "discarder": "north"}),
    ));
    assert_eq!(pay(&s), [6, 0, 0, -6]);
    // Near miss: a kong chain cannot end in a robbed tile.
    invalid(with(
        kong_hand(),
        json!({"win": "robbing_kong", "discarder": "west", "kong_chain": 1}),
    ));
}

/// South with three melds from west: pungs 111m, 444p, 777s; 11z + 2z 2z wins on 2z.
fn three_from_west() -> Value {
    json!({"concealed": "1122z", "winning_tile": "2z", "melds": [
        {"kind": "pung", "tiles": "111m", "from": "west"},
        {"kind": "pung", "tiles": "444p", "from": "west"},
        {"kind": "pung", "tiles": "777s", "from": "west"}]})
}

#[test]
fn san_tan_chengbao() {
    // Shares 2 (east, dealer) + 1 + 1 = 4; west pays 4 × 2 = 8.
    let s = ok(three_from_west());
    assert_eq!(pay(&s), [0, 8, -8, 0]);
    // Near miss: only two melds from west (the first pung from north).
    let mut two = three_from_west();
    two["melds"][0]["from"] = json!("north");
    assert_eq!(pay(&ok(two)), [-2, 4, -1, -1]);
}

/// `seat` made three pungs (333m, 666m, 888m) from `source`'s discards, as `others` JSON.
fn three_from(seat: &str, source: &str) -> Value {
    json!({seat: {"melds": [
        {"kind": "pung", "tiles": "333m", "from": source},
        {"kind": "pung", "tiles": "666m", "from": source},
        {"kind": "pung", "tiles": "888m", "from": source}]}})
}

/// The plain hand won by `seat` at `lao`, with `others` melds.
fn plain_won_by(seat: &str, lao: u8, others: Value) -> Scored {
    ok(with(
        plain(),
        json!({"seat": seat, "lao": lao, "others": others}),
    ))
}

#[test]
fn reverse_chengbao_dealer_neither() {
    // Issue 21: west made three melds from south's discards; south (non-dealer) self-draws the
    // plain hand, T = 1. Shares east 2 (dealer), west 1, north 1: west pays (2 + 1 + 1) × 2 = 8,
    // its own share included; east and north pay nothing.
    for lao in [1, 3] {
        let s = plain_won_by("south", lao, three_from("west", "south"));
        assert_eq!(s.total, 1, "a non-dealer's win carries no lao multiplier");
        assert_eq!(pay(&s), [0, 8, -8, 0], "lao {lao}");
    }
}

#[test]
fn reverse_chengbao_dealer_as_a() {
    // East (dealer) made three melds from south; south wins, T = 1. Shares east 2, west 1,
    // north 1: east pays (2 + 1 + 1) × 2 = 8.
    for lao in [1, 2] {
        let s = plain_won_by("south", lao, three_from("east", "south"));
        assert_eq!(pay(&s), [-8, 8, 0, 0], "lao {lao}");
    }
}

#[test]
fn reverse_chengbao_dealer_as_b() {
    // West made three melds from east (dealer), and east wins. At 1 lao T = 1 × 2 = 2, shares
    // 2 + 2 + 2 = 6: west pays 12. At 3 lao T = 1 × 8 = 8, shares 8 + 8 + 8 = 24: west pays 48.
    let s = plain_won_by("east", 1, three_from("west", "east"));
    assert_eq!(s.total, 2);
    assert_eq!(pay(&s), [12, 0, -12, 0]);
    let s = plain_won_by("east", 3, three_from("west", "east"));
    assert_eq!(s.total, 8);
    assert_eq!(pay(&s), [48, 0, -48, 0]);
}

#[test]
fn reverse_chengbao_near_miss_and_reason() {
    // Two melds from south only: an ordinary self-draw.
    let mut two = three_from("west", "south");
    two["west"]["melds"][2]["from"] = json!("north");
    assert_eq!(pay(&plain_won_by("south", 1, two)), [-2, 4, -1, -1]);
    // The payment names the rule and its arithmetic.
    let s = plain_won_by("south", 1, three_from("west", "south"));
    assert_eq!(s.itemised.len(), 1);
    let p = &s.itemised[0];
    assert_eq!((p.from, p.to, p.amount), (Seat::West, Seat::South, 8));
    let why = p.reason.to_string();
    assert!(why.starts_with("Reverse Chengbao"), "{why}");
    assert!(why.contains("(2 + 1 + 1) × 2 = 8"), "{why}");
}

#[test]
fn combined_chengbao_applies_each_rule() {
    // South (A) made three melds from west (B); north (C) made three from south; south wins.
    // Shares east 2, west 1, north 1, S = 4. West pays 2S = 8; north pays 2S = 8; east nothing.
    let s = ok(with(
        three_from_west(),
        json!({"others": three_from("north", "south")}),
    ));
    assert_eq!(pay(&s), [0, 16, -8, -8]);
    let reasons: Vec<String> = s.itemised.iter().map(|p| p.reason.to_string()).collect();
    assert!(reasons[0].starts_with("San Tan Chengbao"), "{reasons:?}");
    assert!(reasons[1].starts_with("Reverse Chengbao"), "{reasons:?}");
    // The dealer as A at 2 lao: east made three from west, north three from east, east wins.
    // T = 1 × 4 = 4, shares 4 + 4 + 4 = 12: west pays 24, north pays 24.
    let s = ok(with(
        three_from_west(),
        json!({"seat": "east", "lao": 2, "others": three_from("north", "east")}),
    ));
    assert_eq!(s.total, 4);
    assert_eq!(pay(&s), [48, 0, -24, -24]);
}

#[test]
fn a_payer_who_is_both_b_and_a_pays_both() {
    // South made three melds from west, and west three from south; south wins: S = 4, west
    // pays 8 as B and 8 as A. With cap 10 it pays 10, in one payment naming the cap.
    let both = with(
        three_from_west(),
        json!({"others": three_from("west", "south")}),
    );
    let s = ok(both.clone());
    assert_eq!(pay(&s), [0, 16, -16, 0]);
    assert_eq!(s.itemised.len(), 2);
    let s = ok(with(both, json!({"options": {"cap": 10}})));
    assert_eq!(pay(&s), [0, 10, -10, 0]);
    assert_eq!(s.itemised.len(), 1);
    assert!(
        s.itemised[0]
            .reason
            .to_string()
            .contains("owes 16, capped at 10")
    );
}

#[test]
fn cap_and_zero_floor() {
    // East (dealer, 3 lao) with seven pure pairs and three fours: 1 × 2 × 2 × 8 × 8 = 256.
    let big = json!({"seat": "east", "lao": 3, "concealed": "11112222333m55p",
        "winning_tile": "3m"});
    let s = ok(big.clone());
    assert_eq!(s.total, 256);
    let s = ok(with(big.clone(), json!({"options": {"cap": 64}})));
    assert_eq!(s.total, 256, "the total is before the cap");
    assert_eq!(pay(&s), [192, -64, -64, -64]);
    // South at 0 pays nothing, west pays only its 10: the winner loses the rest.
    let s = ok(with(
        big,
        json!({"options": {"cap": 128}, "balances": {"east": 5, "south": 0, "west": 10}}),
    ));
    assert_eq!(pay(&s), [138, 0, -10, -128]);
}

#[test]
fn wildcards_never_in_declared_melds() {
    let why = invalid(json!({"concealed": "123m456p1122z", "winning_tile": "1z",
        "melds": [{"kind": "concealed_kong", "tiles": "5555z"}]}));
    assert!(why.contains("wildcard"), "{why}");
    // Near miss: in indicator mode White dragons are ordinary tiles.
    let s = ok(
        json!({"concealed": "123m456p1122z", "winning_tile": "1z", "wildcard": "9m",
        "options": {"wildcard": "indicator"},
        "melds": [{"kind": "concealed_kong", "tiles": "5555z"}]}),
    );
    assert_eq!(s.total, 1);
}

#[test]
fn indicator_mode_needs_the_wild_kind() {
    let e = run(with(bao(), json!({"options": {"wildcard": "indicator"}}))).unwrap_err();
    assert!(e.to_string().contains("wildcard"), "{e}");
    // With 3s wild, 123m456p789s111z + 3s is Bao Tou, and 5z is an ordinary tile.
    let s = ok(
        json!({"concealed": "123m456p789s111z3s", "winning_tile": "9m", "wildcard": "3s",
        "options": {"wildcard": "indicator"}}),
    );
    assert_eq!(ids(&s), pats(&[("base_score", 1), ("bao_tou", 2)]));
    invalid(json!({"concealed": "123m456p789s111z5z", "winning_tile": "9m", "wildcard": "3s"}));
    // Near miss: four 3s in play when one 3s is the face-up indicator.
    let why = invalid(
        json!({"concealed": "123m456p789s1z333s", "winning_tile": "3s",
        "wildcard": "3s", "options": {"wildcard": "indicator"}}),
    );
    assert!(why.contains("indicator"), "{why}");
}

#[test]
fn chows_come_from_the_left() {
    // South's left is east: a chow from east is fine, from west it is impossible.
    let hand = |from: &str| {
        json!({"concealed": "456p789s1122z", "winning_tile": "2z",
            "melds": [{"kind": "chow", "tiles": "123m", "from": from}]})
    };
    assert_eq!(ok(hand("east")).total, 1);
    let why = invalid(hand("west"));
    assert!(why.contains("left"), "{why}");
    let why = invalid(hand("north"));
    assert!(why.contains("left"), "{why}");
    // Nobody claims their own discard, for any meld.
    let why = invalid(hand("south"));
    assert!(why.contains("own seat"), "{why}");
    let why = invalid(json!({"concealed": "456p789s1122z", "winning_tile": "2z",
        "melds": [{"kind": "pung", "tiles": "333m", "from": "south"}]}));
    assert!(why.contains("own seat"), "{why}");
}

#[test]
fn hand_size_and_lao_are_checked() {
    let why = invalid(json!({"concealed": "123m456p789s11z", "winning_tile": "2z"}));
    assert!(why.contains("concealed hand"), "{why}");
    assert!(run(with(plain(), json!({"lao": 0}))).is_err());
}

#[test]
fn discard_win_table() {
    use super::eligibility::discard_win_allowed;
    use Seat::*;
    assert!(discard_win_allowed(East, South, East, 3));
    assert!(discard_win_allowed(North, East, East, 4));
    assert!(!discard_win_allowed(North, East, East, 2));
    assert!(!discard_win_allowed(East, South, East, 1));
    assert!(!discard_win_allowed(South, North, East, 9));
    assert!(!discard_win_allowed(East, East, East, 3));
}

#[test]
#[ignore = "timing, run by hand"]
fn timing() {
    let r = ScoreRequest::from_json(
        &json!({"rules": "hangzhou", "concealed": "123m456p789s55z5z5z", "winning_tile": "9m",
            "win": "self_draw", "seat": "south", "gambits": 1})
        .to_string(),
    )
    .unwrap();
    let o = Options::default();
    let t = std::time::Instant::now();
    for _ in 0..10_000 {
        assert!(score(&r.situation, &o).is_ok());
    }
    eprintln!("{:?} per score", t.elapsed() / 10_000);
}

//! Every rule set's payment reasons: keys in the set's name, words that name every number,
//! JSON that reads back through the registry, and the catalogue's keys unchanged.

use crate::rules::{RULE_SETS, reason_keys, registry};
use crate::scoring::reason::{Arg, MAX_ARGS, Reason, ReasonDef};

/// One reason of `def`, with numbers of the right kinds.
fn example(def: &'static ReasonDef) -> Reason {
    let args: Vec<Arg> = def
        .args
        .iter()
        .enumerate()
        .map(|(i, &name)| match name {
            "shares" => Arg::Shares(vec![2, 1, 1]),
            "owed" => Arg::Owed(vec![
                crate::scoring::reason::SELF_DRAW_TOTAL.with([Arg::Number(4)]),
            ]),
            _ => Arg::Number(10 + i as i64),
        })
        .collect();
    def.with(args)
}

#[test]
fn the_catalogue_keys_are_the_rule_sets_reasons() {
    assert_eq!(
        reason_keys(),
        [
            "hongkong.fan_self_draw",
            "hongkong.fan_discarder",
            "hongkong.fan_other",
            "self_draw_total",
            "hangzhou.chengbao",
            "hangzhou.reverse_chengbao",
            "hangzhou.discarder_total",
            "hangzhou.zhuo_gang",
            "hangzhou.dealer_double",
            "hangzhou.capped",
            "hangzhou.floored",
            "yangzhou.pao_pai",
            "yangzhou.discarder_double",
            "classic.winner_score",
            "classic.winner_score_doubled",
            "classic.difference",
            "classic.difference_doubled",
        ]
    );
}

#[test]
fn a_sets_own_reasons_carry_its_name_and_shared_ones_no_set_name() {
    for set in RULE_SETS {
        let name = set.name();
        for def in set.spec().reasons {
            match def.key.split_once('.') {
                Some((prefix, _)) => assert_eq!(prefix, name, "{}", def.key),
                // A shared rule is the same rule wherever it is listed.
                None => assert!(
                    registry::reasons().iter().any(|d| std::ptr::eq(*d, *def)),
                    "{}",
                    def.key
                ),
            }
        }
    }
}

#[test]
fn the_english_words_name_every_number_once_listed() {
    for def in registry::reasons() {
        assert_eq!(def.placeholders(), def.args, "{}", def.key);
        assert!(def.args.len() <= MAX_ARGS, "{}", def.key);
        let text = example(def).to_string();
        assert!(!text.contains('{') && !text.contains('}'), "{text}");
        for (i, arg) in example(def).args().iter().enumerate() {
            if let Arg::Number(n) = arg {
                assert_eq!(*n, 10 + i as i64);
                assert!(text.contains(&n.to_string()), "{}: {text}", def.key);
            }
        }
    }
}

#[test]
fn every_reason_reads_back_from_its_json() {
    for def in registry::reasons() {
        let r = example(def);
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["key"], def.key);
        assert_eq!(
            json["args"].as_object().map(|a| a.keys().count()),
            Some(def.args.len())
        );
        let back: Reason = serde_json::from_value(json).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.to_string(), r.to_string());
    }
}

#[test]
fn a_reason_no_rule_set_pays_by_is_refused() {
    for (text, needle) in [
        (
            r#"{"key": "riichi.tsumo", "args": {"total": 1}}"#,
            "riichi.tsumo",
        ),
        (r#"{"key": "self_draw_total", "args": {"sum": 1}}"#, "total"),
        (
            r#"{"key": "self_draw_total", "args": {"total": "one"}}"#,
            "total",
        ),
    ] {
        let e = serde_json::from_str::<Reason>(text)
            .unwrap_err()
            .to_string();
        assert!(e.contains(needle), "{text}: {e}");
    }
}

#[test]
fn the_english_reads_the_arithmetic() {
    use crate::rules::hangzhou;
    let def = |key: &str| {
        registry::reasons()
            .into_iter()
            .find(|d| d.key == key)
            .unwrap()
    };
    let diff = def("classic.difference_doubled").of(&[16, 6, 10, 20]);
    assert_eq!(
        diff.to_string(),
        "pays the difference of the scores, 16 − 6: the dealer pays and receives double, \
         2 × 10 = 20"
    );
    let chengbao = hangzhou::settle::CHENGBAO.with([Arg::Shares(vec![2, 1, 1]), 8.into()]);
    let capped = hangzhou::settle::CAPPED.with([Arg::Owed(vec![chengbao]), 8.into(), 5.into()]);
    assert_eq!(
        capped.to_string(),
        "San Tan Chengbao: fed the winner three melds, pays every share ×2, (2 + 1 + 1) × 2 \
         = 8; owes 8, capped at 5"
    );
}

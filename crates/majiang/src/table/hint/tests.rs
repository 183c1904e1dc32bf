//! Worked examples of the ready hint.

use super::*;
use crate::meld::Meld;
use crate::notation::parse_tiles;
use crate::table::{DiscardRecord, Player, PublicHand, WildcardRule};
use crate::tile::Wind;
use serde_json::{Map, Value};

fn t(s: &str) -> Tile {
    s.parse().unwrap()
}

fn counts(s: &str) -> TileCounts {
    TileCounts::parse(s).unwrap()
}

fn rules(name: &str, options: &[(&str, Value)]) -> TableRules {
    let map: Map<String, Value> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    TableRules::from_name(name, &map).unwrap()
}

/// The viewer (chair 0, North, not the dealer) holding `concealed`, every seat's discards as
/// given (chair by chair), no melds.
fn observation(rules: &TableRules, concealed: &str, discards: &[&str]) -> Observation {
    let seats = rules.seats();
    let n = seats.len();
    // Chair 0 sits North at four (the dealer is chair 1): turn order East, South, West, North.
    let seat_of = |i: usize| seats[(i + n - 1) % n];
    let table = (0..n)
        .map(|i| PublicHand {
            player: Player(i as u8),
            seat: seat_of(i),
            melds: Vec::new(),
            flowers: Vec::new(),
            discards: discards
                .get(i)
                .map(|d| parse_tiles(d).unwrap())
                .unwrap_or_default()
                .into_iter()
                .map(|tile| DiscardRecord {
                    tile,
                    claimed: false,
                    gambit: false,
                })
                .collect(),
            concealed_count: 13,
            gambit_run: 0,
        })
        .collect();
    let mut extra_winds = Vec::new();
    let mut playing = String::new();
    for tile in parse_tiles(concealed).unwrap() {
        if tile.is_bonus() {
            extra_winds.push(tile);
        } else {
            playing.push_str(&tile.to_string());
        }
    }
    Observation {
        player: Player(0),
        seat: seat_of(0),
        dealer: Player(1),
        prevailing_wind: Wind::East,
        lao: 1,
        concealed: counts(&playing),
        extra_winds,
        drawn: None,
        table,
        live_wall: 60,
        wildcard: match rules.config().wildcard {
            WildcardRule::Fixed(w) => Some(w),
            _ => None,
        },
        indicator: None,
        gambit_round: false,
        wildcard_discard_is_gambit: false,
        on_offer: None,
        last_discard: None,
        turn: None,
        legal_actions: Vec::new(),
        missed_wins: Vec::new(),
    }
}

#[test]
fn hong_kong_all_chows_is_below_the_minimum_on_a_discard() {
    // The hand: 789m 345p 678p 3456s waits on 3s and 6s; on a discard it is 2 fan,
    // below Hong Kong's minimum of 3.
    let r = rules("hongkong", &[]);
    let obs = observation(&r, "789m345p678p3456s", &[]);
    let hint = ready_hint(&obs, &r, None);
    assert_eq!(hint.shanten, 0);
    let tiles: Vec<Tile> = hint.waits.iter().map(|w| w.tile).collect();
    assert_eq!(tiles, vec![t("3s"), t("6s")]);
    for w in &hint.waits {
        assert_eq!(w.unseen, 3, "{w:?}");
        assert!(w.discard.is_err(), "a discard win is below 3 fan: {w:?}");
    }
    // Self-drawn, the concealed hand gains a fan and reaches 3.
    assert_eq!(hint.waits[0].self_draw, Ok(3));
    assert_eq!(
        hint.waits[0].discard,
        Err(Invalid(
            crate::scoring::invalid::BELOW_MINIMUM.with([2.into(), 3.into()])
        ))
    );
    assert_eq!(
        hint.text(ScoreUnit::Fan, |t| t.to_string()),
        "ready: 3s (3 unseen, self-draw only: 3 fan), 6s (3 unseen, self-draw only: 3 fan)"
    );
    // With a minimum of 4 fan neither way reaches it.
    let r = rules("hongkong", &[("min_fan", Value::from(4))]);
    let hint = ready_hint(&observation(&r, "789m345p678p3456s", &[]), &r, None);
    assert_eq!(hint.waits.len(), 2);
    assert!(!hint.any_reaches_minimum());
    assert_eq!(
        hint.text(ScoreUnit::Fan, |t| t.to_string()),
        "ready, but no winning tile reaches the minimum (3s 6s)"
    );
}

#[test]
fn hong_kong_minimum_zero_scores_every_wait() {
    let r = rules("hongkong", &[("min_fan", Value::from(0))]);
    let obs = observation(&r, "789m345p678p3456s", &[]);
    let hint = ready_hint(&obs, &r, None);
    assert!(
        hint.waits
            .iter()
            .all(|w| w.self_draw.is_ok() && w.discard.is_ok())
    );
    let discard = hint.waits[0].discard.clone().unwrap();
    let self_draw = hint.waits[0].self_draw.clone().unwrap();
    assert!(
        self_draw > discard,
        "self-draw adds a fan: {self_draw} vs {discard}"
    );
    let text = hint.text(ScoreUnit::Fan, |t| t.to_string());
    assert!(
        text.starts_with("ready: 3s (3 unseen, self-draw "),
        "{text}"
    );
}

#[test]
fn a_wait_whose_copies_are_all_visible_has_none_unseen() {
    // 123m 456m 789m 123p 9s waits on 9s only; the other three 9s are in the discards.
    let r = rules("hongkong", &[("min_fan", Value::from(0))]);
    let obs = observation(&r, "123456789m123p9s", &["9s", "9s", "1z9s"]);
    let hint = ready_hint(&obs, &r, None);
    assert_eq!(hint.waits.len(), 1);
    assert_eq!(hint.waits[0].tile, t("9s"));
    assert_eq!(hint.waits[0].unseen, 0);
    assert_eq!(hint.waits[0].live(), 0);
    // The discarded East is seen too, but no wait.
    assert!(
        hint.text(ScoreUnit::Fan, |t| t.to_string())
            .contains("9s (0 unseen,")
    );
}

#[test]
fn a_discard_is_read_out_of_the_hand_first() {
    let r = rules("hongkong", &[("min_fan", Value::from(0))]);
    let obs = observation(&r, "123456789m123p9s1z", &[]);
    assert_eq!(ready_hint(&obs, &r, Some(t("1z"))).waits.len(), 1);
    let away = ready_hint(&obs, &r, Some(t("1m")));
    assert_eq!(away.shanten, 1);
    assert!(away.waits.is_empty());
    assert_eq!(
        away.text(ScoreUnit::Fan, |t| t.to_string()),
        "1 tile from ready"
    );
}

#[test]
fn hangzhou_wildcard_hand() {
    // White (5z) is wild: 123m 456p 789s 111z and a lone White (Bao Tou) wins on any tile,
    // the White pairing with it; the scorer rates each.
    let r = rules("hangzhou", &[]);
    let obs = observation(&r, "123m456p789s1115z", &[]);
    let hint = ready_hint(&obs, &r, None);
    assert_eq!(hint.shanten, 0);
    assert!(hint.waits.len() > 5, "{:?}", hint.waits);
    assert!(hint.waits.iter().any(|w| w.tile == t("1z")));
    // A self-drawn win always counts in Hangzhou; no seat may be won from at lao 1.
    for w in &hint.waits {
        assert!(w.self_draw.is_ok(), "{w:?}");
        assert!(w.discard.is_err(), "{w:?}");
    }
    // The wild White in hand is seen: three more of them.
    let white = hint.waits.iter().find(|w| w.tile == t("5z"));
    if let Some(w) = white {
        assert_eq!(w.unseen, 3);
    }
}

#[test]
fn six_player_extra_winds_wait() {
    // Six players: three pungs and a pair. 111m 555p 99s and two extra winds: waits on 9s and
    // on any extra wind (six of the eight unseen).
    let r = rules("classic", &[("players", Value::from(6))]);
    let obs = observation(&r, "111m555p99s3f5f", &[]);
    let hint = ready_hint(&obs, &r, None);
    assert_eq!(hint.shanten, 0);
    let tiles: Vec<(Tile, bool, u8)> = hint
        .waits
        .iter()
        .map(|w| (w.tile, w.extra_wind, w.unseen))
        .collect();
    assert_eq!(tiles, vec![(t("9s"), false, 2), (t("1f"), true, 6)]);
    let text = hint.text(ScoreUnit::Points, |t| t.to_string());
    assert!(text.contains("extra wind (6 unseen,"), "{text}");
}

#[test]
fn seen_counts_melds_and_the_indicator() {
    let r = rules("hongkong", &[("min_fan", Value::from(0))]);
    let mut obs = observation(&r, "123456789m123p9s", &[]);
    obs.table[2]
        .melds
        .push(Meld::new(crate::meld::MeldKind::Pung, t("9s")).unwrap());
    let hint = ready_hint(&obs, &r, None);
    assert_eq!(hint.waits[0].unseen, 0);
    obs.table[2].melds.clear();
    obs.indicator = Some(t("9s"));
    assert_eq!(ready_hint(&obs, &r, None).waits[0].unseen, 2);
}

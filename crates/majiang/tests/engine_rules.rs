//! Scripted hands on stacked walls, one per rule the engine must honour: who may claim what,
//! claim priority, robbing the kong, replacement draws, minimum fan, the Hangzhou wildcard,
//! lao and Fortune Gambit rules, Yangzhou without chow; plus determinism and what an
//! observation may show.

use majiang::Tile;
use majiang::scoring::WinKind;
use majiang::table::{
    Action, Event, Game, HandOutcome, HandSetup, KongKind, Player, TableRules, Wall,
};
use majiang_testkit::engine::{act, ruleset, tile as t, tiles};
use majiang_testkit::observation::assert_views_follow_the_events;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::sync::Arc;

const P0: Player = Player(0);
const P1: Player = Player(1);
const P2: Player = Player(2);
const P3: Player = Player(3);

/// A hand on a stacked wall: `hands` from the dealer (chair 0) in turn order, then the live
/// draws, then the first replacement tiles.
fn start(r: &Arc<TableRules>, hands: [&str; 4], draws: &str, repl: &str, lao: u8) -> Game {
    let hands: Vec<Vec<Tile>> = hands.iter().map(|h| tiles(h)).collect();
    let wall = Wall::stacked(r.config(), &hands, &tiles(draws), &tiles(repl)).unwrap();
    let setup = HandSetup {
        lao,
        ..HandSetup::new(1)
    };
    Game::with_wall(r.clone(), setup, wall).unwrap().0
}

fn to_act(g: &Game) -> Vec<Player> {
    g.to_act().collect()
}

fn chow(s: &str) -> Action {
    let v = tiles(s);
    Action::Chow {
        tiles: [v[0], v[1], v[2]],
    }
}

// Hands for the claim tests. Chair 0 deals and discards first.
const CHOW_HANDS: [&str; 4] = [
    "3m 1p2p5p7p9p 1s3s5s7s9s 1z2z3z",
    "45m 2p4p6p8p 2s4s6s8s 4z5z6z",
    "12m 3p4p6p8p 2s4s6s8s 4z5z6z",
    "24m 3p4p6p8p 2s4s6s8s 4z5z6z",
];

#[test]
fn chow_only_from_the_left_neighbour() {
    let mut g = start(&ruleset("classic", json!({})), CHOW_HANDS, "", "", 1);
    act(&mut g, P0, Action::Discard(t("3m")));
    // Chair 2 (12m) and chair 3 (24m) could make a chow with 3m, but only chair 1 sits after
    // the discarder.
    assert_eq!(to_act(&g), vec![P1]);
    assert_eq!(g.legal_actions(P1), vec![chow("345m"), Action::Pass]);
    assert!(g.legal_actions(P2).is_empty() && g.legal_actions(P3).is_empty());
    let before = g.clone();
    assert!(g.apply(P3, chow("234m")).is_err());
    assert!(g.apply(P1, chow("234m")).is_err());
    assert_eq!(g, before);
    let events = act(&mut g, P1, chow("345m"));
    assert!(matches!(
        &events[0],
        Event::Claimed { player, from, meld, .. }
            if *player == P1 && *from == P0 && meld.to_string() == "chow 345m"
    ));
    // A claimer discards next, and may not win or kong first.
    assert_eq!(to_act(&g), vec![P1]);
    assert!(
        g.legal_actions(P1)
            .iter()
            .all(|a| matches!(a, Action::Discard(_)))
    );
}

#[test]
fn yangzhou_has_no_chow_unless_the_option_is_on() {
    let mut g = start(&ruleset("yangzhou", json!({})), CHOW_HANDS, "", "", 1);
    let events = act(&mut g, P0, Action::Discard(t("3m")));
    assert!(matches!(events.last(), Some(Event::Drew { player, .. }) if *player == P1));
    assert_eq!(g.turn(), Some(P1));
    let mut g = start(
        &ruleset("yangzhou", json!({"chow": true})),
        CHOW_HANDS,
        "",
        "",
        1,
    );
    act(&mut g, P0, Action::Discard(t("3m")));
    assert_eq!(g.legal_actions(P1), vec![chow("345m"), Action::Pass]);
}

const PRIORITY_HANDS: [&str; 4] = [
    "5p 1m9m 1s9s 1z2z3z4z5z6z7z 2m8m",
    "67p 2s3s 5s6s 8s 1z2z3z 4z5z 6z",
    "55p 2s3s 5s6s 8s 1z2z3z 4z5z 6z",
    "123m456m789m34p99s",
];

#[test]
fn win_beats_pung_beats_chow() {
    let r = ruleset("classic", json!({}));
    let mut g = start(&r, PRIORITY_HANDS, "", "", 1);
    act(&mut g, P0, Action::Discard(t("5p")));
    assert_eq!(to_act(&g), vec![P1, P2, P3]);
    assert_eq!(g.legal_actions(P1), vec![chow("567p"), Action::Pass]);
    assert_eq!(g.legal_actions(P2), vec![Action::Pung, Action::Pass]);
    assert_eq!(g.legal_actions(P3), vec![Action::Win, Action::Pass]);
    // Answer order does not matter: the win is taken when the last answer is in.
    act(&mut g, P3, Action::Win);
    act(&mut g, P1, chow("567p"));
    let events = act(&mut g, P2, Action::Pung);
    assert!(events.iter().all(|e| !matches!(e, Event::Claimed { .. })));
    match g.outcome() {
        Some(HandOutcome::Win {
            winner,
            win,
            discarder,
            ..
        }) => {
            assert_eq!(
                (*winner, *win, *discarder),
                (P3, WinKind::Discard, Some(P0))
            );
        }
        other => panic!("{other:?}"),
    }

    // Without the win, the pung beats the chow.
    let mut g = start(&r, PRIORITY_HANDS, "", "", 1);
    act(&mut g, P0, Action::Discard(t("5p")));
    act(&mut g, P1, chow("567p"));
    act(&mut g, P3, Action::Pass);
    let events = act(&mut g, P2, Action::Pung);
    assert!(matches!(&events[0], Event::Claimed { player, .. } if *player == P2));
    assert_eq!(g.turn(), Some(P2));
    assert_eq!(g.melds(P1).len(), 0);
    assert!(g.discards(P0)[0].claimed);
}

#[test]
fn one_winner_the_nearest_after_the_discarder() {
    let r = ruleset("classic", json!({}));
    let hands = [
        "5p 1m9m 1s9s 1z2z3z4z5z6z7z 2m8m",
        "123s456s789s34p22z",
        "1z1z 3z 4z5z6z7z 1p 9p 6m 7m 6s 7s",
        "123m456m789m34p99s",
    ];
    let mut g = start(&r, hands, "", "", 1);
    act(&mut g, P0, Action::Discard(t("5p")));
    assert!(g.legal_actions(P1).contains(&Action::Win));
    assert!(g.legal_actions(P3).contains(&Action::Win));
    act(&mut g, P3, Action::Win);
    let events = act(&mut g, P1, Action::Win);
    let wins: Vec<_> = events
        .iter()
        .filter(|e| matches!(e, Event::Won { .. }))
        .collect();
    assert_eq!(wins.len(), 1, "no double ron");
    assert_eq!(g.outcome().unwrap().winner(), Some(P1));
}

#[test]
fn a_pair_is_claimed_only_to_win() {
    let hands = [
        "9s 1m9m 1s 1z2z3z4z5z6z7z 2m8m 5p",
        "9s 2s3s 5s6s 8s 1z2z3z 4z5z 6z 7p",
        "2s3s 5s6s 8s 1z2z3z 4z5z6z 7p 8p",
        "123m456m789m345p9s",
    ];
    let mut g = start(&ruleset("classic", json!({})), hands, "", "", 1);
    act(&mut g, P0, Action::Discard(t("9s")));
    // Chair 3 pairs 9s to win; chair 1 holds a single 9s and may not claim it for a pair.
    assert_eq!(to_act(&g), vec![P3]);
    assert_eq!(g.legal_actions(P3), vec![Action::Win, Action::Pass]);
    assert!(g.legal_actions(P1).is_empty());
    act(&mut g, P3, Action::Pass);
    assert_eq!(g.turn(), Some(P1));
}

const KONG_HANDS: [&str; 4] = [
    "5p 1m9m 1s9s 1z2z3z4z 6z 2m8m 1p9p",
    "55p 2s3s 5s6s 8s 1z2z3z 4z 7p 8p",
    "123m456m789m34p99s",
    "2s3s 5s6s 8s 1z2z3z 4z 6z 1p 9p 7m",
];

#[test]
fn an_added_kong_can_be_robbed() {
    let r = ruleset("classic", json!({}));
    let mut g = start(&r, KONG_HANDS, "7z7z7z5p", "", 1);
    act(&mut g, P0, Action::Discard(t("5p")));
    // Chair 2 could win on 5p and passes; chair 1 pungs.
    assert_eq!(to_act(&g), vec![P1, P2]);
    act(&mut g, P2, Action::Pass);
    act(&mut g, P1, Action::Pung);
    act(&mut g, P1, Action::Discard(t("8s")));
    for p in [P2, P3, P0] {
        assert_eq!(g.turn(), Some(p));
        act(&mut g, p, Action::Discard(t("7z")));
    }
    assert_eq!(g.drawn(), Some(t("5p")));
    assert!(g.legal_actions(P1).contains(&Action::AddedKong(t("5p"))));
    let events = act(&mut g, P1, Action::AddedKong(t("5p")));
    assert!(matches!(
        events[0],
        Event::KongDeclared {
            kind: KongKind::Added,
            ..
        }
    ));
    assert_eq!(to_act(&g), vec![P2]);
    assert_eq!(g.legal_actions(P2), vec![Action::Win, Action::Pass]);
    let events = act(&mut g, P2, Action::Win);
    assert!(events.iter().any(
        |e| matches!(e, Event::KongRobbed { player, from, .. } if *player == P2 && *from == P1)
    ));
    match g.outcome() {
        Some(HandOutcome::Win {
            winner,
            win,
            discarder,
            ..
        }) => assert_eq!(
            (*winner, *win, *discarder),
            (P2, WinKind::RobbingKong, Some(P1))
        ),
        other => panic!("{other:?}"),
    }
    // The robbed kong stays a pung.
    assert_eq!(g.melds(P1)[0].to_string(), "pung 555p");
}

#[test]
fn an_added_kong_nobody_robs_draws_a_replacement() {
    let r = ruleset("classic", json!({}));
    let mut g = start(&r, KONG_HANDS, "7z7z7z5p", "9p", 1);
    act(&mut g, P0, Action::Discard(t("5p")));
    act(&mut g, P2, Action::Pass);
    act(&mut g, P1, Action::Pung);
    act(&mut g, P1, Action::Discard(t("8s")));
    for p in [P2, P3, P0] {
        act(&mut g, p, Action::Discard(t("7z")));
    }
    act(&mut g, P1, Action::AddedKong(t("5p")));
    let events = act(&mut g, P2, Action::Pass);
    assert!(matches!(
        events[0],
        Event::ReplacementDrawn { player, tile: Some(x) } if player == P1 && x == t("9p")
    ));
    assert_eq!(g.melds(P1)[0].to_string(), "kong 5555p");
    assert_eq!(g.turn(), Some(P1));
}

#[test]
fn a_concealed_kong_cannot_be_robbed_and_draws_a_replacement() {
    let hands = [
        "5555p 1m9m 1s9s 1z2z3z4z 2m8m",
        "2s3s 5s6s 8s 1z2z3z 4z 7p 8p 6z 7z",
        "123m456m789m34p99s",
        "2s3s 5s6s 8s 1z2z3z 4z 6z 1p 9p 7m",
    ];
    let mut g = start(&ruleset("classic", json!({})), hands, "", "9p", 1);
    assert!(
        g.legal_actions(P0)
            .contains(&Action::ConcealedKong(t("5p")))
    );
    let events = act(&mut g, P0, Action::ConcealedKong(t("5p")));
    // Chair 2 waits on 5p, but a concealed kong is not robbable.
    assert_eq!(to_act(&g), vec![P0]);
    assert!(matches!(
        events[..],
        [
            Event::KongDeclared {
                kind: KongKind::Concealed,
                ..
            },
            Event::ReplacementDrawn { tile: Some(x), .. }
        ] if x == t("9p")
    ));
    assert_eq!(g.concealed(P0).get(t("9p")), 1);
    assert_eq!(g.melds(P0)[0].to_string(), "concealed_kong 5555p");
}

#[test]
fn hong_kong_minimum_fan_refuses_a_cheap_win() {
    let hands = [
        "5p 1m9m 1s9s 1z2z3z4z5z6z7z 2m8m",
        "123m 456p 789s 34p 99m",
        "2s3s 5s6s 8s 1z2z3z 4z5z6z 7m 8m",
        "2s3s 5s6s 8s 1z2z3z 4z5z6z 6m 1p",
    ];
    // Not the dealer's first discard (that would be an Earthly hand, a limit hand).
    let play = |g: &mut Game| {
        act(g, P0, Action::Discard(t("1s")));
        for p in [P1, P2, P3] {
            act(g, p, Action::Discard(t("7z")));
        }
        act(g, P0, Action::Discard(t("5p")));
    };
    let strict = ruleset("hongkong", json!({"flowers": false}));
    let mut g = start(&strict, hands, "7z7z7z9p", "", 1);
    play(&mut g);
    // 345p completes the hand, but it is worth no fan: no win offered, and none accepted.
    assert_eq!(
        g.legal_actions(P1),
        vec![chow("345p"), chow("456p"), Action::Pass]
    );
    let e = g.apply(P1, Action::Win).unwrap_err();
    assert!(e.to_string().contains("does not win"), "{e}");
    let lenient = ruleset("hongkong", json!({"flowers": false, "min_fan": 0}));
    let mut g = start(&lenient, hands, "7z7z7z9p", "", 1);
    play(&mut g);
    assert_eq!(g.legal_actions(P1)[0], Action::Win);
    act(&mut g, P1, Action::Win);
    assert_eq!(g.outcome().unwrap().winner(), Some(P1));
    match g.outcome() {
        Some(HandOutcome::Win { scored, .. }) => assert!(scored.total < 3, "{scored:?}"),
        other => panic!("{other:?}"),
    }
}

const HANGZHOU_HANDS: [&str; 4] = [
    "5z 1m9m 1s9s 1z2z3z4z 6z7z 2m8m 1p",
    "5z5z 2s3s 6s 8s 1z2z3z 4z 7p 8p 6z",
    "123m456m789m34p99s",
    "2s3s 5s6s 8s 1z2z3z 4z 6z 1p 9p 7m",
];

#[test]
fn hangzhou_wildcard_discards_are_unclaimable_and_open_a_gambit_round() {
    let r = ruleset("hangzhou", json!({}));
    let mut g = start(&r, HANGZHOU_HANDS, "9s 7z 7z 6m", "", 1);
    let events = act(&mut g, P0, Action::Discard(Tile::WHITE));
    assert!(matches!(
        events[0],
        Event::Discarded {
            wildcard: true,
            gambit: false,
            ..
        }
    ));
    // Chair 1 holds two White dragons but cannot pung a wildcard: it simply draws.
    assert_eq!(g.turn(), Some(P1));
    assert_eq!(g.gambit_round(), Some(P0));
    // Until chair 0 draws again, no discard can be claimed: chair 2's pair of 9s is not asked.
    act(&mut g, P1, Action::Discard(t("9s")));
    assert_eq!(g.turn(), Some(P2));
    act(&mut g, P2, Action::Discard(t("7z")));
    act(&mut g, P3, Action::Discard(t("7z")));
    assert_eq!(g.turn(), Some(P0));
    assert_eq!(g.gambit_round(), None);
    // The round is over: chair 0's 9s can be punged.
    act(&mut g, P0, Action::Discard(t("9s")));
    assert_eq!(to_act(&g), vec![P2]);
    assert_eq!(g.legal_actions(P2), vec![Action::Pung, Action::Pass]);
}

const LAO_HANDS: [&str; 4] = [
    "123m456m789m34p99s 1z",
    "2s3s 6s 8s 1z2z3z 4z 7p 8p 6z 7z 9p",
    "1m 9m 1s 2z3z 4z 7p 8p 6z 7z 9p 3s 4s",
    "2s3s 6s 8s 1z 2z3z 4z 7p 8p 6z 7z 2p",
];

#[test]
fn hangzhou_lao_decides_who_wins_on_a_discard() {
    let r = ruleset("hangzhou", json!({}));
    // The dealer waits on 2p/5p after discarding 1z; chair 1 draws 5p and discards it.
    for (lao, dealer_may_win) in [(1, false), (2, false), (3, true), (5, true)] {
        let mut g = start(&r, LAO_HANDS, "5p", "", lao);
        act(&mut g, P0, Action::Discard(t("1z")));
        act(&mut g, P1, Action::Discard(t("5p")));
        let legal = g.legal_actions(P0);
        assert_eq!(legal.contains(&Action::Win), dealer_may_win, "lao {lao}");
    }
    // A non-dealer never wins on another non-dealer's discard, even at 3 lao; on the dealer's
    // discard from 3 lao on.
    let hands = [
        "5p5p 1m9m 1s9s 1z2z3z4z 6z7z 2m8m",
        "2s3s 6s 8s 1z2z3z 4z 7p 8p 6z 7z 9p",
        "123m456m789m34p99s",
        "2s3s 6s 8s 1z 2z3z 4z 7p 8p 6z 7z 2p",
    ];
    for (lao, may_win) in [(2, false), (3, true)] {
        let mut g = start(&r, hands, "", "", lao);
        act(&mut g, P0, Action::Discard(t("5p")));
        assert_eq!(
            g.legal_actions(P2).contains(&Action::Win),
            may_win,
            "lao {lao}"
        );
    }
    let mut g = start(&r, hands, "3m", "", 3);
    act(&mut g, P0, Action::Discard(t("1m")));
    act(&mut g, P1, Action::Discard(t("3m")));
    // Chair 2 sits after chair 1: chows, but no win (non-dealer on non-dealer).
    let legal = g.legal_actions(P2);
    assert!(legal.contains(&chow("123m")) && !legal.contains(&Action::Win));
    let mut g = start(&r, hands, "5p", "", 3);
    act(&mut g, P0, Action::Discard(t("1m")));
    act(&mut g, P1, Action::Discard(t("5p")));
    assert!(!g.legal_actions(P2).contains(&Action::Win));
}

#[test]
fn hangzhou_fortune_gambit() {
    let r = ruleset("hangzhou", json!({}));
    let hands = [
        "123m456m789m111p 5z5z",
        "2s3s 6s 8s 1z2z3z 4z 7p 8p 6z 7z 9p",
        "2s3s 6s 8s 1z2z3z 4z 7p 8p 6z 2p 9p",
        "2s3s 6s 8s 1z2z3z 4z 7p 8p 6z 2p 3p",
    ];
    let mut g = start(&r, hands, "7z7z7z 9s", "", 1);
    // Complete sets plus two wildcards: a win now, or a wildcard discarded as a gambit.
    let obs = g.observation(P0);
    assert!(obs.wildcard_discard_is_gambit);
    assert!(obs.legal_actions.contains(&Action::Win));
    let events = act(&mut g, P0, Action::Discard(Tile::WHITE));
    assert!(matches!(
        events[0],
        Event::Discarded {
            gambit: true,
            wildcard: true,
            ..
        }
    ));
    assert_eq!(g.gambit_run(P0), 1);
    for p in [P1, P2, P3] {
        act(&mut g, p, Action::Discard(t("7z")));
    }
    // The gambler draws 9s: win by self-draw, or discard the tile just drawn; nothing else.
    assert_eq!(g.drawn(), Some(t("9s")));
    assert_eq!(
        g.legal_actions(P0),
        vec![Action::Win, Action::Discard(t("9s"))]
    );
    assert!(g.apply(P0, Action::Discard(t("1m"))).is_err());
    act(&mut g, P0, Action::Win);
    match g.outcome() {
        Some(HandOutcome::Win {
            gambits, scored, ..
        }) => {
            assert_eq!(*gambits, 1);
            assert!(scored.patterns.iter().any(|p| p.id == "fortune_gambit"));
            assert!(scored.patterns.iter().any(|p| p.id == "bao_tou"));
        }
        other => panic!("{other:?}"),
    }
}

/// Plays a hand with a seeded random policy; returns every event.
fn random_hand(r: &Arc<TableRules>, seed: u64, policy_seed: u64) -> (Vec<Event>, Game) {
    let (mut g, mut log) = Game::new(r.clone(), HandSetup::new(seed)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(policy_seed);
    while !g.is_over() {
        let actors: Vec<Player> = g.to_act().collect();
        let p = *actors.choose(&mut rng).unwrap();
        let legal = g.legal_actions(p);
        let a = *legal.choose(&mut rng).unwrap();
        log.extend(g.apply(p, a).unwrap());
    }
    (log, g)
}

#[test]
fn a_seed_fixes_every_shuffle_and_die() {
    for name in ["hongkong", "hangzhou", "yangzhou", "classic"] {
        let r = ruleset(name, json!({}));
        let (a, ga) = random_hand(&r, 11, 5);
        let (b, gb) = random_hand(&r, 11, 5);
        assert_eq!(a, b, "{name}");
        assert_eq!(ga, gb);
        let (c, _) = random_hand(&r, 12, 5);
        assert_ne!(a, c, "{name}: another seed deals another hand");
        // The log serializes and reads back.
        let text = serde_json::to_string(&a).unwrap();
        let back: Vec<Event> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, a);
    }
}

#[test]
fn observations_never_show_another_players_concealed_tiles() {
    for (i, name) in ["hongkong", "hangzhou", "yangzhou", "classic"]
        .iter()
        .enumerate()
    {
        let r = ruleset(name, json!({}));
        for hand in 0..40u64 {
            let (mut g, events) =
                Game::new(r.clone(), HandSetup::new(hand * 7 + i as u64)).unwrap();
            let mut log = events;
            let mut rng = ChaCha8Rng::seed_from_u64(hand);
            loop {
                for v in 0..g.players() {
                    let v = Player(v as u8);
                    let obs = g.observation(v);
                    assert_eq!(obs.concealed, *g.concealed(v));
                    assert_eq!(obs.legal_actions, g.legal_actions(v));
                    // Everything shown of another player is public: melds, flowers, discards
                    // and a count; the JSON has no other tile lists.
                    for (q, public) in obs.table.iter().enumerate() {
                        let q = Player(q as u8);
                        assert_eq!(public.concealed_count as usize, g.concealed(q).len());
                        let value = serde_json::to_value(public).unwrap();
                        let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
                        assert_eq!(
                            keys,
                            [
                                "concealed_count",
                                "discards",
                                "flowers",
                                "gambit_run",
                                "melds",
                                "player",
                                "seat"
                            ]
                        );
                    }
                    let value = serde_json::to_value(&obs).unwrap();
                    assert_eq!(value["concealed"], g.concealed(v).to_string());
                    // Another player's draws and dealt tiles are hidden in the event stream.
                    for e in &log {
                        match e.seen_by(v) {
                            Event::Drew { player, tile }
                            | Event::ReplacementDrawn { player, tile } => {
                                assert_eq!(tile.is_some(), player == v);
                            }
                            Event::TilesDealt { player, tiles, .. } => {
                                assert_eq!(tiles.is_some(), player == v);
                            }
                            _ => {}
                        }
                    }
                }
                if g.is_over() {
                    break;
                }
                let actors: Vec<Player> = g.to_act().collect();
                let p = actors[rng.random_range(0..actors.len())];
                let legal = g.legal_actions(p);
                let a = *legal.choose(&mut rng).unwrap();
                log = g.apply(p, a).unwrap();
            }
        }
    }
}

#[test]
fn bad_input_is_a_typed_error() {
    let r = ruleset("classic", json!({"players": 3}));
    let bad_dealer = HandSetup {
        dealer: Player(3),
        ..HandSetup::new(1)
    };
    let e = Game::new(r.clone(), bad_dealer).unwrap_err();
    assert!(e.to_string().contains("not at a table of 3"), "{e}");
    let zero_lao = HandSetup {
        lao: 0,
        ..HandSetup::new(1)
    };
    assert!(Game::new(r.clone(), zero_lao).is_err());
    let balances = HandSetup {
        balances: Some(vec![1, 2]),
        ..HandSetup::new(1)
    };
    assert!(Game::new(r.clone(), balances).is_err());
    let five_flowers = json!({"players": 5, "flowers": true});
    let e = TableRules::from_name("classic", five_flowers.as_object().unwrap()).unwrap_err();
    assert!(e.to_string().contains("extra winds"), "{e}");

    let (mut g, _) = Game::new(r, HandSetup::new(1)).unwrap();
    let before = g.clone();
    for p in [Player(3), Player(9), Player(200)] {
        let e = g.apply(p, Action::Pass).unwrap_err();
        assert!(e.to_string().contains("no player"), "{e}");
        assert!(g.legal_actions(p).is_empty());
        assert!(g.observation(p).legal_actions.is_empty());
        assert!(g.win_situation(p).is_none());
    }
    let e = g.apply(P1, Action::Discard(t("1m"))).unwrap_err();
    assert!(e.to_string().contains("nothing to decide"), "{e}");
    let e = g.apply(P0, Action::Discard(t("1f"))).unwrap_err();
    assert!(e.to_string().contains("not in the hand"), "{e}");
    assert_eq!(g, before);
}

#[test]
fn hangzhou_kong_chain_is_counted() {
    let r = ruleset("hangzhou", json!({}));
    let hands = [
        "1111m 2222m 345p 678p",
        "2s3s 6s 8s 1z2z3z 4z 7p 8p 6z 7z 9p",
        "2s3s 6s 8s 1z2z3z 4z 7p 8p 6z 2p 9p",
        "2s3s 6s 8s 1z2z3z 4z 7p 8p 6z 2p 3p",
    ];
    let mut g = start(&r, hands, "", "9s9s", 1);
    act(&mut g, P0, Action::ConcealedKong(t("1m")));
    assert!(!g.legal_actions(P0).contains(&Action::Win));
    act(&mut g, P0, Action::ConcealedKong(t("2m")));
    // Two kongs in a row, the second replacement completes 345p 678p 99s.
    act(&mut g, P0, Action::Win);
    match g.outcome() {
        Some(HandOutcome::Win {
            kong_chain,
            scored,
            dealer_won,
            ..
        }) => {
            assert_eq!(*kong_chain, 2);
            assert!(*dealer_won);
            // Base 1 × Kong Blossom 2² × dealer at 1 lao 2 = 8, paid by each of the three.
            assert_eq!(scored.total, 8);
            assert_eq!(scored.payments, vec![24, -8, -8, -8]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn flowers_are_declared_and_replaced_in_the_deal_and_in_play() {
    let r = ruleset("hongkong", json!({}));
    let hands = [
        "1f 1m9m 1s9s 1z2z3z4z5z6z7z 2m8m",
        "2s3s 6s 8s 1z2z3z 4z 7p 8p 6z 7z 9p",
        "2s3s 6s 8s 1z2z3z 4z 7p 8p 6z 2p 9p",
        "2s3s 6s 8s 1z2z3z 4z 7p 8p 6z 2p 3p",
    ];
    let (mut g, events) = {
        let hands: Vec<Vec<Tile>> = hands.iter().map(|h| tiles(h)).collect();
        let wall = Wall::stacked(r.config(), &hands, &tiles("2f"), &tiles("5s 6s")).unwrap();
        Game::with_wall(r.clone(), HandSetup::new(1), wall).unwrap()
    };
    let declared: Vec<&Event> = events
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::FlowerDeclared { .. } | Event::ReplacementDrawn { .. }
            )
        })
        .collect();
    assert!(matches!(
        declared[..],
        [
            Event::FlowerDeclared { player: P0, tile: f },
            Event::ReplacementDrawn { player: P0, tile: Some(x) },
        ] if *f == t("1f") && *x == t("5s")
    ));
    assert_eq!(g.flowers(P0), &[t("1f")]);
    assert_eq!(g.concealed(P0).len(), 14);
    let events = act(&mut g, P0, Action::Discard(t("5s")));
    assert!(matches!(
        events[..],
        [
            Event::Discarded { .. },
            Event::Drew { player: P1, tile: Some(f) },
            Event::FlowerDeclared { player: P1, .. },
            Event::ReplacementDrawn { player: P1, tile: Some(x) },
        ] if f == t("2f") && x == t("6s")
    ));
    assert_eq!(g.flowers(P1), &[t("2f")]);
    assert_eq!(g.drawn(), Some(t("6s")));
    g.check_invariants().unwrap();
}

#[test]
fn seat_choice_follows_each_rule_set() {
    use majiang::table::{DicePurpose, choose_seats};
    for seed in 0..50 {
        // Hong Kong: the wind-tile ceremony; whoever draws East sits in chair 0 and deals.
        let r = ruleset("hongkong", json!({}));
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let c = choose_seats(&r, &mut rng);
        assert_eq!(c.dealer, P0);
        let mut chairs: Vec<u8> = c.chairs.iter().map(|p| p.0).collect();
        chairs.sort();
        assert_eq!(chairs, [0, 1, 2, 3]);
        let drawn: Vec<(u8, majiang::Wind)> = c
            .events
            .iter()
            .filter_map(|e| match e {
                Event::WindTileDrawn { entrant, wind } => Some((*entrant, *wind)),
                _ => None,
            })
            .collect();
        assert_eq!(drawn.len(), 4);
        for (entrant, wind) in drawn {
            assert_eq!(c.chairs[usize::from(entrant)], Player(wind.index() as u8));
        }
        let mut again = ChaCha8Rng::seed_from_u64(seed);
        assert_eq!(choose_seats(&r, &mut again), c);

        // Yangzhou and classic: the highest roll deals (ties roll again).
        let r = ruleset("classic", json!({"players": 3}));
        let c = choose_seats(&r, &mut rng);
        let rolls: Vec<(Player, u8)> = c
            .events
            .iter()
            .filter_map(|e| match e {
                Event::DiceRolled { by, dice, .. } => Some((*by, dice.iter().sum())),
                _ => None,
            })
            .collect();
        // The dealer had the best first roll (then won any tie).
        let first_round = &rolls[..3];
        let best = first_round.iter().map(|&(_, t)| t).max().unwrap();
        assert!(first_round.contains(&(c.dealer, best)));

        // Hangzhou: one roll counted round the table from chair 0.
        let r = ruleset("hangzhou", json!({}));
        let c = choose_seats(&r, &mut rng);
        match &c.events[0] {
            Event::DiceRolled {
                dice,
                purpose: DicePurpose::DealerChoice,
                ..
            } => {
                let total: u8 = dice.iter().sum();
                assert_eq!(c.dealer, Player((total - 1) % 4));
                assert_eq!(c.dealer_double, dice[0] == dice[1] || total == 12);
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn the_wall_breaks_where_the_dice_say_and_keeps_its_dead_wall() {
    for (name, options, dice, dead) in [
        ("hongkong", json!({}), 3, 14),
        ("hangzhou", json!({}), 2, 20),
        ("hangzhou", json!({"wildcard": "indicator"}), 2, 19),
        ("yangzhou", json!({}), 2, 0),
        ("classic", json!({"players": 3}), 2, 0),
    ] {
        let r = ruleset(name, options);
        for seed in 0..30 {
            let (mut g, events) = Game::new(r.clone(), HandSetup::new(seed)).unwrap();
            let total: u8 = events
                .iter()
                .find_map(|e| match e {
                    Event::DiceRolled {
                        dice: d,
                        purpose: majiang::table::DicePurpose::WallBreak,
                        ..
                    } => {
                        assert_eq!(d.len(), dice);
                        Some(d.iter().sum())
                    }
                    _ => None,
                })
                .unwrap();
            assert!(events.iter().any(|e| matches!(e,
                Event::WallBroken { side, stack, .. } if *side == (total - 1) % 4 && *stack == total)));
            assert_eq!(g.wall().dead_remaining(), dead, "{name}");
            if let Some(ind) = g.indicator() {
                assert_eq!(g.wildcard(), Some(ind));
                let in_hands: u8 = (0..4).map(|p| g.concealed(Player(p)).get(ind)).sum();
                let in_wall = g
                    .wall()
                    .remaining_tiles()
                    .iter()
                    .filter(|&&x| x == ind)
                    .count();
                assert_eq!(usize::from(in_hands) + in_wall, 3);
            }
            // Play on: the Hong Kong dead wall stays at 14; the hand is drawn only when the
            // live wall is empty.
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while !g.is_over() {
                let actors: Vec<Player> = g.to_act().collect();
                let p = *actors.choose(&mut rng).unwrap();
                let a = *g.legal_actions(p).choose(&mut rng).unwrap();
                g.apply(p, a).unwrap();
                if name == "hongkong" {
                    // Made up again while the live wall lasts.
                    assert!(g.wall().dead_remaining() == 14 || g.live_remaining() == 0);
                }
            }
            if g.outcome() == Some(&HandOutcome::ExhaustiveDraw) {
                assert_eq!(g.live_remaining(), 0);
            }
        }
    }
}

#[test]
fn an_observation_is_exactly_what_the_seats_events_reveal() {
    for name in ["hongkong", "hangzhou", "yangzhou", "classic"] {
        let r = ruleset(name, json!({}));
        for hand in 0..150u64 {
            let (g, events) = Game::new(r.clone(), HandSetup::new(900 + hand)).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(hand);
            assert_views_follow_the_events(
                g,
                events,
                &mut rng,
                &mut |_, _, legal, rng| {
                    if legal.contains(&Action::Win) {
                        Action::Win
                    } else {
                        *legal.choose(rng).unwrap()
                    }
                },
                &format!("{name} {hand}"),
            );
        }
    }
}

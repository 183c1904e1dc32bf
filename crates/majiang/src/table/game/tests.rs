//! Unit tests of the rules of play: a refused action's error names the reason, and
//! [`Game::check`] accepts exactly the actions [`Game::legal_actions`] lists.

use crate::table::{Action, ActionError, Game, HandSetup, IllegalReason, Player, TableRules, Wall};
use crate::{Tile, parse_tiles};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::sync::Arc;

const P0: Player = Player(0);
const P1: Player = Player(1);
const P2: Player = Player(2);
const P3: Player = Player(3);

fn rules(name: &str, options: serde_json::Value) -> Arc<TableRules> {
    let map = options.as_object().cloned().unwrap_or_default();
    Arc::new(TableRules::from_name(name, &map).unwrap())
}

fn tiles(s: &str) -> Vec<Tile> {
    let s: String = s.split_whitespace().collect();
    if s.is_empty() {
        Vec::new()
    } else {
        parse_tiles(&s).unwrap()
    }
}

fn t(s: &str) -> Tile {
    s.parse().unwrap()
}

fn chow(s: &str) -> Action {
    let v = tiles(s);
    Action::Chow {
        tiles: [v[0], v[1], v[2]],
    }
}

/// A hand on a stacked wall: `hands` from the dealer (chair 0) in turn order, then the live
/// draws.
fn start(r: &Arc<TableRules>, hands: [&str; 4], draws: &str, lao: u8) -> Game {
    let hands: Vec<Vec<Tile>> = hands.iter().map(|h| tiles(h)).collect();
    let wall = Wall::stacked(r.config(), &hands, &tiles(draws), &[]).unwrap();
    let setup = HandSetup {
        lao,
        ..HandSetup::new(1)
    };
    Game::with_wall(r.clone(), setup, wall).unwrap().0
}

fn act(g: &mut Game, p: Player, a: Action) {
    g.apply(p, a)
        .unwrap_or_else(|e| panic!("{p} {a}: {e}; legal {:?}", g.legal_actions(p)));
}

/// The reason `p`'s `action` is refused, checking that `apply` refuses it too and changes
/// nothing.
fn reason(g: &Game, p: Player, action: Action) -> IllegalReason {
    let mut copy = g.clone();
    let applied = copy.apply(p, action);
    assert_eq!(&copy, g, "a refused action changed the game");
    match g.check(p, action) {
        Err(ActionError::Illegal {
            player,
            action: a,
            reason,
        }) => {
            assert_eq!((player, a), (p, action));
            assert_eq!(
                applied.unwrap_err(),
                ActionError::Illegal {
                    player,
                    action,
                    reason: reason.clone()
                }
            );
            reason
        }
        other => panic!("{p} {action}: expected a refusal with a reason, got {other:?}"),
    }
}

// Chair 0 deals and discards 3m; chair 1 (next in turn) holds 45m, chair 2 a pair of 3m and
// 12m, chair 3 24m.
const CLAIM_HANDS: [&str; 4] = [
    "3m 1p2p5p7p9p 1s3s5s7s9s 1z2z3z",
    "45m 2p4p6p8p 2s4s6s8s 4z5z6z",
    "12m 33m 4p6p8p 2s4s6s 4z5z6z",
    "24m 3p4p6p8p 2s4s6s8s 4z5z6z",
];

#[test]
fn refusals_on_your_turn_name_the_reason() {
    let r = rules("hongkong", json!({"flowers": false}));
    let g = start(&r, CLAIM_HANDS, "", 1);
    assert_eq!(
        reason(&g, P0, Action::Discard(t("4m"))),
        IllegalReason::NotHeld { tile: t("4m") }
    );
    assert_eq!(reason(&g, P0, Action::Pung), IllegalReason::OnTurn);
    assert_eq!(reason(&g, P0, Action::Pass), IllegalReason::OnTurn);
    assert_eq!(reason(&g, P0, Action::Win), IllegalReason::NotComplete);
    assert_eq!(
        reason(&g, P0, Action::ConcealedKong(t("3m"))),
        IllegalReason::ConcealedKongNeedsFour { tile: t("3m") }
    );
    assert_eq!(
        reason(&g, P0, Action::AddedKong(t("3m"))),
        IllegalReason::AddedKongNeedsPung { tile: t("3m") }
    );
    assert_eq!(
        reason(&g, P0, Action::AddedKong(t("4m"))),
        IllegalReason::NotHeld { tile: t("4m") }
    );
    let e = g.check(P0, Action::Discard(t("4m"))).unwrap_err();
    assert_eq!(
        e.to_string(),
        "player 0 cannot discard 4m now: 4m is not in the hand"
    );
    // Out of turn: who is awaited.
    match g.check(P1, Action::Discard(t("4m"))) {
        Err(ActionError::NotYourTurn { player, waiting }) => {
            assert_eq!((player, waiting.as_str()), (P1, "0"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn refusals_of_claims_name_the_reason() {
    let r = rules("hongkong", json!({"flowers": false}));
    let mut g = start(&r, CLAIM_HANDS, "", 1);
    act(&mut g, P0, Action::Discard(t("3m")));
    assert_eq!(g.to_act().collect::<Vec<_>>(), vec![P1, P2]);
    assert!(g.check(P1, chow("345m")).is_ok());
    assert_eq!(reason(&g, P2, chow("123m")), IllegalReason::ChowNotFromLeft);
    assert_eq!(
        reason(&g, P1, chow("234m")),
        IllegalReason::ChowTilesNotHeld
    );
    assert_eq!(
        reason(&g, P1, chow("456m")),
        IllegalReason::ChowShape { tile: t("3m") }
    );
    let not_a_run = Action::Chow {
        tiles: [t("3m"), t("4m"), t("6m")],
    };
    assert_eq!(
        reason(&g, P1, not_a_run),
        IllegalReason::ChowShape { tile: t("3m") }
    );
    assert_eq!(
        reason(&g, P1, Action::Pung),
        IllegalReason::PungNeedsTwo { tile: t("3m") }
    );
    assert_eq!(
        reason(&g, P2, Action::Kong),
        IllegalReason::KongNeedsThree { tile: t("3m") }
    );
    assert_eq!(
        reason(&g, P1, Action::Win),
        IllegalReason::DoesNotComplete { tile: t("3m") }
    );
    assert_eq!(
        reason(&g, P1, Action::Discard(t("4m"))),
        IllegalReason::ClaimOrPass
    );
    assert!(matches!(
        g.check(P3, Action::Pass),
        Err(ActionError::NotYourTurn { .. })
    ));
    // After a pung the claimer only discards.
    act(&mut g, P1, Action::Pass);
    act(&mut g, P2, Action::Pung);
    assert_eq!(g.turn(), Some(P2));
    assert_eq!(reason(&g, P2, Action::Win), IllegalReason::JustClaimed);
    assert_eq!(
        reason(&g, P2, Action::AddedKong(t("3m"))),
        IllegalReason::JustClaimed
    );
}

#[test]
fn rule_set_refusals_name_the_rule() {
    // Yangzhou plays without chows by default.
    let r = rules("yangzhou", json!({}));
    let mut g = start(&r, CLAIM_HANDS, "", 1);
    act(&mut g, P0, Action::Discard(t("3m")));
    assert_eq!(reason(&g, P2, chow("123m")), IllegalReason::NoChows);
    // Six-player classic has no kongs.
    let r = rules("classic", json!({"players": 6}));
    let (g, _) = Game::new(r, HandSetup::new(3)).unwrap();
    let p = g.turn().unwrap();
    assert_eq!(
        reason(&g, p, Action::ConcealedKong(t("1m"))),
        IllegalReason::NoKongs
    );
    // Hangzhou: White dragons are wild and never make a kong.
    let r = rules("hangzhou", json!({}));
    let hands = [
        "5z5z5z5z 123m456m789m 1p",
        "2s3s 6s 8s 1z2z3z 4z 7p 8p 6z 7z 9p",
        "2s3s 6s 8s 1z2z3z 4z 7p 8p 6z 2p 9p",
        "2s3s 6s 8s 1z2z3z 4z 7p 8p 6z 2p 3p",
    ];
    let g = start(&r, hands, "", 1);
    assert_eq!(
        reason(&g, P0, Action::ConcealedKong(Tile::WHITE)),
        IllegalReason::WildcardKong
    );
}

#[test]
fn hangzhou_lao_refusal_says_the_discarder_is_not_allowed() {
    let r = rules("hangzhou", json!({}));
    // Chair 2 would complete on 5p and may pung it, but below 3 lao nobody wins on a discard.
    let hands = [
        "5p 1m9m 1s9s 1z2z3z4z 6z7z 2m8m 3s",
        "2s3s 6s 8s 1z2z3z 4z 7p 8p 6z 7z 9p",
        "123m456m789m 5p5p 99s",
        "2s3s 6s 8s 1z 2z3z 4z 7p 8p 6z 7z 2p",
    ];
    let mut g = start(&r, hands, "", 2);
    act(&mut g, P0, Action::Discard(t("5p")));
    assert!(g.check(P2, Action::Pung).is_ok());
    assert_eq!(reason(&g, P2, Action::Win), IllegalReason::MayNotWinOff);
}

#[test]
fn a_win_below_the_minimum_says_it_does_not_score() {
    let hands = [
        "5p 1m9m 1s9s 1z2z3z4z5z6z7z 2m8m",
        "123m 456p 789s 34p 99m",
        "2s3s 5s6s 8s 1z2z3z 4z5z6z 7m 8m",
        "2s3s 5s6s 8s 1z2z3z 4z5z6z 6m 1p",
    ];
    let r = rules("hongkong", json!({"flowers": false}));
    let mut g = start(&r, hands, "7z7z7z9p", 1);
    act(&mut g, P0, Action::Discard(t("1s")));
    for p in [P1, P2, P3] {
        act(&mut g, p, Action::Discard(t("7z")));
    }
    act(&mut g, P0, Action::Discard(t("5p")));
    // 345p completes chair 1's hand, but it is worth no fan.
    assert!(matches!(
        reason(&g, P1, Action::Win),
        IllegalReason::DoesNotScore(_)
    ));
}

#[test]
fn a_fortune_gambit_run_allows_only_the_drawn_tile() {
    let r = rules("hangzhou", json!({}));
    let hands = [
        "123m456m789m111p 5z5z",
        "2s3s 6s 8s 1z2z3z 4z 7p 8p 6z 7z 9p",
        "2s3s 6s 8s 1z2z3z 4z 7p 8p 6z 2p 9p",
        "2s3s 6s 8s 1z2z3z 4z 7p 8p 6z 2p 3p",
    ];
    let mut g = start(&r, hands, "7z7z7z 9s", 1);
    act(&mut g, P0, Action::Discard(Tile::WHITE));
    for p in [P1, P2, P3] {
        act(&mut g, p, Action::Discard(t("7z")));
    }
    assert_eq!(g.gambit_run(P0), 1);
    assert_eq!(
        reason(&g, P0, Action::Discard(t("1m"))),
        IllegalReason::GambitRunDiscard { drawn: t("9s") }
    );
    assert_eq!(
        reason(&g, P0, Action::AddedKong(t("1p"))),
        IllegalReason::GambitRunAddedKong
    );
    let e = g.check(P0, Action::Discard(t("1m"))).unwrap_err();
    assert!(e.to_string().contains("Fortune Gambit"), "{e}");
}

#[test]
fn robbing_a_kong_allows_only_a_win_or_a_pass() {
    let hands = [
        "5p 1m9m 1s9s 1z2z3z4z 6z 2m8m 1p9p",
        "55p 2s3s 5s6s 8s 1z2z3z 4z 7p 8p",
        "123m456m789m34p99s",
        "2s3s 5s6s 8s 1z2z3z 4z 6z 1p 9p 7m",
    ];
    let r = rules("classic", json!({}));
    let mut g = start(&r, hands, "7z7z7z5p", 1);
    act(&mut g, P0, Action::Discard(t("5p")));
    act(&mut g, P2, Action::Pass);
    act(&mut g, P1, Action::Pung);
    act(&mut g, P1, Action::Discard(t("8s")));
    for p in [P2, P3, P0] {
        act(&mut g, p, Action::Discard(t("7z")));
    }
    act(&mut g, P1, Action::AddedKong(t("5p")));
    assert_eq!(reason(&g, P2, Action::Pung), IllegalReason::RobOrPass);
}

/// Every action worth trying for a player: every discard and kong of every tile, every run
/// of three as a chow (and some that are not runs), and the bare claims.
fn candidates(out: &mut Vec<Action>) {
    out.clear();
    let all: Vec<Tile> = Tile::all().chain(Tile::bonus_tiles()).collect();
    for &t in &all {
        out.extend([
            Action::Discard(t),
            Action::ConcealedKong(t),
            Action::AddedKong(t),
        ]);
    }
    for w in all.windows(3) {
        out.push(Action::Chow {
            tiles: [w[0], w[1], w[2]],
        });
        out.push(Action::Chow {
            tiles: [w[0], w[0], w[2]],
        });
    }
    out.extend([Action::Win, Action::Pung, Action::Kong, Action::Pass]);
}

/// `check(p, a)` is `Ok` exactly when `legal_actions(p)` holds `a`, for every player (and one
/// not at the table) at every step of random hands under every rule set and classic table
/// size; every refusal of a player who must decide gives a reason.
#[test]
fn check_accepts_exactly_the_legal_actions() {
    let variants = [
        rules("hongkong", json!({})),
        rules("hangzhou", json!({})),
        rules("hangzhou", json!({"wildcard": "indicator"})),
        rules("yangzhou", json!({})),
        rules("yangzhou", json!({"chow": true})),
        rules("classic", json!({"players": 3})),
        rules("classic", json!({})),
        rules("classic", json!({"flowers": true})),
        rules("classic", json!({"players": 5})),
        rules("classic", json!({"players": 6})),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
    let mut all = Vec::new();
    candidates(&mut all);
    let mut legal = Vec::new();
    let mut checked = 0usize;
    for r in &variants {
        let n = r.players();
        for hand in 0..6u32 {
            let setup = HandSetup {
                dealer: Player((hand as usize % n) as u8),
                hand_number: hand,
                ..HandSetup::new(rng.random())
            };
            let (mut g, _) = Game::new(r.clone(), setup).unwrap();
            while !g.is_over() {
                for q in 0..=n {
                    let q = Player(q as u8);
                    g.legal_actions_into(q, &mut legal);
                    for &a in legal.iter().chain(&all) {
                        let verdict = g.check(q, a);
                        assert_eq!(
                            verdict.is_ok(),
                            legal.contains(&a),
                            "{} player {q} {a}: {verdict:?}; legal {legal:?}",
                            r.name()
                        );
                        if g.to_act().contains(q) {
                            if let Err(e) = verdict {
                                assert!(matches!(e, ActionError::Illegal { .. }), "{e}");
                            }
                        }
                        checked += 1;
                    }
                }
                let p = g.to_act().next().unwrap();
                g.legal_actions_into(p, &mut legal);
                let a = *legal.choose(&mut rng).unwrap();
                g.apply(p, a).unwrap();
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn a_game_set_up_unrecorded_is_the_game_set_up_with_its_events() {
    let sets = [
        rules("hongkong", json!({})),
        rules("hangzhou", json!({})),
        rules("hangzhou", json!({"wildcard": "indicator"})),
        rules("yangzhou", json!({})),
        rules("classic", json!({"flowers": true})),
        rules("classic", json!({"players": 6})),
    ];
    for r in &sets {
        for seed in 0..64 {
            let setup = HandSetup {
                dealer: Player((seed % r.players() as u64) as u8),
                hand_number: seed as u32,
                ..HandSetup::new(seed)
            };
            let (recorded, events) = Game::new(r.clone(), setup.clone()).unwrap();
            assert!(!events.is_empty());
            let unrecorded = Game::new_unrecorded(r.clone(), setup).unwrap();
            assert_eq!(unrecorded, recorded, "{} seed {seed}", r.name());
        }
    }
}

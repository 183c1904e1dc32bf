//! Property tests: the table-driven analysis against `analysis::reference`, and shanten against
//! the `xiangting` crate.
//!
//! Hands come from a seeded generator (hundreds of thousands per property, which proptest's
//! default case count would not reach): uniformly random draws from a full wall, and *near
//! wins* built from random sets and a pair, then perturbed, so that wins, ready hands and waits
//! are common. Every property mixes hand sizes `14 - 3m` (or `13 - 3m`) for `m` declared melds.

use majiang::analysis::{self, HandRules, Wildcard, reference};
use majiang::{Tile, TileCounts};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const KINDS: usize = 34;

/// Cases per property in the default run.
const CASES: usize = 100_000;

/// A uniformly random draw of `n` tiles from a wall of four copies of each kind.
fn random_hand(rng: &mut ChaCha8Rng, n: usize, kinds: &[usize]) -> [u8; KINDS] {
    let mut c = [0u8; KINDS];
    let mut placed = 0;
    while placed < n {
        let k = kinds[rng.random_range(0..kinds.len())];
        if c[k] < 4 {
            c[k] += 1;
            placed += 1;
        }
    }
    c
}

/// Random sets and a pair totalling `n` tiles (`n = 3k + 2`), then up to three tiles swapped.
fn near_win(rng: &mut ChaCha8Rng, n: usize, kinds: &[usize]) -> [u8; KINDS] {
    let mut c = [0u8; KINDS];
    let mut placed = 0;
    'outer: while placed < n {
        for _ in 0..50 {
            let k = kinds[rng.random_range(0..kinds.len())];
            let want_pair = n - placed == 2;
            let chow = !want_pair && k < 27 && k % 9 <= 6 && rng.random_bool(0.6);
            if chow {
                if (0..3).all(|d| c[k + d] < 4) {
                    (0..3).for_each(|d| c[k + d] += 1);
                    placed += 3;
                    continue 'outer;
                }
            } else {
                let size = if want_pair { 2 } else { 3 };
                if c[k] + size <= 4 {
                    c[k] += size;
                    placed += size as usize;
                    continue 'outer;
                }
            }
        }
        // Crowded: fall back to single tiles.
        let k = kinds[rng.random_range(0..kinds.len())];
        if c[k] < 4 {
            c[k] += 1;
            placed += 1;
        }
    }
    let swaps = rng.random_range(0..4);
    for _ in 0..swaps {
        let out = loop {
            let k = rng.random_range(0..KINDS);
            if c[k] > 0 {
                break k;
            }
        };
        c[out] -= 1;
        loop {
            let k = kinds[rng.random_range(0..kinds.len())];
            if c[k] < 4 {
                c[k] += 1;
                break;
            }
        }
    }
    c
}

/// Which kinds a hand draws from: everything, one suit, or one suit and the honours (dense
/// hands exercise the suit tables hardest).
fn kind_pool(rng: &mut ChaCha8Rng) -> Vec<usize> {
    match rng.random_range(0..4) {
        0 | 1 => (0..KINDS).collect(),
        2 => {
            let s = rng.random_range(0..3) * 9;
            (s..s + 9).collect()
        }
        _ => {
            let s = rng.random_range(0..3) * 9;
            (s..s + 9).chain(27..34).collect()
        }
    }
}

/// A hand of `size` tiles (`size % 3` is 1 or 2), near a win half of the time.
fn hand(rng: &mut ChaCha8Rng, size: usize) -> [u8; KINDS] {
    let kinds = kind_pool(rng);
    if rng.random_bool(0.5) {
        random_hand(rng, size, &kinds)
    } else if size % 3 == 2 {
        near_win(rng, size, &kinds)
    } else {
        let mut c = near_win(rng, size + 1, &kinds);
        let k = loop {
            let k = rng.random_range(0..KINDS);
            if c[k] > 0 {
                break k;
            }
        };
        c[k] -= 1;
        c
    }
}

fn plain_rules(rng: &mut ChaCha8Rng) -> HandRules {
    HandRules {
        seven_pairs: rng.random_bool(0.7),
        four_as_two_pairs: rng.random_bool(0.5),
        thirteen_orphans: rng.random_bool(0.7),
        wildcard: None,
    }
}

/// Rules with a random wildcard kind, and the hand with `0..=4` copies of it (replacing tiles,
/// so the size is kept).
fn wild_rules_and_hand(rng: &mut ChaCha8Rng, size: usize) -> (HandRules, [u8; KINDS]) {
    let mut rules = plain_rules(rng);
    let tile = Tile::from_index(rng.random_range(0..KINDS)).unwrap();
    rules.wildcard = Some(Wildcard {
        tile,
        as_own_kind: rng.random_bool(0.5),
    });
    let mut c = hand(rng, size);
    let want = rng.random_range(0..=4u8).min(size as u8);
    let wi = tile.index();
    while c[wi] < want {
        let k = loop {
            let k = rng.random_range(0..KINDS);
            if k != wi && c[k] > 0 {
                break k;
            }
        };
        c[k] -= 1;
        c[wi] += 1;
    }
    (rules, c)
}

fn size_14(rng: &mut ChaCha8Rng) -> usize {
    14 - 3 * rng.random_range(0..=4)
}

fn show(c: &[u8; KINDS]) -> String {
    TileCounts(*c).to_string()
}

#[test]
fn win_detection_matches_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut wins = 0;
    for _ in 0..CASES {
        let size = size_14(&mut rng);
        let rules = plain_rules(&mut rng);
        let c = hand(&mut rng, size);
        let want = reference::is_win(&c, &rules);
        wins += usize::from(want);
        assert_eq!(
            analysis::is_win(&TileCounts(c), &rules),
            want,
            "{} {rules:?}",
            show(&c)
        );
    }
    assert!(wins > CASES / 20, "too few wins generated: {wins}");
}

#[test]
fn wildcard_win_detection_matches_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut wins = 0;
    for _ in 0..CASES {
        let size = size_14(&mut rng);
        let (rules, c) = wild_rules_and_hand(&mut rng, size);
        let want = reference::is_win(&c, &rules);
        wins += usize::from(want);
        assert_eq!(
            analysis::is_win(&TileCounts(c), &rules),
            want,
            "{} {rules:?}",
            show(&c)
        );
    }
    assert!(wins > CASES / 10, "too few wins generated: {wins}");
}

#[test]
fn waits_match_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut ready = 0;
    for i in 0..CASES {
        let size = size_14(&mut rng) - 1;
        let (rules, c) = if i % 4 == 0 {
            wild_rules_and_hand(&mut rng, size)
        } else {
            (plain_rules(&mut rng), hand(&mut rng, size))
        };
        let want = reference::waits(&c, &rules);
        ready += usize::from(want != 0);
        assert_eq!(
            analysis::waits(&TileCounts(c), &rules).0,
            want,
            "{} {rules:?}",
            show(&c)
        );
    }
    assert!(ready > CASES / 10, "too few ready hands generated: {ready}");
}

fn check_shanten(c: &[u8; KINDS], rules: &HandRules) {
    let got = analysis::shanten_by_form(&TileCounts(*c), rules);
    let std = reference::shanten_standard(c, rules);
    let seven = rules
        .seven_pairs
        .then(|| reference::shanten_seven_pairs(c, rules))
        .flatten();
    let orphans = rules
        .thirteen_orphans
        .then(|| reference::shanten_thirteen_orphans(c, rules))
        .flatten();
    let ctx = || format!("{} {rules:?}", show(c));
    assert_eq!(i32::from(got.standard), std, "standard {}", ctx());
    assert_eq!(
        got.seven_pairs.map(i32::from),
        seven,
        "seven pairs {}",
        ctx()
    );
    assert_eq!(
        got.thirteen_orphans.map(i32::from),
        orphans,
        "orphans {}",
        ctx()
    );
    assert_eq!(
        i32::from(analysis::shanten(&TileCounts(*c), rules)),
        reference::shanten(c, rules),
        "{}",
        ctx()
    );
}

#[test]
fn shanten_matches_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for _ in 0..CASES {
        let size = size_14(&mut rng) - rng.random_range(0..2);
        let rules = plain_rules(&mut rng);
        let c = hand(&mut rng, size);
        check_shanten(&c, &rules);
    }
}

#[test]
fn wildcard_shanten_matches_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..CASES {
        let size = size_14(&mut rng) - rng.random_range(0..2);
        let (rules, c) = wild_rules_and_hand(&mut rng, size);
        check_shanten(&c, &rules);
    }
}

#[test]
fn useful_tiles_lower_the_reference_shanten() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for i in 0..CASES / 4 {
        let size = size_14(&mut rng) - 1;
        let (rules, c) = if i % 4 == 0 {
            wild_rules_and_hand(&mut rng, size)
        } else {
            (plain_rules(&mut rng), hand(&mut rng, size))
        };
        let now = reference::shanten(&c, &rules);
        let mut want = 0u64;
        for t in 0..KINDS {
            if c[t] < 4 {
                let mut d = c;
                d[t] += 1;
                if reference::shanten(&d, &rules) < now {
                    want |= 1 << t;
                }
            }
        }
        assert_eq!(
            analysis::useful_tiles(&TileCounts(c), &rules).0,
            want,
            "{} {rules:?}",
            show(&c)
        );
    }
}

/// Our shanten (seven distinct pairs, thirteen orphans, no wildcards) is xiangting's
/// replacement number minus one.
fn xiangting_agrees(cases: usize, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let rules = HandRules::ALL_FORMS;
    for _ in 0..cases {
        let size = size_14(&mut rng) - rng.random_range(0..2);
        let c = hand(&mut rng, size);
        let theirs = xiangting::calculate_replacement_number(&c, xiangting::PlayerCount::Four)
            .expect("valid hand");
        assert_eq!(
            i32::from(analysis::shanten(&TileCounts(c), &rules)),
            i32::from(theirs) - 1,
            "{}",
            show(&c)
        );
    }
}

#[test]
fn shanten_matches_xiangting() {
    xiangting_agrees(CASES, 7);
}

#[test]
#[ignore = "a million hands; run with --ignored"]
fn shanten_matches_xiangting_on_a_million_hands() {
    xiangting_agrees(1_000_000, 8);
}

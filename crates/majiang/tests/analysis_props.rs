//! Property tests: the table-driven analysis against `analysis::reference`, and shanten against
//! the `xiangting` crate.
//!
//! Hands come from a seeded generator (hundreds of thousands per property, which proptest's
//! default case count would not reach): uniformly random draws from a full wall, and *near
//! wins* built from random sets and a pair, then perturbed, so that wins, ready hands and waits
//! are common. Every property mixes hand sizes `14 - 3m` (or `13 - 3m`) for `m` declared melds.

use majiang::analysis::{self, HandRules, Wildcard, reference};
use majiang::{Tile, TileCounts};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting this thread's allocations (to check the hot paths allocate
/// nothing).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

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

/// Seven pairs (a kind may repeat) or thirteen orphans plus one, cut to `size` tiles, then up
/// to two tiles swapped: near the special forms.
fn near_special(rng: &mut ChaCha8Rng, size: usize) -> [u8; KINDS] {
    let mut c = [0u8; KINDS];
    if rng.random_bool(0.5) {
        let mut pairs = 0;
        while pairs < 7 {
            let k = rng.random_range(0..KINDS);
            if c[k] <= 2 && (c[k] == 0 || rng.random_bool(0.2)) {
                c[k] += 2;
                pairs += 1;
            }
        }
    } else {
        for t in Tile::ORPHANS {
            c[t.index()] = 1;
        }
        c[Tile::ORPHANS[rng.random_range(0..13)].index()] += 1;
    }
    let mut n = 14;
    let swaps = rng.random_range(0..3);
    for step in 0.. {
        if n == size && step >= swaps {
            break;
        }
        let k = rng.random_range(0..KINDS);
        if n > size || (n == size && step % 2 == 0) {
            if c[k] > 0 {
                c[k] -= 1;
                n -= 1;
            }
        } else if c[k] < 4 {
            c[k] += 1;
            n += 1;
        }
    }
    c
}

/// A hand of `size` tiles (`size % 3` is 1 or 2), near a win half of the time.
fn hand(rng: &mut ChaCha8Rng, size: usize) -> [u8; KINDS] {
    let kinds = kind_pool(rng);
    if size >= 13 && rng.random_bool(0.15) {
        near_special(rng, size)
    } else if rng.random_bool(0.5) {
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

/// A winning hand has a reading and each reading uses every tile; a losing hand has none.
fn check_decompositions(c: &[u8; KINDS], rules: &HandRules, wins: bool) {
    let d = analysis::decompositions(&TileCounts(*c), rules);
    assert_eq!(!d.is_empty(), wins, "{} {rules:?}", show(c));
    let n: usize = c.iter().map(|&x| usize::from(x)).sum();
    for reading in &d {
        let size: usize = reading.groups.iter().map(|g| g.tiles().len()).sum();
        assert_eq!(size, n, "{} {reading:?}", show(c));
    }
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
        check_decompositions(&c, &rules, want);
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
        check_decompositions(&c, &rules, want);
    }
    assert!(wins > CASES / 10, "too few wins generated: {wins}");
}

/// The table-driven sets-and-pair check (Hangzhou's forms read it) and the lone-wildcard wait
/// (Bao Tou, 爆头) against the reference's backtracking, wildcards and all.
#[test]
fn sets_and_pair_and_lone_wildcard_wait_match_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let (mut sets, mut lone) = (0, 0);
    for _ in 0..CASES {
        let size = size_14(&mut rng);
        let (rules, c) = wild_rules_and_hand(&mut rng, size);
        let (mut real, w, forbidden) = reference::split_wild(&c, &rules);
        let want = reference::sets_and_pair(&mut real.clone(), w, true, forbidden);
        sets += usize::from(want);
        let got = analysis::is_sets_and_pair(&TileCounts(c), &rules);
        assert_eq!(got, want, "{} {rules:?}", show(&c));
        // The hand less one real tile (3k + 1 tiles): complete sets and one lone wildcard?
        let Some(k) = (0..KINDS).find(|&k| real[k] > 0) else {
            continue;
        };
        let mut before = c;
        before[k] -= 1;
        real[k] -= 1;
        let want = w >= 1 && reference::sets_and_pair(&mut real, w - 1, false, forbidden);
        lone += usize::from(want);
        let got = analysis::lone_wildcard_wait(&TileCounts(before), &rules);
        assert_eq!(got, want, "{} {rules:?}", show(&before));
    }
    assert!(
        sets > CASES / 10,
        "too few complete hands generated: {sets}"
    );
    assert!(
        lone > CASES / 100,
        "too few lone-wildcard waits generated: {lone}"
    );
}

#[test]
fn waits_match_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut ready = 0;
    for i in 0..CASES {
        let size = size_14(&mut rng) - 1;
        let (rules, c) = if i % 2 == 0 {
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
        // 3k + 2, 3k + 1 and (not a playing size, but defined) 3k tiles.
        let size = size_14(&mut rng) - rng.random_range(0..3);
        let rules = plain_rules(&mut rng);
        let c = hand(&mut rng, size);
        check_shanten(&c, &rules);
    }
}

#[test]
fn wildcard_shanten_matches_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..CASES {
        let size = size_14(&mut rng) - rng.random_range(0..3);
        let (rules, c) = wild_rules_and_hand(&mut rng, size);
        check_shanten(&c, &rules);
    }
}

/// The kinds whose draw lowers `shanten`, by trying each.
fn useful_by_trial(c: &[u8; KINDS], shanten: impl Fn(&[u8; KINDS]) -> i32) -> u64 {
    let now = shanten(c);
    let mut mask = 0u64;
    for t in 0..KINDS {
        if c[t] < 4 {
            let mut d = *c;
            d[t] += 1;
            if shanten(&d) < now {
                mask |= 1 << t;
            }
        }
    }
    mask
}

fn useful_tiles_case(rng: &mut ChaCha8Rng, i: usize) -> ([u8; KINDS], HandRules) {
    let size = size_14(rng) - 1;
    let (rules, c) = if i % 4 == 0 {
        wild_rules_and_hand(rng, size)
    } else {
        (plain_rules(rng), hand(rng, size))
    };
    (c, rules)
}

#[test]
fn useful_tiles_lower_the_reference_shanten() {
    // The reference costs 35 shanten evaluations per hand: fewer hands here, and the full count
    // below against the (reference-checked) fast shanten.
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for i in 0..CASES / 20 {
        let (c, rules) = useful_tiles_case(&mut rng, i);
        assert_eq!(
            analysis::useful_tiles(&TileCounts(c), &rules).0,
            useful_by_trial(&c, |h| reference::shanten(h, &rules)),
            "{} {rules:?}",
            show(&c)
        );
    }
}

#[test]
fn useful_tiles_lower_the_shanten() {
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let mut some = 0;
    for i in 0..CASES {
        let (c, rules) = useful_tiles_case(&mut rng, i);
        let want = useful_by_trial(&c, |h| {
            i32::from(analysis::shanten(&TileCounts(*h), &rules))
        });
        some += usize::from(want != 0);
        assert_eq!(
            analysis::useful_tiles(&TileCounts(c), &rules).0,
            want,
            "{} {rules:?}",
            show(&c)
        );
    }
    assert!(some > CASES / 2);
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

/// Hands the tables do not cover (more than 14 tiles, five or six of a kind in the counts) are
/// answered like the reference, without panicking.
#[test]
fn oversized_and_malformed_hands_match_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for i in 0..2_000 {
        let size = rng.random_range(12..=20);
        let mut c = [0u8; KINDS];
        for _ in 0..size {
            let k = rng.random_range(0..KINDS);
            if c[k] < 6 {
                c[k] += 1;
            }
        }
        let rules = if i % 2 == 0 {
            plain_rules(&mut rng)
        } else {
            plain_rules(&mut rng)
                .with_wildcard(Tile::from_index(rng.random_range(0..KINDS)).unwrap())
        };
        let h = TileCounts(c);
        assert_eq!(
            analysis::is_win(&h, &rules),
            reference::is_win(&c, &rules),
            "{}",
            show(&c)
        );
        assert_eq!(
            analysis::waits(&h, &rules).0,
            reference::waits(&c, &rules),
            "{}",
            show(&c)
        );
        assert_eq!(
            i32::from(analysis::shanten(&h, &rules)),
            reference::shanten(&c, &rules),
            "{}",
            show(&c)
        );
    }
}

#[test]
fn hot_paths_allocate_nothing() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let cases: Vec<([u8; KINDS], [u8; KINDS], HandRules)> = (0..5_000)
        .map(|i| {
            let size = size_14(&mut rng);
            let (rules, c14) = if i % 2 == 0 {
                wild_rules_and_hand(&mut rng, size)
            } else {
                (plain_rules(&mut rng), hand(&mut rng, size))
            };
            let mut c13 = c14;
            let k = (0..KINDS).find(|&k| c13[k] > 0).unwrap();
            c13[k] -= 1;
            (c14, c13, rules)
        })
        .collect();
    // Build every table first.
    for (a, b, r) in &cases[..4] {
        analysis::is_win(&TileCounts(*a), r);
        analysis::useful_tiles(&TileCounts(*b), r);
    }
    let before = allocations();
    let mut sink = 0i64;
    for (c14, c13, rules) in &cases {
        let (h14, h13) = (TileCounts(*c14), TileCounts(*c13));
        sink += i64::from(analysis::is_win(&h14, rules));
        sink += i64::from(analysis::shanten(&h14, rules));
        sink += i64::from(analysis::shanten_by_form(&h13, rules).standard);
        sink += analysis::waits(&h13, rules).len() as i64;
        sink += analysis::useful_tiles(&h13, rules).len() as i64;
    }
    assert_eq!(allocations() - before, 0, "allocations on the hot paths");
    assert_ne!(sink, 0);
}

/// Up to 14 tiles from the given kinds, at most four of each, as counts (shrinks toward fewer
/// and lower tiles).
fn counts_strategy(max_kind: usize) -> impl Strategy<Value = [u8; KINDS]> {
    proptest::collection::vec(0..max_kind, 0..=14).prop_map(|tiles| {
        let mut c = [0u8; KINDS];
        for t in tiles {
            if c[t] < 4 {
                c[t] += 1;
            }
        }
        c
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A shrinking companion to the seeded loops above: one suit and the honours, so that
    /// failures reduce to small readable hands.
    #[test]
    fn small_hands_agree_with_reference(
        c in counts_strategy(KINDS),
        dense in counts_strategy(9),
        wild in 0usize..KINDS,
        own in any::<bool>(),
        forms in any::<(bool, bool, bool)>(),
    ) {
        let base = HandRules {
            seven_pairs: forms.0,
            four_as_two_pairs: forms.1,
            thirteen_orphans: forms.2,
            wildcard: None,
        };
        let wild_rules = HandRules {
            wildcard: Some(Wildcard { tile: Tile::from_index(wild).unwrap(), as_own_kind: own }),
            ..base
        };
        for h in [c, dense] {
            for rules in [base, wild_rules] {
                let t = TileCounts(h);
                prop_assert_eq!(analysis::is_win(&t, &rules), reference::is_win(&h, &rules));
                let (real, w, forbidden) = reference::split_wild(&h, &rules);
                prop_assert_eq!(
                    analysis::is_sets_and_pair(&t, &rules),
                    reference::sets_and_pair(&mut real.clone(), w, true, forbidden)
                );
                prop_assert_eq!(analysis::waits(&t, &rules).0, reference::waits(&h, &rules));
                prop_assert_eq!(
                    i32::from(analysis::shanten(&t, &rules)),
                    reference::shanten(&h, &rules)
                );
            }
        }
    }
}

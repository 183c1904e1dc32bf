//! Determinization: one guess at the hidden tiles (every other seat's concealed tiles and the
//! live wall's order) that agrees with what the seat has seen.
//!
//! The unseen tiles are the full set less the seat's own tiles, every meld, every unclaimed
//! discard and the indicator. Each opponent is dealt from them either a random hand or, with
//! the probability measured for the rule set by their exposed melds and the length of their
//! discard row (`rules::readiness`), a **ready** hand: sets, a pair and a two-tile wait, of one
//! number suit (with honours) when their melds or the rule set's minimum fan point to one, and
//! never waiting on a kind they have discarded themselves. What is left, shuffled, is the live
//! wall.

use crate::counts::TileCounts;
use crate::meld::Meld;
use crate::table::{Observation, Ruleset};
use crate::tile::{KINDS, Tile};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// One guess at the hidden tiles.
#[derive(Debug, Clone)]
pub(crate) struct World {
    /// Concealed tiles by chair (the viewer's are its real ones).
    pub(crate) hands: Vec<TileCounts>,
    /// The live wall in draw order.
    pub(crate) wall: Vec<Tile>,
    /// A meld a playout gave an opponent off the viewer's discard (chair and meld), beside
    /// the melds the observation shows.
    pub(crate) claim: Option<(usize, Meld)>,
}

impl World {
    /// A world of `players` empty hands and no wall, to score one hand in.
    pub(crate) fn nobody(players: usize) -> World {
        World {
            hands: vec![TileCounts::EMPTY; players],
            wall: Vec::new(),
            claim: None,
        }
    }
}

/// The unseen copies of each kind, from the viewer's side.
pub(crate) fn unseen(obs: &Observation) -> [u8; KINDS] {
    let mut left = [4u8; KINDS];
    let mut see = |i: usize, n: u8| {
        if i < KINDS {
            left[i] = left[i].saturating_sub(n);
        }
    };
    for (t, c) in obs.concealed.iter() {
        see(t.index(), c);
    }
    for h in &obs.table {
        for m in &h.melds {
            for (t, c) in meld_counts(m) {
                see(t, c);
            }
        }
        for d in &h.discards {
            if !d.claimed {
                see(d.tile.index(), 1);
            }
        }
    }
    if let Some(t) = obs.indicator {
        see(t.index(), 1);
    }
    left
}

/// The kinds (as indices) and counts a meld shows.
pub(crate) fn meld_counts(m: &Meld) -> Vec<(usize, u8)> {
    use crate::meld::MeldKind;
    let i = m.tile.index();
    match m.kind {
        MeldKind::Chow => vec![(i, 1), (i + 1, 1), (i + 2, 1)],
        MeldKind::Pung => vec![(i, 3)],
        MeldKind::Kong | MeldKind::ConcealedKong => vec![(i, 4)],
    }
}

/// A pool of tiles to deal from, by kind.
struct Pool([u8; KINDS]);

impl Pool {
    fn total(&self) -> u32 {
        self.0.iter().map(|&c| u32::from(c)).sum()
    }

    /// A random tile, each copy equally likely (kinds in `allowed` only, when given).
    fn draw(&mut self, rng: &mut ChaCha8Rng, allowed: Option<&[bool; KINDS]>) -> Option<Tile> {
        let weight = |i: usize| match allowed {
            Some(a) if !a[i] => 0,
            _ => u32::from(self.0[i]),
        };
        let total: u32 = (0..KINDS).map(weight).sum();
        if total == 0 {
            return None;
        }
        let mut r = rng.random_range(0..total);
        for i in 0..KINDS {
            let w = weight(i);
            if r < w {
                self.0[i] -= 1;
                return Tile::from_index(i);
            }
            r -= w;
        }
        None
    }

    /// Takes `need` (index, count) from the pool if all are there.
    fn take(&mut self, need: &[(usize, u8)]) -> bool {
        let mut want = [0u8; KINDS];
        for &(i, c) in need {
            if i >= KINDS {
                return false;
            }
            want[i] += c;
        }
        if (0..KINDS).any(|i| want[i] > self.0[i]) {
            return false;
        }
        for (have, w) in self.0.iter_mut().zip(want) {
            *have -= w;
        }
        true
    }

    fn give_back(&mut self, h: &TileCounts) {
        for (i, &c) in h.0.iter().enumerate() {
            self.0[i] += c;
        }
    }
}

/// Deals one world for the viewer of `obs`; a ready hand is dealt to opponent `q` only when
/// `accept(q, hand)` agrees (the rule set would pay for it).
pub(crate) fn sample(
    ruleset: &Ruleset,
    obs: &Observation,
    rng: &mut ChaCha8Rng,
    accept: impl Fn(usize, &TileCounts) -> bool,
) -> World {
    let aims = ruleset.set().aims();
    let mut pool = Pool(unseen(obs));
    let me = obs.player.index();
    let mut hands = vec![TileCounts::EMPTY; obs.table.len()];
    if let Some(h) = hands.get_mut(me) {
        *h = obs.concealed;
    }
    for (q, public) in obs.table.iter().enumerate() {
        if q == me {
            continue;
        }
        let size = usize::from(public.concealed_count);
        let exposed = public.melds.iter().filter(|m| m.from.is_some()).count();
        let mut hand = None;
        let chance = aims.ready.chance(exposed, public.discards.len());
        if rng.random_bool(chance) {
            let mut discarded = [false; KINDS];
            for d in &public.discards {
                if d.tile.index() < KINDS {
                    discarded[d.tile.index()] = true;
                }
            }
            let suit = one_suit(obs, q, aims.min_fan > 0 && aims.flush_fan > 0);
            for _ in 0..8 {
                if let Some(h) = ready_hand(&mut pool, rng, size, suit, &discarded, obs.wildcard) {
                    if accept(q, &h) {
                        hand = Some(h);
                        break;
                    }
                    pool.give_back(&h);
                }
            }
        }
        let hand = hand.unwrap_or_else(|| {
            let mut h = TileCounts::EMPTY;
            for _ in 0..size {
                if let Some(t) = pool.draw(rng, None) {
                    h.add(t);
                }
            }
            h
        });
        hands[q] = hand;
    }
    let mut wall = Vec::with_capacity(pool.total() as usize);
    while let Some(t) = pool.draw(rng, None) {
        wall.push(t);
    }
    wall.truncate(obs.live_wall);
    World {
        hands,
        wall,
        claim: None,
    }
}

/// The number suit opponent `q` is collecting when the rule set rewards one suit: the suit of
/// their number melds when there is one, else the suit they have discarded least.
fn one_suit(obs: &Observation, q: usize, flush_matters: bool) -> Option<usize> {
    let public = &obs.table[q];
    let mut melded = 0u8;
    for m in &public.melds {
        if m.tile.index() < 27 {
            melded |= 1 << (m.tile.index() / 9);
        }
    }
    if melded.count_ones() == 1 {
        return Some(melded.trailing_zeros() as usize);
    }
    if !flush_matters || melded != 0 {
        return None;
    }
    let mut per_suit = [0usize; 3];
    for d in &public.discards {
        if d.tile.index() < 27 {
            per_suit[d.tile.index() / 9] += 1;
        }
    }
    (0..3).min_by_key(|&s| (per_suit[s], s))
}

/// A ready hand of `size` (`3m + 1`) tiles from `pool`: `m - 1` sets, a pair and a two-tile
/// wait whose winning kinds the player has not discarded. Puts the tiles back and answers
/// `None` when the pool does not allow one.
fn ready_hand(
    pool: &mut Pool,
    rng: &mut ChaCha8Rng,
    size: usize,
    suit: Option<usize>,
    discarded: &[bool; KINDS],
    wild: Option<Tile>,
) -> Option<TileCounts> {
    if size % 3 != 1 {
        return None;
    }
    let mut allowed = [true; KINDS];
    if let Some(s) = suit {
        for (i, a) in allowed.iter_mut().enumerate().take(27) {
            *a = i / 9 == s;
        }
    }
    if let Some(w) = wild {
        allowed[w.index()] = false;
    }
    let mut hand = TileCounts::EMPTY;
    let fail = |pool: &mut Pool, hand: &TileCounts| {
        pool.give_back(hand);
        None
    };
    let add = |hand: &mut TileCounts, need: &[(usize, u8)]| {
        for &(i, c) in need {
            for _ in 0..c {
                if let Some(t) = Tile::from_index(i) {
                    hand.add(t);
                }
            }
        }
    };
    // The wait: a pair (waiting on a pung), an open or closed partial chow.
    let Some(w) = pool.draw(rng, Some(&allowed)) else {
        return fail(pool, &hand);
    };
    pool.0[w.index()] += 1;
    let i = w.index();
    let wait: Vec<(usize, u8)> = if size == 1 {
        vec![(i, 1)]
    } else if i >= 27 || rng.random_range(0..4) == 0 {
        vec![(i, 2)]
    } else if i % 9 <= 6 && rng.random_bool(0.7) {
        vec![(i, 1), (i + 1, 1)]
    } else if i % 9 <= 6 {
        vec![(i, 1), (i + 2, 1)]
    } else {
        vec![(i, 2)]
    };
    let waits_on: Vec<usize> = match wait.as_slice() {
        [(a, _)] => vec![*a],
        [(a, 1), (b, 1)] if *b == a + 1 => {
            let r = a % 9;
            let mut v = Vec::new();
            if r > 0 {
                v.push(a - 1);
            }
            if r + 2 < 9 {
                v.push(b + 1);
            }
            v
        }
        [(a, 1), (b, 1)] => vec![(a + b) / 2],
        _ => vec![],
    };
    if waits_on.is_empty() || waits_on.iter().any(|&k| discarded[k]) || !pool.take(&wait) {
        return fail(pool, &hand);
    }
    add(&mut hand, &wait);
    if size == 1 {
        return Some(hand);
    }
    // The pair, then the sets.
    let Some(p) = pool.draw(rng, Some(&allowed)) else {
        return fail(pool, &hand);
    };
    hand.add(p);
    if !pool.take(&[(p.index(), 1)]) {
        return fail(pool, &hand);
    }
    hand.add(p);
    for _ in 0..(size - 4) / 3 {
        let mut done = false;
        for _ in 0..6 {
            let Some(t) = pool.draw(rng, Some(&allowed)) else {
                break;
            };
            let j = t.index();
            let chow = j < 27 && j % 9 <= 6 && rng.random_range(0..3) > 0;
            let rest: Vec<(usize, u8)> = if chow {
                vec![(j + 1, 1), (j + 2, 1)]
            } else {
                vec![(j, 2)]
            };
            if pool.take(&rest) {
                hand.add(t);
                add(&mut hand, &rest);
                done = true;
                break;
            }
            pool.0[j] += 1;
        }
        if !done {
            return fail(pool, &hand);
        }
    }
    Some(hand)
}

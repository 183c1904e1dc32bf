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
//!
//! At five- and six-player classic tables the unseen tiles include the extra winds nobody has
//! shown (the table's 4 or 8 less the viewer's, the melded and the discarded ones): a random
//! hand and the wall are dealt from all unseen tiles alike, so the wall is as long as the
//! observation says and holds its share of extra winds (a dead draw in a playout), and an
//! opponent's concealed count includes the extra winds they hold ([`World::extra`]; a ready hand
//! is dealt none).

use crate::counts::TileCounts;
use crate::meld::Meld;
use crate::table::{Observation, TableRules};
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
    /// Extra winds each opponent holds concealed beside `hands` (five- and six-player classic;
    /// the viewer's are in its observation).
    pub(crate) extra: Vec<u8>,
}

impl World {
    /// A world of `players` empty hands and no wall, to score one hand in.
    pub(crate) fn nobody(players: usize) -> World {
        World {
            hands: vec![TileCounts::EMPTY; players],
            wall: Vec::new(),
            claim: None,
            extra: vec![0; players],
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

/// The extra winds (five- and six-player classic) the viewer of `obs` has not seen: the
/// table's less its own, every extra-wind meld's and every unclaimed extra-wind discard.
pub(crate) fn hidden_extra_winds(ruleset: &TableRules, obs: &Observation) -> u8 {
    let total = usize::from(ruleset.config().extra_winds());
    if total == 0 {
        return 0;
    }
    let mut seen = obs.extra_winds.len();
    for h in &obs.table {
        for m in h.melds.iter().filter(|m| m.tile.is_bonus()) {
            seen += m.kind.size();
        }
        seen += h
            .discards
            .iter()
            .filter(|d| !d.claimed && d.tile.is_bonus())
            .count();
    }
    total.saturating_sub(seen) as u8
}

/// A pool of tiles to deal from, by kind, and the unseen extra winds (any one stands for all:
/// at a table they are one kind).
struct Pool([u8; KINDS], u8);

/// The tile an extra wind is dealt as.
fn extra_wind() -> Option<Tile> {
    Tile::from_index(KINDS)
}

impl Pool {
    fn total(&self) -> u32 {
        self.0.iter().map(|&c| u32::from(c)).sum::<u32>() + u32::from(self.1)
    }

    /// A random tile, each copy equally likely (kinds in `allowed` only, when given: then
    /// never an extra wind).
    fn draw(&mut self, rng: &mut ChaCha8Rng, allowed: Option<&[bool; KINDS]>) -> Option<Tile> {
        let weight = |i: usize| match allowed {
            Some(a) if !a[i] => 0,
            _ => u32::from(self.0[i]),
        };
        let extra = if allowed.is_some() {
            0
        } else {
            u32::from(self.1)
        };
        let total: u32 = (0..KINDS).map(weight).sum::<u32>() + extra;
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
        // The last `extra` of the range: an extra wind.
        if self.1 == 0 {
            return None;
        }
        self.1 -= 1;
        extra_wind()
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
    ruleset: &TableRules,
    obs: &Observation,
    rng: &mut ChaCha8Rng,
    accept: impl Fn(usize, &TileCounts) -> bool,
) -> World {
    let aims = ruleset.set().aims();
    // At six-player classic a ready hand is pungs and pairs (only pungs and a pair win).
    let pungs_only = ruleset.config().wins_by_pungs_only();
    let mut pool = Pool(unseen(obs), hidden_extra_winds(ruleset, obs));
    let me = obs.player.index();
    let mut hands = vec![TileCounts::EMPTY; obs.table.len()];
    let mut extra = vec![0u8; obs.table.len()];
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
                if let Some(h) = ready_hand(
                    &mut pool,
                    rng,
                    size,
                    suit,
                    &discarded,
                    obs.wildcard,
                    pungs_only,
                ) {
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
                match pool.draw(rng, None) {
                    Some(t) if t.is_bonus() => extra[q] += 1,
                    Some(t) => h.add(t),
                    None => {}
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
        extra,
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
    pungs_only: bool,
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
    } else if pungs_only || i >= 27 || rng.random_range(0..4) == 0 {
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
            let chow = !pungs_only && j < 27 && j % 9 <= 6 && rng.random_range(0..3) > 0;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{Bot, EfficientBot};
    use crate::table::{Game, HandSetup, Player};
    use rand::SeedableRng;
    use std::sync::Arc;

    /// At five and six players the unseen extra winds are what the engine really hides from
    /// the seat (the others' concealed ones and the wall's), and a world deals them: every
    /// opponent gets as many tiles as they hold, the wall is as long as the observation says.
    #[test]
    fn worlds_deal_the_unseen_extra_winds_and_the_whole_live_wall() {
        for players in [5u8, 6] {
            let options = serde_json::json!({ "players": players });
            let rules =
                Arc::new(TableRules::from_name("classic", options.as_object().unwrap()).unwrap());
            let n = usize::from(players);
            let mut checked = 0;
            let mut dealt_extra = 0u32;
            for seed in 0..6u64 {
                let (mut game, _) = Game::new(rules.clone(), HandSetup::new(seed)).unwrap();
                let mut bots: Vec<EfficientBot> = (0..n)
                    .map(|k| EfficientBot::new(rules.clone(), k as u64))
                    .collect();
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                while let Some(p) = game.to_act().next() {
                    let obs = game.observation(p);
                    let truth: usize = (0..n)
                        .filter(|&q| q != p.index())
                        .map(|q| usize::from(game.extra_winds(Player(q as u8)).len()))
                        .sum::<usize>()
                        + game
                            .wall()
                            .remaining_tiles()
                            .iter()
                            .filter(|t| t.is_bonus())
                            .count();
                    assert_eq!(usize::from(hidden_extra_winds(&rules, &obs)), truth);
                    let w = sample(&rules, &obs, &mut rng, |_, _| true);
                    assert_eq!(w.wall.len(), obs.live_wall, "{players} players");
                    for (q, public) in obs.table.iter().enumerate() {
                        if q != p.index() {
                            let held = w.hands[q].len() + usize::from(w.extra[q]);
                            assert_eq!(held, usize::from(public.concealed_count));
                        }
                    }
                    let in_world = w.extra.iter().map(|&e| u32::from(e)).sum::<u32>()
                        + w.wall.iter().filter(|t| t.is_bonus()).count() as u32;
                    assert!(in_world <= u32::from(hidden_extra_winds(&rules, &obs)));
                    dealt_extra += in_world;
                    checked += 1;
                    let a = bots[p.index()].act(&obs, &obs.legal_actions);
                    game.apply(p, a).unwrap();
                }
            }
            assert!(
                checked > 100 && dealt_extra > 0,
                "{players}: {checked} decisions"
            );
        }
    }
}

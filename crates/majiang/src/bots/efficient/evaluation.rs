//! Hand evaluation: how loosely a tile sits in the hand, the unseen useful tiles of a hand,
//! and the distance after each discard, computed once per decision and shared by the
//! candidates.

use super::EfficientBot;
use super::aims::{Aim, AimCosts, Shape, flush_view, pungs_shanten_of};
use super::context::Ctx;
use super::melds::MeldInfo;
use crate::analysis::{self, HandRules, TileSet};
use crate::counts::TileCounts;
use crate::tile::{KINDS, Tile};

/// How tightly `t` is tied to the rest of the hand (pairs, neighbours; wildcards count for
/// a lot): low for a loose tile, a good discard.
pub(crate) fn connectivity(hand: &TileCounts, t: Tile, wild: Option<Tile>) -> i32 {
    if Some(t) == wild {
        return 50;
    }
    let i = t.index();
    let c = |j: usize| i32::from(hand.0[j]);
    let mut score = 4 * (c(i) - 1);
    if i < 27 {
        let r = i % 9;
        for (d, w) in [(1usize, 2), (2, 1)] {
            if r >= d {
                score += w * c(i - d).min(1);
            }
            if r + d < 9 {
                score += w * c(i + d).min(1);
            }
        }
        // Terminals are looser than middle tiles.
        score += match r {
            0 | 8 => 0,
            1 | 7 => 1,
            _ => 2,
        };
    }
    score
}

/// The last hands whose useful kinds were worked out, with what they were worked out under: a
/// hand met again (a turn discarding the tile just drawn meets the hand of the turn before) is
/// looked up instead of worked out twice.
#[derive(Debug, Clone, Default)]
pub(crate) struct UsefulCache {
    entries: [Option<(UsefulKey, u64)>; 8],
    next: usize,
}

/// What the useful kinds of a hand depend on: the hand, the hand rules and the wildcard.
type UsefulKey = (TileCounts, HandRules, Option<Tile>);

impl UsefulCache {
    /// The kinds that lower the shanten of `h` (`3k + 1` tiles) when drawn. Without wildcards
    /// the analysis' table-driven answer; with them, a trial of the kinds that can matter
    /// (those in the hand or next to them, and one isolated kind standing for all the others),
    /// the kinds near the hand counted only while some copy is unseen.
    pub(crate) fn useful_mask(&mut self, h: &TileCounts, ctx: &Ctx) -> u64 {
        let key = (*h, ctx.rules, ctx.wild);
        let found = self
            .entries
            .iter()
            .flatten()
            .find(|e| e.0 == key)
            .map(|e| e.1);
        let all = match found {
            Some(m) => m,
            None => {
                let m = useful_unfiltered(h, ctx);
                self.entries[self.next] = Some((key, m));
                self.next = (self.next + 1) % self.entries.len();
                m
            }
        };
        filter_unseen(h, ctx, all)
    }
}

/// Of `all` ([`useful_unfiltered`] of `h`), with wildcards, the kinds near the hand only while
/// some copy is unseen.
fn filter_unseen(h: &TileCounts, ctx: &Ctx, all: u64) -> u64 {
    if ctx.rules.wildcard.is_none() {
        return all;
    }
    let mut unseen = 0u64;
    for (i, &u) in ctx.unseen.iter().enumerate() {
        unseen |= u64::from(u > 0) << i;
    }
    all & (!near_kinds(h) | unseen)
}

/// The kinds held and those one or two ranks from a number tile held (bit `i`: kind `i`):
/// each suit's nine bits spread two ranks either way with shifts.
fn near_kinds(h: &TileCounts) -> u64 {
    let mut held = 0u64;
    for (i, &c) in h.0.iter().enumerate() {
        held |= u64::from(c > 0) << i;
    }
    let mut near = held;
    for s in 0..3 {
        let m = (held >> (9 * s)) & 0x1FF;
        let spread = (m | m << 1 | m << 2 | m >> 1 | m >> 2) & 0x1FF;
        near |= spread << (9 * s);
    }
    near
}

/// [`UsefulCache::useful_mask`] before the kinds near the hand with no copy unseen are left out.
fn useful_unfiltered(h: &TileCounts, ctx: &Ctx) -> u64 {
    if ctx.rules.wildcard.is_none() {
        return analysis::discards::useful_tiles_quick(h, &ctx.rules)
            .unwrap_or_else(|| analysis::useful_tiles(h, &ctx.rules))
            .0;
    }
    let now = analysis::shanten(h, &ctx.rules);
    let near = near_kinds(h);
    let all = (1u64 << KINDS) - 1;
    let mut fours = 0u64;
    for (i, &c) in h.0.iter().enumerate() {
        fours |= u64::from(c >= 4) << i;
    }
    let tried = near & !fours;
    let wild = ctx.wild.map_or(usize::MAX, |w| w.index());
    let far = (0..KINDS).find(|&i| near & (1 << i) == 0 && i != wild);
    let far_bit = far.map_or(0, |f| 1u64 << f);
    let after = analysis::discards::shanten_with_each(h, &ctx.rules, TileSet(tried | far_bit));
    let mut mask = 0u64;
    let mut bits = tried;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if after[i] < now {
            mask |= 1 << i;
        }
    }
    if let Some(far) = far {
        if after[far] < now {
            mask |= all & !near & !(1u64 << wild.min(63));
        }
    }
    mask
}

/// What the distance of a hand of `3k + 1` tiles depends on besides the bot's goals: the
/// hand, its melds, the flowers' fan, the value of each pung and the hand rules.
pub(crate) type DistanceKey = (TileCounts, MeldInfo, i32, [u8; KINDS], HandRules);

/// What [`EfficientBot::min_distance`] depends on besides the bot's goals: the hand's
/// [`DistanceKey`] (of `3k + 2` tiles), the wildcard and the distance that is enough.
type ClaimKey = (DistanceKey, Option<Tile>, i32);

/// The least distances of the hands a claim would leave, judged lately.
#[derive(Debug, Clone, Default)]
pub(crate) struct ClaimCache {
    entries: [Option<(ClaimKey, Option<i32>)>; 8],
    next: usize,
}

impl EfficientBot {
    /// [`Self::distance`] of `h` (`3k + 1` tiles) with the context's melds, looked up when it
    /// is the hand last remembered (the offers after a discard ask for the hand it left).
    pub(crate) fn distance_remembered(&mut self, ctx: &Ctx, h: &TileCounts) -> i32 {
        let key = (*h, ctx.melds, ctx.flower_fan, ctx.pung_fan, ctx.rules);
        if let Some((k, d)) = &self.last_distance {
            if *k == key {
                return *d;
            }
        }
        let d = self.distance(ctx, h, &ctx.melds).0;
        self.last_distance = Some((key, d));
        d
    }

    /// Remembers `d`, the distance of `h` (`3k + 1` tiles) with the context's melds, as
    /// [`Self::distance_after`] worked it out for a discard.
    pub(crate) fn remember_distance(&mut self, ctx: &Ctx, h: &TileCounts, d: i32) {
        let key = (*h, ctx.melds, ctx.flower_fan, ctx.pung_fan, ctx.rules);
        self.last_distance = Some((key, d));
    }
}

/// The shanten after each discard of the one-suit views met lately: a turn that discards an
/// off-suit tile and draws another meets the same view again (the stand-ins stay as they
/// were).
#[derive(Debug, Clone, Default)]
pub(crate) struct FlushCache {
    entries: [Option<(FlushKey, ViewAfter)>; 4],
    next: usize,
}

/// What the shanten after the discards of a view depends on: the view, its suit and the rules.
type FlushKey = (TileCounts, usize, HandRules);

/// Standard shanten of a view less each kind read (`None`: outside the quick path).
type ViewAfter = Option<[Option<analysis::ShantenByForm>; KINDS]>;

impl FlushCache {
    /// [`analysis::discards::shanten_after_discards_of`] of `view`, the suit-`s` view of a
    /// hand, for `read`, looked up when met lately.
    fn after(&mut self, view: &TileCounts, s: usize, rules: &HandRules, read: u64) -> ViewAfter {
        let key = (*view, s, *rules);
        if let Some(e) = self.entries.iter().flatten().find(|e| e.0 == key) {
            return e.1;
        }
        let after = analysis::discards::shanten_after_discards_of(view, rules, TileSet(read));
        self.entries[self.next] = Some((key, after));
        self.next = (self.next + 1) % self.entries.len();
        after
    }
}

/// Shanten after each discard of one hand of `3k + 2` tiles with its melds, and what the
/// distance reads besides, computed once and shared by the discard candidates of a decision.
pub(crate) struct AfterDiscards {
    /// Every form under the bot's rules, per discarded kind (`None`: outside the quick path).
    pub(crate) plain: Option<[Option<analysis::ShantenByForm>; KINDS]>,
    /// Per number suit, once needed: the same for the hand's one-suit view.
    pub(crate) flush: [Option<FlushAfter>; 3],
    /// The views met lately, lent by the bot for a turn (`None`: each view worked out).
    pub(crate) views: Option<Box<FlushCache>>,
    /// The melds the hand is judged with.
    pub(crate) melds: MeldInfo,
    /// The aims' costs after a discard that leaves the hand's value pairs and pungs as they
    /// are (any but a value honour held twice or three times).
    pub(crate) costs: AimCosts,
    /// The hand's value pairs and pungs, number tiles per suit, kinds held three or four
    /// times and twice, and size: each discard's [`Shape`] follows from them.
    pub(crate) value: (i32, i32),
    pub(crate) per_suit: [i32; 3],
    pub(crate) threes: i32,
    pub(crate) twos: i32,
    pub(crate) len: usize,
}

/// The one-suit view of a hand of `3k + 2` tiles for one suit, and the shanten after each
/// discard from it.
pub(crate) struct FlushAfter {
    /// Standard shanten (the bot's rules without seven pairs and thirteen orphans) of the
    /// view less each kind (`None`: no view, or outside the quick path).
    pub(crate) after: Option<[Option<analysis::ShantenByForm>; KINDS]>,
    /// The view's last isolated stand-in tile: discarding any off-suit tile removes it.
    pub(crate) last_slot: Option<usize>,
    /// The one-suit shanten after an off-suit discard, when computed directly.
    pub(crate) off_cache: Option<Option<i8>>,
    /// Off-suit number tiles in the hand: beyond six there is no view, and an in-suit or
    /// honour discard leaves them all.
    pub(crate) off: usize,
}

impl FlushAfter {
    /// The suit-`s` view of `hand`, which holds `off` number tiles outside suit `s`; its
    /// shanten after discards looked up in `views` when met lately.
    pub(crate) fn new(
        hand: &TileCounts,
        s: usize,
        off: usize,
        rules: &HandRules,
        views: Option<&mut FlushCache>,
    ) -> FlushAfter {
        let last_slot = (1..=6).contains(&off).then(|| {
            let k = off - 1;
            let o = (0..3).filter(|&o| o != s).nth(k / 3).unwrap_or(0);
            o * 9 + (k % 3) * 3
        });
        FlushAfter {
            // Only the suit's, the honours' and the last stand-in's discards are read.
            after: flush_view(hand, s).and_then(|v| {
                let read = (0x1FFu64 << (9 * s)) | (0x7F << 27) | last_slot.map_or(0, |k| 1 << k);
                match views {
                    Some(views) => views.after(&v, s, rules, read),
                    None => analysis::discards::shanten_after_discards_of(&v, rules, TileSet(read)),
                }
            }),
            last_slot,
            off_cache: None,
            off,
        }
    }
}

impl AfterDiscards {
    /// What the discards from `hand` (`3k + 2` tiles) with `melds` share.
    pub(crate) fn new(
        bot: &EfficientBot,
        ctx: &Ctx,
        hand: &TileCounts,
        melds: &MeldInfo,
    ) -> AfterDiscards {
        let mut per_suit = [0i32; 3];
        let (mut threes, mut twos) = (0, 0);
        let value = bot.hand_value(ctx, hand);
        // Without a minimum fan the distance reads neither (see `distance_with`), nor the
        // hand's value: its costs are nil.
        let costs = if bot.goals.min_fan > 0 {
            for (i, &c) in hand.0[..27].iter().enumerate() {
                per_suit[i / 9] += i32::from(c);
            }
            for &c in &hand.0 {
                threes += i32::from(c >= 3);
                twos += i32::from(c == 2);
            }
            bot.goals.costs(ctx, melds, value)
        } else {
            bot.goals.costs(ctx, melds, (0, 0))
        };
        AfterDiscards {
            plain: analysis::discards::shanten_after_discards(hand, &ctx.rules),
            flush: [None, None, None],
            views: None,
            melds: *melds,
            costs,
            value,
            per_suit,
            threes,
            twos,
            len: hand.len(),
        }
    }

    /// The [`Shape`] of the hand less one `t`, of which it holds `c`, and its aims' costs.
    pub(crate) fn shape_after(
        &self,
        bot: &EfficientBot,
        ctx: &Ctx,
        t: Tile,
        c: u8,
    ) -> (Shape, AimCosts) {
        let i = t.index();
        let f = i32::from(ctx.pung_fan[i]);
        let costs = if bot.goals.hk_fan && i >= 27 && f > 0 && (c == 2 || c == 3) {
            // A value pair broken, or a value pung left a pair.
            let (mut pairs, mut pungs) = self.value;
            if c == 2 {
                pairs -= f;
            } else {
                pungs -= f;
                pairs += f;
            }
            bot.goals.costs(ctx, &self.melds, (pairs, pungs))
        } else {
            self.costs
        };
        let mut per_suit = self.per_suit;
        if i < 27 {
            per_suit[i / 9] -= 1;
        }
        let p = self.threes - i32::from(c == 3);
        let q = self.twos + i32::from(c == 3) - i32::from(c == 2);
        let shape = Shape {
            per_suit,
            pungs: pungs_shanten_of(self.len - 1, p, q),
        };
        (shape, costs)
    }

    /// The shanten of the suit-`s` view of `hand` less one `t`.
    pub(crate) fn flush_shanten(
        &mut self,
        ctx: &Ctx,
        hand: &TileCounts,
        t: Tile,
        s: usize,
    ) -> Option<i8> {
        // Read only past the minimum fan's check, so the counts per suit are there.
        let off = self.per_suit.iter().sum::<i32>() - self.per_suit[s];
        let off = usize::try_from(off).unwrap_or(0);
        let views = self.views.as_deref_mut();
        let f = self.flush[s]
            .get_or_insert_with(|| FlushAfter::new(hand, s, off, &ctx.std_rules, views));
        let ti = t.index();
        let off_suit = ti < 27 && ti / 9 != s;
        if let Some(after) = &f.after {
            let k = if off_suit { f.last_slot } else { Some(ti) };
            if let Some(sf) = k.and_then(|k| after[k]) {
                return Some(sf.standard);
            }
        }
        if off_suit {
            if let Some(v) = f.off_cache {
                return v;
            }
        } else if f.off > 6 {
            return None;
        }
        let mut h = *hand;
        h.remove(t);
        let v = flush_view(&h, s).map(|v| analysis::shanten(&v, &ctx.std_rules));
        if off_suit {
            f.off_cache = Some(v);
        }
        v
    }
}

impl EfficientBot {
    /// [`Self::distance`] of `hand` (`3k + 2` tiles, with the melds `pre` was built with)
    /// less one `t`, taking the shanten and costs from `pre` (built once for `hand`).
    pub(crate) fn distance_after(
        &self,
        ctx: &Ctx,
        hand: &TileCounts,
        t: Tile,
        pre: &mut AfterDiscards,
    ) -> (i32, Aim) {
        // The smaller hand itself is only made where the shanten is not read from `pre`.
        let smaller = || {
            let mut h = *hand;
            h.remove(t);
            analysis::shanten_by_form(&h, &ctx.rules)
        };
        let forms = match &pre.plain {
            Some(after) => after[t.index()].unwrap_or_else(smaller),
            None => smaller(),
        };
        // Without a minimum fan the distance is the shanten alone: the shape is not read.
        let (shape, costs) = if self.goals.min_fan > 0 {
            pre.shape_after(self, ctx, t, hand.0[t.index()])
        } else {
            let shape = Shape {
                per_suit: [0; 3],
                pungs: 0,
            };
            (shape, pre.costs)
        };
        let melds = pre.melds;
        self.distance_with(shape, costs, &melds, forms, |s| {
            pre.flush_shanten(ctx, hand, t, s)
        })
    }

    /// Unseen copies of the tiles that bring a hand of `3k + 1` tiles closer under `aim`.
    pub(crate) fn ukeire(&mut self, ctx: &Ctx, h: &TileCounts, aim: Aim) -> i32 {
        let set = match aim {
            Aim::Any => self.useful.useful_mask(h, ctx),
            Aim::Flush(s) => {
                let s = usize::from(s);
                let Some(v) = flush_view(h, s) else { return 0 };
                let suit_mask: u64 = (0x1FF << (9 * s)) | (0x7F << 27);
                self.useful.useful_mask(&v, ctx) & suit_mask
            }
            Aim::Pungs => {
                let mut m = 0u64;
                for (i, &c) in h.0.iter().enumerate() {
                    if c > 0 {
                        m |= 1 << i;
                    }
                }
                m
            }
        };
        let mut total = 0i32;
        let mut bits = set;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if i < KINDS {
                total += i32::from(ctx.unseen[i]);
            }
        }
        if let Some(w) = ctx.wild {
            // Every wildcard drawn helps.
            if set & (1 << w.index()) == 0 && h.len() % 3 == 1 {
                total += i32::from(ctx.unseen[w.index()]);
            }
        }
        total
    }

    /// [`Self::min_distance`], looked up when the same hand and melds were judged lately under
    /// the same context (a hand kept from one turn to the next meets the same claims again).
    pub(crate) fn min_distance_remembered(
        &mut self,
        ctx: &Ctx,
        hand: &TileCounts,
        melds: &MeldInfo,
        enough: i32,
    ) -> Option<i32> {
        let key = (
            (*hand, *melds, ctx.flower_fan, ctx.pung_fan, ctx.rules),
            ctx.wild,
            enough,
        );
        if let Some(e) = self.claims.entries.iter().flatten().find(|e| e.0 == key) {
            return e.1;
        }
        let d = self.min_distance(ctx, hand, melds, enough);
        let c = &mut self.claims;
        c.entries[c.next] = Some((key, d));
        c.next = (c.next + 1) % c.entries.len();
        d
    }

    /// The least distance over the discards from a hand of `3k + 2` tiles (wildcards kept),
    /// trying the loosest tiles first and stopping at the first discard within `enough`.
    pub(crate) fn min_distance(
        &self,
        ctx: &Ctx,
        hand: &TileCounts,
        melds: &MeldInfo,
        enough: i32,
    ) -> Option<i32> {
        let mut order = [(0i32, 0usize); 16];
        let mut n = 0;
        for (t, _) in hand.iter() {
            if Some(t) != ctx.wild && n < 16 {
                order[n] = (connectivity(hand, t, ctx.wild), t.index());
                n += 1;
            }
        }
        let order = &mut order[..n];
        order.sort_unstable();
        let mut best = None;
        let mut pre = AfterDiscards::new(self, ctx, hand, melds);
        for &(_, i) in order.iter() {
            let Some(t) = Tile::from_index(i) else {
                continue;
            };
            let d = self.distance_after(ctx, hand, t, &mut pre).0;
            if best.is_none_or(|b| d < b) {
                best = Some(d);
            }
            if d <= enough {
                break;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The kinds near a hand, tile by tile: each held kind, and for a number tile each kind of
    /// its suit one or two ranks away.
    fn near_kinds_by_tile(h: &TileCounts) -> u64 {
        let mut near = 0u64;
        for i in (0..KINDS).filter(|&i| h.0[i] > 0) {
            near |= 1 << i;
            for j in 0..27 {
                if i < 27 && j / 9 == i / 9 && (j as i64 - i as i64).abs() <= 2 {
                    near |= 1 << j;
                }
            }
        }
        near
    }

    /// On every turn, and for every claim offered, the distance after each discard read from
    /// [`AfterDiscards`] is [`EfficientBot::distance`] of the smaller hand, aim included.
    fn distance_after_is_distance(
        bot: &mut EfficientBot,
        obs: &crate::table::Observation,
        legal: &[crate::table::Action],
    ) -> usize {
        if legal.len() < 2 || super::super::involves_extra_winds(obs, legal) {
            return 0;
        }
        let on_turn = obs.turn == Some(obs.player);
        let ctx = bot.context(obs, on_turn);
        let mut hands = Vec::new();
        if on_turn {
            hands.push((obs.concealed, ctx.melds));
        } else if let Some((_, tile)) = obs.on_offer {
            for a in legal {
                if let Some((_, h, m)) =
                    super::super::calls::claimed_hand(&ctx, &obs.concealed, tile, *a)
                {
                    hands.push((h, m));
                }
            }
        }
        let mut n = 0;
        for (hand, melds) in hands {
            let mut pre = AfterDiscards::new(bot, &ctx, &hand, &melds);
            // On a turn the bot lends the views of its last turns.
            let mut lent = AfterDiscards::new(bot, &ctx, &hand, &melds);
            lent.views = if on_turn {
                bot.flush_views.take()
            } else {
                None
            };
            for (t, _) in hand.iter() {
                let mut smaller = hand;
                smaller.remove(t);
                let want = bot.distance(&ctx, &smaller, &melds);
                let got = bot.distance_after(&ctx, &hand, t, &mut pre);
                assert_eq!(got, want, "{hand} less {t}");
                let got = bot.distance_after(&ctx, &hand, t, &mut lent);
                assert_eq!(got, want, "{hand} less {t}, views lent");
                n += 1;
            }
        }
        n
    }

    #[test]
    fn distance_after_each_discard_is_the_smaller_hands_distance() {
        for (name, options) in super::super::probe::tables() {
            let n =
                super::super::probe::each_decision(name, options, 150, distance_after_is_distance);
            assert!(n > 10_000, "{name}: {n} discards compared");
        }
    }

    #[test]
    fn flush_cache_answers_as_the_analysis() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let rules = HandRules::STANDARD_ONLY;
        let mut cache = FlushCache::default();
        let mut met = Vec::new();
        for round in 0..5_000 {
            // Now and then a view met before, or a new one from a random hand of 14 tiles.
            let (view, s) = if round % 3 == 2 && !met.is_empty() {
                met[rng.random_range(0..met.len())]
            } else {
                let mut h = TileCounts([0; KINDS]);
                while h.len() < 14 {
                    let i = rng.random_range(0..KINDS);
                    h.0[i] = (h.0[i] + 1).min(4);
                }
                let s = rng.random_range(0..3);
                let Some(v) = flush_view(&h, s) else { continue };
                met.push((v, s));
                (v, s)
            };
            let read = (0x1FFu64 << (9 * s)) | (0x7F << 27);
            let want = analysis::discards::shanten_after_discards_of(&view, &rules, TileSet(read));
            assert_eq!(cache.after(&view, s, &rules, read), want, "{view}");
        }
    }

    #[test]
    fn near_kinds_by_shifts_match_tile_by_tile() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..20_000 {
            let mut h = TileCounts([0; KINDS]);
            for _ in 0..rng.random_range(0..=14) {
                let i = rng.random_range(0..KINDS);
                h.0[i] = (h.0[i] + 1).min(4);
            }
            assert_eq!(near_kinds(&h), near_kinds_by_tile(&h), "{h}");
        }
    }
}

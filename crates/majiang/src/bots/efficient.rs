//! The efficient bot: tile efficiency (shanten, then unseen useful tiles) aimed at the patterns
//! its rule set needs, with a basic defence.
//!
//! How it decides:
//! - **Distance.** A hand's distance is the least, over the *aims* its rule set allows, of the
//!   aim's shanten plus a cost for the fan the aim still lacks. Aims: any hand (the plain
//!   shanten over every winning form), one suit with honours (off-suit number tiles are
//!   counted as dead weight: the shanten of the hand with them swapped for isolated tiles),
//!   and, in Hong Kong, all pungs. Hong Kong's and Yangzhou's minimum fan set the costs: a
//!   Hong Kong hand with no fan source is charged for each fan it lacks (a value pair in hand
//!   or a self-draw can still bring one), Yangzhou's 15 fan are in practice only reached by one
//!   suit (with honours), so other hands cost a lot. Hangzhou and classic have no minimum.
//! - **Discards.** Every discard is scored by distance; the best few then by the number of
//!   useful tiles still unseen (the tiles the bot can see: its hand, every meld, every discard,
//!   the indicator). A wildcard is never discarded, except as a Fortune Gambit when the bot is
//!   in the Bao Tou state, holds a second wildcard, and the wall is long enough: the next draw
//!   then wins at double the score.
//! - **Calls.** A chow or pung is claimed when it lowers the distance (a pung of a value tile
//!   in Hong Kong, or of an honour or terminal in classic, when it does not raise it); a kong
//!   when it does not raise it. A legal win is always taken (unless a Fortune Gambit pays more).
//! - **Defence.** Opponents who may win on the bot's discard are rated by their exposed melds
//!   and how late it is; each discard gets a danger from their discards (the same tile, the
//!   suji tile three away) and the visible copies of honours. Far from ready and facing a
//!   threat, the bot folds (discards the safest tile); otherwise danger only breaks near ties.

use super::Bot;
use crate::analysis::{self, HandRules};
use crate::counts::TileCounts;
use crate::meld::{Meld, MeldKind};
use crate::seat::Seat;
use crate::table::{Action, Observation, RuleSetKind, Ruleset};
use crate::tile::{KINDS, Tile};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Which family of hands the bot aims at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Aim {
    /// Any winning hand (every form the rules allow).
    Any,
    /// One number suit (index 0..3) with honours.
    Flush(u8),
    /// Four pungs (or kongs) and a pair.
    Pungs,
}

/// What the rule set asks of a winning hand, as the bot plans for it.
#[derive(Debug, Clone, Copy)]
struct Goals {
    /// Fewest fan a win needs (0: no minimum).
    min_fan: i32,
    /// Fan the one-suit aim brings by itself.
    flush_fan: i32,
    /// Fan the all-pungs aim brings (0: not an aim here).
    pungs_fan: i32,
    /// Fan of seven pairs (Hong Kong; 0 when seven pairs is not a win).
    seven_pairs_fan: i32,
    /// Value pungs (dragons, seat and round wind) and flowers bring fan (Hong Kong).
    hk_fan: bool,
    /// Yangzhou: small fan rows do not add up to the minimum; only big patterns do.
    big_patterns_only: bool,
    /// Pungs of honours and terminals are worth calling (classic points).
    pung_points: bool,
    /// Flowers are in play.
    flowers: bool,
}

impl Goals {
    fn of(ruleset: &Ruleset) -> Goals {
        let none = Goals {
            min_fan: 0,
            flush_fan: 0,
            pungs_fan: 0,
            seven_pairs_fan: 0,
            hk_fan: false,
            big_patterns_only: false,
            pung_points: false,
            flowers: ruleset.config().flowers,
        };
        match ruleset.kind() {
            RuleSetKind::HongKong(o) => Goals {
                min_fan: o.min_fan as i32,
                flush_fan: 3,
                pungs_fan: 3,
                seven_pairs_fan: o.seven_pairs as i32,
                hk_fan: true,
                ..none
            },
            RuleSetKind::Yangzhou(o) => Goals {
                min_fan: o.min_fan as i32,
                flush_fan: 15,
                big_patterns_only: true,
                ..none
            },
            RuleSetKind::Classic(_) => Goals {
                pung_points: true,
                ..none
            },
            RuleSetKind::Hangzhou(_) => none,
        }
    }

    /// The cost (in shanten steps) of lacking `need` fan.
    fn cost(&self, need: i32, value_pairs: i32) -> i32 {
        if need <= 0 {
            0
        } else if self.big_patterns_only {
            if need <= 2 { need } else { 8 }
        } else {
            // A self-draw or a value pair turned into a pung can each bring a fan.
            (2 * need - 1 - value_pairs.min(need)).max(0)
        }
    }
}

/// The bot's own melds, summarised for planning.
#[derive(Debug, Clone, Copy, Default)]
struct MeldInfo {
    /// Bit `s`: a meld of number suit `s`.
    suits: u8,
    /// A chow among them.
    chow: bool,
    /// Fan they bring for sure (value pungs and kongs).
    fan: i32,
}

/// Everything one decision needs, computed once from the observation.
struct Ctx {
    rules: HandRules,
    /// Unseen copies per kind (from the bot's own view).
    unseen: [u8; KINDS],
    /// Fan of each kind's pung for the bot (Hong Kong: dragons, seat and round wind).
    pung_fan: [u8; KINDS],
    /// Fan the flowers bring.
    flower_fan: i32,
    melds: MeldInfo,
    wild: Option<Tile>,
    /// Danger of each kind as a discard (0 when nobody threatens).
    danger: [f32; KINDS],
    /// Summed threat of the opponents.
    threat: f32,
}

/// Discards and calls by shanten and unseen useful tiles, aiming at what the rule set scores;
/// see the [module documentation](self) for the rules it follows.
#[derive(Debug, Clone)]
pub struct EfficientBot {
    ruleset: Arc<Ruleset>,
    goals: Goals,
    rng: ChaCha8Rng,
}

impl EfficientBot {
    /// An efficient bot for a table under `ruleset`, seeded with `seed` (for breaking ties).
    pub fn new(ruleset: Arc<Ruleset>, seed: u64) -> EfficientBot {
        EfficientBot {
            goals: Goals::of(&ruleset),
            ruleset,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

fn suit_of(i: usize) -> usize {
    if i < 27 { i / 9 } else { 3 }
}

fn meld_tiles(m: &Meld, mut f: impl FnMut(usize, u8)) {
    let i = m.tile.index();
    match m.kind {
        MeldKind::Chow => {
            for k in 0..3 {
                f(i + k, 1);
            }
        }
        MeldKind::Pung => f(i, 3),
        MeldKind::Kong | MeldKind::ConcealedKong => f(i, 4),
    }
}

impl MeldInfo {
    fn add(&mut self, m: &Meld, pung_fan: &[u8; KINDS]) {
        let i = m.tile.index();
        let s = suit_of(i);
        if s < 3 {
            self.suits |= 1 << s;
        }
        if m.kind == MeldKind::Chow {
            self.chow = true;
        } else {
            self.fan += i32::from(pung_fan[i]);
        }
    }
}

/// Shanten of the all-pungs form for a hand of `3k + 1` or `3k + 2` tiles.
fn pungs_shanten(h: &TileCounts) -> i32 {
    let n = h.len();
    let sets = (n / 3) as i32;
    let (mut p, mut q) = (0i32, 0i32);
    for &c in &h.0 {
        if c >= 3 {
            p += 1;
        } else if c == 2 {
            q += 1;
        }
    }
    let p = p.min(sets);
    let free = sets - p;
    if q > 0 {
        2 * free - (q - 1).min(free) - 1
    } else {
        2 * free
    }
}

/// The hand with the number tiles outside suit `s` swapped for isolated tiles (ranks 1, 4, 7
/// of the other suits), or `None` when there are more than six of them.
fn flush_view(h: &TileCounts, s: usize) -> Option<TileCounts> {
    let mut v = *h;
    let mut off = 0usize;
    for o in 0..3 {
        if o == s {
            continue;
        }
        for r in 0..9 {
            off += usize::from(v.0[o * 9 + r]);
            v.0[o * 9 + r] = 0;
        }
    }
    if off > 6 {
        return None;
    }
    let mut slots = (0..3)
        .filter(|&o| o != s)
        .flat_map(|o| [o * 9, o * 9 + 3, o * 9 + 6]);
    for _ in 0..off {
        let i = slots.next()?;
        v.0[i] = 1;
    }
    Some(v)
}

impl EfficientBot {
    fn context(&self, obs: &Observation) -> Ctx {
        let mut unseen = [4u8; KINDS];
        let see = |unseen: &mut [u8; KINDS], i: usize, n: u8| {
            if i < KINDS {
                unseen[i] = unseen[i].saturating_sub(n);
            }
        };
        for (t, n) in obs.concealed.iter() {
            see(&mut unseen, t.index(), n);
        }
        for h in &obs.table {
            for m in &h.melds {
                meld_tiles(m, |i, n| see(&mut unseen, i, n));
            }
            for d in &h.discards {
                if !d.claimed {
                    see(&mut unseen, d.tile.index(), 1);
                }
            }
        }
        if let Some(t) = obs.indicator {
            see(&mut unseen, t.index(), 1);
        }
        let mut pung_fan = [0u8; KINDS];
        let mut flower_fan = 0;
        let me = obs.table.get(obs.player.index());
        if self.goals.hk_fan {
            for d in [Tile::WHITE, Tile::GREEN, Tile::RED] {
                pung_fan[d.index()] = 1;
            }
            if let Some(w) = obs.seat.wind_tile() {
                pung_fan[w.index()] += 1;
            }
            pung_fan[obs.prevailing_wind.tile().index()] += 1;
            if self.goals.flowers {
                if let Some(me) = me {
                    if me.flowers.is_empty() {
                        flower_fan = 1;
                    }
                    for f in &me.flowers {
                        if f.bonus_wind() == obs.seat.wind() {
                            flower_fan += 1;
                        }
                    }
                }
            }
        }
        let mut melds = MeldInfo::default();
        if let Some(me) = me {
            for m in &me.melds {
                melds.add(m, &pung_fan);
            }
        }
        let mut ctx = Ctx {
            rules: self.ruleset.hand_rules(obs.wildcard),
            unseen,
            pung_fan,
            flower_fan,
            melds,
            wild: obs.wildcard,
            danger: [0.0; KINDS],
            threat: 0.0,
        };
        self.assess_danger(obs, &mut ctx);
        ctx
    }

    /// Rates the opponents who may win on the bot's discard, and the danger of each kind.
    fn assess_danger(&self, obs: &Observation, ctx: &mut Ctx) {
        let my_seat = obs.seat;
        let dealer_seat = Seat::East;
        let _ = dealer_seat;
        for h in &obs.table {
            if h.player == obs.player || !self.ruleset.may_win_on_discard(h.seat, my_seat, obs.lao)
            {
                continue;
            }
            let exposed = h.melds.iter().filter(|m| m.from.is_some()).count();
            let mut threat: f32 = match exposed {
                0 => 0.05,
                1 => 0.12,
                2 => 0.3,
                3 => 0.65,
                _ => 0.9,
            };
            let turns = h.discards.len();
            if turns >= 14 {
                threat += 0.3;
            } else if turns >= 10 {
                threat += 0.15;
            }
            let threat = threat.min(1.0);
            if threat < 0.1 {
                continue;
            }
            ctx.threat += threat;
            let mut discarded = [false; KINDS];
            for d in &h.discards {
                if d.tile.index() < KINDS {
                    discarded[d.tile.index()] = true;
                }
            }
            for (i, slot) in ctx.danger.iter_mut().enumerate() {
                let d = if discarded[i] {
                    0.1
                } else if i >= 27 {
                    match 4 - ctx.unseen[i] {
                        0 | 1 => 0.6,
                        2 => 0.3,
                        _ => 0.05,
                    }
                } else {
                    let r = i % 9;
                    let base = match r {
                        0 | 8 => 0.6,
                        1 | 7 => 0.8,
                        _ => 1.0,
                    };
                    let low = r >= 3 && discarded[i - 3];
                    let high = r <= 5 && discarded[i + 3];
                    let suji = match r {
                        0..=2 => high,
                        6..=8 => low,
                        _ => low && high,
                    };
                    if suji { base * 0.45 } else { base }
                };
                *slot += threat * d;
            }
        }
    }

    /// Value pairs and concealed value pungs in `h` (Hong Kong fan that the hand may keep).
    fn hand_value(&self, ctx: &Ctx, h: &TileCounts) -> (i32, i32) {
        if !self.goals.hk_fan {
            return (0, 0);
        }
        let (mut pairs, mut pungs) = (0, 0);
        for i in 27..KINDS {
            let f = i32::from(ctx.pung_fan[i]);
            if f == 0 {
                continue;
            }
            match h.0[i] {
                2 => pairs += f,
                3 | 4 => pungs += f,
                _ => {}
            }
        }
        (pairs, pungs)
    }

    /// The distance of a hand of `3k + 1` tiles (`melds` its melds) and the aim that gives it.
    fn distance(&self, ctx: &Ctx, h: &TileCounts, melds: &MeldInfo) -> (i32, Aim) {
        let g = &self.goals;
        let (pairs, pungs) = self.hand_value(ctx, h);
        let sure = melds.fan + ctx.flower_fan + pungs;
        let forms = analysis::shanten_by_form(h, &ctx.rules);
        let mut best = (
            i32::from(forms.standard) + g.cost(g.min_fan - sure, pairs),
            Aim::Any,
        );
        if let Some(sp) = forms.seven_pairs {
            let c = g.cost(g.min_fan - g.seven_pairs_fan - ctx.flower_fan, 0);
            best.0 = best.0.min(i32::from(sp) + c);
        }
        if let Some(o) = forms.thirteen_orphans {
            best.0 = best.0.min(i32::from(o));
        }
        if g.min_fan <= 0 {
            return best;
        }
        if g.flush_fan > 0 {
            for s in 0..3 {
                if melds.suits & !(1 << s) != 0 {
                    continue;
                }
                let Some(v) = flush_view(h, s) else { continue };
                let d = i32::from(analysis::shanten_by_form(&v, &ctx.rules).standard)
                    + g.cost(g.min_fan - g.flush_fan - sure, pairs);
                if d < best.0 {
                    best = (d, Aim::Flush(s as u8));
                }
            }
        }
        if g.pungs_fan > 0 && !melds.chow {
            let d = pungs_shanten(h) + g.cost(g.min_fan - g.pungs_fan - sure, pairs);
            if d < best.0 {
                best = (d, Aim::Pungs);
            }
        }
        best
    }

    /// Unseen copies of the tiles that bring a hand of `3k + 1` tiles closer under `aim`.
    fn ukeire(&self, ctx: &Ctx, h: &TileCounts, aim: Aim) -> i32 {
        let set = match aim {
            Aim::Any => analysis::useful_tiles(h, &ctx.rules).0,
            Aim::Flush(s) => {
                let s = usize::from(s);
                let Some(v) = flush_view(h, s) else { return 0 };
                let suit_mask: u64 = (0x1FF << (9 * s)) | (0x7F << 27);
                analysis::useful_tiles(&v, &ctx.rules).0 & suit_mask
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

    /// The best discard from a hand of `3k + 2` tiles among `candidates` (kinds), with its
    /// distance. Ties go to a random one of the best.
    fn best_discard(
        &mut self,
        ctx: &Ctx,
        hand: &TileCounts,
        melds: &MeldInfo,
        candidates: &[Tile],
    ) -> Option<(Tile, i32)> {
        let mut dist = [0i32; 16];
        let mut aims = [Aim::Any; 16];
        let cands = &candidates[..candidates.len().min(16)];
        let mut best = i32::MAX;
        for (k, &t) in cands.iter().enumerate() {
            let mut h = *hand;
            h.remove(t);
            let (d, a) = self.distance(ctx, &h, melds);
            dist[k] = d;
            aims[k] = a;
            best = best.min(d);
        }
        if cands.is_empty() {
            return None;
        }
        let fold = ctx.threat >= 0.6 && best >= 2;
        let weight = if fold {
            1000.0
        } else {
            ctx.threat.min(1.0) * (30.0 + 30.0 * best.max(0) as f32)
        };
        let mut top = f32::MIN;
        let mut choice = (cands[0], dist[0]);
        let mut ties = 0u32;
        for (k, &t) in cands.iter().enumerate() {
            let d = dist[k];
            let near = d <= best + i32::from(ctx.threat > 0.0);
            if !near && !fold {
                continue;
            }
            let uke = if d <= best + 1 && !(fold && d > best) {
                let mut h = *hand;
                h.remove(t);
                self.ukeire(ctx, &h, aims[k])
            } else {
                0
            };
            let score = -(d as f32) * 100.0 + uke as f32 - ctx.danger[t.index()] * weight;
            if score > top {
                top = score;
                choice = (t, d);
                ties = 1;
            } else if score == top {
                ties += 1;
                if self.rng.random_range(0..ties) == 0 {
                    choice = (t, d);
                }
            }
        }
        Some(choice)
    }

    fn on_turn(&mut self, obs: &Observation, legal: &[Action]) -> Action {
        let ctx = self.context(obs);
        let hand = obs.concealed;
        if legal.contains(&Action::Win) {
            // A Fortune Gambit instead of the win, when the next draw wins for sure.
            if let Some(w) = ctx.wild {
                let run = obs
                    .table
                    .get(obs.player.index())
                    .map_or(0, |h| h.gambit_run);
                if obs.wildcard_discard_is_gambit
                    && legal.contains(&Action::Discard(w))
                    && run < 3
                    && obs.live_wall > 16
                {
                    return Action::Discard(w);
                }
            }
            return Action::Win;
        }
        let mut cands = [Tile::EAST; 16];
        let mut n = 0;
        for a in legal {
            if let Action::Discard(t) = a {
                if Some(*t) != ctx.wild && n < 16 {
                    cands[n] = *t;
                    n += 1;
                }
            }
        }
        if n == 0 {
            // Only wildcards (or nothing) to discard.
            return legal
                .iter()
                .copied()
                .find(|a| matches!(a, Action::Discard(_)))
                .unwrap_or(legal[0]);
        }
        let Some((discard, dist)) = self.best_discard(&ctx, &hand, &ctx.melds, &cands[..n]) else {
            return legal[0];
        };
        for a in legal {
            match *a {
                Action::ConcealedKong(t) => {
                    let mut h = hand;
                    h.0[t.index()] = 0;
                    let mut m = ctx.melds;
                    m.add(
                        &Meld {
                            kind: MeldKind::ConcealedKong,
                            tile: t,
                            from: None,
                            claimed: None,
                        },
                        &ctx.pung_fan,
                    );
                    if self.distance(&ctx, &h, &m).0 <= dist {
                        return *a;
                    }
                }
                Action::AddedKong(t) => {
                    let mut h = hand;
                    h.remove(t);
                    if self.distance(&ctx, &h, &ctx.melds).0 <= dist && ctx.danger[t.index()] < 0.3
                    {
                        return *a;
                    }
                }
                _ => {}
            }
        }
        Action::Discard(discard)
    }

    fn on_offer(&mut self, obs: &Observation, legal: &[Action]) -> Action {
        if legal.contains(&Action::Win) {
            return Action::Win;
        }
        let Some((_, tile)) = obs.on_offer else {
            return Action::Pass;
        };
        if legal.len() == 1 {
            return legal[0];
        }
        let ctx = self.context(obs);
        let hand = obs.concealed;
        let now = self.distance(&ctx, &hand, &ctx.melds).0;
        let i = tile.index();
        let value = match () {
            _ if self.goals.hk_fan => ctx.pung_fan[i] > 0,
            _ if self.goals.pung_points => tile.is_terminal_or_honor(),
            _ => false,
        };
        let mut best: Option<(Action, i32)> = None;
        let mut cands = [Tile::EAST; 16];
        for a in legal {
            let (kind, start, remove): (MeldKind, Tile, [Option<Tile>; 3]) = match *a {
                Action::Pung => (MeldKind::Pung, tile, [Some(tile), Some(tile), None]),
                Action::Kong => (MeldKind::Kong, tile, [Some(tile), Some(tile), Some(tile)]),
                Action::Chow { tiles } => {
                    let mut rm = [None; 3];
                    let mut k = 0;
                    for t in tiles {
                        if t != tile && k < 2 {
                            rm[k] = Some(t);
                            k += 1;
                        }
                    }
                    (MeldKind::Chow, tiles[0], rm)
                }
                _ => continue,
            };
            let mut h = hand;
            for t in remove.into_iter().flatten() {
                h.remove(t);
            }
            let meld = Meld {
                kind,
                tile: start,
                from: None,
                claimed: Some(tile),
            };
            let mut m = ctx.melds;
            m.add(&meld, &ctx.pung_fan);
            let after = if kind == MeldKind::Kong {
                self.distance(&ctx, &h, &m).0
            } else {
                let mut n = 0;
                for (t, _) in h.iter() {
                    if Some(t) != ctx.wild && n < 16 {
                        cands[n] = t;
                        n += 1;
                    }
                }
                match self.best_discard(&ctx, &h, &m, &cands[..n]) {
                    Some((_, d)) => d,
                    None => continue,
                }
            };
            let take = match kind {
                MeldKind::Kong => after <= now,
                MeldKind::Pung => after < now || (after == now && value),
                _ => after < now,
            };
            if take && best.is_none_or(|(_, d)| after < d) {
                best = Some((*a, after));
            }
        }
        best.map_or(Action::Pass, |(a, _)| a)
    }
}

impl Bot for EfficientBot {
    fn name(&self) -> &'static str {
        "efficient"
    }

    fn act(&mut self, obs: &Observation, legal: &[Action]) -> Action {
        match legal.len() {
            0 => Action::Pass,
            1 => legal[0],
            _ if obs.turn == Some(obs.player) => self.on_turn(obs, legal),
            _ => self.on_offer(obs, legal),
        }
    }
}

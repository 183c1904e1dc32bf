//! Turns: the best discard (distance, looseness, useful tiles, danger; folding when one
//! opponent is clearly ready), concealed and added kongs, the win and the Fortune Gambit.

use super::EfficientBot;
use super::aims::Aim;
use super::context::Ctx;
use super::defence::DANGER_WEIGHT;
use super::evaluation::{AfterDiscards, connectivity};
use super::melds::MeldInfo;
use crate::counts::TileCounts;
use crate::meld::{Meld, MeldKind};
use crate::table::{Action, ExtraWinds, Observation};
use crate::tile::Tile;
use rand::Rng;

impl EfficientBot {
    /// The best discard from a hand of `3k + 2` tiles among `candidates` (kinds), with its
    /// distance. The candidates at the least distance are ranked by how loosely the tile is
    /// connected to the hand; the loosest few are then scored by unseen useful tiles, less
    /// their danger. Ties go to a random one of the best.
    pub(crate) fn best_discard(
        &mut self,
        ctx: &Ctx,
        hand: &TileCounts,
        melds: &MeldInfo,
        candidates: &[Tile],
    ) -> Option<(Tile, i32)> {
        const MAX: usize = 16;
        const UKEIRE_FOR: usize = 2;
        const LOOSER_BY: i32 = 2;
        let cands = &candidates[..candidates.len().min(MAX)];
        if cands.is_empty() {
            return None;
        }
        let mut dist = [0i32; MAX];
        let mut aims = [Aim::Any; MAX];
        let mut best = i32::MAX;
        let mut pre = AfterDiscards::new(self, ctx, hand, melds);
        // The one-suit views of the last turns, lent for this one.
        pre.views = self.flush_views.take();
        for (k, &t) in cands.iter().enumerate() {
            let (d, a) = self.distance_after(ctx, hand, t, &mut pre);
            dist[k] = d;
            aims[k] = a;
            best = best.min(d);
        }
        self.flush_views = pre.views;
        // Folding costs more wins than it saves chips unless one opponent is clearly ready
        // and the bot is far from it (measured against the bot without defence).
        let fold = ctx.max_threat >= 0.85 && best >= 3;
        if fold {
            // Safest first, then the closest hand.
            let mut choice = 0;
            for k in 1..cands.len() {
                let (a, b) = (
                    ctx.danger(cands[k].index()),
                    ctx.danger(cands[choice].index()),
                );
                if a < b || (a == b && dist[k] < dist[choice]) {
                    choice = k;
                }
            }
            return Some((cands[choice], dist[choice]));
        }
        // The loosest candidates at the least distance (or one above it when someone threatens).
        let slack = i32::from(ctx.max_threat >= 0.5);
        let mut order: [(i32, usize); MAX] = [(i32::MAX, 0); MAX];
        let mut m = 0;
        for (k, &t) in cands.iter().enumerate() {
            if dist[k] <= best + slack {
                let mut c = connectivity(hand, t, ctx.wild);
                if let Aim::Flush(s) = aims[k] {
                    // Off the aimed suit: dead weight, whatever its neighbours.
                    if t.index() < 27 && t.index() / 9 != usize::from(s) {
                        c -= 20;
                    }
                }
                // A value honour (Hong Kong) may still become a pung worth a fan: keep it a
                // little longer (measured: +0.27 chips a hand against the bot without this).
                c += 3 * i32::from(ctx.pung_fan[t.index()]);
                order[m] = (dist[k] * 100 + c, k);
                m += 1;
            }
        }
        let order = &mut order[..m];
        order.sort_unstable();
        // One candidate, or a clearly loosest one while no opponent looks ready: no need to
        // count useful tiles.
        if m == 1 || (slack == 0 && order[1].0 - order[0].0 >= LOOSER_BY) {
            return Some((cands[order[0].1], dist[order[0].1]));
        }
        let weight = ctx.threat.min(1.0) * DANGER_WEIGHT;
        let mut top = f32::MIN;
        let mut choice = (cands[order[0].1], dist[order[0].1]);
        let mut ties = 0u32;
        for &(_, k) in order.iter().take(UKEIRE_FOR) {
            let t = cands[k];
            let mut h = *hand;
            h.remove(t);
            let uke = self.ukeire(ctx, &h, aims[k]);
            let score = -(dist[k] as f32) * 100.0 + uke as f32 - ctx.danger(t.index()) * weight;
            if score > top {
                top = score;
                choice = (t, dist[k]);
                ties = 1;
            } else if score == top {
                ties += 1;
                if self.rng.random_range(0..ties) == 0 {
                    choice = (t, dist[k]);
                }
            }
        }
        Some(choice)
    }

    pub(crate) fn on_turn(&mut self, obs: &Observation, legal: &[Action]) -> Action {
        let ctx = self.context(obs, true);
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
                            extra_winds: ExtraWinds::EMPTY,
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
                    if self.distance(&ctx, &h, &ctx.melds).0 <= dist && ctx.danger(t.index()) < 0.3
                    {
                        return *a;
                    }
                }
                _ => {}
            }
        }
        // The offers until the next turn ask for the distance of the hand this leaves.
        let mut h = hand;
        h.remove(discard);
        self.remember_distance(&ctx, &h, dist);
        Action::Discard(discard)
    }
}

//! What other bots reuse of the efficient bot's judgement: the distance of each discard and a
//! quick discard choice (least distance, loosest tile, no useful-tile count, no defence), for
//! one seat's observation. The expert bot ranks its candidates and plays its playouts with it.

use super::EfficientBot;
use super::context::Ctx;
use super::evaluation::{AfterDiscards, connectivity};
use crate::counts::TileCounts;
use crate::table::{Observation, TableRules};
use crate::tile::Tile;
use std::sync::Arc;

/// The efficient bot's view of one seat's hand, worked out once from an observation and then
/// asked about hands that grow and shrink from it (the seat's melds stay as observed).
pub(crate) struct Planner {
    bot: EfficientBot,
    ctx: Ctx,
}

impl Planner {
    /// The planner for the seat `obs` describes, under `ruleset`. At a table with extra winds
    /// it plans on the view the efficient bot's ordinary decisions see (`clean_view`).
    pub(crate) fn new(ruleset: Arc<TableRules>, obs: &Observation) -> Planner {
        let bot = EfficientBot::new(ruleset, 0).without_defence();
        let ctx = if super::involves_extra_winds(obs, &[]) {
            bot.context(&super::clean_view(obs), false)
        } else {
            bot.context(obs, false)
        };
        Planner { bot, ctx }
    }

    /// Every kind `hand` (`3k + 2` tiles) may discard (wildcards kept), with its distance
    /// after the discard and its looseness: closest first, loosest first among equals.
    pub(crate) fn ranked_discards(&self, hand: &TileCounts) -> Vec<(Tile, i32)> {
        let mut pre = AfterDiscards::new(&self.bot, &self.ctx, hand, &self.ctx.melds);
        let mut out: Vec<(i32, i32, Tile)> = Vec::with_capacity(14);
        for (t, _) in hand.iter() {
            if Some(t) == self.ctx.wild {
                continue;
            }
            let (d, _) = self.bot.distance_after(&self.ctx, hand, t, &mut pre);
            out.push((d, connectivity(hand, t, self.ctx.wild), t));
        }
        out.sort_unstable_by_key(|&(d, c, t)| (d, c, t.index()));
        out.into_iter().map(|(d, _, t)| (t, d)).collect()
    }

    /// The quick discard from `hand` (`3k + 2` tiles): the loosest of the closest; `None`
    /// when only wildcards are left.
    pub(crate) fn quick_discard(&self, hand: &TileCounts) -> Option<Tile> {
        let mut pre = AfterDiscards::new(&self.bot, &self.ctx, hand, &self.ctx.melds);
        let mut best: Option<(i32, i32, Tile)> = None;
        for (t, _) in hand.iter() {
            if Some(t) == self.ctx.wild {
                continue;
            }
            let (d, _) = self.bot.distance_after(&self.ctx, hand, t, &mut pre);
            let key = (d, connectivity(hand, t, self.ctx.wild), t);
            if best.is_none_or(|b| (key.0, key.1) < (b.0, b.1)) {
                best = Some(key);
            }
        }
        best.map(|b| b.2)
    }
}

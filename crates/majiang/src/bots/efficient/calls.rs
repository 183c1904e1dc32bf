//! Calls: whether to claim a discard (chow, pung, kong) by the distance it leaves.

use super::EfficientBot;
use super::context::Ctx;
use super::melds::MeldInfo;
use crate::counts::TileCounts;
use crate::meld::{Meld, MeldKind};
use crate::table::{Action, ExtraWinds, Observation};
use crate::tile::Tile;

/// The hand a claim of `tile` by `action` (a chow, pung or kong) leaves: the meld's kind, the
/// concealed tiles without those it takes, and the melds with it. `None` for other actions.
pub(crate) fn claimed_hand(
    ctx: &Ctx,
    hand: &TileCounts,
    tile: Tile,
    action: Action,
) -> Option<(MeldKind, TileCounts, MeldInfo)> {
    let (kind, start, remove): (MeldKind, Tile, [Option<Tile>; 3]) = match action {
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
        _ => return None,
    };
    let mut h = *hand;
    for t in remove.into_iter().flatten() {
        h.remove(t);
    }
    let meld = Meld {
        kind,
        tile: start,
        from: None,
        claimed: Some(tile),
        extra_winds: ExtraWinds::EMPTY,
    };
    let mut m = ctx.melds;
    m.add(&meld, &ctx.pung_fan);
    Some((kind, h, m))
}

impl EfficientBot {
    pub(crate) fn on_offer(&mut self, obs: &Observation, legal: &[Action]) -> Action {
        if legal.contains(&Action::Win) {
            return Action::Win;
        }
        let Some((_, tile)) = obs.on_offer else {
            return Action::Pass;
        };
        if legal.len() == 1 {
            return legal[0];
        }
        let ctx = self.context(obs, false);
        let hand = obs.concealed;
        let now = self.distance_remembered(&ctx, &hand);
        // Ready: a chow or pung would only break the wait (a kong keeps it and draws again).
        let ready = now <= 0;
        let i = tile.index();
        let value = match () {
            _ if self.goals.hk_fan => ctx.pung_fan[i] > 0,
            _ if self.goals.pung_points => tile.is_terminal_or_honor(),
            _ => false,
        };
        let mut best: Option<(Action, i32)> = None;
        for a in legal {
            let Some((kind, h, m)) = claimed_hand(&ctx, &hand, tile, *a) else {
                continue;
            };
            if ready && kind != MeldKind::Kong {
                continue;
            }
            let after = if kind == MeldKind::Kong {
                self.distance(&ctx, &h, &m).0
            } else {
                let enough = if kind == MeldKind::Pung && value {
                    now
                } else {
                    now - 1
                };
                // A claim that leaves nothing within `enough` is not taken: passed on its
                // bound without judging each discard.
                if self.claim_bound(&ctx, &h, &m, enough) > enough {
                    continue;
                }
                match self.min_distance_remembered(&ctx, &h, &m, enough) {
                    Some(d) => d,
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

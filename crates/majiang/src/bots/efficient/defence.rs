//! Defence: how threatening each opponent who may win on the bot's discard looks, and the
//! danger of each kind as a discard.

use super::EfficientBot;
use super::context::{Ctx, Threat};
use crate::meld::{Meld, MeldKind};
use crate::table::Observation;
use crate::tile::KINDS;

/// How many useful tiles one unit of danger is worth when choosing among near-equal discards.
pub(crate) const DANGER_WEIGHT: f32 = 5.0;

impl EfficientBot {
    /// Rates the opponents who may win on the bot's discard, and keeps what the danger of
    /// each kind is read from ([`Ctx::danger`]).
    pub(crate) fn assess_danger(&self, obs: &Observation, ctx: &mut Ctx) {
        let my_seat = obs.seat;
        for h in &obs.table {
            if h.player == obs.player || !self.ruleset.may_win_on_discard(h.seat, my_seat, obs.lao)
            {
                continue;
            }
            let exposed = h.melds.iter().filter(|m| m.from.is_some()).count();
            let mut threat: f32 = match exposed {
                0 => 0.03,
                1 => 0.08,
                2 => 0.25,
                3 => 0.55,
                _ => 0.85,
            };
            let turns = h.discards.len();
            if turns >= 16 {
                threat += 0.2;
            } else if turns >= 12 {
                threat += 0.1;
            }
            if self.goals.min_fan >= 3 && !self.melds_can_score(&h.melds) {
                // Open melds of two suits and no value pung: hardly a hand that scores.
                threat *= 0.2;
            }
            let threat = threat.min(1.0);
            if threat < 0.1 {
                continue;
            }
            ctx.max_threat = ctx.max_threat.max(threat);
            ctx.threat += threat;
            let mut discarded = 0u64;
            let mut per_suit = [0u32; 3];
            for d in &h.discards {
                let i = d.tile.index();
                if i < KINDS {
                    discarded |= 1 << i;
                    if i < 27 {
                        per_suit[i / 9] += 1;
                    }
                }
            }
            // Where a win needs one suit, the suits they do not collect are safe-ish: those
            // outside their melds' suit, or those they discard a lot.
            let mut suit_factor = [1.0f32; 3];
            if self.goals.min_fan >= 3 {
                let (off, heavy) = if self.goals.big_patterns_only {
                    (0.05, 0.3)
                } else {
                    (0.4, 0.8)
                };
                let mut melded = 0u8;
                for m in &h.melds {
                    if m.tile.index() < 27 {
                        melded |= 1 << (m.tile.index() / 9);
                    }
                }
                let total: u32 = per_suit.iter().sum();
                for (s, f) in suit_factor.iter_mut().enumerate() {
                    if melded.count_ones() == 1 && melded & (1 << s) == 0 {
                        *f = off;
                    } else if melded == 0 && total >= 4 && 3 * per_suit[s] >= total {
                        *f = heavy;
                    }
                }
            }
            if let Some(slot) = ctx.threats.get_mut(ctx.n_threats) {
                *slot = Threat {
                    threat,
                    discarded,
                    suit_factor,
                };
                ctx.n_threats += 1;
            }
        }
    }

    /// Whether an opponent's melds leave room for the minimum fan: all of one number suit
    /// (with honours), or a value pung among them (Hong Kong).
    pub(crate) fn melds_can_score(&self, melds: &[Meld]) -> bool {
        let mut suits = 0u8;
        for m in melds {
            let i = m.tile.index();
            if i < 27 {
                suits |= 1 << (i / 9);
            } else if self.goals.hk_fan && m.kind != MeldKind::Chow && i < KINDS {
                // Their seat wind may differ from ours: count any wind or dragon pung.
                return true;
            }
        }
        suits.count_ones() <= 1
    }
}

impl Threat {
    /// The danger of kind `i` as a discard to this opponent (`unseen`: the bot's unseen
    /// copies), before weighing by the threat.
    pub(crate) fn danger_of(&self, i: usize, unseen: &[u8; KINDS]) -> f32 {
        if self.discarded >> i & 1 != 0 {
            0.1
        } else if i >= 27 {
            match 4 - unseen[i] {
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
            let low = r >= 3 && self.discarded >> (i - 3) & 1 != 0;
            let high = r <= 5 && self.discarded >> (i + 3) & 1 != 0;
            let suji = match r {
                0..=2 => high,
                6..=8 => low,
                _ => low && high,
            };
            self.suit_factor[i / 9] * if suji { base * 0.45 } else { base }
        }
    }
}

//! What one decision knows, worked out once from the observation: the hand rules, unseen
//! tiles, the value of each pung, the bot's own melds and the danger of each discard.

use super::EfficientBot;
use super::melds::{MeldInfo, meld_tiles};
use crate::analysis::HandRules;
use crate::table::Observation;
use crate::tile::{KINDS, Tile};

/// Everything one decision needs, computed once from the observation.
pub(crate) struct Ctx {
    pub(crate) rules: HandRules,
    /// The same without seven pairs and thirteen orphans.
    pub(crate) std_rules: HandRules,
    /// Unseen copies per kind (from the bot's own view; counted on the bot's turn only).
    pub(crate) unseen: [u8; KINDS],
    /// Fan of each kind's pung for the bot (Hong Kong: dragons, seat and round wind).
    pub(crate) pung_fan: [u8; KINDS],
    /// Fan the flowers bring.
    pub(crate) flower_fan: i32,
    pub(crate) melds: MeldInfo,
    pub(crate) wild: Option<Tile>,
    /// The opponents who threaten (the first `n_threats`, in seat order): each kind's danger
    /// is read from them when asked ([`Ctx::danger`]), not worked out for every kind.
    pub(crate) threats: [Threat; 5],
    pub(crate) n_threats: usize,
    /// Summed threat of the opponents.
    pub(crate) threat: f32,
    /// The greatest threat of one opponent.
    pub(crate) max_threat: f32,
}

/// One opponent who may win on the bot's discard and looks like a threat: what the danger of
/// a discard to them is read from.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Threat {
    /// How threatening they look (0.1–1).
    pub(crate) threat: f32,
    /// Bit per kind: the kinds they discarded.
    pub(crate) discarded: u64,
    /// Per number suit: how much a discard of it counts (suits they do not collect less).
    pub(crate) suit_factor: [f32; 3],
}

impl Ctx {
    /// Danger of kind `i` as a discard (0 when nobody threatens): each threatening opponent's
    /// danger weighed by their threat, summed in seat order.
    pub(crate) fn danger(&self, i: usize) -> f32 {
        let mut sum = 0.0f32;
        for t in &self.threats[..self.n_threats] {
            sum += t.threat * t.danger_of(i, &self.unseen);
        }
        sum
    }
}

impl EfficientBot {
    pub(crate) fn context(&self, obs: &Observation, with_danger: bool) -> Ctx {
        let mut unseen = [4u8; KINDS];
        let see = |unseen: &mut [u8; KINDS], i: usize, n: u8| {
            if i < KINDS {
                unseen[i] = unseen[i].saturating_sub(n);
            }
        };
        // Calls are judged by distance alone: only turns count unseen tiles.
        if with_danger {
            for (u, &n) in unseen.iter_mut().zip(&obs.concealed.0) {
                *u = u.saturating_sub(n);
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
        let rules = self.ruleset.hand_rules(obs.wildcard);
        let mut ctx = Ctx {
            rules,
            std_rules: HandRules {
                seven_pairs: false,
                thirteen_orphans: false,
                ..rules
            },
            unseen,
            pung_fan,
            flower_fan,
            melds,
            wild: obs.wildcard,
            threats: [Threat::default(); 5],
            n_threats: 0,
            threat: 0.0,
            max_threat: 0.0,
        };
        if with_danger && self.defence {
            self.assess_danger(obs, &mut ctx);
        }
        ctx
    }
}

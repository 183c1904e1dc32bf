//! Rule-set aims: the families of hands the bot aims at, what the rule set asks of a win
//! (minimum fan and its cost), and the *distance* of a hand: the least, over the aims, of the
//! aim's shanten plus the cost of the fan it lacks.

use super::EfficientBot;
use super::context::Ctx;
use super::melds::MeldInfo;
use crate::analysis;
use crate::counts::TileCounts;
use crate::table::TableRules;
use crate::tile::KINDS;

/// Which family of hands the bot aims at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Aim {
    /// Any winning hand (every form the rules allow).
    Any,
    /// One number suit (index 0..3) with honours.
    Flush(u8),
    /// Four pungs (or kongs) and a pair.
    Pungs,
}

/// What the rule set asks of a winning hand, as the bot plans for it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Goals {
    /// Fewest fan a win needs (0: no minimum).
    pub(crate) min_fan: i32,
    /// Fan the one-suit aim brings by itself.
    pub(crate) flush_fan: i32,
    /// Fan the all-pungs aim brings (0: not an aim here).
    pub(crate) pungs_fan: i32,
    /// Fan of seven pairs (Hong Kong; 0 when seven pairs is not a win).
    pub(crate) seven_pairs_fan: i32,
    /// Value pungs (dragons, seat and round wind) and flowers bring fan (Hong Kong).
    pub(crate) hk_fan: bool,
    /// Yangzhou: small fan rows do not add up to the minimum; only big patterns do.
    pub(crate) big_patterns_only: bool,
    /// Pungs of honours and terminals are worth calling (classic points).
    pub(crate) pung_points: bool,
    /// Flowers are in play.
    pub(crate) flowers: bool,
}

impl Goals {
    pub(crate) fn of(ruleset: &TableRules) -> Goals {
        let aims = ruleset.set().aims();
        Goals {
            min_fan: aims.min_fan,
            flush_fan: aims.flush_fan,
            pungs_fan: aims.pungs_fan,
            seven_pairs_fan: aims.seven_pairs_fan,
            hk_fan: aims.value_honour_fan,
            big_patterns_only: aims.big_patterns_only,
            pung_points: aims.pung_points,
            flowers: ruleset.config().flowers,
        }
    }

    /// The cost (in shanten steps) of lacking `need` fan.
    pub(crate) fn cost(&self, need: i32, value_pairs: i32) -> i32 {
        if need <= 0 {
            0
        } else if self.big_patterns_only {
            if need <= 2 { need } else { 8 }
        } else {
            // One step per fan lacking; a value pair (half a pung) already halfway there.
            // (Measured: steeper costs win fewer hands.)
            (need - value_pairs.min(need) / 2).max(0)
        }
    }
}

/// Shanten of the all-pungs form for a hand of `3k + 1` or `3k + 2` tiles.
pub(crate) fn pungs_shanten(h: &TileCounts) -> i32 {
    let (mut p, mut q) = (0i32, 0i32);
    for &c in &h.0 {
        if c >= 3 {
            p += 1;
        } else if c == 2 {
            q += 1;
        }
    }
    pungs_shanten_of(h.len(), p, q)
}

/// [`pungs_shanten`] of a hand of `n` tiles with `p` kinds held three or four times and `q`
/// held twice.
pub(crate) fn pungs_shanten_of(n: usize, p: i32, q: i32) -> i32 {
    let sets = (n / 3) as i32;
    let p = p.min(sets);
    let free = sets - p;
    if q > 0 {
        2 * free - (q - 1).min(free) - 1
    } else {
        2 * free
    }
}

/// What the distance needs of a hand besides its shanten and its aims' costs: number tiles per
/// suit and the all-pungs shanten.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Shape {
    pub(crate) per_suit: [i32; 3],
    pub(crate) pungs: i32,
}

/// What each aim of one hand pays (in shanten steps) for the fan it lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AimCosts {
    /// Any hand (sets and a pair).
    pub(crate) any: i32,
    /// Seven pairs.
    pub(crate) seven_pairs: i32,
    /// One suit with honours.
    pub(crate) flush: i32,
    /// All pungs.
    pub(crate) pungs: i32,
}

impl Goals {
    /// The costs of the aims of a hand with `melds`, under the context's flowers, holding
    /// `value` (its value pairs and concealed value pungs, as [`EfficientBot::hand_value`]).
    pub(crate) fn costs(&self, ctx: &Ctx, melds: &MeldInfo, value: (i32, i32)) -> AimCosts {
        let (pairs, pungs) = value;
        let sure = melds.fan + ctx.flower_fan + pungs;
        AimCosts {
            any: self.cost(self.min_fan - sure, pairs),
            seven_pairs: self.cost(self.min_fan - self.seven_pairs_fan - ctx.flower_fan, 0),
            flush: self.cost(self.min_fan - self.flush_fan - sure, pairs),
            pungs: self.cost(self.min_fan - self.pungs_fan - sure, pairs),
        }
    }
}

/// The hand with the number tiles outside suit `s` swapped for isolated tiles (ranks 1, 4, 7
/// of the other suits), or `None` when there are more than six of them.
pub(crate) fn flush_view(h: &TileCounts, s: usize) -> Option<TileCounts> {
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
    /// Value pairs and concealed value pungs in `h` (Hong Kong fan that the hand may keep).
    pub(crate) fn hand_value(&self, ctx: &Ctx, h: &TileCounts) -> (i32, i32) {
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
    pub(crate) fn distance(&self, ctx: &Ctx, h: &TileCounts, melds: &MeldInfo) -> (i32, Aim) {
        let forms = analysis::shanten_by_form(h, &ctx.rules);
        let costs = self.goals.costs(ctx, melds, self.hand_value(ctx, h));
        let mut per_suit = [0i32; 3];
        for (i, &c) in h.0[..27].iter().enumerate() {
            per_suit[i / 9] += i32::from(c);
        }
        let shape = Shape {
            per_suit,
            pungs: pungs_shanten(h),
        };
        self.distance_with(shape, costs, melds, forms, |s| {
            flush_view(h, s).map(|v| analysis::shanten(&v, &ctx.std_rules))
        })
    }

    /// The distance of a hand of `3k + 1` tiles given its shape, its aims' costs, its shanten
    /// by form, and `flush(s)`: the shanten of its one-suit view for suit `s` (`None` when
    /// there is no such view).
    pub(crate) fn distance_with(
        &self,
        shape: Shape,
        costs: AimCosts,
        melds: &MeldInfo,
        forms: analysis::ShantenByForm,
        mut flush: impl FnMut(usize) -> Option<i8>,
    ) -> (i32, Aim) {
        let g = &self.goals;
        let mut best = (i32::from(forms.standard) + costs.any, Aim::Any);
        if let Some(sp) = forms.seven_pairs {
            best.0 = best.0.min(i32::from(sp) + costs.seven_pairs);
        }
        if let Some(o) = forms.thirteen_orphans {
            best.0 = best.0.min(i32::from(o));
        }
        if g.min_fan <= 0 {
            return best;
        }
        if g.flush_fan > 0 {
            let per_suit = shape.per_suit;
            let numbered: i32 = per_suit.iter().sum();
            let cost = costs.flush;
            for (s, &in_suit) in per_suit.iter().enumerate() {
                // Off-suit tiles are dead weight: all but one must be replaced.
                let off = numbered - in_suit;
                if melds.suits & !(1 << s) != 0 || off - 2 + cost >= best.0 {
                    continue;
                }
                let Some(sh) = flush(s) else { continue };
                let d = i32::from(sh) + cost;
                if d < best.0 {
                    best = (d, Aim::Flush(s as u8));
                }
            }
        }
        if g.pungs_fan > 0 && !melds.chow {
            let d = shape.pungs + costs.pungs;
            if d < best.0 {
                best = (d, Aim::Pungs);
            }
        }
        best
    }
}

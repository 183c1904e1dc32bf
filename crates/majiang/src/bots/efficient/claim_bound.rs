//! A lower bound on the distance a chow or pung can leave, so that most claims are passed
//! without judging each discard after them.
//!
//! After a claim the concealed hand `h` has `3k + 2` tiles and the bot discards one. Every
//! aim's part of the distance has a bound no discard can beat:
//! - the standard shanten of `h` less any tile is at least that of `h` (a tile less never
//!   brings a hand closer);
//! - the one-suit view of `h` less any tile is the view of `h` less one tile (an off-suit
//!   discard takes the view's last stand-in), so its shanten is at least the view's; with
//!   seven tiles off the suit only an off-suit discard leaves a view (six stand-ins), and
//!   with more none does;
//! - the all-pungs shanten after a discard depends only on the count of the kind discarded
//!   (one, two, three or four), so its least is the least over the counts held;
//! - a discard raises no value pung and at most turns each value pung into a pair, so the
//!   costs of the fan lacking are at least those of `h` with its value pungs counted as
//!   pairs too (costs fall as pungs and pairs rise).
//!
//! Seven pairs and thirteen orphans need 13 or 14 concealed tiles: after a claim they are out.

use super::EfficientBot;
use super::aims::flush_view;
use super::context::Ctx;
use super::melds::MeldInfo;
use crate::analysis;
use crate::counts::TileCounts;
use crate::tile::KINDS;

impl EfficientBot {
    /// A bound no discard from `h` (`3k + 2` tiles: the hand once a chow or pung is claimed,
    /// `melds` with its meld) goes below in distance. Worked out aim by aim only until it is
    /// within `enough`: a bound within `enough` may be above the least over every aim.
    pub(crate) fn claim_bound(
        &self,
        ctx: &Ctx,
        h: &TileCounts,
        melds: &MeldInfo,
        enough: i32,
    ) -> i32 {
        let g = &self.goals;
        let (pairs, pungs) = self.hand_value(ctx, h);
        let costs = g.costs(ctx, melds, (pairs + pungs, pungs));
        let standard = analysis::shanten_by_form(h, &ctx.rules).standard;
        let mut bound = i32::from(standard) + costs.any;
        if bound <= enough || g.min_fan <= 0 {
            return bound;
        }
        if g.pungs_fan > 0 && !melds.chow {
            bound = bound.min(least_pungs_shanten(h) + costs.pungs);
            if bound <= enough {
                return bound;
            }
        }
        if g.flush_fan > 0 {
            for s in 0..3 {
                if melds.suits & !(1 << s) != 0 {
                    continue;
                }
                let Some(v) = flush_view(h, s).or_else(|| seven_off_view(h, s)) else {
                    // Eight off-suit tiles or more: no discard leaves a view.
                    continue;
                };
                let sh = analysis::shanten(&v, &ctx.std_rules);
                bound = bound.min(i32::from(sh) + costs.flush);
                if bound <= enough {
                    return bound;
                }
            }
        }
        bound
    }
}

/// With seven number tiles off suit `s`, the one view of `h` less one tile there is: that of
/// an off-suit discard (any of them, as each leaves six stand-ins).
fn seven_off_view(h: &TileCounts, s: usize) -> Option<TileCounts> {
    let off = (0..27).find(|&i| i / 9 != s && h.0[i] > 0)?;
    let mut less = *h;
    less.0[off] -= 1;
    flush_view(&less, s)
}

/// The least all-pungs shanten of `h` (`3k + 2` tiles) less one tile of a kind it holds.
fn least_pungs_shanten(h: &TileCounts) -> i32 {
    let (mut p, mut q) = (0i32, 0i32);
    // Whether a discard may leave the counts as they are (a single, or one of four), break a
    // pair, or break a pung into a pair.
    let (mut same, mut pair, mut pung) = (false, false, false);
    for &c in &h.0[..KINDS] {
        p += i32::from(c >= 3);
        q += i32::from(c == 2);
        match c {
            0 => {}
            2 => pair = true,
            3 => pung = true,
            _ => same = true,
        }
    }
    let n = h.len() - 1;
    let of = |p, q| super::aims::pungs_shanten_of(n, p, q);
    let mut least = i32::MAX;
    if same {
        least = least.min(of(p, q));
    }
    if pair {
        least = least.min(of(p, q - 1));
    }
    if pung {
        least = least.min(of(p - 1, q + 1));
    }
    least
}

#[cfg(test)]
mod tests {
    use super::super::EfficientBot;
    use super::super::calls::claimed_hand;
    use super::super::probe;
    use crate::meld::MeldKind;
    use crate::table::{Action, Observation};
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Claims whose bound alone passes them (beyond `now - 1`), and claims whose least
    /// distance is beyond `now - 1` (so that a chow or a pung of no value is not taken).
    static PASSED: AtomicUsize = AtomicUsize::new(0);
    static FAR: AtomicUsize = AtomicUsize::new(0);

    /// For every chow and pung offered: the bound is at most the least distance over every
    /// discard after the claim.
    fn bound_is_below_least_distance(
        bot: &mut EfficientBot,
        obs: &Observation,
        legal: &[Action],
    ) -> usize {
        let Some((_, tile)) = obs.on_offer else {
            return 0;
        };
        if obs.turn == Some(obs.player) || super::super::involves_extra_winds(obs, legal) {
            return 0;
        }
        let ctx = bot.context(obs, false);
        let now = bot.distance(&ctx, &obs.concealed, &ctx.melds).0;
        let mut n = 0;
        for a in legal {
            let Some((kind, h, m)) = claimed_hand(&ctx, &obs.concealed, tile, *a) else {
                continue;
            };
            if kind == MeldKind::Kong {
                continue;
            }
            let Some(least) = bot.min_distance(&ctx, &h, &m, i32::MIN) else {
                continue;
            };
            let bound = bot.claim_bound(&ctx, &h, &m, i32::MIN);
            assert!(
                bound <= least,
                "{h} after {a}: bound {bound}, least {least}"
            );
            // Within `enough` the bound may stop early, but never above the full bound.
            for enough in [now - 1, now] {
                let early = bot.claim_bound(&ctx, &h, &m, enough);
                assert!(early >= bound && (early <= enough) == (bound <= enough));
            }
            if bound > now - 1 {
                PASSED.fetch_add(1, Ordering::Relaxed);
            }
            if least > now - 1 {
                FAR.fetch_add(1, Ordering::Relaxed);
            }
            n += 1;
        }
        n
    }

    #[test]
    fn claim_bound_never_exceeds_the_least_distance() {
        for (name, options) in probe::tables() {
            PASSED.store(0, Ordering::Relaxed);
            FAR.store(0, Ordering::Relaxed);
            let n = probe::each_decision(name, options.clone(), 300, bound_is_below_least_distance);
            let passed = PASSED.load(Ordering::Relaxed);
            let far = FAR.load(Ordering::Relaxed);
            assert!(n > 300, "{name}: {n} claims compared");
            // The bound is worth having: it passes most claims not worth taking on its own.
            assert!(
                10 * passed >= 8 * far,
                "{name} {options}: of {n} claims, {far} not worth taking, {passed} passed on the bound"
            );
        }
    }
}

//! Declining a self-drawn win for Bao Tou (爆头), where the rule set has the Fortune Gambit's
//! wildcards (Hangzhou).
//!
//! A self-drawn win whose pair is a wildcard (财神) and one other tile `x` can be turned down:
//! discarding `x` leaves complete sets and a lone wildcard, so *any* next draw wins, as Bao Tou
//! (×2). The cost is the other seats' draws in between, any of which may be their own win. The
//! efficient bot always takes the win; the expert plays the decline out in the same sampled
//! worlds as its discards (opponents ready as often as their melds and discards suggest) and
//! turns the win down only when the playouts' mean payment beats the win in hand by more than
//! [`super::OVERRULE_BY`] standard errors.

use super::playout::Table;
use super::world;
use crate::analysis;
use crate::table::{Action, Observation, TableRules};
use crate::tile::Tile;
use rand_chacha::ChaCha8Rng;

/// What the Bao Tou search found: the discard to play (`None`: take the win). A review values
/// the declines again in the same worlds (`alternatives::value_all` from the same generator).
pub(crate) struct Declines {
    /// The discard that turns the win down, when the playouts say it pays more.
    pub(crate) choice: Option<Tile>,
}

/// Searches the discards that turn down the win in hand for a Bao Tou wait; `None` when the
/// hand has no such win (no wildcard, nothing drawn, a win the rule set refuses).
pub(crate) fn declines(
    table: &Table<'_>,
    ruleset: &TableRules,
    obs: &Observation,
    legal: &[Action],
    rollouts: u32,
    rng: &mut ChaCha8Rng,
) -> Option<Declines> {
    let wild = obs.wildcard?;
    let drawn = obs.drawn?;
    let hand = obs.concealed;
    let mut before = hand;
    before.remove(drawn);
    let me = obs.player.index();
    let nobody = world::World::nobody(obs.table.len());
    let win_now = table.score(&nobody, me, &hand, &before, drawn, None)?;
    let candidates: Vec<Tile> = hand
        .iter()
        .map(|(t, _)| t)
        .filter(|&t| t != wild && legal.contains(&Action::Discard(t)))
        .filter(|&t| {
            let mut h = hand;
            h.remove(t);
            analysis::lone_wildcard_wait(&h, &table.rules)
        })
        .collect();
    let mut best: Option<(Tile, f64)> = None;
    // Every candidate in the same worlds, drawn one after another as a review's valuing of
    // all the alternatives draws them (`alternatives::value_all` from the same generator).
    let mut payments = vec![Vec::with_capacity(rollouts as usize); candidates.len()];
    if !candidates.is_empty() {
        for _ in 0..rollouts.max(2) {
            let w = world::sample(ruleset, obs, rng, |q, h| table.pays(q, h));
            for (k, &x) in candidates.iter().enumerate() {
                payments[k].push(table.playout(&w, &hand, x));
            }
        }
    }
    for (x, payments) in candidates.into_iter().zip(payments) {
        let e = super::Estimate::of(&payments);
        let margin = e.mean - super::OVERRULE_BY * e.se - win_now as f64;
        if margin > 0.0 && best.is_none_or(|(_, m)| margin > m) {
            best = Some((x, margin));
        }
    }
    Some(Declines {
        choice: best.map(|(x, _)| x),
    })
}

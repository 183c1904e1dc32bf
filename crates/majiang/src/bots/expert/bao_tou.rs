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
use crate::table::{Action, Observation, Ruleset};
use crate::tile::Tile;
use rand_chacha::ChaCha8Rng;

/// What the Bao Tou search found: each declining discard with its
/// payments world by world, and the discard to play (`None`: take the win).
pub(crate) struct Declines {
    /// Each discard that leaves a lone wildcard wait, with its playouts' payments.
    pub(crate) values: Vec<(Tile, Vec<i64>)>,
    /// The discard that turns the win down, when the playouts say it pays more.
    pub(crate) choice: Option<Tile>,
}

/// Searches the discards that turn down the win in hand for a Bao Tou wait; `None` when the
/// hand has no such win (no wildcard, nothing drawn, a win the rule set refuses).
pub(crate) fn declines(
    table: &Table<'_>,
    ruleset: &Ruleset,
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
    let mut values = Vec::with_capacity(candidates.len());
    for x in candidates {
        let payments: Vec<i64> = (0..rollouts.max(2))
            .map(|_| {
                let w = world::sample(ruleset, obs, rng, |q, h| table.pays(q, h));
                table.playout(&w, &hand, x)
            })
            .collect();
        let e = super::Estimate::of(&payments);
        let margin = e.mean - super::OVERRULE_BY * e.se - win_now as f64;
        if margin > 0.0 && best.is_none_or(|(_, m)| margin > m) {
            best = Some((x, margin));
        }
        values.push((x, payments));
    }
    Some(Declines {
        values,
        choice: best.map(|(x, _)| x),
    })
}

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

/// The discard that turns down the win in hand for a Bao Tou wait, when the playouts say it
/// pays more than the win; `None` to take the win.
pub(crate) fn decline_for(
    table: &Table<'_>,
    ruleset: &Ruleset,
    obs: &Observation,
    legal: &[Action],
    rollouts: u32,
    rng: &mut ChaCha8Rng,
) -> Option<Tile> {
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
    for x in candidates {
        let values: Vec<f64> = (0..rollouts.max(2))
            .map(|_| {
                let w = world::sample(ruleset, obs, rng, |q, h| table.pays(q, h));
                table.playout(&w, &hand, x) as f64
            })
            .collect();
        let r = values.len() as f64;
        let mean = values.iter().sum::<f64>() / r;
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (r - 1.0);
        let margin = mean - super::OVERRULE_BY * (var / r).sqrt() - win_now as f64;
        if margin > 0.0 && best.is_none_or(|(_, m)| margin > m) {
            best = Some((x, margin));
        }
    }
    best.map(|(x, _)| x)
}

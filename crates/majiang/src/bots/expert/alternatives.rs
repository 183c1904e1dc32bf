//! Valuing every real alternative of a decision by playouts, for a review or a hint
//! ([`Scope::Every`](super::Scope::Every)): a discard is played out as the discard search plays
//! it, a pass as the call search does (a pass on a win knowing what it forfeits: under Hong
//! Kong's missed win no win on that kind until the next draw), a chow or pung as the claim and the planner's discard
//! after it, a win by what it pays in the world (known exactly but for the losers' hands in a
//! rule set where they settle too). Kongs are not valued. The choice is never made here.

use super::calls::after_claim;
use super::playout::Table;
use super::world::{self, World};
use crate::bots::efficient::Planner;
use crate::counts::TileCounts;
use crate::table::{Action, Observation};
use crate::tile::Tile;
use rand_chacha::ChaCha8Rng;

/// How one alternative is played out.
enum Plan {
    /// Discard this tile from the hand in hand (`gambit`: a Fortune Gambit, the run one longer).
    Discard { tile: Tile, gambit: bool },
    /// Let the discard on offer go.
    Pass { from: usize },
    /// Claim the discard: the hand after it, and the planner's discard from it.
    Claim {
        after: Box<Observation>,
        discard: Tile,
    },
    /// Win now on `tile` (from `from`'s discard, or self-drawn).
    Win { tile: Tile, from: Option<usize> },
}

/// The observation as it is after a Fortune Gambit: the viewer's run one longer.
pub(crate) fn after_gambit(obs: &Observation) -> Observation {
    let mut next = obs.clone();
    if let Some(h) = next.table.get_mut(obs.player.index()) {
        h.gambit_run = h.gambit_run.saturating_add(1);
    }
    next
}

/// How `action` would be played out from `obs`, `None` when it is not valued (kongs, extra
/// winds, a claim the hand cannot make).
fn plan(expert: &super::ExpertBot, obs: &Observation, action: Action) -> Option<Plan> {
    let own_turn = obs.turn == Some(obs.player);
    match action {
        Action::Discard(t) if own_turn && t.index() < crate::tile::KINDS => Some(Plan::Discard {
            tile: t,
            gambit: obs.wildcard_discard_is_gambit && Some(t) == obs.wildcard,
        }),
        Action::Pass => obs.on_offer.map(|(p, _)| Plan::Pass { from: p.index() }),
        Action::Chow { .. } | Action::Pung => {
            let (from, tile) = obs.on_offer?;
            let after = after_claim(obs, action, from.index(), tile)?;
            let planner = Planner::new(expert.ruleset.clone(), &after);
            let &(discard, _) = planner.ranked_discards(&after.concealed).first()?;
            Some(Plan::Claim {
                after: Box::new(after),
                discard,
            })
        }
        Action::Win => match obs.on_offer {
            Some((p, t)) => Some(Plan::Win {
                tile: t,
                from: Some(p.index()),
            }),
            None if own_turn => obs.drawn.map(|t| Plan::Win {
                tile: t,
                from: None,
            }),
            None => None,
        },
        _ => None,
    }
}

/// Every alternative in `legal` that can be valued, with its payments in `rollouts` worlds
/// drawn from `rng` (the same worlds for all) and, for a discard, in how many it dealt in.
pub(crate) fn value_all(
    expert: &super::ExpertBot,
    obs: &Observation,
    legal: &[Action],
    rollouts: u32,
    rng: &mut ChaCha8Rng,
) -> Vec<(Action, Vec<i64>, Option<u32>)> {
    let mut actions: Vec<Action> = Vec::new();
    for &a in legal {
        if !actions.contains(&a) {
            actions.push(a);
        }
    }
    let plans: Vec<(Action, Plan)> = actions
        .into_iter()
        .filter_map(|a| Some((a, plan(expert, obs, a)?)))
        .collect();
    if plans.is_empty() {
        return Vec::new();
    }
    let base_planner = Planner::new(expert.ruleset.clone(), obs);
    let gambit_obs = after_gambit(obs);
    let gambit_planner = Planner::new(expert.ruleset.clone(), &gambit_obs);
    let claim_planners: Vec<Option<Planner>> = plans
        .iter()
        .map(|(_, p)| match p {
            Plan::Claim { after, .. } => Some(Planner::new(expert.ruleset.clone(), after)),
            _ => None,
        })
        .collect();
    let base = expert.table(obs, &base_planner);
    let gambit = expert.table(&gambit_obs, &gambit_planner);
    let tables: Vec<&Table<'_>> = plans
        .iter()
        .map(|(_, p)| match p {
            Plan::Discard { gambit: true, .. } => &gambit,
            _ => &base,
        })
        .collect();
    let claim_tables: Vec<Option<Table<'_>>> = plans
        .iter()
        .zip(&claim_planners)
        .map(|((_, p), planner)| match (p, planner) {
            (Plan::Claim { after, .. }, Some(planner)) => Some(expert.table(after, planner)),
            _ => None,
        })
        .collect();
    let me = obs.player.index();
    let n = obs.table.len();
    let hand = obs.concealed;
    // Passing an offered win forfeits it (Hong Kong's missed win): the pass is played out so.
    let forfeited = obs
        .on_offer
        .filter(|_| legal.contains(&Action::Win))
        .map(|(_, t)| t);
    let mut out: Vec<(Action, Vec<i64>, Option<u32>)> = plans
        .iter()
        .map(|(a, p)| {
            let deal_ins = matches!(p, Plan::Discard { .. }).then_some(0);
            (*a, Vec::with_capacity(rollouts as usize), deal_ins)
        })
        .collect();
    for _ in 0..rollouts.max(2) {
        let w = world::sample(&expert.ruleset, obs, rng, |q, h| base.pays(q, h));
        for (i, (_, p)) in plans.iter().enumerate() {
            let v = match p {
                Plan::Discard { tile, .. } => {
                    if dealt_in(tables[i], &w, &hand, *tile) {
                        if let Some(d) = out[i].2.as_mut() {
                            *d += 1;
                        }
                    }
                    tables[i].playout(&w, &hand, *tile)
                }
                Plan::Pass { from } => match forfeited {
                    Some(t) => base.play_on_after_passing(&w, hand, (from + 1) % n, t),
                    None => base.play_on(&w, hand, (from + 1) % n, None),
                },
                Plan::Claim { after, discard } => match &claim_tables[i] {
                    Some(t) => t.playout(&w, &after.concealed, *discard),
                    None => 0,
                },
                Plan::Win { tile, from } => {
                    // Self-drawn: the hand holds the tile; on a discard it does not.
                    let mut before = hand;
                    if from.is_none() {
                        before.remove(*tile);
                    }
                    base.score(&w, me, &hand, &before, *tile, *from)
                        .unwrap_or(0)
                }
            };
            out[i].1.push(v);
        }
    }
    out
}

/// Whether an opponent in `world` wins at once on `tile` thrown from `hand`.
pub(crate) fn dealt_in(table: &Table<'_>, world: &World, hand: &TileCounts, tile: Tile) -> bool {
    let mut mine = *hand;
    mine.remove(tile);
    table
        .deal_in(world, table.obs.player.index(), &mine, tile)
        .is_some()
}

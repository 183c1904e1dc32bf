//! The expert bot (`hard`): determinized Monte-Carlo search over its discards.
//!
//! On a turn where it must discard, the bot:
//! 1. asks the efficient bot what it would do (its choice is the default) and ranks every
//!    discard by the efficient bot's distance (shanten plus the cost of the fan the rule set's
//!    minimum still asks for: it does not aim at hands that cannot reach the minimum), keeping
//!    the closest few as candidates;
//! 2. deals [`Budget::rollouts`] *worlds* (`world.rs`): guesses at the other seats' concealed
//!    tiles and the wall's order that agree with its [`Observation`], opponents dealt a ready
//!    hand as often as their melds and discard rows suggest, waiting on nothing they threw
//!    themselves and of one suit where the rule set's minimum rewards it;
//! 3. plays every candidate out in every world (`playout.rs`) and values it by the rule set's
//!    real payments to the bot: its own wins (Hangzhou wildcards, minimum fan and Yangzhou's
//!    Pao Pai liability included, since the rule set scores them) less the expected cost of
//!    dealing in, the same worlds for every candidate;
//! 4. plays the candidate with the best mean payment only when it beats the efficient bot's
//!    choice by more than two standard errors of the paired difference; else the efficient
//!    choice stands.
//!
//! Every other decision (claims, kongs, the win, the Fortune Gambit and Bao Tou play, five- and
//! six-player classic's extra winds) is the efficient bot's.
//!
//! It reads only the [`Observation`], never the hidden state, and draws its worlds from a
//! generator seeded with its seed and a hash of the observation: for a seed and a budget a
//! decision is a function of what the seat sees. The library has no clock, so the budget is
//! counted in rollouts; a caller wanting a time limit picks the count.

mod playout;
mod world;

use super::efficient::{Planner, involves_extra_winds};
use super::{Bot, EfficientBot};
use crate::table::{Action, Observation, Ruleset};
use crate::tile::Tile;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// How much search a decision gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Determinized worlds per decision (every candidate is played out in each).
    pub rollouts: u32,
    /// Most candidate discards compared.
    pub candidates: usize,
    /// The bot's own draws after which a playout stops.
    pub horizon: u32,
}

impl Budget {
    /// The default budget, sized for play (see the `expert` benchmark).
    pub const DEFAULT: Budget = Budget {
        rollouts: 64,
        candidates: 4,
        horizon: 8,
    };
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::DEFAULT
    }
}

/// The determinized Monte-Carlo bot: see the [module documentation](self).
#[derive(Debug, Clone)]
pub struct ExpertBot {
    ruleset: Arc<Ruleset>,
    seed: u64,
    budget: Budget,
}

impl ExpertBot {
    /// An expert bot for a table under `ruleset`, seeded with `seed`, with the default budget.
    pub fn new(ruleset: Arc<Ruleset>, seed: u64) -> ExpertBot {
        ExpertBot {
            ruleset,
            seed,
            budget: Budget::DEFAULT,
        }
    }

    /// The same bot with another search budget (at least one rollout and one candidate are
    /// always used).
    pub fn with_budget(mut self, budget: Budget) -> ExpertBot {
        self.budget = Budget {
            rollouts: budget.rollouts.max(1),
            candidates: budget.candidates.max(1),
            horizon: budget.horizon.max(1),
        };
        self
    }

    /// The search budget.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// The seed of one decision: the bot's seed and what the seat sees.
    fn decision_seed(&self, obs: &Observation) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64 ^ self.seed;
        let mut eat = |b: u64| h = (h ^ b).wrapping_mul(0x0100_0000_01b3);
        eat(obs.player.index() as u64);
        eat(obs.live_wall as u64);
        for &c in &obs.concealed.0 {
            eat(u64::from(c));
        }
        for p in &obs.table {
            eat(p.discards.len() as u64);
            eat(p.melds.len() as u64);
            for d in &p.discards {
                eat(d.tile.index() as u64);
            }
        }
        h
    }

    /// Picks a discard by search, starting from the efficient bot's `default` choice.
    fn search_discard(&self, obs: &Observation, default: Tile, seed: u64) -> Tile {
        let planner = Planner::new(self.ruleset.clone(), obs);
        let hand = obs.concealed;
        let ranked = planner.ranked_discards(&hand);
        let Some(&(_, best)) = ranked.first() else {
            return default;
        };
        let mut cands: Vec<Tile> = vec![default];
        for &(t, d) in &ranked {
            if cands.len() >= self.budget.candidates {
                break;
            }
            if d <= best + 1 && t != default {
                cands.push(t);
            }
        }
        if cands.len() == 1 {
            return default;
        }
        let table = playout::Table {
            ruleset: &self.ruleset,
            obs,
            rules: self.ruleset.hand_rules(obs.wildcard),
            planner: &planner,
            horizon: self.budget.horizon,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let r = self.budget.rollouts as usize;
        let mut values = vec![Vec::with_capacity(r); cands.len()];
        for _ in 0..r {
            let w = world::sample(&self.ruleset, obs, &mut rng, |q, h| table.pays(q, h));
            for (v, &t) in values.iter_mut().zip(&cands) {
                v.push(table.playout(&w, &hand, t));
            }
        }
        choose(&cands, &values)
    }
}

/// How many standard errors of the paired difference a candidate must beat the efficient
/// bot's choice by (the best of several noisy means is biased upwards: measured, one standard
/// error overruled the efficient bot too often and lost).
const OVERRULE_BY: f64 = 2.0;

/// The candidate to play: the first (the default) unless another's mean beats it by more than
/// [`OVERRULE_BY`] standard errors of the paired difference (the margin kept highest wins).
fn choose(cands: &[Tile], values: &[Vec<i64>]) -> Tile {
    let r = values[0].len() as f64;
    let mut choice = (cands[0], 0.0f64);
    for c in 1..cands.len() {
        let diffs: Vec<f64> = values[c]
            .iter()
            .zip(&values[0])
            .map(|(&a, &b)| (a - b) as f64)
            .collect();
        let mean = diffs.iter().sum::<f64>() / r;
        let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (r - 1.0).max(1.0);
        let se = (var / r).sqrt();
        if mean > OVERRULE_BY * se && mean > 0.0 && mean - OVERRULE_BY * se > choice.1 {
            choice = (cands[c], mean - OVERRULE_BY * se);
        }
    }
    choice.0
}

impl Bot for ExpertBot {
    fn name(&self) -> &'static str {
        "expert"
    }

    fn act(&mut self, obs: &Observation, legal: &[Action]) -> Action {
        if legal.len() <= 1 {
            return legal.first().copied().unwrap_or(Action::Pass);
        }
        let seed = self.decision_seed(obs);
        let mut efficient = EfficientBot::new(self.ruleset.clone(), seed);
        let default = efficient.act(obs, legal);
        let Action::Discard(t) = default else {
            return default;
        };
        let my_turn = obs.turn == Some(obs.player);
        if !my_turn || Some(t) == obs.wildcard || involves_extra_winds(obs, legal) {
            return default;
        }
        let choice = self.search_discard(obs, t, seed);
        if legal.contains(&Action::Discard(choice)) {
            Action::Discard(choice)
        } else {
            default
        }
    }
}

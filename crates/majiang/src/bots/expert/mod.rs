//! The expert bot (`hard`): determinized Monte-Carlo search over its discards.
//!
//! On a turn where it must discard, the bot:
//! 1. asks the efficient bot what it would do (its choice is the default) and ranks every
//!    discard by the efficient bot's distance (shanten plus the cost of the fan the rule set's
//!    minimum still asks for: it does not aim at hands that cannot reach the minimum), keeping
//!    the closest few as candidates;
//! 2. deals [`Budget::rollouts`] *worlds* (`world.rs`): guesses at the other seats' concealed
//!    tiles and the wall's order that agree with its [`Observation`], opponents dealt a ready
//!    hand as often as players with their melds and discard rows really are under the rule set
//!    (its [`Readiness`](crate::rules::readiness::Readiness) table, measured in self-play: with
//!    a 15-fan minimum few hands are ready before the middle of the wall), waiting on nothing
//!    they threw themselves and of one suit where the rule set's minimum rewards it;
//! 3. plays every candidate out in every world (`playout.rs`) and values it by the rule set's
//!    real payments to the bot: its own wins (Hangzhou wildcards and minimum fan included,
//!    since the rule set scores them) less the expected cost of dealing in, and in Yangzhou
//!    the 包牌 (Pao Pai) of feeding a one-suit hand's third exposed meld (an opponent with two
//!    such melds pungs the discard when the world gives them the pair), the same worlds for
//!    every candidate;
//! 4. spends up to [`Budget::close_rounds`] further batches of worlds on the candidates that
//!    are still close (better than the efficient bot's choice on average, not yet by two
//!    standard errors), dropping the others: the search goes where the decision is in doubt;
//! 5. plays the candidate with the best mean payment only when it beats the efficient bot's
//!    choice by more than two standard errors of the paired difference; else the efficient
//!    choice stands.
//!
//! Where the rule set has the Fortune Gambit's wildcards (Hangzhou), a self-drawn win whose pair
//! is a wildcard and one other tile may be turned down for a Bao Tou wait (`bao_tou.rs`), when
//! playouts in the same kind of worlds say the ×2 pays more than the win in hand.
//!
//! An offered discard's calls (吃 chow, 碰 pung or pass) are searched the same way in every rule
//! set (`calls.rs`): each is played out in the same worlds and the efficient bot's answer
//! stands unless another beats it clearly.
//!
//! In classic, where every hand is settled between all players (losers too) and one suit
//! doubles the whole hand: playouts run to the end of the wall and a one-suit candidate joins
//! the discards when the hand is nearly one suit (`one_suit.rs`).
//!
//! At classic's five- and six-player tables, with extra winds in play, the same searches run on
//! the table as the efficient bot's ordinary decisions see it (the extra winds set aside), in
//! worlds whose wall and hidden hands hold the unseen extra winds too; a decision about an
//! extra wind (pung, kong or pass one on offer, throw a lone one), or one while the bot holds a
//! lone extra wind or a pair of them, is the efficient bot's rule.
//!
//! Every other decision (wins, which are always taken unless Bao Tou says otherwise, kongs,
//! the Fortune Gambit) is the efficient bot's.
//!
//! [`ExpertBot::evaluate`] returns what the search found as an [`Evaluation`]: the choice, the
//! efficient default and each candidate's mean payment with its standard error ([`Bot::act`]
//! plays its choice). With [`Scope::Every`] every real alternative is valued as well, in the same
//! worlds where the search ran (`alternatives.rs` for the decisions it leaves alone), never
//! changing the choice: [`crate::review`] reads it.
//!
//! It reads only the [`Observation`], never the hidden state, and draws its worlds from a
//! generator seeded with its seed and a hash of the observation: for a seed and a budget a
//! decision is a function of what the seat sees. The library has no clock, so the budget is
//! counted in rollouts; a caller wanting a time limit picks the count.

mod alternatives;
mod bao_tou;
#[cfg(test)]
mod calibrate;
mod calls;
mod evaluation;
mod one_suit;
mod playout;
mod world;

pub use evaluation::{DecisionKind, Estimate, Evaluation, Scope, Valued, clear_margin};

use super::efficient::{Planner, action_tile, involves_extra_winds};
use super::{Bot, EfficientBot};
use crate::table::{Action, Observation, TableRules};
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
    /// The bot's own draws after which a playout stops (classic plays to the end of the wall:
    /// a hand that does not win is still settled there).
    pub horizon: u32,
    /// Further batches of [`Budget::rollouts`] worlds spent while a candidate is close: better
    /// than the efficient bot's choice on the worlds so far, but not yet by enough to overrule
    /// it. Only the default and the close candidates are played in them.
    pub close_rounds: u32,
}

impl Budget {
    /// The default budget, sized for play (see the `expert` benchmark).
    pub const DEFAULT: Budget = Budget {
        rollouts: 64,
        candidates: 4,
        horizon: 8,
        close_rounds: 2,
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
    ruleset: Arc<TableRules>,
    seed: u64,
    budget: Budget,
}

impl ExpertBot {
    /// An expert bot for a table under `ruleset`, seeded with `seed`, with the default budget.
    pub fn new(ruleset: Arc<TableRules>, seed: u64) -> ExpertBot {
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
            close_rounds: budget.close_rounds,
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

    /// The bot's draws after which a playout stops: the budget's, or the end of the wall where
    /// every hand settles between all players.
    fn horizon(&self) -> u32 {
        if settles_every_hand(&self.ruleset) {
            u32::MAX
        } else {
            self.budget.horizon
        }
    }

    /// What the playouts of one decision share.
    fn table<'a>(&'a self, obs: &'a Observation, planner: &'a Planner) -> playout::Table<'a> {
        playout::Table {
            ruleset: &self.ruleset,
            obs,
            rules: self.ruleset.hand_rules(obs.wildcard),
            planner,
            horizon: self.horizon(),
        }
    }

    /// Picks a discard by search, starting from the efficient bot's `default` choice; with
    /// [`Scope::Every`], every other legal discard is played in the same worlds as well (never
    /// chosen, never keeping the search going), with how often each deals in at once.
    fn search_discard(
        &self,
        obs: &Observation,
        legal: &[Action],
        default: Tile,
        seed: u64,
        scope: Scope,
    ) -> (Tile, Vec<Valued>) {
        let planner = Planner::new(self.ruleset.clone(), obs);
        let hand = obs.concealed;
        let ranked = planner.ranked_discards(&hand);
        let Some(&(_, best)) = ranked.first() else {
            return (default, Vec::new());
        };
        let mut cands: Vec<(Tile, Option<usize>)> = vec![(default, None)];
        for &(t, d) in &ranked {
            if cands.len() >= self.budget.candidates {
                break;
            }
            if d <= best + 1 && t != default {
                cands.push((t, None));
            }
        }
        if one_suit::pays_for_one_suit(&self.ruleset) {
            if let Some((s, t)) = one_suit::candidate(&hand) {
                cands.push((t, Some(s)));
            }
        }
        // The search's own candidates come first; the review's extras after them.
        let searched = cands.len();
        if scope == Scope::Every {
            for &a in legal {
                if let Action::Discard(t) = a {
                    if t.index() < crate::tile::KINDS && !cands.iter().any(|c| c.0 == t) {
                        cands.push((t, None));
                    }
                }
            }
        }
        if cands.len() == 1 {
            return (default, Vec::new());
        }
        let table = self.table(obs, &planner);
        let gambit_obs = alternatives::after_gambit(obs);
        let gambit_planner = Planner::new(self.ruleset.clone(), &gambit_obs);
        let gambit_table = self.table(&gambit_obs, &gambit_planner);
        let table_of = |t: Tile| {
            if obs.wildcard_discard_is_gambit && Some(t) == obs.wildcard {
                &gambit_table
            } else {
                &table
            }
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let r = self.budget.rollouts as usize;
        let mut values = vec![Vec::with_capacity(r); cands.len()];
        let mut deal_ins = vec![0u32; cands.len()];
        // Every candidate is played in the first batch; later batches play the default and
        // the candidates still close (the same worlds for all of them: the first worlds of a
        // dropped candidate are still paired with the default's). The choice reads only those
        // (`counted`); with `Scope::Every` every alternative is played in every batch as well,
        // so each value shown is measured on the same worlds as the others.
        let mut counted = vec![0usize; cands.len()];
        let mut playing = vec![true; cands.len()];
        for round in 0..=self.budget.close_rounds {
            if round > 0 {
                let verdicts: Vec<Verdict> = (0..searched)
                    .map(|c| verdict(&values[c][..counted[c]], &values[0][..counted[0]]))
                    .collect();
                for c in 1..searched {
                    playing[c] = playing[c] && verdicts[c] == Verdict::Close;
                }
                if !playing[1..searched].iter().any(|&p| p) {
                    break;
                }
            }
            for _ in 0..r {
                let w = world::sample(&self.ruleset, obs, &mut rng, |q, h| table.pays(q, h));
                for c in 0..cands.len() {
                    if playing[c] || scope == Scope::Every {
                        let (t, steer) = cands[c];
                        let at = table_of(t);
                        if scope == Scope::Every && alternatives::dealt_in(at, &w, &hand, t) {
                            deal_ins[c] += 1;
                        }
                        values[c].push(at.playout_steered(&w, &hand, t, steer));
                        if playing[c] && c < searched {
                            counted[c] += 1;
                        }
                    }
                }
            }
        }
        let chosen: Vec<&[i64]> = (0..searched).map(|c| &values[c][..counted[c]]).collect();
        let choice = choose(&cands[..searched], &chosen).0;
        if scope == Scope::Play {
            return (choice, Vec::new());
        }
        // A one-suit candidate is a tile already among the others at times: keep its first.
        let mut valued: Vec<Valued> = Vec::with_capacity(cands.len());
        for (c, samples) in values.into_iter().enumerate() {
            let action = Action::Discard(cands[c].0);
            if valued.iter().any(|v| v.action == action) {
                continue;
            }
            valued.push(Valued::new(
                action,
                samples,
                c < searched,
                Some(deal_ins[c]),
            ));
        }
        (choice, valued)
    }
}

/// Whether every player's hand is scored and settled at every win, losers among themselves
/// too (classic): there a playout is worth playing to the end of the wall (a hand that does not
/// win still scores its sets against the other losers). Measured at 300 Yangzhou deals, it did
/// not pay for its time there, so elsewhere the budget's horizon holds.
fn settles_every_hand(ruleset: &TableRules) -> bool {
    ruleset.set().aims().losers_settle
}

/// Whether a decision at a five- or six-player classic table with extra winds in play is
/// searched, given the efficient bot's answer `default` to it: not when it is about an extra
/// wind (one on offer, or `default` names one: a pung or kong of them, a lone one thrown), nor
/// while the seat holds extra winds that are not whole pungs (a lone one or a pair shapes the
/// hand outside the 34-kind counts the search plays with). Every other decision is searched on
/// the table as the efficient bot's ordinary decisions see it (`efficient::clean_view`: the
/// planner's view), in worlds that deal the unseen extra winds too (`world.rs`).
fn searched_with_extra_winds(obs: &Observation, default: Action) -> bool {
    obs.extra_winds.len() % 3 == 0
        && !obs.on_offer.is_some_and(|(_, t)| t.is_bonus())
        && !action_tile(&default).is_some_and(Tile::is_bonus)
}

/// What the Bao Tou search's generator is seeded with besides the decision's seed.
const BAO_TOU_WORLDS: u64 = 0xba0;

/// What the generator of a win's alternatives is seeded with besides the decision's seed.
const WIN_WORLDS: u64 = 0x0077_1115;

/// How many standard errors of the paired difference a candidate must beat the efficient
/// bot's choice by (the best of several noisy means is biased upwards: measured, one standard
/// error overruled the efficient bot too often and lost).
const OVERRULE_BY: f64 = 2.0;

/// How a candidate compares with the default on the worlds both were played in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// No better on average.
    Worse,
    /// Better on average, but by [`OVERRULE_BY`] standard errors or less.
    Close,
    /// Better by more than [`OVERRULE_BY`] standard errors.
    Better,
}

/// The mean and standard error of `values[i] - default[i]` over the worlds both were played in.
fn paired(values: &[i64], default: &[i64]) -> (f64, f64) {
    let r = values.len().min(default.len()).max(1) as f64;
    let diffs = values.iter().zip(default).map(|(&a, &b)| (a - b) as f64);
    let mean = diffs.clone().sum::<f64>() / r;
    let var = diffs.map(|d| (d - mean).powi(2)).sum::<f64>() / (r - 1.0).max(1.0);
    (mean, (var / r).sqrt())
}

/// The candidate's [`Verdict`] against the default.
fn verdict(values: &[i64], default: &[i64]) -> Verdict {
    let (mean, se) = paired(values, default);
    if mean <= 0.0 {
        Verdict::Worse
    } else if mean > OVERRULE_BY * se {
        Verdict::Better
    } else {
        Verdict::Close
    }
}

/// The candidate to play: the first (the default) unless another's mean beats it by more than
/// [`OVERRULE_BY`] standard errors of the paired difference (the margin kept highest wins).
fn choose<T: Copy, V: AsRef<[i64]>>(cands: &[T], values: &[V]) -> T {
    let mut choice = (cands[0], 0.0f64);
    for c in 1..cands.len() {
        let (mean, se) = paired(values[c].as_ref(), values[0].as_ref());
        let margin = mean - OVERRULE_BY * se;
        if mean > 0.0 && margin > 0.0 && margin > choice.1 {
            choice = (cands[c], margin);
        }
    }
    choice.0
}

impl ExpertBot {
    /// The decision among `legal` (never empty) for the seat `obs` describes, with what the
    /// search found: [`Bot::act`] plays its [`Evaluation::choice`]. With [`Scope::Every`] every
    /// real alternative is valued as well (a review, a hint), which never changes the choice.
    pub fn evaluate(&self, obs: &Observation, legal: &[Action], scope: Scope) -> Evaluation {
        let own_turn = obs.turn == Some(obs.player);
        let kind = DecisionKind::of(legal, own_turn);
        if legal.len() <= 1 {
            let only = legal.first().copied().unwrap_or(Action::Pass);
            return Evaluation::unvalued(kind, only);
        }
        let seed = self.decision_seed(obs);
        let (choice, values) = self.decide(obs, legal, seed, scope);
        let mut efficient = EfficientBot::new(self.ruleset.clone(), seed);
        let default = efficient.act(obs, legal);
        let mut values = values;
        if scope == Scope::Every && values.is_empty() {
            let rollouts = self.budget.rollouts * (1 + self.budget.close_rounds).min(2);
            values = self.value_alternatives(obs, legal, seed ^ 0x007e_71e7, rollouts);
        }
        Evaluation {
            kind,
            choice,
            default,
            values,
        }
        .sorted()
    }

    /// Every valued alternative in the same worlds (when the search itself compared none),
    /// drawn from a generator seeded with `rng_seed`, `rollouts` of them.
    fn value_alternatives(
        &self,
        obs: &Observation,
        legal: &[Action],
        rng_seed: u64,
        rollouts: u32,
    ) -> Vec<Valued> {
        let mut rng = ChaCha8Rng::seed_from_u64(rng_seed);
        alternatives::value_all(self, obs, legal, rollouts, &mut rng)
            .into_iter()
            .map(|(action, samples, deal_ins)| {
                Valued::new(action, samples, action == Action::Win, deal_ins)
            })
            .collect()
    }

    /// The choice, and the values the search compared (with [`Scope::Every`]: every discard
    /// too when it searched the discards; empty when it searched nothing).
    fn decide(
        &self,
        obs: &Observation,
        legal: &[Action],
        seed: u64,
        scope: Scope,
    ) -> (Action, Vec<Valued>) {
        let mut efficient = EfficientBot::new(self.ruleset.clone(), seed);
        let default = efficient.act(obs, legal);
        if default == Action::Win && self.ruleset.config().fortune_gambit {
            let planner = Planner::new(self.ruleset.clone(), obs);
            let table = self.table(obs, &planner);
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ BAO_TOU_WORLDS);
            let budget = self.budget.rollouts;
            let found = bao_tou::declines(&table, &self.ruleset, obs, legal, budget, &mut rng);
            // The same worlds again for every alternative: a decline's payments are the
            // search's own, world by world.
            if let Some(d) = found {
                let values = match scope {
                    Scope::Play => Vec::new(),
                    Scope::Every => {
                        self.value_alternatives(obs, legal, seed ^ BAO_TOU_WORLDS, budget)
                    }
                };
                return (d.choice.map_or(default, Action::Discard), values);
            }
        }
        if default == Action::Win && !involves_extra_winds(obs, legal) {
            // A win is taken unless an alternative (a pass, another discard) beats it clearly
            // in the same worlds: the judgement a review shows for it. (With extra winds in
            // sight the win is always taken: the playouts do not score extra-wind hands.)
            let rollouts = self.budget.rollouts * (1 + self.budget.close_rounds).min(2);
            let values = self.value_alternatives(obs, legal, seed ^ WIN_WORLDS, rollouts);
            let choice = evaluation::overrule(&values, Action::Win);
            return match scope {
                Scope::Play => (choice, Vec::new()),
                Scope::Every => (choice, values),
            };
        }
        if involves_extra_winds(obs, legal) && !searched_with_extra_winds(obs, default) {
            return (default, Vec::new());
        }
        if obs.turn != Some(obs.player) {
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xca11);
            let b = self.budget;
            if let Some(found) = calls::search(
                &self.ruleset,
                obs,
                legal,
                default,
                b.rollouts,
                b.close_rounds,
                self.horizon(),
                scope == Scope::Every,
                &mut rng,
            ) {
                let values = match scope {
                    Scope::Play => Vec::new(),
                    Scope::Every => found
                        .values
                        .into_iter()
                        .map(|(a, v)| Valued::new(a, v, true, None))
                        .collect(),
                };
                if legal.contains(&found.choice) {
                    return (found.choice, values);
                }
                return (default, values);
            }
        }
        let Action::Discard(t) = default else {
            return (default, Vec::new());
        };
        let my_turn = obs.turn == Some(obs.player);
        if !my_turn || Some(t) == obs.wildcard {
            return (default, Vec::new());
        }
        let (choice, values) = self.search_discard(obs, legal, t, seed, scope);
        if legal.contains(&Action::Discard(choice)) {
            (Action::Discard(choice), values)
        } else {
            (default, values)
        }
    }
}

impl Bot for ExpertBot {
    fn clone_box(&self) -> Option<Box<dyn Bot>> {
        Some(Box::new(self.clone()))
    }

    fn name(&self) -> &'static str {
        "expert"
    }

    fn act(&mut self, obs: &Observation, legal: &[Action]) -> Action {
        if legal.len() <= 1 {
            return legal.first().copied().unwrap_or(Action::Pass);
        }
        let seed = self.decision_seed(obs);
        self.decide(obs, legal, seed, Scope::Play).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_candidate_overrules_the_default_only_by_a_clear_paired_margin() {
        let default = vec![0i64; 16];
        // Better by 1 on every world: no spread, a clear margin.
        let clear: Vec<i64> = vec![1; 16];
        // Better on average (+0.5) but with a spread of ±4: in doubt.
        let noisy: Vec<i64> = (0..16).map(|i| if i % 2 == 0 { 5 } else { -4 }).collect();
        let worse: Vec<i64> = vec![-1; 16];
        assert_eq!(verdict(&clear, &default), Verdict::Better);
        assert_eq!(verdict(&noisy, &default), Verdict::Close);
        assert_eq!(verdict(&worse, &default), Verdict::Worse);
        let (a, b, c) = (Tile::EAST, Tile::SOUTH, Tile::WEST);
        let values = [default.clone(), noisy.clone(), clear.clone()];
        assert_eq!(choose(&[a, b, c], &values), c);
        assert_eq!(choose(&[a, b], &[default.clone(), noisy]), a);
        // A candidate dropped after fewer worlds is compared on the worlds it was played in.
        let short: Vec<i64> = vec![1; 4];
        let mut long = vec![0i64; 4];
        long.extend([-100; 12]);
        assert_eq!(verdict(&short, &long), Verdict::Better);
    }
}

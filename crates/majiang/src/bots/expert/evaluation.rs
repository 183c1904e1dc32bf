//! What the expert's search found for one decision, as data: its choice, the efficient bot's
//! default it started from, and the value of each alternative it played out (mean payment to
//! the seat in chips, as the rule set's settlement pays them, with the standard error of that mean over the worlds).
//!
//! [`ExpertBot::evaluate`](super::ExpertBot::evaluate) returns it; [`Bot::act`](crate::bots::Bot::act)
//! plays its [`Evaluation::choice`]. With [`Scope::Every`] every real alternative is valued
//! too (each legal discard, each call or pass, a win against declining it), in the same worlds
//! as the search's own candidates where the search ran, without changing the choice: the
//! review of a match and the learner's hint read those values.

use crate::table::Action;

/// How much of a decision to value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Only what the bot needs to choose (playing).
    Play,
    /// Every real alternative as well (reviewing, hinting): never changes the choice.
    Every,
}

/// What kind of decision it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionKind {
    /// A discard on the seat's turn (the Fortune Gambit, a wildcard thrown, among them).
    Discard,
    /// A discard of another seat on offer: chow, pung, kong or pass.
    Call,
    /// A win is on offer (self-drawn or on a discard): take it or decline it.
    Win,
    /// A kong on the seat's own turn, or the extra winds of five- and six-player classic.
    Other,
}

impl DecisionKind {
    /// The kind of the decision among `legal` for a seat whose turn it is (`own_turn`) or not.
    pub fn of(legal: &[Action], own_turn: bool) -> DecisionKind {
        if legal.contains(&Action::Win) {
            DecisionKind::Win
        } else if !own_turn {
            DecisionKind::Call
        } else if legal.iter().any(|a| matches!(a, Action::Discard(_))) {
            DecisionKind::Discard
        } else {
            DecisionKind::Other
        }
    }
}

/// A mean and the standard error of that mean, in chips (the rule set's payments).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Estimate {
    /// The mean.
    pub mean: f64,
    /// The standard error of the mean (0 for a value known exactly).
    pub se: f64,
    /// The worlds it was measured in.
    pub worlds: u32,
}

impl Estimate {
    /// The mean and standard error of `values` (a single value: its own, with no error).
    pub fn of(values: &[i64]) -> Estimate {
        let r = values.len().max(1) as f64;
        let mean = values.iter().map(|&v| v as f64).sum::<f64>() / r;
        let var = values
            .iter()
            .map(|&v| (v as f64 - mean).powi(2))
            .sum::<f64>()
            / (r - 1.0).max(1.0);
        Estimate {
            mean,
            se: (var / r).sqrt(),
            worlds: values.len() as u32,
        }
    }

    /// True when the mean is above zero by more than `k` standard errors.
    pub fn clearly_positive(&self, k: f64) -> bool {
        self.mean > 0.0 && self.mean > k * self.se
    }
}

/// One alternative the expert played out.
#[derive(Debug, Clone, PartialEq)]
pub struct Valued {
    /// The action.
    pub action: Action,
    /// Its value: the seat's mean payment in the playouts.
    pub value: Estimate,
    /// Among the search's own candidates (rather than valued for a review or hint only).
    pub searched: bool,
    /// For a discard: the share of worlds in which an opponent wins on it at once.
    pub deal_in: Option<f64>,
    /// The payment in each world it was played in (paired with the others' by index).
    samples: Vec<i64>,
}

impl Valued {
    /// An alternative valued by its payments in each world (`deal_ins`: in how many of them a
    /// discard dealt in at once, when counted).
    pub(crate) fn new(
        action: Action,
        samples: Vec<i64>,
        searched: bool,
        deal_ins: Option<u32>,
    ) -> Valued {
        let n = samples.len().max(1) as f64;
        Valued {
            action,
            value: Estimate::of(&samples),
            searched,
            deal_in: deal_ins.map(|d| f64::from(d) / n),
            samples,
        }
    }
}

/// What the expert found for one decision.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// The kind of decision.
    pub kind: DecisionKind,
    /// What the expert plays.
    pub choice: Action,
    /// The efficient bot's choice, which the expert keeps unless its search overrules it.
    pub default: Action,
    /// The alternatives valued by playouts (none when the decision was not searched), the
    /// choice's first when valued.
    pub values: Vec<Valued>,
}

impl Evaluation {
    /// A decision left to the efficient bot (or with one legal action): nothing valued.
    pub(crate) fn unvalued(kind: DecisionKind, choice: Action) -> Evaluation {
        Evaluation {
            kind,
            choice,
            default: choice,
            values: Vec::new(),
        }
    }

    /// The choice's value first, then the others by mean, best first.
    pub(crate) fn sorted(mut self) -> Evaluation {
        let choice = self.choice;
        self.values.sort_by(|a, b| {
            (b.action == choice)
                .cmp(&(a.action == choice))
                .then(b.value.mean.total_cmp(&a.value.mean))
        });
        self
    }

    /// The value of `action`, if it was played out.
    pub fn value_of(&self, action: Action) -> Option<&Valued> {
        self.values.iter().find(|v| v.action == action)
    }

    /// How much better `a` did than `b` in the worlds both were played in: the mean of the
    /// paired differences and its standard error (`None` unless both were valued).
    pub fn compare(&self, a: Action, b: Action) -> Option<Estimate> {
        let a = self.value_of(a)?;
        let b = self.value_of(b)?;
        let n = a.samples.len().min(b.samples.len());
        let diffs: Vec<i64> = (0..n).map(|i| a.samples[i] - b.samples[i]).collect();
        Some(Estimate::of(&diffs))
    }
}

/// How many standard errors of the paired difference one of `compared` alternatives must beat
/// another by to be called better beyond the noise of comparing them all: the best of many
/// noisy differences is biased upwards, so each is held to a one-sided 2.5 % chance shared
/// among them (Bonferroni: 2 standard errors for one alternative, 2.9 for 13). Never below
/// the expert's own overrule margin (`OVERRULE_BY`, 2 standard errors).
pub fn clear_margin(compared: usize) -> f64 {
    // The normal distribution's upper quantiles at 2.5 % / k for k = 1, 2, 3, ...: a small
    // table (its last entry kept beyond it) rather than an inverse-normal dependency.
    const Z: [f64; 16] = [
        1.96, 2.24, 2.39, 2.50, 2.58, 2.64, 2.69, 2.73, 2.77, 2.81, 2.84, 2.87, 2.89, 2.91, 2.94,
        2.96,
    ];
    Z[compared.clamp(1, Z.len()) - 1].max(super::OVERRULE_BY)
}

/// The alternative to play among `values` (all valued in the same worlds), starting from
/// `default`: another only when it beats `default` by more than [`clear_margin`] standard
/// errors of the paired difference (the widest such margin wins).
pub(crate) fn overrule(values: &[Valued], default: Action) -> Action {
    let Some(base) = values.iter().find(|v| v.action == default) else {
        return default;
    };
    let k = values.len().saturating_sub(1);
    let mut best = (default, 0.0f64);
    for v in values.iter().filter(|v| v.action != default) {
        let n = v.samples.len().min(base.samples.len());
        let diffs: Vec<i64> = (0..n).map(|i| v.samples[i] - base.samples[i]).collect();
        let d = Estimate::of(&diffs);
        let margin = d.mean - clear_margin(k) * d.se;
        if d.mean > 0.0 && margin > 0.0 && margin > best.1 {
            best = (v.action, margin);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::Tile;

    #[test]
    fn paired_differences_cancel_the_worlds_shared_noise() {
        let a = Action::Discard(Tile::EAST);
        let b = Action::Discard(Tile::SOUTH);
        // Both swing with the world by ±10, `a` is 1 better in every one.
        let base: Vec<i64> = (0..8).map(|i| if i % 2 == 0 { 10 } else { -10 }).collect();
        let better: Vec<i64> = base.iter().map(|v| v + 1).collect();
        let e = Evaluation {
            kind: DecisionKind::Discard,
            choice: a,
            default: b,
            values: vec![
                Valued::new(b, base, true, Some(2)),
                Valued::new(a, better, true, Some(0)),
            ],
        }
        .sorted();
        assert_eq!(e.values[0].action, a);
        assert!(e.values[0].value.se > 3.0, "each alone is noisy");
        let d = e.compare(a, b).unwrap();
        assert_eq!((d.mean, d.se, d.worlds), (1.0, 0.0, 8));
        assert!(d.clearly_positive(2.0));
        assert_eq!(e.value_of(b).unwrap().deal_in, Some(0.25));
        assert!(e.compare(a, Action::Pass).is_none());
    }

    #[test]
    fn the_kind_of_a_decision_follows_its_legal_actions() {
        let d = Action::Discard(Tile::EAST);
        assert_eq!(DecisionKind::of(&[d, Action::Win], true), DecisionKind::Win);
        assert_eq!(DecisionKind::of(&[d], true), DecisionKind::Discard);
        assert_eq!(
            DecisionKind::of(&[Action::Pung, Action::Pass], false),
            DecisionKind::Call
        );
        assert_eq!(
            DecisionKind::of(&[Action::ConcealedKong(Tile::EAST)], true),
            DecisionKind::Other
        );
    }
}

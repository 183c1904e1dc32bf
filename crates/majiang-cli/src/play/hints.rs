//! `play --hints`: the expert's suggested discard or call for the person's decision, with a
//! one-line reason (how far from ready and the useful tiles it keeps, how often the tile deals
//! in, what it is worth), from the library's [`majiang::review::suggest`] on the person's own
//! observation. Worked out once per decision and kept until the table changes.

use super::tiles::TileStyle;
use majiang::bots::expert::Budget;
use majiang::review::{Suggestion, suggest};
use majiang::table::{Action, Observation, Ruleset};
use std::cell::RefCell;
use std::sync::Arc;

/// The hints of one game: the last decision's suggestion, kept while the decision is open.
#[derive(Default)]
pub struct Hints {
    last: RefCell<Option<(Observation, Option<Suggestion>)>>,
}

impl Hints {
    /// The expert's suggestion for the decision in `obs` (the person's observation now, under
    /// `ruleset`, the match's `seed`), in words with tiles drawn in `style`; `None` when there
    /// is nothing to decide.
    pub fn text(
        &self,
        obs: Observation,
        ruleset: &Arc<Ruleset>,
        seed: u64,
        style: TileStyle,
    ) -> Option<String> {
        if obs.legal_actions.len() < 2 {
            return None;
        }
        let mut last = self.last.borrow_mut();
        if last.as_ref().is_none_or(|(o, _)| *o != obs) {
            let s = suggest(&obs, &obs.legal_actions, ruleset, seed, Budget::DEFAULT);
            *last = Some((obs, s));
        }
        let s = last.as_ref()?.1.as_ref()?;
        Some(words(style, s))
    }
}

/// A suggestion in words: "expert: discard 9p — ready on 6 unseen tiles, deals in 2 %, worth
/// +1.40 chips a hand".
fn words(style: TileStyle, s: &Suggestion) -> String {
    let action = match s.action {
        Action::Discard(t) => format!("discard {}", style.tile(t)),
        Action::Chow { tiles } => format!("chow {}", style.tiles(&tiles)),
        Action::ConcealedKong(t) => format!("concealed kong of {}", style.tile(t)),
        Action::AddedKong(t) => format!("added kong of {}", style.tile(t)),
        other => other.to_string(),
    };
    let mut parts = Vec::new();
    let facts = s.facts.text();
    if !facts.is_empty() {
        parts.push(facts);
    }
    if let Some(v) = s.value {
        parts.push(format!(
            "worth {:+.2} {} a hand",
            v.mean,
            majiang::review::UNIT
        ));
    }
    if parts.is_empty() {
        format!("expert: {action}")
    } else {
        format!("expert: {action} — {}", parts.join(", "))
    }
}

//! `play --hints`: the expert's suggested discard or call for the person's decision, with a
//! one-line reason (how far from ready and the useful tiles it keeps, how often the tile deals
//! in, what it is worth), from the library's [`majiang::review::hint`] on the person's own
//! observation (the server's hints ask the same). Worked out once per decision and kept until the table changes.

use super::tiles::TileStyle;
use majiang::review::{Suggestion, hint};
use majiang::table::{Action, Observation, TableRules};
use std::cell::RefCell;
use std::sync::Arc;

/// The hints of one game: the last decision's suggestion, kept while the decision is open.
#[derive(Default)]
pub struct Hints {
    last: RefCell<Option<(Observation, Option<Suggestion>)>>,
}

impl Hints {
    /// The expert's suggestion for the decision in `obs` (the person's observation now, under
    /// `ruleset`), in words with tiles drawn in `style`; `None` when there is nothing to
    /// decide. The expert's seed and budget are a review's defaults
    /// ([`majiang::review::hint`]): `majiang review` of the log then judges every decision as
    /// the hint did.
    pub fn text(
        &self,
        obs: Observation,
        ruleset: &Arc<TableRules>,
        style: TileStyle,
    ) -> Option<String> {
        if obs.legal_actions.len() < 2 {
            return None;
        }
        let mut last = self.last.borrow_mut();
        if last.as_ref().is_none_or(|(o, _)| *o != obs) {
            let s = hint(&obs, ruleset);
            *last = Some((obs, s));
        }
        let s = last.as_ref()?.1.as_ref()?;
        Some(words(style, s))
    }
}

/// A suggestion in words: "expert: discard 9p — ready on 6 unseen tiles, deals in 2 %;
/// clearly better than discard 3m, the next best" (the figures are `majiang review --json`'s).
fn words(style: TileStyle, s: &Suggestion) -> String {
    let named = |a: Action| match a {
        Action::Discard(t) => format!("discard {}", style.tile(t)),
        Action::Chow { tiles } => format!("chow {}", style.tiles(&tiles)),
        Action::ConcealedKong(t) => format!("concealed kong of {}", style.tile(t)),
        Action::AddedKong(t) => format!("added kong of {}", style.tile(t)),
        other => other.to_string(),
    };
    let action = named(s.action);
    let mut text = s.facts.text();
    if let Some(r) = &s.runner_up {
        let compared = r.text_naming(named);
        if !text.is_empty() {
            text.push_str("; ");
        }
        text.push_str(&compared);
    }
    if text.is_empty() {
        format!("expert: {action}")
    } else {
        format!("expert: {action} — {text}")
    }
}

//! The extra wind tiles of five- and six-player classic, which the count-array analysis does
//! not model: set aside for the ordinary decision.

use super::EfficientBot;
use crate::table::{Action, Observation};
use crate::tile::Tile;

/// True when a decision touches the extra wind tiles of five- and six-player classic (bonus
/// tiles in play), which the count-array analysis does not model.
pub(crate) fn involves_extra_winds(obs: &Observation, legal: &[Action]) -> bool {
    !obs.extra_winds.is_empty()
        || obs.on_offer.is_some_and(|(_, t)| t.is_bonus())
        || legal
            .iter()
            .any(|a| action_tile(a).is_some_and(Tile::is_bonus))
        || obs.table.iter().any(|h| {
            h.melds.iter().any(|m| m.tile.is_bonus())
                || h.discards.iter().any(|d| d.tile.is_bonus())
        })
}

/// The table as the ordinary decision sees it, without extra winds: the seat's own, and every
/// meld and discard of them, are set aside (a set of them is already complete; they never help
/// a suit). The expert's planner sees the same view.
pub(crate) fn clean_view(obs: &Observation) -> Observation {
    let mut clean = obs.clone();
    clean.extra_winds.clear();
    for h in &mut clean.table {
        h.melds.retain(|m| !m.tile.is_bonus());
        h.discards.retain(|d| !d.tile.is_bonus());
    }
    if clean.last_discard.is_some_and(|(_, t)| t.is_bonus()) {
        clean.last_discard = None;
    }
    clean
}

/// The tile an action names, if it names one.
pub(crate) fn action_tile(a: &Action) -> Option<Tile> {
    match *a {
        Action::Discard(t) | Action::ConcealedKong(t) | Action::AddedKong(t) => Some(t),
        Action::Chow { tiles } => Some(tiles[0]),
        _ => None,
    }
}

impl EfficientBot {
    /// Extra winds (classic, five and six players) are honours that only form pungs and a pair:
    /// win when possible, pung or kong them whenever allowed (a wind set scores, and at six
    /// players only pungs win), throw a lone one first, keep pairs; every other decision is the
    /// ordinary one on the 34 playing kinds.
    pub(crate) fn with_extra_winds(&mut self, obs: &Observation, legal: &[Action]) -> Action {
        if legal.contains(&Action::Win) {
            return Action::Win;
        }
        if let Some(&a) = legal.iter().find(|a| {
            matches!(
                a,
                Action::Pung | Action::Kong | Action::ConcealedKong(_) | Action::AddedKong(_)
            ) && (action_tile(a).is_none_or(Tile::is_bonus))
                && (action_tile(a).is_some() || obs.on_offer.is_some_and(|(_, t)| t.is_bonus()))
        }) {
            return a;
        }
        if obs.on_offer.is_some_and(|(_, t)| t.is_bonus()) {
            return Action::Pass;
        }
        if obs.turn == Some(obs.player) && obs.extra_winds.len() == 1 {
            if let Some(&a) = legal
                .iter()
                .find(|a| matches!(a, Action::Discard(t) if t.is_bonus()))
            {
                return a;
            }
        }
        let ordinary: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| !action_tile(a).is_some_and(Tile::is_bonus))
            .collect();
        let clean = clean_view(obs);
        match ordinary.len() {
            0 => legal[0],
            1 => ordinary[0],
            _ if obs.turn == Some(obs.player) => self.on_turn(&clean, &ordinary),
            _ => self.on_offer(&clean, &ordinary),
        }
    }
}

//! Searching the calls: whether to claim a discard for a chow or pung (吃 / 碰) or pass.
//!
//! Each choice is played out in the same sampled worlds as the discards are: passing leaves the
//! bot's hand as it is and the seats draw on from the discarder's right; a claim makes the meld
//! (the bot's observation is changed to show it), throws the tile the efficient bot's planner
//! ranks first for the new hand, and the draws go on from the bot's right. The efficient bot's
//! choice stands unless another beats it by more than [`super::OVERRULE_BY`] standard errors of
//! the paired difference. Kongs on a discard (a replacement draw) are left to the efficient bot.

use super::playout::Table;
use super::{Verdict, paired, verdict, world};
use crate::bots::efficient::Planner;
use crate::meld::{Meld, MeldKind};
use crate::table::{Action, ExtraWinds, Observation, TableRules};
use crate::tile::Tile;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// One way to answer the offer: the observation after it and the tile then thrown (`None` for
/// a pass).
struct Choice {
    action: Action,
    obs: Observation,
    discard: Option<Tile>,
}

/// The observation after claiming `tile` from `from` for `action` (a chow or pung), with the
/// tiles it takes from the hand; `None` when the hand lacks them.
pub(crate) fn after_claim(
    obs: &Observation,
    action: Action,
    from: usize,
    tile: Tile,
) -> Option<Observation> {
    let (kind, start, take): (MeldKind, Tile, Vec<Tile>) = match action {
        Action::Pung => (MeldKind::Pung, tile, vec![tile, tile]),
        Action::Chow { tiles } => {
            let mut rest: Vec<Tile> = tiles.to_vec();
            let at = rest.iter().position(|&t| t == tile)?;
            rest.remove(at);
            (MeldKind::Chow, tiles[0], rest)
        }
        _ => return None,
    };
    let mut next = obs.clone();
    for t in take {
        if next.concealed.0.get(t.index()).is_none_or(|&c| c == 0) {
            return None;
        }
        next.concealed.remove(t);
    }
    let me = obs.player.index();
    let from_seat = obs.table.get(from)?.seat;
    if let Some(row) = next.table.get_mut(from) {
        if let Some(last) = row.discards.last_mut() {
            last.claimed = true;
        }
    }
    let public = next.table.get_mut(me)?;
    public.melds.push(Meld {
        kind,
        tile: start,
        from: Some(from_seat),
        claimed: Some(tile),
        extra_winds: ExtraWinds::EMPTY,
    });
    public.concealed_count = public.concealed_count.saturating_sub(2);
    next.on_offer = None;
    next.turn = Some(obs.player);
    Some(next)
}

/// What the call search found: its choice and each answer's payments in the worlds it was
/// played in.
pub(crate) struct Searched {
    /// The answer to play.
    pub(crate) choice: Action,
    /// Each answer compared (the default first) with its payments, world by world.
    pub(crate) values: Vec<(Action, Vec<i64>)>,
}

/// The answer to a discard on offer, by search, starting from the efficient bot's `default`;
/// `None` to keep the default (nothing to compare). With `every` (a review, a hint) every
/// answer is played in every world, the choice unchanged.
#[allow(clippy::too_many_arguments)]
pub(crate) fn search(
    ruleset: &Arc<TableRules>,
    obs: &Observation,
    legal: &[Action],
    default: Action,
    rollouts: u32,
    close_rounds: u32,
    horizon: u32,
    every: bool,
    rng: &mut ChaCha8Rng,
) -> Option<Searched> {
    let (from, tile) = obs.on_offer?;
    let from = from.index();
    if tile.index() >= crate::tile::KINDS {
        // An extra wind on offer (five- and six-player classic) is the efficient bot's.
        return None;
    }
    if !matches!(default, Action::Pass | Action::Pung | Action::Chow { .. }) {
        return None;
    }
    let mut options: Vec<Action> = vec![default];
    for &a in legal {
        if matches!(a, Action::Pass | Action::Pung | Action::Chow { .. }) && a != default {
            options.push(a);
        }
    }
    if options.len() < 2 {
        return None;
    }
    let mut choices = Vec::with_capacity(options.len());
    for a in options {
        if a == Action::Pass {
            choices.push(Choice {
                action: a,
                obs: obs.clone(),
                discard: None,
            });
            continue;
        }
        let Some(next) = after_claim(obs, a, from, tile) else {
            continue;
        };
        let planner = Planner::new(ruleset.clone(), &next);
        let Some(&(d, _)) = planner.ranked_discards(&next.concealed).first() else {
            continue;
        };
        choices.push(Choice {
            action: a,
            obs: next,
            discard: Some(d),
        });
    }
    if choices.len() < 2 || choices[0].action != default {
        return None;
    }
    let planners: Vec<Planner> = choices
        .iter()
        .map(|c| Planner::new(ruleset.clone(), &c.obs))
        .collect();
    let tables: Vec<Table<'_>> = choices
        .iter()
        .zip(&planners)
        .map(|(c, p)| Table {
            ruleset,
            obs: &c.obs,
            rules: ruleset.hand_rules(obs.wildcard),
            planner: p,
            horizon,
        })
        .collect();
    let value = |c: usize, w: &world::World| -> i64 {
        let t = &tables[c];
        match choices[c].discard {
            None => t.play_on(w, obs.concealed, from + 1, None),
            Some(d) => t.playout(w, &choices[c].obs.concealed, d),
        }
    };
    let base = &tables[0];
    let r = rollouts as usize;
    let mut values = vec![Vec::with_capacity(r); choices.len()];
    // The worlds the choice reads (those a dropped answer was still played in); with `every`
    // each answer is played in every world, so all are valued on the same worlds.
    let mut counted = vec![0usize; choices.len()];
    let mut playing = vec![true; choices.len()];
    for round in 0..=close_rounds {
        if round > 0 {
            for c in 1..choices.len() {
                let v = verdict(&values[c][..counted[c]], &values[0][..counted[0]]);
                playing[c] = playing[c] && v == Verdict::Close;
            }
            if !playing[1..].iter().any(|&p| p) {
                break;
            }
        }
        for _ in 0..r {
            let w = world::sample(ruleset, obs, rng, |q, h| base.pays(q, h));
            for c in 0..choices.len() {
                if playing[c] || every {
                    values[c].push(value(c, &w));
                    counted[c] += usize::from(playing[c]);
                }
            }
        }
    }
    let mut best = (default, 0.0f64);
    for c in 1..choices.len() {
        let (mean, se) = paired(&values[c][..counted[c]], &values[0][..counted[0]]);
        let margin = mean - super::OVERRULE_BY * se;
        if mean > 0.0 && margin > 0.0 && margin > best.1 {
            best = (choices[c].action, margin);
        }
    }
    Some(Searched {
        choice: best.0,
        values: choices.iter().map(|c| c.action).zip(values).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counts::TileCounts;
    use crate::table::{Game, HandSetup, Player};

    #[test]
    fn a_claim_shows_the_meld_and_leaves_a_hand_to_discard_from() {
        let rules = Arc::new(TableRules::from_name("classic", &serde_json::Map::new()).unwrap());
        let (game, _) = Game::new(rules, HandSetup::new(3)).unwrap();
        let mut obs = game.observation(Player(1));
        obs.concealed = TileCounts::parse("55m123p456s789s12z").unwrap();
        let tile = |s: &str| crate::notation::parse_tile(s).unwrap();
        let size = |o: &Observation| o.concealed.iter().map(|(_, c)| c as usize).sum::<usize>();
        let before = obs.table[1].melds.len();
        let pung = after_claim(&obs, Action::Pung, 0, tile("5m")).unwrap();
        assert_eq!(pung.table[1].melds.len(), before + 1);
        assert_eq!(pung.table[1].melds[before].kind, MeldKind::Pung);
        assert_eq!(pung.table[1].melds[before].from, Some(obs.table[0].seat));
        assert_eq!(pung.concealed.0[tile("5m").index()], 0);
        assert_eq!(size(&pung), 11);
        assert_eq!(pung.turn, Some(Player(1)));
        let chow = Action::Chow {
            tiles: [tile("2p"), tile("3p"), tile("4p")],
        };
        let chowed = after_claim(&obs, chow, 0, tile("4p")).unwrap();
        assert_eq!(chowed.table[1].melds[before].kind, MeldKind::Chow);
        assert_eq!(chowed.table[1].melds[before].tile, tile("2p"));
        assert_eq!(size(&chowed), 11);
        // A chow needs the tiles it takes: the hand has no 6m.
        let lacking = Action::Chow {
            tiles: [tile("4m"), tile("5m"), tile("6m")],
        };
        assert!(after_claim(&obs, lacking, 0, tile("4m")).is_none());
        assert!(after_claim(&obs, Action::Pass, 0, tile("4m")).is_none());
    }
}

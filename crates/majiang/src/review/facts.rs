//! The plain facts of one alternative that a person weighs: how far the hand is from ready
//! after it, how many tiles would bring it closer (and how many of those the seat has not
//! seen), how often the tile deals in, and what the playouts say it is worth. The one-line
//! reasons of a review and of a hint are worded from them.

use crate::analysis;
use crate::bots::expert::Valued;
use crate::counts::TileCounts;
use crate::table::{Action, Observation, TableRules};
use crate::tile::{KINDS, Tile};
use serde::{Deserialize, Serialize};

/// What a person weighs about one alternative.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Facts {
    /// The action.
    pub action: Action,
    /// Tiles from ready after it (`0` ready, `-1` a complete hand), when it leaves a hand.
    pub shanten: Option<i8>,
    /// Kinds of tile that would bring the hand closer to ready (or win it, when ready), for a
    /// hand that waits on a tile (after a discard or a pass; not after a claim, which still
    /// has a tile to throw).
    pub useful_kinds: Option<u32>,
    /// Copies of those kinds the seat has not seen.
    pub useful_unseen: Option<u32>,
    /// For a discard: the share of the playouts' worlds in which an opponent wins on it.
    pub deal_in: Option<f64>,
    /// The playouts' mean payment to the seat, in chips.
    pub value: Option<f64>,
    /// What it does with the extra winds of five- and six-player classic, when it is about
    /// them (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra_wind: Option<ExtraWindMove>,
}

/// What an action does with the extra winds (five- and six-player classic's flower tiles,
/// which only ever form pungs or a pair), in the words of its reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExtraWindMove {
    /// Throws a lone extra wind: it can only ever be a pung or the pair, so it goes first.
    ThrowLone,
    /// Throws one of a pair (or more) of extra winds.
    BreakPair,
    /// Makes a set of extra winds (a pung or kong): a scoring set, double for North-East and
    /// South-West.
    MakeSet,
    /// Lets an extra wind on offer go.
    LetGo,
}

impl ExtraWindMove {
    /// What `action` does with the extra winds for the seat of `obs`, if anything.
    fn of(obs: &Observation, action: Action) -> Option<ExtraWindMove> {
        let offered = obs.on_offer.is_some_and(|(_, t)| t.is_bonus());
        match action {
            Action::Discard(t) if t.is_bonus() => Some(if obs.extra_winds.len() <= 1 {
                ExtraWindMove::ThrowLone
            } else {
                ExtraWindMove::BreakPair
            }),
            Action::ConcealedKong(t) | Action::AddedKong(t) if t.is_bonus() => {
                Some(ExtraWindMove::MakeSet)
            }
            Action::Pung | Action::Kong if offered => Some(ExtraWindMove::MakeSet),
            Action::Pass if offered => Some(ExtraWindMove::LetGo),
            _ => None,
        }
    }

    /// In words.
    pub fn text(self) -> &'static str {
        match self {
            ExtraWindMove::ThrowLone => {
                "a lone extra wind makes a set only as a pung or the pair: it goes first"
            }
            ExtraWindMove::BreakPair => "breaks a pair of extra winds",
            ExtraWindMove::MakeSet => {
                "a set of extra winds scores (double for North-East and South-West)"
            }
            ExtraWindMove::LetGo => "lets the extra wind go",
        }
    }
}

/// Copies of each kind the seat of `obs` has not seen (its hand, the discards, the melds, the
/// flowers and the indicator are seen).
fn unseen(obs: &Observation) -> [u8; KINDS] {
    let mut left = [4u8; KINDS];
    let mut see = |t: Tile, n: u8| {
        if let Some(c) = left.get_mut(t.index()) {
            *c = c.saturating_sub(n);
        }
    };
    for (t, c) in obs.concealed.iter() {
        see(t, c);
    }
    for p in &obs.table {
        for d in &p.discards {
            if !d.claimed {
                see(d.tile, 1);
            }
        }
        for m in &p.melds {
            for t in m.tiles() {
                see(t, 1);
            }
        }
        for &f in &p.flowers {
            see(f, 1);
        }
    }
    if let Some(t) = obs.indicator {
        see(t, 1);
    }
    left
}

/// The hand `action` leaves the seat of `obs` with, when it leaves one to judge: after a
/// discard, after a claim's tiles leave it, as it is after a pass.
fn hand_after(obs: &Observation, action: Action) -> Option<TileCounts> {
    let mut hand = obs.concealed;
    match action {
        Action::Discard(t) => {
            if hand.get(t) == 0 {
                return None;
            }
            hand.remove(t);
        }
        Action::Pung => {
            let (_, t) = obs.on_offer?;
            for _ in 0..2 {
                if hand.get(t) == 0 {
                    return None;
                }
                hand.remove(t);
            }
        }
        Action::Chow { tiles } => {
            let (_, claimed) = obs.on_offer?;
            let mut skipped = false;
            for t in tiles {
                if t == claimed && !skipped {
                    skipped = true;
                    continue;
                }
                if hand.get(t) == 0 {
                    return None;
                }
                hand.remove(t);
            }
        }
        Action::Pass => {}
        Action::Win => {
            if let Some((_, t)) = obs.on_offer {
                hand.add(t);
            }
        }
        _ => return None,
    }
    Some(hand)
}

impl Facts {
    /// The facts of `action` for the seat of `obs`, with its playouts' `valued` when given.
    pub fn of(
        obs: &Observation,
        ruleset: &TableRules,
        action: Action,
        valued: Option<&Valued>,
    ) -> Facts {
        let rules = ruleset.hand_rules(obs.wildcard);
        let mut facts = Facts {
            action,
            shanten: None,
            useful_kinds: None,
            useful_unseen: None,
            deal_in: valued.and_then(|v| v.deal_in),
            value: valued.map(|v| v.value.mean),
            extra_wind: ExtraWindMove::of(obs, action),
        };
        let Some(hand) = hand_after(obs, action) else {
            return facts;
        };
        facts.shanten = Some(analysis::shanten(&hand, &rules));
        if hand.len() % 3 == 1 {
            let left = unseen(obs);
            let useful = analysis::useful_tiles(&hand, &rules);
            facts.useful_kinds = Some(useful.len() as u32);
            facts.useful_unseen = Some(useful.iter().map(|t| u32::from(left[t.index()])).sum());
        }
        facts
    }

    /// The facts in a few words: "1 from ready, 12 useful tiles unseen, deals in 4 %".
    pub fn text(&self) -> String {
        let mut parts = Vec::new();
        match (self.shanten, self.useful_unseen) {
            (Some(-1), _) => parts.push("a complete hand".to_string()),
            (Some(0), Some(u)) => parts.push(format!("ready on {u} unseen tiles")),
            (Some(s), Some(u)) => parts.push(format!("{s} from ready, {u} useful tiles unseen")),
            // A hand after a claim still throws a tile: its distance counts that discard.
            (Some(0), None) => parts.push("ready after its discard".to_string()),
            (Some(s), None) => parts.push(format!("{s} from ready after its discard")),
            (None, _) => {}
        }
        if let Some(e) = self.extra_wind {
            parts.insert(0, e.text().to_string());
        }
        if let Some(d) = self.deal_in {
            parts.push(format!("deals in {:.0} %", d * 100.0));
        }
        parts.join(", ")
    }
}

/// Why the expert's choice beats the one played, in one line, from both facts: the
/// difference that matters most (the distance from ready, then the danger, then the useful
/// tiles), and the values in chips.
pub fn reason(expert: &Facts, played: &Facts) -> String {
    let value = match (expert.value, played.value) {
        (Some(e), Some(p)) => format!("; worth {e:+.2} against {p:+.2} {} a hand", super::UNIT),
        _ => String::new(),
    };
    let (ea, pa) = (expert.action, played.action);
    let why = match (expert.extra_wind, played.extra_wind) {
        (Some(e), _) => format!("{ea}: {}", e.text()),
        (None, Some(p)) => format!("{pa}: {}", p.text()),
        (None, None) => reason_in_hand(expert, played),
    };
    format!("{why}{value}")
}

/// [`reason`]'s difference for two actions on the playing tiles.
fn reason_in_hand(expert: &Facts, played: &Facts) -> String {
    let (ea, pa) = (expert.action, played.action);
    match (expert.shanten, played.shanten) {
        (Some(e), Some(p)) if e < p => format!(
            "{ea} keeps the hand {} where {pa} leaves it {}",
            distance(e),
            distance(p)
        ),
        _ => match (expert.deal_in, played.deal_in) {
            (Some(e), Some(p)) if p > e + 0.02 => format!(
                "{pa} deals in {:.0} % of the time, {ea} {:.0} %",
                p * 100.0,
                e * 100.0
            ),
            _ => match (expert.useful_unseen, played.useful_unseen) {
                (Some(e), Some(p)) if e > p => {
                    format!("{ea} keeps {e} useful tiles unseen, {pa} {p}")
                }
                _ => format!("{ea} wins or saves more in the playouts than {pa}"),
            },
        },
    }
}

/// A distance from ready in words.
fn distance(shanten: i8) -> String {
    match shanten {
        -1 => "complete".to_string(),
        0 => "ready".to_string(),
        1 => "1 tile from ready".to_string(),
        s => format!("{s} tiles from ready"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Game, HandSetup};
    use std::sync::Arc;

    #[test]
    fn facts_read_the_hand_after_the_discard_and_count_unseen_useful_tiles() {
        let rules = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
        let (game, _) = Game::new(rules.clone(), HandSetup::new(5)).unwrap();
        let mut obs = game.observation(game.dealer());
        // Ready on 1m/4m once the 9p goes (four sets and a pair, less one tile).
        obs.concealed = TileCounts::parse("23m456p789p111s55z9p").unwrap();
        let t = |s: &str| crate::notation::parse_tile(s).unwrap();
        let f = Facts::of(&obs, &rules, Action::Discard(t("9p")), None);
        assert_eq!(f.shanten, Some(0));
        assert_eq!(f.useful_kinds, Some(2));
        assert!(
            f.useful_unseen.is_some_and(|u| (1..=8).contains(&u)),
            "{f:?}"
        );
        assert!(f.text().starts_with("ready on"), "{}", f.text());
        // Throwing the 2m breaks the 23m wait: further from ready.
        let g = Facts::of(&obs, &rules, Action::Discard(t("2m")), None);
        assert_eq!(g.shanten, Some(1));
        let why = reason(&f, &g);
        assert!(why.contains("keeps the hand ready"), "{why}");
        // A claim's useful tiles are not counted (a tile is still to go): never compared.
        let claim = Facts {
            action: Action::Pung,
            shanten: Some(1),
            useful_kinds: None,
            useful_unseen: None,
            deal_in: None,
            value: Some(7.5),
            extra_wind: None,
        };
        let pass = Facts {
            action: Action::Pass,
            shanten: Some(1),
            useful_kinds: Some(3),
            useful_unseen: Some(6),
            deal_in: None,
            value: Some(-1.5),
            extra_wind: None,
        };
        assert_eq!(
            reason(&claim, &pass),
            "pung wins or saves more in the playouts than pass; worth +7.50 against -1.50 chips a hand"
        );
        assert_eq!(claim.text(), "1 from ready after its discard");
        // A tile not in hand leaves nothing to judge.
        assert_eq!(
            Facts::of(&obs, &rules, Action::Discard(t("1z")), None).shanten,
            None
        );
    }
}

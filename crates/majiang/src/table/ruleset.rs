//! A rule set as the engine sees it: its options, the table facts derived from them
//! ([`TableConfig`]), and the hooks the engine asks (who may win off whom, scoring).

use super::config::TableConfig;
use crate::analysis::HandRules;
pub use crate::rules::RuleSetKind;
use crate::rules::RuleSetSpec;
use crate::scoring::request::Malformed;
use crate::scoring::{Explain, Invalid, Scored, WinSituation};
use crate::seat::Seat;
use crate::tile::Tile;
use serde_json::{Map, Value};

/// A rule set ready for the table: options, derived table facts and hooks.
///
/// ```
/// use majiang::table::Ruleset;
/// let r = Ruleset::from_name("hongkong", &serde_json::Map::new()).unwrap();
/// assert_eq!(r.config().tile_count(), 144);
/// assert_eq!(r.config().dead_wall.size(), 14);
/// assert!(Ruleset::from_name("riichi", &serde_json::Map::new()).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ruleset {
    kind: RuleSetKind,
    config: TableConfig,
}

impl Ruleset {
    /// The rule set with these options. Options that contradict each other (flowers at a
    /// five- or six-player classic table, whose bonus tiles are extra winds) are refused with a
    /// message.
    pub fn new(kind: RuleSetKind) -> Result<Ruleset, Malformed> {
        let config = kind.table_config()?;
        Ok(Ruleset { kind, config })
    }

    /// The rule set named `name` (one of [`RULE_SETS`](crate::rules::RULE_SETS)) with house
    /// rules read by that rule set's own options parser (unknown names and bad values are
    /// refused with a message).
    pub fn from_name(name: &str, options: &Map<String, Value>) -> Result<Ruleset, Malformed> {
        Ruleset::new(RuleSetKind::from_name(name, options)?)
    }

    /// The rule set and its options.
    pub fn kind(&self) -> &RuleSetKind {
        &self.kind
    }

    /// What the rule set is: names, seats, unit, lao, options, patterns.
    pub fn spec(&self) -> &'static RuleSetSpec {
        self.kind.spec()
    }

    /// The table facts.
    pub fn config(&self) -> &TableConfig {
        &self.config
    }

    /// The rule set's name (`hongkong`, ...).
    pub fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// Players at the table.
    pub fn players(&self) -> usize {
        usize::from(self.config.players)
    }

    /// The seat winds in turn order, East (the dealer) first.
    pub fn seats(&self) -> &'static [Seat] {
        Seat::order(self.players()).unwrap_or(&Seat::FOUR)
    }

    /// The winning shapes, with `wild` as the wild kind when the rule set has wildcards.
    pub fn hand_rules(&self, wild: Option<Tile>) -> HandRules {
        let mut rules = self.config.hand_rules;
        rules.wildcard = None;
        match wild {
            Some(w) => rules.with_wildcard(w),
            None => rules,
        }
    }

    /// Scores a win with the rule set's scorer, its payments itemised with their reasons.
    /// `Err` when the hand does not win under these rules (not complete, below the minimum, a
    /// win the rules forbid).
    pub fn score(&self, situation: &WinSituation) -> Result<Scored, Invalid> {
        self.kind.score(situation, Explain::Itemise)
    }

    /// Whether the win scores, and why not: [`Ruleset::score`] without writing out the
    /// payments, for the engine's legality checks.
    pub fn accepts_win(&self, situation: &WinSituation) -> Result<(), Invalid> {
        self.kind.score(situation, Explain::Quiet).map(|_| ())
    }

    /// Whether the player at seat `winner` may win on a discard by `discarder` when the
    /// dealer (East) is at `lao`. Hangzhou: from 3 lao on, and only between the dealer and a
    /// non-dealer; elsewhere always. (Robbing a kong is not a discard win.)
    pub fn may_win_on_discard(&self, winner: Seat, discarder: Seat, lao: u8) -> bool {
        self.kind.may_win_on_discard(winner, discarder, lao)
    }

    /// Whether the player at seat `winner` may rob an added kong declared by `konger`: always
    /// (Hangzhou too: the added tile is not a discard, so the lao phases do not apply).
    pub fn may_rob_kong(&self, winner: Seat, konger: Seat) -> bool {
        winner != konger
    }
}

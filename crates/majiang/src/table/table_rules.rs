//! A rule set as the engine sees it: the [`RuleSet`] under its house rules, the table facts
//! derived from them ([`TableConfig`]), and the hooks the engine asks (who may win off whom,
//! scoring).

use crate::analysis::HandRules;
use crate::config::TableConfig;
use crate::rules::registry;
use crate::rules::rule_set::{RuleSet, RuleSetSpec};
use crate::scoring::request::Malformed;
use crate::scoring::{Explain, Invalid, Scored, WinSituation};
use crate::seat::Seat;
use crate::tile::Tile;
use serde_json::{Map, Value};
use std::fmt;
use std::sync::Arc;

/// A rule set ready for the table: the set under its house rules, and the table facts.
///
/// ```
/// use majiang::table::TableRules;
/// let r = TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap();
/// assert_eq!(r.config().tile_count(), 144);
/// assert_eq!(r.config().dead_wall.size(), 14);
/// assert!(TableRules::from_name("riichi", &serde_json::Map::new()).is_err());
/// ```
#[derive(Clone)]
pub struct TableRules {
    set: Arc<dyn RuleSet>,
    config: TableConfig,
}

impl TableRules {
    /// The rule set under its house rules, as a [`RuleSet`] gives it (any set: one of the
    /// registry's, read with its options, or one of a caller's own). Options that contradict
    /// each other (flowers at a five- or six-player classic table, whose bonus tiles are extra
    /// winds) are refused with a message.
    pub fn new(set: Box<dyn RuleSet>) -> Result<TableRules, Malformed> {
        let config = set.table_config()?;
        Ok(TableRules {
            set: Arc::from(set),
            config,
        })
    }

    /// The rule set `set` under the house rules of `options`, read by its own parser.
    pub fn with_options(
        set: &dyn RuleSet,
        options: &Map<String, Value>,
    ) -> Result<TableRules, Malformed> {
        TableRules::new(set.read(options)?)
    }

    /// The rule set named `name` (one of [`RULE_SETS`](crate::rules::RULE_SETS)) with house
    /// rules read by that rule set's own options parser (unknown names and bad values are
    /// refused with a message).
    pub fn from_name(name: &str, options: &Map<String, Value>) -> Result<TableRules, Malformed> {
        TableRules::new(registry::read(name, options)?)
    }

    /// The rule set under its house rules.
    pub fn set(&self) -> &dyn RuleSet {
        &*self.set
    }

    /// What the rule set is: names, seats, unit, lao, options, patterns, payment reasons.
    pub fn spec(&self) -> &'static RuleSetSpec {
        self.set.spec()
    }

    /// The table facts.
    pub fn config(&self) -> &TableConfig {
        &self.config
    }

    /// The rule set's name (`hongkong`, ...).
    pub fn name(&self) -> &'static str {
        self.set.name()
    }

    /// The house rules as a JSON object the rule set's parser reads back (a log's header).
    pub fn options_json(&self) -> Map<String, Value> {
        self.set.options_json()
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
        self.set.score(situation, Explain::Itemise)
    }

    /// Whether the win scores, and why not: [`TableRules::score`] without writing out the
    /// payments, for the engine's legality checks.
    pub fn accepts_win(&self, situation: &WinSituation) -> Result<(), Invalid> {
        self.set.score(situation, Explain::Quiet).map(|_| ())
    }

    /// Whether the player at seat `winner` may win on a discard by `discarder` when the
    /// dealer (East) is at `lao`: never on one's own discard; otherwise as the rule set says
    /// (Hangzhou: from 3 lao on, and only between the dealer and a non-dealer; elsewhere
    /// always). Robbing a kong is not a discard win.
    pub fn may_win_on_discard(&self, winner: Seat, discarder: Seat, lao: u8) -> bool {
        winner != discarder && self.set.may_win_on_discard(winner, discarder, lao)
    }

    /// Whether a passed win bars the player from winning on that tile's kind until their next
    /// draw from the live wall ([`RuleSet::missed_win`]: Hong Kong's `missed_win`).
    pub fn missed_win(&self) -> bool {
        self.set.missed_win()
    }

    /// Whether the player at seat `winner` may rob an added kong declared by `konger`: always
    /// (Hangzhou too: the added tile is not a discard, so the lao phases do not apply).
    pub fn may_rob_kong(&self, winner: Seat, konger: Seat) -> bool {
        winner != konger
    }
}

impl fmt::Debug for TableRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TableRules")
            .field("set", &self.set)
            .field("config", &self.config)
            .finish()
    }
}

/// Two rule sets are equal when they are the same set under the same house rules.
impl PartialEq for TableRules {
    fn eq(&self, other: &TableRules) -> bool {
        self.name() == other.name()
            && self.options_json() == other.options_json()
            && self.config == other.config
    }
}

impl Eq for TableRules {}

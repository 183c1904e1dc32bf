//! The one list of rule sets. Everything that needs to know what a rule set is (its name, seat
//! counts, unit, lao, options, patterns, table configuration, match rules) asks here or asks
//! the [`Ruleset`](crate::table::Ruleset) built from it; no other code compares rule-set names
//! or matches [`RuleSetKind`] variants. Adding a rule set: a `rules/<set>/spec.rs`, a variant
//! below, one line in [`RULE_SETS`] and one arm in each `match` of this file.
//!
//! ```
//! use majiang::rules::{RULE_SETS, lookup};
//! assert_eq!(RULE_SETS.len(), 4);
//! let classic = lookup("classic").unwrap();
//! assert_eq!(classic.seat_counts(), 3..=6);
//! assert_eq!(classic.chinese, "中国古典麻将");
//! assert!(lookup("riichi").unwrap_err().0.contains("hongkong, hangzhou, yangzhou, classic"));
//! ```

use super::option_table::{Allowed, OptionSpec};
pub use super::readiness::Readiness;
use super::{classic, hangzhou, hongkong, yangzhou};
use crate::scoring::request::Malformed;
use crate::scoring::{Explain, Invalid, PatternDef, RuleOptions, Scored, WinSituation};
use crate::seat::Seat;
use crate::table::config::TableConfig;
use crate::table::matches::MatchRules;
use serde::Serialize;
use serde_json::{Map, Value};
use std::ops::RangeInclusive;

/// A rule set with its house-rule options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleSetKind {
    /// Hong Kong (seeds 002, 004; `docs/rules/hongkong.md`).
    HongKong(hongkong::Options),
    /// Hangzhou (seed 000; `docs/rules/hangzhou.md`).
    Hangzhou(hangzhou::Options),
    /// Yangzhou (seed 001; `docs/rules/yangzhou.md`).
    Yangzhou(yangzhou::Options),
    /// Classic Chinese (seed 003; `docs/rules/classic.md`).
    Classic(classic::Options),
}

/// Every rule set, in the order help and the lobby list them.
pub static RULE_SETS: [&RuleSetSpec; 4] = [
    &hongkong::spec::SPEC,
    &hangzhou::spec::SPEC,
    &yangzhou::spec::SPEC,
    &classic::spec::SPEC,
];

/// The rule set called `name`; an unknown name is refused with a message listing the sets.
pub fn lookup(name: &str) -> Result<&'static RuleSetSpec, Malformed> {
    RULE_SETS
        .iter()
        .copied()
        .find(|s| s.name == name)
        .ok_or_else(|| {
            Malformed(format!(
                "rules: {name:?} is not a rule set ({})",
                names_text()
            ))
        })
}

/// The rule sets' names, comma-separated (`hongkong, hangzhou, yangzhou, classic`).
pub fn names_text() -> String {
    let names: Vec<&str> = RULE_SETS.iter().map(|s| s.name).collect();
    names.join(", ")
}

/// What a hand's score counts, and how to show an amount of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreUnit {
    /// Fan (番): Hong Kong, Yangzhou.
    Fan,
    /// A multiplier of the base score (分): Hangzhou.
    Multiplier,
    /// Points (classic), doubled by the doubling rows.
    Points,
}

impl ScoreUnit {
    /// The unit's name in English (`fan`, `multiplier`, `points`).
    pub const fn name(self) -> &'static str {
        match self {
            ScoreUnit::Fan => "fan",
            ScoreUnit::Multiplier => "multiplier",
            ScoreUnit::Points => "points",
        }
    }

    /// The unit in Chinese (番, 分, 分).
    pub const fn chinese(self) -> &'static str {
        match self {
            ScoreUnit::Fan => "番",
            ScoreUnit::Multiplier | ScoreUnit::Points => "分",
        }
    }

    /// An amount in this unit: `3 fan`, `×4`, `10 points`.
    pub fn show(self, amount: i64) -> String {
        match self {
            ScoreUnit::Fan => format!("{amount} fan"),
            ScoreUnit::Multiplier => format!("×{amount}"),
            ScoreUnit::Points => format!("{amount} points"),
        }
    }
}

/// How many players a rule set seats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seats {
    /// Always this many.
    Fixed(u8),
    /// As the `players` option says (its allowed range and default are in the options table).
    PlayersOption,
}

/// What a rule set asks of a winning hand and what pays, as a planning bot reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aims {
    /// Fewest fan a win needs (0: no minimum).
    pub min_fan: i32,
    /// Fan the one-suit aim brings by itself.
    pub flush_fan: i32,
    /// Fan the all-pungs aim brings (0: not an aim here).
    pub pungs_fan: i32,
    /// Fan of seven pairs (0 when it is not a win or not an aim).
    pub seven_pairs_fan: i32,
    /// Value pungs (dragons, seat and round wind) and flowers bring fan (Hong Kong).
    pub value_honour_fan: bool,
    /// Small rows do not add up to the minimum; only big patterns do.
    pub big_patterns_only: bool,
    /// Pungs of honours and terminals are worth calling (classic points).
    pub pung_points: bool,
    /// Every player's hand is scored at a win and the losers settle among themselves too
    /// (classic): a hand that does not win still earns or pays by its sets.
    pub losers_settle: bool,
    /// One suit doubles the whole hand's score (classic: with honours once, alone three times).
    pub one_suit_doubles: bool,
    /// What feeding a player's third exposed meld may cost (a bot weighs it before a discard).
    pub fed_third_meld: FedThirdMeld,
    /// How soon a player is ready under these rules, measured (see [`Readiness`]).
    pub ready: &'static Readiness,
}

/// What it may cost to feed a player's third exposed meld with a discard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FedThirdMeld {
    /// Nothing beyond the meld itself.
    Nothing,
    /// Whoever's discard makes a one-suit (or all-honours) hand's third exposed meld pays the
    /// whole hand when it wins (Yangzhou 包牌 Pao Pai).
    OneSuitFeederPays,
    /// A player who fed three of the winner's melds pays every share doubled (Hangzhou 三摊承包
    /// San Tan Chengbao).
    ThreeFromOnePays,
}

impl Aims {
    /// No minimum and nothing in particular to aim at (Hangzhou).
    pub const NONE: Aims = Aims {
        min_fan: 0,
        flush_fan: 0,
        pungs_fan: 0,
        seven_pairs_fan: 0,
        value_honour_fan: false,
        big_patterns_only: false,
        pung_points: false,
        losers_settle: false,
        one_suit_doubles: false,
        fed_third_meld: FedThirdMeld::Nothing,
        ready: &Readiness::UNMEASURED,
    };
}

/// Reads a rule set's options object into its [`RuleSetKind`].
pub type ReadOptions = fn(&Map<String, Value>) -> Result<RuleSetKind, Malformed>;

/// Scores a scoring request's situation with a rule set's options object.
pub type ScoreRequestFn =
    fn(&Map<String, Value>, &WinSituation) -> Result<Result<Scored, Invalid>, Malformed>;

/// What a rule set is: one per set, in its `rules/<set>/spec.rs`.
#[derive(Debug)]
pub struct RuleSetSpec {
    /// The name the command line, requests and logs use (`hongkong`).
    pub name: &'static str,
    /// The name in English (`Hong Kong mahjong`).
    pub english: &'static str,
    /// The name in Chinese (`香港麻将`).
    pub chinese: &'static str,
    /// How many players it seats.
    pub seats: Seats,
    /// What a hand's score counts.
    pub unit: ScoreUnit,
    /// Whether the dealer counts lao (老庄) and discard wins depend on it.
    pub lao: bool,
    /// Its house-rule options (the table its parser checks against).
    pub options: &'static [OptionSpec],
    /// Its scoring patterns.
    pub patterns: &'static [PatternDef],
    /// Its options parser.
    pub read: ReadOptions,
    /// Its scorer for a §6 scoring request.
    pub score_request: ScoreRequestFn,
}

impl RuleSetSpec {
    /// The table sizes it allows (`4..=4`; classic `3..=6`).
    pub fn seat_counts(&self) -> RangeInclusive<u8> {
        match (self.seats, self.players_option().map(|o| o.allowed)) {
            (Seats::PlayersOption, Some(Allowed::Whole { min, max })) => {
                let clamp = |n: i64| u8::try_from(n).unwrap_or(u8::MAX);
                clamp(min)..=clamp(max)
            }
            (Seats::Fixed(n), _) => n..=n,
            (Seats::PlayersOption, _) => 4..=4,
        }
    }

    /// The table size without options.
    pub fn default_players(&self) -> u8 {
        match (self.seats, self.players_option()) {
            (Seats::Fixed(n), _) => n,
            (Seats::PlayersOption, Some(o)) => o
                .default_value()
                .as_u64()
                .and_then(|n| u8::try_from(n).ok())
                .unwrap_or(4),
            (Seats::PlayersOption, None) => 4,
        }
    }

    /// The `players` option, if the set has one.
    pub fn players_option(&self) -> Option<&'static OptionSpec> {
        self.options.iter().find(|o| o.key == "players")
    }

    /// Reads an options object into the rule set with these options.
    pub fn read(&self, options: &Map<String, Value>) -> Result<RuleSetKind, Malformed> {
        (self.read)(options)
    }

    /// Bonus tiles played as extra winds at a table of `players` (classic five and six).
    pub fn extra_winds(&self, players: u8) -> u8 {
        if self.seat_counts().contains(&players) && players >= 5 {
            TableConfig::extra_winds_at(players)
        } else {
            0
        }
    }

    /// The whole description as JSON, as `GET /api/rulesets` sends it.
    pub fn to_json(&self) -> Value {
        let seats = self.seat_counts();
        serde_json::json!({
            "name": self.name,
            "english": self.english,
            "chinese": self.chinese,
            "seat_counts": seats.clone().collect::<Vec<u8>>(),
            // The seats in turn order at each table size, e.g. "3": ["east", "south", "north"].
            "seat_orders": seats
                .map(|n| (n.to_string(), serde_json::json!(Seat::order(usize::from(n)))))
                .collect::<Map<String, Value>>(),
            "default_players": self.default_players(),
            "unit": self.unit,
            "unit_chinese": self.unit.chinese(),
            "lao": self.lao,
            "options": self.options.iter().map(|o| serde_json::json!({
                "key": o.key,
                "default": o.default_value(),
                "allowed": o.allowed,
                "allowed_text": o.allowed.to_string(),
                "meaning": o.meaning,
            })).collect::<Vec<_>>(),
            "patterns": self.patterns.iter().map(|p| serde_json::json!({
                "id": p.id,
                "name": p.name,
                "value": p.value,
                "unit": p.unit,
                "definition": p.definition,
                "option": p.option,
                "per_set": p.per_set,
                // A limit hand is paid the limit (an option) rather than its value added up.
                "limit": p.option == Some("limit"),
            })).collect::<Vec<_>>(),
        })
    }
}

impl RuleSetKind {
    /// The rule set named `name` with house rules read by its own options parser.
    pub fn from_name(name: &str, options: &Map<String, Value>) -> Result<RuleSetKind, Malformed> {
        lookup(name)?.read(options)
    }

    /// What the rule set is.
    pub fn spec(&self) -> &'static RuleSetSpec {
        match self {
            RuleSetKind::HongKong(_) => &hongkong::spec::SPEC,
            RuleSetKind::Hangzhou(_) => &hangzhou::spec::SPEC,
            RuleSetKind::Yangzhou(_) => &yangzhou::spec::SPEC,
            RuleSetKind::Classic(_) => &classic::spec::SPEC,
        }
    }

    /// The rule set's name as the command line and the scoring request spell it.
    pub fn name(&self) -> &'static str {
        self.spec().name
    }

    /// The table facts these options give. Options that contradict each other are refused.
    pub fn table_config(&self) -> Result<TableConfig, Malformed> {
        match self {
            RuleSetKind::HongKong(o) => Ok(hongkong::spec::table_config(o)),
            RuleSetKind::Hangzhou(o) => Ok(hangzhou::spec::table_config(o)),
            RuleSetKind::Yangzhou(o) => Ok(yangzhou::spec::table_config(o)),
            RuleSetKind::Classic(o) => classic::spec::table_config(o),
        }
    }

    /// The match rules these options give: rotation, the end, starting chips.
    pub fn match_rules(&self) -> MatchRules {
        match self {
            RuleSetKind::HongKong(_) => hongkong::spec::match_rules(),
            RuleSetKind::Hangzhou(o) => hangzhou::spec::match_rules(o),
            RuleSetKind::Yangzhou(_) => yangzhou::spec::match_rules(),
            RuleSetKind::Classic(_) => classic::spec::match_rules(),
        }
    }

    /// Scores a win with the rule set's scorer, itemising the payments or not as `explain`
    /// says.
    pub fn score(&self, situation: &WinSituation, explain: Explain) -> Result<Scored, Invalid> {
        match self {
            RuleSetKind::HongKong(o) => o.score(situation, explain),
            RuleSetKind::Hangzhou(o) => o.score(situation, explain),
            RuleSetKind::Yangzhou(o) => o.score(situation, explain),
            RuleSetKind::Classic(o) => o.score(situation, explain),
        }
    }

    /// Whether `winner` may win on a discard by `discarder` when the dealer (East) is at
    /// `lao`: never on one's own discard; Hangzhou by its lao phases; elsewhere always.
    pub fn may_win_on_discard(&self, winner: Seat, discarder: Seat, lao: u8) -> bool {
        winner != discarder
            && match self {
                RuleSetKind::Hangzhou(_) => {
                    hangzhou::eligibility::discard_win_allowed(winner, discarder, Seat::East, lao)
                }
                _ => true,
            }
    }

    /// The options as a JSON object the options parser reads back.
    pub fn options_json(&self) -> Map<String, Value> {
        let value = match self {
            RuleSetKind::HongKong(o) => serde_json::to_value(o),
            RuleSetKind::Hangzhou(o) => serde_json::to_value(o),
            RuleSetKind::Yangzhou(o) => serde_json::to_value(o),
            RuleSetKind::Classic(o) => serde_json::to_value(o),
        };
        match value {
            Ok(Value::Object(map)) => map,
            _ => Map::new(),
        }
    }

    /// What a winning hand must reach and what pays, for a bot that plans its hand.
    pub fn aims(&self) -> Aims {
        match self {
            RuleSetKind::HongKong(o) => hongkong::spec::aims(o),
            RuleSetKind::Hangzhou(_) => hangzhou::spec::aims(),
            RuleSetKind::Yangzhou(o) => yangzhou::spec::aims(o),
            RuleSetKind::Classic(o) => classic::spec::aims(o),
        }
    }
}

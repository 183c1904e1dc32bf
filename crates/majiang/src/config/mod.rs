//! The plain facts a rule set fixes before anyone sits down, as data every layer reads: the
//! table ([`TableConfig`]: players, tiles, wall, dead wall, wildcards, claims) and the match
//! ([`MatchRules`]: rotation, the end, the chips). A rule set describes itself with them
//! ([`RuleSet::table_config`](crate::rules::RuleSet::table_config)); the engine, the scorer's
//! requests and the server read them instead of matching on a set's name.

mod match_rules;
mod table;

pub use match_rules::{Deal, EndReason, EndRule, HAND_CAP, MatchRules, Rotation};
pub use table::{DeadWall, SeatChoiceRule, TableConfig, WildcardRule};

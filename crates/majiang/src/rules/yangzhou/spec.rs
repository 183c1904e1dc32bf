//! Yangzhou mahjong as a [`RuleSet`]: names, seats, unit, options table, payment reasons,
//! table configuration, match rules, a bot's aims and readiness, scoring
//! (`docs/rules/yangzhou.md`).

use super::options::OPTIONS;
use super::{Options, PATTERNS, settle};
use crate::analysis::HandRules;
use crate::config::{DeadWall, SeatChoiceRule, TableConfig, WildcardRule};
use crate::config::{EndRule, MatchRules, Rotation};
use crate::rules::rule_set::{
    Aims, FedThirdMeld, Readiness, RuleSet, RuleSetSpec, ScoreUnit, Seats, options_object,
    score_under,
};
use crate::scoring::request::Malformed;
use crate::scoring::{Explain, Invalid, Scored, WinSituation};
use serde_json::{Map, Value};

/// What Yangzhou mahjong is.
pub static SPEC: RuleSetSpec = RuleSetSpec {
    name: "yangzhou",
    english: "Yangzhou mahjong",
    chinese: "扬州麻将",
    seats: Seats::Fixed(4),
    unit: ScoreUnit::Fan,
    lao: false,
    options: OPTIONS,
    patterns: PATTERNS,
    reasons: settle::REASONS,
};

/// Yangzhou mahjong under its default house rules (the registry's entry).
pub static YANGZHOU: Options = Options::DEFAULT;

/// Yangzhou mahjong under these house rules.
impl RuleSet for Options {
    fn spec(&self) -> &'static RuleSetSpec {
        &SPEC
    }

    fn read(&self, options: &Map<String, Value>) -> Result<Box<dyn RuleSet>, Malformed> {
        Ok(Box::new(Options::from_json(options)?))
    }

    fn score_request(
        &self,
        options: &Map<String, Value>,
        situation: &WinSituation,
    ) -> Result<Result<Scored, Invalid>, Malformed> {
        score_under(&Options::from_json(options)?, situation)
    }

    fn options_json(&self) -> Map<String, Value> {
        options_object(self)
    }

    fn table_config(&self) -> Result<TableConfig, Malformed> {
        Ok(table_config(self))
    }

    fn match_rules(&self) -> MatchRules {
        match_rules()
    }

    fn aims(&self) -> Aims {
        aims(self)
    }

    fn score(&self, situation: &WinSituation, explain: Explain) -> Result<Scored, Invalid> {
        super::score_with(situation, self, explain)
    }
}

/// The table facts of these options.
pub fn table_config(o: &Options) -> TableConfig {
    TableConfig {
        players: 4,
        hand_size: 13,
        flowers: false,
        dead_wall: DeadWall::None,
        break_dice: 2,
        wall_sides: 4,
        chow_allowed: o.chow,
        kongs_allowed: true,
        wildcard: WildcardRule::None,
        hand_rules: HandRules::STANDARD_ONLY,
        seat_choice: SeatChoiceRule::HighestRoll,
        fortune_gambit: false,
    }
}

/// The dealer stays only on a dealer win; four rounds of the deal, East to North.
pub fn match_rules() -> MatchRules {
    MatchRules {
        rotation: Rotation::StayOnWin,
        end: EndRule::DealRounds(4),
        starting_points: 0,
        floor: false,
        double_starts_lao3: false,
    }
}

/// A planning bot's aims: the minimum, reached only by big patterns (a flush is 15 fan).
pub fn aims(o: &Options) -> Aims {
    Aims {
        min_fan: o.min_fan as i32,
        flush_fan: 15,
        big_patterns_only: true,
        fed_third_meld: FedThirdMeld::OneSuitFeederPays,
        ready: &READY,
        ..Aims::NONE
    }
}

/// How soon a player is ready with 15 fan, measured at the default options (see
/// [`Readiness`]): hardly ever before the middle of the wall without melds.
pub const READY: Readiness = Readiness([
    [0.000, 0.001, 0.008, 0.042, 0.112, 0.203],
    [0.000, 0.004, 0.030, 0.097, 0.211, 0.335],
    [0.000, 0.027, 0.089, 0.231, 0.375, 0.485],
    [0.000, 0.234, 0.348, 0.506, 0.672, 0.751],
    [0.000, 0.234, 0.348, 1.000, 1.000, 1.000],
]);

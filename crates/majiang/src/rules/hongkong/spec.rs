//! Hong Kong mahjong as a [`RuleSet`]: names, seats, unit, options table, payment reasons,
//! table configuration, match rules, a bot's aims and readiness, scoring
//! (`docs/rules/hongkong.md`).

use super::options::OPTIONS;
use super::{Options, PATTERNS, settle};
use crate::analysis::HandRules;
use crate::config::{DeadWall, SeatChoiceRule, TableConfig, WildcardRule};
use crate::config::{EndRule, MatchRules, Rotation};
use crate::rules::rule_set::{
    Aims, Readiness, RuleSet, RuleSetSpec, ScoreUnit, Seats, house_rules_from_json,
};

use crate::scoring::request::Malformed;
use crate::scoring::{Explain, Invalid, Scored, WinSituation};

/// What Hong Kong mahjong is.
pub static SPEC: RuleSetSpec = RuleSetSpec {
    name: "hongkong",
    english: "Hong Kong mahjong",
    chinese: "香港麻将",
    seats: Seats::Fixed(4),
    unit: ScoreUnit::Fan,
    lao: false,
    options: OPTIONS,
    patterns: PATTERNS,
    reasons: settle::REASONS,
};

/// Hong Kong mahjong under its default house rules (the registry's entry).
pub static HONG_KONG: Options = Options::DEFAULT;

/// Hong Kong mahjong under these house rules.
impl RuleSet for Options {
    fn spec(&self) -> &'static RuleSetSpec {
        &SPEC
    }

    house_rules_from_json!(Options);

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

    fn missed_win(&self) -> bool {
        self.missed_win
    }
}

/// The table facts of these options.
pub fn table_config(o: &Options) -> TableConfig {
    TableConfig {
        players: 4,
        hand_size: 13,
        flowers: o.flowers,
        dead_wall: DeadWall::Replenishing(14),
        break_dice: 3,
        wall_sides: 4,
        chow_allowed: true,
        kongs_allowed: true,
        wildcard: WildcardRule::None,
        hand_rules: HandRules {
            seven_pairs: o.seven_pairs > 0,
            four_as_two_pairs: false,
            thirteen_orphans: true,
            wildcard: None,
        },
        seat_choice: SeatChoiceRule::WindTiles,
        fortune_gambit: false,
    }
}

/// The dealer stays on a win or a draw; four rounds of the deal, East to North.
pub fn match_rules() -> MatchRules {
    MatchRules {
        rotation: Rotation::StayOnWinOrDraw,
        end: EndRule::DealRounds(4),
        starting_points: 0,
        floor: false,
        double_starts_lao3: false,
    }
}

/// A planning bot's aims: the minimum, flushes and all pungs (3 fan), seven pairs, value pungs.
pub fn aims(o: &Options) -> Aims {
    Aims {
        min_fan: o.min_fan as i32,
        flush_fan: 3,
        pungs_fan: 3,
        seven_pairs_fan: o.seven_pairs as i32,
        value_honour_fan: true,
        ready: &READY,
        ..Aims::NONE
    }
}

/// How soon a player is ready with the minimum fan, measured at the default options (see
/// [`Readiness`]).
pub const READY: Readiness = Readiness([
    [0.000, 0.007, 0.034, 0.088, 0.150, 0.237],
    [0.001, 0.010, 0.047, 0.110, 0.193, 0.296],
    [0.001, 0.053, 0.137, 0.238, 0.357, 0.464],
    [0.001, 0.223, 0.387, 0.469, 0.541, 0.603],
    [0.001, 0.223, 0.814, 0.866, 0.890, 0.890],
]);

//! What Yangzhou mahjong is, for the [registry](crate::rules::registry): names, seats, unit,
//! options table, table configuration, match rules and patterns (`docs/rules/yangzhou.md`).

use super::{Options, PATTERNS};
use crate::analysis::HandRules;
use crate::rules::option_table::{Allowed, OptionSpec};
use crate::rules::registry::{
    Aims, FedThirdMeld, Readiness, RuleSetKind, RuleSetSpec, ScoreUnit, Seats,
};
use crate::table::config::{DeadWall, SeatChoiceRule, TableConfig, WildcardRule};
use crate::table::matches::{EndRule, MatchRules, Rotation};

/// Yangzhou mahjong.
pub static SPEC: RuleSetSpec = RuleSetSpec {
    name: "yangzhou",
    english: "Yangzhou mahjong",
    chinese: "扬州麻将",
    seats: Seats::Fixed(4),
    unit: ScoreUnit::Fan,
    lao: false,
    options: OPTIONS,
    patterns: PATTERNS,
    read: |map| Options::from_json(map).map(RuleSetKind::Yangzhou),
    score_request: crate::scoring::score_request::<Options>,
};

/// The house-rule options: the parser checks against this table, the help prints it.
/// (`players` is accepted only as 4, as in Hong Kong and Hangzhou: the game is for four.)
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "min_fan",
        default: "15",
        allowed: Allowed::Whole {
            min: 0,
            max: u32::MAX as i64,
        },
        meaning: "the least fan a hand needs to win",
    },
    OptionSpec {
        key: "chow",
        default: "false",
        allowed: Allowed::Bool,
        meaning: "whether chows may be claimed (concealed chows are always fine)",
    },
    OptionSpec {
        key: "players",
        default: "4",
        allowed: Allowed::Whole { min: 4, max: 4 },
        meaning: "players at the table: Yangzhou mahjong is played by four",
    },
];

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
        lao_win_phases: false,
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

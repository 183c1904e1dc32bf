//! What Hong Kong mahjong is, for the [registry](crate::rules::registry): names, seats, unit,
//! options table, table configuration, match rules and patterns (`docs/rules/hongkong.md`).

use super::{Options, PATTERNS};
use crate::analysis::HandRules;
use crate::rules::option_table::{Allowed, OptionSpec};
use crate::rules::registry::{Aims, Readiness, RuleSetKind, RuleSetSpec, ScoreUnit, Seats};
use crate::table::config::{DeadWall, SeatChoiceRule, TableConfig, WildcardRule};
use crate::table::matches::{EndRule, MatchRules, Rotation};

/// Hong Kong mahjong.
pub static SPEC: RuleSetSpec = RuleSetSpec {
    name: "hongkong",
    english: "Hong Kong mahjong",
    chinese: "香港麻将",
    seats: Seats::Fixed(4),
    unit: ScoreUnit::Fan,
    lao: false,
    options: OPTIONS,
    patterns: PATTERNS,
    read: |map| Options::from_json(map).map(RuleSetKind::HongKong),
    score_request: crate::scoring::score_request::<Options>,
};

/// The house-rule options: the parser checks against this table, the help prints it.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "min_fan",
        default: "3",
        allowed: Allowed::Whole { min: 0, max: 64 },
        meaning: "fewest fan for a valid win; a hand at the limit always wins",
    },
    OptionSpec {
        key: "limit",
        default: "10",
        allowed: Allowed::Whole { min: 1, max: 64 },
        meaning: "fan at and above which the limit (64 points) pays",
    },
    OptionSpec {
        key: "flowers",
        default: "true",
        allowed: Allowed::Bool,
        meaning: "flowers and seasons are in play",
    },
    OptionSpec {
        key: "seven_pairs",
        default: "4",
        allowed: Allowed::Whole { min: 0, max: 64 },
        meaning: "fan for Seven Pairs; 0 means seven pairs is not a winning hand",
    },
    OptionSpec {
        key: "players",
        default: "4",
        allowed: Allowed::Whole { min: 4, max: 4 },
        meaning: "players at the table: Hong Kong mahjong is played by four",
    },
];

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
        lao_win_phases: false,
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

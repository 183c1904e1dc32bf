//! What Hangzhou mahjong is, for the [registry](crate::rules::registry): names, seats, unit,
//! options table, table configuration, match rules and patterns (`docs/rules/hangzhou.md`).

use super::options::MAX_BASE;
use super::{MatchEnd, Options, PATTERNS, WildcardMode};
use crate::rules::option_table::{Allowed, OptionSpec};
use crate::rules::registry::{
    Aims, FedThirdMeld, Readiness, RuleSetKind, RuleSetSpec, ScoreUnit, Seats,
};
use crate::table::config::{DeadWall, SeatChoiceRule, TableConfig, WildcardRule};
use crate::table::matches::{EndRule, MatchRules, Rotation};
use crate::tile::Tile;

/// Hangzhou mahjong.
pub static SPEC: RuleSetSpec = RuleSetSpec {
    name: "hangzhou",
    english: "Hangzhou mahjong",
    chinese: "杭州麻将",
    seats: Seats::Fixed(4),
    unit: ScoreUnit::Multiplier,
    lao: true,
    options: OPTIONS,
    patterns: PATTERNS,
    read: |map| Options::from_json(map).map(RuleSetKind::Hangzhou),
    score_request: crate::scoring::score_request::<Options>,
};

/// The house-rule options: the parser checks against this table, the help prints it.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "wildcard",
        default: "\"white\"",
        allowed: Allowed::OneOf {
            values: &["white", "indicator"],
        },
        meaning: "which tiles are wild: the four White dragons, or the kind of a turned-up indicator",
    },
    OptionSpec {
        key: "base",
        default: "1",
        allowed: Allowed::Whole {
            min: 1,
            max: MAX_BASE,
        },
        meaning: "the base score every hand starts from (tables use 1, 2, 3 or 5)",
    },
    OptionSpec {
        key: "cap",
        default: "null",
        allowed: Allowed::WholeOrNone {
            min: 1,
            max: i64::MAX,
        },
        meaning: "the most one payer pays for one hand (tables use 64, 128 or 256); null: no cap",
    },
    OptionSpec {
        key: "end",
        default: "\"rounds:8\"",
        allowed: Allowed::Form {
            form: "rounds:N or points:N (N at least 1)",
            examples: &["rounds:8", "rounds:16", "points:50"],
        },
        meaning: "when the match ends: after N hands, or once a player's N starting points are gone",
    },
    OptionSpec {
        key: "dice_double_starts_lao3",
        default: "false",
        allowed: Allowed::Bool,
        meaning: "a new dealer whose dealer-choice roll was a double or 12 starts at 3 lao",
    },
    OptionSpec {
        key: "players",
        default: "4",
        allowed: Allowed::Whole { min: 4, max: 4 },
        meaning: "players at the table: Hangzhou mahjong is played by four",
    },
];

/// The table facts of these options.
pub fn table_config(o: &Options) -> TableConfig {
    TableConfig {
        players: 4,
        hand_size: 13,
        flowers: false,
        dead_wall: DeadWall::Fixed(20),
        break_dice: 2,
        wall_sides: 4,
        chow_allowed: true,
        kongs_allowed: true,
        wildcard: match o.wildcard {
            WildcardMode::White => WildcardRule::Fixed(Tile::WHITE),
            WildcardMode::Indicator => WildcardRule::Indicator,
        },
        hand_rules: super::patterns::hand_rules(Tile::WHITE),
        seat_choice: SeatChoiceRule::CountedRoll,
        lao_win_phases: true,
        fortune_gambit: true,
    }
}

/// The winner deals next (lao); the match ends after `rounds:N` hands or once someone's
/// `points:N` are gone (balances then floor at zero).
pub fn match_rules(o: &Options) -> MatchRules {
    let (end, starting_points, floor) = match o.end {
        MatchEnd::Rounds(n) => (EndRule::Hands(n), 0, false),
        MatchEnd::Points(n) => (EndRule::Points(n), i64::from(n), true),
    };
    MatchRules {
        rotation: Rotation::WinnerDeals,
        end,
        starting_points,
        floor,
        double_starts_lao3: o.dice_double_starts_lao3,
    }
}

/// A planning bot's aims: no minimum and nothing in particular to aim at; hands are ready
/// early (财神 wildcards); feeding one player three melds makes the feeder pay (三摊承包).
pub fn aims() -> Aims {
    Aims {
        fed_third_meld: FedThirdMeld::ThreeFromOnePays,
        ready: &READY,
        ..Aims::NONE
    }
}

/// How soon a player is ready, measured at the default options (see [`Readiness`]): with no
/// minimum and 财神 wildcards, most hands are ready by the twelfth discard.
pub const READY: Readiness = Readiness([
    [0.019, 0.189, 0.552, 0.800, 0.925, 0.925],
    [0.074, 0.336, 0.668, 0.894, 0.972, 0.972],
    [0.228, 0.548, 0.795, 0.922, 0.977, 0.977],
    [0.228, 0.829, 0.948, 0.980, 1.000, 1.000],
    [0.228, 0.829, 0.948, 0.980, 1.000, 1.000],
]);

//! Classic Chinese mahjong as a [`RuleSet`]: names, seats, unit, options table, payment
//! reasons, table configuration, match rules, a bot's aims and readiness, scoring
//! (`docs/rules/classic.md`).

use super::options::OPTIONS;
use super::{HAND_RULES, Options, PATTERNS, settle};
use crate::config::{DeadWall, SeatChoiceRule, TableConfig, WildcardRule};
use crate::config::{EndRule, MatchRules, Rotation};
use crate::rules::rule_set::{
    Aims, Readiness, RuleSet, RuleSetSpec, ScoreUnit, Seats, house_rules_from_json,
};
use crate::scoring::request::Malformed;
use crate::scoring::{Explain, Invalid, Scored, WinSituation};

/// What classic Chinese mahjong is.
pub static SPEC: RuleSetSpec = RuleSetSpec {
    name: "classic",
    english: "Classic Chinese mahjong",
    chinese: "中国古典麻将",
    seats: Seats::PlayersOption,
    unit: ScoreUnit::Points,
    lao: false,
    options: OPTIONS,
    patterns: PATTERNS,
    reasons: settle::REASONS,
};

/// Classic Chinese mahjong under its default house rules (the registry's entry).
pub static CLASSIC: Options = Options::DEFAULT;

/// Classic Chinese mahjong under these house rules.
impl RuleSet for Options {
    fn spec(&self) -> &'static RuleSetSpec {
        &SPEC
    }

    house_rules_from_json!(Options);

    fn table_config(&self) -> Result<TableConfig, Malformed> {
        table_config(self)
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

/// The table facts of these options. Flowers at a five- or six-player table (whose bonus
/// tiles are extra winds) are refused.
pub fn table_config(o: &Options) -> Result<TableConfig, Malformed> {
    // Five and six players: the bonus tiles are extra winds, one wall side per player; six
    // play 10-tile hands of pungs and a pair (see `table::extra_wind_play`).
    if o.flowers && o.players >= 5 {
        return Err(Malformed::text(format!(
            "flowers: a {}-player classic table plays the flower tiles as extra winds, so they \
             cannot also be flowers",
            o.players
        )));
    }
    let six = o.players == 6;
    Ok(TableConfig {
        players: o.players,
        hand_size: if six { 10 } else { 13 },
        flowers: o.flowers,
        dead_wall: DeadWall::None,
        break_dice: 2,
        wall_sides: if o.players >= 5 { o.players } else { 4 },
        chow_allowed: !six,
        kongs_allowed: !six,
        wildcard: WildcardRule::None,
        hand_rules: HAND_RULES,
        seat_choice: SeatChoiceRule::HighestRoll,
        fortune_gambit: false,
    })
}

/// The deal passes after every hand; the match ends when every seat has dealt once.
pub fn match_rules() -> MatchRules {
    MatchRules {
        rotation: Rotation::EveryHand,
        end: EndRule::DealRounds(1),
        starting_points: 0,
        floor: false,
        double_starts_lao3: false,
    }
}

/// A planning bot's aims: pungs of honours and terminals pay, every hand settles between all
/// players and one suit doubles the hand; six players win only with
/// three pungs and a pair, so all pungs is the one aim there.
pub fn aims(o: &Options) -> Aims {
    if o.players == 6 {
        Aims {
            min_fan: 1,
            pungs_fan: 1,
            big_patterns_only: true,
            pung_points: true,
            losers_settle: true,
            ready: &READY,
            ..Aims::NONE
        }
    } else {
        Aims {
            pung_points: true,
            losers_settle: true,
            one_suit_doubles: true,
            ready: &READY,
            ..Aims::NONE
        }
    }
}

/// How soon a player is ready, measured with four players at the default options (see
/// [`Readiness`]); five- and six-player tables use it too.
pub const READY: Readiness = Readiness([
    [0.003, 0.060, 0.244, 0.560, 0.748, 0.748],
    [0.019, 0.136, 0.371, 0.590, 0.750, 0.750],
    [0.078, 0.311, 0.543, 0.739, 0.862, 0.862],
    [0.078, 0.706, 0.829, 0.927, 0.971, 0.971],
    [0.078, 1.000, 1.000, 1.000, 1.000, 1.000],
]);

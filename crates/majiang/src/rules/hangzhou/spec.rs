//! Hangzhou mahjong as a [`RuleSet`]: names, seats, unit, options table, payment reasons,
//! table configuration, match rules, a bot's aims and readiness, who may win on a discard,
//! scoring (`docs/rules/hangzhou.md`).

use super::options::OPTIONS;
use super::{MatchEnd, Options, PATTERNS, WildcardMode, eligibility, settle};
use crate::config::{DeadWall, SeatChoiceRule, TableConfig, WildcardRule};
use crate::config::{EndRule, MatchRules, Rotation};
use crate::rules::rule_set::{
    Aims, FedThirdMeld, Readiness, RuleSet, RuleSetSpec, ScoreUnit, Seats, options_object,
    score_under,
};
use crate::scoring::request::Malformed;
use crate::scoring::{Explain, Invalid, Scored, WinSituation};
use crate::seat::Seat;
use crate::tile::Tile;
use serde_json::{Map, Value};

/// What Hangzhou mahjong is.
pub static SPEC: RuleSetSpec = RuleSetSpec {
    name: "hangzhou",
    english: "Hangzhou mahjong",
    chinese: "杭州麻将",
    seats: Seats::Fixed(4),
    unit: ScoreUnit::Multiplier,
    lao: true,
    options: OPTIONS,
    patterns: PATTERNS,
    reasons: settle::REASONS,
};

/// Hangzhou mahjong under its default house rules (the registry's entry).
pub static HANGZHOU: Options = Options::DEFAULT;

/// Hangzhou mahjong under these house rules.
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
        match_rules(self)
    }

    fn aims(&self) -> Aims {
        aims()
    }

    fn score(&self, situation: &WinSituation, explain: Explain) -> Result<Scored, Invalid> {
        super::score_with(situation, self, explain)
    }

    /// In `indicator` mode the request must name the wild kind; lao counts from 1.
    fn check_request(&self, situation: &WinSituation) -> Result<(), Malformed> {
        if self.wild_kind(situation.wildcard).is_none() {
            return Err(Malformed(
                "wildcard: with the option wildcard = \"indicator\" the request must name the \
                 wild kind, e.g. \"wildcard\": \"5m\""
                    .into(),
            ));
        }
        if situation.lao == 0 {
            return Err(Malformed("lao: counts from 1".into()));
        }
        Ok(())
    }

    /// From 3 lao on, and only between the dealer and a non-dealer (the lao phases).
    fn may_win_on_discard(&self, winner: Seat, discarder: Seat, lao: u8) -> bool {
        eligibility::discard_win_allowed(winner, discarder, Seat::East, lao)
    }
}

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

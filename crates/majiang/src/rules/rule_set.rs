//! What a rule set is: the [`RuleSet`] trait each set implements in its folder
//! (`rules/<set>/spec.rs`), the description it gives of itself ([`RuleSetSpec`]) and the
//! vocabulary of both ([`Seats`], [`ScoreUnit`], [`Aims`]).
//!
//! A value of the trait is a rule set under some house rules: the [registry](super::registry)
//! lists each set under its default house rules, and [`RuleSet::read`] gives the same set under
//! others. The engine, the bots, scoring and every front end ask a rule set through this trait
//! alone, so a new set is its folder and one line of the registry's list.

pub use super::option_table::{Allowed, OptionSpec};
pub use super::readiness::Readiness;
use crate::config::MatchRules;
use crate::config::TableConfig;
use crate::scoring::reason::ReasonDef;
use crate::scoring::request::Malformed;
use crate::scoring::{Explain, Invalid, PatternDef, Scored, WinSituation};
use crate::seat::Seat;
use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt;
use std::ops::RangeInclusive;

/// A rule set under its house rules: what it is, the table and the match it plays, what its
/// bots aim at, and how it scores and settles a win.
pub trait RuleSet: fmt::Debug + Send + Sync {
    /// What the set is, the same under any house rules: names, seats, unit, lao, options
    /// table, patterns and payment reasons.
    fn spec(&self) -> &'static RuleSetSpec;

    /// The same rule set under the house rules of `options`, read by its own parser (checked
    /// against its options table first): unknown names and bad values are [`Malformed`].
    fn read(&self, options: &Map<String, Value>) -> Result<Box<dyn RuleSet>, Malformed>;

    /// The house rules as a JSON object that [`RuleSet::read`] reads back (a log's header).
    fn options_json(&self) -> Map<String, Value>;

    /// The table facts of these house rules. Options that contradict each other are refused.
    fn table_config(&self) -> Result<TableConfig, Malformed>;

    /// The match rules of these house rules: rotation, the end, starting chips.
    fn match_rules(&self) -> MatchRules;

    /// What a winning hand must reach and what pays, for a bot that plans its hand.
    fn aims(&self) -> Aims;

    /// Scores and settles a win, itemising the payments with their reasons or not as
    /// `explain` says; `Invalid` when the hand does not win or the rules forbid the win.
    fn score(&self, situation: &WinSituation, explain: Explain) -> Result<Scored, Invalid>;

    /// Scores a request's `situation` under the house rules of `options` (read as
    /// [`RuleSet::read`] reads them), itemised: what [`crate::rules::score`] answers. A set
    /// overrides it to read its options on the stack rather than in a box, since scoring
    /// requests are a hot path of the server's calculator and the Python package.
    fn score_request(
        &self,
        options: &Map<String, Value>,
        situation: &WinSituation,
    ) -> Result<Result<Scored, Invalid>, Malformed> {
        score_under(&*self.read(options)?, situation)
    }

    /// What these house rules need of a scoring request beyond its situation (Hangzhou: the
    /// wild kind named in indicator mode, a lao from 1). Nothing, unless a set says so.
    fn check_request(&self, situation: &WinSituation) -> Result<(), Malformed> {
        let _ = situation;
        Ok(())
    }

    /// Whether `winner` may win on a discard by another player, `discarder`, when the dealer
    /// (East) is at `lao`: always, unless a set limits it (Hangzhou's lao phases). Nobody wins
    /// on their own discard; the engine asks only about another's.
    fn may_win_on_discard(&self, winner: Seat, discarder: Seat, lao: u8) -> bool {
        let _ = (winner, discarder, lao);
        true
    }

    /// Whether a player who passes a win on a discard or a robbed kong may not win on that
    /// tile's kind (from a discard or a robbed kong) until their next draw from the live wall
    /// (Hong Kong's missed win, `missed_win`). No, unless a set says so.
    fn missed_win(&self) -> bool {
        false
    }

    /// The name the command line, requests and logs use (`hongkong`).
    fn name(&self) -> &'static str {
        self.spec().name
    }
}

/// What a rule set is, the same under any house rules: one per set, in its
/// `rules/<set>/spec.rs`.
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
    /// The rules it settles payments by, each with its catalogue key.
    pub reasons: &'static [&'static ReasonDef],
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
                .clone()
                .map(|n| (n.to_string(), serde_json::json!(Seat::order(usize::from(n)))))
                .collect::<Map<String, Value>>(),
            // The bonus tiles played as extra winds at each table size, e.g. "6": 8 (a front
            // end marks them by this, never by the set's name).
            "extra_winds": seats
                .map(|n| (n.to_string(), serde_json::json!(self.extra_winds(n))))
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

/// The house rules of a set as a JSON object, for [`RuleSet::options_json`]: any options type
/// that serialises to an object.
pub fn options_object<T: Serialize>(options: &T) -> Map<String, Value> {
    match serde_json::to_value(options) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

/// Checks a scoring request's situation against `set`'s house rules and scores it, itemised:
/// the body of every [`RuleSet::score_request`].
pub fn score_under(
    set: &dyn RuleSet,
    situation: &WinSituation,
) -> Result<Result<Scored, Invalid>, Malformed> {
    set.check_request(situation)?;
    Ok(set.score(situation, Explain::Itemise))
}

/// The three [`RuleSet`] methods a set whose house rules are one serde type (`$options`, with
/// `fn from_json(&Map<String, Value>) -> Result<Self, Malformed>`) writes the same way:
/// [`RuleSet::read`] and [`RuleSet::score_request`] by its parser (the request's options read
/// on the stack, not boxed), [`RuleSet::options_json`] by serialising it. Used inside each
/// set's `impl RuleSet`.
macro_rules! house_rules_from_json {
    ($options:ty) => {
        fn read(
            &self,
            options: &serde_json::Map<String, serde_json::Value>,
        ) -> Result<Box<dyn $crate::rules::RuleSet>, $crate::scoring::request::Malformed> {
            Ok(Box::new(<$options>::from_json(options)?))
        }

        fn score_request(
            &self,
            options: &serde_json::Map<String, serde_json::Value>,
            situation: &$crate::scoring::WinSituation,
        ) -> Result<
            Result<$crate::scoring::Scored, $crate::scoring::Invalid>,
            $crate::scoring::request::Malformed,
        > {
            $crate::rules::rule_set::score_under(&<$options>::from_json(options)?, situation)
        }

        fn options_json(&self) -> serde_json::Map<String, serde_json::Value> {
            $crate::rules::rule_set::options_object(self)
        }
    };
}
pub(crate) use house_rules_from_json;

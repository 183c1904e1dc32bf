//! A rule set as the engine sees it: its options, the table facts derived from them
//! ([`TableConfig`]), and the hooks the engine asks (who may win off whom, scoring).

use super::config::{DeadWall, SeatChoiceRule, TableConfig, WildcardRule};
use crate::analysis::HandRules;
use crate::rules::{classic, hangzhou, hongkong, yangzhou};
use crate::scoring::request::Malformed;
use crate::scoring::{Invalid, Scored, WinSituation};
use crate::seat::Seat;
use crate::tile::Tile;
use serde_json::{Map, Value};

/// The four rule sets, each with its house-rule options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleSetKind {
    /// Hong Kong (seeds 002, 004; RULES.md §4).
    HongKong(hongkong::Options),
    /// Hangzhou (seed 000; RULES.md §2).
    Hangzhou(hangzhou::Options),
    /// Yangzhou (seed 001; RULES.md §3).
    Yangzhou(yangzhou::Options),
    /// Classic Chinese (seed 003; RULES.md §5).
    Classic(classic::Options),
}

impl RuleSetKind {
    /// The rule set's name as the command line and the scoring request spell it.
    pub const fn name(&self) -> &'static str {
        match self {
            RuleSetKind::HongKong(_) => "hongkong",
            RuleSetKind::Hangzhou(_) => "hangzhou",
            RuleSetKind::Yangzhou(_) => "yangzhou",
            RuleSetKind::Classic(_) => "classic",
        }
    }
}

/// A rule set ready for the table: options, derived table facts and hooks.
///
/// ```
/// use majiang::table::Ruleset;
/// let r = Ruleset::from_name("hongkong", &serde_json::Map::new()).unwrap();
/// assert_eq!(r.config().tile_count(), 144);
/// assert_eq!(r.config().dead_wall.size(), 14);
/// assert!(Ruleset::from_name("riichi", &serde_json::Map::new()).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ruleset {
    kind: RuleSetKind,
    config: TableConfig,
}

impl Ruleset {
    /// The rule set with these options. Options that contradict each other (flowers at a
    /// five- or six-player classic table, whose bonus tiles are extra winds) are refused with a
    /// message.
    pub fn new(kind: RuleSetKind) -> Result<Ruleset, Malformed> {
        let config = match kind {
            RuleSetKind::HongKong(o) => TableConfig {
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
            },
            RuleSetKind::Hangzhou(o) => TableConfig {
                players: 4,
                hand_size: 13,
                flowers: false,
                dead_wall: DeadWall::Fixed(20),
                break_dice: 2,
                wall_sides: 4,
                chow_allowed: true,
                kongs_allowed: true,
                wildcard: match o.wildcard {
                    hangzhou::WildcardMode::White => WildcardRule::Fixed(Tile::WHITE),
                    hangzhou::WildcardMode::Indicator => WildcardRule::Indicator,
                },
                hand_rules: hangzhou::patterns::hand_rules(Tile::WHITE),
                seat_choice: SeatChoiceRule::CountedRoll,
                lao_win_phases: true,
                fortune_gambit: true,
            },
            RuleSetKind::Yangzhou(o) => TableConfig {
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
            },
            RuleSetKind::Classic(o) => {
                // Five and six players: the bonus tiles are extra winds, one wall side per
                // player; six play 10-tile hands of pungs and a pair (see `extra_winds`).
                if o.flowers && o.players >= 5 {
                    return Err(Malformed(format!(
                        "flowers: a {}-player classic table plays the flower tiles as extra \
                         winds, so they cannot also be flowers",
                        o.players
                    )));
                }
                let six = o.players == 6;
                TableConfig {
                    players: o.players,
                    hand_size: if six { 10 } else { 13 },
                    flowers: o.flowers,
                    dead_wall: DeadWall::None,
                    break_dice: 2,
                    wall_sides: if o.players >= 5 { o.players } else { 4 },
                    chow_allowed: !six,
                    kongs_allowed: !six,
                    wildcard: WildcardRule::None,
                    hand_rules: classic::HAND_RULES,
                    seat_choice: SeatChoiceRule::HighestRoll,
                    lao_win_phases: false,
                    fortune_gambit: false,
                }
            }
        };
        Ok(Ruleset { kind, config })
    }

    /// The rule set named `name` (`hongkong`, `hangzhou`, `yangzhou`, `classic`) with house
    /// rules read by that rule set's own options parser (unknown names and bad values are
    /// refused with a message).
    pub fn from_name(name: &str, options: &Map<String, Value>) -> Result<Ruleset, Malformed> {
        let kind = match name {
            "hongkong" => RuleSetKind::HongKong(hongkong::Options::from_json(options)?),
            "hangzhou" => RuleSetKind::Hangzhou(hangzhou::Options::from_json(options)?),
            "yangzhou" => RuleSetKind::Yangzhou(yangzhou::Options::from_json(options)?),
            "classic" => RuleSetKind::Classic(classic::Options::from_json(options)?),
            other => {
                return Err(Malformed(format!(
                    "rules: {other:?} is not a rule set (hongkong, hangzhou, yangzhou or classic)"
                )));
            }
        };
        Ruleset::new(kind)
    }

    /// The rule set and its options.
    pub fn kind(&self) -> &RuleSetKind {
        &self.kind
    }

    /// The table facts.
    pub fn config(&self) -> &TableConfig {
        &self.config
    }

    /// The rule set's name (`hongkong`, ...).
    pub fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// Players at the table.
    pub fn players(&self) -> usize {
        usize::from(self.config.players)
    }

    /// The seat winds in turn order, East (the dealer) first.
    pub fn seats(&self) -> &'static [Seat] {
        Seat::order(self.players()).unwrap_or(&Seat::FOUR)
    }

    /// The winning shapes, with `wild` as the wild kind when the rule set has wildcards.
    pub fn hand_rules(&self, wild: Option<Tile>) -> HandRules {
        let mut rules = self.config.hand_rules;
        rules.wildcard = None;
        match wild {
            Some(w) => rules.with_wildcard(w),
            None => rules,
        }
    }

    /// Scores a win with the rule set's scorer. `Err` when the hand does not win under these
    /// rules (not complete, below the minimum, a win the rules forbid).
    pub fn score(&self, situation: &WinSituation) -> Result<Scored, Invalid> {
        match &self.kind {
            RuleSetKind::HongKong(o) => hongkong::score(situation, o),
            RuleSetKind::Hangzhou(o) => hangzhou::score(situation, o),
            RuleSetKind::Yangzhou(o) => yangzhou::score(situation, o),
            RuleSetKind::Classic(o) => classic::score(situation, o),
        }
    }

    /// Whether the player at seat `winner` may win on a discard by `discarder` when the
    /// dealer (East) is at `lao`. Hangzhou: from 3 lao on, and only between the dealer and a
    /// non-dealer; elsewhere always. (Robbing a kong is not a discard win.)
    pub fn may_win_on_discard(&self, winner: Seat, discarder: Seat, lao: u8) -> bool {
        if winner == discarder {
            return false;
        }
        if self.config.lao_win_phases {
            hangzhou::eligibility::discard_win_allowed(winner, discarder, Seat::East, lao)
        } else {
            true
        }
    }

    /// Whether the player at seat `winner` may rob an added kong declared by `konger`: always
    /// (Hangzhou too: the added tile is not a discard, so the lao phases do not apply).
    pub fn may_rob_kong(&self, winner: Seat, konger: Seat) -> bool {
        winner != konger
    }
}

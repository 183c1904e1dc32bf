//! The Hong Kong house rules (`docs/rules/hongkong.md`, *Options*): the table of them
//! ([`OPTIONS`]) and their parser, which checks against it.

use crate::rules::option_table::{self, Allowed, OptionSpec};
use crate::scoring::request::Malformed;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// House rules (`docs/rules/hongkong.md`), read from the request's `"options"` object and, later,
/// a TOML rules file. Every field has the documented default.
///
/// ```
/// use majiang::rules::hongkong::Options;
/// let o = Options::from_json(&serde_json::from_str(r#"{"min_fan": 1}"#).unwrap()).unwrap();
/// assert_eq!((o.min_fan, o.limit, o.flowers, o.seven_pairs), (1, 10, true, 4));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Fewest fan a win needs (default 3). A hand that reaches the limit always wins, whatever
    /// this is set to.
    pub min_fan: u32,
    /// Fan at and above which the limit (64 points) pays (default 10). Accepted from 1 to 64
    /// (house limits of 13 are common): fan 7 up to `limit − 1` pay 32 points, the limit 64.
    pub limit: u32,
    /// Flowers and seasons are in play (default true). Without them no flower row scores, and
    /// "No Flowers or Seasons" never does; bonus tiles listed in a request are then ignored.
    pub flowers: bool,
    /// Fan for Seven Pairs (default 4; seed 002's 16 is a house value). `0` means seven pairs is
    /// not a winning hand at all.
    pub seven_pairs: u32,
    /// A player who passes a win on a discard or a robbed kong may not win on that tile's kind
    /// (from a discard or a robbed kong) until their next draw from the live wall; a kong or
    /// flower replacement does not restore it (default true, seed 002).
    pub missed_win: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options::DEFAULT
    }
}

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
        key: "missed_win",
        default: "true",
        allowed: Allowed::Bool,
        meaning: "a player who passes a win may not win on that tile again until their next draw \
                  from the live wall",
    },
    OptionSpec {
        key: "players",
        default: "4",
        allowed: Allowed::Whole { min: 4, max: 4 },
        meaning: "players at the table: Hong Kong mahjong is played by four",
    },
];

impl Options {
    /// The documented defaults.
    pub const DEFAULT: Options = Options {
        min_fan: 3,
        limit: 10,
        flowers: true,
        seven_pairs: 4,
        missed_win: true,
    };

    /// Reads the options of a scoring request. Unknown names and bad values are [`Malformed`].
    /// `"players"` (read by the request itself) is accepted only as 4: Hong Kong is a
    /// four-player game.
    pub fn from_json(map: &Map<String, Value>) -> Result<Options, Malformed> {
        option_table::check("hongkong", OPTIONS, map)?;
        let mut map = map.clone();
        if let Some(p) = map.remove("players") {
            if p.as_u64() != Some(4) {
                return Err(option_table::players_four("hongkong", &p));
            }
        }
        let options: Options = serde_json::from_value(Value::Object(map))
            .map_err(|e| Malformed::text(format!("options (hongkong): {e}")))?;
        options.check()?;
        Ok(options)
    }

    /// Checks value ranges (serde checks only the types).
    pub fn check(&self) -> Result<(), Malformed> {
        if !(1..=64).contains(&self.limit) {
            return Err(Malformed::text(format!(
                "options.limit: {} is out of range (1 to 64 fan)",
                self.limit
            )));
        }
        if self.min_fan > 64 {
            return Err(Malformed::text(format!(
                "options.min_fan: {} is out of range (0 to 64)",
                self.min_fan
            )));
        }
        if self.seven_pairs > 64 {
            return Err(Malformed::text(format!(
                "options.seven_pairs: {} is out of range (0 to 64 fan)",
                self.seven_pairs
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Options, Malformed> {
        Options::from_json(&serde_json::from_str(text).unwrap())
    }

    #[test]
    fn defaults_are_the_rules_md_values() {
        assert_eq!(read("{}").unwrap(), Options::default());
        assert_eq!(Options::default().min_fan, 3);
        assert_eq!(Options::default().limit, 10);
        assert!(Options::default().flowers);
        assert_eq!(Options::default().seven_pairs, 4);
        assert!(Options::default().missed_win);
    }

    #[test]
    fn reads_every_option() {
        let o = read(
            r#"{"min_fan": 0, "limit": 8, "flowers": false, "seven_pairs": 16, "players": 4,
                "missed_win": false}"#,
        )
        .unwrap();
        assert_eq!(
            o,
            Options {
                min_fan: 0,
                limit: 8,
                flowers: false,
                seven_pairs: 16,
                missed_win: false,
            }
        );
    }

    #[test]
    fn bad_options_are_malformed() {
        for (text, needle) in [
            (r#"{"min_fann": 3}"#, "min_fann"),
            (r#"{"min_fan": "three"}"#, "options"),
            (r#"{"min_fan": -1}"#, "options"),
            (r#"{"limit": 65}"#, "limit"),
            (r#"{"limit": 0}"#, "limit"),
            (r#"{"flowers": 1}"#, "options"),
            (r#"{"players": 3}"#, "players"),
            (r#"{"seven_pairs": 100}"#, "seven_pairs"),
            (r#"{"missed_win": "yes"}"#, "options"),
        ] {
            let e = read(text).unwrap_err();
            assert!(
                e.to_string().contains(needle),
                "{e} should mention {needle}"
            );
        }
    }
}

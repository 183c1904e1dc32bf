//! Hangzhou house rules (`docs/rules/hangzhou.md`, *Options*): the table of them
//! ([`OPTIONS`]) and their parser, which checks against it, reading a request's `options`
//! object (and, later, a TOML rules file).

use crate::rules::option_table::{self, Allowed, OptionSpec};
use crate::scoring::request::Malformed;
use crate::tile::Tile;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Which tiles are wild (Caishen).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WildcardMode {
    /// The four White dragons (5z) are wild.
    #[default]
    White,
    /// A die-chosen indicator tile is turned up; the three other copies of its kind are wild.
    /// A scoring request must then name the wild kind in its `wildcard` field.
    Indicator,
}

/// When the match ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum MatchEnd {
    /// After this many hands (`rounds:8`, `rounds:16`; any positive count is accepted).
    Rounds(u32),
    /// Every player starts with this many points; the match ends after a hand not won by the
    /// dealer once any player is at 0 or below (`points:N`).
    Points(u32),
}

impl Default for MatchEnd {
    fn default() -> Self {
        MatchEnd::Rounds(8)
    }
}

impl fmt::Display for MatchEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchEnd::Rounds(n) => write!(f, "rounds:{n}"),
            MatchEnd::Points(n) => write!(f, "points:{n}"),
        }
    }
}

impl From<MatchEnd> for String {
    fn from(e: MatchEnd) -> String {
        e.to_string()
    }
}

impl TryFrom<String> for MatchEnd {
    type Error = String;
    fn try_from(s: String) -> Result<MatchEnd, String> {
        let bad = || format!("end: {s:?} is not rounds:N or points:N (e.g. rounds:8, points:50)");
        let (kind, n) = s.split_once(':').ok_or_else(bad)?;
        let n: u32 = n.trim().parse().map_err(|_| bad())?;
        if n == 0 {
            return Err(bad());
        }
        match kind.trim() {
            "rounds" => Ok(MatchEnd::Rounds(n)),
            "points" => Ok(MatchEnd::Points(n)),
            _ => Err(bad()),
        }
    }
}

/// Hangzhou house rules. Defaults are those of `docs/rules/hangzhou.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Which tiles are wild (default `white`).
    pub wildcard: WildcardMode,
    /// The base score every hand starts from (default 1; tables use 1, 2, 3 or 5). At least 1.
    pub base: i64,
    /// The most one payer pays for one hand (default none; tables use 64, 128 or 256).
    pub cap: Option<i64>,
    /// When the match ends (default `rounds:8`).
    pub end: MatchEnd,
    /// A new dealer whose dealer-choice roll was a double or 12 starts at 3 lao (default off).
    /// The engine applies it; scoring reads the lao it is given.
    pub dice_double_starts_lao3: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options::DEFAULT
    }
}

/// The largest base score accepted (keeps every product far from overflow).
pub const MAX_BASE: i64 = 1_000_000;

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

impl Options {
    /// The documented defaults.
    pub const DEFAULT: Options = Options {
        wildcard: WildcardMode::White,
        base: 1,
        cap: None,
        end: MatchEnd::Rounds(8),
        dice_double_starts_lao3: false,
    };

    /// Reads the options object of a request. Unknown names and bad values are [`Malformed`].
    /// `players` (read by the request itself) is accepted only as 4: Hangzhou seats four.
    pub fn from_json(
        map: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Options, Malformed> {
        option_table::check("hangzhou", OPTIONS, map)?;
        let mut map = map.clone();
        if let Some(p) = map.remove("players") {
            if p.as_u64() != Some(4) {
                return Err(option_table::players_four("hangzhou", &p));
            }
        }
        let options: Options = serde_json::from_value(serde_json::Value::Object(map))
            .map_err(|e| Malformed::text(format!("options: {e}")))?;
        options.check()?;
        Ok(options)
    }

    /// Checks values that the types allow but the rules do not.
    pub fn check(&self) -> Result<(), Malformed> {
        if !(1..=MAX_BASE).contains(&self.base) {
            return Err(Malformed::text(format!(
                "options.base: {} is not a base score (a whole number from 1 to {MAX_BASE})",
                self.base
            )));
        }
        if let Some(cap) = self.cap {
            if cap < 1 {
                return Err(Malformed::text(format!(
                    "options.cap: {cap} is not a cap (a positive number such as 64, 128 or 256; \
                     leave it out for no cap)"
                )));
            }
        }
        Ok(())
    }

    /// The wild kind for a hand: the request's own `wildcard` when given, else White dragon in
    /// `white` mode. `None` in `indicator` mode without a named kind.
    pub fn wild_kind(&self, requested: Option<Tile>) -> Option<Tile> {
        match (requested, self.wildcard) {
            (Some(t), _) => Some(t),
            (None, WildcardMode::White) => Some(Tile::WHITE),
            (None, WildcardMode::Indicator) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, Value, json};

    fn map(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn defaults_follow_rules_md() {
        let o = Options::from_json(&Map::new()).unwrap();
        assert_eq!(o, Options::default());
        assert_eq!(o.base, 1);
        assert_eq!(o.cap, None);
        assert_eq!(o.end, MatchEnd::Rounds(8));
        assert_eq!(o.wildcard, WildcardMode::White);
        assert!(!o.dice_double_starts_lao3);
    }

    #[test]
    fn reads_every_option() {
        let o = Options::from_json(&map(json!({"wildcard": "indicator", "base": 5, "cap": 128,
            "end": "points:50", "dice_double_starts_lao3": true, "players": 4})))
        .unwrap();
        assert_eq!(o.wildcard, WildcardMode::Indicator);
        assert_eq!(o.base, 5);
        assert_eq!(o.cap, Some(128));
        assert_eq!(o.end, MatchEnd::Points(50));
        assert!(o.dice_double_starts_lao3);
        assert_eq!(
            Options::from_json(&map(json!({"end": "rounds:16"})))
                .unwrap()
                .end,
            MatchEnd::Rounds(16)
        );
    }

    #[test]
    fn bad_options_are_malformed() {
        for (v, needle) in [
            (json!({"min_fan": 3}), "unknown field"),
            (json!({"wildcard": "red"}), "\"indicator\""),
            (json!({"base": 0}), "base"),
            (json!({"cap": 0}), "cap"),
            (json!({"end": "rounds"}), "rounds:N"),
            (json!({"end": "points:0"}), "points:N"),
            (json!({"end": "hours:2"}), "rounds:N"),
            (json!({"players": 3}), "players"),
        ] {
            let e = Options::from_json(&map(v.clone())).unwrap_err();
            assert!(e.to_string().contains(needle), "{v}: {e}");
        }
    }

    #[test]
    fn wild_kind_resolution() {
        let white = Options::default();
        let ind = Options {
            wildcard: WildcardMode::Indicator,
            ..Options::default()
        };
        let m5: Tile = "5m".parse().unwrap();
        assert_eq!(white.wild_kind(None), Some(Tile::WHITE));
        assert_eq!(white.wild_kind(Some(m5)), Some(m5));
        assert_eq!(ind.wild_kind(None), None);
        assert_eq!(ind.wild_kind(Some(m5)), Some(m5));
    }

    #[test]
    fn round_trips_through_json() {
        let o = Options {
            end: MatchEnd::Points(40),
            cap: Some(64),
            ..Options::default()
        };
        let v = serde_json::to_value(o).unwrap();
        assert_eq!(v["end"], "points:40");
        assert_eq!(Options::from_json(&map(v)).unwrap(), o);
    }
}

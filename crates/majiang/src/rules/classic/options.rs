//! House rules of the classic game (`docs/rules/classic.md`, *Options*): the table of them
//! ([`OPTIONS`]) and their parser, which checks against it.

use crate::rules::option_table::{self, Allowed, OptionSpec};
use crate::scoring::request::Malformed;
use serde::{Deserialize, Serialize};

/// House rules, read from the request's `"options"` object (and, later, a TOML rules file).
///
/// Defaults are those of `docs/rules/classic.md`: four players, no flowers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The seed's advanced rule: flowers and seasons in play, one point each, all four flowers or
    /// all four seasons three doubles. Only for three- and four-player tables (five and six
    /// players use the flower tiles as extra winds).
    pub flowers: bool,
    /// Players at the table: 3, 4, 5 or 6.
    pub players: u8,
}

impl Default for Options {
    fn default() -> Self {
        Options::DEFAULT
    }
}

/// The house-rule options: the parser checks against this table, the help prints it.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "flowers",
        default: "false",
        allowed: Allowed::Bool,
        meaning: "flowers and seasons in play (3 and 4 players only: at 5 and 6 they are extra winds)",
    },
    OptionSpec {
        key: "players",
        default: "4",
        allowed: Allowed::Whole { min: 3, max: 6 },
        meaning: "players at the table: 3 (no West), 4, 5 (adds North-East) or 6 (adds South-West)",
    },
];

impl Options {
    /// The documented defaults.
    pub const DEFAULT: Options = Options {
        flowers: false,
        players: 4,
    };

    /// Reads the options from a JSON object. Unknown names, values of the wrong type, a table
    /// size other than 3–6 and flowers at a five- or six-player table are [`Malformed`].
    pub fn from_json(
        map: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Options, Malformed> {
        option_table::check("classic", OPTIONS, map)?;
        let options: Options = serde_json::from_value(serde_json::Value::Object(map.clone()))
            .map_err(|e| Malformed::text(format!("options (classic): {e}")))?;
        if !(3..=6).contains(&options.players) {
            return Err(Malformed(
                option_table::CLASSIC_PLAYERS.with([options.players.into()]),
            ));
        }
        if options.flowers && options.players >= 5 {
            return Err(Malformed(
                option_table::FLOWERS_ARE_WINDS.with([options.players.into()]),
            ));
        }
        Ok(options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: serde_json::Value) -> Result<Options, Malformed> {
        match v {
            serde_json::Value::Object(m) => Options::from_json(&m),
            _ => unreachable!("test input is an object"),
        }
    }

    #[test]
    fn defaults_and_values() {
        assert_eq!(read(json!({})).unwrap(), Options::default());
        let o = read(json!({"flowers": true, "players": 3})).unwrap();
        assert!(o.flowers);
        assert_eq!(o.players, 3);
    }

    #[test]
    fn bad_options_are_malformed() {
        assert!(read(json!({"flower": true})).is_err());
        assert!(read(json!({"flowers": "yes"})).is_err());
        assert!(read(json!({"players": 7})).is_err());
        assert!(read(json!({"players": 2})).is_err());
        assert!(read(json!({"players": 5, "flowers": true})).is_err());
        assert!(read(json!({"min_fan": 3})).is_err());
    }
}

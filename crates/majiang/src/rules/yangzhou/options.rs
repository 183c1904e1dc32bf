//! Yangzhou house rules (`docs/rules/yangzhou.md`, *Options*): the table of them
//! ([`OPTIONS`]) and their parser, which checks against it.

use crate::rules::option_table::{self, Allowed, OptionSpec};
use crate::scoring::request::Malformed;
use serde::{Deserialize, Serialize};

/// House rules (`docs/rules/yangzhou.md`), read from the request's `"options"` object (and, later,
/// a TOML rules file). Unknown names and bad values are [`Malformed`].
///
/// ```
/// use majiang::rules::yangzhou::Options;
/// let o = Options::from_json(&serde_json::Map::new()).unwrap();
/// assert_eq!(o, Options { min_fan: 15, chow: false });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The least fan a hand needs to win (default 15). A hand below it is not a win.
    pub min_fan: u32,
    /// Whether chows may be claimed (default `false`). When off, a request with a declared
    /// (claimed) chow is [`Invalid`](crate::scoring::Invalid); chows formed in the concealed
    /// hand are always allowed.
    pub chow: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options::DEFAULT
    }
}

/// The house-rule options: the parser checks against this table, the help prints it.
/// (`players` is not a Yangzhou option: the game is for four.)
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

impl Options {
    /// The documented defaults.
    pub const DEFAULT: Options = Options {
        min_fan: 15,
        chow: false,
    };

    /// Reads the options object of a scoring request; absent names keep their defaults.
    /// `"players"` is accepted only as 4.
    pub fn from_json(
        map: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Options, Malformed> {
        option_table::check("yangzhou", OPTIONS, map)?;
        // `players` (read by the request itself) is accepted only as 4, as the other
        // four-player rule sets accept it.
        let mut map = map.clone();
        if let Some(p) = map.remove("players") {
            if p.as_u64() != Some(4) {
                return Err(option_table::players_four("yangzhou", &p));
            }
        }
        serde_json::from_value(serde_json::Value::Object(map))
            .map_err(|e| Malformed::text(format!("options (yangzhou): {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn defaults_and_overrides() {
        assert_eq!(Options::from_json(&map(json!({}))), Ok(Options::default()));
        let o =
            Options::from_json(&map(json!({"min_fan": 1, "chow": true, "players": 4}))).unwrap();
        assert_eq!(
            o,
            Options {
                min_fan: 1,
                chow: true
            }
        );
    }

    #[test]
    fn unknown_or_bad_options_are_malformed() {
        for bad in [
            json!({"min_fun": 3}),
            json!({"min_fan": -1}),
            json!({"min_fan": "15"}),
            json!({"chow": 1}),
            json!({"players": 3}),
        ] {
            assert!(Options::from_json(&map(bad.clone())).is_err(), "{bad}");
        }
    }
}

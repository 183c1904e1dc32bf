//! House rules from a TOML file: `rules = "<set>"` (optional) and the options as plain keys.
//!
//! ```toml
//! # Thursday table
//! rules = "hangzhou"
//! wildcard = "indicator"
//! cap = 128
//! end = "points:50"
//! ```
//!
//! Options given with `--option KEY=VALUE` on the command line win over the file.

use serde_json::{Map, Value};

/// What a rules file says: the rule set (if named) and the options.
pub struct RulesFile {
    /// `rules = "..."`, if present.
    pub rules: Option<String>,
    /// Every other key, as JSON values.
    pub options: Map<String, Value>,
}

/// Reads and parses a rules file.
pub fn load(path: &str) -> Result<RulesFile, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("reading rules file {path}: {e}"))?;
    parse(&text).map_err(|e| format!("rules file {path}: {e}"))
}

/// Parses rules-file text.
pub fn parse(text: &str) -> Result<RulesFile, String> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| e.to_string())?;
    let value = serde_json::to_value(table).map_err(|e| e.to_string())?;
    let Value::Object(mut options) = value else {
        return Err("expected key = value lines".into());
    };
    let rules = match options.remove("rules") {
        None => None,
        Some(Value::String(s)) => Some(s),
        Some(other) => return Err(format!("rules must be a string, not {other}")),
    };
    Ok(RulesFile { rules, options })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rules_and_options() {
        let f = parse("rules = \"hongkong\"\nmin_fan = 1\nflowers = false\n").unwrap();
        assert_eq!(f.rules.as_deref(), Some("hongkong"));
        assert_eq!(f.options["min_fan"], 1);
        assert_eq!(f.options["flowers"], false);
    }

    #[test]
    fn bad_toml_is_an_error() {
        assert!(parse("min_fan = ").is_err());
        assert!(parse("rules = 3").is_err());
    }
}

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

/// Reads and parses a rules file (`-`: standard input).
pub fn load(path: &str) -> Result<RulesFile, String> {
    let text = if path == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map(|_| s)
    } else {
        std::fs::read_to_string(path)
    }
    .map_err(|e| format!("reading rules file {path}: {e}"))?;
    parse(crate::lines::without_bom(&text)).map_err(|e| format!("rules file {path}: {e}"))
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

/// The rule set and its house rules as `play`, `selfplay` and `sim` take them: `--rules`,
/// `--rules-file` and `--option`, declared once (`#[command(flatten)]`).
#[derive(clap::Args, Debug, Clone)]
pub struct RulesArgs {
    // The rule set (help from the registry).
    #[arg(
        long,
        required_unless_present = "rules_file",
        help = rules_help(),
        long_help = rules_long_help()
    )]
    pub rules: Option<String>,
    /// A TOML file of house rules (`rules = "..."` and option keys); --option wins over it.
    #[arg(long, value_name = "FILE")]
    pub rules_file: Option<String>,
    /// A house rule, KEY=VALUE (VALUE read as JSON if it can be, else as text); repeatable.
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

impl RulesArgs {
    /// The rule set's name and its house rules ([`resolve`]).
    pub fn resolve(&self) -> Result<(String, Map<String, Value>), crate::exit::UsageError> {
        resolve(
            self.rules.as_deref(),
            self.rules_file.as_deref(),
            &self.options,
        )
    }
}

/// The rule set and house rules a command was given: `--rules` (else the rules file's
/// `rules`), the rules file's options, then each `--option KEY=VALUE` on top (the value read as
/// JSON when it parses, else as a string: `cap=64`, `wildcard=indicator`).
pub fn resolve(
    rules: Option<&str>,
    rules_file: Option<&str>,
    options: &[String],
) -> Result<(String, Map<String, Value>), crate::exit::UsageError> {
    let file = rules_file.map(load).transpose()?;
    let name = match (rules, file.as_ref().and_then(|f| f.rules.clone())) {
        (Some(r), _) => r.to_string(),
        (None, Some(r)) => r,
        (None, None) => {
            return Err(crate::exit::UsageError(
                "name the rule set with --rules or rules = \"...\" in the rules file".into(),
            ));
        }
    };
    let mut merged = file.map(|f| f.options).unwrap_or_default();
    for o in options {
        let (k, v) = o
            .split_once('=')
            .ok_or_else(|| crate::exit::UsageError(format!("--option {o:?}: write KEY=VALUE")))?;
        let value = serde_json::from_str(v).unwrap_or_else(|_| Value::String(v.to_string()));
        merged.insert(k.to_string(), value);
    }
    Ok((name, merged))
}

/// The `--rules` help line, listing the rule sets from the registry.
pub fn rules_help() -> String {
    format!("The rule set: {}", majiang::rules::registry::names_text())
}

/// The `--rules` long help: every rule set with its names, seats, unit and options (key,
/// default, allowed values, meaning), from the registry.
pub fn rules_long_help() -> String {
    let mut out = rules_help();
    out.push_str(". House rules go in --option KEY=VALUE or a --rules-file:");
    for set in majiang::rules::RULE_SETS {
        let spec = set.spec();
        let seats = spec.seat_counts();
        let players = if seats.start() == seats.end() {
            seats.start().to_string()
        } else {
            format!("{}–{}", seats.start(), seats.end())
        };
        out.push_str(&format!(
            "\n\n{} ({}, {}): {players} players, scored in {}{}",
            spec.name,
            spec.english,
            spec.chinese,
            spec.unit.name(),
            if spec.lao { ", with lao" } else { "" }
        ));
        for o in spec.options {
            out.push_str(&format!(
                "\n  {} = {} ({}): {}",
                o.key, o.default, o.allowed, o.meaning
            ));
        }
    }
    out
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

    #[test]
    fn resolve_layers_file_then_options() {
        let (name, opts) = super::resolve(
            Some("hangzhou"),
            None,
            &["cap=64".into(), "wildcard=indicator".into()],
        )
        .unwrap();
        assert_eq!(name, "hangzhou");
        assert_eq!(opts["cap"], 64);
        assert_eq!(opts["wildcard"], "indicator");
        let e = super::resolve(None, None, &[]).unwrap_err();
        assert!(e.0.contains("--rules"), "{}", e.0);
        let e = super::resolve(Some("hongkong"), None, &["min_fan".into()]).unwrap_err();
        assert!(e.0.contains("KEY=VALUE"), "{}", e.0);
    }
}

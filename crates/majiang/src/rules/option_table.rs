//! A rule set's house-rule options as data: key, default, allowed values and a one-line meaning.
//!
//! Each rule set keeps one [`OptionSpec`] table (in its `options.rs`, beside its parser). Its
//! options parser checks a request's options against that table first ([`check`]: unknown keys and values outside the
//! allowed ones are refused with a message naming the allowed ones), and the help (the CLI's
//! `--rules` help, the server's `/api/rulesets`) prints the same table, so the two cannot
//! drift. The rule set's `Options::default()` must equal the table's defaults read back through
//! the parser; a test checks it for every set.

use crate::scoring::request::Malformed;
use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt;

/// The values an option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Allowed {
    /// `true` or `false`.
    Bool,
    /// A whole number from `min` to `max`.
    Whole {
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// A whole number from `min` to `max`, or `null` (the option is off).
    WholeOrNone {
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// One of these strings.
    OneOf {
        /// The strings.
        values: &'static [&'static str],
    },
    /// A string of this form (the parser reads it; `examples` are valid values).
    Form {
        /// The form, e.g. `rounds:N or points:N`.
        form: &'static str,
        /// Valid values.
        examples: &'static [&'static str],
    },
}

impl Allowed {
    /// Whether `value` is one of the allowed values (for [`Allowed::Form`]: whether it is a
    /// string; the parser checks the form).
    pub fn admits(&self, value: &Value) -> bool {
        let whole = |min: i64, max: i64| value.as_i64().is_some_and(|n| (min..=max).contains(&n));
        match *self {
            Allowed::Bool => value.is_boolean(),
            Allowed::Whole { min, max } => whole(min, max),
            Allowed::WholeOrNone { min, max } => value.is_null() || whole(min, max),
            Allowed::OneOf { values } => value.as_str().is_some_and(|s| values.contains(&s)),
            Allowed::Form { .. } => value.is_string(),
        }
    }
}

impl fmt::Display for Allowed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Allowed::Bool => f.write_str("true or false"),
            Allowed::Whole { min, max } if min == max => write!(f, "{min}"),
            Allowed::Whole { min, max } => write!(f, "a whole number from {min} to {max}"),
            Allowed::WholeOrNone { min, max } => {
                write!(f, "a whole number from {min} to {max}, or null for none")
            }
            Allowed::OneOf { values } => {
                let quoted: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
                write!(f, "one of {}", quoted.join(", "))
            }
            Allowed::Form { form, .. } => f.write_str(form),
        }
    }
}

/// One house-rule option of a rule set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OptionSpec {
    /// The key in an `options` object, a rules file or `--option KEY=VALUE`.
    pub key: &'static str,
    /// The default, as JSON text (`3`, `true`, `"white"`, `null`).
    pub default: &'static str,
    /// The values it takes.
    pub allowed: Allowed,
    /// What it does, in one line.
    pub meaning: &'static str,
}

impl OptionSpec {
    /// The default as a JSON value (`null` if the table's text is not JSON, which a test
    /// rules out).
    pub fn default_value(&self) -> Value {
        serde_json::from_str(self.default).unwrap_or(Value::Null)
    }
}

/// Checks `options` against `table`: every key must be in it and every value allowed.
/// `set` names the rule set in the messages.
///
/// ```
/// use majiang::rules::option_table::check;
/// let table = majiang::rules::hongkong::OPTIONS;
/// let bad: serde_json::Map<_, _> = serde_json::from_str(r#"{"min_fann": 3}"#).unwrap();
/// let e = check("hongkong", table, &bad).unwrap_err();
/// assert!(e.to_string().contains("min_fann") && e.to_string().contains("seven_pairs"));
/// ```
pub fn check(
    set: &str,
    table: &[OptionSpec],
    options: &Map<String, Value>,
) -> Result<(), Malformed> {
    for (key, value) in options {
        let Some(spec) = table.iter().find(|o| o.key == key) else {
            let keys: Vec<&str> = table.iter().map(|o| o.key).collect();
            return Err(Malformed(UNKNOWN_OPTION.with([
                set.into(),
                key.as_str().into(),
                keys.into(),
            ])));
        };
        if !spec.allowed.admits(value) {
            // What it takes: the table's form (for a front end to word) and the English.
            let mut allowed = serde_json::to_value(spec.allowed).unwrap_or(Value::Null);
            if let Value::Object(o) = &mut allowed {
                o.insert("text".into(), spec.allowed.to_string().into());
            }
            return Err(Malformed(NOT_ALLOWED.with([
                set.into(),
                key.as_str().into(),
                value.to_string().into(),
                allowed,
            ])));
        }
    }
    Ok(())
}

crate::words_table! {
    /// Every refusal of house rules with a key.
    pub static WORDS;
    /// An option the table does not have.
    pub UNKNOWN_OPTION = "options.unknown" ["rules", "key", "keys"] "options ({rules}): unknown field `{key}`; the options are {keys}";
    /// A value outside the allowed ones; `allowed` is the [`Allowed`] as JSON with its English as
    /// `text`, `value` the value as JSON text.
    pub NOT_ALLOWED = "options.not_allowed" ["rules", "key", "value", "allowed"] "options ({rules}): {key} = {value} is not allowed; {key} takes {allowed}";
    /// `players` other than 4 for a four-player rule set.
    pub PLAYERS_FOUR = "options.players_four" ["rules", "value"] "options.players: {rules} mahjong is played by 4, not {value}";
    /// Classic `players` outside 3 to 6.
    pub CLASSIC_PLAYERS = "options.classic_players" ["n"] "options.players: {n} — this game seats 3, 4, 5 or 6";
    /// Flowers at a five- or six-player classic table.
    pub FLOWERS_ARE_WINDS = "options.flowers_are_winds" ["n"] "options.flowers: a {n}-player table uses the flower tiles as extra winds, so they cannot also be bonus flowers";
    /// A rule set name that is none.
    pub UNKNOWN_RULES = "options.unknown_rules" ["name", "names"] "rules: \"{name}\" is not a rule set ({names})";
}

/// The refusal of `players` other than 4 (`value`) for a four-player rule set.
pub fn players_four(set: &str, value: &Value) -> Malformed {
    Malformed(PLAYERS_FOUR.with([set.into(), value.to_string().into()]))
}

/// The table's defaults as an `options` object.
pub fn defaults(table: &[OptionSpec]) -> Map<String, Value> {
    table
        .iter()
        .map(|o| (o.key.to_string(), o.default_value()))
        .collect()
}

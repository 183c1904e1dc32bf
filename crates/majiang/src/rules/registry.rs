//! The one list of rule sets. Everything that needs a rule set by its name (the command line,
//! requests, logs, the lobby) asks here; everything else asks the [`RuleSet`] it holds. No
//! other code compares rule-set names. Adding a rule set: its folder `rules/<set>/` (a type
//! implementing [`RuleSet`]) and one line in [`RULE_SETS`] (a slice: no length to keep;
//! ARCHITECTURE.md lists the rest: the catalogues' pattern and reason strings, and the docs).
//!
//! ```
//! use majiang::rules::{RULE_SETS, lookup};
//! assert!(RULE_SETS.iter().any(|s| s.name() == "classic"));
//! let classic = lookup("classic").unwrap().spec();
//! assert_eq!(classic.seat_counts(), 3..=6);
//! assert_eq!(classic.chinese, "中国古典麻将");
//! assert!(lookup("riichi").unwrap_err().0.to_string().contains("hongkong, hangzhou, yangzhou, classic"));
//! ```

pub use super::rule_set::{Aims, FedThirdMeld, Readiness, RuleSet, RuleSetSpec, ScoreUnit, Seats};
use super::{classic, hangzhou, hongkong, yangzhou};
use crate::scoring::reason::{Arg, Reason, ReasonDef};
use crate::scoring::request::Malformed;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

/// Every rule set under its default house rules, in the order help and the lobby list them.
pub static RULE_SETS: &[&dyn RuleSet] = &[
    &hongkong::spec::HONG_KONG,
    &hangzhou::spec::HANGZHOU,
    &yangzhou::spec::YANGZHOU,
    &classic::spec::CLASSIC,
];

/// The rule set called `name`, under its default house rules; an unknown name is refused with
/// a message listing the sets.
pub fn lookup(name: &str) -> Result<&'static dyn RuleSet, Malformed> {
    RULE_SETS
        .iter()
        .copied()
        .find(|s| s.name() == name)
        .ok_or_else(|| {
            Malformed(
                super::option_table::UNKNOWN_RULES.with([
                    name.into(),
                    RULE_SETS
                        .iter()
                        .map(|s| s.name())
                        .collect::<Vec<_>>()
                        .into(),
                ]),
            )
        })
}

/// The rule set called `name` under the house rules of `options`, read by its own parser.
pub fn read(name: &str, options: &Map<String, Value>) -> Result<Box<dyn RuleSet>, Malformed> {
    lookup(name)?.read(options)
}

/// The rule sets' names, comma-separated (`hongkong, hangzhou, yangzhou, classic`).
pub fn names_text() -> String {
    let names: Vec<&str> = RULE_SETS.iter().map(|s| s.name()).collect();
    names.join(", ")
}

/// Every payment rule of every rule set, each once (a rule several sets share is listed by
/// the first), in the order of [`RULE_SETS`].
pub fn reasons() -> Vec<&'static ReasonDef> {
    let mut all: Vec<&'static ReasonDef> = Vec::new();
    for set in RULE_SETS {
        for &def in set.spec().reasons {
            if !all.iter().any(|d| d.key == def.key) {
                all.push(def);
            }
        }
    }
    all
}

/// Every key a payment reason is sent with (`"classic.winner_score"` …), for a front end's
/// catalogue to be checked against: the keys of [`reasons`].
pub fn reason_keys() -> Vec<&'static str> {
    reasons().iter().map(|d| d.key).collect()
}

/// A reason as JSON writes it: the key, and the numbers by name.
#[derive(Deserialize)]
struct RawReason {
    key: String,
    args: Map<String, Value>,
}

fn reason_from(raw: RawReason) -> Result<Reason, String> {
    let def = RULE_SETS
        .iter()
        .flat_map(|s| s.spec().reasons)
        .find(|d| d.key == raw.key)
        .ok_or_else(|| format!("{:?} is not a payment reason of any rule set", raw.key))?;
    if raw.args.len() != def.args.len() {
        return Err(format!("{}: the arguments are {:?}", def.key, def.args));
    }
    let mut args = Vec::with_capacity(def.args.len());
    for name in def.args {
        let value = raw
            .args
            .get(*name)
            .ok_or_else(|| format!("{}: no argument {name}", def.key))?;
        args.push(arg_from(value).ok_or_else(|| format!("{}.{name}: {value}", def.key))?);
    }
    Ok(def.with(args))
}

/// A number, a list of numbers (shares) or a list of reasons (an empty list reads as shares).
fn arg_from(value: &Value) -> Option<Arg> {
    if let Some(n) = value.as_i64() {
        return Some(Arg::Number(n));
    }
    let list = value.as_array()?;
    if list.iter().all(Value::is_i64) {
        return Some(Arg::Shares(list.iter().filter_map(Value::as_i64).collect()));
    }
    let owed = list
        .iter()
        .map(|v| {
            let raw = RawReason::deserialize(v).ok()?;
            reason_from(raw).ok()
        })
        .collect::<Option<Vec<Reason>>>()?;
    Some(Arg::Owed(owed))
}

/// A payment reason read back (a match log's won events): its key must be one of a listed
/// rule set's payment rules, its arguments that rule's.
impl<'de> Deserialize<'de> for Reason {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Reason, D::Error> {
        let raw = RawReason::deserialize(d)?;
        reason_from(raw).map_err(serde::de::Error::custom)
    }
}

//! Why a payment is made: a rule ([`ReasonDef`]: its catalogue key, the names of its numbers
//! and its English words) with the numbers of one payment ([`Reason`]). Each rule set declares
//! the rules it pays by (in its `settle.rs`, listed by its [`RuleSetSpec`]); a reason is
//! written in English by its rule's words (the CLI, the terminal) and sent to a front end as a
//! key and its arguments, which the front end's catalogue words in its own language (the
//! browser's `reason.<key>` strings, the same form as the English words here).
//!
//! [`RuleSetSpec`]: crate::rules::RuleSetSpec
//!
//! ```
//! use majiang::scoring::reason::{Arg, ReasonDef};
//! static PAYS_DOUBLE: ReasonDef = ReasonDef {
//!     key: "example.pays_double",
//!     args: &["points"],
//!     english: "pays double, 2 × {points}",
//! };
//! let why = PAYS_DOUBLE.with([Arg::Number(16)]);
//! assert_eq!(why.to_string(), "pays double, 2 × 16");
//! assert_eq!(
//!     serde_json::to_value(&why).unwrap(),
//!     serde_json::json!({"key": "example.pays_double", "args": {"points": 16}})
//! );
//! ```
//!
//! Reading a reason back from JSON (a match log's won events) finds its rule among the rule
//! sets' rules: that lives with the list of rule sets, in `rules::registry`.

use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};
use std::fmt;

/// One rule by which a seat pays another.
#[derive(Debug, PartialEq, Eq)]
pub struct ReasonDef {
    /// The catalogue key, `<rule set>.<rule>` (or a bare rule that several sets share):
    /// a front end words the reason by its `reason.<key>` string.
    pub key: &'static str,
    /// The names of the reason's numbers, in the order they are given and written.
    pub args: &'static [&'static str],
    /// The words in English, each `{name}` standing for the number of that name: a number is
    /// written as it is, a list of shares as "2 + 1 + 1", a list of reasons joined by "; ".
    pub english: &'static str,
}

impl ReasonDef {
    /// The reason for one payment by this rule, with its numbers in the order of
    /// [`ReasonDef::args`]: at most [`MAX_ARGS`], of which at most one a list (the registry's
    /// tests check every rule's words against its names).
    pub fn with(&'static self, args: impl IntoIterator<Item = Arg>) -> Reason {
        let mut r = self.of(&[]);
        let mut n = 0;
        for arg in args {
            debug_assert!(n < MAX_ARGS, "{}: too many numbers", self.key);
            match arg {
                Arg::Number(x) => {
                    if let Some(slot) = r.numbers.get_mut(n) {
                        *slot = x;
                    }
                }
                Arg::Shares(shares) => r.list = Some(Box::new((n, List::Shares(shares)))),
                Arg::Owed(owed) => r.list = Some(Box::new((n, List::Owed(owed)))),
            }
            n += 1;
        }
        debug_assert_eq!(n, self.args.len(), "{}", self.key);
        r
    }

    /// The reason for one payment by this rule when all its numbers are plain numbers, in the
    /// order of [`ReasonDef::args`] (the common case: nothing is allocated).
    #[inline]
    pub fn of(&'static self, numbers: &[i64]) -> Reason {
        debug_assert!(numbers.len() <= MAX_ARGS, "{}: too many numbers", self.key);
        let mut r = Reason {
            def: self,
            numbers: [0; MAX_ARGS],
            list: None,
        };
        let n = numbers.len().min(MAX_ARGS);
        r.numbers[..n].copy_from_slice(&numbers[..n]);
        r
    }

    /// The names in the English words' `{name}` placeholders, in order of first appearance.
    pub fn placeholders(&self) -> Vec<&'static str> {
        crate::words::placeholders(self.english)
    }
}

/// Self-draw: each loser pays the hand's total (Yangzhou and Hangzhou).
pub static SELF_DRAW_TOTAL: ReasonDef = ReasonDef {
    key: "self_draw_total",
    args: &["total"],
    english: "self-draw: pays the total, {total}",
};

/// The most numbers a reason has (kept in the reason itself: writing one allocates nothing
/// but its list).
pub const MAX_ARGS: usize = 4;

/// The one list among a reason's numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
enum List {
    Shares(Vec<i64>),
    Owed(Vec<Reason>),
}

/// One of a reason's numbers, borrowed.
enum ArgRef<'a> {
    Number(i64),
    Shares(&'a [i64]),
    Owed(&'a [Reason]),
}

/// One number of a reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// A number (written as it is).
    Number(i64),
    /// A list of shares (written "2 + 1 + 1").
    Shares(Vec<i64>),
    /// The reasons a limited payment joins (written joined by "; ").
    Owed(Vec<Reason>),
}

impl From<i64> for Arg {
    fn from(n: i64) -> Arg {
        Arg::Number(n)
    }
}

impl Arg {
    fn as_ref(&self) -> ArgRef<'_> {
        match self {
            Arg::Number(n) => ArgRef::Number(*n),
            Arg::Shares(shares) => ArgRef::Shares(shares),
            Arg::Owed(owed) => ArgRef::Owed(owed),
        }
    }
}

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_ref().fmt(f)
    }
}

impl fmt::Display for ArgRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ArgRef::Number(n) => write!(f, "{n}"),
            ArgRef::Shares(shares) => {
                for (i, x) in shares.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" + ")?;
                    }
                    write!(f, "{x}")?;
                }
                Ok(())
            }
            ArgRef::Owed(owed) => {
                for (i, r) in owed.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{r}")?;
                }
                Ok(())
            }
        }
    }
}

impl Serialize for ArgRef<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            ArgRef::Number(n) => s.serialize_i64(n),
            ArgRef::Shares(shares) => shares.serialize(s),
            ArgRef::Owed(owed) => owed.serialize(s),
        }
    }
}

/// The rule by which one seat pays another, with the numbers of its arithmetic. Serialised as
/// `{"key": "<rule set>.<rule>", "args": {...}}`, the arguments in the rule's order; written in
/// English by `Display`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason {
    def: &'static ReasonDef,
    /// The numbers by position (a list's position holds 0).
    numbers: [i64; MAX_ARGS],
    /// The list among them, if any, with its position.
    list: Option<Box<(usize, List)>>,
}

impl Reason {
    /// The rule.
    pub fn def(&self) -> &'static ReasonDef {
        self.def
    }

    /// The catalogue key (`"hongkong.fan_self_draw"`).
    pub fn key(&self) -> &'static str {
        self.def.key
    }

    /// The number called `name`, if the rule has one.
    pub fn arg(&self, name: &str) -> Option<Arg> {
        let i = self.def.args.iter().position(|&a| a == name)?;
        Some(self.arg_at(i).to_owned())
    }

    /// The numbers, in the order of the rule's [`ReasonDef::args`].
    pub fn args(&self) -> Vec<Arg> {
        (0..self.def.args.len())
            .map(|i| self.arg_at(i).to_owned())
            .collect()
    }

    fn arg_at(&self, i: usize) -> ArgRef<'_> {
        match self.list.as_deref() {
            Some((at, List::Shares(shares))) if *at == i => ArgRef::Shares(shares),
            Some((at, List::Owed(owed))) if *at == i => ArgRef::Owed(owed),
            _ => ArgRef::Number(self.numbers.get(i).copied().unwrap_or(0)),
        }
    }
}

impl ArgRef<'_> {
    fn to_owned(&self) -> Arg {
        match *self {
            ArgRef::Number(n) => Arg::Number(n),
            ArgRef::Shares(shares) => Arg::Shares(shares.to_vec()),
            ArgRef::Owed(owed) => Arg::Owed(owed.to_vec()),
        }
    }
}

impl fmt::Display for Reason {
    /// The reason in English, e.g. "pays the winner's score, 24".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::words::fill(f, self.def.english, self.def.args, |f, i| {
            write!(f, "{}", self.arg_at(i))
        })
    }
}

/// The arguments as a JSON object in the rule's order.
struct Args<'a>(&'a Reason);

impl Serialize for Args<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.0;
        let mut map = s.serialize_map(Some(r.def.args.len()))?;
        for (i, name) in r.def.args.iter().enumerate() {
            map.serialize_entry(name, &r.arg_at(i))?;
        }
        map.end()
    }
}

impl Serialize for Reason {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Reason", 2)?;
        st.serialize_field("key", self.def.key)?;
        st.serialize_field("args", &Args(self))?;
        st.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static CAPPED: ReasonDef = ReasonDef {
        key: "test.capped",
        args: &["owed", "sum", "cap"],
        english: "{owed}; owes {sum}, capped at {cap}",
    };
    static SHARES: ReasonDef = ReasonDef {
        key: "test.shares",
        args: &["shares", "amount"],
        english: "pays every share ×2, ({shares}) × 2 = {amount}",
    };

    fn capped() -> Reason {
        let owed = vec![
            SHARES.with([Arg::Shares(vec![2, 1, 1]), 8.into()]),
            SELF_DRAW_TOTAL.of(&[3]),
        ];
        CAPPED.with([Arg::Owed(owed), 11.into(), 5.into()])
    }

    #[test]
    fn english_fills_in_every_number() {
        assert_eq!(
            capped().to_string(),
            "pays every share ×2, (2 + 1 + 1) × 2 = 8; self-draw: pays the total, 3; owes 11, \
             capped at 5"
        );
        assert_eq!(CAPPED.placeholders(), ["owed", "sum", "cap"]);
    }

    #[test]
    fn json_is_the_key_and_the_numbers_in_the_rules_order() {
        let text = serde_json::to_string(&capped()).unwrap();
        assert_eq!(
            text,
            r#"{"key":"test.capped","args":{"owed":[{"key":"test.shares","args":{"shares":[2,1,1],"amount":8}},{"key":"self_draw_total","args":{"total":3}}],"sum":11,"cap":5}}"#
        );
    }

    #[test]
    fn a_reason_answers_its_numbers_by_name() {
        let r = capped();
        assert_eq!(r.key(), "test.capped");
        assert_eq!(r.arg("cap"), Some(Arg::Number(5)));
        assert_eq!(r.arg("nothing"), None);
        assert_eq!(r.args().len(), 3);
    }
}

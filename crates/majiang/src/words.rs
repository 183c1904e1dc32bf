//! What the library says to a person, as a catalogue key and its named values: why an action
//! is refused ([`ActionError::words`](crate::table::ActionError::words)), why a hand is not a
//! win ([`Invalid`](crate::scoring::Invalid)), why house rules are refused
//! ([`Malformed`](crate::scoring::request::Malformed)). Each kind of message is a table of
//! [`WordsDef`]s (key, the names of its values, the English words); a front end words a message
//! by its catalogue's string for the key, the same form as the English words here, and the
//! English is what `Display` writes (the CLI, logs, API users). The payment reasons
//! ([`crate::scoring::reason`]) are the same idea for numbers only.
//!
//! ```
//! use majiang::words::{Words, WordsDef};
//! static BELOW: WordsDef = WordsDef {
//!     key: "example.below",
//!     args: &["fan", "min"],
//!     english: "{fan} fan is below the minimum of {min} fan",
//! };
//! let w: Words = BELOW.with([1.into(), 3.into()]);
//! assert_eq!(w.to_string(), "1 fan is below the minimum of 3 fan");
//! assert_eq!(
//!     serde_json::to_value(&w).unwrap(),
//!     serde_json::json!({"key": "example.below", "args": {"fan": 1, "min": 3}})
//! );
//! ```

/// Declares a table of messages: one `static` [`WordsDef`] per entry (its doc comment, then
/// its English words in the generated docs) and a `static` list of them all, in order.
///
/// ```
/// use majiang::words::WordsDef;
/// majiang::words_table! {
///     /// Every example message.
///     pub static EXAMPLES;
///     /// A tile the player does not hold.
///     pub NOT_HELD = "example.not_held" ["tile"] "you do not hold {tile}";
///     pub OVER = "example.over" [] "the hand is over";
/// }
/// assert_eq!(EXAMPLES.len(), 2);
/// assert_eq!(NOT_HELD.args, ["tile"]);
/// assert_eq!(OVER.plain().to_string(), "the hand is over");
/// ```
#[macro_export]
macro_rules! words_table {
    (
        $(#[$doc:meta])* $lvis:vis static $list:ident;
        $( $(#[$d:meta])* $vis:vis $name:ident = $key:literal [$($arg:literal),*] $english:literal; )*
    ) => {
        $(
            $(#[$d])*
            #[doc = concat!("\n\nIn English: “", $english, "” (`", $key, "`).")]
            $vis static $name: $crate::words::WordsDef = $crate::words::WordsDef {
                key: $key,
                args: &[$($arg),*],
                english: $english,
            };
        )*
        $(#[$doc])*
        $lvis static $list: &[&$crate::words::WordsDef] = &[$(&$name),*];
    };
}

use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::fmt;

/// One message a person may be told: its catalogue key, the names of its values and its
/// English words (each `{name}` standing for the value of that name).
#[derive(Debug, PartialEq, Eq)]
pub struct WordsDef {
    /// The catalogue key (`"illegal.not_held"`).
    pub key: &'static str,
    /// The names of the values, in the order they are given.
    pub args: &'static [&'static str],
    /// The words in English.
    pub english: &'static str,
}

impl WordsDef {
    /// The message with its values in the order of [`WordsDef::args`] (a missing value is
    /// written as `null`; `check_table` checks every table's words against its names).
    pub fn with<const N: usize>(&'static self, args: [Value; N]) -> Words {
        debug_assert_eq!(N, self.args.len(), "{}", self.key);
        Words {
            def: self,
            args: args.into(),
        }
    }

    /// The message when it has no values.
    pub fn plain(&'static self) -> Words {
        self.with([])
    }

    /// The names in the English words' `{name}` placeholders, in order of first appearance.
    pub fn placeholders(&self) -> Vec<&'static str> {
        placeholders(self.english)
    }
}

/// The names in `template`'s `{name}` placeholders, each once, in order of first appearance
/// (what [`fill`] would look up; an unclosed `{` ends the search).
///
/// ```
/// assert_eq!(majiang::words::placeholders("{a} and {b}, {a} again"), ["a", "b"]);
/// ```
pub fn placeholders(template: &str) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let name = &rest[open + 1..open + close];
        if !names.contains(&name) {
            names.push(name);
        }
        rest = &rest[open + close + 1..];
    }
    names
}

/// Writes `template` to `out` with each `{name}` that is one of `names` replaced by what
/// `value(out, i)` writes, `i` the name's position in `names`: the one filling of a message's
/// words, for every table of them ([`Words`], the payment reasons of
/// [`crate::scoring::reason`]). Anything else is written as it stands: a `{…}` whose name is
/// not among `names` (braces included, so a literal `{x}` is kept unless `x` is a name), and an
/// unclosed `{` with the rest of the text. There is no escape for braces: no message needs one.
///
/// ```
/// use std::fmt::Write;
/// let mut out = String::new();
/// majiang::words::fill(&mut out, "{who} pays {n}; {other}", &["n", "who"], |out, i| {
///     out.write_str(["3", "Ann"][i])
/// })
/// .unwrap();
/// assert_eq!(out, "Ann pays 3; {other}");
/// ```
pub fn fill<W: fmt::Write + ?Sized>(
    out: &mut W,
    template: &str,
    names: &[&str],
    mut value: impl FnMut(&mut W, usize) -> fmt::Result,
) -> fmt::Result {
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.write_str(&rest[..open])?;
        let after = &rest[open..];
        let Some(close) = after.find('}') else {
            rest = after;
            break;
        };
        match names.iter().position(|&a| a == &after[1..close]) {
            Some(i) => value(out, i)?,
            None => out.write_str(&after[..=close])?,
        }
        rest = &after[close + 1..];
    }
    out.write_str(rest)
}

/// A message: its [`WordsDef`] and values. Serialised as `{"key", "args": {name: value}}`;
/// written in English by `Display`.
#[derive(Debug, Clone, PartialEq)]
pub struct Words {
    def: &'static WordsDef,
    args: Vec<Value>,
}

impl Eq for Words {}

/// A message the library has no key for yet: its text is the one value (front ends show it
/// as it is). Only for text from outside the library's tables (a JSON parser's message).
pub static TEXT: WordsDef = WordsDef {
    key: "text",
    args: &["text"],
    english: "{text}",
};

impl Words {
    /// A message with no key of its own ([`TEXT`]).
    pub fn text(text: impl Into<String>) -> Words {
        TEXT.with([Value::String(text.into())])
    }

    /// The definition.
    pub fn def(&self) -> &'static WordsDef {
        self.def
    }

    /// The catalogue key.
    pub fn key(&self) -> &'static str {
        self.def.key
    }

    /// The value called `name`, if the message has one.
    pub fn arg(&self, name: &str) -> Option<&Value> {
        let i = self.def.args.iter().position(|&a| a == name)?;
        self.args.get(i)
    }

    /// The values as a JSON object by name.
    pub fn args_json(&self) -> serde_json::Map<String, Value> {
        self.def
            .args
            .iter()
            .zip(&self.args)
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }
}

impl From<String> for Words {
    fn from(text: String) -> Words {
        Words::text(text)
    }
}

impl From<&str> for Words {
    fn from(text: &str) -> Words {
        Words::text(text)
    }
}

fn write_value(f: &mut fmt::Formatter<'_>, v: &Value) -> fmt::Result {
    match v {
        Value::String(s) => f.write_str(s),
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write_value(f, x)?;
            }
            Ok(())
        }
        // An object with its English as `text` (an option's allowed values).
        Value::Object(o) => match o.get("text") {
            Some(Value::String(text)) => f.write_str(text),
            _ => write!(f, "{v}"),
        },
        other => write!(f, "{other}"),
    }
}

impl fmt::Display for Words {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fill(f, self.def.english, self.def.args, |f, i| {
            write_value(f, self.args.get(i).unwrap_or(&Value::Null))
        })
    }
}

struct Args<'a>(&'a Words);

impl Serialize for Args<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let w = self.0;
        let mut map = s.serialize_map(Some(w.def.args.len()))?;
        for (name, v) in w.def.args.iter().zip(&w.args) {
            map.serialize_entry(name, v)?;
        }
        map.end()
    }
}

impl Serialize for Words {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Words", 2)?;
        st.serialize_field("key", self.def.key)?;
        st.serialize_field("args", &Args(self))?;
        st.end()
    }
}

/// Checks a table of messages: keys unique and dotted, every `{name}` among the values and
/// every value named in the words.
pub fn check_table(table: &[&WordsDef]) -> Result<(), String> {
    for (i, d) in table.iter().enumerate() {
        if table[..i].iter().any(|o| o.key == d.key) {
            return Err(format!("{}: listed twice", d.key));
        }
        if d.key.is_empty() || d.key.contains(' ') {
            return Err(format!("{:?}: not a catalogue key", d.key));
        }
        let mut names = d.placeholders();
        names.sort_unstable();
        let mut args = d.args.to_vec();
        args.sort_unstable();
        if names != args {
            return Err(format!(
                "{}: the words name {names:?}, the values are {args:?}",
                d.key
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_message_is_its_text() {
        let w = Words::text("bad JSON");
        assert_eq!(w.to_string(), "bad JSON");
        assert_eq!(w.key(), "text");
        assert_eq!(w.arg("text"), Some(&Value::from("bad JSON")));
    }

    /// `fill` with the values `["Ann", "3"]` for the names `["who", "n"]`.
    fn filled(template: &str) -> String {
        let mut out = String::new();
        fill(&mut out, template, &["who", "n"], |out, i| {
            fmt::Write::write_str(out, ["Ann", "3"][i])
        })
        .unwrap();
        out
    }

    #[test]
    fn fill_replaces_known_names_and_keeps_everything_else() {
        assert_eq!(filled("{who} pays {n}"), "Ann pays 3");
        // Repeated, adjacent, at the edges, beside other scripts.
        assert_eq!(filled("{n}{n} {who}"), "33 Ann");
        assert_eq!(filled("付{n}番给{who}"), "付3番给Ann");
        assert_eq!(filled(""), "");
        assert_eq!(filled("no placeholder"), "no placeholder");
        // A name that is not a value (a missing key), an empty one and literal braces: as
        // they stand.
        assert_eq!(filled("{who} owes {whom}"), "Ann owes {whom}");
        assert_eq!(filled("{} and {N}"), "{} and {N}");
        assert_eq!(filled("a } b"), "a } b");
        // A `{` inside a placeholder is part of its name; an unclosed one ends the filling.
        assert_eq!(filled("{a{n} {who}"), "{a{n} Ann");
        assert_eq!(filled("{who} {n"), "Ann {n");
        assert_eq!(filled("{"), "{");
    }

    #[test]
    fn a_writer_error_stops_the_filling() {
        let mut out = String::new();
        let r = fill(&mut out, "{who}, then {n}", &["who", "n"], |out, i| {
            if i == 1 {
                Err(fmt::Error)
            } else {
                fmt::Write::write_str(out, "Ann")
            }
        });
        assert!(r.is_err());
        assert_eq!(out, "Ann, then ");
    }

    #[test]
    fn placeholders_are_the_names_fill_looks_up() {
        assert_eq!(placeholders("{who} pays {n} to {who}"), ["who", "n"]);
        assert_eq!(placeholders("{} {a{b} {c"), ["", "a{b"]);
        assert!(placeholders("none").is_empty());
    }

    #[test]
    fn lists_are_written_joined() {
        static L: WordsDef = WordsDef {
            key: "t.list",
            args: &["names"],
            english: "waiting for {names}",
        };
        let w = L.with([serde_json::json!(["Ann", "Bo"])]);
        assert_eq!(w.to_string(), "waiting for Ann, Bo");
    }
}

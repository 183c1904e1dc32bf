//! `majiang.score`'s hot path: a request dict's common fields read with plain downcasts (no
//! serde), and the rule sets read from their house rules kept between calls.
//!
//! The reader handles what requests usually hold (strings, lists of strings, melds as dicts,
//! small integers, `itemise`, an options dict) and declines anything else (`others`,
//! `balances`, an unknown key, a value of another type, a string subclass): `score` then reads
//! the dict the general way (pythonize into serde), whose answer and messages are the command
//! line's. Both end in the library's `ScoreRequest::from_fields`, so they read a request alike.

use crate::convert::to_json;
use majiang::rules::{RuleSet, registry};
use majiang::scoring::request::{Malformed, MeldFields, RequestFields};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Value};
use std::cell::RefCell;

/// A request dict's fields as Python strings (held so that their text can be borrowed).
#[derive(Default)]
pub struct DictRequest<'py> {
    rules: Option<Bound<'py, PyString>>,
    options: Map<String, Value>,
    concealed: Option<Bound<'py, PyString>>,
    melds: Vec<[Option<Bound<'py, PyString>>; 3]>,
    winning_tile: Option<Bound<'py, PyString>>,
    win: Option<Bound<'py, PyString>>,
    discarder: Option<Bound<'py, PyString>>,
    seat: Option<Bound<'py, PyString>>,
    dealer: Option<Bound<'py, PyString>>,
    prevailing_wind: Option<Bound<'py, PyString>>,
    flowers: Vec<Bound<'py, PyString>>,
    situation: Vec<Bound<'py, PyString>>,
    kong_chain: u8,
    gambits: u8,
    lao: Option<u8>,
    wildcard: Option<Bound<'py, PyString>>,
    itemise: bool,
}

/// Every key a request dict (and a meld's dict) may hold on this reader's path.
const KEYS: [&str; 20] = [
    "rules",
    "options",
    "concealed",
    "melds",
    "winning_tile",
    "win",
    "discarder",
    "seat",
    "dealer",
    "prevailing_wind",
    "flowers",
    "situation",
    "kong_chain",
    "gambits",
    "lao",
    "wildcard",
    "itemise",
    "kind",
    "tiles",
    "from",
];

/// [`KEYS`] as interned Python strings, made once.
static INTERNED_KEYS: GILOnceCell<[Py<PyString>; KEYS.len()]> = GILOnceCell::new();

/// The key `k` as one of [`KEYS`] (any other text as itself), or `None` when it is not an
/// exact `str`. A key written in Python source is interned, so it is found by identity,
/// without reading its text.
fn key_name<'a>(k: &'a Bound<'_, PyAny>) -> Option<&'a str> {
    let py = k.py();
    let interned =
        INTERNED_KEYS.get_or_init(py, || KEYS.map(|key| PyString::intern(py, key).unbind()));
    if let Some(i) = interned.iter().position(|s| s.as_ptr() == k.as_ptr()) {
        return Some(KEYS[i]);
    }
    k.downcast_exact::<PyString>().ok()?.to_str().ok()
}

/// A `str` exactly (not a subclass, which the general reader handles).
fn string<'py>(v: &Bound<'py, PyAny>) -> Option<Bound<'py, PyString>> {
    v.downcast_exact::<PyString>().ok().cloned()
}

/// An optional string field: `None` stands for a missing one, as JSON's `null` does.
fn optional_string<'py>(v: &Bound<'py, PyAny>) -> Option<Option<Bound<'py, PyString>>> {
    if v.is_none() {
        Some(None)
    } else {
        string(v).map(Some)
    }
}

/// A small non-negative `int` exactly (not a bool).
fn small_int(v: &Bound<'_, PyAny>) -> Option<u8> {
    if v.is_exact_instance_of::<PyInt>() {
        v.extract::<u8>().ok()
    } else {
        None
    }
}

/// The items of a list or tuple.
fn items<'py>(v: &Bound<'py, PyAny>) -> Option<Vec<Bound<'py, PyAny>>> {
    if let Ok(l) = v.downcast_exact::<PyList>() {
        Some(l.iter().collect())
    } else if let Ok(t) = v.downcast_exact::<PyTuple>() {
        Some(t.iter().collect())
    } else {
        None
    }
}

fn strings<'py>(v: &Bound<'py, PyAny>) -> Option<Vec<Bound<'py, PyString>>> {
    items(v)?.iter().map(string).collect()
}

/// A meld dict: `kind`, `tiles` and an optional `from`, nothing else.
fn meld<'py>(v: &Bound<'py, PyAny>) -> Option<[Option<Bound<'py, PyString>>; 3]> {
    let d = v.downcast_exact::<PyDict>().ok()?;
    let mut out: [Option<Bound<'py, PyString>>; 3] = [None, None, None];
    for (k, v) in d.iter() {
        match key_name(&k)? {
            "kind" => out[0] = Some(string(&v)?),
            "tiles" => out[1] = Some(string(&v)?),
            "from" => out[2] = optional_string(&v)?,
            _ => return None,
        }
    }
    // Kind and tiles are required (the general reader names the missing one).
    (out[0].is_some() && out[1].is_some()).then_some(out)
}

impl<'py> DictRequest<'py> {
    /// The fields of `dict`, or `None` when it holds anything this reader leaves to the
    /// general one (which reads it, or says what is wrong with it).
    pub fn read(dict: &Bound<'py, PyDict>) -> Option<DictRequest<'py>> {
        let mut r = DictRequest::default();
        for (k, v) in dict.iter() {
            match key_name(&k)? {
                "rules" => r.rules = Some(string(&v)?),
                "options" => {
                    // A dict only (`None` is refused by the general reader, as JSON's null).
                    let d = v.downcast_exact::<PyDict>().ok()?;
                    if !d.is_empty() {
                        match to_json(d.as_any(), "options").ok()? {
                            Value::Object(map) => r.options = map,
                            _ => return None,
                        }
                    }
                }
                "concealed" => r.concealed = Some(string(&v)?),
                "melds" => r.melds = items(&v)?.iter().map(meld).collect::<Option<_>>()?,
                "winning_tile" => r.winning_tile = Some(string(&v)?),
                "win" => r.win = Some(string(&v)?),
                "discarder" => r.discarder = optional_string(&v)?,
                "seat" => r.seat = optional_string(&v)?,
                "dealer" => r.dealer = optional_string(&v)?,
                "prevailing_wind" => r.prevailing_wind = optional_string(&v)?,
                "flowers" => r.flowers = strings(&v)?,
                "situation" => r.situation = strings(&v)?,
                "kong_chain" => r.kong_chain = small_int(&v)?,
                "gambits" => r.gambits = small_int(&v)?,
                "lao" => {
                    r.lao = if v.is_none() {
                        None
                    } else {
                        Some(small_int(&v)?)
                    }
                }
                "wildcard" => r.wildcard = optional_string(&v)?,
                "itemise" => r.itemise = v.downcast_exact::<PyBool>().ok()?.is_true(),
                // others, balances, unknown keys: the general reader.
                _ => return None,
            }
        }
        Some(r)
    }

    /// The fields as the library reads them (`None`: a required field is missing, or a
    /// string is not valid UTF-8; the general reader says which).
    pub fn fields(&mut self) -> Option<RequestFields<'_>> {
        fn text<'a>(s: &'a Option<Bound<'_, PyString>>) -> Option<Option<&'a str>> {
            match s {
                None => Some(None),
                Some(s) => s.to_str().ok().map(Some),
            }
        }
        let mut melds = Vec::with_capacity(self.melds.len());
        for [kind, tiles, from] in &self.melds {
            melds.push(MeldFields {
                kind: text(kind)??,
                tiles: text(tiles)??,
                from: text(from)?,
            });
        }
        let flowers = self
            .flowers
            .iter()
            .map(|s| s.to_str().ok())
            .collect::<Option<Vec<_>>>()?;
        let situation = self
            .situation
            .iter()
            .map(|s| s.to_str().ok())
            .collect::<Option<Vec<_>>>()?;
        Some(RequestFields {
            rules: text(&self.rules)??,
            options: std::mem::take(&mut self.options),
            concealed: text(&self.concealed)??,
            melds,
            winning_tile: text(&self.winning_tile)??,
            win: text(&self.win)??,
            discarder: text(&self.discarder)?,
            seat: text(&self.seat)?,
            dealer: text(&self.dealer)?,
            prevailing_wind: text(&self.prevailing_wind)?,
            flowers,
            situation,
            kong_chain: self.kong_chain,
            gambits: self.gambits,
            lao: self.lao,
            wildcard: text(&self.wildcard)?,
            balances: None,
            others: Vec::new(),
            itemise: self.itemise,
        })
    }
}

/// Rule sets kept between calls, by name and house rules (a few: requests name few).
const KEPT: usize = 16;

/// A rule set read from its name and house rules.
type Kept = (String, Map<String, Value>, Box<dyn RuleSet>);

thread_local! {
    static RULE_SETS: RefCell<Vec<Kept>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` on the rule set `name` under house rules `options` (`registry::read`'s answer,
/// kept for the next request with the same name and options; its error otherwise). `f` must
/// not call back into Python (the kept sets are borrowed while it runs).
pub fn with_rule_set<T>(
    name: &str,
    options: &Map<String, Value>,
    f: impl FnOnce(&dyn RuleSet) -> T,
) -> Result<T, Malformed> {
    RULE_SETS.with(|cell| {
        let mut kept = cell.borrow_mut();
        if let Some((_, _, set)) = kept.iter().find(|(n, o, _)| n == name && o == options) {
            return Ok(f(&**set));
        }
        let set = registry::read(name, options)?;
        let answer = f(&*set);
        if kept.len() == KEPT {
            kept.remove(0);
        }
        kept.push((name.to_string(), options.clone(), set));
        Ok(answer)
    })
}

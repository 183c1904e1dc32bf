//! `score`'s answer built straight into Python objects: the dict `majiang score --json`
//! prints (the tests compare the two), its keys and the words it repeats (seat names, units,
//! pattern ids and names) held as Python strings made once, not per answer.

use crate::convert::{to_py, value_error};
use majiang::rules;
use majiang::scoring::{Invalid, Scored, Unit};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A hash of a few 8-byte words at a time (as rustc's FxHasher): the ids looked up are short
/// and few, so SipHash's care costs more than it saves here.
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let word = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
        }
        let mut last = [0u8; 8];
        last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(last)).wrapping_mul(K);
    }
}

/// A pattern's id and name as Python strings.
struct PatternWords {
    name: Box<str>,
    id_py: Py<PyString>,
    name_py: Py<PyString>,
}

/// At most this many patterns are kept (the rule sets have a few hundred; one beyond is made
/// afresh each time).
const KEPT_PATTERNS: usize = 2048;

thread_local! {
    /// Pattern ids and names already made into Python strings (immutable, so shared between
    /// answers like interned keys), by id.
    static PATTERN_WORDS: RefCell<HashMap<Box<str>, Vec<PatternWords>, BuildHasherDefault<Fx>>> =
        RefCell::new(HashMap::default());
}

/// A pattern's id and name as Python strings, made once per pattern.
fn pattern_words<'py>(
    py: Python<'py>,
    id: &str,
    name: &str,
) -> (Bound<'py, PyString>, Bound<'py, PyString>) {
    PATTERN_WORDS.with(|cell| {
        let mut kept = cell.borrow_mut();
        if let Some(w) = kept
            .get(id)
            .and_then(|ws| ws.iter().find(|w| &*w.name == name))
        {
            return (w.id_py.bind(py).clone(), w.name_py.bind(py).clone());
        }
        let (id_py, name_py) = (PyString::new(py, id), PyString::new(py, name));
        if kept.len() < KEPT_PATTERNS {
            kept.entry(id.into()).or_default().push(PatternWords {
                name: name.into(),
                id_py: id_py.clone().unbind(),
                name_py: name_py.clone().unbind(),
            });
        }
        (id_py, name_py)
    })
}

/// A unit as the JSON answer spells it (serde's snake_case names; the tests compare with the
/// binary's output).
fn unit_name(py: Python<'_>, unit: Unit) -> &Bound<'_, PyString> {
    match unit {
        Unit::Fan => intern!(py, "fan"),
        Unit::Points => intern!(py, "points"),
        Unit::Double => intern!(py, "double"),
        Unit::Multiplier => intern!(py, "multiplier"),
    }
}

/// A seat's name as a Python string, interned for the six seats (no new string per answer).
fn seat_name<'py>(py: Python<'py>, name: &str) -> Bound<'py, PyString> {
    match name {
        "east" => intern!(py, "east").clone(),
        "south" => intern!(py, "south").clone(),
        "west" => intern!(py, "west").clone(),
        "north" => intern!(py, "north").clone(),
        "north_east" => intern!(py, "north_east").clone(),
        "south_west" => intern!(py, "south_west").clone(),
        other => PyString::new(py, other),
    }
}

/// The answer of `majiang score --json` to a scored request, built straight into Python
/// objects (the tests compare it with the binary's output).
pub fn score_answer_py(
    py: Python<'_>,
    outcome: &Result<Scored, Invalid>,
    itemise: bool,
) -> PyResult<PyObject> {
    match outcome {
        Ok(s) => scored_py(py, s, itemise),
        Err(Invalid(reason)) => {
            let answer = PyDict::new(py);
            answer.set_item(intern!(py, "valid"), false)?;
            answer.set_item(intern!(py, "reason"), reason.to_string())?;
            // The same reason as a catalogue key and its values, as the command line adds it.
            answer.set_item(intern!(py, "why"), to_py(py, &json_of(reason)?)?)?;
            Ok(answer.into_any().unbind())
        }
    }
}

/// A scored win's answer: valid, patterns, total, payments (and itemised, if asked).
fn scored_py(py: Python<'_>, s: &Scored, itemise: bool) -> PyResult<PyObject> {
    let answer = PyDict::new(py);
    answer.set_item(intern!(py, "valid"), true)?;
    let patterns = PyList::empty(py);
    for p in &s.patterns {
        let d = PyDict::new(py);
        let (id, name) = pattern_words(py, &p.id, &p.name);
        d.set_item(intern!(py, "id"), id)?;
        d.set_item(intern!(py, "name"), name)?;
        d.set_item(intern!(py, "value"), p.value)?;
        d.set_item(intern!(py, "unit"), unit_name(py, p.unit))?;
        patterns.append(d)?;
    }
    answer.set_item(intern!(py, "patterns"), patterns)?;
    answer.set_item(intern!(py, "total"), s.total)?;
    // The command line's map is ordered by seat name.
    let mut by_name: Vec<(&str, i64)> = s.payments.iter().map(|(k, v)| (k.name(), *v)).collect();
    by_name.sort_unstable();
    let payments = PyDict::new(py);
    for (k, v) in by_name {
        payments.set_item(seat_name(py, k), v)?;
    }
    answer.set_item(intern!(py, "payments"), payments)?;
    if itemise {
        // Each payment with its reason, as `majiang::rules::answer_json` writes them.
        let itemised = to_py(py, &rules::itemised_json(&s.itemised))?;
        answer.set_item(intern!(py, "itemised"), itemised)?;
    }
    Ok(answer.into_any().unbind())
}

fn json_of<T: serde::Serialize>(v: &T) -> PyResult<Value> {
    serde_json::to_value(v).map_err(value_error)
}

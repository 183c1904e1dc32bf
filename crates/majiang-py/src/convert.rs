//! JSON values to Python objects and back, and engine errors to `ValueError`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// A `ValueError` carrying a message for a person (the one the command line prints).
pub fn value_error(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}

/// How deeply lists and dicts passed in may nest (a score request, house rules): far more
/// than any real request needs, and few enough that the recursive readers stay well inside
/// a small thread stack. Deeper input is a `ValueError`, not a stack overflow.
pub const MAX_DEPTH: usize = 64;

/// The message for input nested deeper than [`MAX_DEPTH`].
fn too_deep(at: &str) -> String {
    format!("{at}: lists and dicts nest more than {MAX_DEPTH} levels deep")
}

/// Checks that `obj`'s lists, tuples and dicts nest at most [`MAX_DEPTH`] levels, without
/// recursion (for the readers that recurse without a limit of their own: pythonize).
pub fn check_depth(obj: &Bound<'_, PyAny>, at: &str) -> PyResult<()> {
    let mut stack = vec![(obj.clone(), 0usize)];
    while let Some((o, depth)) = stack.pop() {
        let children: Vec<Bound<'_, PyAny>> = if let Ok(d) = o.downcast::<PyDict>() {
            d.values().iter().collect()
        } else if o.downcast::<PyList>().is_ok() || o.downcast::<PyTuple>().is_ok() {
            o.try_iter()?.collect::<PyResult<_>>()?
        } else {
            continue;
        };
        if depth >= MAX_DEPTH {
            return Err(value_error(too_deep(at)));
        }
        stack.extend(children.into_iter().map(|c| (c, depth + 1)));
    }
    Ok(())
}

/// A Python object as JSON: `None`, `bool`, `int`, `float`, `str`, lists, tuples and dicts with
/// string keys, nested at most [`MAX_DEPTH`] levels. Anything else is a `ValueError` naming
/// where it was found.
pub fn to_json(obj: &Bound<'_, PyAny>, at: &str) -> PyResult<Value> {
    to_json_at(obj, at, 0)
}

fn to_json_at(obj: &Bound<'_, PyAny>, at: &str, depth: usize) -> PyResult<Value> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.downcast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.downcast::<PyInt>().is_ok() {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = obj.extract::<u64>() {
            return Ok(Value::from(u));
        }
        return Err(value_error(format!("{at}: integer out of range")));
    }
    if let Ok(f) = obj.downcast::<PyFloat>() {
        return Number::from_f64(f.value())
            .map(Value::Number)
            .ok_or_else(|| value_error(format!("{at}: {} is not a JSON number", f.value())));
    }
    if let Ok(s) = obj.downcast::<PyString>() {
        return Ok(Value::String(s.to_str()?.to_owned()));
    }
    let nests = obj.downcast::<PyDict>().is_ok()
        || obj.downcast::<PyList>().is_ok()
        || obj.downcast::<PyTuple>().is_ok();
    if nests && depth >= MAX_DEPTH {
        return Err(value_error(too_deep(at)));
    }
    if let Ok(d) = obj.downcast::<PyDict>() {
        let mut map = Map::new();
        for (k, v) in d.iter() {
            let key = k
                .downcast::<PyString>()
                .map_err(|_| value_error(format!("{at}: object keys must be strings")))?
                .to_str()?
                .to_owned();
            let value = to_json_at(&v, &format!("{at}.{key}"), depth + 1)?;
            map.insert(key, value);
        }
        return Ok(Value::Object(map));
    }
    if obj.downcast::<PyList>().is_ok() || obj.downcast::<PyTuple>().is_ok() {
        let mut items = Vec::new();
        for (i, v) in obj.try_iter()?.enumerate() {
            items.push(to_json_at(&v?, &format!("{at}[{i}]"), depth + 1)?);
        }
        return Ok(Value::Array(items));
    }
    let type_name = obj.get_type().name()?.to_string();
    Err(value_error(format!(
        "{at}: a {type_name} is not JSON (use dicts, lists, strings, numbers, booleans, None)"
    )))
}

/// A JSON value as Python objects (dicts, lists, str, int, float, bool, None).
pub fn to_py(py: Python<'_>, value: &Value) -> PyResult<PyObject> {
    Ok(match value {
        Value::Null => py.None(),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any().unbind()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any().unbind()
            } else {
                n.as_f64()
                    .unwrap_or(f64::NAN)
                    .into_pyobject(py)?
                    .into_any()
                    .unbind()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any().unbind(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for v in items {
                list.append(to_py(py, v)?)?;
            }
            list.into_any().unbind()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_py(py, v)?)?;
            }
            dict.into_any().unbind()
        }
    })
}

/// Where [`write_json`] met something that is not JSON: the path to it (innermost last).
pub struct NotJson {
    path: Vec<String>,
    message: String,
}

impl NotJson {
    /// The message for a person, the path written from `root` (`request.melds[0]: ...`).
    pub fn message_at(mut self, root: &str) -> String {
        self.path.reverse();
        format!("{root}{}: {}", self.path.concat(), self.message)
    }
}

/// Writes a Python object as JSON text into `out` (the fast path of [`to_json`], for requests
/// parsed from text): `None`, `bool`, `int`, `float`, `str`, lists, tuples, dicts with string
/// keys.
pub fn write_json(obj: &Bound<'_, PyAny>, out: &mut Vec<u8>) -> Result<(), NotJson> {
    write_json_at(obj, out, 0)
}

fn write_json_at(obj: &Bound<'_, PyAny>, out: &mut Vec<u8>, depth: usize) -> Result<(), NotJson> {
    let fail = |message: String| NotJson {
        path: Vec::new(),
        message,
    };
    if let Ok(s) = obj.downcast_exact::<PyString>() {
        let text = s.to_str().map_err(|e| fail(e.to_string()))?;
        return serde_json::to_writer(&mut *out, text).map_err(|e| fail(e.to_string()));
    }
    let nests = obj.downcast_exact::<PyDict>().is_ok()
        || obj.downcast::<PyList>().is_ok()
        || obj.downcast::<PyTuple>().is_ok();
    if nests && depth >= MAX_DEPTH {
        return Err(fail(format!(
            "lists and dicts nest more than {MAX_DEPTH} levels deep"
        )));
    }
    if let Ok(d) = obj.downcast_exact::<PyDict>() {
        out.push(b'{');
        for (i, (k, v)) in d.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            let key = k
                .downcast::<PyString>()
                .map_err(|_| fail("object keys must be strings".into()))?;
            write_json(key, out)?;
            out.push(b':');
            write_json_at(&v, out, depth + 1).map_err(|mut e| {
                e.path.push(format!(".{key}"));
                e
            })?;
        }
        out.push(b'}');
        return Ok(());
    }
    if obj.downcast::<PyList>().is_ok() || obj.downcast::<PyTuple>().is_ok() {
        out.push(b'[');
        let items = obj.try_iter().map_err(|e| fail(e.to_string()))?;
        for (i, v) in items.enumerate() {
            if i > 0 {
                out.push(b',');
            }
            let v = v.map_err(|e| fail(e.to_string()))?;
            write_json_at(&v, out, depth + 1).map_err(|mut e| {
                e.path.push(format!("[{i}]"));
                e
            })?;
        }
        out.push(b']');
        return Ok(());
    }
    if obj.is_none() {
        out.extend_from_slice(b"null");
        return Ok(());
    }
    // Everything else (bools, numbers, string subclasses, other objects) through the general
    // conversion, with its checks and messages.
    let value = to_json(obj, "").map_err(|e| {
        let text = e.to_string();
        let message = text
            .strip_prefix("ValueError: ")
            .unwrap_or(&text)
            .trim_start_matches(": ")
            .to_string();
        fail(message)
    })?;
    serde_json::to_writer(&mut *out, &value).map_err(|e| fail(e.to_string()))
}

/// An optional options dict as a JSON object (`None`: no options).
pub fn options_map(options: Option<&Bound<'_, PyAny>>) -> PyResult<Map<String, Value>> {
    match options {
        None => Ok(Map::new()),
        Some(o) if o.is_none() => Ok(Map::new()),
        Some(o) => match to_json(o, "options")? {
            Value::Object(map) => Ok(map),
            _ => Err(value_error("options: must be a dict of house rules")),
        },
    }
}

/// A non-negative integer argument named `name` that fits in a `u64`: a `TypeError` or
/// `ValueError` naming the argument otherwise (not PyO3's bare `OverflowError`).
fn index_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    use pyo3::exceptions::PyTypeError;
    use pyo3::types::PyBool;
    // The common case first: a plain Python int (not a bool, which is a subclass) in range.
    if value.is_exact_instance_of::<PyInt>() {
        if let Ok(v) = value.extract::<u64>() {
            return Ok(v);
        }
    }
    // Integers are what `operator.index` accepts (Python and numpy integers), bools aside.
    if value.is_instance_of::<PyBool>() || !value.hasattr("__index__")? {
        return Err(PyTypeError::new_err(format!(
            "{name}: expected an integer, got {}",
            value.get_type().name()?
        )));
    }
    value
        .extract::<u64>()
        .map_err(|_| value_error(format!("{name}: {value} is not between 0 and 2**64 - 1")))
}

/// The `player` argument (a chair number).
pub fn player_arg(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    index_arg(value, "player").map(|v| usize::try_from(v).unwrap_or(usize::MAX))
}

/// The `action` argument (an action number).
pub fn action_arg(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    index_arg(value, "action").map(|v| usize::try_from(v).unwrap_or(usize::MAX))
}

/// The `seed` argument (0 to 2**64 - 1).
pub fn seed_arg(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    index_arg(value, "seed")
}

/// The `hands` argument: `None` (no limit) or a number of hands from 1 to 2**32 - 1.
pub fn hands_arg(value: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
    if value.is_none() {
        return Ok(None);
    }
    let v = index_arg(value, "hands")?;
    u32::try_from(v)
        .map(Some)
        .map_err(|_| value_error(format!("hands: {v} is not between 1 and 2**32 - 1")))
}

/// A count argument named `name` (a table count, a chair): a non-negative integer, with a
/// message naming the argument otherwise.
pub fn count_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<usize> {
    index_arg(value, name).map(|v| usize::try_from(v).unwrap_or(usize::MAX))
}

/// The `num_tables` argument.
pub fn num_tables_arg(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    count_arg(value, "num_tables")
}

/// The `seat` argument (a chair number).
pub fn seat_arg(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    count_arg(value, "seat")
}

/// An optional `seed` argument: `None` draws a fresh seed from the operating system (the
/// package's one seeding rule, Gymnasium's: unseeded means random, every run different).
pub fn seed_or_random(value: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    match value {
        Some(v) if !v.is_none() => seed_arg(v),
        _ => Ok(rand::random()),
    }
}

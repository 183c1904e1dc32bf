//! The library's calculators from Python: tiles and notation, hand analysis, scoring, the rule
//! sets, and checking a match log.

use crate::answer::score_answer_py;
use crate::convert::{check_depth, count_arg, to_py, value_error, write_json};

/// `tile_name`'s `index` argument.
fn index_of_tile(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    count_arg(value, "index")
}
use crate::request::{DictRequest, with_rule_set};
use majiang::Tile;
use majiang::analysis::{self, Decomposition, HandRules};
use majiang::notation::{format_glyphs, format_in_order, parse_tile, parse_tiles as parse};
use majiang::rules::RULE_SETS;
use majiang::scoring::Explain;
use majiang::scoring::request::{Malformed, ScoreRequest};
use majiang::table::replay as replay_log;
use majiang::typed_hand::TypedHand;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use pythonize::Depythonizer;
use serde_json::{Value, json};

/// The tiles written in `text` (`"123m55z"`, glyphs too), each in notation (`["1m", "2m",
/// "3m", "5z", "5z"]`). Raises `ValueError` naming the bad position.
#[pyfunction]
pub fn parse_tiles(text: &str) -> PyResult<Vec<String>> {
    let tiles = parse(text).map_err(value_error)?;
    Ok(tiles.iter().map(Tile::to_string).collect())
}

/// The kind index of one tile (`0..34` playing kinds in the order 1m..9m 1p..9p 1s..9s 1z..7z,
/// `34..42` the bonus tiles 1f..8f): the column of that tile in every observation plane.
#[pyfunction]
pub fn tile_index(tile: &str) -> PyResult<usize> {
    Ok(parse_tile(tile).map_err(value_error)?.index())
}

/// The notation of kind `index` (`0..42`), e.g. `tile_name(27) == "1z"`.
#[pyfunction]
pub fn tile_name(#[pyo3(from_py_with = index_of_tile)] index: usize) -> PyResult<String> {
    Tile::from_index(index)
        .map(|t| t.to_string())
        .ok_or_else(|| value_error(format!("{index} is not a tile kind (0..42)")))
}

/// The tiles of `text` as Unicode mahjong glyphs (`"123m"` → `"🀇🀈🀉"`).
#[pyfunction]
pub fn glyphs(text: &str) -> PyResult<String> {
    Ok(format_glyphs(&parse(text).map_err(value_error)?))
}

fn decomposition_json(d: &Decomposition) -> Value {
    let groups: Vec<Value> = d
        .groups
        .iter()
        .map(|g| json!({"kind": g.kind, "tiles": format_in_order(&g.tiles()), "wilds": g.wilds}))
        .collect();
    json!({"form": d.form, "groups": groups})
}

/// The report of `majiang analyze --json`, or its error message.
fn analyze_json(
    hand_text: &str,
    wildcard: Option<&str>,
    wild_not_own_kind: bool,
    seven_pairs: bool,
    thirteen_orphans: bool,
    four_as_two_pairs: bool,
) -> Result<Value, String> {
    let hand = TypedHand::parse(hand_text).map_err(|e| e.to_string())?;
    let counts = hand.counts().map_err(|e| e.to_string())?;
    let n = counts.len();
    let sets = 3 * hand.melds.len();
    if n == 0 || n % 3 == 0 || n + sets > 14 {
        return Err(format!(
            "{hand_text:?}: {n} concealed tiles with {} melds is not a hand; give 14 − 3×melds \
             tiles (a complete hand) or one fewer (to see waits)",
            hand.melds.len()
        ));
    }
    let mut rules = HandRules {
        seven_pairs,
        four_as_two_pairs,
        thirteen_orphans,
        wildcard: None,
    };
    if let Some(w) = wildcard {
        let tile = parse_tile(w).map_err(|e| e.to_string())?;
        if tile.is_bonus() {
            return Err(format!("{w}: a bonus tile cannot be the wildcard"));
        }
        rules = rules.with_wildcard(tile);
        if wild_not_own_kind {
            if let Some(wc) = rules.wildcard.as_mut() {
                wc.as_own_kind = false;
            }
        }
    } else if wild_not_own_kind {
        return Err("wild_not_own_kind needs a wildcard".into());
    }
    let by_form = analysis::shanten_by_form(&counts, &rules);
    let winning = n % 3 == 2 && analysis::is_win(&counts, &rules);
    let waits = if n % 3 == 1 {
        analysis::waits(&counts, &rules)
    } else {
        analysis::TileSet::EMPTY
    };
    let decompositions: Vec<Value> = if winning {
        analysis::decompositions(&counts, &rules)
            .iter()
            .map(decomposition_json)
            .collect()
    } else {
        Vec::new()
    };
    Ok(json!({
        "hand": counts.to_string(),
        "tiles": n,
        "melds": hand.melds.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "winning": winning,
        "shanten": by_form.min(),
        "shanten_by_form": {
            "standard": by_form.standard,
            "seven_pairs": by_form.seven_pairs,
            "thirteen_orphans": by_form.thirteen_orphans,
        },
        "waits": waits.iter().map(|t| t.to_string()).collect::<Vec<_>>(),
        "decompositions": decompositions,
    }))
}

/// Win, shanten (by form), waits and decompositions of a hand: the dict `majiang analyze
/// --json` prints. `hand` is concealed tiles then declared melds (`"123m456p11z pung 555z"`);
/// `wildcard` names the wild kind. Raises `ValueError` with the command line's message.
#[pyfunction]
#[pyo3(signature = (hand, wildcard=None, wild_not_own_kind=false, seven_pairs=true, thirteen_orphans=true, four_as_two_pairs=false))]
pub fn analyze(
    py: Python<'_>,
    hand: &str,
    wildcard: Option<&str>,
    wild_not_own_kind: bool,
    seven_pairs: bool,
    thirteen_orphans: bool,
    four_as_two_pairs: bool,
) -> PyResult<PyObject> {
    let report = analyze_json(
        hand,
        wildcard,
        wild_not_own_kind,
        seven_pairs,
        thirteen_orphans,
        four_as_two_pairs,
    )
    .map_err(value_error)?;
    to_py(py, &report)
}

/// Scores a win. `request` is a dict (read directly into the library's request, no JSON text
/// in between) or its JSON text, with the fields `majiang score --json` reads:
///
/// ```text
/// {"rules": "hongkong" | "hangzhou" | "yangzhou" | "classic",
///  "options": {"min_fan": 3, ...},            # house rules, all optional
///  "concealed": "123m456p789s1z",             # concealed tiles, winning tile not included
///  "melds": [{"kind": "pung" | "chow" | "kong" | "concealed_kong", "tiles": "555z",
///             "from": "west"}],               # from: whose discard (not for concealed_kong)
///  "winning_tile": "1z",
///  "win": "self_draw" | "discard" | "robbing_kong",
///  "discarder": "south",                      # for discard and robbing_kong
///  "seat": "east", "dealer": "east", "prevailing_wind": "east",
///  "flowers": ["1f", "5f"],
///  "situation": ["last_wall_tile", "last_discard", "kong_replacement", "heavenly", "earthly"],
///  "kong_chain": 0, "gambits": 0, "lao": 1,   # Hangzhou
///  "wildcard": "5z",                          # Hangzhou: the wild kind
///  "balances": {"east": 50, ...},             # Hangzhou: for the zero floor
///  "others": {"south": {"concealed": "...", "melds": [...], "flowers": [...]}, ...}}
/// ```
///
/// The answer is the dict `majiang score --json` prints: `{"valid": True, "patterns": [{"id",
/// "name", "value", "unit"}, ...], "total": N, "payments": {"east": N, ...}}` (net chips by
/// seat), or `{"valid": False, "reason": ..., "why": {"key", "args"}}` for a hand that is not
/// a win or is below the minimum. Unreadable input raises `ValueError` with the command line's message.
#[pyfunction]
pub fn score(py: Python<'_>, request: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    // A dict's common fields are read with plain downcasts (`request::DictRequest`); anything
    // else goes the general way below, with its messages.
    if let Ok(dict) = request.downcast_exact::<PyDict>() {
        if let Some(mut fields) = DictRequest::read(dict) {
            if let Some(f) = fields.fields() {
                let parsed = ScoreRequest::from_fields(f).map_err(value_error)?;
                return score_parsed(py, parsed);
            }
        }
    }
    let parsed = match request.downcast::<PyString>() {
        Ok(s) => ScoreRequest::from_json(s.to_str()?),
        // A dict is read straight into the request (no JSON text). Input that does not read
        // is read again as the JSON text the command line would get, for its very message.
        Err(_) => {
            // pythonize reads nested input recursively, without a limit of its own.
            check_depth(request, "request")?;
            ScoreRequest::from_deserializer(&mut Depythonizer::from_object(request))
                .or_else(|_| request_via_json(request))
        }
    }
    .map_err(value_error)?;
    score_parsed(py, parsed)
}

/// Scores a request read: its rule set (kept between calls), the set's checks, the answer.
fn score_parsed(py: Python<'_>, parsed: ScoreRequest) -> PyResult<PyObject> {
    // The payments' reasons are written only when the answer lists them.
    let explain = if parsed.itemise {
        Explain::Itemise
    } else {
        Explain::Quiet
    };
    let outcome = with_rule_set(&parsed.rules, &parsed.options, |set| {
        set.check_request(&parsed.situation)?;
        Ok::<_, Malformed>(set.score(&parsed.situation, explain))
    })
    .and_then(|r| r)
    .map_err(value_error)?;
    score_answer_py(py, &outcome, parsed.itemise)
}

/// `request` written as JSON text and read as `majiang score --json` reads it: the command
/// line's answer (and error message) for a request the direct reading refused.
fn request_via_json(request: &Bound<'_, PyAny>) -> Result<ScoreRequest, Malformed> {
    let mut text = Vec::with_capacity(256);
    write_json(request, &mut text).map_err(|e| Malformed(e.message_at("request").into()))?;
    ScoreRequest::from_json(&String::from_utf8_lossy(&text))
}

/// Every rule set as the server's `GET /api/rulesets` describes it: name, names in English and
/// Chinese, seat counts, unit, options with their allowed values and defaults, patterns.
#[pyfunction]
pub fn rule_sets(py: Python<'_>) -> PyResult<PyObject> {
    let list: Vec<Value> = RULE_SETS.iter().map(|s| s.spec().to_json()).collect();
    to_py(py, &Value::Array(list))
}

fn json_of<T: serde::Serialize>(v: &T) -> PyResult<Value> {
    serde_json::to_value(v).map_err(value_error)
}

/// Checks a match log (JSON lines, as `majiang play --log` and `Table.log_jsonl()` write it) by
/// re-driving the match with its actions. Returns `{"complete", "actions", "records",
/// "stops_in", "chairs", "header", "hands" (settlements), "summary"}`; a log that does not
/// replay raises `ValueError` naming the first line that differs.
#[pyfunction]
pub fn replay(py: Python<'_>, log: &str) -> PyResult<PyObject> {
    let report = replay_log(log).map_err(|e| value_error(format!("does not replay: {e}")))?;
    let hands: Vec<Value> = report.hands.iter().map(json_of).collect::<PyResult<_>>()?;
    let value = json!({
        "complete": report.complete,
        "actions": report.actions,
        "records": report.records,
        "stops_in": report.stops_in,
        "chairs": report.chairs.iter().map(|c| c.0).collect::<Vec<_>>(),
        "header": json_of(&report.header)?,
        "hands": hands,
        "summary": json_of(&report.summary)?,
    });
    to_py(py, &value)
}

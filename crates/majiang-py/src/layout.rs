//! What a kind of table (a rule set under its house rules) fixes, asked without a table: the
//! rule set built by name, the action layout and its numbers, and an engine `Observation`
//! given as JSON encoded as `Table.observe` encodes it.

use crate::codec::{self, ActionLayout, TILE_KINDS};
use crate::convert::{action_arg, options_map, value_error};
use majiang::table::{Observation, Player, TableRules};
use pyo3::prelude::*;
use std::sync::Arc;

/// Builds the rule set `rules` with `options`, with the command line's messages.
pub fn ruleset(rules: &str, options: Option<&Bound<'_, PyAny>>) -> PyResult<Arc<TableRules>> {
    let map = options_map(options)?;
    TableRules::from_name(rules, &map)
        .map(Arc::new)
        .map_err(value_error)
}

/// An empty observation to be filled by `majiang::bots::observe_into`.
pub fn blank_observation(rules: &Arc<TableRules>) -> PyResult<Observation> {
    let (game, _) = majiang::table::Game::new(rules.clone(), majiang::table::HandSetup::new(0))
        .map_err(value_error)?;
    Ok(game.observation(Player(0)))
}

/// Encodes an engine `Observation` given as JSON text (from `Table.observation_json`) into
/// planes and mask, as `Table.observe` does: for checking that the planes come from that
/// seat's observation alone. `rules` and `options` name the table (seat order, action layout).
#[pyfunction]
#[pyo3(signature = (observation, rules, options=None))]
pub fn encode_observation_json(
    observation: &str,
    rules: &str,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Vec<u8>, Vec<u8>)> {
    let ruleset = ruleset(rules, options)?;
    let obs: Observation =
        serde_json::from_str(observation).map_err(|e| value_error(format!("observation: {e}")))?;
    let n = obs.table.len();
    if n != ruleset.players() {
        return Err(value_error(format!(
            "observation: it has {n} players, the rules seat {}",
            ruleset.players()
        )));
    }
    let layout = ActionLayout::new(ruleset.config());
    let mut planes = vec![0; codec::planes(n) * TILE_KINDS];
    let mut mask = vec![0; layout.actions()];
    codec::encode_observation(&obs, ruleset.seats(), &layout, &mut planes, &mut mask);
    Ok((planes, mask))
}

/// The action numbers of tables under `rules` with `options`: `(name, first number, count)` by
/// section, in order (see `Table.action_layout`).
#[pyfunction]
#[pyo3(signature = (rules, options=None))]
pub fn action_layout(
    rules: &str,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<(&'static str, usize, usize)>> {
    Ok(ActionLayout::new(ruleset(rules, options)?.config()).describe())
}

/// The size of the action space of tables under `rules` with `options`.
#[pyfunction]
#[pyo3(signature = (rules, options=None))]
pub fn action_space(rules: &str, options: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    Ok(ActionLayout::new(ruleset(rules, options)?.config()).actions())
}

/// The engine action of number `action` at tables under `rules` (with `options`) as JSON
/// text (`{"discard":"5m"}`, `"pass"`).
#[pyfunction]
#[pyo3(signature = (action, rules, options=None))]
pub fn decode_action(
    #[pyo3(from_py_with = action_arg)] action: usize,
    rules: &str,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let layout = ActionLayout::new(ruleset(rules, options)?.config());
    let a = layout.decode(action).ok_or_else(|| {
        value_error(format!(
            "action: {action} is not an action number (0..{})",
            layout.actions()
        ))
    })?;
    serde_json::to_string(&a).map_err(value_error)
}

/// A readable name of action number `action` at tables under `rules` (with `options`):
/// `"discard 5m"`, `"chow 345p"`, `"pass"`.
#[pyfunction]
#[pyo3(signature = (action, rules, options=None))]
pub fn action_name(
    #[pyo3(from_py_with = action_arg)] action: usize,
    rules: &str,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let layout = ActionLayout::new(ruleset(rules, options)?.config());
    layout.decode(action).map(|a| a.to_string()).ok_or_else(|| {
        value_error(format!(
            "action: {action} is not an action number (0..{})",
            layout.actions()
        ))
    })
}

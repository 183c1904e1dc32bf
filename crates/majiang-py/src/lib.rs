//! `majiang._core`: the majiang engine for Python (PyO3). The pure-Python package `majiang`
//! wraps it: the PettingZoo and Gymnasium environments, the vector environment, type stubs.
//!
//! - `library`: tiles and notation, `analyze`, `score`, `rule_sets`, `replay`.
//! - `answer`: `score`'s answer as Python objects, its repeated words made once.
//! - `request`: `score`'s fast reader of a request dict, and the rule sets kept between calls.
//! - `codec`: actions as dense numbers per kind of table, observations as `uint8` planes.
//! - `layout`: what a kind of table fixes, asked without one: its rule set by name, action
//!   numbers and observation encoding.
//! - `table`: `Table`, one match through the library's seat driver, bots in any chairs.
//! - `vector`: `VectorTables`, many hands stepped in one call into numpy arrays, self-play
//!   or one chair against bots played in Rust.
//! - `view`: what one seat sees as the encoder reads it, from its `Observation` or straight
//!   from the game.
//! - `dataset`: bot self-play recorded as observations, masks, actions and rewards.
//! - `convert`: JSON values to and from Python objects; errors as `ValueError`.

mod answer;
mod codec;
mod convert;
mod dataset;
mod layout;
mod library;
mod request;
mod slices;
mod table;
mod vector;
mod view;

use pyo3::prelude::*;

/// The extension's Rust allocations (a scoring request's tiles and answer, a table's state)
/// go through mimalloc: the many small, short-lived blocks a call makes cost a fraction of the
/// system allocator's price. Python's objects keep Python's allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The compiled core of the `majiang` package (import `majiang`, not this module).
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(library::parse_tiles, m)?)?;
    m.add_function(wrap_pyfunction!(library::tile_index, m)?)?;
    m.add_function(wrap_pyfunction!(library::tile_name, m)?)?;
    m.add_function(wrap_pyfunction!(library::glyphs, m)?)?;
    m.add_function(wrap_pyfunction!(library::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(library::score, m)?)?;
    m.add_function(wrap_pyfunction!(library::rule_sets, m)?)?;
    m.add_function(wrap_pyfunction!(library::replay, m)?)?;
    m.add_function(wrap_pyfunction!(layout::encode_observation_json, m)?)?;
    m.add_function(wrap_pyfunction!(layout::decode_action, m)?)?;
    m.add_function(wrap_pyfunction!(layout::action_name, m)?)?;
    m.add_function(wrap_pyfunction!(layout::action_layout, m)?)?;
    m.add_function(wrap_pyfunction!(layout::action_space, m)?)?;
    m.add_function(wrap_pyfunction!(dataset::record_selfplay, m)?)?;
    m.add_class::<table::Table>()?;
    m.add_class::<vector::VectorTables>()?;
    m.add("TILE_KINDS", codec::TILE_KINDS)?;
    m.add("MAX_LEGAL", vector::MAX_LEGAL)?;
    m.add("MAX_TABLES", vector::MAX_TABLES)?;
    m.add("BOT_NAMES", majiang::bots::BOT_NAMES.to_vec())?;
    Ok(())
}

//! Pickling `VectorTables`: the tables are made again from their rules, options, seed, bots
//! and chair, and each table's hand in play is rebuilt from its deal (hand `k` of the table's
//! stream), its bots (fresh for every hand, seeded from the hand) and the caller's actions in
//! it, which every table keeps (`journal`). A finished hand leaves nothing to replay, so the
//! state stays small however long the tables have run.

use super::{Outputs, VectorTables};
use crate::codec::TILE_KINDS;
use crate::convert::{to_py, value_error};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use serde_json::Value;

/// Scratch outputs for replaying the tables (what the replay writes is not kept).
struct Scratch {
    planes: Vec<u8>,
    masks: Vec<u8>,
    legal: Vec<i16>,
    legal_count: Vec<i64>,
    actors: Vec<i64>,
    rewards: Vec<i64>,
    dones: Vec<u8>,
    final_planes: Vec<u8>,
}

impl Scratch {
    fn new(tables: &VectorTables) -> Scratch {
        let n = tables.games.len();
        let size = crate::codec::planes(tables.players) * TILE_KINDS;
        Scratch {
            planes: vec![0; n * size],
            masks: vec![0; n * tables.layout.actions()],
            legal: vec![0; n * super::MAX_LEGAL],
            legal_count: vec![0; n],
            actors: vec![0; n],
            rewards: vec![0; n * tables.players],
            dones: vec![0; n],
            final_planes: vec![0; n * size],
        }
    }

    fn outputs(&mut self) -> Outputs<'_> {
        Outputs {
            planes: &mut self.planes,
            masks: &mut self.masks,
            legal: &mut self.legal,
            legal_count: &mut self.legal_count,
            actors: &mut self.actors,
            rewards: &mut self.rewards,
            dones: &mut self.dones,
            final_planes: &mut self.final_planes,
            missed: None,
        }
    }
}

/// The error for a state that is not a `VectorTables`' pickle.
fn bad(what: &str) -> PyErr {
    value_error(format!("state: not a VectorTables' pickled state ({what})"))
}

impl VectorTables {
    /// Pickling: the constructor's arguments and, per table, the hand in play's number and
    /// the caller's actions in it (`__reduce__`).
    pub(super) fn reduce<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.borrow();
        let options = to_py(py, &Value::Object(this.options.clone()))?;
        let args = (
            this.ruleset.name(),
            this.games.len(),
            options,
            this.seed,
            this.level.clone(),
            this.agent.map_or(0, |p| p.index()),
        )
            .into_pyobject(py)?;
        let state = PyDict::new(py);
        state.set_item("started", this.started)?;
        state.set_item("dealt", this.dealt.clone())?;
        state.set_item("journal", this.journal.clone())?;
        state.set_item(
            "counters",
            (this.hands_finished, this.hands_skipped, this.refused),
        )?;
        (slf.get_type(), args, state).into_pyobject(py)
    }

    /// Pickling's second half: deals every table's hand in play again and replays the
    /// caller's actions in it (`__setstate__`).
    pub(super) fn set_state(&mut self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        if self.started {
            return Err(PyRuntimeError::new_err(
                "__setstate__: only for tables just made by unpickling",
            ));
        }
        let started: bool = state.get_item("started")?.extract()?;
        let dealt: Vec<u32> = state.get_item("dealt")?.extract()?;
        let journal: Vec<Vec<u16>> = state.get_item("journal")?.extract()?;
        let counters: (u64, u64, u64) = state.get_item("counters")?.extract()?;
        let n = self.games.len();
        if dealt.len() != n || journal.len() != n {
            return Err(bad("table count"));
        }
        if started {
            let mut scratch = Scratch::new(self);
            let mut out = scratch.outputs();
            for t in 0..n {
                self.dealt[t] = dealt[t].checked_sub(1).ok_or_else(|| bad("deal"))?;
                self.deal(t)?;
                self.advance(t, &mut out)?;
                for &code in &journal[t] {
                    let action = self
                        .layout
                        .decode(usize::from(code))
                        .ok_or_else(|| bad("action"))?;
                    let p = self.actor(t);
                    self.events.clear();
                    self.games[t]
                        .apply_into(p, action, &mut self.events)
                        .map_err(|e| bad(&e.to_string()))?;
                    self.acted[t] = true;
                    self.journal[t].push(code);
                    self.advance(t, &mut out)?;
                }
                if self.dealt[t] != dealt[t] {
                    return Err(bad("the replay ended another hand"));
                }
            }
        }
        self.started = started;
        (self.hands_finished, self.hands_skipped, self.refused) = counters;
        Ok(())
    }
}

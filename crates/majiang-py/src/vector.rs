//! `VectorTables`: many independent hands stepped inside Rust in one call, their observations,
//! masks, legal-action lists, rewards and ends written into numpy arrays (no per-table Python
//! objects). A finished hand is settled and replaced by a fresh deal at once.

use crate::codec::{self, ACTIONS, TILE_KINDS};
use crate::convert::value_error;
use crate::table::{blank_observation, ruleset};
use majiang::bots::observe_into;
use majiang::table::matches::hand_seed;
use majiang::table::{Action, Event, Game, HandSetup, Observation, Player, Ruleset};
use majiang::tile::Wind;
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use std::sync::Arc;

/// Room for the legal actions of one decision in the compact lists (the most a hand allows is
/// about two dozen: every distinct tile held as a discard, kongs, a win).
pub const MAX_LEGAL: usize = 48;

/// Where a call's results go: the caller's numpy arrays, each `num_tables` rows, borrowed for
/// the call.
struct Outputs<'a> {
    planes: &'a mut [u8],
    masks: &'a mut [u8],
    legal: &'a mut [i16],
    legal_count: &'a mut [i64],
    actors: &'a mut [i64],
    rewards: &'a mut [i64],
    dones: &'a mut [u8],
}

/// The caller's arrays, checked and held for one call.
struct Buffers {
    planes: PyBuffer<u8>,
    masks: PyBuffer<u8>,
    legal: PyBuffer<i16>,
    legal_count: PyBuffer<i64>,
    actors: PyBuffer<i64>,
    rewards: PyBuffer<i64>,
    dones: PyBuffer<u8>,
}

/// A writable, C-contiguous buffer of exactly `len` elements named `name` in `arrays`.
fn buffer<T: pyo3::buffer::Element>(
    arrays: &Bound<'_, PyAny>,
    name: &str,
    len: usize,
) -> PyResult<PyBuffer<T>> {
    let buf = PyBuffer::<T>::get(&arrays.get_item(name)?)
        .map_err(|e| value_error(format!("{name}: not a suitable array: {e}")))?;
    if buf.readonly() || !buf.is_c_contiguous() || buf.item_count() != len {
        return Err(value_error(format!(
            "{name}: needs a writable C-contiguous array of {len} elements"
        )));
    }
    Ok(buf)
}

/// The memory of `buf` as a mutable slice, for the duration of one call.
///
/// Sound because `buffer` checked that it is writable, C-contiguous and of `item_count`
/// elements of `T`; `Buffers::borrow` checked that no two of the call's buffers overlap; the
/// `PyBuffer` keeps the exporter's memory alive and unmoved while it lives; and the GIL, held
/// for the whole call (no Python code runs while the slice lives), keeps anyone else from
/// touching it.
fn slice_of<'a, T: pyo3::buffer::Element>(buf: &'a PyBuffer<T>, _py: Python<'a>) -> &'a mut [T] {
    // SAFETY: see above.
    unsafe { std::slice::from_raw_parts_mut(buf.buf_ptr().cast::<T>(), buf.item_count()) }
}

impl Buffers {
    fn get(
        arrays: &Bound<'_, PyAny>,
        tables: usize,
        planes: usize,
        players: usize,
    ) -> PyResult<Buffers> {
        let b = Buffers {
            planes: buffer(arrays, "obs", tables * planes * TILE_KINDS)?,
            masks: buffer(arrays, "mask", tables * ACTIONS)?,
            legal: buffer(arrays, "legal", tables * MAX_LEGAL)?,
            legal_count: buffer(arrays, "legal_count", tables)?,
            actors: buffer(arrays, "actor", tables)?,
            rewards: buffer(arrays, "reward", tables * players)?,
            dones: buffer(arrays, "done", tables)?,
        };
        let mut spans = [
            (b.planes.buf_ptr() as usize, b.planes.len_bytes()),
            (b.masks.buf_ptr() as usize, b.masks.len_bytes()),
            (b.legal.buf_ptr() as usize, b.legal.len_bytes()),
            (b.legal_count.buf_ptr() as usize, b.legal_count.len_bytes()),
            (b.actors.buf_ptr() as usize, b.actors.len_bytes()),
            (b.rewards.buf_ptr() as usize, b.rewards.len_bytes()),
            (b.dones.buf_ptr() as usize, b.dones.len_bytes()),
        ];
        spans.sort_unstable();
        if spans.windows(2).any(|w| w[0].0 + w[0].1 > w[1].0) {
            return Err(value_error("the output arrays must not share memory"));
        }
        Ok(b)
    }

    fn borrow<'a>(&'a self, py: Python<'a>) -> Outputs<'a> {
        Outputs {
            planes: slice_of(&self.planes, py),
            masks: slice_of(&self.masks, py),
            legal: slice_of(&self.legal, py),
            legal_count: slice_of(&self.legal_count, py),
            actors: slice_of(&self.actors, py),
            rewards: slice_of(&self.rewards, py),
            dones: slice_of(&self.dones, py),
        }
    }
}

/// Many tables under one rule set, each playing hand after hand.
#[pyclass(module = "majiang._core")]
pub struct VectorTables {
    ruleset: Arc<Ruleset>,
    players: usize,
    seed: u64,
    games: Vec<Game>,
    /// Hands dealt so far per table (the next hand's number).
    dealt: Vec<u32>,
    obs: Observation,
    scratch: Vec<Action>,
    events: Vec<Event>,
    hands_finished: u64,
}

/// The seed of table `t`'s own stream.
fn table_seed(seed: u64, t: usize) -> u64 {
    hand_seed(seed, u32::MAX - (t as u32 % u32::MAX))
}

impl VectorTables {
    /// Deals table `t` its next hand (the dealer rotates hand by hand).
    fn deal(&mut self, t: usize) -> PyResult<()> {
        let k = self.dealt[t];
        let setup = HandSetup {
            dealer: Player((k as usize % self.players) as u8),
            prevailing_wind: Wind::East,
            lao: 1,
            balances: None,
            hand_number: k + 1,
            seed: hand_seed(table_seed(self.seed ^ (t as u64), t), k),
        };
        let (game, _) = Game::new(self.ruleset.clone(), setup).map_err(value_error)?;
        self.games[t] = game;
        self.dealt[t] = k + 1;
        Ok(())
    }

    /// Writes table `t`'s next decision (actor, observation, mask, legal list) into the outputs.
    fn write_decision(&mut self, t: usize, out: &mut Outputs<'_>) {
        let game = &self.games[t];
        let p = game.to_act().next().unwrap_or(Player(0));
        game.legal_actions_into(p, &mut self.scratch);
        observe_into(game, p, &self.scratch, &mut self.obs);
        let size = codec::planes(self.players) * TILE_KINDS;
        codec::encode_observation(
            &self.obs,
            self.ruleset.seats(),
            &mut out.planes[t * size..(t + 1) * size],
            &mut out.masks[t * ACTIONS..(t + 1) * ACTIONS],
        );
        let list = &mut out.legal[t * MAX_LEGAL..(t + 1) * MAX_LEGAL];
        list.fill(-1);
        let mut count = 0;
        for a in &self.scratch {
            if let (Some(code), Some(slot)) = (codec::encode_action(a), list.get_mut(count)) {
                *slot = code as i16;
                count += 1;
            }
        }
        out.legal_count[t] = count as i64;
        out.actors[t] = p.index() as i64;
    }
}

#[pymethods]
impl VectorTables {
    /// VectorTables(rules, num_tables, options=None, seed=0)
    /// --
    ///
    /// `num_tables` tables under `rules` (with house rules `options`), each dealing hand after
    /// hand from its own stream of `seed`.
    #[new]
    #[pyo3(signature = (rules, num_tables, options=None, seed=0))]
    fn new(
        rules: &str,
        num_tables: usize,
        options: Option<&Bound<'_, PyAny>>,
        seed: u64,
    ) -> PyResult<VectorTables> {
        if num_tables == 0 {
            return Err(value_error("num_tables: at least one table"));
        }
        let ruleset = ruleset(rules, options)?;
        let players = ruleset.players();
        let obs = blank_observation(&ruleset)?;
        let (first, _) = Game::new(ruleset.clone(), HandSetup::new(0)).map_err(value_error)?;
        Ok(VectorTables {
            ruleset,
            players,
            seed,
            games: vec![first; num_tables],
            dealt: vec![0; num_tables],
            obs,
            scratch: Vec::with_capacity(32),
            events: Vec::with_capacity(16),
            hands_finished: 0,
        })
    }

    /// Tables stepped together.
    #[getter]
    fn num_tables(&self) -> usize {
        self.games.len()
    }

    /// Players at each table.
    #[getter]
    fn players(&self) -> usize {
        self.players
    }

    /// Rows of each observation (`7 + 4 × players`, 42 columns each).
    #[getter]
    fn planes(&self) -> usize {
        codec::planes(self.players)
    }

    /// Hands finished since the tables were made.
    #[getter]
    fn hands_finished(&self) -> u64 {
        self.hands_finished
    }

    /// reset(arrays)
    /// --
    ///
    /// Deals every table a fresh hand and writes the first decisions into `arrays`, a dict of
    /// numpy arrays: `obs` uint8 (N, planes, 42), `mask` uint8 (N, ACTION_SPACE), `legal`
    /// int16 (N, MAX_LEGAL; -1 padded), `legal_count` int64 (N), `actor` int64 (N), `reward`
    /// int64 (N, players), `done` uint8 (N). Rewards and ends are zeroed.
    fn reset(&mut self, py: Python<'_>, arrays: &Bound<'_, PyAny>) -> PyResult<()> {
        let buffers = Buffers::get(arrays, self.games.len(), self.planes(), self.players)?;
        let mut out = buffers.borrow(py);
        out.rewards.fill(0);
        out.dones.fill(0);
        for t in 0..self.games.len() {
            self.deal(t)?;
            self.write_decision(t, &mut out);
        }
        Ok(())
    }

    /// step(actions, arrays)
    /// --
    ///
    /// Plays `actions[t]` (int64 action numbers) for table `t`'s actor. A table whose hand
    /// ends gets `done[t] = 1` and `reward[t]` = the hand's payments by chair, and is dealt a
    /// new hand at once; the arrays then describe every table's next decision. An illegal
    /// action raises `ValueError` naming the table (tables before it have moved).
    fn step(
        &mut self,
        py: Python<'_>,
        actions: &Bound<'_, PyAny>,
        arrays: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let chosen: Vec<i64> = PyBuffer::<i64>::get(actions)
            .map_err(|e| value_error(format!("actions: must be an int64 array: {e}")))?
            .to_vec(py)?;
        let n = self.games.len();
        if chosen.len() != n {
            return Err(value_error(format!(
                "actions: {} given for {n} tables",
                chosen.len()
            )));
        }
        let buffers = Buffers::get(arrays, n, self.planes(), self.players)?;
        let mut out = buffers.borrow(py);
        out.rewards.fill(0);
        out.dones.fill(0);
        for (t, &code) in chosen.iter().enumerate() {
            let action = usize::try_from(code)
                .ok()
                .and_then(codec::decode_action)
                .ok_or_else(|| value_error(format!("table {t}: {code} is not an action number")))?;
            let game = &mut self.games[t];
            let p = game.to_act().next().unwrap_or(Player(0));
            self.events.clear();
            game.apply_into(p, action, &mut self.events)
                .map_err(|e| value_error(format!("table {t}: {e}")))?;
            if game.is_over() {
                let payments = game
                    .outcome()
                    .map(|o| o.payments(self.players))
                    .unwrap_or_default();
                let row = &mut out.rewards[t * self.players..(t + 1) * self.players];
                for (r, v) in row.iter_mut().zip(payments) {
                    *r = v;
                }
                out.dones[t] = 1;
                self.hands_finished += 1;
                self.deal(t)?;
            }
            self.write_decision(t, &mut out);
        }
        Ok(())
    }
}

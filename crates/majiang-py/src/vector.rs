//! `VectorTables`: many independent hands stepped inside Rust in one call, their observations,
//! masks, legal-action lists, rewards and ends written into numpy arrays (no per-table Python
//! objects). A finished hand is settled and replaced by a fresh deal at once.

use crate::codec::{self, ACTIONS, TILE_KINDS};
use crate::convert::value_error;
use crate::table::{blank_observation, ruleset, write_buffer};
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

/// Where the step's results go: one array per output, each `num_tables` rows.
#[derive(Default)]
struct Outputs {
    planes: Vec<u8>,
    masks: Vec<u8>,
    legal: Vec<i16>,
    legal_count: Vec<i64>,
    actors: Vec<i64>,
    rewards: Vec<i64>,
    dones: Vec<u8>,
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
    out: Outputs,
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
    fn write_decision(&mut self, t: usize) {
        let game = &self.games[t];
        let p = game.to_act().next().unwrap_or(Player(0));
        game.legal_actions_into(p, &mut self.scratch);
        observe_into(game, p, &self.scratch, &mut self.obs);
        let size = codec::planes(self.players) * TILE_KINDS;
        codec::encode_observation(
            &self.obs,
            self.ruleset.seats(),
            &mut self.out.planes[t * size..(t + 1) * size],
            &mut self.out.masks[t * ACTIONS..(t + 1) * ACTIONS],
        );
        let list = &mut self.out.legal[t * MAX_LEGAL..(t + 1) * MAX_LEGAL];
        list.fill(-1);
        let mut count = 0;
        for a in &self.scratch {
            if let (Some(code), Some(slot)) = (codec::encode_action(a), list.get_mut(count)) {
                *slot = code as i16;
                count += 1;
            }
        }
        self.out.legal_count[t] = count as i64;
        self.out.actors[t] = p.index() as i64;
    }

    /// Copies every output into the caller's arrays.
    fn publish(&self, py: Python<'_>, arrays: &Bound<'_, PyAny>) -> PyResult<()> {
        let get = |name: &str| arrays.get_item(name);
        write_buffer(py, &get("obs")?, &self.out.planes, "obs")?;
        write_buffer(py, &get("mask")?, &self.out.masks, "mask")?;
        write_buffer(py, &get("legal")?, &self.out.legal, "legal")?;
        write_buffer(
            py,
            &get("legal_count")?,
            &self.out.legal_count,
            "legal_count",
        )?;
        write_buffer(py, &get("actor")?, &self.out.actors, "actor")?;
        write_buffer(py, &get("reward")?, &self.out.rewards, "reward")?;
        write_buffer(py, &get("done")?, &self.out.dones, "done")
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
        let size = codec::planes(players) * TILE_KINDS;
        Ok(VectorTables {
            ruleset,
            players,
            seed,
            games: vec![first; num_tables],
            dealt: vec![0; num_tables],
            obs,
            scratch: Vec::with_capacity(32),
            events: Vec::with_capacity(16),
            out: Outputs {
                planes: vec![0; num_tables * size],
                masks: vec![0; num_tables * ACTIONS],
                legal: vec![-1; num_tables * MAX_LEGAL],
                legal_count: vec![0; num_tables],
                actors: vec![0; num_tables],
                rewards: vec![0; num_tables * players],
                dones: vec![0; num_tables],
            },
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
        for t in 0..self.games.len() {
            self.deal(t)?;
            self.write_decision(t);
        }
        self.out.rewards.fill(0);
        self.out.dones.fill(0);
        self.publish(py, arrays)
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
        self.out.rewards.fill(0);
        self.out.dones.fill(0);
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
                let row = &mut self.out.rewards[t * self.players..(t + 1) * self.players];
                for (r, v) in row.iter_mut().zip(payments) {
                    *r = v;
                }
                self.out.dones[t] = 1;
                self.hands_finished += 1;
                self.deal(t)?;
            }
            self.write_decision(t);
        }
        self.publish(py, arrays)
    }
}

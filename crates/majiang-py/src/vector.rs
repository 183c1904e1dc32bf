//! `VectorTables`: many independent hands stepped inside Rust in one call, their observations,
//! masks, legal-action lists, rewards and ends written into numpy arrays (no per-table Python
//! objects). A finished hand is settled and replaced by a fresh deal at once.
//!
//! Two modes: self-play (every decision of every chair is the caller's), or one learning chair
//! against the project's bots (`opponents`, a level), whose decisions are made here, in Rust,
//! between the caller's steps.

use crate::codec::{self, ActionLayout, TILE_KINDS};
use crate::convert::{
    action_arg, num_tables_arg, options_map, seat_arg, seed_arg, seed_or_random, value_error,
};
use crate::layout::{blank_observation, ruleset};
use crate::slices::slice_of;
use crate::view::{DiscardRows, GameView};
use majiang::bots::{self, Bot, SeatAction, observe_into};
use majiang::table::matches::hand_seed;
use majiang::table::{Action, Event, Game, HandSetup, Observation, Player, TableRules};
use majiang::tile::Wind;
use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use serde_json::{Map, Value};
use std::sync::{Arc, Mutex};

mod pickle;

/// Room for the legal actions of one decision in the compact lists (the most a hand allows is
/// about two dozen: every distinct tile held as a discard, kongs, a win).
pub const MAX_LEGAL: usize = 48;

/// The most tables one `VectorTables` steps (a larger count is refused, not attempted).
pub const MAX_TABLES: usize = 1 << 16;

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
    final_planes: &'a mut [u8],
    /// The actor's missed wins by tile kind (1: barred), when the caller asked for them.
    missed: Option<&'a mut [u8]>,
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
    final_planes: PyBuffer<u8>,
    missed: Option<PyBuffer<u8>>,
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

impl Buffers {
    fn get(
        arrays: &Bound<'_, PyAny>,
        tables: usize,
        planes: usize,
        players: usize,
        actions: usize,
    ) -> PyResult<Buffers> {
        let b = Buffers {
            planes: buffer(arrays, "obs", tables * planes * TILE_KINDS)?,
            masks: buffer(arrays, "mask", tables * actions)?,
            legal: buffer(arrays, "legal", tables * MAX_LEGAL)?,
            legal_count: buffer(arrays, "legal_count", tables)?,
            actors: buffer(arrays, "actor", tables)?,
            rewards: buffer(arrays, "reward", tables * players)?,
            dones: buffer(arrays, "done", tables)?,
            final_planes: buffer(arrays, "final_obs", tables * planes * TILE_KINDS)?,
            missed: if arrays.contains("missed_wins")? {
                Some(buffer(arrays, "missed_wins", tables * TILE_KINDS)?)
            } else {
                None
            },
        };
        let mut spans = vec![
            (b.planes.buf_ptr() as usize, b.planes.len_bytes()),
            (b.masks.buf_ptr() as usize, b.masks.len_bytes()),
            (b.legal.buf_ptr() as usize, b.legal.len_bytes()),
            (b.legal_count.buf_ptr() as usize, b.legal_count.len_bytes()),
            (b.actors.buf_ptr() as usize, b.actors.len_bytes()),
            (b.rewards.buf_ptr() as usize, b.rewards.len_bytes()),
            (b.dones.buf_ptr() as usize, b.dones.len_bytes()),
            (
                b.final_planes.buf_ptr() as usize,
                b.final_planes.len_bytes(),
            ),
        ];
        if let Some(m) = &b.missed {
            spans.push((m.buf_ptr() as usize, m.len_bytes()));
        }
        spans.sort_unstable();
        if spans.windows(2).any(|w| w[0].0 + w[0].1 > w[1].0) {
            return Err(value_error("the output arrays must not share memory"));
        }
        Ok(b)
    }

    fn borrow<'a>(&'a self, py: Python<'a>) -> Outputs<'a> {
        // SAFETY: each buffer was checked writable, C-contiguous and of its size by `buffer`,
        // and the spans apart by `Buffers::new`; the slices live for one `step`, during which
        // the caller keeps other threads off the arrays (VectorEnv.step's documented contract).
        unsafe { self.borrow_unchecked(py) }
    }

    /// The slices of [`Buffers::borrow`]. Safety: [`slice_of`]'s.
    unsafe fn borrow_unchecked<'a>(&'a self, py: Python<'a>) -> Outputs<'a> {
        Outputs {
            planes: unsafe { slice_of(&self.planes, py) },
            masks: unsafe { slice_of(&self.masks, py) },
            legal: unsafe { slice_of(&self.legal, py) },
            legal_count: unsafe { slice_of(&self.legal_count, py) },
            actors: unsafe { slice_of(&self.actors, py) },
            rewards: unsafe { slice_of(&self.rewards, py) },
            dones: unsafe { slice_of(&self.dones, py) },
            final_planes: unsafe { slice_of(&self.final_planes, py) },
            missed: self.missed.as_ref().map(|m| unsafe { slice_of(m, py) }),
        }
    }
}

/// The bots of one table by chair (`None` for the learning chair).
type TableBots = Vec<Option<Box<dyn Bot>>>;

/// Many tables under one rule set, each playing hand after hand.
#[pyclass(module = "majiang._core")]
pub struct VectorTables {
    ruleset: Arc<TableRules>,
    players: usize,
    layout: ActionLayout,
    seed: u64,
    games: Vec<Game>,
    /// Per table: the hand's discards counted by kind, brought up to date at each encoding.
    discard_rows: Vec<DiscardRows>,
    /// Hands dealt so far per table (the next hand's number).
    dealt: Vec<u32>,
    /// The learning chair, when the other chairs are bots.
    agent: Option<Player>,
    /// Bots by table and chair (`None` for the learning chair; empty in self-play). Behind a
    /// mutex only because bots are `Send`, not `Sync`; every use goes through `&mut self`.
    bots: Mutex<Vec<TableBots>>,
    /// Per table: the learning chair has decided in the hand in play.
    acted: Vec<bool>,
    /// The bots' view (filled only for a bot that reads one).
    obs: Observation,
    scratch: Vec<Action>,
    events: Vec<Event>,
    hands_finished: u64,
    hands_skipped: u64,
    refused: u64,
    /// `reset` has dealt the tables (before it they hold a placeholder, not a deal).
    started: bool,
    /// The bot level or name of the other chairs (`None` in self-play).
    level: Option<String>,
    /// The house rules the tables were made with (for pickling).
    options: Map<String, Value>,
    /// Per table: the action numbers the caller played in the hand in play, in order (with the
    /// deal's seed and the bots' seeds they rebuild the hand: how the tables are pickled).
    journal: Vec<Vec<u16>>,
    /// Per table, the action numbers of the step being checked and played (reused).
    chosen: Vec<Action>,
}

/// The optional `seed` of `reset`.
fn optional_seed(value: &Bound<'_, PyAny>) -> PyResult<Option<u64>> {
    if value.is_none() {
        Ok(None)
    } else {
        seed_arg(value).map(Some)
    }
}

/// Asks the processor to start loading the memory at `p` into its caches: a hint, with no
/// effect on any result (a no-op off x86-64).
#[inline(always)]
fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: SSE is part of the x86-64 baseline, and a prefetch is a hint: it reads no
        // memory the program sees and faults on no address, valid or not.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Prefetches the `bytes` bytes at `p`, a cache line at a time.
#[inline(always)]
fn prefetch_bytes<T>(p: *const T, bytes: usize) {
    let p = p.cast::<u8>();
    for offset in (0..bytes).step_by(64) {
        prefetch(p.wrapping_add(offset));
    }
}

/// The seed of table `t`'s own stream.
fn table_seed(seed: u64, t: usize) -> u64 {
    hand_seed(seed, u32::MAX - (t as u32 % u32::MAX))
}

/// SplitMix64: a well-mixed 64-bit value of `x` (the seeds of bots and recorded hands).
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
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
        self.discard_rows[t] = DiscardRows::EMPTY;
        self.dealt[t] = k.wrapping_add(1);
        self.acted[t] = false;
        self.journal[t].clear();
        if self.agent.is_some() {
            let bots = self.table_bots(t, k)?;
            self.bots.get_mut().unwrap_or_else(|e| e.into_inner())[t] = bots;
        }
        Ok(())
    }

    /// The bots of table `t` for its hand `k` (seeded from the tables' seed, the table, the
    /// chair and the hand: fresh for every hand, so a hand in play is rebuilt from its deal
    /// and the caller's actions alone).
    fn table_bots(&self, t: usize, k: u32) -> PyResult<TableBots> {
        let (Some(agent), Some(level)) = (self.agent, self.level.as_deref()) else {
            return Ok(Vec::new());
        };
        (0..self.players)
            .map(|c| {
                if c == agent.index() {
                    return Ok(None);
                }
                let seed = mix(self.seed ^ mix((t as u64) << 8 | c as u64) ^ mix(u64::from(k)));
                bots::by_name(level, &self.ruleset, seed)
                    .map(Some)
                    .map_err(|e| value_error(format!("opponents: {e}")))
            })
            .collect()
    }

    /// Writes the observation planes of `p` at table `t` into `planes`, read straight from the
    /// game (the mask is [`codec::encode_actions`]'s, from the legal actions).
    fn encode_planes(&mut self, t: usize, p: Player, planes: &mut [u8]) {
        let game = &self.games[t];
        let rows = &mut self.discard_rows[t];
        rows.update(game);
        let view = GameView {
            game,
            player: p,
            legal: &[],
            discard_rows: Some(rows),
        };
        codec::encode_planes(&view, self.ruleset.seats(), planes);
    }

    /// Settles table `t`'s finished hand into the outputs (or skips it: a hand the learning
    /// chair never decided in is no episode of theirs) and deals the next.
    fn settle(&mut self, t: usize, out: &mut Outputs<'_>) -> PyResult<()> {
        let counts = self.agent.is_none() || self.acted[t];
        if counts {
            let payments = self.games[t]
                .outcome()
                .map(|o| o.payments(self.players))
                .unwrap_or_default();
            let row = &mut out.rewards[t * self.players..(t + 1) * self.players];
            for (r, v) in row.iter_mut().zip(payments) {
                *r += v;
            }
            out.dones[t] = 1;
            self.hands_finished += 1;
            if let Some(agent) = self.agent {
                // The planes only: a finished hand's mask is not reported.
                let size = codec::planes(self.players) * TILE_KINDS;
                self.encode_planes(t, agent, &mut out.final_planes[t * size..(t + 1) * size]);
            }
        } else {
            self.hands_skipped += 1;
        }
        self.deal(t)
    }

    /// Plays table `t`'s bots until the learning chair must decide (settling and dealing hands
    /// that end meanwhile); in self-play, only settles a finished hand.
    fn advance(&mut self, t: usize, out: &mut Outputs<'_>) -> PyResult<()> {
        loop {
            if self.games[t].is_over() {
                self.settle(t, out)?;
                continue;
            }
            let Some(agent) = self.agent else {
                return Ok(());
            };
            let game = &mut self.games[t];
            // Bots answer first (as the seat driver lets them); the learning chair last.
            let Some(p) = game.to_act().find(|&p| p != agent) else {
                return Ok(());
            };
            game.legal_actions_into(p, &mut self.scratch);
            let bots = self.bots.get_mut().unwrap_or_else(|e| e.into_inner());
            let Some(bot) = bots[t][p.index()].as_mut() else {
                return Err(value_error(format!("table {t}: no bot in chair {p}")));
            };
            if bot.needs_observation() {
                observe_into(game, p, &self.scratch, &mut self.obs);
            }
            let chosen = bot.act(&self.obs, &self.scratch);
            // The seat policy every driver follows for a refused bot choice.
            let SeatAction { action, refused } = SeatAction::of(game, p, chosen, &self.scratch);
            if refused.is_some() {
                self.refused += 1;
            }
            self.events.clear();
            game.apply_into(p, action, &mut self.events)
                .map_err(|e| value_error(format!("table {t}: {e}")))?;
        }
    }

    /// Warms the caches for the tables after `t`, which `step` reaches next: each table's game
    /// and its hands live in separate heap blocks (every step of 512 tables reads them cold),
    /// so the loads go in stages, each reading pointers the one before brought in: table
    /// `t + 3`'s game, `t + 2`'s hands, `t + 1`'s melds, discards, flowers and counted discard
    /// rows. Only hints:
    /// nothing read here changes what is written.
    fn prefetch_after(&self, t: usize) {
        if let Some(g) = self.games.get(t + 3) {
            prefetch_bytes(g, std::mem::size_of::<Game>().min(1024));
        }
        if let Some(g) = self.games.get(t + 2) {
            for q in 0..self.players {
                prefetch_bytes(g.concealed(Player(q as u8)), 128);
            }
        }
        if let Some(rows) = self.discard_rows.get(t + 1) {
            prefetch_bytes(rows, std::mem::size_of::<DiscardRows>());
        }
        if let Some(g) = self.games.get(t + 1) {
            for q in 0..self.players {
                let q = Player(q as u8);
                prefetch(g.melds(q).as_ptr());
                prefetch(g.discards(q).as_ptr());
                prefetch(g.flowers(q).as_ptr());
            }
        }
    }

    /// Plays the checked actions `self.chosen` (one per table), writing the outputs.
    fn play_chosen(&mut self, out: &mut Outputs<'_>) -> PyResult<()> {
        out.rewards.fill(0);
        out.dones.fill(0);
        for t in 0..self.games.len() {
            self.prefetch_after(t);
            let action = self.chosen[t];
            let p = self.actor(t);
            let game = &mut self.games[t];
            self.events.clear();
            game.apply_into(p, action, &mut self.events)
                .map_err(|e| value_error(format!("actions: table {t}: {e}")))?;
            self.acted[t] = true;
            self.journal[t].push(self.layout.encode(&action).unwrap_or(0) as u16);
            self.advance(t, out)?;
            self.write_decision(t, out);
        }
        Ok(())
    }

    /// Table `t`'s hand in play, or a `ValueError` naming a table that is not there.
    fn game(&self, t: usize) -> PyResult<&Game> {
        self.games
            .get(t)
            .ok_or_else(|| value_error(format!("t: there is no table {t} of {}", self.games.len())))
    }

    /// Who decides next at table `t`: the learning chair when it may, else the first to act.
    fn actor(&self, t: usize) -> Player {
        let game = &self.games[t];
        self.agent
            .filter(|a| game.to_act().contains(*a))
            .or_else(|| game.to_act().next())
            .unwrap_or(Player(0))
    }

    /// Writes table `t`'s next decision (actor, observation, mask, legal list) into the outputs.
    fn write_decision(&mut self, t: usize, out: &mut Outputs<'_>) {
        let p = self.actor(t);
        let size = codec::planes(self.players) * TILE_KINDS;
        let actions = self.layout.actions();
        let (planes, masks) = (
            &mut out.planes[t * size..(t + 1) * size],
            &mut out.masks[t * actions..(t + 1) * actions],
        );
        self.encode_planes(t, p, planes);
        self.games[t].legal_actions_into(p, &mut self.scratch);
        let list = &mut out.legal[t * MAX_LEGAL..(t + 1) * MAX_LEGAL];
        let count = codec::encode_actions(&self.layout, &self.scratch, masks, list);
        out.legal_count[t] = count as i64;
        out.actors[t] = p.index() as i64;
        if let Some(missed) = out.missed.as_deref_mut() {
            let row = &mut missed[t * TILE_KINDS..(t + 1) * TILE_KINDS];
            row.fill(0);
            for tile in self.games[t].missed_wins(p) {
                row[tile.index()] = 1;
            }
        }
    }
}

#[pymethods]
impl VectorTables {
    /// `num_tables` tables under `rules` (with house rules `options`), each dealing hand after
    /// hand from its own stream of `seed` (`None`: a random one). With `opponents` (a bot level or name), chair
    /// `seat` is the caller's and the other chairs are that bot, played here between steps.
    #[new]
    #[pyo3(signature = (rules, num_tables, options=None, seed=None, opponents=None, seat=0))]
    fn new(
        rules: &str,
        #[pyo3(from_py_with = num_tables_arg)] num_tables: usize,
        options: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        opponents: Option<&str>,
        #[pyo3(from_py_with = seat_arg)] seat: usize,
    ) -> PyResult<VectorTables> {
        let seed = seed_or_random(seed)?;
        if !(1..=MAX_TABLES).contains(&num_tables) {
            return Err(value_error(format!(
                "num_tables: {num_tables} is not between 1 and {MAX_TABLES}"
            )));
        }
        let ruleset = ruleset(rules, options)?;
        let players = ruleset.players();
        if seat >= players {
            return Err(value_error(format!(
                "seat: there is no player {seat} at a table of {players}"
            )));
        }
        let layout = ActionLayout::new(ruleset.config());
        let obs = blank_observation(&ruleset)?;
        let (first, _) = Game::new(ruleset.clone(), HandSetup::new(0)).map_err(value_error)?;
        let mut tables = VectorTables {
            ruleset,
            players,
            layout,
            seed,
            games: vec![first; num_tables],
            discard_rows: vec![DiscardRows::EMPTY; num_tables],
            dealt: vec![0; num_tables],
            agent: opponents.map(|_| Player(seat as u8)),
            bots: Mutex::new(Vec::new()),
            acted: vec![false; num_tables],
            obs,
            scratch: Vec::with_capacity(32),
            events: Vec::with_capacity(16),
            hands_finished: 0,
            hands_skipped: 0,
            refused: 0,
            started: false,
            chosen: Vec::with_capacity(num_tables),
            level: opponents.map(str::to_owned),
            options: options_map(options)?,
            journal: vec![Vec::new(); num_tables],
        };
        // The bots are made with each deal; an unknown name is refused here.
        tables.table_bots(0, 0)?;
        *tables.bots.get_mut().unwrap_or_else(|e| e.into_inner()) =
            (0..num_tables).map(|_| Vec::new()).collect();
        Ok(tables)
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

    /// The number of actions (action numbers are `0..action_space`).
    #[getter]
    fn action_space(&self) -> usize {
        self.layout.actions()
    }

    /// The learning chair against bots, or `None` in self-play.
    #[getter]
    fn seat(&self) -> Option<usize> {
        self.agent.map(Player::index)
    }

    /// The engine's `Observation` of table `t`'s actor now, as JSON text: what `obs[t]` and
    /// `mask[t]` were written from (for checks; `encode_observation_json` encodes it).
    fn observation_json(&self, t: usize) -> PyResult<String> {
        let game = self.game(t)?;
        serde_json::to_string(&game.observation(self.actor(t))).map_err(value_error)
    }

    /// Why the engine would refuse action number `action` for table `t`'s actor now (the
    /// engine's reason, as `step` raises it: e.g. Hong Kong's missed win, "you passed this
    /// tile's win: wait for your next draw"), or `None` if it is legal. Changes nothing.
    fn refusal(
        &self,
        t: usize,
        #[pyo3(from_py_with = action_arg)] action: usize,
    ) -> PyResult<Option<String>> {
        let game = self.game(t)?;
        if !self.started {
            return Err(PyRuntimeError::new_err("refusal: call reset() first"));
        }
        let a = self.layout.decode(action).ok_or_else(|| {
            value_error(format!(
                "action: {action} is not an action number (0..{})",
                self.layout.actions()
            ))
        })?;
        Ok(game.check(self.actor(t), a).err().map(|e| e.to_string()))
    }

    /// Hands finished (and reported in `done`) since the tables were made.
    #[getter]
    fn hands_finished(&self) -> u64 {
        self.hands_finished
    }

    /// Hands that ended before the learning chair decided anything (not reported; no episode).
    #[getter]
    fn hands_skipped(&self) -> u64 {
        self.hands_skipped
    }

    /// Bot decisions the engine refused (the first legal action was played instead).
    #[getter]
    fn refused_bot_actions(&self) -> u64 {
        self.refused
    }

    /// Deals every table a fresh hand and writes the first decisions into `arrays`, a dict of
    /// numpy arrays: `obs` uint8 (N, planes, 42), `mask` uint8 or bool (N, action_space),
    /// `legal` int16 (N, MAX_LEGAL; -1 padded), `legal_count` int64 (N), `actor` int64 (N),
    /// `reward` int64 (N, players), `done` uint8 (N), `final_obs` uint8 (N, planes, 42), and
    /// optionally `missed_wins` uint8 (N, 42): the kinds the actor may not win on now (Hong
    /// Kong's missed win; 1 in a barred kind's column), written with every decision.
    /// Rewards and ends are zeroed. With `seed`, the tables' streams start again from it.
    #[pyo3(signature = (arrays, seed=None))]
    fn reset(
        &mut self,
        py: Python<'_>,
        arrays: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = optional_seed)] seed: Option<u64>,
    ) -> PyResult<()> {
        let buffers = Buffers::get(
            arrays,
            self.games.len(),
            self.planes(),
            self.players,
            self.layout.actions(),
        )?;
        let mut out = buffers.borrow(py);
        if let Some(seed) = seed {
            self.seed = seed;
            self.dealt.fill(0);
        }
        for t in 0..self.games.len() {
            self.deal(t)?;
            self.advance(t, &mut out)?;
        }
        out.rewards.fill(0);
        out.dones.fill(0);
        for t in 0..self.games.len() {
            self.write_decision(t, &mut out);
        }
        self.started = true;
        Ok(())
    }

    /// An independent copy of the tables in their exact state (every hand in play, every
    /// bot with its random generator where it stands): stepped with the same actions, both
    /// write the same arrays. `copy.copy` and `copy.deepcopy` make the same copy.
    fn clone(&self) -> PyResult<VectorTables> {
        let bots = self.bots.lock().unwrap_or_else(|e| e.into_inner());
        let copied = bots
            .iter()
            .map(|chairs| {
                chairs
                    .iter()
                    .map(|bot| match bot {
                        None => Ok(None),
                        Some(b) => b.clone_box().map(Some).ok_or_else(|| {
                            value_error(format!("the bot {} cannot be copied", b.name()))
                        }),
                    })
                    .collect::<PyResult<TableBots>>()
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(VectorTables {
            ruleset: self.ruleset.clone(),
            players: self.players,
            layout: self.layout,
            seed: self.seed,
            games: self.games.clone(),
            discard_rows: self.discard_rows.clone(),
            dealt: self.dealt.clone(),
            agent: self.agent,
            bots: Mutex::new(copied),
            acted: self.acted.clone(),
            obs: self.obs.clone(),
            scratch: Vec::with_capacity(32),
            events: Vec::with_capacity(16),
            hands_finished: self.hands_finished,
            hands_skipped: self.hands_skipped,
            refused: self.refused,
            started: self.started,
            chosen: Vec::with_capacity(self.games.len()),
            level: self.level.clone(),
            options: self.options.clone(),
            journal: self.journal.clone(),
        })
    }

    /// Pickling (see `vector/pickle.rs`).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        VectorTables::reduce(slf)
    }

    /// Pickling's second half (see `vector/pickle.rs`).
    fn __setstate__(&mut self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        self.set_state(state)
    }

    fn __copy__(&self) -> PyResult<VectorTables> {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<VectorTables> {
        self.clone()
    }

    /// Plays `actions[t]` (int64 action numbers) for table `t`'s actor. A table whose hand
    /// ends gets `done[t] = 1`, `reward[t]` = the hand's payments by chair and (against bots)
    /// `final_obs[t]` = the learning chair's last view of it, and is dealt a new hand at once;
    /// the arrays then describe every table's next decision. Every action is checked first:
    /// an illegal one raises `ValueError` naming the table and no table moves. `step` before
    /// `reset` raises `RuntimeError`. The stepping runs without the GIL (other Python threads
    /// run meanwhile; they must not touch these arrays until it returns).
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
        let buffers = Buffers::get(
            arrays,
            n,
            self.planes(),
            self.players,
            self.layout.actions(),
        )?;
        if !self.started {
            return Err(PyRuntimeError::new_err("step: call reset() first"));
        }
        // Every action is checked before any is played: a refused one leaves every table as
        // it was.
        self.chosen.clear();
        for (t, &code) in chosen.iter().enumerate() {
            let action = usize::try_from(code)
                .ok()
                .and_then(|c| self.layout.decode(c))
                .ok_or_else(|| {
                    value_error(format!(
                        "actions: table {t}: {code} is not an action number (0..{})",
                        self.layout.actions()
                    ))
                })?;
            self.games[t]
                .check(self.actor(t), action)
                .map_err(|e| value_error(format!("actions: table {t}: {e}")))?;
            self.chosen.push(action);
        }
        let mut out = buffers.borrow(py);
        // The stepping reads and writes only Rust memory and the arrays' buffers (held by
        // `buffers`): other Python threads run meanwhile.
        py.allow_threads(|| self.play_chosen(&mut out))
    }
}

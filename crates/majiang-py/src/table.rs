//! `Table`: one match through the library's seat [`Driver`], stepped one action at a time from
//! Python, with the project's bots in any chairs (the other chairs are the caller's). The
//! PettingZoo and Gymnasium environments are built on it.

use crate::codec::{self, ActionLayout, TILE_KINDS};
use crate::convert::{
    action_arg, hands_arg, options_map, player_arg, seed_arg, seed_or_random, to_py, value_error,
};
use majiang::bots;
use majiang::driver::{Controller, Driver, Poll, Timers};
use majiang::table::{Action, Player, Session, TableRules};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use serde_json::{Map, Value};
use std::sync::{Arc, Mutex, MutexGuard};

mod journal;
use journal::Call;

mod observe;
use observe::{BoundArrays, write_buffer};

/// The driver's clock: the Python table has no timers, so every decision is due at once.
const NOW: u64 = 0;

/// One match in play: the library's seat [`Driver`] (its [`Session`] and a controller per
/// chair: the caller, or a bot), and buffers for encoding.
///
/// Actions are numbers (see `Table.action_space`): `legal(player)` lists them,
/// `observe(player, obs, mask)` writes the seat's observation planes and legal-action mask into
/// numpy arrays, `act(player, action)` plays one.
#[pyclass(module = "majiang._core")]
pub struct Table {
    /// Behind a mutex only so that the table may be shared between threads (bots are `Send`,
    /// not `Sync`); nothing blocks on it.
    driver: Mutex<Driver>,
    players: usize,
    /// The match's hand limit (`None`: the whole match), for `restart`.
    hands: Option<u32>,
    layout: ActionLayout,
    /// Bot actions the engine refused (the driver played the first legal action instead).
    refused: u64,
    legal: Vec<Action>,
    planes: Vec<u8>,
    mask: Vec<u8>,
    /// Per chair: the caller's observation arrays (planes, mask) bound by
    /// `bind_observation`, held for `observe_bound` to refill in place.
    bound: Vec<Option<BoundArrays>>,
    /// The house rules the table was made with (for pickling).
    options: Map<String, Value>,
    /// The seed of the match in play (the constructor's, or `restart`'s).
    seed: u64,
    /// Every call that changed the match since it was dealt, in order (for pickling).
    journal: Vec<Call>,
}

/// A match of `ruleset` dealt from `seed`, every chair the caller's.
fn new_driver(ruleset: Arc<TableRules>, seed: u64, hands: Option<u32>) -> PyResult<Driver> {
    let players = ruleset.players();
    let (session, _) = Session::new(ruleset, seed, hands).map_err(value_error)?;
    // Every chair starts as the caller's; a person's stand-in never plays (no timers).
    let controllers = (0..players)
        .map(|i| Controller::person(seed.wrapping_add(i as u64)))
        .collect();
    Driver::new(session, controllers, Timers::default()).map_err(value_error)
}

impl Table {
    fn driver(&self) -> MutexGuard<'_, Driver> {
        self.driver.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn driver_mut(&mut self) -> &mut Driver {
        self.driver.get_mut().unwrap_or_else(|e| e.into_inner())
    }

    fn player(&self, player: usize) -> PyResult<Player> {
        if player < self.players {
            Ok(Player(player as u8))
        } else {
            Err(value_error(format!(
                "player: there is no player {player} at a table of {}",
                self.players
            )))
        }
    }

    /// ended the hand.
    fn play(&mut self, p: Player, action: Action, number: usize) -> PyResult<Option<Vec<i64>>> {
        let step = self.driver_mut().act(p, action, NOW).map_err(value_error)?;
        self.journal.push(Call::Act(p.0, number as u32));
        Ok(step.settlement.map(|s| s.payments))
    }

    /// A table of `ruleset` dealt from `seed`, every chair the caller's.
    fn build(
        ruleset: Arc<TableRules>,
        options: Map<String, Value>,
        seed: u64,
        hands: Option<u32>,
    ) -> PyResult<Table> {
        if hands == Some(0) {
            return Err(value_error("hands: a match plays at least one hand"));
        }
        let players = ruleset.players();
        let layout = ActionLayout::new(ruleset.config());
        let driver = new_driver(ruleset, seed, hands)?;
        Ok(Table {
            driver: Mutex::new(driver),
            players,
            hands,
            layout,
            refused: 0,
            legal: Vec::with_capacity(32),
            planes: vec![0; codec::planes(players) * TILE_KINDS],
            mask: vec![0; layout.actions()],
            bound: (0..players).map(|_| None).collect(),
            options,
            seed,
            journal: Vec::new(),
        })
    }

    /// Replays `call` (a pickled table's, on a table made as it was).
    fn replay_call(&mut self, call: &Call) -> PyResult<()> {
        match call {
            Call::Act(p, a) => {
                let p = self.player(usize::from(*p))?;
                let action = self.decode(*a as usize)?;
                self.play(p, action, *a as usize).map(|_| ())
            }
            Call::SetBot(p, name, seed) => self.set_bot(usize::from(*p), name.as_deref(), *seed),
            Call::PlayBots => self.play_bots().map(|_| ()),
            Call::DealNext => self.deal_next(),
        }
    }

    /// The action of number `action` at this table, or a `ValueError` naming it.
    fn decode(&self, action: usize) -> PyResult<Action> {
        self.layout.decode(action).ok_or_else(|| {
            value_error(format!(
                "action: {action} is not an action number (0..{})",
                self.layout.actions()
            ))
        })
    }
}

#[pymethods]
impl Table {
    /// A new match under `rules` (`hongkong`, `hangzhou`, `yangzhou`, `classic`) with house
    /// rules `options` (a dict, as `--option` takes them; classic's `players` sets the table
    /// size), every shuffle and die fixed by `seed` (`None`: a random seed, `seed` tells it),
    /// at most `hands` hands if given.
    #[new]
    #[pyo3(signature = (rules, options=None, seed=None, hands=None))]
    fn new(
        rules: &str,
        options: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = hands_arg)] hands: Option<u32>,
    ) -> PyResult<Table> {
        let seed = seed_or_random(seed)?;
        let map = options_map(options)?;
        let ruleset = TableRules::from_name(rules, &map)
            .map(Arc::new)
            .map_err(value_error)?;
        Table::build(ruleset, map, seed, hands)
    }

    /// An independent copy of the table in its exact state: the match, the hand in play and
    /// every bot with its random generator where it stands, so both play on identically from
    /// the same actions (for search: MCTS, expectimax). Observation arrays bound with
    /// `bind_observation` are not copied (bind them to the copy). `copy.copy` and
    /// `copy.deepcopy` make the same copy.
    fn clone(&self) -> PyResult<Table> {
        let driver = self.driver();
        let controllers = (0..self.players)
            .map(|i| match driver.controller(Player(i as u8)) {
                Some(Controller::Bot(bot)) => {
                    bot.clone_box().map(Controller::Bot).ok_or_else(|| {
                        value_error(format!(
                            "the bot in chair {i} ({}) cannot be copied",
                            bot.name()
                        ))
                    })
                }
                Some(Controller::Person { stand_in_seed }) => {
                    Ok(Controller::person(*stand_in_seed))
                }
                None => Err(value_error(format!("no chair {i}"))),
            })
            .collect::<PyResult<Vec<_>>>()?;
        let copy = Driver::new(driver.session().clone(), controllers, Timers::default())
            .map_err(value_error)?;
        Ok(Table {
            driver: Mutex::new(copy),
            players: self.players,
            hands: self.hands,
            layout: self.layout,
            refused: self.refused,
            legal: Vec::with_capacity(32),
            planes: vec![0; self.planes.len()],
            mask: vec![0; self.mask.len()],
            bound: (0..self.players).map(|_| None).collect(),
            options: self.options.clone(),
            seed: self.seed,
            journal: self.journal.clone(),
        })
    }

    fn __copy__(&self) -> PyResult<Table> {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<Table> {
        self.clone()
    }

    /// Pickling: the table is made again from its rules, options, seed and hand limit, and
    /// the calls that changed it since are replayed (deterministic: the same state).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.borrow();
        let options = to_py(py, &Value::Object(this.options.clone()))?;
        let args = (this.rules(), options, this.seed, this.hands).into_pyobject(py)?;
        let calls = this
            .journal
            .iter()
            .map(|c| c.to_tuple(py))
            .collect::<PyResult<Vec<_>>>()?;
        let state = PyDict::new(py);
        state.set_item("calls", calls)?;
        (slf.get_type(), args, state).into_pyobject(py)
    }

    /// Pickling's second half: replays the pickled calls on a table just made.
    fn __setstate__(&mut self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        if !self.journal.is_empty() {
            return Err(PyRuntimeError::new_err(
                "__setstate__: only for a table just made by unpickling",
            ));
        }
        let calls = state.get_item("calls")?;
        for call in calls.try_iter()? {
            let call = Call::from_tuple(&call?)?;
            self.replay_call(&call)?;
        }
        Ok(())
    }

    /// The chair of each entrant (`chairs()[i]`: the chair where entrant `i` sat down after the
    /// seat choice). In Hong Kong the wind-tile ceremony seats the entrants (chair 0 is East
    /// and deals first); elsewhere entrant `i` sits in chair `i` and the dice choose the
    /// first dealer.
    fn chairs(&self) -> Vec<usize> {
        self.driver()
            .session()
            .chairs()
            .iter()
            .map(|p| p.index())
            .collect()
    }

    /// Players at the table.
    #[getter]
    fn players(&self) -> usize {
        self.players
    }

    /// The rule set's name.
    #[getter]
    fn rules(&self) -> &'static str {
        self.driver().session().ruleset().name()
    }

    /// The number of actions at this table: action numbers are `0..action_space`, every one
    /// an action some state offers (see `action_layout`).
    #[getter]
    fn action_space(&self) -> usize {
        self.layout.actions()
    }

    /// The action numbers' sections: `(name, first number, count)` in order (`discard`,
    /// `concealed_kong`, `added_kong`, `chow`, `pung`, `kong`, `win`, `pass`; a section the
    /// table never offers is left out).
    fn action_layout(&self) -> Vec<(&'static str, usize, usize)> {
        self.layout.describe()
    }

    /// A readable name of action number `action` (`"discard 5m"`, `"chow 345p"`, `"pass"`).
    fn action_name(&self, #[pyo3(from_py_with = action_arg)] action: usize) -> PyResult<String> {
        Ok(self.decode(action)?.to_string())
    }

    /// The engine action of number `action` as JSON text (`{"discard":"5m"}`, `"pass"`).
    fn decode_action(&self, #[pyo3(from_py_with = action_arg)] action: usize) -> PyResult<String> {
        serde_json::to_string(&self.decode(action)?).map_err(value_error)
    }

    /// Bot decisions the engine refused so far (the seat driver played the first legal action
    /// instead; zero unless a bot has a bug).
    #[getter]
    fn refused_bot_actions(&self) -> u64 {
        self.refused
    }

    /// Rows of an observation (`7 + 4 × players`; each row 42 tile kinds wide).
    #[getter]
    fn planes(&self) -> usize {
        codec::planes(self.players)
    }

    /// The seed the match in play was dealt from.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The number of the hand in play (from 1).
    #[getter]
    fn hand_number(&self) -> u32 {
        self.driver().session().hand_number()
    }

    /// The first player who must decide now; `None` between hands and after the match.
    fn to_act(&self) -> Option<usize> {
        self.driver().session().to_act().map(Player::index)
    }

    /// Every player who must decide now (several may answer a discard), lowest chair first.
    fn actors(&self) -> Vec<usize> {
        self.driver()
            .session()
            .game()
            .to_act()
            .map(Player::index)
            .collect()
    }

    /// True once the match has ended.
    fn is_over(&self) -> bool {
        self.driver().session().is_over()
    }

    /// True when a hand has ended and the next must be dealt with `deal_next()`.
    fn awaiting_deal(&self) -> bool {
        self.driver().session().awaiting_deal()
    }

    /// Deals the next hand (after a hand ended, while the match goes on).
    fn deal_next(&mut self) -> PyResult<()> {
        self.driver_mut()
            .deal_next(NOW)
            .map(|_| ())
            .map_err(value_error)?;
        self.journal.push(Call::DealNext);
        Ok(())
    }

    /// Chips per chair so far.
    fn ledger(&self) -> Vec<i64> {
        self.driver().session().ledger().to_vec()
    }

    /// The legal actions of `player` now, as action numbers (empty: nothing to decide).
    fn legal(&mut self, #[pyo3(from_py_with = player_arg)] player: usize) -> PyResult<Vec<usize>> {
        let p = self.player(player)?;
        let driver = self.driver.get_mut().unwrap_or_else(|e| e.into_inner());
        driver
            .session()
            .game()
            .legal_actions_into(p, &mut self.legal);
        let layout = self.layout;
        Ok(self.legal.iter().filter_map(|a| layout.encode(a)).collect())
    }

    /// The legal actions of `player` now as the engine writes them in JSON (`{"discard":
    /// "5m"}`, `"pung"`, ...): the ground truth the action numbers encode.
    fn legal_json(
        &self,
        #[pyo3(from_py_with = player_arg)] player: usize,
    ) -> PyResult<Vec<String>> {
        let p = self.player(player)?;
        self.driver()
            .session()
            .legal_actions(p)
            .iter()
            .map(|a| serde_json::to_string(a).map_err(value_error))
            .collect()
    }

    /// Writes what `player` may see into `obs` (a C-contiguous `uint8` array of
    /// `planes × 42`) and their legal actions into `mask` (`uint8` or `bool`, `action_space`
    /// long).
    fn observe(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = player_arg)] player: usize,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let p = self.player(player)?;
        self.encode(p);
        write_buffer(py, obs, &self.planes, "obs")?;
        write_buffer(py, mask, &self.mask, "mask")
    }

    /// Binds `obs` (a writable, C-contiguous `uint8` array of `planes × 42`) and `mask`
    /// (`uint8`, `action_space` long; a bool or int8 array's `.view(np.uint8)`) as `player`'s
    /// observation arrays: `observe_bound(player)` then refills them in place, without taking
    /// the arrays' buffers on every call. Binding again replaces them.
    fn bind_observation(
        &mut self,
        #[pyo3(from_py_with = player_arg)] player: usize,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let p = self.player(player)?;
        self.bind(p, obs, mask)
    }

    /// Writes what `player` may see and their legal actions into the arrays bound with
    /// `bind_observation` (as `observe` does into the arrays it is given).
    fn observe_bound(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = player_arg)] player: usize,
    ) -> PyResult<()> {
        let p = self.player(player)?;
        self.observe_into_bound(py, p)
    }

    /// The engine's `Observation` of `player` as JSON text: exactly what the observation
    /// planes are built from.
    fn observation_json(
        &self,
        #[pyo3(from_py_with = player_arg)] player: usize,
    ) -> PyResult<String> {
        let p = self.player(player)?;
        serde_json::to_string(&self.driver().session().observation(p)).map_err(value_error)
    }

    /// The tiles `player` may not win on now because they passed a win on that kind since
    /// their last draw from the live wall (Hong Kong's missed win, house rule `missed_win`), in
    /// notation (`["4p"]`); empty when nothing bars them. The observation's `missed_wins`.
    fn missed_wins(
        &self,
        #[pyo3(from_py_with = player_arg)] player: usize,
    ) -> PyResult<Vec<String>> {
        let p = self.player(player)?;
        let tiles = self.driver().session().game().missed_wins(p);
        Ok(tiles.iter().map(ToString::to_string).collect())
    }

    /// Why the engine would refuse action number `action` for `player` now (the engine's
    /// reason, as `act` raises it), or `None` if it is legal. Changes nothing.
    fn refusal(
        &self,
        #[pyo3(from_py_with = player_arg)] player: usize,
        #[pyo3(from_py_with = action_arg)] action: usize,
    ) -> PyResult<Option<String>> {
        let p = self.player(player)?;
        let a = self.decode(action)?;
        let checked = self.driver().session().game().check(p, a);
        Ok(checked.err().map(|e| e.to_string()))
    }

    /// Plays action number `action` for `player`. Returns the hand's payments by chair when it
    /// ended the hand, else `None`. A refused action raises `ValueError` with the engine's
    /// reason and changes nothing.
    fn act(
        &mut self,
        #[pyo3(from_py_with = player_arg)] player: usize,
        #[pyo3(from_py_with = action_arg)] action: usize,
    ) -> PyResult<Option<Vec<i64>>> {
        let p = self.player(player)?;
        let a = self.decode(action)?;
        self.play(p, a, action)
    }

    /// Plays action number `action` for `player`, as `act` does, and says what comes next in
    /// the same call: the first player who must decide now (`to_act()`) while the hand goes
    /// on, or the hand's payments by chair (a list) when the action ended it. The PettingZoo
    /// environment's step.
    fn act_next(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = player_arg)] player: usize,
        #[pyo3(from_py_with = action_arg)] action: usize,
    ) -> PyResult<PyObject> {
        let p = self.player(player)?;
        let a = self.decode(action)?;
        Ok(match self.play(p, a, action)? {
            Some(payments) => payments.into_pyobject(py)?.into_any().unbind(),
            None => self
                .driver_mut()
                .session()
                .to_act()
                .map(Player::index)
                .into_pyobject(py)?
                .into_any()
                .unbind(),
        })
    }

    /// Starts a new match under the same rules, options and hand limit, dealt from `seed`:
    /// the table `Table(rules, options, seed, hands)` would be (every chair the caller's
    /// again, bots removed), keeping the observation arrays bound to it and the rule set
    /// already built.
    fn restart(&mut self, #[pyo3(from_py_with = seed_arg)] seed: u64) -> PyResult<()> {
        let ruleset = self.driver_mut().session().ruleset().clone();
        let driver = new_driver(ruleset, seed, self.hands)?;
        *self.driver_mut() = driver;
        self.refused = 0;
        self.seed = seed;
        self.journal.clear();
        Ok(())
    }

    /// Lets the project's bot `name` (a level, `easy`, `normal` or `hard`, or a bot's own name:
    /// `random`, `efficient`, `expert`, `aggressive`) play chair `player` (seeded with `seed`);
    /// `None` gives the chair back to the caller.
    #[pyo3(signature = (player, name, seed=0))]
    fn set_bot(
        &mut self,
        #[pyo3(from_py_with = player_arg)] player: usize,
        name: Option<&str>,
        #[pyo3(from_py_with = seed_arg)] seed: u64,
    ) -> PyResult<()> {
        let p = self.player(player)?;
        let driver = self.driver_mut();
        let controller = match name {
            None => Controller::person(seed),
            Some(n) => Controller::Bot(
                bots::by_name(n, driver.session().ruleset(), seed)
                    .map_err(|e| value_error(format!("name: {e}")))?,
            ),
        };
        driver.set_controller(p, controller).map_err(value_error)?;
        self.journal
            .push(Call::SetBot(p.0, name.map(str::to_owned), seed));
        Ok(())
    }

    /// Lets the bots play (through the seat driver) until only chairs without a bot must
    /// decide, a hand ends or the match ends. Returns the payments by chair of the hand that
    /// ended, if one did. A bot may answer a discard before the caller's chairs do.
    fn play_bots(&mut self) -> PyResult<Option<Vec<i64>>> {
        let mut refused = 0;
        let driver = self.driver.get_mut().unwrap_or_else(|e| e.into_inner());
        let result = loop {
            let Poll::Act(decision) = driver.poll(NOW) else {
                break Ok(None);
            };
            refused += u64::from(decision.refused.is_some());
            match driver.act(decision.player, decision.action, NOW) {
                Err(e) => break Err(value_error(e)),
                Ok(step) => {
                    if let Some(s) = step.settlement {
                        break Ok(Some(s.payments));
                    }
                }
            }
        };
        self.refused += refused;
        self.journal.push(Call::PlayBots);
        result
    }

    /// The match log so far, as JSON lines (`majiang.replay` and `majiang replay` read it).
    fn log_jsonl(&self) -> String {
        self.driver().session().log().to_jsonl()
    }

    /// The settlement of the most recently finished hand (outcome, payments, ledger, next
    /// deal) as a dict, or `None` before the first hand ends.
    fn last_settlement(&self, py: Python<'_>) -> PyResult<PyObject> {
        let value = match self.driver().session().last_settlement() {
            None => return Ok(py.None()),
            Some(s) => serde_json::to_value(s).map_err(value_error)?,
        };
        to_py(py, &value)
    }
}

//! `Table`: one match through a [`Session`], stepped one action at a time from Python, with
//! the project's bots in any chairs. The PettingZoo and Gymnasium environments are built on it.

use crate::codec::{self, ACTIONS, TILE_KINDS};
use crate::convert::{options_map, to_py, value_error};
use majiang::bots::{self, Bot, observe_into};
use majiang::table::{Action, Observation, Player, Ruleset, Session};
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use std::sync::{Arc, Mutex};

/// Builds the rule set `rules` with `options`, with the command line's messages.
pub fn ruleset(rules: &str, options: Option<&Bound<'_, PyAny>>) -> PyResult<Arc<Ruleset>> {
    let map = options_map(options)?;
    Ruleset::from_name(rules, &map)
        .map(Arc::new)
        .map_err(value_error)
}

/// An empty observation to be filled by `observe_into`.
pub fn blank_observation(rules: &Arc<Ruleset>) -> PyResult<Observation> {
    let (game, _) = majiang::table::Game::new(rules.clone(), majiang::table::HandSetup::new(0))
        .map_err(value_error)?;
    Ok(game.observation(Player(0)))
}

/// Copies `data` into a writable, C-contiguous numpy array (or other buffer) of exactly its
/// size.
pub fn write_buffer<T: pyo3::buffer::Element + Copy>(
    py: Python<'_>,
    target: &Bound<'_, PyAny>,
    data: &[T],
    what: &str,
) -> PyResult<()> {
    let buf = PyBuffer::<T>::get(target)
        .map_err(|e| value_error(format!("{what}: not a suitable array: {e}")))?;
    if buf.item_count() != data.len() {
        return Err(value_error(format!(
            "{what}: expected {} elements, got {}",
            data.len(),
            buf.item_count()
        )));
    }
    buf.copy_from_slice(py, data)
        .map_err(|e| value_error(format!("{what}: {e}")))
}

/// One match in play: the engine's [`Session`], its rule set, and bots for some chairs.
///
/// Actions are numbers (see `majiang.ACTION_SPACE`): `legal(player)` lists them,
/// `observe(player, obs, mask)` writes the seat's observation planes and legal-action mask into
/// numpy arrays, `act(player, action)` plays one.
#[pyclass(module = "majiang._core")]
pub struct Table {
    session: Session,
    players: usize,
    /// Bots by chair (behind a mutex only so that the table may be shared between threads;
    /// every use goes through `&mut self`).
    bots: Mutex<Vec<Option<Box<dyn Bot>>>>,
    legal: Vec<Action>,
    obs: Observation,
    planes: Vec<u8>,
    mask: Vec<u8>,
}

impl Table {
    fn bots_mut(&mut self) -> &mut Vec<Option<Box<dyn Bot>>> {
        self.bots.get_mut().unwrap_or_else(|e| e.into_inner())
    }

    fn player(&self, player: usize) -> PyResult<Player> {
        if player < self.players {
            Ok(Player(player as u8))
        } else {
            Err(value_error(format!(
                "there is no player {player} at a table of {}",
                self.players
            )))
        }
    }

    /// Fills the reused observation buffers for `p`.
    fn encode(&mut self, p: Player) {
        let game = self.session.game();
        game.legal_actions_into(p, &mut self.legal);
        observe_into(game, p, &self.legal, &mut self.obs);
        codec::encode_observation(
            &self.obs,
            self.session.ruleset().seats(),
            &mut self.planes,
            &mut self.mask,
        );
    }

    /// Plays `action` for `p`; the hand's payments by chair if it ended the hand.
    fn play(&mut self, p: Player, action: Action) -> PyResult<Option<Vec<i64>>> {
        let step = self.session.act(p, action).map_err(value_error)?;
        Ok(step.settlement.map(|s| s.payments))
    }
}

#[pymethods]
impl Table {
    /// Table(rules, options=None, seed=0, hands=None)
    /// --
    ///
    /// A new match under `rules` (`hongkong`, `hangzhou`, `yangzhou`, `classic`) with house
    /// rules `options` (a dict, as `--option` takes them; classic's `players` sets the table
    /// size), every shuffle and die fixed by `seed`, at most `hands` hands if given.
    #[new]
    #[pyo3(signature = (rules, options=None, seed=0, hands=None))]
    fn new(
        rules: &str,
        options: Option<&Bound<'_, PyAny>>,
        seed: u64,
        hands: Option<u32>,
    ) -> PyResult<Table> {
        let ruleset = ruleset(rules, options)?;
        if hands == Some(0) {
            return Err(value_error("hands: a match plays at least one hand"));
        }
        let players = ruleset.players();
        let obs = blank_observation(&ruleset)?;
        let (session, _) = Session::new(ruleset, seed, hands).map_err(value_error)?;
        Ok(Table {
            session,
            players,
            bots: Mutex::new((0..players).map(|_| None).collect()),
            legal: Vec::with_capacity(32),
            obs,
            planes: vec![0; codec::planes(players) * TILE_KINDS],
            mask: vec![0; ACTIONS],
        })
    }

    /// Players at the table.
    #[getter]
    fn players(&self) -> usize {
        self.players
    }

    /// The rule set's name.
    #[getter]
    fn rules(&self) -> &'static str {
        self.session.ruleset().name()
    }

    /// Rows of an observation (`7 + 4 × players`; each row 42 tile kinds wide).
    #[getter]
    fn planes(&self) -> usize {
        codec::planes(self.players)
    }

    /// The number of the hand in play (from 1).
    #[getter]
    fn hand_number(&self) -> u32 {
        self.session.hand_number()
    }

    /// The first player who must decide now; `None` between hands and after the match.
    fn to_act(&self) -> Option<usize> {
        self.session.to_act().map(Player::index)
    }

    /// Every player who must decide now (several may answer a discard), lowest chair first.
    fn actors(&self) -> Vec<usize> {
        self.session.game().to_act().map(Player::index).collect()
    }

    /// True once the match has ended.
    fn is_over(&self) -> bool {
        self.session.is_over()
    }

    /// True when a hand has ended and the next must be dealt with `deal_next()`.
    fn awaiting_deal(&self) -> bool {
        self.session.awaiting_deal()
    }

    /// Deals the next hand (after a hand ended, while the match goes on).
    fn deal_next(&mut self) -> PyResult<()> {
        self.session.deal_next().map(|_| ()).map_err(value_error)
    }

    /// Chips per chair so far.
    fn ledger(&self) -> Vec<i64> {
        self.session.ledger().to_vec()
    }

    /// The legal actions of `player` now, as action numbers (empty: nothing to decide).
    fn legal(&mut self, player: usize) -> PyResult<Vec<usize>> {
        let p = self.player(player)?;
        self.session.game().legal_actions_into(p, &mut self.legal);
        Ok(self.legal.iter().filter_map(codec::encode_action).collect())
    }

    /// The legal actions of `player` now as the engine writes them in JSON (`{"discard":
    /// "5m"}`, `"pung"`, ...): the ground truth the action numbers encode.
    fn legal_json(&self, player: usize) -> PyResult<Vec<String>> {
        let p = self.player(player)?;
        self.session
            .legal_actions(p)
            .iter()
            .map(|a| serde_json::to_string(a).map_err(value_error))
            .collect()
    }

    /// observe(player, obs, mask)
    /// --
    ///
    /// Writes what `player` may see into `obs` (a C-contiguous `uint8` array of
    /// `planes × 42`) and their legal actions into `mask` (`uint8`, `ACTION_SPACE` long).
    fn observe(
        &mut self,
        py: Python<'_>,
        player: usize,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let p = self.player(player)?;
        self.encode(p);
        write_buffer(py, obs, &self.planes, "obs")?;
        write_buffer(py, mask, &self.mask, "mask")
    }

    /// The engine's `Observation` of `player` as JSON text: exactly what the observation
    /// planes are built from.
    fn observation_json(&self, player: usize) -> PyResult<String> {
        let p = self.player(player)?;
        serde_json::to_string(&self.session.observation(p)).map_err(value_error)
    }

    /// act(player, action)
    /// --
    ///
    /// Plays action number `action` for `player`. Returns the hand's payments by chair when it
    /// ended the hand, else `None`. A refused action raises `ValueError` with the engine's
    /// reason and changes nothing.
    fn act(&mut self, player: usize, action: usize) -> PyResult<Option<Vec<i64>>> {
        let p = self.player(player)?;
        let a = codec::decode_action(action)
            .ok_or_else(|| value_error(format!("{action} is not an action number")))?;
        self.play(p, a)
    }

    /// set_bot(player, name, seed=0)
    /// --
    ///
    /// Lets the project's bot `name` (a level, `easy`, `normal` or `hard`, or a bot's own name:
    /// `random`, `efficient`, `expert`, `aggressive`) play chair `player` (seeded with `seed`);
    /// `None` gives the chair back to the caller.
    #[pyo3(signature = (player, name, seed=0))]
    fn set_bot(&mut self, player: usize, name: Option<&str>, seed: u64) -> PyResult<()> {
        let p = self.player(player)?;
        let bot = match name {
            None => None,
            Some(n) => Some(bots::by_name(n, self.session.ruleset(), seed).map_err(value_error)?),
        };
        self.bots_mut()[p.index()] = bot;
        Ok(())
    }

    /// Lets the bots play until a chair without a bot must decide, a hand ends or the match
    /// ends. Returns the payments by chair of the hand that ended, if one did.
    fn play_bots(&mut self) -> PyResult<Option<Vec<i64>>> {
        while let Some(p) = self.session.to_act() {
            let bots = self.bots.get_mut().unwrap_or_else(|e| e.into_inner());
            let Some(bot) = bots[p.index()].as_mut() else {
                return Ok(None);
            };
            let game = self.session.game();
            game.legal_actions_into(p, &mut self.legal);
            if bot.needs_observation() {
                observe_into(game, p, &self.legal, &mut self.obs);
            }
            let action = bot.act(&self.obs, &self.legal);
            if let Some(payments) = self.play(p, action)? {
                return Ok(Some(payments));
            }
        }
        Ok(None)
    }

    /// The match log so far, as JSON lines (`majiang.replay` and `majiang replay` read it).
    fn log_jsonl(&self) -> String {
        self.session.log().to_jsonl()
    }

    /// The settlement of the most recently finished hand (outcome, payments, ledger, next
    /// deal) as a dict, or `None` before the first hand ends.
    fn last_settlement(&self, py: Python<'_>) -> PyResult<PyObject> {
        match self.session.last_settlement() {
            None => Ok(py.None()),
            Some(s) => to_py(py, &serde_json::to_value(s).map_err(value_error)?),
        }
    }
}

/// encode_observation_json(observation, seats)
/// --
///
/// Encodes an engine `Observation` given as JSON text (from `Table.observation_json`) into
/// planes and mask, as `Table.observe` does: for checking that the planes come from that
/// seat's observation alone. `rules` names the rule set (for the seat order).
#[pyfunction]
#[pyo3(signature = (observation, rules, options=None))]
pub fn encode_observation_json(
    observation: &str,
    rules: &str,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Vec<u8>, Vec<u8>)> {
    let ruleset = ruleset(rules, options)?;
    let obs: Observation = serde_json::from_str(observation).map_err(value_error)?;
    let n = obs.table.len();
    if n != ruleset.players() {
        return Err(value_error(format!(
            "the observation has {n} players, the rules seat {}",
            ruleset.players()
        )));
    }
    let mut planes = vec![0; codec::planes(n) * TILE_KINDS];
    let mut mask = vec![0; ACTIONS];
    codec::encode_observation(&obs, ruleset.seats(), &mut planes, &mut mask);
    Ok((planes, mask))
}

/// decode_action(action)
/// --
///
/// The engine action of number `action` as JSON text (`{"discard":"5m"}`, `"pass"`), or
/// `None` if the number names no action.
#[pyfunction]
pub fn decode_action(action: usize) -> Option<String> {
    codec::decode_action(action).and_then(|a| serde_json::to_string(&a).ok())
}

/// action_name(action)
/// --
///
/// A readable name of action number `action` (`"discard 5m"`, `"chow 345p"`, `"pass"`).
#[pyfunction]
pub fn action_name(action: usize) -> PyResult<String> {
    codec::decode_action(action)
        .map(|a| a.to_string())
        .ok_or_else(|| value_error(format!("{action} is not an action number")))
}

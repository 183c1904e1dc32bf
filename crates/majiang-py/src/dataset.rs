//! Datasets for imitation learning: the project's bots playing every chair, each decision
//! recorded as the acting seat's observation planes, legal-action mask and chosen action
//! number, with the hand's payment to that seat.

use crate::codec::{self, ActionLayout, TILE_KINDS};
use crate::convert::{seed_or_random, value_error};
use crate::layout::{blank_observation, ruleset};
use crate::vector::mix;
use majiang::bots::{self, observe_into};
use majiang::driver::{Controller, Driver, Poll, Timers};
use majiang::table::{Action, Session};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

/// The most hands one call records.
const MAX_HANDS: u32 = 100_000;

/// `record_selfplay`'s `hands` argument (its range is checked with the call).
fn record_hands_arg(value: &Bound<'_, PyAny>) -> PyResult<u32> {
    let v = crate::convert::count_arg(value, "hands")?;
    u32::try_from(v)
        .map_err(|_| value_error(format!("hands: {v} is not between 1 and {MAX_HANDS}")))
}

/// Plays `hands` one-hand matches under `rules` (with `options`), bot `bot` (a level or a
/// bot's name) in every chair, through the seat driver; hand `h` is dealt from a seed mixed
/// from `seed` and `h`. Returns a dict: `obs` (bytes, decisions × planes × 42 uint8), `mask`
/// (bytes, decisions × action_space, 0/1), `action`, `chair`, `hand` and `reward` (lists, one
/// per decision: the action number, the deciding chair, the hand's index, the hand's payment
/// to that chair), `planes` and `action_space`.
#[pyfunction]
#[pyo3(signature = (rules, bot = "normal", hands = 100, seed = None, options = None))]
pub fn record_selfplay<'py>(
    py: Python<'py>,
    rules: &str,
    bot: &str,
    #[pyo3(from_py_with = record_hands_arg)] hands: u32,
    seed: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let seed = seed_or_random(seed)?;
    if !(1..=MAX_HANDS).contains(&hands) {
        return Err(value_error(format!(
            "hands: {hands} is not between 1 and {MAX_HANDS}"
        )));
    }
    let ruleset = ruleset(rules, options)?;
    let players = ruleset.players();
    let layout = ActionLayout::new(ruleset.config());
    let size = codec::planes(players) * TILE_KINDS;
    let mut obs = blank_observation(&ruleset)?;
    let (mut planes, mut mask) = (vec![0u8; size], vec![0u8; layout.actions()]);
    let mut out_planes: Vec<u8> = Vec::new();
    let mut out_mask: Vec<u8> = Vec::new();
    let (mut actions, mut chairs, mut hand_ids, mut rewards) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::<i64>::new());
    let mut legal: Vec<Action> = Vec::new();
    for h in 0..hands {
        let hand_seed = mix(seed ^ mix(u64::from(h)));
        let (session, _) =
            Session::new(ruleset.clone(), hand_seed, Some(1)).map_err(value_error)?;
        let controllers = (0..players)
            .map(|c| {
                bots::by_name(bot, &ruleset, mix(hand_seed ^ (c as u64 + 1)))
                    .map(Controller::Bot)
                    .map_err(|e| value_error(format!("bot: {e}")))
            })
            .collect::<PyResult<Vec<_>>>()?;
        let mut driver =
            Driver::new(session, controllers, Timers::default()).map_err(value_error)?;
        let first = actions.len();
        let mut payments = None;
        while let Poll::Act(d) = driver.poll(0) {
            let game = driver.session().game();
            game.legal_actions_into(d.player, &mut legal);
            observe_into(game, d.player, &legal, &mut obs);
            codec::encode_observation(&obs, ruleset.seats(), &layout, &mut planes, &mut mask);
            let Some(code) = layout.encode(&d.action) else {
                return Err(value_error(format!(
                    "the bot played {:?}, which has no action number",
                    d.action
                )));
            };
            out_planes.extend_from_slice(&planes);
            out_mask.extend_from_slice(&mask);
            actions.push(code as i64);
            chairs.push(d.player.index() as i64);
            hand_ids.push(i64::from(h));
            let step = driver.act(d.player, d.action, 0).map_err(value_error)?;
            if let Some(s) = step.settlement {
                payments = Some(s.payments);
            }
        }
        let payments = payments.unwrap_or_else(|| vec![0; players]);
        for &chair in &chairs[first..] {
            rewards.push(payments[chair as usize]);
        }
    }
    let dict = PyDict::new(py);
    dict.set_item("obs", PyBytes::new(py, &out_planes))?;
    dict.set_item("mask", PyBytes::new(py, &out_mask))?;
    dict.set_item("action", actions)?;
    dict.set_item("chair", chairs)?;
    dict.set_item("hand", hand_ids)?;
    dict.set_item("reward", rewards)?;
    dict.set_item("planes", codec::planes(players))?;
    dict.set_item("action_space", layout.actions())?;
    Ok(dict)
}

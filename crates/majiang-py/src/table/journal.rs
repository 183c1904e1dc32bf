//! The calls that changed a `Table` since its match was dealt: pickling writes them down and
//! unpickling replays them on a table made as the original was.

use crate::convert::value_error;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// A call that changed a table since it was made (or restarted): replayed in order on a new
/// table of the same rules, options, seed and hand limit, they rebuild the same state (every
/// deal, bot and die is fixed by seeds), which is how a table is pickled.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Call {
    /// `act(player, action number)`.
    Act(u8, u32),
    /// `set_bot(player, name, seed)`.
    SetBot(u8, Option<String>, u64),
    /// `play_bots()`.
    PlayBots,
    /// `deal_next()`.
    DealNext,
}

impl Call {
    /// The call as a tuple of plain values (pickle's state).
    pub(super) fn to_tuple<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        match self {
            Call::Act(p, a) => PyTuple::new(py, [0u64, u64::from(*p), u64::from(*a)]),
            Call::SetBot(p, name, seed) => {
                (1u64, u64::from(*p), name.clone(), *seed).into_pyobject(py)
            }
            Call::PlayBots => PyTuple::new(py, [2u64]),
            Call::DealNext => PyTuple::new(py, [3u64]),
        }
    }

    /// A call read back from [`Call::to_tuple`]'s tuple.
    pub(super) fn from_tuple(t: &Bound<'_, PyAny>) -> PyResult<Call> {
        let bad = || value_error("state: not a Table's pickled calls");
        let kind: u64 = t.get_item(0).and_then(|k| k.extract()).map_err(|_| bad())?;
        let int = |i: usize| -> PyResult<u64> {
            t.get_item(i).and_then(|v| v.extract()).map_err(|_| bad())
        };
        let small = |i: usize| -> PyResult<u8> { u8::try_from(int(i)?).map_err(|_| bad()) };
        Ok(match kind {
            0 => Call::Act(small(1)?, u32::try_from(int(2)?).map_err(|_| bad())?),
            1 => Call::SetBot(
                small(1)?,
                t.get_item(2).and_then(|v| v.extract()).map_err(|_| bad())?,
                int(3)?,
            ),
            2 => Call::PlayBots,
            3 => Call::DealNext,
            _ => return Err(bad()),
        })
    }
}

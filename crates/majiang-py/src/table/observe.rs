//! A seat's observation written into the caller's arrays: copied into the arrays given
//! (`Table.observe`), or into arrays bound once and refilled in place (`Table.bind_observation`,
//! `Table.observe_bound`).

use super::Table;
use crate::codec::{self, ActionLayout};
use crate::convert::value_error;
use crate::slices::slice_of;
use crate::view::GameView;
use majiang::driver::Driver;
use majiang::table::{Action, Player};
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use std::sync::Mutex;

/// Copies `data` into a writable, C-contiguous numpy array (or other buffer) of exactly its
/// size.
pub(super) fn write_buffer<T: pyo3::buffer::Element + Copy>(
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

/// The buffer of `target`, checked to be a writable, C-contiguous array of `len` bytes.
fn bindable(target: &Bound<'_, PyAny>, len: usize, what: &str) -> PyResult<PyBuffer<u8>> {
    let buf = PyBuffer::<u8>::get(target)
        .map_err(|e| value_error(format!("{what}: not a suitable array: {e}")))?;
    if buf.readonly() || !buf.is_c_contiguous() || buf.item_count() != len {
        return Err(value_error(format!(
            "{what}: needs a writable C-contiguous array of {len} one-byte elements"
        )));
    }
    Ok(buf)
}

/// Writes what `p` may see and their legal-action mask into `planes` and `mask` (`legal` the
/// reused list of legal actions).
fn encode_seat(
    driver: &mut Mutex<Driver>,
    legal: &mut Vec<Action>,
    layout: &ActionLayout,
    p: Player,
    planes: &mut [u8],
    mask: &mut [u8],
) {
    let driver = driver.get_mut().unwrap_or_else(|e| e.into_inner());
    let session = driver.session();
    let game = session.game();
    game.legal_actions_into(p, legal);
    let view = GameView {
        game,
        player: p,
        legal,
        discard_rows: None,
    };
    codec::encode(&view, session.ruleset().seats(), layout, planes, mask);
}

/// A chair's observation arrays bound by `bind_observation`.
pub(super) struct BoundArrays {
    obs: PyBuffer<u8>,
    mask: PyBuffer<u8>,
    /// The two share no memory: `observe_bound` writes into them directly (otherwise it
    /// encodes into the table's own buffers and copies).
    apart: bool,
}

impl Table {
    /// Fills the reused observation buffers for `p`.
    pub(super) fn encode(&mut self, p: Player) {
        encode_seat(
            &mut self.driver,
            &mut self.legal,
            &self.layout,
            p,
            &mut self.planes,
            &mut self.mask,
        );
    }

    /// Binds `obs` and `mask` as the observation arrays of `p` (`Table.bind_observation`).
    pub(super) fn bind(
        &mut self,
        p: Player,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let obs = bindable(obs, self.planes.len(), "obs")?;
        let mask = bindable(mask, self.mask.len(), "mask")?;
        let start = |b: &PyBuffer<u8>| b.buf_ptr() as usize;
        let apart = start(&obs) + obs.item_count() <= start(&mask)
            || start(&mask) + mask.item_count() <= start(&obs);
        self.bound[p.index()] = Some(BoundArrays { obs, mask, apart });
        Ok(())
    }

    /// Writes what `p` may see and their legal actions into the arrays bound for them
    /// (`Table.observe_bound`).
    pub(super) fn observe_into_bound(&mut self, py: Python<'_>, p: Player) -> PyResult<()> {
        if self.bound[p.index()].is_none() {
            return Err(value_error(format!(
                "player: no arrays bound for player {} (call bind_observation first)",
                p.index()
            )));
        }
        let Table {
            driver,
            legal,
            layout,
            planes,
            mask,
            bound,
            ..
        } = self;
        let Some(arrays) = &bound[p.index()] else {
            return Ok(());
        };
        if arrays.apart {
            // SAFETY: `bindable` checked both arrays writable, C-contiguous and of their sizes,
            // `bind_observation` found them apart, and the GIL is held for this whole call.
            let (obs_out, mask_out) =
                unsafe { (slice_of(&arrays.obs, py), slice_of(&arrays.mask, py)) };
            encode_seat(driver, legal, layout, p, obs_out, mask_out);
        } else {
            encode_seat(driver, legal, layout, p, planes, mask);
            arrays
                .obs
                .copy_from_slice(py, planes)
                .map_err(|e| value_error(format!("obs: {e}")))?;
            arrays
                .mask
                .copy_from_slice(py, mask)
                .map_err(|e| value_error(format!("mask: {e}")))?;
        }
        Ok(())
    }
}

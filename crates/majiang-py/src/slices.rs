//! Python buffers (numpy arrays) as Rust slices, shared by `Table` and `VectorEnv`.

use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;

/// The memory of `buf` as a mutable slice, for the duration of one call.
///
/// Sound because the buffer was checked to be writable, C-contiguous and of `item_count`
/// elements of `T` (`vector::buffer`; for `Table`, `table::bindable`); no two of a call's
/// slices overlap (`vector::Buffers::borrow`; for `Table`, the arrays `bind_observation` found
/// apart); the `PyBuffer` keeps the exporter's memory alive and unmoved while it lives; and
/// the GIL, held for the whole call (no Python code runs while the slice lives), keeps anyone
/// else from touching it.
pub(crate) fn slice_of<'a, T: pyo3::buffer::Element>(
    buf: &'a PyBuffer<T>,
    _py: Python<'a>,
) -> &'a mut [T] {
    // SAFETY: see above.
    unsafe { std::slice::from_raw_parts_mut(buf.buf_ptr().cast::<T>(), buf.item_count()) }
}

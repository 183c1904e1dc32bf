//! Python buffers (numpy arrays) as Rust slices, shared by `Table` and `VectorEnv`.

use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;

/// The memory of `buf` as a mutable slice, for the duration of one call.
///
/// # Safety
///
/// For as long as the slice lives, the caller guarantees that:
/// - `buf` was checked to be writable, C-contiguous and of `item_count` elements of `T`
///   (`vector::buffer`; for `Table`, `table::observe::bindable`);
/// - no other slice or reference into the same memory is alive (a call's slices are apart:
///   `vector::Buffers::borrow` checks the spans; for `Table`, `bind_observation` found the
///   arrays apart);
/// - nothing else reads or writes that memory: the GIL is held throughout, or, where it is
///   released (`VectorEnv.step` steps the tables without it), the Python caller keeps its other
///   threads off these arrays until the call returns — the same contract numpy's own functions
///   that release the GIL make (documented on `VectorEnv.step`).
///
/// The `PyBuffer` keeps the exporter's memory alive and unmoved while it lives.
pub(crate) unsafe fn slice_of<'a, T: pyo3::buffer::Element>(
    buf: &'a PyBuffer<T>,
    _py: Python<'a>,
) -> &'a mut [T] {
    // SAFETY: the caller's guarantees above: valid, writable, unaliased memory of
    // `item_count` elements of `T` for the slice's lifetime.
    unsafe { std::slice::from_raw_parts_mut(buf.buf_ptr().cast::<T>(), buf.item_count()) }
}

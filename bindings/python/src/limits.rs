//! The bounds every call checks its arguments against, kept in one place
//! and given to Python as module constants (`MAX_THREADS`,
//! `MAX_THREADS_A_CORE`, `MAX_PLAYOUTS`, `MAX_TIME_LIMIT`) so that the
//! Python side refuses bad values when an environment is made, not at its
//! first step.
//!
//! The thread bounds are the library's (`retrograde::host`), as
//! the command line's `--threads` takes them; `python/tests/test_errors.py`
//! checks them against the binary's (its refusal of 4097, its note's cap
//! for 4096).

use std::ffi::CString;

use pyo3::exceptions::{PyRuntimeWarning, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBool;
use retrograde::facade::MAX_TIME_LIMIT;

use retrograde::{
    engines::mcts::MAX_PLAYOUTS,
    host::{worker_threads, ThreadCap},
};

pub use retrograde::host::{MAX_THREADS, MAX_THREADS_A_CORE};

/// `value` as a thread count from 1 to [`MAX_THREADS`]: a `TypeError` for
/// anything but a whole number (an int or what has `__index__`, such as
/// numpy's integers; not a bool), a `ValueError` naming the range for one
/// outside it.
fn thread_count(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    if !value.hasattr("__index__")? || value.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "threads is a whole number from 1 to {MAX_THREADS} (None: every core), not {}",
            value.repr()?
        )));
    }
    value
        .extract::<u64>()
        .ok()
        .and_then(|n| usize::try_from(n).ok())
        .filter(|n| (1..=MAX_THREADS).contains(n))
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "threads must be from 1 to {MAX_THREADS} (None: every core), not {value}"
            ))
        })
}

/// The worker threads a call runs on: `threads` checked by
/// [`thread_count`] and then, as the command line does, capped at
/// [`MAX_THREADS_A_CORE`] a core (a `RuntimeWarning` says so); every core
/// when `None`. Never more than `MAX_THREADS_A_CORE` × cores.
pub fn threads(py: Python<'_>, threads: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    let asked = threads.map(thread_count).transpose()?;
    let (threads, capped) = worker_threads(asked);
    if let Some(ThreadCap { asked, cap, cores }) = capped {
        let note = CString::new(format!(
            "threads={asked} is capped at {cap}, {MAX_THREADS_A_CORE} a core on this machine's {cores}"
        ))
        .expect("the note has no NUL");
        PyErr::warn(py, &py.get_type::<PyRuntimeWarning>(), &note, 1)?;
    }
    Ok(threads)
}

/// Adds the bounds to the module as constants.
pub fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MAX_THREADS", MAX_THREADS)?;
    m.add("MAX_THREADS_A_CORE", MAX_THREADS_A_CORE)?;
    m.add("MAX_PLAYOUTS", MAX_PLAYOUTS)?;
    m.add("MAX_TIME_LIMIT", MAX_TIME_LIMIT)?;
    Ok(())
}

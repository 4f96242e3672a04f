//! Long calls from Python: the work runs on a scoped worker thread while
//! the calling thread, without the GIL, waits for it and every 50 ms takes
//! the GIL back to let Python look at its signals. A Ctrl-C (or any signal
//! handler that raises) sets the work's cancel flag and, once the work has
//! stopped, is raised in Python in place of the result.
//!
//! Searches stop on the flag through their clock, solves between their
//! steps (`Analyzer::solve_cancellable`): the library stops; this module
//! only waits, watches the signals and raises.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often the waiting thread looks at Python's signals.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// Runs `work(cancel)` on a worker thread, returning its result, or the
/// exception a signal handler raised (the work cancelled and finished
/// first). `work` must stop soon after `cancel` is set.
pub fn run<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> PyResult<T> + Send,
) -> PyResult<T> {
    let cancel = AtomicBool::new(false);
    let (sender, mut receiver) = mpsc::channel();
    std::thread::scope(|scope| {
        let cancel = &cancel;
        scope.spawn(move || {
            let outcome = catch_unwind(AssertUnwindSafe(|| work(cancel)));
            let _ = sender.send(outcome);
        });
        let mut raised: Option<PyErr> = None;
        loop {
            // the receiver goes with the wait and comes back (it is Send,
            // not Sync)
            let (got, back) = py.detach(move || {
                let got = receiver.recv_timeout(SIGNAL_CHECK);
                (got, receiver)
            });
            receiver = back;
            match got {
                Ok(Ok(result)) => return raised.map_or(result, Err),
                Ok(Err(payload)) => resume_unwind(payload),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err(
                        "the worker thread ended without a result",
                    ))
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if raised.is_none() {
                        if let Err(error) = py.check_signals() {
                            cancel.store(true, Relaxed);
                            raised = Some(error);
                        }
                    }
                }
            }
        }
    })
}

//! The library's errors as Python exceptions: a bad argument or position is
//! a `ValueError`; a refusal for memory a `BudgetError` (a `MemoryError`);
//! a damaged or foreign table file a `TableFileError` (an `OSError`); any
//! other file problem an `OSError` with its errno; a search or solve past
//! its time a `TimeoutError`.

use pyo3::create_exception;
use pyo3::exceptions::{PyMemoryError, PyOSError, PyRuntimeError, PyTimeoutError, PyValueError};
use pyo3::prelude::*;
use retrograde::{Error, Setting};

create_exception!(
    _native,
    BudgetError,
    PyMemoryError,
    "A solve or table refused because it would not fit the memory budget (max_memory)."
);
create_exception!(
    _native,
    TableFileError,
    PyOSError,
    "A table file that is damaged, of another format, or of another game."
);

/// Adds the exception classes to the module.
pub fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("BudgetError", m.py().get_type::<BudgetError>())?;
    m.add("TableFileError", m.py().get_type::<TableFileError>())?;
    Ok(())
}

/// The keyword argument that sets `setting` in Python, with `value` if one
/// is given (`method="threats"`).
pub fn keyword(setting: Setting, value: Option<&str>) -> String {
    let name = match setting {
        Setting::MaxMemory => "max_memory",
        Setting::TimeLimit => "time_limit",
        Setting::Method => "method",
        Setting::After => "after",
        Setting::Proof => "proof",
        Setting::Checkpoint => "checkpoint",
        Setting::MergeCheckpoint => "merge_checkpoint",
        Setting::CheckpointEvery => "checkpoint_every",
        Setting::ReportEvery => "report_every",
        Setting::MaxStones => "max_stones",
        Setting::ZoneMoves => "zone_moves",
        Setting::Covers => "covers",
        Setting::DefenderRuns => "defender_runs",
        Setting::Vct => "vct",
        Setting::Engine => "engine",
        Setting::Encoding => "encoding",
        Setting::LargestNumber => "max",
        Setting::MaxTake => "max_take",
        Setting::Playouts => "playouts",
        Setting::Exploration => "exploration",
        // switches: given, they are true
        Setting::CountOnly => return "count_only=True".into(),
        Setting::Force => return "force=True".into(),
        Setting::ReplaceAnyFile => return "replace_any_file=True".into(),
    };
    match value {
        Some(value) => format!("{name}={value:?}"),
        None => format!("{name}="),
    }
}

/// The Python exception for a library error, the settings it refers to
/// named as keyword arguments ([`keyword`]).
pub fn to_py(error: Error) -> PyErr {
    let text = error.render(keyword);
    match error {
        Error::InvalidInput(_) | Error::Setting { .. } | Error::Refused { .. } => {
            PyValueError::new_err(text)
        }
        Error::OverMemoryBudget { .. }
        | Error::ProjectedOverBudget { .. }
        | Error::StoreFull { .. }
        | Error::TooManyStates { .. } => BudgetError::new_err(text),
        Error::BadTableFile { .. } => TableFileError::new_err(text),
        Error::Io { cause, .. } | Error::CannotRead { cause, .. } => match cause.raw_os_error() {
            Some(errno) => PyOSError::new_err((errno, text)),
            None => PyOSError::new_err(text),
        },
        Error::OutOfTime(_) => PyTimeoutError::new_err(text),
        Error::ThreadPool(_) | Error::Cancelled(_) => PyRuntimeError::new_err(text),
    }
}

/// `Result<T, Error>` into `PyResult<T>`.
pub trait IntoPy<T> {
    /// The result with its error as a Python exception.
    fn py_err(self) -> PyResult<T>;
}

impl<T> IntoPy<T> for retrograde::Result<T> {
    fn py_err(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}

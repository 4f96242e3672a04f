//! The table file of a game of one's own opened from Python without its
//! rules ([`open_own_table`]): a game written in Rust (its own program
//! wrote the table) answered by key, for the Python side of a project —
//! training data, analysis. The file is checked for damage, not certified
//! (the rules live in the Rust program, whose `query FILE --check`
//! certifies it).

use std::path::PathBuf;

use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use retrograde::own::{open_stored, StoredTable};

use crate::errors::IntoPy;
use crate::own::counts_dict;
use crate::table::budget;

/// A table of a game of one's own, opened without its rules.
#[pyclass(module = "retrograde._native", frozen)]
pub struct OwnTable {
    stored: StoredTable,
}

/// Opens the table a game of one's own saved at `path` (its program's
/// `solve --out`, or `retrograde::own::save`), read whole within
/// `max_memory`. A `TableFileError` for a damaged file or one that is not
/// such a table. The table is checked for damage (its checksum and form),
/// not certified against the rules: the program that defines them does
/// that (`PROGRAM query FILE --check`).
#[pyfunction]
#[pyo3(signature = (path, *, max_memory=None))]
pub fn open_own_table(
    py: Python<'_>,
    path: PathBuf,
    max_memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<OwnTable> {
    let budget = budget(max_memory)?;
    let stored = py.detach(|| open_stored(&path, &budget)).py_err()?;
    Ok(OwnTable { stored })
}

#[pymethods]
impl OwnTable {
    /// The game's name, as the file gives it.
    #[getter]
    fn name(&self) -> String {
        self.stored.name.clone()
    }

    /// Positions the start reaches.
    #[getter]
    fn positions(&self) -> u64 {
        self.stored.positions()
    }

    /// Distinct moves of the positions in play.
    #[getter]
    fn moves(&self) -> u64 {
        self.stored.moves
    }

    /// Whether positions are looked up by their rank (the rules gave a
    /// dense rank) rather than by their key.
    #[getter]
    fn by_rank(&self) -> bool {
        self.stored.by_rank()
    }

    /// `{"win": …, "loss": …, "draw": …}`: positions by their value for
    /// the player to move.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        counts_dict(py, self.stored.counts())
    }

    /// Positions first reached at each ply from the start, as
    /// `(positions, ended)` pairs.
    fn plies(&self) -> Vec<(u64, u64)> {
        self.stored
            .plies
            .iter()
            .map(|p| (p.positions, p.ended))
            .collect()
    }

    /// `(value, depth)` for the player to move of the position whose key
    /// (an `int`: the canonical form's, as the rules pack it; its rank
    /// for a table by rank) is `key`: `"win"`, `"loss"` or `"draw"`, and
    /// the plies to the end (`None` for a draw). A `KeyError` for a key the
    /// table does not hold.
    fn value(&self, key: u128) -> PyResult<(String, Option<u32>)> {
        match self.stored.value(key) {
            Some((value, depth)) => Ok((value.name().to_string(), depth)),
            None => Err(PyKeyError::new_err(format!(
                "{key:#x} is not a position of {} the start reaches (keys are canonical forms)",
                self.stored.name
            ))),
        }
    }

    /// Whether the table holds the position with key `key`.
    fn __contains__(&self, key: u128) -> bool {
        self.stored.state_of(key).is_some()
    }

    fn __len__(&self) -> usize {
        self.stored.positions() as usize
    }
}

//! [`Searcher`]: positions of one board answered by search (the engine and
//! table of `retrograde search`), for boards beyond a table's reach; one
//! transposition table serves every position asked of it.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use retrograde::{
    engines::search::Precision,
    facade::{checked_seconds, PositionSearcher, Question},
    language::MoveDetail,
    Analyzer, PositionAnswer, Setting,
};

use crate::answer::{best_actions, to_dict};
use crate::errors::IntoPy;
use crate::game::{board, position_of};
use crate::interrupt;
use crate::limits;
use crate::table::budget;

/// A search for the positions of one board.
#[pyclass(module = "retrograde._native", frozen)]
pub struct Searcher {
    analyzer: Analyzer,
    inner: PositionSearcher<'static>,
}

impl Searcher {
    /// The answer for `obj` within `time_limit` seconds, by the facade's
    /// cascade (`retrograde::Analyzer::answer`); `None` when its value was
    /// not proved in time.
    fn search(
        &self,
        py: Python<'_>,
        obj: &Bound<'_, PyAny>,
        time_limit: Option<f64>,
        precision: Precision,
        detail: MoveDetail,
    ) -> PyResult<Option<PositionAnswer>> {
        let p = position_of(self.inner.game(), obj)?;
        let limit = checked_seconds(Setting::TimeLimit, time_limit).py_err()?;
        interrupt::run(py, |cancel| {
            let question = Question {
                position: p,
                precision,
                detail,
                time_limit: limit,
                cancel: Some(cancel),
                best_so_far: false,
            };
            let report = self
                .analyzer
                .answer(self.inner.game(), None, Some(&self.inner), &question)
                .py_err()?;
            Ok(report.answer.filter(PositionAnswer::proved))
        })
    }
}

#[pymethods]
impl Searcher {
    /// A searcher for `family` (`"connect"` or `"mnk"`) on `cols × rows`
    /// with `k` in a row, its table within `max_memory`, searching on
    /// `threads` workers (1 to `MAX_THREADS`, at most `MAX_THREADS_A_CORE`
    /// a core: [`limits::threads`]).
    #[new]
    #[pyo3(signature = (family, cols, rows, k=None, *, threads=None, max_memory=None))]
    fn new(
        py: Python<'_>,
        family: &str,
        cols: u32,
        rows: u32,
        k: Option<u32>,
        threads: Option<&Bound<'_, PyAny>>,
        max_memory: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let game = board(family, cols, rows, k)?;
        let budget = budget(max_memory)?;
        let analyzer = Analyzer::new(budget, limits::threads(py, threads)?);
        Ok(Self {
            inner: analyzer.searcher(&game, 0).py_err()?,
            analyzer,
        })
    }

    /// The answer for a position (a `Game` or a move list) in the shape of
    /// `retrograde search … --json`: with `all_moves` every legal move's
    /// value, else one best move; with `weak` values without depths
    /// (faster). `None` if not proved within `time_limit` seconds.
    /// Releases the GIL; Ctrl-C stops the search.
    #[pyo3(signature = (position, *, time_limit=None, weak=false, all_moves=true))]
    fn answer<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        time_limit: Option<f64>,
        weak: bool,
        all_moves: bool,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let precision = if weak {
            Precision::Weak
        } else {
            Precision::Exact
        };
        let detail = if all_moves {
            MoveDetail::All
        } else {
            MoveDetail::Best
        };
        self.search(py, position, time_limit, precision, detail)?
            .map(|a| to_dict(py, &a))
            .transpose()
    }

    /// The actions that keep the value of a position in play, proved by a
    /// weak search of every move (with `all_moves=False`, one such action,
    /// proved by a search that stops at the first), or `None` if not
    /// proved within `time_limit` seconds.
    #[pyo3(signature = (position, *, time_limit=None, all_moves=true))]
    fn best_actions(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        time_limit: Option<f64>,
        all_moves: bool,
    ) -> PyResult<Option<Vec<u32>>> {
        let detail = if all_moves {
            MoveDetail::All
        } else {
            MoveDetail::Best
        };
        match self.search(py, position, time_limit, Precision::Weak, detail)? {
            Some(a) => Ok(Some(best_actions(self.inner.game(), &a)?)),
            None => Ok(None),
        }
    }
}

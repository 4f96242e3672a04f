//! [`Table`]: a solved board — fresh from [`solve`] or opened from a file
//! with [`open_table`] — that answers any position of its board with every
//! move's value, and reports its counts as `retrograde connect|mnk --json`
//! does.

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyModule};
use retrograde::{
    disk::{
        check_table_output, save, SavedGame, SavedTable, SolvedSets, SymbolicSets, SymbolicTable,
    },
    engines::symbolic::SymbolicSolution,
    facade::{gravity_summary, symbolic_summary, MnkSummary, WholeTable},
    games::mnk::Mnk,
    host::{parse_size, Budget, Bytes, Silent},
    language::{answer, BoardGame, Oracle},
    Analyzer, BoardSize, OpenTable, PositionAnswer,
};

use crate::answer::{best_actions, to_dict};
use crate::errors::IntoPy;
use crate::game::{board, family_name, position_of};
use crate::interrupt;
use crate::limits;

/// The memory budget: `max_memory` as bytes (an int) or a size such as
/// `"8GiB"`; by default 80% of what the machine can give.
pub fn budget(max_memory: Option<&Bound<'_, PyAny>>) -> PyResult<Budget> {
    let Some(value) = max_memory else {
        return Ok(Budget::default_for_machine());
    };
    if let Ok(bytes) = value.extract::<u64>() {
        return Ok(Budget(Bytes(bytes)));
    }
    if let Ok(text) = value.extract::<String>() {
        return parse_size(&text).map(Budget).map_err(PyValueError::new_err);
    }
    Err(PyValueError::new_err(
        "max_memory is a number of bytes or a size such as \"8GiB\"",
    ))
}

/// What a [`Table`] holds.
enum Held {
    /// A table opened from a file.
    Open(OpenTable),
    /// A fresh solve: its game and table as `--out` would save them.
    Solved(SavedGame, SavedTable),
    /// A fresh solve by the symbolic engine (the facade handed the board
    /// over): each ply's sets and the run's report; values, no depths.
    Symbolic(Box<SolvedSets>, SymbolicSolution),
}

/// A solved board game.
#[pyclass(module = "retrograde._native", frozen)]
pub struct Table {
    board: BoardGame,
    held: Held,
}

impl Table {
    /// The table as a source of values.
    fn oracle(&self) -> Box<dyn Oracle + '_> {
        match &self.held {
            Held::Open(open) => open.oracle().expect("a board table has an oracle"),
            Held::Solved(_, table) => table.oracle().expect("solve keeps board tables"),
            Held::Symbolic(sets, _) => Box::new(SymbolicTable(sets.as_ref())),
        }
    }

    /// The answer for the position `obj` names.
    fn answer_of(&self, obj: &Bound<'_, PyAny>) -> PyResult<PositionAnswer> {
        let p = position_of(&self.board, obj)?;
        self.board.check(&p).py_err()?;
        answer(&self.board, &p, self.oracle().as_ref())
            .py_err()?
            .ok_or_else(|| PyValueError::new_err("the table answered “not reached”"))
    }
}

#[pymethods]
impl Table {
    /// `"connect"` or `"mnk"`.
    #[getter]
    fn family(&self) -> &'static str {
        family_name(self.board.family())
    }

    /// Columns (width).
    #[getter]
    fn cols(&self) -> u32 {
        self.board.cols()
    }

    /// Rows (height).
    #[getter]
    fn rows(&self) -> u32 {
        self.board.rows()
    }

    /// Stones in a row that win.
    #[getter]
    fn k(&self) -> u32 {
        self.board.k()
    }

    /// Whether the table gives depths (a symbolic table gives values only).
    #[getter]
    fn has_depths(&self) -> bool {
        !matches!(
            self.held,
            Held::Open(OpenTable::Symbolic { .. }) | Held::Symbolic(..)
        )
    }

    /// The answer for a position (a `Game` or a move list): a dict with the
    /// keys of `retrograde query --json` — status, value and depth for the
    /// player to move, and every legal move's value and depth with the
    /// best ones marked. A `ValueError` for a position the board does not
    /// hold or no legal game reaches.
    fn answer<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        to_dict(py, &self.answer_of(position)?)
    }

    /// The actions of the best moves of a position in play (those that
    /// keep its value, at its depth): what a perfect player chooses from.
    fn best_actions(&self, position: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        best_actions(&self.board, &self.answer_of(position)?)
    }

    /// The counts of the solved board as `retrograde connect|mnk --json`
    /// reports them (positions, terminal, per ply with the first player's
    /// won / drawn / lost, the empty board's value), as a dict.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let value = match &self.held {
            Held::Open(OpenTable::Connect { table, .. }) => gravity_summary(table).py_err()?,
            Held::Solved(_, SavedTable::Gravity(solution)) => gravity_summary(solution).py_err()?,
            Held::Open(OpenTable::Mnk { solution, .. })
            | Held::Solved(_, SavedTable::Layered(solution)) => {
                let game = Mnk::new(BoardSize::new(
                    self.board.cols(),
                    self.board.rows(),
                    self.board.k(),
                ))
                .py_err()?;
                MnkSummary::of(solution).json(&game)
            }
            Held::Open(OpenTable::Symbolic { table, .. }) => symbolic_summary(
                SymbolicSets::layout(table),
                table.plies(),
                Some(table.value()),
            ),
            Held::Symbolic(_, solution) => {
                symbolic_summary(&solution.layout, &solution.plies, solution.value)
            }
            Held::Open(OpenTable::Other(..)) | Held::Solved(..) => {
                unreachable!("a Table holds a board's table")
            }
        };
        let text = serde_json::to_string(&value).expect("a summary serialises");
        PyModule::import(py, "json")?.call_method1("loads", (text,))
    }

    /// Saves a freshly solved table to `path` (atomically; the format of
    /// `--out`, read by `retrograde query`). A file already there is
    /// replaced only if it is a table of the same game, or with
    /// `force=True`.
    #[pyo3(signature = (path, force=false))]
    fn save(&self, py: Python<'_>, path: PathBuf, force: bool) -> PyResult<u64> {
        let (game, table) =
            match &self.held {
                Held::Solved(game, table) => (game, table),
                Held::Open(_) => {
                    return Err(PyValueError::new_err(
                        "this table was opened from a file; it is saved already",
                    ))
                }
                Held::Symbolic(..) => return Err(PyValueError::new_err(
                    "the symbolic engine solved this board in memory, and its table is written \
                     as it is solved: `retrograde connect|mnk --engine symbolic --out FILE`",
                )),
            };
        check_table_output(&path, force, game).py_err()?;
        py.detach(|| save(&path, game, table)).py_err()
    }

    /// A table is immutable: a copy is the same table.
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// A table is immutable: a deep copy is the same table (so an
    /// environment's keyword arguments that hold one can be copied).
    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }

    fn __repr__(&self) -> String {
        format!(
            "Table({:?}, cols={}, rows={}, k={})",
            self.family(),
            self.board.cols(),
            self.board.rows(),
            self.board.k()
        )
    }
}

/// Solves every position of a board: `family` `"connect"` or `"mnk"`, by
/// the engine the facade chooses (`Analyzer::solve_in_memory`: the
/// explicit engine where it takes the board within `max_memory`, else the
/// symbolic engine, values without depths), with `threads` workers
/// ([`limits::threads`]). Releases the GIL; Ctrl-C stops it between plies.
#[pyfunction]
#[pyo3(signature = (family, cols, rows, k=None, *, threads=None, max_memory=None))]
pub fn solve(
    py: Python<'_>,
    family: &str,
    cols: u32,
    rows: u32,
    k: Option<u32>,
    threads: Option<&Bound<'_, PyAny>>,
    max_memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<Table> {
    let board = board(family, cols, rows, k)?;
    let budget = budget(max_memory)?;
    let threads = limits::threads(py, threads)?;
    let held = interrupt::run(py, |cancel| {
        let solved = Analyzer::new(budget, threads)
            .solve_in_memory(&board, &Silent, cancel)
            .py_err()?;
        Ok(match solved {
            WholeTable::Explicit(solved) => {
                let (saved, table, _) = solved.into_parts();
                Held::Solved(saved, table)
            }
            WholeTable::Symbolic { sets, solution, .. } => Held::Symbolic(sets, solution),
        })
    })?;
    Ok(Table { board, held })
}

/// Opens a table saved by `retrograde connect|mnk --out` or
/// `Table.save` (a Connect Four table is mapped, others read whole within
/// `max_memory`). A `TableFileError` for a damaged file or a table of a
/// game without board positions; an `OSError` for a missing file.
#[pyfunction]
#[pyo3(signature = (path, *, max_memory=None))]
pub fn open_table(
    py: Python<'_>,
    path: PathBuf,
    max_memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<Table> {
    let budget = budget(max_memory)?;
    let open = py.detach(|| OpenTable::open(&path, &budget)).py_err()?;
    let Some(board) = open.board().cloned() else {
        return Err(crate::errors::TableFileError::new_err(format!(
            "{}: a {} table answers no board position",
            path.display(),
            open.kind_name()
        )));
    };
    Ok(Table {
        board,
        held: Held::Open(open),
    })
}

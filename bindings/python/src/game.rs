//! [`Game`]: a board's rules and a position in play, the state behind the
//! environments. Moves are *actions* (a column on gravity boards, a cell
//! numbered row by row from the top left on m,n,k boards); each move is
//! checked, and the game's status is kept up to date, so a step costs one
//! line check in Rust.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};
use retrograde::{
    language::{BoardGame, Cells, Side, Status},
    Family, Position,
};

use crate::errors::IntoPy;

/// The family named by `name`: `"connect"` (or `"gravity"`) or `"mnk"`.
pub fn family_named(name: &str) -> PyResult<Family> {
    Family::named(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown game {name:?}: give \"connect\" or \"mnk\""
        ))
    })
}

/// The name of `family` in Python (`"connect"` or `"mnk"`).
pub fn family_name(family: Family) -> &'static str {
    family.name()
}

/// The board of `family` checked as every command checks it (sides 1 to
/// 16, `k` up to the longer side); `k` by default 4 on
/// gravity boards and 3 on m,n,k boards, as the command line's.
pub fn board(family: &str, cols: u32, rows: u32, k: Option<u32>) -> PyResult<BoardGame> {
    let family = family_named(family)?;
    BoardGame::new(
        family,
        retrograde::language::BoardSize::new(cols, rows, k.unwrap_or(family.default_k())),
    )
    .py_err()
}

/// The player index of a side: 0 for the first player (X), 1 for the second.
fn index(side: Side) -> u8 {
    match side {
        Side::X => 0,
        Side::O => 1,
    }
}

/// A board game in play: Connect Four of any size (sides up to 16)
/// (`family="connect"`) or an m,n,k game (`family="mnk"`).
#[pyclass(module = "retrograde._native")]
#[derive(Clone)]
pub struct Game {
    board: Arc<BoardGame>,
    position: Position,
    status: Status,
    /// The cells taken, in order.
    history: Vec<u32>,
}

impl Game {
    /// A new game on `board`.
    pub fn on(board: Arc<BoardGame>) -> Self {
        Self {
            board,
            position: Position::default(),
            status: Status::InProgress,
            history: Vec::new(),
        }
    }

    /// The rules.
    pub fn board(&self) -> &BoardGame {
        &self.board
    }

    /// The position.
    pub fn position(&self) -> Position {
        self.position
    }

    /// The action that takes `cell`.
    pub fn action_of(board: &BoardGame, cell: u32) -> u32 {
        match board.family() {
            Family::Gravity => cell % board.cols(),
            Family::Mnk => cell,
        }
    }

    /// The cell `action` takes now, if it is legal.
    fn cell_of(&self, action: i64) -> Option<u32> {
        if self.status != Status::InProgress || action < 0 {
            return None;
        }
        let action = u32::try_from(action).ok()?;
        let empty = self.board.empty(&self.position);
        match self.board.family() {
            Family::Gravity if action < self.board.cols() => self.board.drop_cell(empty, action),
            Family::Mnk if action < self.board.cells() && empty.has(action) => Some(action),
            _ => None,
        }
    }

    /// Legal actions as a set, bit `a` for action `a`.
    fn legal_bits(&self) -> Cells {
        if self.status != Status::InProgress {
            return Cells::default();
        }
        let empty = self.board.empty(&self.position);
        match self.board.family() {
            // a column has room when its top cell is empty
            Family::Gravity => (0..self.board.cols())
                .filter(|&c| empty.has(c))
                .fold(Cells::default(), Cells::with),
            Family::Mnk => empty,
        }
    }

    /// Plays `cell` (legal).
    fn take(&mut self, cell: u32) {
        self.position = self.position.with(cell);
        self.history.push(cell);
        self.status = self.board.status(&self.position);
    }
}

#[pymethods]
impl Game {
    /// A new game from the empty board: `family` is `"connect"` or
    /// `"mnk"`, `k` the stones in a row that win (default 4 for connect, 3
    /// for mnk); `moves`, a move list in the command line's notation
    /// (`"4 4 5"`, `"b2 a1"`), plays those moves first.
    #[new]
    #[pyo3(signature = (family, cols, rows, k=None, moves=None))]
    fn new(
        family: &str,
        cols: u32,
        rows: u32,
        k: Option<u32>,
        moves: Option<&str>,
    ) -> PyResult<Self> {
        let mut game = Self::on(Arc::new(board(family, cols, rows, k)?));
        if let Some(text) = moves {
            game.play_moves(text)?;
        }
        Ok(game)
    }

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

    /// How many actions there are: columns (connect) or cells (mnk).
    #[getter]
    fn n_actions(&self) -> u32 {
        match self.board.family() {
            Family::Gravity => self.board.cols(),
            Family::Mnk => self.board.cells(),
        }
    }

    /// The player to move: 0 (the first player, X) or 1.
    #[getter]
    fn to_move(&self) -> u8 {
        index(self.position.to_move())
    }

    /// `"in_progress"`, `"won"` or `"drawn"`.
    #[getter]
    fn status(&self) -> &'static str {
        self.status.name()
    }

    /// Whether the game has ended.
    #[getter]
    fn is_over(&self) -> bool {
        self.status != Status::InProgress
    }

    /// The player with a line (0 or 1), once the game is won; else None.
    #[getter]
    fn winner(&self) -> Option<u8> {
        match self.status {
            Status::Won(side) => Some(index(side)),
            _ => None,
        }
    }

    /// Stones on the board.
    #[getter]
    fn stones(&self) -> u32 {
        self.position.stones()
    }

    /// The actions played so far, in order.
    #[getter]
    fn actions(&self) -> Vec<u32> {
        self.history
            .iter()
            .map(|&c| Self::action_of(&self.board, c))
            .collect()
    }

    /// The moves played so far in the command line's notation (what
    /// `retrograde query FILE --moves` takes).
    #[getter]
    fn moves(&self) -> String {
        let moves: Vec<String> = self
            .history
            .iter()
            .map(|&c| self.board.format_move(c))
            .collect();
        moves.join(" ")
    }

    /// The first player's and the second player's stones as bit masks
    /// (bit `row * cols + col`, rows from the top).
    #[getter]
    fn masks<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        Ok((
            python_int(py, self.position.x)?,
            python_int(py, self.position.o)?,
        ))
    }

    /// Back to the empty board.
    fn reset(&mut self) {
        self.position = Position::default();
        self.status = Status::InProgress;
        self.history.clear();
    }

    /// An independent copy.
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// Whether `action` is legal now.
    fn is_legal(&self, action: i64) -> bool {
        self.cell_of(action).is_some()
    }

    /// Plays `action`; a `ValueError` if it is not legal (the game is then
    /// unchanged).
    fn play(&mut self, action: i64) -> PyResult<()> {
        match self.cell_of(action) {
            Some(cell) => {
                self.take(cell);
                Ok(())
            }
            None if self.status != Status::InProgress => {
                Err(PyValueError::new_err("the game is already over"))
            }
            None => Err(PyValueError::new_err(format!(
                "action {action} is not legal here (legal: {:?})",
                self.legal_actions()
            ))),
        }
    }

    /// Plays the moves of `text` in the command line's notation.
    fn play_moves(&mut self, text: &str) -> PyResult<()> {
        for token in text.split_whitespace() {
            let cell = self.board.parse_move(&self.position, token).py_err()?;
            self.take(cell);
        }
        Ok(())
    }

    /// Takes the last move back; a `ValueError` on the empty board.
    fn undo(&mut self) -> PyResult<()> {
        let Some(cell) = self.history.pop() else {
            return Err(PyValueError::new_err("no move to take back"));
        };
        let bit = Cells::one(cell);
        self.position = Position {
            x: self.position.x.minus(bit),
            o: self.position.o.minus(bit),
        };
        self.status = self.board.status(&self.position);
        Ok(())
    }

    /// The legal actions, in increasing order.
    fn legal_actions(&self) -> Vec<u32> {
        self.legal_bits().iter().collect()
    }

    /// One byte an action, 1 where legal (all 0 once the game is over).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyByteArray> {
        let bits = self.legal_bits();
        let mask: Vec<u8> = (0..self.n_actions())
            .map(|a| u8::from(bits.has(a)))
            .collect();
        PyByteArray::new(py, &mask)
    }

    /// The observation planes of `player` (0 or 1): `rows × cols × 2`
    /// bytes, row-major from the top row, `[..., 0]` that player's stones
    /// and `[..., 1]` the other's (PettingZoo's layout).
    fn planes<'py>(&self, py: Python<'py>, player: u8) -> PyResult<Bound<'py, PyByteArray>> {
        let (mine, theirs) = match player {
            0 => (self.position.x, self.position.o),
            1 => (self.position.o, self.position.x),
            _ => return Err(PyValueError::new_err("player is 0 or 1")),
        };
        let cells = self.board.cells() as usize;
        let mut out = vec![0u8; 2 * cells];
        for cell in mine.iter() {
            out[2 * cell as usize] = 1;
        }
        for cell in theirs.iter() {
            out[2 * cell as usize + 1] = 1;
        }
        Ok(PyByteArray::new(py, &out))
    }

    /// The board as `rows × cols` bytes from the top row: 0 empty, 1 the
    /// first player's stone, 2 the second's.
    fn grid<'py>(&self, py: Python<'py>) -> Bound<'py, PyByteArray> {
        let (x, o) = (self.position.x, self.position.o);
        let out: Vec<u8> = (0..self.board.cells())
            .map(|c| u8::from(x.has(c)) + 2 * u8::from(o.has(c)))
            .collect();
        PyByteArray::new(py, &out)
    }

    /// The cells of the winning line(s) once the game is won, as a list of
    /// cell numbers (empty otherwise).
    fn winning_cells(&self) -> Vec<u32> {
        let Status::Won(side) = self.status else {
            return Vec::new();
        };
        let stones = match side {
            Side::X => self.position.x,
            Side::O => self.position.o,
        };
        let lines = retrograde::language::winning_lines(
            self.board.cols(),
            self.board.rows(),
            self.board.k(),
        );
        let mut cells: Vec<u32> = lines
            .iter()
            .filter(|line| line.iter().all(|&c| stones.has(c)))
            .flatten()
            .copied()
            .collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// The move notation of `action` (`"4"`, `"b2"`).
    fn notation(&self, action: u32) -> PyResult<String> {
        if action >= self.n_actions() {
            return Err(PyValueError::new_err(format!(
                "action {action} is off the board"
            )));
        }
        Ok(match self.board.family() {
            Family::Gravity => (action + 1).to_string(),
            Family::Mnk => self.board.format_move(action),
        })
    }

    /// The position as a one-line diagram (`"XO./.X./..."`), as answers
    /// print it.
    fn diagram(&self) -> String {
        self.board.diagram(&self.position)
    }

    /// The position drawn as text, with column labels.
    fn render(&self) -> String {
        self.board.render(&self.position)
    }

    fn __repr__(&self) -> String {
        format!(
            "Game({:?}, cols={}, rows={}, k={}, moves={:?})",
            self.family(),
            self.board.cols(),
            self.board.rows(),
            self.board.k(),
            self.moves()
        )
    }
}

/// The position `obj` names on `board`: a [`Game`] on the same board, or
/// a move list in the command line's notation.
pub fn position_of(board: &BoardGame, obj: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(game) = obj.cast::<Game>() {
        let game = game.borrow();
        if *game.board != *board {
            return Err(PyValueError::new_err(format!(
                "the game is {} {}×{} k={}, the table's board {} {}×{} k={}",
                family_name(game.board.family()),
                game.board.cols(),
                game.board.rows(),
                game.board.k(),
                family_name(board.family()),
                board.cols(),
                board.rows(),
                board.k()
            )));
        }
        return Ok(game.position);
    }
    if let Ok(text) = obj.extract::<String>() {
        return board.play_moves(&text).py_err();
    }
    Err(PyValueError::new_err(
        "a position is a retrograde.Game or a move list such as \"4 4 5\" or \"b2 a1\"",
    ))
}

/// `cells` as a Python integer, bit `i` for cell `i` (as wide as the
/// board: past 64 bits on boards of more than 64 cells).
fn python_int<'py>(py: Python<'py>, cells: Cells) -> PyResult<Bound<'py, PyAny>> {
    let bytes: Vec<u8> = cells.words().iter().flat_map(|w| w.to_le_bytes()).collect();
    py.get_type::<pyo3::types::PyInt>()
        .call_method1("from_bytes", (PyBytes::new(py, &bytes), "little"))
}

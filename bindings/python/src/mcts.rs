//! Monte Carlo tree search from Python: the library's
//! (`retrograde::engines::mcts`), on a worker thread
//! ([`interrupt`](crate::interrupt)) so that Ctrl-C stops it within one
//! playout.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use retrograde::engines::mcts::{mcts_move, MctsSettings, DEFAULT_EXPLORATION};

use crate::errors::IntoPy;
use crate::game::Game;
use crate::interrupt;

/// The move chosen by Monte Carlo tree search with `playouts` random
/// playouts from the position of `game` (in play), as an action. The same
/// `seed` gives the same move. Releases the GIL; Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (game, playouts, seed, exploration=None))]
pub fn mcts_action(
    py: Python<'_>,
    game: &Game,
    playouts: u32,
    seed: u64,
    exploration: Option<f64>,
) -> PyResult<u32> {
    let exploration = exploration.unwrap_or(DEFAULT_EXPLORATION);
    let board = game.board();
    let root = game.position();
    let settings = MctsSettings {
        playouts,
        seed,
        exploration,
    };
    let cell = interrupt::run(py, |cancel| {
        // a position in play has a move, so only a cancelled search has none
        mcts_move(board, root, settings, cancel)
            .py_err()?
            .ok_or_else(|| PyRuntimeError::new_err("the search was cancelled"))
    })?;
    Ok(Game::action_of(board, cell))
}

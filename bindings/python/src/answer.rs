//! A position answer as a Python dict with the keys of `retrograde query
//! --json` (absent keys absent, `None` where the JSON has `null`), built
//! field by field: no JSON text on the way, so a table's answer costs
//! microseconds. Also the best actions of an answer, for opponents.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use retrograde::{
    language::{BoardGame, Outcome},
    Position, PositionAnswer,
};

use crate::errors::IntoPy;
use crate::game::Game;

/// The answer as a dict.
pub fn to_dict<'py>(py: Python<'py>, a: &PositionAnswer) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("position", &a.position)?;
    d.set_item("to_move", a.to_move.name())?;
    d.set_item("status", a.status.name())?;
    if let Some(w) = a.winner {
        d.set_item("winner", w.name())?;
    }
    if let Some(r) = a.reachable {
        d.set_item("reachable", r)?;
    }
    d.set_item("value", a.value.map(Outcome::name))?;
    d.set_item("depth", a.depth)?;
    if let Some(s) = a.score {
        d.set_item("score", s)?;
    }
    let moves = PyList::empty(py);
    for m in &a.moves {
        let md = PyDict::new(py);
        md.set_item("move", &m.notation)?;
        md.set_item("value", m.value.map(Outcome::name))?;
        md.set_item("depth", m.depth)?;
        if let Some(s) = m.score {
            md.set_item("score", s)?;
        }
        md.set_item("best", m.best)?;
        moves.append(md)?;
    }
    d.set_item("moves", moves)?;
    Ok(d)
}

/// The actions of the answer's best moves (the moves that keep the
/// position's value, at its depth where the source knows depths).
pub fn best_actions(board: &BoardGame, a: &PositionAnswer) -> PyResult<Vec<u32>> {
    // the notation names a column or a cell whatever the position: read on
    // the empty board, it gives a cell of that column or that cell
    let empty = Position::default();
    a.moves
        .iter()
        .filter(|m| m.best)
        .map(|m| {
            let cell = board.parse_move(&empty, &m.notation).py_err()?;
            Ok(Game::action_of(board, cell))
        })
        .collect()
}

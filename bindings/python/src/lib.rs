//! `retrograde._native`: the Python extension module of the `retrograde`
//! package (python/retrograde). It exposes the library, not the command
//! line: a board's rules and a position in play ([`game::Game`], the state
//! behind the environments), solving a board and opening a saved table
//! ([`table::Table`]), answering a position by search
//! ([`search::Searcher`]) and a Monte Carlo tree search player
//! (`mcts::mcts_action`).
//!
//! Conventions shared by every class:
//! * a position is a [`game::Game`] or a move list in the command line's
//!   notation (`"4 4 5"` on gravity boards, `"a1 b2"` on m,n,k boards);
//! * an *action* is a column (gravity boards) or a cell numbered row by
//!   row from the top left (m,n,k boards), as in PettingZoo's
//!   `connect_four_v3`;
//! * answers are dicts with the keys of `retrograde query --json`;
//! * long calls (solve, search, MCTS) release the GIL, run on a worker
//!   thread and stop on Ctrl-C ([`interrupt`]);
//! * arguments are checked against the bounds of [`limits`], which the
//!   module also exports (`MAX_THREADS`, `MAX_PLAYOUTS`, …);
//! * errors are Python exceptions ([`errors`]).

// The module docs are for the binding's developers, who read them with
// `--document-private-items`: their links name the private modules.
#![allow(rustdoc::private_intra_doc_links)]

mod answer;
mod errors;
mod game;
mod interrupt;
mod limits;
mod mcts;
mod own;
mod prove;
mod search;
mod stored;
mod table;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<game::Game>()?;
    m.add_class::<table::Table>()?;
    m.add_class::<search::Searcher>()?;
    m.add_class::<own::GameTable>()?;
    m.add_function(wrap_pyfunction!(own::solve_game, m)?)?;
    m.add_function(wrap_pyfunction!(own::load_game, m)?)?;
    m.add_class::<stored::OwnTable>()?;
    m.add_function(wrap_pyfunction!(stored::open_own_table, m)?)?;
    m.add_function(wrap_pyfunction!(table::solve, m)?)?;
    m.add_function(wrap_pyfunction!(table::open_table, m)?)?;
    m.add_function(wrap_pyfunction!(mcts::mcts_action, m)?)?;
    m.add_function(wrap_pyfunction!(prove::prove, m)?)?;
    errors::add(m)?;
    limits::add(m)?;
    Ok(())
}

//! Games written in Python: [`solve_game`] walks a Python object's rules
//! (`start`, `moves`, `outcome`, optionally `key`) from the start, breadth
//! first, into the graph of every reachable position, and hands that graph
//! to the library's generic engine ([`ExplicitGame`]), which solves it with
//! the same retrograde pass as every game. [`GameTable`] answers any
//! reached position, and saves itself; [`load_game`] reads such a table
//! back, certified against the rules walked again.
//!
//! The walk calls Python, so it holds the GIL — a batch of positions at a
//! time, looking at Python's signals between batches (Ctrl-C stops it) —
//! and the solve releases it.

use std::path::PathBuf;
use std::time::Instant;

use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use retrograde::{
    host::{in_pool, Budget, Bytes, Silent},
    language::{Counts, Outcome},
    own::{
        check_table_output, load, save, solve_within, ExplicitGame, MoveAnswer, Rules, Solution,
        MAX_POSITIONS,
    },
};

use crate::errors::IntoPy;
use crate::limits;
use crate::table::budget;

/// Positions walked between two looks at Python's signals.
const BATCH: usize = 4096;

/// Bytes a position costs during the walk besides its Python objects:
/// its entry in the dict of keys, its id, its moves (a few), its end.
const WALK_BYTES: u64 = 64;

/// A game written in Python, solved: every position reachable from its
/// start with its value and depth.
#[pyclass(module = "retrograde._native", frozen)]
pub struct GameTable {
    rules: Py<PyAny>,
    has_key: bool,
    /// Whether the rules give `symmetries`: a position not found by its
    /// key is looked for by its images' keys.
    has_symmetries: bool,
    game: ExplicitGame,
    solution: Solution<u32>,
    ids: Py<PyDict>,
    walk_seconds: f64,
    /// How the table was made: `"solve"` (solved) or `"load"` (read and
    /// certified), and in how many seconds.
    made_by: &'static str,
    made_seconds: f64,
}

/// `{"win": …, "loss": …, "draw": …}` of `counts`.
pub fn counts_dict(py: Python<'_>, counts: Counts) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("win", counts.win)?;
    d.set_item("loss", counts.loss)?;
    d.set_item("draw", counts.draw)?;
    Ok(d)
}

/// The game's value for the player to move, from `outcome`'s answer.
fn outcome_of(value: &Bound<'_, PyAny>) -> PyResult<Option<Outcome>> {
    if value.is_none() {
        return Ok(None);
    }
    match value.extract::<String>()?.as_str() {
        "win" => Ok(Some(Outcome::Win)),
        "loss" => Ok(Some(Outcome::Loss)),
        "draw" => Ok(Some(Outcome::Draw)),
        other => Err(PyValueError::new_err(format!(
            "outcome() gave {other:?}: it gives None while play goes on, else \"win\", \"loss\" \
             or \"draw\" for the player to move"
        ))),
    }
}

/// Solves the game that `game` describes: `game.start()` the first
/// position, `game.moves(p)` the positions one move from `p`,
/// `game.outcome(p)` `None` while play goes on or `"win"` / `"loss"` /
/// `"draw"` for the player to move, and optionally `game.key(p)` a
/// hashable key (the same for positions that are one up to symmetry; by
/// default the position itself, which must then be hashable),
/// `game.symmetries(p)` the other images of `p` (one class is one
/// position), and `game.render(p)` a picture (the answers' `picture`). A position
/// with no moves that `outcome` does not end is lost by the player to
/// move. `threads` workers solve it ([`limits::threads`]) within
/// `max_memory`.
#[pyfunction]
#[pyo3(signature = (game, *, threads=None, max_memory=None))]
pub fn solve_game<'py>(
    py: Python<'py>,
    game: Bound<'py, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    max_memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<GameTable> {
    table_of(
        py,
        game,
        threads,
        max_memory,
        "solve",
        |explicit, budget| solve_within(explicit, budget, &Silent),
    )
}

/// Reads the table `GameTable.save` wrote of `game` from `path`, and
/// certifies it against `game`'s rules, walked again: the same
/// positions, reached ply by ply as the table says, and every value and
/// depth from its children's. A `TableFileError` for a damaged or edited
/// file, or one of another game.
#[pyfunction]
#[pyo3(signature = (game, path, *, threads=None, max_memory=None))]
pub fn load_game<'py>(
    py: Python<'py>,
    game: Bound<'py, PyAny>,
    path: PathBuf,
    threads: Option<&Bound<'_, PyAny>>,
    max_memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<GameTable> {
    table_of(py, game, threads, max_memory, "load", |explicit, budget| {
        load(&path, explicit, budget, &Silent)
    })
}

/// The table of `game`: its rules walked (holding the GIL), then its
/// solution made by `make` (`how`: "solve" or "load") on `threads`
/// workers with the GIL released, within `max_memory`.
fn table_of<'py>(
    py: Python<'py>,
    game: Bound<'py, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    max_memory: Option<&Bound<'_, PyAny>>,
    how: &'static str,
    make: impl FnOnce(&ExplicitGame, &Budget) -> retrograde::Result<Solution<u32>> + Send,
) -> PyResult<GameTable> {
    let threads = limits::threads(py, threads)?;
    let budget = budget(max_memory)?;
    let walked = walk(py, &game, &budget)?;
    let clock = Instant::now();
    let solution = py
        .detach(|| in_pool(threads, || make(&walked.explicit, &budget)))
        .and_then(|made| made)
        .py_err()?;
    Ok(walked.with(game, solution, how, clock))
}

/// A Python game walked from its start: its graph, and the Python
/// keys of its positions' numbers.
struct Walked {
    has_key: bool,
    has_symmetries: bool,
    explicit: ExplicitGame,
    ids: Py<PyDict>,
    walk_seconds: f64,
}

impl Walked {
    /// The table of `game` once `solution` is made (by `how`, since
    /// `clock` started).
    fn with(
        self,
        game: Bound<'_, PyAny>,
        solution: Solution<u32>,
        how: &'static str,
        clock: Instant,
    ) -> GameTable {
        GameTable {
            rules: game.unbind(),
            has_key: self.has_key,
            has_symmetries: self.has_symmetries,
            game: self.explicit,
            solution,
            ids: self.ids,
            walk_seconds: self.walk_seconds,
            made_by: how,
            made_seconds: clock.elapsed().as_secs_f64(),
        }
    }
}

/// Walks `game`'s rules from its start, breadth first (numbers in the
/// order positions are first reached, so a walk of the same rules numbers
/// them alike), a batch of positions between two looks at Python's
/// signals, within `budget`.
fn walk<'py>(py: Python<'py>, game: &Bound<'py, PyAny>, budget: &Budget) -> PyResult<Walked> {
    let name = match game.getattr("name") {
        Ok(name) if !name.is_callable() => name.extract::<String>()?,
        _ => game.get_type().name()?.to_string(),
    };
    let has_key = game.hasattr("key")?;
    let key_of = |p: &Bound<'py, PyAny>| -> PyResult<Bound<'py, PyAny>> {
        if has_key {
            game.call_method1("key", (p,))
        } else {
            Ok(p.clone())
        }
    };
    let has_symmetries = game.hasattr("symmetries")?;
    let clock = Instant::now();
    let ids = PyDict::new(py);
    let start = game.call_method0("start")?;
    ids.set_item(key_of(&start)?, 0u32)?;
    let mut positions: Vec<Py<PyAny>> = vec![start.unbind()];
    let (mut offsets, mut targets, mut ends) = (vec![0u64], Vec::new(), Vec::new());
    while ends.len() < positions.len() {
        let batch_end = positions.len().min(ends.len() + BATCH);
        for id in ends.len()..batch_end {
            let p = positions[id].clone_ref(py).into_bound(py);
            let end = outcome_of(&game.call_method1("outcome", (&p,))?)?;
            ends.push(end);
            if end.is_none() {
                for child in game.call_method1("moves", (&p,))?.try_iter()? {
                    let child = child?;
                    let key = key_of(&child)?;
                    let known = match ids.get_item(&key)? {
                        None if has_symmetries => image_id(game, &ids, &child, has_key)?,
                        known => known,
                    };
                    let target = match known {
                        Some(known) => known.extract::<u32>()?,
                        None => {
                            let fresh = positions.len() as u64;
                            if fresh >= MAX_POSITIONS {
                                return Err(PyValueError::new_err(format!(
                                    "{name} has more than {MAX_POSITIONS} positions"
                                )));
                            }
                            ids.set_item(key, fresh as u32)?;
                            positions.push(child.unbind());
                            fresh as u32
                        }
                    };
                    targets.push(target);
                }
            }
            offsets.push(targets.len() as u64);
        }
        py.check_signals()?;
        let held = (positions.len() as u64).saturating_mul(WALK_BYTES) + targets.len() as u64 * 4;
        budget
            .check(
                &format!("walking {name} ({} positions so far)", positions.len()),
                Bytes(held),
            )
            .py_err()?;
    }
    let walk_seconds = clock.elapsed().as_secs_f64();
    Ok(Walked {
        has_key,
        has_symmetries,
        explicit: ExplicitGame::new(name, offsets, targets, ends).py_err()?,
        ids: ids.unbind(),
        walk_seconds,
    })
}

/// The id of an image of `position` under `game.symmetries` already in
/// `ids` (by its key), if one is: a class is numbered under the key of the
/// first of its positions walked, and found from any of them.
fn image_id<'py>(
    game: &Bound<'py, PyAny>,
    ids: &Bound<'py, PyDict>,
    position: &Bound<'py, PyAny>,
    has_key: bool,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    for image in game.call_method1("symmetries", (position,))?.try_iter()? {
        let image = image?;
        let key = if has_key {
            game.call_method1("key", (&image,))?
        } else {
            image
        };
        if let Some(id) = ids.get_item(&key)? {
            return Ok(Some(id));
        }
    }
    Ok(None)
}

impl GameTable {
    /// The value and depth of `position`, and each of its own moves (in
    /// the order `game.moves(position)` gives them: `position` may be
    /// another image of the position walked) with the position it leads to.
    #[allow(clippy::type_complexity)]
    fn answer_of<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Option<(Outcome, Option<u32>)>,
        Vec<(MoveAnswer, Bound<'py, PyAny>)>,
    )> {
        let id = self.id_of(py, position)?;
        let found = self.solution.lookup(&self.game, id);
        let mut children = Vec::new();
        let mut ids = Vec::new();
        if self.game.outcome(&id).is_none() {
            for child in self
                .rules
                .bind(py)
                .call_method1("moves", (position,))?
                .try_iter()?
            {
                let child = child?;
                ids.push(self.id_of(py, &child)?);
                children.push(child);
            }
        }
        let moves = self.solution.answer_moves(&self.game, id, &ids);
        Ok((found, moves.into_iter().zip(children).collect()))
    }

    /// The number of `position`, a `KeyError` if the start does not reach it.
    fn id_of(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<u32> {
        let game = self.rules.bind(py);
        let key = if self.has_key {
            game.call_method1("key", (position,))?
        } else {
            position.clone()
        };
        let ids = self.ids.bind(py);
        let found = match ids.get_item(&key)? {
            None if self.has_symmetries => image_id(game, ids, position, self.has_key)?,
            found => found,
        };
        match found {
            Some(id) => id.extract(),
            None => Err(PyKeyError::new_err(format!(
                "{} is not a position the start reaches",
                position.repr()?
            ))),
        }
    }
}

#[pymethods]
impl GameTable {
    /// The game's name (its `name` attribute, else its class's).
    #[getter]
    fn name(&self) -> String {
        self.solution.name.clone()
    }

    /// Positions reached from the start (one a key).
    #[getter]
    fn positions(&self) -> u64 {
        self.solution.positions()
    }

    /// The most moves any reached position has (an action space's size).
    #[getter]
    fn max_moves(&self) -> u64 {
        self.game.max_moves()
    }

    /// `{"win": …, "loss": …, "draw": …}`: positions by their value for
    /// the player to move.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        counts_dict(py, self.solution.counts())
    }

    /// Positions first reached at each ply from the start, as
    /// `(positions, ended)` pairs.
    fn plies(&self) -> Vec<(u64, u64)> {
        self.solution
            .plies
            .iter()
            .map(|p| (p.positions, p.ended))
            .collect()
    }

    /// `{"walk": s, "solve": s}`: seconds spent walking the rules in
    /// Python and solving the graph (`"load"` in place of `"solve"` for a
    /// table read by `load_game`: the reading and the certificate).
    fn seconds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("walk", self.walk_seconds)?;
        d.set_item(self.made_by, self.made_seconds)?;
        Ok(d)
    }

    /// Saves the table to `path` (atomically; a table of its own kind,
    /// which `load_game` reads back certified against the rules). A file
    /// already there is replaced only if it is a table. The file's size.
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<u64> {
        check_table_output(&path).py_err()?;
        py.detach(|| save(&path, &self.game, &self.solution))
            .py_err()
    }

    /// `(value, depth)` of a position for the player to move: `"win"`,
    /// `"loss"` or `"draw"`, and the plies to the end (`None` for a draw).
    fn value(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
    ) -> PyResult<(String, Option<u32>)> {
        let id = self.id_of(py, position)?;
        let (value, depth) = self
            .solution
            .lookup(&self.game, id)
            .expect("every id is solved");
        Ok((value.name().to_string(), depth))
    }

    /// A dict with the keys of `retrograde query --json`: the position's
    /// `value` and `depth`, and `moves`, one dict a move in the order
    /// `moves()` gives them, each with the `position` it leads to, its
    /// `value` and `depth` for the player who makes it, and `best`.
    fn answer<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (found, moves_of) = self.answer_of(py, position)?;
        let d = PyDict::new(py);
        d.set_item("value", found.map(|(value, _)| value.name()))?;
        d.set_item("depth", found.and_then(|(_, depth)| depth))?;
        let game = self.rules.bind(py);
        if game.hasattr("render")? {
            d.set_item("picture", game.call_method1("render", (position,))?)?;
        }
        let moves = PyList::empty(py);
        for (m, child) in moves_of {
            let md = PyDict::new(py);
            md.set_item("position", child)?;
            md.set_item("value", m.value.map(Outcome::name))?;
            md.set_item("depth", m.depth)?;
            md.set_item("best", m.best)?;
            moves.append(md)?;
        }
        d.set_item("moves", moves)?;
        Ok(d)
    }

    /// A best move's position: one that keeps the position's value at its
    /// depth (the first such in `moves()`'s order); `None` once the game is
    /// over.
    fn best_move(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let (_, moves) = self.answer_of(py, position)?;
        Ok(moves
            .into_iter()
            .find(|(m, _)| m.best)
            .map(|(_, child)| child.unbind()))
    }
}

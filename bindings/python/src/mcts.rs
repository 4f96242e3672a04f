//! Monte Carlo tree search (UCT) for boards beyond proof, as the article
//! this project grew from planned: from the root, descend by the UCB1
//! rule (win rate + `exploration` · √(ln N / n)), add one child, finish the
//! game with uniformly random moves, and credit the result (1 a win, ½ a
//! draw) to every node on the path from the side of the player who moved
//! into it. The move played is the root's most visited child. A seed makes
//! the choice reproducible (SplitMix64). The search runs on a worker
//! thread ([`interrupt`](crate::interrupt)) and looks at the cancel flag
//! before every playout, so Ctrl-C stops it within one playout.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use retrograde::position::{BoardGame, Cells, Family, Position, Status};

use crate::game::Game;
use crate::interrupt;

/// The most playouts one call makes.
pub const MAX_PLAYOUTS: u32 = 10_000_000;

/// SplitMix64: small, fast, and reproducible from a seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform index below `n` (n ≥ 1).
    fn below(&mut self, n: u32) -> u32 {
        (((self.next() >> 32) * u64::from(n)) >> 32) as u32
    }
}

/// The cells the player to move may take.
fn legal(board: &BoardGame, p: &Position) -> Cells {
    let empty = board.empty(p);
    match board.family() {
        Family::Mnk => empty,
        Family::Gravity => (0..board.cols())
            .filter_map(|c| board.drop_cell(empty, c))
            .fold(Cells::default(), Cells::with),
    }
}

/// The `i`-th cell of `cells` (i < its length).
fn nth_bit(cells: Cells, i: u32) -> u32 {
    cells.iter().nth(i as usize).expect("i is below the length")
}

/// One node of the tree.
struct Node {
    position: Position,
    status: Status,
    /// Cells not yet expanded.
    untried: Cells,
    /// (cell, child index).
    children: Vec<(u32, usize)>,
    visits: f64,
    /// Results for the player who moved into this node.
    reward: f64,
}

/// The result of a finished game for the player who made its last move:
/// 1 a win, ½ a draw.
fn result_for_last_mover(status: Status) -> f64 {
    match status {
        Status::Won(_) => 1.0,
        _ => 0.5,
    }
}

/// The search: the root's most visited child's cell, or `None` once
/// `cancel` is set (looked at before each playout).
fn search(
    board: &BoardGame,
    root: Position,
    playouts: u32,
    seed: u64,
    exploration: f64,
    cancel: &AtomicBool,
) -> Option<u32> {
    let mut rng = Rng(seed);
    let node = |p: Position| {
        let status = board.status(&p);
        Node {
            position: p,
            status,
            untried: if status == Status::InProgress {
                legal(board, &p)
            } else {
                Cells::default()
            },
            children: Vec::new(),
            visits: 0.0,
            reward: 0.0,
        }
    };
    let mut tree = vec![node(root)];
    let mut path = Vec::new();
    for _ in 0..playouts {
        if cancel.load(Relaxed) {
            return None;
        }
        path.clear();
        let mut at = 0;
        path.push(at);
        // select
        while tree[at].untried.is_empty() && !tree[at].children.is_empty() {
            let log_n = tree[at].visits.ln();
            let best = tree[at]
                .children
                .iter()
                .map(|&(_, c)| {
                    let child = &tree[c];
                    let score =
                        child.reward / child.visits + exploration * (log_n / child.visits).sqrt();
                    (score, c)
                })
                .fold((f64::NEG_INFINITY, 0), |a, b| if b.0 > a.0 { b } else { a });
            at = best.1;
            path.push(at);
        }
        // expand
        if !tree[at].untried.is_empty() {
            let untried = tree[at].untried;
            let cell = nth_bit(untried, rng.below(untried.len()));
            tree[at].untried = untried.minus(Cells::one(cell));
            let child = node(tree[at].position.with(cell));
            tree.push(child);
            let c = tree.len() - 1;
            tree[at].children.push((cell, c));
            at = c;
            path.push(at);
        }
        // play out: `last_mover_wins` from the view of the player who moved
        // into the leaf
        let leaf = &tree[at];
        let mut p = leaf.position;
        let mut status = leaf.status;
        let mut plies = 0u32;
        while status == Status::InProgress {
            let moves = legal(board, &p);
            p = p.with(nth_bit(moves, rng.below(moves.len())));
            status = board.status(&p);
            plies += 1;
        }
        let end = result_for_last_mover(status);
        // the leaf's mover's result: the game's last mover's if an even
        // number of plies followed the leaf
        let mut result = if plies.is_multiple_of(2) {
            end
        } else {
            1.0 - end
        };
        for &n in path.iter().rev() {
            tree[n].visits += 1.0;
            tree[n].reward += result;
            result = 1.0 - result;
        }
    }
    tree[0]
        .children
        .iter()
        .max_by(|a, b| tree[a.1].visits.total_cmp(&tree[b.1].visits))
        .map(|&(cell, _)| cell)
}

/// The move chosen by Monte Carlo tree search with `playouts` random
/// playouts from the position of `game` (in play), as an action. The same
/// `seed` gives the same move. Releases the GIL; Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (game, playouts, seed, exploration=1.4))]
pub fn mcts_action(
    py: Python<'_>,
    game: &Game,
    playouts: u32,
    seed: u64,
    exploration: f64,
) -> PyResult<u32> {
    if !(1..=MAX_PLAYOUTS).contains(&playouts) {
        return Err(PyValueError::new_err(format!(
            "playouts must be from 1 to {MAX_PLAYOUTS}"
        )));
    }
    if !(exploration.is_finite() && exploration >= 0.0) {
        return Err(PyValueError::new_err(
            "exploration must be a number of at least 0",
        ));
    }
    let board = game.board();
    let root = game.position();
    if board.status(&root) != Status::InProgress {
        return Err(PyValueError::new_err("the game is already over"));
    }
    let cell = interrupt::run(py, |cancel| {
        // a position in play has a move, so only a cancelled search has none
        search(board, root, playouts, seed, exploration, cancel)
            .ok_or_else(|| PyRuntimeError::new_err("the search was cancelled"))
    })?;
    Ok(Game::action_of(board, cell))
}

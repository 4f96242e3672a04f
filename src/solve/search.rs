//! The search engine: proves the perfect-play value of an m,n,k position
//! without a table of every state — negamax with alpha-beta on the
//! win / draw / loss scale, null-window probes, bitboards, move ordering
//! (immediate wins, forced blocks, centre first), and a concurrent
//! transposition table (dashmap) shared by the rayon workers that split the
//! tree at its root.
//!
//! **What the transposition table may lose, and why proofs stay exact.**
//! Entries are keyed by the whole position, reduced to a canonical form
//! under the board's symmetries (symmetric positions have the same value),
//! and hold *proven* bounds on that position's game value: a search always
//! runs to the end of the game (there is no depth limit and no heuristic
//! score), so a bound found once holds forever. The table is lossy only in
//! what it keeps: once it holds `capacity` entries, further results are not
//! stored. A missing entry costs time, never correctness; a present entry
//! can only be a true bound. So values do not depend on the thread count,
//! the order in which workers finish, or the capacity — only node counts do.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use dashmap::DashMap;
use rayon::prelude::*;
use rustc_hash::FxBuildHasher;

use crate::error::{Error, Result};
use crate::game::Outcome;
use crate::games::mnk::map_cell;
use crate::solve::progress::{Progress, Silent};

/// Largest side of a search board; a board holds at most 64 cells.
pub const MAX_SIDE: u32 = 8;

/// An m,n,k board for search: up to 64 cells as `u64` bitboards.
#[derive(Clone, Debug)]
pub struct SearchBoard {
    rows: u32,
    cols: u32,
    k: u32,
    full: u64,
    /// Winning lines through each cell.
    lines_through: Vec<Vec<u64>>,
    /// Cells, centre first (free boards); columns, centre first (gravity).
    order: Vec<u32>,
    /// Stones drop to the lowest empty cell of a column (row 0 is the bottom).
    gravity: bool,
    /// Cell permutations of the board's symmetries, identity first.
    symmetries: Vec<Vec<u32>>,
}

impl SearchBoard {
    /// An m,n,k board: a stone may go on any empty cell.
    pub fn new(rows: u32, cols: u32, k: u32) -> Result<Self> {
        Self::build(rows, cols, k, false)
    }

    /// A gravity board (the Connect-Four family) of `cols` columns and
    /// `rows` rows: a stone drops to the lowest empty cell of its column.
    /// Cell `r · cols + c` is row `r` from the bottom, column `c`.
    pub fn gravity(cols: u32, rows: u32, k: u32) -> Result<Self> {
        Self::build(rows, cols, k, true)
    }

    /// Validates and precomputes lines, move order and symmetries.
    fn build(rows: u32, cols: u32, k: u32, gravity: bool) -> Result<Self> {
        if !(1..=MAX_SIDE).contains(&rows) || !(1..=MAX_SIDE).contains(&cols) || rows * cols > 64 {
            return Err(Error::InvalidInput(format!("a {rows}×{cols} board is outside what search handles (sides 1..={MAX_SIDE}, at most 64 cells)")));
        }
        if k == 0 || k > rows.max(cols) {
            return Err(Error::InvalidInput(format!(
                "k = {k} does not fit a {rows}×{cols} board (1 ≤ k ≤ {})",
                rows.max(cols)
            )));
        }
        let cells = rows * cols;
        let mut lines_through = vec![Vec::new(); cells as usize];
        for (dr, dc) in [(0i32, 1i32), (1, 0), (1, 1), (1, -1)] {
            for r in 0..rows as i32 {
                for c in 0..cols as i32 {
                    let (er, ec) = (r + dr * (k as i32 - 1), c + dc * (k as i32 - 1));
                    if er >= rows as i32 || ec < 0 || ec >= cols as i32 {
                        continue;
                    }
                    let cells_of: Vec<u32> = (0..k as i32)
                        .map(|i| ((r + dr * i) * cols as i32 + c + dc * i) as u32)
                        .collect();
                    let mask = cells_of.iter().fold(0u64, |m, &cell| m | 1 << cell);
                    for &cell in &cells_of {
                        if !lines_through[cell as usize].contains(&mask) {
                            lines_through[cell as usize].push(mask);
                        }
                    }
                }
            }
        }
        let centre = |cell: u32| {
            let (r, c) = ((cell / cols) as f64, (cell % cols) as f64);
            let (mr, mc) = ((rows - 1) as f64 / 2.0, (cols - 1) as f64 / 2.0);
            ((r - mr).powi(2) + (c - mc).powi(2), cell)
        };
        let mut order: Vec<u32> = if gravity {
            (0..cols).collect()
        } else {
            (0..cells).collect()
        };
        order.sort_by(|&a, &b| centre(a).partial_cmp(&centre(b)).expect("finite"));
        // Gravity keeps the bottom down: only the left-right mirror is a symmetry.
        let kinds: &[u32] = match (gravity, rows == cols) {
            (true, _) => &[0, 1],
            (false, true) => &[0, 1, 2, 3, 4, 5, 6, 7],
            (false, false) => &[0, 1, 2, 3],
        };
        let mut symmetries: Vec<Vec<u32>> = Vec::new();
        for &kind in kinds {
            let perm: Vec<u32> = (0..cells)
                .map(|cell| {
                    let (r, c) = map_cell(kind, cell / cols, cell % cols, rows, cols);
                    r * cols + c
                })
                .collect();
            if !symmetries.contains(&perm) {
                symmetries.push(perm);
            }
        }
        Ok(Self {
            rows,
            cols,
            k,
            full: if cells == 64 {
                u64::MAX
            } else {
                (1u64 << cells) - 1
            },
            lines_through,
            order,
            gravity,
            symmetries,
        })
    }

    /// The cells a stone may go on, best first.
    fn playable(&self, empty: u64) -> Vec<u32> {
        if self.gravity {
            self.order
                .iter()
                .filter_map(|&c| {
                    (0..self.rows)
                        .map(|r| r * self.cols + c)
                        .find(|&cell| empty & (1 << cell) != 0)
                })
                .collect()
        } else {
            self.order
                .iter()
                .copied()
                .filter(|&c| empty & (1 << c) != 0)
                .collect()
        }
    }

    /// Rows, columns and k.
    pub fn dimensions(&self) -> (u32, u32, u32) {
        (self.rows, self.cols, self.k)
    }

    /// Whether placing on `cell` completes a line of `stones`.
    #[inline]
    fn completes(&self, stones: u64, cell: u32) -> bool {
        let with = stones | 1 << cell;
        self.lines_through[cell as usize]
            .iter()
            .any(|&l| l & !with == 0)
    }

    /// Whether `stones` hold a line.
    pub fn has_line(&self, stones: u64) -> bool {
        self.lines_through
            .iter()
            .flatten()
            .any(|&l| l & !stones == 0)
    }

    /// The least image of (mover's stones, opponent's stones) under the
    /// symmetries: the transposition key.
    fn canonical(&self, me: u64, opp: u64) -> (u64, u64) {
        let image = |perm: &[u32], mask: u64| {
            let mut out = 0u64;
            let mut rest = mask;
            while rest != 0 {
                out |= 1 << perm[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
            out
        };
        self.symmetries
            .iter()
            .map(|perm| (image(perm, me), image(perm, opp)))
            .min()
            .expect("the identity")
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The value for the player to move.
    pub value: Outcome,
    /// Positions visited.
    pub nodes: u64,
    /// Transposition-table hits that decided or narrowed a node.
    pub hits: u64,
}

/// Bounds packed in a byte: lower in the low nibble, upper in the high one,
/// each as value + 1 (0 loss, 1 draw, 2 win).
fn pack(lower: i8, upper: i8) -> u8 {
    ((lower + 1) as u8) | (((upper + 1) as u8) << 4)
}

fn unpack(bounds: u8) -> (i8, i8) {
    ((bounds & 0xF) as i8 - 1, (bounds >> 4) as i8 - 1)
}

/// A search over one board, with its shared transposition table.
pub struct Searcher<'a> {
    board: &'a SearchBoard,
    table: DashMap<(u64, u64), u8, FxBuildHasher>,
    capacity: usize,
    nodes: AtomicU64,
    hits: AtomicU64,
    /// When to give up, if ever.
    deadline: Option<Instant>,
    /// Told of every 4,096 nodes.
    progress: &'a dyn Progress,
    /// Set once the deadline has passed: every search then unwinds, and no
    /// result computed after it is stored (it may rest on abandoned children).
    stopped: AtomicBool,
}

impl<'a> Searcher<'a> {
    /// A searcher whose table keeps at most `capacity` positions.
    pub fn new(board: &'a SearchBoard, capacity: usize) -> Self {
        Self {
            board,
            table: DashMap::with_hasher(FxBuildHasher),
            capacity,
            nodes: AtomicU64::new(0),
            hits: AtomicU64::new(0),
            deadline: None,
            progress: &Silent,
            stopped: AtomicBool::new(false),
        }
    }

    /// The value of the position (X cells, O cells) for the player to move,
    /// on the current rayon pool. Contract: a legal position in play (no
    /// line, counts X = O or X = O + 1) — checked by [`value_of`].
    fn solve(&self, x: u64, o: u64) -> SearchResult {
        let (me, opp) = if x.count_ones() == o.count_ones() {
            (x, o)
        } else {
            (o, x)
        };
        // Null-window probes: first "at least a draw?", then "a win?".
        let value = if self.root(me, opp, -1, 0) >= 0 {
            if self.root(me, opp, 0, 1) >= 1 {
                1
            } else {
                0
            }
        } else {
            -1
        };
        SearchResult {
            value: match value {
                1 => Outcome::Win,
                0 => Outcome::Draw,
                _ => Outcome::Loss,
            },
            nodes: self.nodes.load(Relaxed),
            hits: self.hits.load(Relaxed),
        }
    }

    /// The root, its moves split across the workers. Every child is
    /// searched with the root's window; the result is exact within it.
    fn root(&self, me: u64, opp: u64, alpha: i8, beta: i8) -> i8 {
        let moves = match self.moves(me, opp) {
            Ok(moves) => moves,
            Err(value) => return value,
        };
        moves
            .par_iter()
            .map(|&cell| -self.negamax(opp, me | 1 << cell, -beta, -alpha))
            .max()
            .expect("a position in play has a move")
    }

    /// The moves worth searching, best first, or the value when it is
    /// already clear (a full board, an immediate win, a double threat).
    fn moves(&self, me: u64, opp: u64) -> std::result::Result<Vec<u32>, i8> {
        let b = self.board;
        let empty = b.full & !(me | opp);
        if empty == 0 {
            return Err(0);
        }
        let cells = b.playable(empty);
        if cells.iter().any(|&c| b.completes(me, c)) {
            return Err(1);
        }
        let threats: Vec<u32> = cells
            .iter()
            .copied()
            .filter(|&c| b.completes(opp, c))
            .collect();
        match threats.len() {
            0 => Ok(cells),
            1 => Ok(threats),
            _ => Err(-1),
        }
    }

    /// Fail-soft negamax on {-1, 0, 1} for the player owning `me`.
    fn negamax(&self, me: u64, opp: u64, mut alpha: i8, mut beta: i8) -> i8 {
        let visited = self.nodes.fetch_add(1, Relaxed);
        if self.stopped.load(Relaxed) {
            return 0;
        }
        if visited.is_multiple_of(4096) {
            self.progress.advance(4096);
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.stopped.store(true, Relaxed);
                return 0;
            }
        }
        let moves = match self.moves(me, opp) {
            Ok(moves) => moves,
            Err(value) => return value,
        };
        let key = self.board.canonical(me, opp);
        let (mut lower, mut upper) = (-1i8, 1i8);
        if let Some(entry) = self.table.get(&key) {
            (lower, upper) = unpack(*entry);
            self.hits.fetch_add(1, Relaxed);
            if lower >= beta || upper <= alpha || lower == upper {
                return if lower >= beta { lower } else { upper };
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut best = -2i8;
        for cell in moves {
            let v = -self.negamax(opp, me | 1 << cell, -beta, -alpha);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        if best <= alpha0 {
            upper = upper.min(best);
        } else if best >= beta0 {
            lower = lower.max(best);
        } else {
            (lower, upper) = (best, best);
        }
        // Checked after the children: a child abandoned at the deadline
        // returns a meaningless 0, and the flag is already set when it does.
        if self.stopped.load(Relaxed) {
            return 0;
        }
        if self.table.len() < self.capacity || self.table.contains_key(&key) {
            self.table.insert(key, pack(lower, upper));
        }
        best
    }
}

/// The perfect-play value of (X cells, O cells) for the player to move:
/// refuses illegal counts and finished positions. On a gravity board the
/// stones must stand in stacks from the bottom (not checked).
pub fn value_of(board: &SearchBoard, x: u64, o: u64, capacity: usize) -> Result<SearchResult> {
    Ok(value_within(board, x, o, capacity, None)?.expect("no deadline, so the search finishes"))
}

/// [`value_of`], giving up at `deadline`: `Ok(None)` when the search did not
/// finish in time (nothing it found is then reported).
pub fn value_within(
    board: &SearchBoard,
    x: u64,
    o: u64,
    capacity: usize,
    deadline: Option<Instant>,
) -> Result<Option<SearchResult>> {
    value_reporting(board, x, o, capacity, deadline, &Silent)
}

/// [`value_within`], telling `progress` of the nodes searched (stage
/// "nodes", in steps of 4,096; the total is unknown, given as 0).
pub fn value_reporting(
    board: &SearchBoard,
    x: u64,
    o: u64,
    capacity: usize,
    deadline: Option<Instant>,
    progress: &dyn Progress,
) -> Result<Option<SearchResult>> {
    let (xs, os) = (x.count_ones(), o.count_ones());
    if x & o != 0 || (x | o) & !board.full != 0 {
        return Err(Error::InvalidInput(
            "the stones overlap or lie off the board".into(),
        ));
    }
    if xs != os && xs != os + 1 {
        return Err(Error::InvalidInput(format!(
            "X has {xs} stones and O {os}: not a position of a game (X moves first)"
        )));
    }
    if board.has_line(x) || board.has_line(o) || (x | o) == board.full {
        return Err(Error::InvalidInput(
            "the game is already over in this position".into(),
        ));
    }
    progress.stage("nodes", 0);
    let searcher = Searcher {
        deadline,
        progress,
        ..Searcher::new(board, capacity)
    };
    let result = searcher.solve(x, o);
    Ok((!searcher.stopped.load(Relaxed)).then_some(result))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_known_values() {
        let value = |r, c, k| {
            value_of(&SearchBoard::new(r, c, k).unwrap(), 0, 0, 1 << 20)
                .unwrap()
                .value
        };
        assert_eq!(value(3, 3, 3), Outcome::Draw);
        assert_eq!(value(4, 3, 3), Outcome::Win);
        assert_eq!(value(3, 3, 2), Outcome::Win);
        assert_eq!(value(1, 2, 2), Outcome::Draw);
    }

    #[test]
    fn bounds_pack_and_unpack() {
        for lower in -1..=1 {
            for upper in lower..=1 {
                assert_eq!(unpack(pack(lower, upper)), (lower, upper));
            }
        }
    }
}

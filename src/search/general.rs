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

use crate::board::BoardSize;
use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use dashmap::DashMap;
use rayon::prelude::*;
use rustc_hash::FxBuildHasher;

use crate::error::{Error, Result};
use crate::game::Outcome;
use crate::rules::mnk::map_cell;
use crate::runtime::clock::Clock;
use crate::runtime::progress::{Progress, Silent};

/// Largest side of a search board (that of the position language); a board
/// holds at most [`crate::position::WORD_CELLS`] cells.
pub use crate::position::MAX_SIDE;

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
    pub fn new(size: BoardSize) -> Result<Self> {
        Self::build(size.rows, size.cols, size.k, false)
    }

    /// A gravity board (the Connect-Four family) of `cols` columns and
    /// `rows` rows: a stone drops to the lowest empty cell of its column.
    /// Cell `r · cols + c` is row `r` from the bottom, column `c`.
    pub fn gravity(size: BoardSize) -> Result<Self> {
        Self::build(size.rows, size.cols, size.k, true)
    }

    /// Validates and precomputes lines, move order and symmetries.
    fn build(rows: u32, cols: u32, k: u32, gravity: bool) -> Result<Self> {
        if !(1..=MAX_SIDE).contains(&rows)
            || !(1..=MAX_SIDE).contains(&cols)
            || rows * cols > crate::position::WORD_CELLS
        {
            return Err(Error::InvalidInput(format!("a {cols}×{rows} board is outside what search handles (sides 1..={MAX_SIDE}, at most 64 cells)")));
        }
        if k == 0 || k > rows.max(cols) {
            return Err(Error::InvalidInput(format!(
                "k = {k} does not fit a {rows}×{cols} board (1 ≤ k ≤ {})",
                rows.max(cols)
            )));
        }
        let cells = rows * cols;
        let mut lines_through = vec![Vec::new(); cells as usize];
        for line in crate::position::winning_lines(cols, rows, k) {
            let mask = line.iter().fold(0u64, |m, &cell| m | 1 << cell);
            for &cell in &line {
                lines_through[cell as usize].push(mask);
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

    /// Cells of the board.
    pub fn cells(&self) -> u32 {
        self.rows * self.cols
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
    /// The exact score for the player to move (see [`Precision::Exact`]);
    /// `None` for a weak search.
    pub score: Option<i8>,
    /// Plies to the end under perfect play (winner fastest, loser slowest);
    /// `None` for a weak search.
    pub depth: Option<u32>,
    /// Positions visited.
    pub nodes: u64,
    /// Transposition-table hits that decided or narrowed a node.
    pub hits: u64,
    /// A best move, where the engine tells it (the bitboard engine: the
    /// cell's bit): one whose value is the position's. With several best
    /// moves, which one may depend on the thread count.
    pub best: Option<u64>,
}

impl SearchResult {
    /// The result of a search that found `score` to `precision` for a
    /// position with `stones` on a board of `cells`, after visiting `nodes`
    /// positions with `hits` table hits (the pair `(nodes, hits)`).
    pub fn of_score(
        score: i8,
        precision: Precision,
        stones: u32,
        cells: u32,
        (nodes, hits): (u64, u64),
    ) -> Self {
        let exact = precision == Precision::Exact;
        Self {
            value: match score.signum() {
                1 => Outcome::Win,
                0 => Outcome::Draw,
                _ => Outcome::Loss,
            },
            score: exact.then_some(score),
            depth: exact.then(|| depth_of_score(score, stones, cells)),
            nodes,
            hits,
            best: None,
        }
    }
}

/// The score of a root to `precision`, from null-window probes of
/// `probe(alpha, beta)`, a fail-soft search of the root that also returns
/// the move (engine-specific, 0 if none) that gave its value. Weak: "a
/// win?", then "at least a draw?" (a score of 1, 0 or −1). Exact: the
/// score lies within `bounds`, on a root with `empty` empty cells; each
/// probe returns a true bound that moves one bound past the probe, until
/// they meet or `clock` stops (see [`next_probe`] for the order).
///
/// Also returns a best move: the one whose value raised the lower bound to
/// the score (its value is at least the score, so exactly it), or `None`
/// when the score is the lowest the bounds allowed (then every move is as
/// bad) or the search was weak and lost.
pub(crate) fn score_by_probes(
    precision: Precision,
    bounds: (i8, i8),
    empty: u32,
    clock: &Clock,
    probe: impl Fn(i8, i8) -> (i8, u64),
) -> (i8, Option<u64>) {
    match precision {
        Precision::Weak => {
            let (r, m) = probe(0, 1);
            if r >= 1 {
                return (1, Some(m));
            }
            let (r, m) = probe(-1, 0);
            if r >= 0 {
                (0, Some(m))
            } else {
                (-1, None)
            }
        }
        Precision::Exact => {
            let scores = Scores::of(empty);
            let (mut lower, mut upper) = bounds;
            if lower < upper {
                (lower, upper) = (scores.at_least(lower), scores.at_most(upper));
            }
            let mut best = None;
            let mut nearest_tried = false;
            while lower < upper && !clock.stopped() {
                // a draw still in the bounds (as after "not a win") leaves
                // the sign open: the nearest score comes after it is settled
                let sign_known = lower > 0 || upper < 0;
                let mid = next_probe(&scores, lower, upper, sign_known && !nearest_tried);
                nearest_tried |= sign_known;
                let (r, m) = probe(mid, mid + 1);
                if r <= mid {
                    upper = scores.at_most(r);
                } else {
                    lower = scores.at_least(r);
                    best = Some(m);
                }
            }
            (lower, best)
        }
    }
}

/// Whether a position with `empty` empty cells can have the exact score
/// `score` (see [`Precision::Exact`]): at most `empty` either way, a win of
/// the parity of `empty`, a loss of the other.
pub fn score_possible(score: i8, empty: u32) -> bool {
    u32::from(score.unsigned_abs()) <= empty && Scores::of(empty).possible(score)
}

/// The exact scores a position with `empty` empty cells can have (see
/// [`Precision::Exact`]). The player to move places the 1st, 3rd, 5th … of
/// the stones still to come, so a win of theirs scores `empty`,
/// `empty − 2`, …, a loss (the opponent completing a line with the 2nd,
/// 4th … stone) `−(empty − 1)`, `−(empty − 3)`, …, and a draw 0: on each
/// side every other integer is skipped.
struct Scores {
    /// The parity of a win's scores (0 or 1).
    win_parity: i8,
}

impl Scores {
    fn of(empty: u32) -> Self {
        Self {
            win_parity: (empty % 2) as i8,
        }
    }

    /// Whether `v` can be a score.
    fn possible(&self, v: i8) -> bool {
        let parity = v.rem_euclid(2);
        match v.signum() {
            1 => parity == self.win_parity,
            -1 => parity != self.win_parity,
            _ => true,
        }
    }

    /// The least possible score at least `v`.
    fn at_least(&self, v: i8) -> i8 {
        if self.possible(v) {
            v
        } else {
            v + 1
        }
    }

    /// The greatest possible score at most `v`.
    fn at_most(&self, v: i8) -> i8 {
        if self.possible(v) {
            v
        } else {
            v - 1
        }
    }
}

/// A node's bounds `(lower, upper)` once a fail-soft search with the window
/// `(alpha0, beta0)` returned `best`: an upper bound at or below the
/// window, a lower bound at or above it, the exact value inside it.
#[inline]
pub(crate) fn bounds_after_search(
    best: i8,
    (alpha0, beta0): (i8, i8),
    (lower, upper): (i8, i8),
) -> (i8, i8) {
    if best <= alpha0 {
        (lower, upper.min(best))
    } else if best >= beta0 {
        (lower.max(best), upper)
    } else {
        (best, best)
    }
}

/// The next probe "is the score at most `mid`?" for a score known to lie in
/// `lower ..= upper` (both possible scores, `lower < upper`): first the
/// sign (is it a win? then: is it at least a draw?), since most positions
/// lie near a draw and those two probes settle a draw; then, once
/// (`nearest_first`), the score nearest the draw left (the slowest win, the
/// fastest loss beyond it): under perfect play games run long, so that
/// probe most often settles the score; then the middle of the possible
/// scores left, leaning towards 0, so a fast win still takes a logarithmic
/// number of probes. Against halving from the start, measured at 1 thread:
/// the 1,000 middle 7×6 positions 5.06 → 4.25 s (every score as shipped),
/// 6×6 and the empty 7×6 board unchanged (24.3 M and 336 M nodes). The
/// nearest score must wait until the sign is settled (a loss, after "a
/// win?" and "a draw?"): once it was spent on "a draw?", the empty 6×6
/// board (the slowest loss) halved its way down in four more probes; now
/// one: 4.58 → 4.15 s at 1 thread. Asking "a draw?" first instead (as c4
/// does) was slower: 6×6 4.50 s, the empty 7×6 board at 2 threads 32.7 →
/// 43.2 s.
fn next_probe(scores: &Scores, lower: i8, upper: i8, nearest_first: bool) -> i8 {
    if lower < 0 && upper > 0 {
        return 0;
    }
    if upper == 0 {
        return -1;
    }
    // the possible scores of one sign left are lower, lower + 2, …, upper
    // (0 is settled: a draw is already ruled in or out)
    let (low, high) = (scores.at_least(lower.max(1)), upper);
    let (low, high) = if lower >= 0 {
        (low, high)
    } else {
        (lower, scores.at_most(upper.min(-1)))
    };
    if nearest_first {
        // the score nearest the draw: is the win faster than the slowest
        // one left, the loss slower than the fastest?
        let mid = if lower >= 0 { low } else { high - 1 };
        return mid.clamp(lower, upper - 1);
    }
    let steps = (high - low) / 2;
    let mid = if lower >= 0 {
        low + 2 * ((steps - 1) / 2)
    } else {
        low + 2 * (steps / 2)
    };
    mid.clamp(lower, upper - 1)
}

/// What a search proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// Win / draw / loss only: two null-window probes around the draw.
    Weak,
    /// The exact score, hence the exact depth: a win whose winning stone is
    /// placed when `m` stones are on the board scores `cells − m` (so a
    /// faster win scores more), a loss the negation, a draw 0 — found by
    /// narrowing a null window until the bounds meet.
    Exact,
}

/// The probe that tells whether a move keeps its parent's value: the move
/// is best when the child's exact score is at most the returned bound
/// (see [`Precision::Exact`]), the parent being worth `value` in `depth`
/// plies (`None`: a weak search) with `child_stones − 1` stones on a board
/// of `cells`. `None` when every move keeps the value (a weak loss).
pub fn best_child_bound(
    value: Outcome,
    depth: Option<u32>,
    child_stones: u32,
    cells: u32,
) -> Option<i8> {
    // the parent's score is the largest negated child score, so a child is
    // best exactly when its score is at most the parent's negated
    let magnitude = |d: u32| (cells + 2 - child_stones - d) as i8;
    match (value, depth) {
        (Outcome::Draw, _) => Some(0),
        (Outcome::Win, Some(d)) => Some(-magnitude(d)),
        (Outcome::Loss, Some(d)) => Some(magnitude(d)),
        (Outcome::Win, None) => Some(-1),
        (Outcome::Loss, None) => None,
    }
}

/// Plies to the end for a position with `stones` on a board of `cells`
/// whose exact score is `score` (see [`Precision::Exact`]): a draw fills the
/// board; a win or loss ends with the stone placed when `cells − |score|`
/// stones are on the board.
pub fn depth_of_score(score: i8, stones: u32, cells: u32) -> u32 {
    if score == 0 {
        cells - stones
    } else {
        cells + 1 - u32::from(score.unsigned_abs()) - stones
    }
}

/// Bounds packed in 16 bits: lower in the low byte, upper in the high one.
fn pack(lower: i8, upper: i8) -> u16 {
    u16::from(lower as u8) | u16::from(upper as u8) << 8
}

fn unpack(bounds: u16) -> (i8, i8) {
    (bounds as u8 as i8, (bounds >> 8) as u8 as i8)
}

/// A search over one board, with its shared transposition table.
pub struct Searcher<'a> {
    /// The board: borrowed, or owned by a searcher kept between questions
    /// ([`Searcher::owning`]).
    board: Cow<'a, SearchBoard>,
    table: DashMap<(u64, u64), u16, FxBuildHasher>,
    capacity: usize,
    nodes: AtomicU64,
    hits: AtomicU64,
    /// Told of every 4,096 nodes.
    progress: &'a dyn Progress,
    /// The clock of [`Self::search`] and [`Self::score_at_most`]: once it
    /// stops, those searches unwind and store nothing (a result then may
    /// rest on abandoned children). [`Self::search_within`] brings its own.
    clock: Clock<'static>,
}

impl<'a> Searcher<'a> {
    /// A searcher whose table keeps at most `capacity` positions.
    pub fn new(board: &'a SearchBoard, capacity: usize) -> Self {
        Self::of(Cow::Borrowed(board), capacity)
    }

    /// A searcher that owns its board, told of the nodes searched like
    /// [`Searcher::reporting`], with no deadline of its own.
    pub fn owning(board: SearchBoard, capacity: usize, progress: &'a dyn Progress) -> Self {
        progress.stage("nodes", 0);
        Searcher {
            progress,
            ..Self::of(Cow::Owned(board), capacity)
        }
    }

    /// A searcher of `board` whose table keeps at most `capacity` positions.
    fn of(board: Cow<'a, SearchBoard>, capacity: usize) -> Self {
        Self {
            board,
            table: DashMap::with_hasher(FxBuildHasher),
            capacity,
            nodes: AtomicU64::new(0),
            hits: AtomicU64::new(0),
            progress: &Silent,
            clock: Clock::default(),
        }
    }

    /// The value of the position (X cells, O cells) for the player to move,
    /// on the current rayon pool. Contract: a legal position in play (no
    /// line, counts X = O or X = O + 1) — checked by [`value_of`].
    fn solve(&self, x: u64, o: u64, precision: Precision, clock: &Clock) -> SearchResult {
        let (me, opp) = if x.count_ones() == o.count_ones() {
            (x, o)
        } else {
            (o, x)
        };
        let stones = (x | o).count_ones();
        let cells = self.board.cells();
        let bounds = match self.moves(me, opp) {
            // decided without search: the probes would only confirm it
            Err(decided) => (decided, decided),
            Ok(_) => self.static_bounds(stones, false),
        };
        let (score, _) =
            score_by_probes(precision, bounds, cells - stones, clock, |alpha, beta| {
                (self.root(me, opp, alpha, beta, clock), 0)
            });
        SearchResult::of_score(
            score,
            precision,
            stones,
            cells,
            (self.nodes.load(Relaxed), self.hits.load(Relaxed)),
        )
    }

    /// The scores a position with `stones` on the board can still have:
    /// the mover cannot win before placing a stone (or, when `no_win_now`,
    /// before their next stone), and cannot lose before the opponent's next
    /// stone; a draw is always within.
    fn static_bounds(&self, stones: u32, no_win_now: bool) -> (i8, i8) {
        let cells = self.board.cells() as i8;
        let n = stones as i8;
        let fastest_win = if no_win_now { n + 2 } else { n };
        ((n + 1 - cells).min(0), (cells - fastest_win).max(0))
    }

    /// The root, its moves split across the workers. Every child is
    /// searched with the root's window; the result is fail-soft within it.
    fn root(&self, me: u64, opp: u64, alpha: i8, beta: i8, clock: &Clock) -> i8 {
        let moves = match self.moves(me, opp) {
            Ok(moves) => moves,
            Err(value) => return value,
        };
        moves
            .par_iter()
            .map(|&cell| -self.negamax(opp, me | 1 << cell, -beta, -alpha, clock))
            .max()
            .expect("a position in play has a move")
    }

    /// The moves worth searching, best first, or the exact score when it is
    /// already clear (a full board, an immediate win, a double threat).
    fn moves(&self, me: u64, opp: u64) -> std::result::Result<Vec<u32>, i8> {
        let b = &*self.board;
        let empty = b.full & !(me | opp);
        if empty == 0 {
            return Err(0);
        }
        let cells = b.cells() as i8;
        let n = (me | opp).count_ones() as i8;
        let playable = b.playable(empty);
        if playable.iter().any(|&c| b.completes(me, c)) {
            return Err(cells - n);
        }
        let threats: Vec<u32> = playable
            .iter()
            .copied()
            .filter(|&c| b.completes(opp, c))
            .collect();
        match threats.len() {
            0 => Ok(playable),
            1 => Ok(threats),
            // one is blocked, the other completes with the next stone
            _ => Err(-(cells - n - 1)),
        }
    }

    /// Fail-soft negamax on exact scores for the player owning `me`, until
    /// `clock` stops.
    fn negamax(&self, me: u64, opp: u64, mut alpha: i8, mut beta: i8, clock: &Clock) -> i8 {
        let visited = self.nodes.fetch_add(1, Relaxed);
        if clock.out_of_time(visited, self.progress) {
            return 0;
        }
        let moves = match self.moves(me, opp) {
            Ok(moves) => moves,
            Err(value) => return value,
        };
        let (mut lower, mut upper) = self.static_bounds((me | opp).count_ones(), true);
        let key = self.board.canonical(me, opp);
        if let Some(entry) = self.table.get(&key) {
            let (l, u) = unpack(*entry);
            (lower, upper) = (lower.max(l), upper.min(u));
            self.hits.fetch_add(1, Relaxed);
        }
        if lower >= beta || upper <= alpha || lower == upper {
            return if lower >= beta { lower } else { upper };
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        let (alpha0, beta0) = (alpha, beta);
        let mut best = i8::MIN;
        for cell in moves {
            let v = -self.negamax(opp, me | 1 << cell, -beta, -alpha, clock);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        (lower, upper) = bounds_after_search(best, (alpha0, beta0), (lower, upper));
        // Checked after the children: a child abandoned at the deadline
        // returns a meaningless 0, and the clock has stopped when it does.
        if clock.stopped() {
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
    let searcher = Searcher {
        clock: Clock::until(deadline),
        ..Searcher::new(board, capacity)
    };
    searcher.search(x, o, Precision::Weak)
}

impl<'a> Searcher<'a> {
    /// A searcher that tells `progress` of the nodes searched (stage
    /// "nodes", in steps of 4,096; the total is unknown, given as 0) and
    /// gives up at `deadline`.
    pub fn reporting(
        board: &'a SearchBoard,
        capacity: usize,
        deadline: Option<Instant>,
        progress: &'a dyn Progress,
    ) -> Searcher<'a> {
        progress.stage("nodes", 0);
        Searcher {
            clock: Clock::until(deadline),
            progress,
            ..Searcher::new(board, capacity)
        }
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }

    /// Transposition hits so far.
    pub fn hits(&self) -> u64 {
        self.hits.load(Relaxed)
    }

    /// Searches (X cells, O cells) to `precision`, reusing what earlier
    /// searches of this searcher stored: `Ok(None)` once the deadline has
    /// passed. Refuses overlapping stones, illegal counts and finished
    /// positions. Node and hit counts add up over the searcher's life.
    pub fn search(&self, x: u64, o: u64, precision: Precision) -> Result<Option<SearchResult>> {
        self.search_within(x, o, precision, &self.clock)
    }

    /// [`Self::search`] until `clock` stops instead of the searcher's
    /// deadline: `Ok(None)` then. Searches with clocks of their own may
    /// share the searcher; each clock stops only its own search.
    pub fn search_within(
        &self,
        x: u64,
        o: u64,
        precision: Precision,
        clock: &Clock,
    ) -> Result<Option<SearchResult>> {
        self.check(x, o)?;
        let result = self.solve(x, o, precision, clock);
        Ok((!clock.stopped()).then_some(result))
    }

    /// Whether the exact score of (X cells, O cells) is at most `bound`:
    /// one null-window probe, reusing the table. `Ok(None)` once the
    /// deadline has passed. Refuses what [`Self::search`] refuses.
    pub fn score_at_most(&self, x: u64, o: u64, bound: i8) -> Result<Option<bool>> {
        self.score_at_most_within(x, o, bound, &self.clock)
    }

    /// [`Self::score_at_most`] until `clock` stops: `Ok(None)` then.
    pub fn score_at_most_within(
        &self,
        x: u64,
        o: u64,
        bound: i8,
        clock: &Clock,
    ) -> Result<Option<bool>> {
        self.check(x, o)?;
        let (me, opp) = if x.count_ones() == o.count_ones() {
            (x, o)
        } else {
            (o, x)
        };
        let score = self.root(me, opp, bound, bound.saturating_add(1), clock);
        Ok((!clock.stopped()).then_some(score <= bound))
    }

    /// Refuses overlapping stones, illegal counts and finished positions.
    fn check(&self, x: u64, o: u64) -> Result<()> {
        let board = &*self.board;
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
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The score [`score_by_probes`] finds for a position whose score is
    /// `score`, and the probes it took, each probe failing soft (the score
    /// itself) or hard (the bound it was asked).
    fn probe_for(score: i8, soft: bool, bounds: (i8, i8), empty: u32) -> (i8, usize) {
        let probes = std::cell::Cell::new(0);
        let (found, _) = score_by_probes(
            Precision::Exact,
            bounds,
            empty,
            &Clock::default(),
            |a, b| {
                probes.set(probes.get() + 1);
                let r = match (soft, score <= a) {
                    (true, _) => score,
                    (false, true) => a,
                    (false, false) => b,
                };
                (r, 0)
            },
        );
        (found, probes.get())
    }

    /// Every possible score of every root size is found by the probes,
    /// whether a probe returns the bound it was asked (fail-hard) or the
    /// score itself (fail-soft), in at most log2 of the possible scores
    /// plus the two sign probes; and an impossible score is never returned.
    #[test]
    fn probes_find_every_possible_score() {
        for empty in 1..=64u32 {
            let scores = Scores::of(empty);
            let e = empty as i8;
            let bounds = ((1 - e).min(0), e);
            let possible: Vec<i8> = (bounds.0..=bounds.1)
                .filter(|&v| scores.possible(v))
                .collect();
            // a win by the next stone and a loss by the one after it
            assert!(possible.contains(&e) && possible.contains(&0));
            assert!(empty < 2 || possible.contains(&(1 - e)));
            // the sign, the score nearest the draw, then halving
            let limit = 3 + (possible.len() as f64).log2().ceil() as usize;
            for &score in &possible {
                for soft in [false, true] {
                    let (found, probes) = probe_for(score, soft, bounds, empty);
                    assert_eq!(found, score, "empty {empty}, soft {soft}");
                    assert!(probes <= limit, "empty {empty}: {probes} probes");
                }
            }
        }
    }

    /// The scores nearest a draw, where games under perfect play mostly
    /// end, are settled at once after the sign: the slowest win in two
    /// probes ("a win?", "faster than the slowest?"), the slowest loss in
    /// three ("a win?", "a draw?", "slower than the fastest?"), however a
    /// probe fails.
    #[test]
    fn the_scores_nearest_a_draw_take_the_fewest_probes() {
        for empty in 2..=64u32 {
            let scores = Scores::of(empty);
            let e = empty as i8;
            let bounds = ((1 - e).min(0), e);
            let slowest_win = scores.at_least(1);
            let slowest_loss = scores.at_most(-1);
            for (score, limit) in [(slowest_win, 2), (slowest_loss, 3)] {
                for soft in [false, true] {
                    let (found, probes) = probe_for(score, soft, bounds, empty);
                    assert_eq!(found, score);
                    assert!(
                        probes <= limit,
                        "empty {empty}, score {score}, soft {soft}: {probes} probes"
                    );
                }
            }
        }
    }

    #[test]
    fn small_known_values() {
        let value = |r, c, k| {
            value_of(
                &SearchBoard::new(BoardSize::new(c, r, k)).unwrap(),
                0,
                0,
                1 << 20,
            )
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
        for lower in -64..=64 {
            for upper in lower..=64 {
                assert_eq!(unpack(pack(lower, upper)), (lower, upper));
            }
        }
    }
}

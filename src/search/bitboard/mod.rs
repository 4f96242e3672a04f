//! The search engine for boards that fit a 64-bit bitboard: gravity boards
//! (the Connect-Four family) and free-placement m,n,k boards, built for
//! speed: exact scores, as [`crate::search::general`] proves them, from the
//! ideas of the fastest Connect Four solvers (our own code).
//!
//! * **Bitboards with a sentinel row**, in the layout of
//!   [`crate::rules::gravity`] for both families: column `c` is bits
//!   `c·(rows+1) ..`, row 0 at the bottom, and the bit above each column
//!   stays empty, so shifts never carry a line from one column into the
//!   next.
//! * **Winning cells**: the empty cells that would complete `k` in a row
//!   for a player, computed for all cells at once with shifts.
//! * **Forced moves**: an opponent's winning cell that the mover can take
//!   must be taken, and two of them lose. On gravity boards a move right
//!   under an opponent's winning cell is never searched (non-losing moves
//!   only).
//! * **Move ordering**: the table's best move first, then by the winning
//!   cells a move creates, those right above a cell playable after the
//!   move counted twice (they must be answered soon), centre first on
//!   ties. Counting those twice took 7×5 from 15.5 to 12.3 M nodes and 6×6
//!   from 43.7 to 34.1 M at 1 thread (other weights within 2%). A new
//!   winning cell right above one of the opponent's is not counted (the
//!   opponent completes a line first; after c4's "useful threats"), and one
//!   of the opponent's right above a new one counts half (it is cut off):
//!   7×6 from the empty board at 1 thread 314 → 282 M nodes, 6×6 28.2 →
//!   26.4 M, 7×5 14.1 → 13.6 M. Counting threats two cells above a
//!   playable one as well cost 6–10% more nodes.
//! * **A lone move is played through**: a node with one non-losing move
//!   searches it in its place, without ordering, table look-up or entry
//!   of its own: 6×6 at 1 thread 24.3 → 28.2 M nodes (the lone moves are
//!   now counted twice) but 4.28 → 3.45 s, 7×5 2.1 → 1.66 s, 7×6 from the
//!   empty board about 74 → 50–60 s.
//! * **A fixed-size lock-free transposition table**
//!   ([`crate::search::bound_table`]): one 64-bit word an entry, exact keys,
//!   proven lower and upper bounds of the exact score. Symmetric positions
//!   share an entry: gravity boards are keyed by the position or its
//!   mirror image, m,n,k boards by the least of the four images under the
//!   mirrors and the half turn (all kept cheap: the mirror is updated move
//!   by move, the half turn is a bit reversal). A lost or overwritten entry
//!   costs time, never correctness. While a node orders its moves it starts
//!   fetching every child's entry, so the table's cache misses overlap.
//!   A table of 2^22 entries or more also keeps each position's best move
//!   (gravity boards: its column, in the orientation of the key), searched
//!   first when the position comes again.
//! * **Enhanced transposition cut-offs**: a node with at least
//!   `ETC_MIN_EMPTY` empty cells looks up every child before searching
//!   any, and a child whose stored upper bound already refutes it ends the
//!   node. Measured at 1 thread (nodes are repeatable there): 7×5
//!   18.6 → 15.5 M nodes, 6×6 57.9 → 44.9 M; 7×6 from the empty board at 2
//!   threads 1.06 G nodes / 80.1 s → 655 M / 56.8 s, back to back. The
//!   best move alone changed little (18.6 M on 7×5); from 8 empty cells
//!   ETC saves more nodes (14.5 M) but not more time.
//! * **Threat parity** (`parity.rs`, after Allis's claimeven and odd
//!   threats): a strategy of the player not to move — answer on top in
//!   the same column, pair the columns with an odd number of empty cells,
//!   leave over one that holds its threat — bounds the mover's score at 0
//!   or −1 in a few mask operations, on any height and for either player.
//!   Checked on each node and, before any child is searched, on every
//!   child (a child held to a loss or a draw may cut the node off). First
//!   for the first player to move on even heights only (claimeven): 6×6 at
//!   1 thread 44.9 → 43.7 M nodes, 30.3 M with the loss bound, 24.3 M with
//!   the odd columns paired. In full: 6×6 25.3 → 19.8 M nodes on the
//!   node, 14.6 M with every child screened; 7×5 13.6 → 8.6 → 6.5 M; 6×5
//!   1.66 → 0.90 G instructions (callgrind); 7×6 from the empty board at
//!   2 threads 278 → 167 M nodes, 36.8–43 s → 15.6 s.
//! * **Winning cells handed down**: a node's two sets of winning cells
//!   come from its parent, which computed them while ordering its moves
//!   (see `Lines`): 6×5 from the empty board at 1 thread 2.03 → 1.76 G
//!   instructions (callgrind).
//! * **Counters per thread** ([`crate::runtime::counters`]): no cache line
//!   is shared on every node.
//! * **Parallel search**: at the root the first move alone, the others
//!   split across the workers; within `SPLIT_PLIES` plies of the root a
//!   node whose first move did not cut off searches the others in parallel
//!   with the same window (young brothers wait); a cut-off by one stops
//!   the others, those not started and those running (a flag a split
//!   point, read by every node below it). All share the table. Stopping
//!   the running ones took 6×6 at 2 threads from 38–49 M nodes and
//!   2.7–3.6 s to 31–34 M and 2.1–2.8 s. The value never depends
//!   on the thread count; the node count, and which of equally good moves
//!   is named best, may. One worker never splits.
//!
//! Measured on 7×5 Connect Four from the empty board (exact score, 2^26
//! entries): 19.5 M nodes; the general engine with its dashmap table took
//! 250 s at 2 threads; here an earlier
//! two-word table with one shared node counter (2.15 M nodes/s at 1 thread)
//! were replaced by the one-word table, per-thread counters and prefetching:
//! 6.2–6.6 M nodes/s (3.0–3.2 s); splitting at the root alone gave 2.03 s
//! at 2 threads, young brothers wait 1.70 s. 7×6 from the empty board with
//! a 1 GiB table at 2 threads: 1.04 G nodes, 111 s.
//!
//! Scores are those of [`crate::search::general::Precision::Exact`]: a win
//! completed by the stone placed on `m` stones scores `cells − m`, a loss
//! the negation, a draw 0.

use crate::board::BoardSize;
use std::sync::atomic::{AtomicBool, AtomicI8, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::position::Family;
use crate::rules::gravity::Gravity;
use crate::runtime::clock::Clock;
use crate::runtime::counters::ThreadCounter;
use crate::runtime::progress::{Progress, Silent};
use crate::search::book::Book;
use crate::search::bound_table::BoundTable;
use crate::search::general::{bounds_after_search, score_by_probes, Precision, SearchResult};

mod parity;

/// A board prepared for search.
#[derive(Clone, Debug)]
pub struct Bitboard {
    family: Family,
    cols: u32,
    rows: u32,
    k: u32,
    cells: u32,
    /// The lowest cell of each column.
    bottom: u64,
    /// Every cell of the board (no sentinel).
    board: u64,
    /// The bits of the moves to try, centre first: gravity boards list
    /// columns (their bottom cells), m,n,k boards cells.
    order: Vec<u32>,
    /// Each column's cells.
    columns: Vec<u64>,
    /// Gravity boards: the cells at an even distance below the top of
    /// their column (see `parity.rs`); m,n,k boards: 0.
    follow_cells: u64,
}

/// Plies below the root where a node may split its moves across the
/// workers (young brothers wait); deeper nodes search their moves in turn.
const SPLIT_PLIES: u32 = 8;

/// A node splits only with more empty cells than this: smaller subtrees
/// cost less than handing them to another worker.
const SPLIT_MIN_EMPTY: i8 = 12;

/// Nodes with at least this many empty cells look up every child in the
/// table before searching any (enhanced transposition cut-offs): near the
/// root a cut-off saves a large subtree, near the leaves the look-ups cost
/// more than they save.
const ETC_MIN_EMPTY: i8 = 12;

/// Bytes a position of [`Bitboard::positions_in_play`] takes while
/// enumerated: the pair, its key in the set of one ply, and the book's
/// entry it becomes.
pub const POSITION_BYTES: u64 = 64;

/// The most moves a position has: at most 64 cells.
const MAX_MOVES: usize = 64;

impl Bitboard {
    /// The board of `family` with `cols` columns, `rows` rows and lines of
    /// `k`. Refuses a board whose cells and sentinels pass 64 bits, and
    /// an m,n,k board of more than [`MAX_MNK_CELLS`] cells (its key holds
    /// the position in 64 bits).
    pub fn new(family: Family, size: BoardSize) -> Result<Self> {
        let BoardSize { cols, rows, k } = size;
        let bad = |why: String| Err(Error::InvalidInput(why));
        if cols == 0 || rows == 0 || k == 0 || k > cols.max(rows) {
            return bad(format!(
                "a {cols} × {rows} board with lines of {k} cannot be searched"
            ));
        }
        if u64::from(cols) * u64::from(rows + 1) > 64 {
            return bad(format!(
                "a {cols} × {rows} board needs more than the 64 bits of the bitboard engine"
            ));
        }
        let cells = cols * rows;
        if family == Family::Mnk && cells > MAX_MNK_CELLS {
            return bad(format!(
                "an m,n,k board of {cells} cells is beyond the bitboard engine's {MAX_MNK_CELLS}"
            ));
        }
        let h = rows + 1;
        let bottom = (0..cols).fold(0u64, |b, c| b | 1 << (c * h));
        let column = (1u64 << rows) - 1;
        let board = (0..cols).fold(0u64, |b, c| b | column << (c * h));
        // doubled distances from the centre, so they are whole
        let col_off = |c: u32| (2 * c).abs_diff(cols - 1);
        let row_off = |r: u32| (2 * r).abs_diff(rows - 1);
        let mut order: Vec<u32> = match family {
            Family::Gravity => (0..cols).map(|c| c * h).collect(),
            Family::Mnk => (0..cols)
                .flat_map(|c| (0..rows).map(move |r| c * h + r))
                .collect(),
        };
        order.sort_by_key(|&bit| {
            let (c, r) = (bit / h, bit % h);
            match family {
                Family::Gravity => (col_off(c), 0, bit),
                Family::Mnk => (col_off(c).max(row_off(r)), col_off(c) + row_off(r), bit),
            }
        });
        Ok(Self {
            family,
            cols,
            rows,
            k,
            cells,
            bottom,
            board,
            order,
            columns: (0..cols).map(|c| column << (c * h)).collect(),
            follow_cells: match family {
                Family::Gravity => Self::follow_cells(cols, rows),
                Family::Mnk => 0,
            },
        })
    }

    /// The board of a gravity game.
    pub fn gravity(game: &Gravity) -> Self {
        let (cols, rows, k) = game.dimensions();
        Self::new(Family::Gravity, BoardSize { cols, rows, k })
            .expect("a gravity game fits its bitboard")
    }

    /// The family, columns, rows and line length.
    pub fn dimensions(&self) -> (Family, u32, u32, u32) {
        (self.family, self.cols, self.rows, self.k)
    }

    /// Cells of the board.
    pub fn cells(&self) -> u32 {
        self.cells
    }

    /// The bit of the cell in column `col` and row `row`, counted from the
    /// bottom.
    pub fn cell(&self, col: u32, row: u32) -> u64 {
        1u64 << (col * (self.rows + 1) + row)
    }

    /// The empty cells where `me` would complete `k` in a row: for each
    /// direction, a cell wins when `j` of my stones run from it one way and
    /// `k − 1 − j` the other way, for some `j`. Runs are built one step at a
    /// time (`ahead[t]`: the next `t` cells ahead are mine).
    /// `K` is the line length when known at compile time (the loops then
    /// unroll), or 0 to read it from the board.
    #[inline]
    fn winning_cells<const K: u32>(&self, me: u64, mask: u64) -> u64 {
        let h = self.rows + 1;
        let k = if K == 0 { self.k } else { K } as usize;
        let mut found = 0u64;
        // k ≤ the longer side ≤ 32 on a board of at most 64 bits
        let mut ahead = [!0u64; 33];
        for step in [1, h, h - 1, h + 1] {
            for t in 1..k {
                ahead[t] = ahead[t - 1] & me.checked_shr(step * t as u32).unwrap_or(0);
            }
            let mut behind = !0u64;
            for j in 0..k {
                if j > 0 {
                    behind &= me.checked_shl(step * j as u32).unwrap_or(0);
                }
                found |= behind & ahead[k - 1 - j];
            }
        }
        found & (self.board ^ mask)
    }

    /// Whether `stones` hold `k` in a row.
    pub fn has_line(&self, stones: u64) -> bool {
        let h = self.rows + 1;
        [1, h, h - 1, h + 1].iter().any(|&step| {
            (1..self.k).fold(stones, |run, t| {
                run & stones.checked_shr(step * t).unwrap_or(0)
            }) != 0
        })
    }

    /// The table key of the position of X stones `x` and occupied cells
    /// `occupied`: the same for its symmetric images, unique otherwise (module
    /// docs).
    pub fn position_key(&self, x: u64, occupied: u64) -> u64 {
        self.key(&self.node(mover_of(x, occupied), occupied))
    }

    /// The position `(x, occupied)` of a key made by
    /// [`Self::position_key`], or `None` for a word that no position has
    /// as its key (a word may still decode to an unreachable or finished
    /// position: see [`Self::stones_to_move`]).
    pub fn position_of_key(&self, key: u64) -> Option<(u64, u64)> {
        let (me, mask) = match self.family {
            // per column (rows + 1 bits): height h and stones s give
            // 2^h − 1 + s with s < 2^h, so the height is the top bit's
            Family::Gravity => {
                let h = self.rows + 1;
                let field = (1u64 << h) - 1;
                let (mut me, mut mask) = (0u64, 0u64);
                for c in 0..self.cols {
                    let v = (key >> (c * h)) & field;
                    let height = (v + 1).ilog2();
                    let column = (1u64 << height) - 1;
                    me |= (v - column) << (c * h);
                    mask |= column << (c * h);
                }
                if self.cols * h < 64 && key >> (self.cols * h) != 0 {
                    return None;
                }
                (me, mask)
            }
            Family::Mnk => {
                let unpack = |packed: u64| {
                    (0..self.cols).fold(0u64, |out, c| {
                        let column = (packed >> (c * self.rows)) & ((1u64 << self.rows) - 1);
                        out | column << (c * (self.rows + 1))
                    })
                };
                if self.cells > TWO_BIT_KEY_CELLS {
                    let (me, mask) = ternary_stones(key, self.cells)?;
                    (unpack(me), unpack(mask))
                } else {
                    let cells_mask = (1u64 << self.cells) - 1;
                    if self.cells < 32 && key >> (2 * self.cells) != 0 {
                        return None;
                    }
                    (unpack(key & cells_mask), unpack(key >> self.cells))
                }
            }
        };
        if me & !mask != 0 || mask & !self.board != 0 {
            return None;
        }
        Some((mover_of(me, mask), mask))
    }

    /// Every position in play (no line, not full) with at most `plies`
    /// stones, reachable from the empty board, one of each set of
    /// symmetric images: `[ply][i] = (x, occupied)`. Refuses (with the
    /// count reached) to hold more than `limit` positions of one ply.
    pub fn positions_in_play(&self, plies: u32, limit: usize) -> Result<Vec<Vec<(u64, u64)>>> {
        let mut by_ply = vec![vec![(0u64, 0u64)]];
        for ply in 1..=plies.min(self.cells) {
            let mut seen = std::collections::HashSet::new();
            let mut next = Vec::new();
            for &(x, occupied) in &by_ply[ply as usize - 1] {
                let x_moves = occupied.count_ones().is_multiple_of(2);
                let mut open = self.playable(occupied);
                while open != 0 {
                    let cell = open & open.wrapping_neg();
                    open ^= cell;
                    let (x, occupied) = (if x_moves { x | cell } else { x }, occupied | cell);
                    if !self.is_over(x, occupied) && seen.insert(self.position_key(x, occupied)) {
                        next.push((x, occupied));
                        if next.len() > limit {
                            return Err(Error::OverMemoryBudget {
                                what: format!("the positions of ply {ply} (more than {limit})"),
                                needed: crate::memory::Bytes(
                                    (limit as u64 + 1).saturating_mul(POSITION_BYTES),
                                ),
                                budget: crate::memory::Bytes(limit as u64 * POSITION_BYTES),
                                hint: "; raise {remedy}, or make a book of fewer plies".into(),
                                remedies: vec![crate::error::Remedy::give(
                                    crate::error::Setting::MaxMemory,
                                )],
                            });
                        }
                    }
                }
            }
            by_ply.push(next);
        }
        Ok(by_ply)
    }

    /// The stones of the player to move; refuses a position that is over
    /// or malformed.
    pub fn stones_to_move(&self, x: u64, occupied: u64) -> Result<u64> {
        let bad = |why: &str| Err(Error::InvalidInput(why.to_string()));
        if occupied & !self.board != 0 || x & !occupied != 0 {
            return bad("the stones lie off the board");
        }
        // each column's stones stand from the bottom: adding the bottom bit
        // carries through them to a single marker above
        if self.family == Family::Gravity && occupied.wrapping_add(self.bottom) & occupied != 0 {
            return bad("a stone floats");
        }
        let o = occupied & !x;
        if x.count_ones() != o.count_ones() && x.count_ones() != o.count_ones() + 1 {
            return bad("X has as many stones as O or one more");
        }
        if self.is_over(x, occupied) {
            return bad("the game is already over in this position");
        }
        Ok(mover_of(x, occupied))
    }

    /// The empty cells where the player with stones `me` would complete a
    /// line, occupied cells `mask` (for provers outside this module).
    pub fn winning_cells_of(&self, me: u64, mask: u64) -> u64 {
        self.winning_cells::<0>(me, mask)
    }

    /// The empty cells of the board, occupied cells `mask` (m,n,k boards:
    /// every one is a legal move).
    pub fn empty_cells(&self, mask: u64) -> u64 {
        self.board & !mask
    }

    /// Whether the position of X stones `x` and occupied cells `occupied`
    /// is over: a line, or a full board.
    fn is_over(&self, x: u64, occupied: u64) -> bool {
        self.has_line(x) || self.has_line(occupied & !x) || occupied.count_ones() == self.cells
    }

    /// The cells a stone may go on, occupied cells `mask` (for checkers
    /// outside this module).
    pub fn playable_cells(&self, mask: u64) -> u64 {
        self.playable(mask)
    }

    /// The cells a stone may go on.
    #[inline]
    fn playable(&self, mask: u64) -> u64 {
        match self.family {
            Family::Gravity => mask.wrapping_add(self.bottom) & self.board,
            Family::Mnk => self.board & !mask,
        }
    }

    /// `bits` with its columns in the other order.
    fn mirror(&self, bits: u64) -> u64 {
        let h = self.rows + 1;
        let column = (1u64 << h) - 1;
        (0..self.cols).fold(0u64, |m, c| {
            m | ((bits >> (c * h)) & column) << ((self.cols - 1 - c) * h)
        })
    }

    /// `bits` turned half a turn: column `c`, row `r` to column
    /// `cols − 1 − c`, row `rows − 1 − r` — a bit reversal and a shift.
    #[inline]
    fn half_turn(&self, bits: u64) -> u64 {
        // bit p goes to cols·h − 2 − p
        bits.reverse_bits() >> (65 - self.cols * (self.rows + 1))
    }

    /// `bits` without the sentinels: column `c` at bits `c·rows ..`.
    #[inline]
    fn packed(&self, bits: u64) -> u64 {
        let h = self.rows + 1;
        let column = (1u64 << self.rows) - 1;
        (0..self.cols).fold(0u64, |out, c| {
            out | ((bits >> (c * h)) & column) << (c * self.rows)
        })
    }

    /// The node of the position where the player to move has `me` and the
    /// occupied cells are `mask`.
    fn node(&self, me: u64, mask: u64) -> Node {
        Node {
            me,
            mask,
            mirror_me: self.mirror(me),
            mirror_mask: self.mirror(mask),
        }
    }

    /// The node after the player to move in `node` takes `cell`.
    #[inline]
    fn child(&self, node: &Node, cell: u64) -> Node {
        let h = self.rows + 1;
        let at = cell.trailing_zeros();
        let (column, row) = (at / h, at % h);
        let mirrored = 1u64 << ((self.cols - 1 - column) * h + row);
        Node {
            me: node.me ^ node.mask,
            mask: node.mask | cell,
            mirror_me: node.mirror_me ^ node.mirror_mask,
            mirror_mask: node.mirror_mask | mirrored,
        }
    }

    /// Whether `node`'s key is its mirror image's (gravity boards).
    #[inline]
    fn keyed_mirrored(&self, node: &Node) -> bool {
        node.mirror_me + node.mirror_mask < node.me + node.mask
    }

    /// The move `cell` of `node` as the table keeps it: its column in the
    /// orientation of the node's key (gravity boards; none on m,n,k boards,
    /// whose four symmetries are not worth mapping).
    #[inline]
    fn stored_move(&self, node: &Node, cell: u64) -> Option<u8> {
        if self.family != Family::Gravity {
            return None;
        }
        let column = cell.trailing_zeros() / (self.rows + 1);
        let column = if self.keyed_mirrored(node) {
            self.cols - 1 - column
        } else {
            column
        };
        u8::try_from(column).ok()
    }

    /// The playable cell of the column `stored` (as [`Self::stored_move`]
    /// keeps it) in `node`; 0 if the column is full.
    #[inline]
    fn move_bit(&self, node: &Node, stored: u8) -> u64 {
        let column = u32::from(stored);
        if column >= self.cols {
            return 0;
        }
        let column = if self.keyed_mirrored(node) {
            self.cols - 1 - column
        } else {
            column
        };
        self.playable(node.mask) & self.columns[column as usize]
    }

    /// The key of `node`'s position, the same for all its symmetric
    /// images (module docs), and unique otherwise.
    #[inline]
    fn key(&self, node: &Node) -> u64 {
        match self.family {
            // each column's stones plus its height marker: unique
            Family::Gravity => (node.me + node.mask).min(node.mirror_me + node.mirror_mask),
            Family::Mnk => {
                let turned = (self.half_turn(node.mask), self.half_turn(node.me));
                let mirrored_turned = (
                    self.half_turn(node.mirror_mask),
                    self.half_turn(node.mirror_me),
                );
                let (mask, me) = (node.mask, node.me)
                    .min((node.mirror_mask, node.mirror_me))
                    .min(turned)
                    .min(mirrored_turned);
                if self.cells <= TWO_BIT_KEY_CELLS {
                    self.packed(me) | self.packed(mask) << self.cells
                } else {
                    ternary_key(self.packed(me), self.packed(mask))
                }
            }
        }
    }
}

/// m,n,k boards with at most this many cells key a position by its two
/// packed stone masks side by side (a bit a cell each); larger ones, up to
/// [`MAX_MNK_CELLS`], by a number in base 3 ([`ternary_key`]).
const TWO_BIT_KEY_CELLS: u32 = 32;

/// The most cells of an m,n,k board the engine takes: 3^40 < 2^64, so a
/// base-3 key of 40 cells fits one word, exact.
pub const MAX_MNK_CELLS: u32 = 40;

/// Base-3 digits of every byte pair: `TERNARY[me | mask << 8]` for the 8
/// cells of a byte (`me` within `mask`) is Σ 3^i · (1 for the mover's
/// stone, 2 for the other's) over its cells `i`.
static TERNARY: std::sync::LazyLock<Vec<u16>> = std::sync::LazyLock::new(|| {
    (0..1u32 << 16)
        .map(|i| {
            let (me, mask) = (i & 0xff, i >> 8);
            (0..8).rev().fold(0u16, |v, c| {
                let digit = if mask >> c & 1 == 0 {
                    0
                } else if me >> c & 1 == 1 {
                    1
                } else {
                    2
                };
                v * 3 + digit
            })
        })
        .collect()
});

/// The key of packed stones (`me`, the mover's, within `mask`, at most
/// [`MAX_MNK_CELLS`] cells): cell `i` is digit `i` in base 3, 0 empty, 1
/// the mover's, 2 the other's — unique, and below 3^40 < 2^64.
fn ternary_key(me: u64, mask: u64) -> u64 {
    (0..5).rev().fold(0u64, |key, byte| {
        let at = byte * 8;
        let index = ((me >> at) & 0xff) | ((mask >> at) & 0xff) << 8;
        key * 6561 + u64::from(TERNARY[index as usize])
    })
}

/// The packed stones (`me`, `mask`) of a [`ternary_key`] of `cells` cells,
/// or `None` for a word no position has as its key.
fn ternary_stones(mut key: u64, cells: u32) -> Option<(u64, u64)> {
    let (mut me, mut mask) = (0u64, 0u64);
    for i in 0..cells {
        match key % 3 {
            1 => {
                me |= 1 << i;
                mask |= 1 << i;
            }
            2 => mask |= 1 << i,
            _ => {}
        }
        key /= 3;
    }
    (key == 0).then_some((me, mask))
}

/// A move as [`BoardSearcher::order_moves`] lists it: `word` its sort key
/// (ending in the move's bit, `word & 0xff`), `made` the mover's winning
/// cells after it.
#[derive(Clone, Copy, Debug, Default)]
struct Move {
    word: u32,
    made: u64,
}

impl Move {
    /// The cell the move takes.
    #[inline]
    fn cell(self) -> u64 {
        1u64 << (self.word & 0xff)
    }

    /// The child's winning cells, its parent's opponent's being `theirs`:
    /// those less the cell taken, and the ones the move made.
    #[inline]
    fn lines(self, theirs: u64) -> Lines {
        Lines {
            mine: theirs & !self.cell(),
            theirs: self.made,
        }
    }
}

/// The winning cells of a node's two players (see
/// [`Bitboard::winning_cells`]), handed down by its parent, which knows
/// them: the player to move's are the parent's opponent's less the cell
/// just taken (a stone only takes its own cell from the other player's
/// winning cells), the opponent's those the parent's move made.
#[derive(Clone, Copy, Debug)]
struct Lines {
    mine: u64,
    theirs: u64,
}

/// Why a search below a split point should stop: the flags of the split
/// points above it (young brothers wait), each set once one of its moves
/// has cut the node off, so the siblings still running stop at once.
struct Stop<'a> {
    flag: Option<&'a AtomicBool>,
    parent: Option<&'a Stop<'a>>,
}

impl Stop<'_> {
    /// Outside every split point: never stops.
    const NONE: Stop<'static> = Stop {
        flag: None,
        parent: None,
    };

    /// Whether a split point above has been cut off (at most
    /// `SPLIT_PLIES` flags to read).
    #[inline]
    fn stopped(&self) -> bool {
        let mut at = Some(self);
        while let Some(stop) = at {
            if stop.flag.is_some_and(|f| f.load(Relaxed)) {
                return true;
            }
            at = stop.parent;
        }
        false
    }
}

/// The stones of the player to move given X's stones `x` and the occupied
/// cells — and, the same exchange the other way, X's stones given the
/// mover's: X moves when the stones are even in number.
pub(crate) fn mover_of(stones: u64, occupied: u64) -> u64 {
    if occupied.count_ones().is_multiple_of(2) {
        stones
    } else {
        occupied & !stones
    }
}

/// A position in search: the stones of the player to move and the
/// occupied cells, and both mirrored left to right (kept up to date move by
/// move).
#[derive(Clone, Copy, Debug)]
struct Node {
    me: u64,
    mask: u64,
    mirror_me: u64,
    mirror_mask: u64,
}

/// Bytes one table entry takes: the table's size is the budget over this.
pub const BYTES_PER_ENTRY: u64 = crate::search::bound_table::BYTES_PER_ENTRY;

/// The largest table the bitboard engine allocates by default: it gains
/// little beyond this on the boards it can finish.
pub const BOARD_TABLE_CAP: u64 = 1 << 30;

/// Entries of the bitboard engine's table for searches of positions of
/// `family` with at most `empty` empty cells, within `budget`: at most
/// `BOARD_TABLE_CAP` bytes, and no more than 2^(12 + 3·empty/8) entries
/// on a gravity board or 2^(empty − 2) on an m,n,k board (more moves a
/// position: more positions searched). A table larger than the search needs
/// is slower, not only bigger: every page costs time to map and clear, and
/// random probes over it miss the caches. Measured on 7×6 Connect Four at
/// 2 threads: the empty board took 111 s with 1 GiB and 166 s with
/// 256 MiB; 20 positions of 6–13 stones 5.2 s with 64 MiB and 7.7 s with
/// 1 GiB; 1,000 positions of 14–27 stones 8.4 s with 32 MiB, 9.4 s with
/// 8 MiB. So the empty 7×6 board gets the whole cap, 6×6 and 7×5 256 MiB,
/// a 7×6 position with 28 empty cells 32 MiB; the empty 5×5 m,n,k board
/// 64 MiB.
pub fn board_table_entries(budget: &crate::memory::Budget, family: Family, empty: u32) -> usize {
    let bytes = budget.0 .0.min(BOARD_TABLE_CAP);
    let entries = bytes / BYTES_PER_ENTRY;
    let log2 = match family {
        Family::Gravity => 12 + empty * 3 / 8,
        Family::Mnk => empty.saturating_sub(2),
    };
    entries.min(1u64 << log2.min(40)) as usize
}

/// A search over one board, with its table.
pub struct BoardSearcher<'a> {
    board: Bitboard,
    table: BoundTable,
    nodes: ThreadCounter,
    hits: ThreadCounter,
    progress: &'a dyn Progress,
    /// The clock of [`Self::search`] and [`Self::score_at_most`] (the
    /// searcher's deadline); [`Self::search_within`] brings its own.
    clock: Clock<'static>,
    /// Whether a search splits its moves across the pool's workers; when
    /// not, each search runs on its calling thread alone (many searches
    /// side by side).
    split_workers: bool,
    /// Exact scores of positions proved before ([`Book`]), looked up at
    /// every node with at most the book's stones.
    book: Option<Arc<Book>>,
}

impl<'a> BoardSearcher<'a> {
    /// A searcher on `board` whose table holds `entries` entries, giving up
    /// at `deadline`, telling `progress` of every 4,096 nodes.
    pub fn new(
        board: Bitboard,
        entries: usize,
        deadline: Option<Instant>,
        progress: &'a dyn Progress,
    ) -> Self {
        progress.stage("nodes", 0);
        Self {
            board,
            table: BoundTable::new(entries),
            nodes: ThreadCounter::default(),
            hits: ThreadCounter::default(),
            progress,
            clock: Clock::until(deadline),
            split_workers: true,
            book: None,
        }
    }

    /// The same searcher answering from `book` the positions it holds.
    /// Contract: the book was made for this board (see
    /// `crate::tablefile::book`, which checks it).
    pub fn with_book(mut self, book: Arc<Book>) -> Self {
        self.set_book(book);
        self
    }

    /// Answers from `book` from now on (see [`Self::with_book`]).
    pub fn set_book(&mut self, book: Arc<Book>) {
        self.book = (!book.is_empty()).then_some(book);
    }

    /// The book the searcher answers from, if any.
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// The same searcher for many searches run side by side, each on its
    /// calling thread alone (no search splits its moves): the workers
    /// share the table, and [`Self::nodes_on_this_thread`] tells each
    /// search's nodes.
    pub fn side_by_side(self) -> Self {
        Self {
            split_workers: false,
            ..self
        }
    }

    /// Nodes the calling thread has visited: a search run on this thread
    /// alone (see [`Self::side_by_side`]) visited the difference of two
    /// readings, with at most `crate::runtime::counters::SLOTS` workers.
    pub fn nodes_on_this_thread(&self) -> u64 {
        self.nodes.this_thread()
    }

    /// A searcher with no deadline and no progress.
    pub fn quiet(board: Bitboard, entries: usize) -> BoardSearcher<'static> {
        BoardSearcher::new(board, entries, None, &Silent)
    }

    /// The board searched.
    pub fn board(&self) -> &Bitboard {
        &self.board
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.total()
    }

    /// Table hits so far.
    pub fn hits(&self) -> u64 {
        self.hits.total()
    }

    /// Searches the position of X stones `x` and occupied cells `occupied`
    /// (the bitboard layout of the module docs) to `precision`, on the
    /// current rayon pool: `Ok(None)` once the deadline has passed. Refuses
    /// a position that is over or malformed.
    pub fn search(
        &self,
        x: u64,
        occupied: u64,
        precision: Precision,
    ) -> Result<Option<SearchResult>> {
        self.search_within(x, occupied, precision, &self.clock)
    }

    /// [`Self::search`] until `clock` stops instead of the searcher's
    /// deadline: `Ok(None)` then. Searches with clocks of their own may
    /// share the searcher and its table side by side; each clock stops
    /// only its own search.
    pub fn search_within(
        &self,
        x: u64,
        occupied: u64,
        precision: Precision,
        clock: &Clock,
    ) -> Result<Option<SearchResult>> {
        let b = &self.board;
        let me = self.board.stones_to_move(x, occupied)?;
        let stones = occupied.count_ones();
        // a root of the book's deepest ply: its score at once (its
        // children are not in the book; a shallower root's search finds
        // them there in a few nodes, and names its best move)
        if let Some(score) = self.deepest_book_score(x, occupied) {
            let score = match precision {
                Precision::Weak => score.signum(),
                Precision::Exact => score,
            };
            return Ok(Some(SearchResult::of_score(
                score,
                precision,
                stones,
                b.cells,
                (self.nodes(), self.hits()),
            )));
        }
        let (cells, n) = (b.cells as i8, stones as i8);
        let bounds = ((n + 1 - cells).min(0), (cells - n).max(0));
        let empty = b.cells - stones;
        let (score, best) = score_by_probes(precision, bounds, empty, clock, |alpha, beta| {
            self.probe(me, occupied, alpha, beta, clock)
        });
        if clock.stopped() {
            return Ok(None);
        }
        Ok(Some(SearchResult {
            best,
            ..SearchResult::of_score(
                score,
                precision,
                stones,
                b.cells,
                (self.nodes(), self.hits()),
            )
        }))
    }

    /// Whether the exact score of the position (as [`Self::search`] takes
    /// it) is at most `bound`: one null-window probe, reusing the table.
    /// `Ok(None)` once the deadline has passed.
    pub fn score_at_most(&self, x: u64, occupied: u64, bound: i8) -> Result<Option<bool>> {
        self.score_at_most_within(x, occupied, bound, &self.clock)
    }

    /// [`Self::score_at_most`] until `clock` stops: `Ok(None)` then.
    pub fn score_at_most_within(
        &self,
        x: u64,
        occupied: u64,
        bound: i8,
        clock: &Clock,
    ) -> Result<Option<bool>> {
        let me = self.board.stones_to_move(x, occupied)?;
        if let Some(score) = self.deepest_book_score(x, occupied) {
            return Ok(Some(score <= bound));
        }
        let (score, _) = self.probe(me, occupied, bound, bound.saturating_add(1), clock);
        Ok((!clock.stopped()).then_some(score <= bound))
    }

    /// The book's exact score of the position when it is of the book's
    /// deepest ply (the search looks the book up at every node below the
    /// root; a root of the deepest ply would otherwise search its
    /// children, none of them in the book: every move's value of a
    /// position one ply shallower searched the whole subtree of each).
    fn deepest_book_score(&self, x: u64, occupied: u64) -> Option<i8> {
        let book = self.book.as_ref()?;
        (occupied.count_ones() == book.max_stones())
            .then(|| book.score(self.board.position_key(x, occupied)))
            .flatten()
    }

    /// A fail-soft search of the root with the window (`alpha`, `beta`),
    /// with the line length unrolled when it is 4 (Connect Four, and the
    /// m,n,k boards verify proves): the value and the move that gave it.
    fn probe(&self, me: u64, occupied: u64, alpha: i8, beta: i8, clock: &Clock) -> (i8, u64) {
        if self.board.k == 4 {
            self.root::<4>(me, occupied, alpha, beta, clock)
        } else {
            self.root::<0>(me, occupied, alpha, beta, clock)
        }
    }

    /// The root, its children after the first split across the workers,
    /// each searched with the root's window (on one worker, or side by
    /// side, in turn with the window narrowing): fail-soft within it.
    /// Returns the value and
    /// the move (its bit) that gave it: of moves giving the same value,
    /// the first in the search's order.
    fn root<const K: u32>(
        &self,
        me: u64,
        mask: u64,
        alpha: i8,
        beta: i8,
        clock: &Clock,
    ) -> (i8, u64) {
        let b = &self.board;
        let node = b.node(me, mask);
        let n = mask.count_ones() as i8;
        let cells = b.cells as i8;
        let possible = b.playable(mask);
        let wins = b.winning_cells::<K>(me, mask) & possible;
        if wins != 0 {
            return (cells - n, wins & wins.wrapping_neg());
        }
        // ordered as inside the tree (with every move: the root keeps the
        // losing ones too); the first is searched alone (a null window
        // often fails high on it), the rest in parallel
        let mut moves = [Move::default(); MAX_MOVES];
        let theirs = b.winning_cells::<K>(me ^ mask, mask);
        let count = self.order_moves::<K>(&node, possible, 0, theirs, &mut moves);
        let lines = |mv: Move| mv.lines(theirs);
        // one worker gains nothing from splitting
        let split = if self.split_workers && rayon::current_num_threads() > 1 {
            SPLIT_PLIES
        } else {
            0
        };
        let first = -self.negamax::<K>(
            &b.child(&node, moves[0].cell()),
            lines(moves[0]),
            (-beta, -alpha),
            split,
            clock,
            &Stop::NONE,
        );
        if first >= beta || count == 1 {
            return (first, moves[0].cell());
        }
        let alpha = alpha.max(first);
        if split == 0 {
            // in turn, each move with the window the earlier ones left
            let (mut best, mut at, mut alpha) = (first, 0, alpha);
            for (i, &mv) in moves[..count].iter().enumerate().skip(1) {
                let v = -self.negamax::<K>(
                    &b.child(&node, mv.cell()),
                    lines(mv),
                    (-beta, -alpha),
                    0,
                    clock,
                    &Stop::NONE,
                );
                if v > best {
                    (best, at) = (v, i);
                }
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
            return (best, moves[at].cell());
        }
        let rest: Vec<i8> = moves[1..count]
            .par_iter()
            .map(|&mv| {
                -self.negamax::<K>(
                    &b.child(&node, mv.cell()),
                    lines(mv),
                    (-beta, -alpha),
                    split,
                    clock,
                    &Stop::NONE,
                )
            })
            .collect();
        // the largest value, the earliest move on ties
        let (at, value) = std::iter::once(first).chain(rest).enumerate().fold(
            (0, i8::MIN),
            |(at, best), (i, v)| if v > best { (i, v) } else { (at, best) },
        );
        (value, moves[at].cell())
    }

    /// Writes the moves in `allowed` into `moves` as words, best first,
    /// and returns how many: the table's move, then most useful winning
    /// cells made (given the opponent's winning cells `theirs`; module
    /// docs), then centre first (a word is the score, then the move's
    /// rank, then its bit). Starts fetching each child's table entry.
    #[inline]
    fn order_moves<const K: u32>(
        &self,
        node: &Node,
        allowed: u64,
        tt_move: u64,
        theirs: u64,
        moves: &mut [Move; MAX_MOVES],
    ) -> usize {
        let b = &self.board;
        let mut count = 0;
        for (rank, &first) in b.order.iter().enumerate() {
            let m = match b.family {
                // the column's playable cell
                Family::Gravity => allowed & b.columns[(first / (b.rows + 1)) as usize],
                Family::Mnk => allowed & 1u64 << first,
            };
            if m == 0 {
                continue;
            }
            self.table.prefetch(b.key(&b.child(node, m)));
            let made_cells = b.winning_cells::<K>(node.me | m, node.mask | m);
            // a threat right above a cell playable after the move is worth
            // more: the opponent must soon answer it or give it up
            let next = match b.family {
                Family::Gravity => (b.playable(node.mask | m) << 1) & made_cells,
                Family::Mnk => 0,
            };
            // a threat right above one of theirs is of no use (they
            // complete theirs before ours can be played); one of theirs
            // right above a new threat of ours is cut off, worth half of
            // ours
            let useful = made_cells & !(theirs << 1);
            let score = 2 * useful.count_ones()
                + 2 * (next & useful).count_ones()
                + (theirs & (useful << 1)).count_ones();
            // the table's best move first, then most winning cells made
            let word = u32::from(m == tt_move) << 24
                | score << 16
                | (255 - rank as u32) << 8
                | m.trailing_zeros();
            let mut at = count;
            while at > 0 && moves[at - 1].word < word {
                moves[at] = moves[at - 1];
                at -= 1;
            }
            moves[at] = Move {
                word,
                made: made_cells,
            };
            count += 1;
        }
        count
    }

    /// Fail-soft negamax on exact scores of `node`, whose player to move
    /// cannot complete a line at once (the parent checked). Within `split`
    /// plies of the root a node may search its moves after the first in
    /// parallel. Unwinds (returning a meaningless 0) once `clock` stops.
    fn negamax<const K: u32>(
        &self,
        node: &Node,
        lines: Lines,
        (mut alpha, mut beta): (i8, i8),
        split: u32,
        clock: &Clock,
        stop: &Stop,
    ) -> i8 {
        let visited = self.nodes.bump();
        if clock.out_of_time(visited, self.progress) || stop.stopped() {
            return 0;
        }
        let b = &self.board;
        let (me, mask) = (node.me, node.mask);
        let n = mask.count_ones() as i8;
        let cells = b.cells as i8;
        if n == cells {
            return 0;
        }
        let possible = b.playable(mask);
        debug_assert_eq!(lines.mine, b.winning_cells::<K>(me, mask));
        debug_assert_eq!(lines.theirs, b.winning_cells::<K>(me ^ mask, mask));
        if lines.mine & possible != 0 {
            return cells - n;
        }
        let threats = lines.theirs;
        let forced = possible & threats;
        let lose_next = -(cells - n - 1);
        let candidates = if forced != 0 {
            if forced & (forced - 1) != 0 {
                return lose_next; // two threats: one completes
            }
            forced
        } else {
            possible
        };
        let safe = match b.family {
            // never play right under a cell where the opponent completes a
            // line
            Family::Gravity => candidates & !(threats >> 1),
            Family::Mnk => candidates,
        };
        if safe == 0 {
            return lose_next;
        }
        // a position the book holds: its exact score, before the one-move
        // shortcut below (a forced line would otherwise leave the book and
        // search below its deepest ply: 3.4 million nodes for a 7-stone
        // root of 7×6 with the 8-stone book, against a few dozen)
        if let Some(book) = &self.book {
            if n as u32 <= book.max_stones() {
                if let Some(score) = book.score(b.key(node)) {
                    return score;
                }
            }
        }
        if safe & (safe - 1) == 0 {
            // one move: play it without a table entry of this node
            let lines = Lines {
                mine: threats & !safe,
                theirs: b.winning_cells::<K>(me | safe, mask | safe),
            };
            return -self.negamax::<K>(
                &b.child(node, safe),
                lines,
                (-beta, -alpha),
                split,
                clock,
                stop,
            );
        }
        // the opponent cannot win at once after a safe move; we cannot win
        // before our next stone
        let mut lower = (n + 3 - cells).min(0);
        let mut upper = (cells - n - 2).max(0);
        let key = b.key(node);
        let mut first = 0;
        if let Some(known) = self.table.get_with_move(key) {
            self.hits.bump();
            lower = lower.max(known.lower);
            upper = upper.min(known.upper);
            first = known.best.map_or(0, |m| b.move_bit(node, m) & safe);
        }
        if beta > -1 && upper > -1 {
            if let Some(bound) = b.parity_bound(me, mask, possible, threats) {
                upper = upper.min(bound);
            }
        }
        if lower >= beta || upper <= alpha || lower >= upper {
            return if lower >= beta { lower } else { upper };
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        let (alpha0, beta0) = (alpha, beta);
        let mut moves = [Move::default(); MAX_MOVES];
        let count = self.order_moves::<K>(node, safe, first, threats, &mut moves);
        // a child whose player to move is held to a loss, or to a draw, by
        // threat parity cuts this node off without being searched
        if beta <= 1 && b.follow_cells != 0 {
            for mv in &moves[..count] {
                let grandchild = b.child(node, mv.cell());
                let possible = b.playable(grandchild.mask);
                if let Some(bound) =
                    b.parity_bound(grandchild.me, grandchild.mask, possible, mv.made)
                {
                    if -bound >= beta {
                        let stored = b.stored_move(node, mv.cell());
                        self.table
                            .put_with_move(key, lower.max(-bound), upper, stored);
                        return -bound;
                    }
                }
            }
        }
        // enhanced transposition cut-off: far from the leaves, a child the
        // table already bounds may cut this node off before any search
        if cells - n >= ETC_MIN_EMPTY {
            for mv in &moves[..count] {
                let grandchild = b.child(node, mv.cell());
                if let Some((_, child_upper)) = self.table.get(b.key(&grandchild)) {
                    if -child_upper >= beta {
                        self.table.put_with_move(
                            key,
                            lower.max(-child_upper),
                            upper,
                            b.stored_move(node, mv.cell()),
                        );
                        return -child_upper;
                    }
                }
            }
        }
        let mut best = i8::MIN;
        let mut best_move = Some(moves[0]);
        let child = |mv: Move| b.child(node, mv.cell());
        let lines = |mv: Move| mv.lines(threats);
        // young brothers wait: near the root, once the first move has not
        // cut off, the others are searched in parallel with the same window
        // (a cut-off found by one stops the rest from starting)
        let parallel = split > 0 && count > 1 && cells - n > SPLIT_MIN_EMPTY;
        for (i, &mv) in moves[..count].iter().enumerate() {
            if parallel && i == 1 {
                let rest = AtomicI8::new(i8::MIN);
                let window = (-beta, -alpha);
                // a cut-off by one stops the others, started or not
                let cut = AtomicBool::new(false);
                let inner = Stop {
                    flag: Some(&cut),
                    parent: Some(stop),
                };
                moves[1..count].par_iter().find_map_any(|&mv| {
                    let v =
                        -self.negamax::<K>(&child(mv), lines(mv), window, split - 1, clock, &inner);
                    if inner.stopped() {
                        // stopped part-way: its value means nothing
                        return Some(());
                    }
                    rest.fetch_max(v, Relaxed);
                    (v >= beta).then(|| cut.store(true, Relaxed))
                });
                let rest = rest.into_inner();
                if rest > best {
                    // which of the others gave it is not kept
                    (best, best_move) = (rest, None);
                }
                break;
            }
            let v = -self.negamax::<K>(
                &child(mv),
                lines(mv),
                (-beta, -alpha),
                split.saturating_sub(1),
                clock,
                stop,
            );
            if v > best {
                (best, best_move) = (v, Some(mv));
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        // a child abandoned when the clock stopped, or stopped by a
        // cut-off above, returned a meaningless 0
        if clock.stopped() || stop.stopped() {
            return 0;
        }
        (lower, upper) = bounds_after_search(best, (alpha0, beta0), (lower, upper));
        let stored = best_move.and_then(|mv| b.stored_move(node, mv.cell()));
        self.table.put_with_move(key, lower, upper, stored);
        best
    }
}
